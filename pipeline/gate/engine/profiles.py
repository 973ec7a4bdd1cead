"""The failure-mode profiles of ``leakline engine-sim``, one row per profile.

A profile is data, not code: each row switches on the serving-stack faults it
reproduces (facts from the seeds), and ``leakline.pipeline.gate.engine.sim`` applies them in one
fixed order to whatever a request asks for. Adding a profile is adding a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from leakline.pipeline.core.errors import LeaklineError


class ReasoningPlacement(StrEnum):
    """Where the engine puts the model's reasoning."""

    FIELD = "field"  # a reasoning parser split it into the reasoning field (correct)
    CONTENT = "content"  # no reasoning parser: `<think>…</think>` stays in the content
    ANSWER_IN_REASONING = "answer_in_reasoning"  # wrong parser family: everything is reasoning


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    summary: str  # one line for --help and the docs' profile table (docs/hooks.py)
    cause: str  # the serving-stack fault it stands for
    reasoning: ReasoningPlacement = ReasoningPlacement.FIELD
    reasoning_field: str = "reasoning"  # chat.completions field name (vLLM >= 0.10 spelling)
    stop_stream_leak: bool = False  # stream + stop: reasoning tail and `</think>` reach content
    tools_as_text: bool = False  # tool calls left in content as Hermes `<tool_call>` markup
    grammar_missed: bool = False  # structured output wrapped in prose + a ```json fence
    runaway_reasoning: bool = False  # reasoning never ends: `length` with empty content
    preamble: bool = False  # the answer opens with a progress sentence
    mixed_chunk: bool = False  # streamed: one chunk carries reasoning and content
    drop_tool_calls: bool = False  # answers in prose where a tool call was due
    runaway_turn: bool = False  # no stop at the end token: writes the next user turn and more
    stalled: bool = False  # announces the lookup/call in text and ends the turn


PROFILES: tuple[Profile, ...] = (
    Profile(
        "good",
        "clean answers, structured tool calls, schema-valid JSON",
        "matching reasoning and tool-call parsers, grammar applied after reasoning",
    ),
    Profile(
        "stop",
        "streaming with `stop` leaks the reasoning tail and `</think>` into content",
        "stop-string buffer delays delta text but not token ids (vLLM #38789 / #51641)",
        stop_stream_leak=True,
    ),
    Profile(
        "tool-parser-only",
        "reasoning merged into content as `<think>…</think>` before the answer",
        "--tool-call-parser without --reasoning-parser (vLLM #51679)",
        reasoning=ReasoningPlacement.CONTENT,
    ),
    Profile(
        "wrong-parser",
        "the answer lands in the reasoning field and content is empty",
        "reasoning parser of another model family",
        reasoning=ReasoningPlacement.ANSWER_IN_REASONING,
    ),
    Profile(
        "tools-as-text",
        "tool calls come back as `<tool_call>{…}</tool_call>` text, no tool_calls",
        "tool-call parser missing or of the wrong family",
        tools_as_text=True,
    ),
    Profile(
        "grammar-missed",
        "structured output has prefix prose and a ```json fence (HTTP 200)",
        "end of reasoning missed, so the JSON grammar was never applied (vLLM #43388)",
        grammar_missed=True,
    ),
    Profile(
        "length",
        "reasoning runs into max_tokens: finish_reason length, empty content",
        "max_tokens reached during reasoning; no budget end string",
        runaway_reasoning=True,
    ),
    Profile(
        "preamble",
        "answers open with a progress sentence in the request's language (en/ko/zh)",
        "model habit, or commentary rendered as the answer",
        preamble=True,
    ),
    Profile(
        "mixed-chunk",
        "streamed chat chunk carries both reasoning and content (answer otherwise clean)",
        "DeepSeek-style parser filling both fields in one delta (vLLM #43933)",
        mixed_chunk=True,
    ),
    Profile(
        "sglang",
        "clean, but reasoning in `reasoning_content` (SGLang's field name)",
        "engine family that kept the old field name",
        reasoning_field="reasoning_content",
    ),
    Profile(
        "drops-tool-calls",
        "answers in prose where it should call a declared tool (no label: trigger F1 drops)",
        "tool-call grammar/structural tag not applied, or a model that under-triggers",
        drop_tool_calls=True,
    ),
    Profile(
        "runaway",
        "ignores the end token: after the answer it writes the user's next turn and its reply",
        "the template's end-of-turn token is not a stop condition (stop_token_ids / EOS id)",
        runaway_turn=True,
    ),
    Profile(
        "stalled",
        "announces the lookup or call in text and ends the turn: no call, no answer",
        "tool-call parser dropped the call, tool_choice ignored, or a template ending the turn",
        stalled=True,
    ),
    Profile(
        "leaky",
        "several faults at once: stop leak, tools as text, missed grammar, preambles",
        "a badly configured deployment",
        stop_stream_leak=True,
        tools_as_text=True,
        grammar_missed=True,
        preamble=True,
    ),
)

BY_NAME: dict[str, Profile] = {p.name: p for p in PROFILES}
DEFAULT_PROFILE = "good"
PROFILE_HEADER = "x-leakline-profile"  # picks a profile for one request
MODEL_PREFIX = "sim-"  # model "sim-leaky" picks the "leaky" profile for that request


def get_profile(name: str) -> Profile:
    """The row named ``name``; an unknown name lists the known ones."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise LeaklineError(
            f"unknown engine-sim profile {name!r}",
            hint="choose from: " + ", ".join(BY_NAME),
        ) from None


def profile_table_markdown() -> str:
    """The profiles as a Markdown table (the gate guide in the docs site, generated by docs/hooks.py)."""
    lines = ["| profile | behaviour | stands for |", "|---|---|---|"]
    lines += [f"| `{p.name}` | {p.summary} | {p.cause} |" for p in PROFILES]
    return "\n".join(lines)
