"""``history_mismatch``: the conversation the request sends back breaks the family's rules for
reasoning across turns.

Request side, not output: the finding is about ``exchange.history`` (the earlier turns the
gateway sent), so it has no span. The *current turn* is everything after the last user
message (assistant tool calls and their results); *prior turns* end before it.

- ``reasoning_missing_between_tool_calls``: a family that must get its reasoning back
  between the tool calls of one turn (harmony/gpt-oss analysis; Claude thinking blocks with
  tool use when thinking is on; Kimi K2 Thinking and MiniMax-M2 interleaved thinking) gets an
  assistant tool-call turn of the current turn without it.
- ``prior_reasoning_resent``: a family whose template drops reasoning after a final answer
  (harmony: analysis of earlier turns; DeepSeek-R1: its API rejects ``reasoning_content`` in
  input messages) gets reasoning of a prior turn back.

Families are rows of ``HISTORY_FAMILIES`` (lower-case model-name substrings).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange, Turn
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source


@dataclass(frozen=True, slots=True)
class HistoryFamily:
    name: str
    model_patterns: tuple[str, ...]
    # reasoning must come back between the tool calls of one turn
    needs_between_tool_calls: bool
    # ... only when the request turns thinking on (Claude: thinking blocks with tool use)
    only_when_thinking: bool
    # reasoning of turns that ended in a final answer must not be sent back
    drops_after_final: bool
    # engine reasoning-parser names that identify the family when the model name does not
    parser_names: tuple[str, ...] = ()


HISTORY_FAMILIES: tuple[HistoryFamily, ...] = (
    # OpenAI "Verifying gpt-oss implementations": pass analysis back between tool calls,
    # drop it from earlier turns after a final answer.
    HistoryFamily("harmony", ("gpt-oss",), True, False, True, ("openai_gptoss", "gpt-oss")),
    # Anthropic extended thinking with tool use: the last assistant turn's thinking blocks
    # must be passed back unmodified; the API strips earlier turns' blocks itself.
    HistoryFamily("claude", ("claude",), True, True, False),
    # interleaved-thinking models whose templates keep reasoning across tool calls
    HistoryFamily(
        "kimi_k2_thinking", ("kimi-k2-thinking", "kimi-k2.5", "kimi-k2.6"), True, False, False
    ),
    HistoryFamily("minimax_m2", ("minimax-m2",), True, False, False, ("minimax_m2_append_think",)),
    # DeepSeek API: reasoning_content in input messages is a 400 for deepseek-reasoner.
    HistoryFamily(
        "deepseek_r1", ("deepseek-r1", "deepseek-reasoner"), False, False, True, ("deepseek_r1",)
    ),
)


@lru_cache(maxsize=256)  # per (model, parser): the same few pairs all day
def history_family(model_name: str | None, parser: str | None = None) -> HistoryFamily | None:
    """The row whose model patterns match the model name, else whose parser names match."""
    if model_name:
        lowered = model_name.lower()
        for family in HISTORY_FAMILIES:
            if any(p in lowered for p in family.model_patterns):
                return family
    if parser:
        for family in HISTORY_FAMILIES:
            if parser.lower() in family.parser_names:
                return family
    return None


def split_turns(history: tuple[Turn, ...]) -> tuple[tuple[Turn, ...], tuple[Turn, ...]]:
    """(prior turns, current turn): split at the last user message."""
    last_user = -1
    for i, turn in enumerate(history):
        if turn.role == "user":
            last_user = i
    if last_user < 0:
        return (), history
    return history[:last_user], history[last_user + 1 :]


class ReasoningHistory(DetectorBase):
    id = "reasoning_history"
    version = "1"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        history = exchange.history
        if len(history) < 2:
            return []
        versions = exchange.versions
        family = history_family(versions.model_name, versions.reasoning_parser)
        if family is None:
            return []
        prior, current = split_turns(history)
        out: list[Finding] = []
        thinking = exchange.config.thinking
        wants = family.needs_between_tool_calls and (
            thinking == "on" if family.only_when_thinking else thinking != "off"
        )
        if wants:
            missing = [
                t for t in current if t.role == "assistant" and t.tool_calls and not t.reasoning
            ]
            if missing:
                out.append(
                    self._mismatch(
                        "reasoning_missing_between_tool_calls",
                        family,
                        len(missing),
                        Remediation.REGENERATE,
                        f"{len(missing)} assistant tool-call turn(s) of the current turn sent "
                        f"back without their reasoning ({family.name})",
                    )
                )
        if family.drops_after_final:
            resent = [t for t in prior if t.role == "assistant" and t.reasoning]
            if resent:
                out.append(
                    self._mismatch(
                        "prior_reasoning_resent",
                        family,
                        len(resent),
                        Remediation.STRIP,
                        f"reasoning of {len(resent)} earlier assistant turn(s) sent back after a "
                        f"final answer ({family.name})",
                    )
                )
        return out

    def _mismatch(
        self,
        problem: str,
        family: HistoryFamily,
        turns: int,
        remediation: Remediation,
        evidence: str,
    ) -> Finding:
        return self.finding(
            Label.HISTORY_MISMATCH,
            layer=Layer.CLIENT,
            remediation=remediation,
            confidence=1.0,
            evidence=evidence,
            details={"problem": problem, "family": family.name, "turns": turns},
        )
