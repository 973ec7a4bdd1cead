"""Issue 32, defect 10: what is redacted in one field of a finding is redacted in every
field an output shows. Evidence is derived from the stored (redacted) text wherever it
quotes that text, so it can neither hide what the text shows nor show what it hides."""

from __future__ import annotations

from leakline.detectors import run_detectors
from leakline.detectors.finding import Finding, evidence_snippet
from leakline.detectors.labels import Layer, Remediation, Source
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.redact import Redactor, redact_exchange, redact_findings

DEFAULT = Redactor.default()

# a Chinese answer has no spaces: the run before a snippet's cut is one long "token",
# and with an order number in it a guard for cut secrets used to blank the evidence
CHINESE = (
    "好的我来想一想用户问的是订单2024011512345的问题我应该先查询再回答</think>"
    "您好，您的订单已经发货了，请注意查收，谢谢您的耐心等待。"
)
# ... and the same with real PII inside the leaking span
CHINESE_PII = (
    "用户手机13800138000，密码：Hunter2024xyz，订单2024011512345的问题我应该先查询再回答</think>"
    "您好，您的订单已经发货了，请注意查收，谢谢您的耐心等待。"
)
PII = ("13800138000", "Hunter2024xyz")


def _event(content: str) -> dict:
    return {
        "event_id": "e1",
        "api": "chat.completions",
        "engine": {"name": "vllm", "version": "0.9.0"},
        "model": {"name": "Qwen/Qwen3-32B"},
        "parsers": {"reasoning": "qwen3", "tool_call": "hermes"},
        "request": {"messages": [{"role": "user", "content": "订单怎么样了"}]},
        "response": {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]},
    }


def _finding(span: tuple[int, int] | None, evidence: str) -> Finding:
    return Finding(
        label="reasoning_leak",
        detector_id="test",
        detector_version="1",
        source=Source.RULE,
        layer=Layer.PARSER,
        remediation=Remediation.STRIP,
        confidence=0.9,
        evidence=evidence,
        span=span,
    )


def _core(evidence: str) -> str:
    return evidence.strip("…")


def test_a_snippet_of_an_unredacted_text_is_the_snippet_of_the_stored_text() -> None:
    """The defect as seen in ``tail``: evidence ``[REDACTED]…`` beside a span in full."""
    exchange = normalise(_event(CHINESE))
    verdict = run_detectors(exchange)
    assert any(f.span for f in verdict.findings)
    safe = redact_exchange(exchange, verdict.findings)
    assert safe.visible_text == exchange.visible_text  # nothing here is a secret
    for before, after in zip(verdict.findings, safe.findings, strict=True):
        assert "[REDACTED]" not in after.evidence
        if after.span is not None:
            assert after.evidence == before.evidence
            assert _core(after.evidence) in safe.visible_text


def test_pii_inside_a_span_is_redacted_in_the_span_and_the_evidence_alike() -> None:
    exchange = normalise(_event(CHINESE_PII))
    verdict = run_detectors(exchange)
    safe = redact_exchange(exchange, verdict.findings)
    assert "[PHONE]" in safe.visible_text and "[API_KEY]" in safe.visible_text
    spanned = [f for f in safe.findings if f.span is not None]
    assert spanned
    for f in spanned:
        shown = safe.visible_text[f.span[0] : f.span[1]]
        assert f.evidence == evidence_snippet(safe.visible_text, *f.span)
        for secret in PII:
            assert secret not in shown and secret not in f.evidence


def test_evidence_quoting_the_text_is_mapped_onto_the_stored_text() -> None:
    """Evidence that is no snippet at the span but quotes the text (a structured item,
    a tail after a cut) shows exactly what the stored text shows there."""
    text = "前文很长很长的内容，订单2024011512345的问题我应该先查询再回答，然后结束"
    out = DEFAULT.redact(text)
    assert not out.changed
    quote = "…订单2024011512345的问题我应该先查询…"
    (finding,) = redact_findings([_finding(None, quote)], out)
    assert finding.evidence == quote


def test_a_quote_cut_inside_a_secret_shows_the_placeholder_not_the_rest() -> None:
    text = "call me at 010-1234-5678 tomorrow about the order"
    out = DEFAULT.redact(text)
    assert out.text == "call me at [PHONE] tomorrow about the order"
    # a quote that starts inside the number: standalone, "1234-5678 tomorrow" is no phone
    (finding,) = redact_findings([_finding(None, "…1234-5678 tomorrow about")], out)
    assert "1234" not in finding.evidence and "5678" not in finding.evidence
    assert finding.evidence == "…[PHONE] tomorrow about"


def test_a_quote_of_the_reasoning_text_is_mapped_onto_the_stored_reasoning() -> None:
    visible, reasoning = "", "我想想，用户的电话是010-1234-5678，然后回复他"
    out_v, out_r = DEFAULT.redact(visible), DEFAULT.redact(reasoning)
    (finding,) = redact_findings(
        [_finding(None, "content empty; reasoning ends: …1234-5678，然后回复他")],
        out_v,
        out_r,
    )
    assert "5678" not in finding.evidence
    assert finding.evidence == "content empty; reasoning ends: …[PHONE]，然后回复他"


def test_evidence_that_quotes_nothing_keeps_the_cut_guard() -> None:
    out = DEFAULT.redact("plain text")
    (finding,) = redact_findings([_finding(None, 'send({"to": "someone.important@exampl…')], out)
    assert "someone" not in finding.evidence
