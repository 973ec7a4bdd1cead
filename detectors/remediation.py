"""Remediation helpers a gateway calls after the detectors: strip, rescue, retry, give up.

Pure functions over findings (no I/O, no model calls). A typical non-streaming flow:

    from leakline.detectors import run_detectors
    from leakline.detectors.remediation import FallbackPolicy, openai_tool_calls, strip

    policy = FallbackPolicy(max_retries=2)
    verdict = run_detectors(exchange)
    decision = policy.decide(verdict, attempts=0, declared_tools=exchange.declared_tools)
    if decision.action is None:                      # clean: send as is
        answer = exchange.visible_text
    elif decision.action == "strip":
        answer = strip(exchange.visible_text, verdict).text
    elif decision.action == "rescue":
        calls = openai_tool_calls(decision.calls)    # OpenAI-style message.tool_calls
    elif decision.action == "regenerate":
        retry_with(decision.feedback)                # extra user message, then decide again
    else:                                            # "fallback": explicit failure / other model
        ...

The decision table of ``FallbackPolicy.decide`` (first matching row wins):

    1. no findings                                   -> None (serve as is)
    2. a finding recommends FALLBACK                 -> FALLBACK (e.g. final_in_reasoning:
                                                        regenerating through the same parser
                                                        repeats it)
    3. every finding is strippable (or lies inside
       the span of one that is)                      -> STRIP
    4. every finding is strippable or rescuable,
       at least one rescuable                        -> RESCUE (``calls`` = the rescued calls)
    5. attempts < max_retries                        -> REGENERATE (``errors``/``feedback``)
    6. otherwise                                     -> FALLBACK (retry bound reached)

"Strippable": remediation STRIP and a span; a finding wholly inside such a span (the
untagged-reasoning cue inside a ``</think>`` region) is settled by the same cut.
"Rescuable": remediation RESCUE and, for ``tool_call_as_text``, at least one rescued call
and none known to break its schema (a call whose schema could not be checked counts as
valid); other RESCUE findings (``mixed_chunk``: re-split the chunk) add no calls. ``attempts`` is the number of
regenerations already made for this request: with ``max_retries=2`` the first answer and
one retry may regenerate, the third answer falls back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from leakline.detectors import schema
from leakline.detectors.base import Verdict
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Remediation
from leakline.detectors.text import loads

Span = tuple[int, int]
Findings = Verdict | Iterable[Finding]


def _findings(source: Findings) -> list[Finding]:
    return list(source.findings if isinstance(source, Verdict) else source)


# --------------------------------------------------------------------------- strip


@dataclass(frozen=True, slots=True)
class StripResult:
    """``text`` with the ``removed`` spans (of the original text, sorted, merged) cut out.

    ``skipped`` lists the findings left alone (only with ``partial=True``).
    """

    text: str
    removed: list[Span]
    skipped: tuple[Finding, ...] = ()


def strippable(finding: Finding, text: str | None = None) -> bool:
    """Remediation STRIP with a span; with ``text``, the span must also fit it.

    A boundary-token finding must name exactly the text at its span, so findings from
    another text are refused instead of cutting the wrong characters.
    """
    if finding.remediation != Remediation.STRIP or finding.span is None:
        return False
    start, end = finding.span
    if text is None:
        return 0 <= start <= end
    if not 0 <= start <= end <= len(text):
        return False
    token = finding.details.get("token")
    return not isinstance(token, str) or text[start:end] == token


def strip(text: str, findings: Findings, *, partial: bool = False) -> StripResult | None:
    """Cut the spans of strippable findings out of ``text``; everything else stays byte-identical.

    Overlapping or touching spans are merged (a boundary token inside a reasoning region
    is removed once). A finding that is not strippable but lies wholly inside a removed
    span (an untagged-reasoning cue inside a delimited region) is settled by the cut.
    Any other finding that is not strippable makes the result None (stripping alone would
    not fix the response), unless ``partial=True``: then it is skipped and listed in
    ``StripResult.skipped``. Nothing else is normalised: the whitespace around a removed
    span stays (a blank line after ``</think>`` is still there; ``lstrip`` if you want).
    """
    found = _findings(findings)
    removed = merge_spans(f.span for f in found if f.span is not None and strippable(f, text))
    skipped = tuple(f for f in found if not _settled(f, text, removed))
    if skipped and not partial:
        return None
    kept: list[str] = []
    pos = 0
    for start, end in removed:
        kept.append(text[pos:start])
        pos = end
    kept.append(text[pos:])
    return StripResult("".join(kept), removed, skipped)


def _settled(finding: Finding, text: str | None, removed: list[Span]) -> bool:
    """Strippable, or (not meant for stripping but) about text the removed spans cut out."""
    if finding.remediation == Remediation.STRIP or finding.span is None:
        return strippable(finding, text)
    start, end = finding.span
    return start < end and any(a <= start and end <= b for a, b in removed)


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """Sorted spans with overlapping and touching ones merged; empty spans dropped."""
    merged: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


# --------------------------------------------------------------------------- rescue


@dataclass(frozen=True, slots=True)
class RescuedCall:
    """A tool call recovered from text.

    ``schema_valid`` is True when the tool is declared and its arguments pass the schema
    (or it has none), False when the tool is undeclared or the arguments fail, and None
    when nothing was known to check against.
    """

    name: str
    arguments: dict[str, Any]
    schema_valid: bool | None
    errors: tuple[str, ...] = ()
    syntax: str | None = None
    span: Span | None = None


_MAX_ERRORS = 3


def rescue(
    source: Exchange | Findings,
    *,
    findings: Findings | None = None,
    declared_tools: Mapping[str, Any] | None = None,
) -> list[RescuedCall]:
    """Structured calls from the ``tool_call_as_text`` findings, in text order.

    ``source`` is an ``Exchange`` (its ``tool_call_text`` findings are computed unless
    ``findings`` is given, and its ``declared_tools`` are used) or findings / a verdict.
    The validity the detector stored with each call is used as is; for entries without
    it, the call is checked against ``declared_tools`` with ``leakline.detectors.schema``. Entries
    that are not call-shaped are skipped. Never raises on odd details.
    """
    declared: Mapping[str, Any] | None
    if isinstance(source, Exchange):
        declared = source.declared_tools if declared_tools is None else declared_tools
        if findings is None:
            from leakline.detectors.base import get_detector

            findings = get_detector("tool_call_text").detect(source)
        chosen = _findings(findings)
    else:
        declared = declared_tools
        chosen = _findings(source if findings is None else findings)
    calls: list[RescuedCall] = []
    for finding in chosen:
        if finding.label != Label.TOOL_CALL_AS_TEXT:
            continue
        entries = finding.details.get("rescued_calls")
        if not isinstance(entries, list):
            continue
        undeclared = finding.details.get("undeclared_tools") or ()
        for entry in entries:
            call = _rescued(entry, finding, declared, undeclared)
            if call is not None:
                calls.append(call)
    return calls


def _rescued(
    entry: Any, finding: Finding, declared: Mapping[str, Any] | None, undeclared: Any
) -> RescuedCall | None:
    if not isinstance(entry, dict):
        return None
    name = entry.get("name")
    arguments = entry.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = loads(arguments)
        except ValueError:
            return None
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return None
    valid = entry.get("schema_valid")
    if isinstance(valid, bool):
        errors = _error_texts(entry.get("errors"))
        if not valid and not errors:
            errors = ("arguments do not match the declared schema",)
    else:
        valid, errors = _validate(name, arguments, declared, undeclared)
    syntax = finding.details.get("syntax")
    return RescuedCall(
        name=name,
        arguments=arguments,
        schema_valid=valid,
        errors=errors[:_MAX_ERRORS],
        syntax=syntax if isinstance(syntax, str) else None,
        span=finding.span,
    )


def _validate(
    name: str, arguments: dict[str, Any], declared: Mapping[str, Any] | None, undeclared: Any
) -> tuple[bool | None, tuple[str, ...]]:
    if declared is None:
        if isinstance(undeclared, (list, tuple)) and name in undeclared:
            return False, (f"{name!r} is not a declared tool",)
        return None, ()
    if name not in declared:
        known = ", ".join(sorted(declared)[:20])
        return False, (f"{name!r} is not a declared tool (declared: {known})",)
    tool_schema = declared[name]
    if tool_schema is None or schema.is_valid(tool_schema, arguments) is not False:
        return True, ()
    errors = tuple(
        v.message + (f" at {v.path}" if v.path else "")
        for v in schema.violations(tool_schema, arguments, _MAX_ERRORS)
    )
    return False, errors or ("arguments do not match the declared schema",)


def _error_texts(raw: Any) -> tuple[str, ...]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, (list, tuple)):
        return ()
    texts = []
    for item in raw:
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict) and isinstance(item.get("message"), str):
            path = item.get("path")
            texts.append(item["message"] + (f" at {path}" if path else ""))
    return tuple(texts)


def openai_tool_calls(
    calls: Iterable[RescuedCall], *, id_prefix: str = "call_", valid_only: bool = True
) -> list[dict[str, Any]]:
    """An OpenAI chat.completions ``message.tool_calls`` list for rescued calls.

    Ids are ``id_prefix`` plus the call's position (pass a request-unique prefix).
    ``arguments`` is a JSON string, as the API sends it. With ``valid_only`` (the
    default) calls known to break their schema are left out.
    """
    out: list[dict[str, Any]] = []
    for call in calls:
        if valid_only and call.schema_valid is False:
            continue
        out.append(
            {
                "id": f"{id_prefix}{len(out)}",
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": json.dumps(call.arguments, ensure_ascii=False, default=str),
                },
            }
        )
    return out


# --------------------------------------------------------------------------- retry feedback

# target -> lang -> (heading, instruction, "N more" template)
_FEEDBACK: dict[str, dict[str, tuple[str, str, str]]] = {
    "json": {
        "en": (
            "Your previous answer failed validation:",
            "Answer again with only one valid JSON value that matches the schema: "
            "no prose, no code fences.",
            "(and {n} more)",
        ),
        "ko": (
            "이전 응답이 검증을 통과하지 못했습니다:",
            "스키마에 맞는 JSON 값 하나만 다시 보내 주세요. 설명 문장이나 코드 펜스는 빼 주세요.",
            "(외 {n}건)",
        ),
        "zh": (
            "上一次的回答没有通过校验：",
            "请重新回答，只输出一个符合 schema 的 JSON 值，不要附加说明文字或代码块。",
            "（另有 {n} 处）",
        ),
    },
    "tool_call": {
        "en": (
            "Your previous tool call failed validation:",
            "Call the tool again with arguments that match its schema, as a tool call "
            "only, with no text around it.",
            "(and {n} more)",
        ),
        "ko": (
            "이전 도구 호출이 검증을 통과하지 못했습니다:",
            "스키마에 맞는 인자로 도구를 다시 호출해 주세요. 다른 문장 없이 도구 호출만 보내 주세요.",
            "(외 {n}건)",
        ),
        "zh": (
            "上一次的工具调用没有通过校验：",
            "请用符合 schema 的参数重新调用该工具，只输出工具调用本身，不要附加其他文字。",
            "（另有 {n} 处）",
        ),
    },
}
LANGUAGES: tuple[str, ...] = tuple(_FEEDBACK["json"])
TARGETS: tuple[str, ...] = tuple(_FEEDBACK)
_ERROR_CHARS = 200
_SPACES = re.compile(r"\s+")


def retry_feedback(
    errors: Iterable[str | schema.SchemaViolation],
    limit: int = 3,
    lang: str = "en",
    *,
    target: str = "json",
) -> str:
    """A short retry-with-feedback message: the first ``limit`` errors, then what to send.

    ``target`` is ``"json"`` (structured output) or ``"tool_call"``; ``lang`` one of
    ``LANGUAGES`` (en, ko, zh). Errors are put on one line each, shortened and de-duplicated;
    the rest are only counted, so the message stays short. Unknown ``lang``/``target``
    raise ``ValueError`` listing the known ones.
    """
    if target not in _FEEDBACK:
        raise ValueError(f"unknown target {target!r}; known targets: {', '.join(TARGETS)}")
    if lang not in _FEEDBACK[target]:
        raise ValueError(f"unknown language {lang!r}; known languages: {', '.join(LANGUAGES)}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    heading, instruction, more = _FEEDBACK[target][lang]
    lines = list(dict.fromkeys(filter(None, (_one_line(e) for e in errors))))
    if not lines:
        return instruction
    shown = [f"- {line}" for line in lines[:limit]]
    if len(lines) > limit:
        shown.append(more.format(n=len(lines) - limit))
    return "\n".join([heading, *shown, instruction])


def _one_line(error: str | schema.SchemaViolation) -> str:
    if isinstance(error, schema.SchemaViolation):
        text = error.message + (f" at {error.path}" if error.path else "")
    else:
        text = str(error)
    text = _SPACES.sub(" ", text).strip()
    return text if len(text) <= _ERROR_CHARS else text[: _ERROR_CHARS - 1] + "…"


# --------------------------------------------------------------------------- policy


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do with one response.

    ``action`` is None for a clean response. For REGENERATE, ``errors`` are the validation
    errors to feed back and ``feedback`` the ready message (None when there is nothing
    specific to say); for RESCUE, ``calls`` are the rescued calls.
    """

    action: Remediation | None
    reason: str
    errors: tuple[str, ...] = ()
    calls: tuple[RescuedCall, ...] = ()
    feedback: str | None = None


_TOOL_LABELS = frozenset({Label.TOOL_CALL_AS_TEXT.value, Label.TOOL_ARGS_INVALID.value})
# structured_invalid reasons -> what to tell the model when there is no schema message
_STRUCTURED_REASONS = {
    "empty": "the answer was empty",
    "fenced": "the JSON was wrapped in a code fence",
    "prefix_text": "there was text before or after the JSON",
    "not_json": "the answer was not JSON",
    "not_object": "expected a JSON object",
}

# tool_args_invalid reasons without a schema message
_ARGS_REASONS = {
    "unknown_tool": "not a declared tool",
    "not_json": "the arguments are not valid JSON",
    "not_object": "the arguments are not a JSON object",
}


@dataclass(frozen=True, slots=True)
class FallbackPolicy:
    """Bounded, deterministic choice of strip / rescue / regenerate / fallback.

    See the module docstring for the decision table. ``lang`` is the language of the
    ready-made ``Decision.feedback``.
    """

    max_retries: int = 2
    lang: str = "en"

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {self.max_retries}")
        if self.lang not in LANGUAGES:
            known = ", ".join(LANGUAGES)
            raise ValueError(f"unknown language {self.lang!r}; known languages: {known}")

    def decide(
        self,
        verdict_or_findings: Findings,
        attempts: int,
        *,
        declared_tools: Mapping[str, Any] | None = None,
    ) -> Decision:
        """Decide for one response; ``attempts`` = regenerations already made (0 at first)."""
        if attempts < 0:
            raise ValueError(f"attempts must be >= 0, got {attempts}")
        found = _findings(verdict_or_findings)
        if not found:
            return Decision(None, "no findings")
        labels = ", ".join(sorted({f.label for f in found}))
        structural = [f for f in found if f.remediation == Remediation.FALLBACK]
        if structural:
            first = structural[0]
            action = first.details.get("action")
            how = f" ({action})" if isinstance(action, str) else ""
            return Decision(Remediation.FALLBACK, f"{first.label} needs a fallback{how}")
        removed = merge_spans(f.span for f in found if f.span is not None and strippable(f))
        settled = [_settled(f, None, removed) for f in found]
        if all(settled):
            return Decision(Remediation.STRIP, f"every finding is strippable: {labels}")
        rescued: list[RescuedCall] = []
        rescuable = True
        for finding, done in zip(found, settled, strict=True):
            if done:
                continue
            calls = _rescuable(finding, declared_tools)
            if calls is None:
                rescuable = False
                break
            rescued.extend(calls)
        if rescuable:
            return Decision(
                Remediation.RESCUE,
                f"rescued {len(rescued)} tool call(s): {labels}",
                calls=tuple(rescued),
            )
        if attempts >= self.max_retries:
            return Decision(
                Remediation.FALLBACK,
                f"retry bound reached ({attempts}/{self.max_retries} regenerations): {labels}",
            )
        errors = _feedback_errors(found, declared_tools)
        target = "tool_call" if any(f.label in _TOOL_LABELS for f in found) else "json"
        feedback = retry_feedback(errors, lang=self.lang, target=target) if errors else None
        return Decision(
            Remediation.REGENERATE,
            f"regeneration {attempts + 1} of {self.max_retries}: {labels}",
            errors=tuple(errors),
            feedback=feedback,
        )


def _rescuable(finding: Finding, declared: Mapping[str, Any] | None) -> list[RescuedCall] | None:
    """The calls this finding contributes to a rescue, or None when it cannot be rescued."""
    if finding.remediation != Remediation.RESCUE:
        return None
    if finding.label != Label.TOOL_CALL_AS_TEXT:
        return []  # e.g. mixed_chunk: the gateway re-splits the chunk, nothing to call
    calls = rescue([finding], declared_tools=declared)
    if not calls or any(c.schema_valid is False for c in calls):
        return None
    return calls


def _feedback_errors(found: list[Finding], declared: Mapping[str, Any] | None) -> list[str]:
    errors: list[str] = []
    for finding in found:
        details = finding.details
        if finding.label == Label.STRUCTURED_INVALID:
            error = details.get("error")
            reason = details.get("reason")
            if isinstance(error, str):
                errors.append(error)
            elif isinstance(reason, str):
                errors.append(_STRUCTURED_REASONS.get(reason, reason))
        elif finding.label == Label.TOOL_ARGS_INVALID:
            tool = details.get("tool") or "tool"
            reason = details.get("reason")
            what = details.get("error") or _ARGS_REASONS.get(str(reason), "invalid arguments")
            where = details.get("path")
            errors.append(f"{tool}: {what}" + (f" at {where}" if where else ""))
        elif finding.label == Label.TOOL_CALL_AS_TEXT:
            calls = rescue([finding], declared_tools=declared)
            if not calls:
                errors.append("the tool call was written as text and could not be parsed")
            errors.extend(
                f"{c.name}: {e}" for c in calls if c.schema_valid is False for e in c.errors
            )
    return errors
