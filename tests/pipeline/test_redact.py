"""Redaction of stored text: rules, spans, findings, idempotence, raw mode and speed."""

from __future__ import annotations

import time
from dataclasses import replace

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leakline.detectors import Finding, Layer, Remediation, Source, run_detectors
from leakline.detectors.finding import evidence_snippet
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.redact import (
    DEFAULT_RULES,
    RULES,
    Redactor,
    UnknownRuleError,
    json_safe,
    luhn_ok,
    redact_exchange,
    redact_findings,
)

DEFAULT = Redactor.default()

# (id, text, expected redacted text)
POSITIVES = [
    # --- e-mail
    ("email_en", "Mail john.doe+x@example.co.uk today", "Mail [EMAIL] today"),
    ("email_ko", "연락처는 kim.minsu@example.kr 입니다", "연락처는 [EMAIL] 입니다"),
    ("email_ko_suffix", "메일은john@example.com으로 보내세요", "메일은[EMAIL]으로 보내세요"),
    ("email_zh", "邮箱：li.wei@qq.com，请查收", "邮箱：[EMAIL]，请查收"),
    ("email_in_json", '{"to": "a_b@mail.example.org"}', '{"to": "[EMAIL]"}'),
    # --- phone
    ("phone_kr_intl", "전화 +82 10-1234-5678 로", "전화 [PHONE] 로"),
    ("phone_kr_mobile", "휴대폰 010-1234-5678", "휴대폰 [PHONE]"),
    ("phone_kr_glued", "전화010-1234-5678입니다", "전화[PHONE]입니다"),
    ("phone_kr_plain", "번호는 01012345678 입니다", "번호는 [PHONE] 입니다"),
    ("phone_kr_seoul", "대표번호 02-123-4567", "대표번호 [PHONE]"),
    ("phone_kr_paren", "문의 (02) 123-4567", "문의 [PHONE]"),
    ("phone_cn_spaced", "请拨打 138 0013 8000 联系", "请拨打 [PHONE] 联系"),
    ("phone_cn_plain", "手机13800138000，谢谢", "手机[PHONE]，谢谢"),
    ("phone_cn_intl", "电话 +86 138 0013 8000", "电话 [PHONE]"),
    ("phone_cn_landline", "座机 010-12345678", "座机 [PHONE]"),
    ("phone_us_paren", "Call (415) 555-0132 now", "Call [PHONE] now"),
    ("phone_us_dash", "Call 415-555-0132.", "Call [PHONE]."),
    ("phone_us_dots", "fax 415.555.0132", "fax [PHONE]"),
    ("phone_us_tollfree", "dial 1-800-555-0199", "dial [PHONE]"),
    ("phone_us_intl", "+1 (415) 555-0132", "[PHONE]"),
    ("phone_uk_intl", "ring +44 20 7946 0958", "ring [PHONE]"),
    ("phone_intl_plain", "whatsapp +821012345678", "whatsapp [PHONE]"),
    # --- API keys
    ("key_openai", "key sk-proj-abc123DEF456ghi789JKL012 here", "key [API_KEY] here"),
    ("key_anthropic", "sk-ant-api03-AbC1dEf2GhI3jKl4MnO5pQr6-xyz", "[API_KEY]"),
    ("key_aws", "aws AKIAIOSFODNN7EXAMPLE id", "aws [API_KEY] id"),
    ("key_github", "ghp_1234567890abcdefghijABCDEFGHIJ123456", "[API_KEY]"),
    ("key_slack", "slack: xoxb-123456789012-abcdefABCDEF", "slack: [API_KEY]"),
    ("key_stripe", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "[API_KEY]"),
    ("key_google", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "[API_KEY]"),
    ("key_env", "OPENAI_API_KEY=abc123def456ghi", "OPENAI_API_KEY=[API_KEY]"),
    ("key_json", '{"api_key": "zzzz9999yyyy"}', '{"api_key": "[API_KEY]"}'),
    ("key_password", "password=hunter22x", "password=[API_KEY]"),
    ("key_query", "GET /v1?token=abc123def456", "GET /v1?token=[API_KEY]"),
    ("key_ko", "비밀번호: abcd1234xyz 입니다", "비밀번호: [API_KEY] 입니다"),
    ("key_ko_api", "API 키: qwer1234asdf5678", "API 키: [API_KEY]"),
    ("key_zh", "密码：abc12345678，密钥=ZXCV0987poiu", "密码：[API_KEY]，密钥=[API_KEY]"),
    # --- bearer tokens / JWTs
    (
        "bearer_jwt",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "Authorization: Bearer [BEARER]",
    ),
    ("bearer_opaque", "curl -H 'Authorization: bearer 9f8e7d6c5b4a39281706f5e4'", None),
    (
        "bearer_basic",
        "Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==",
        "Authorization: Basic [BEARER]",
    ),
    (
        "jwt_bare",
        "토큰은 eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc_DEF-123 입니다",
        "토큰은 [BEARER] 입니다",
    ),
    # --- cards
    ("card_spaced", "card 4111 1111 1111 1111 ok", "card [CARD] ok"),
    ("card_dashed", "카드 5555-5555-5555-4444 결제", "카드 [CARD] 결제"),
    ("card_plain", "卡号4111111111111111。", "卡号[CARD]。"),
    ("card_amex", "amex 3782 822463 10005", "amex [CARD]"),
    # --- several at once
    ("glued_email_phone", "a@b.io010-1234-5678", "[EMAIL][PHONE]"),
    (
        "mixed",
        "Contact a@b.io or +82 10-1234-5678; key sk-proj-abc123DEF456ghi789JKL012.",
        "Contact [EMAIL] or [PHONE]; key [API_KEY].",
    ),
]

NEGATIVES = [
    ("year", "It happened in 2026 and again in 1999."),
    ("years_range", "Between 2019-2026 sales grew."),
    ("price_usd", "It costs $1,299.00 or $12,345,678.90 in bulk."),
    ("price_krw", "가격은 ₩1,200,000 입니다 (부가세 120,000원 포함)."),
    ("price_cny", "价格是138元，折后¥1,380,000。"),
    ("version", "Upgrade vllm to 0.31.0 (from 0.10.1.1) or v2.14.3-rc1."),
    ("date_iso", "Released 2026-11-01 at 12:30:45; next 2026.12.01."),
    ("date_ko_zh", "2026년 11월 1일, 2026年11月1日"),
    ("order_id", "Order ORD-2026-118842 and #A1B2-99821 shipped; ref 2026110100042."),
    ("ms_timestamp", "ts=1762012345678 and 1762012345 seconds"),
    ("ip_address", "Server 192.168.100.200 and 10.0.0.1 respond."),
    ("arithmetic", "2+2=4, +5 points, -12 degrees, 3 * 1234567 = 3703701"),
    ("sklearn", "Use sk-learn-compatible-estimators-here in task-management-system-design."),
    ("tokens_prose", "max_tokens: 4096 and tokens: 12345678 were used; token: the unit"),
    ("password_prose", "The password: secret is weak."),
    ("bearer_prose", "The bearer of this letter is trusted."),
    ("luhn_fail", "Not a card: 4111 1111 1111 1112."),
    ("isbn", "ISBN 978-3-16-148410-0 is printed."),
    ("uuid", "id 123e4567-e89b-12d3-a456-426614174000"),
    ("hash", "sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    ("placeholders", "[EMAIL] [PHONE] [API_KEY] [BEARER] [CARD] api_key=[API_KEY]"),
    ("code", "for i in range(1000000): total += i * 31415926"),
    ("empty", ""),
]


@pytest.mark.parametrize(
    ("text", "expected"), [p[1:] for p in POSITIVES], ids=[p[0] for p in POSITIVES]
)
def test_positive_cases_are_redacted(text: str, expected: str | None) -> None:
    out = DEFAULT.redact(text)
    assert out.changed
    if expected is not None:
        assert out.text == expected
    for edit in out.edits:
        assert out.text[edit.new_start : edit.new_end] == RULES[edit.rule].placeholder


@pytest.mark.parametrize("text", [n[1] for n in NEGATIVES], ids=[n[0] for n in NEGATIVES])
def test_negative_cases_are_left_alone(text: str) -> None:
    out = DEFAULT.redact(text)
    assert out.text == text, out.edits
    assert out.edits == ()


@pytest.mark.parametrize("name", DEFAULT_RULES)
def test_each_rule_redacts_only_its_own_kind(name: str) -> None:
    text = (
        "a@b.io +82 10-1234-5678 sk-proj-abc123DEF456ghi789JKL012 "
        "Bearer abcdef0123456789abcdef 4111 1111 1111 1111 "
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY 900101-1234567 DE89370400440532013000 "
        "-----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"
        "-----END PRIVATE KEY-----"
    )
    out = Redactor.from_names([name]).redact(text)
    assert [e.rule for e in out.edits] == [name]


def test_luhn() -> None:
    assert luhn_ok("4111111111111111")
    assert luhn_ok("79927398713")
    assert not luhn_ok("4111111111111112")


# ------------------------------------------------------------------ configuration


def test_default_has_all_nine_rules_and_raw_has_none() -> None:
    assert DEFAULT.names == (
        "email",
        "phone",
        "api_key",
        "bearer",
        "card",
        "aws_secret",
        "national_id",
        "iban",
        "private_key",
    )
    assert DEFAULT.enabled
    assert not Redactor.raw().enabled
    assert Redactor.from_spec("default").names == DEFAULT.names
    assert Redactor.from_spec("raw").names == ()
    assert Redactor.from_spec("card, email").names == ("email", "card")


def test_unknown_rule_names_list_the_known_ones() -> None:
    with pytest.raises(UnknownRuleError) as info:
        Redactor.from_names(["email", "ssn"])
    message = str(info.value)
    assert "ssn" in message
    for name in DEFAULT_RULES:
        assert name in message


def test_no_rules_is_not_a_silent_raw_mode() -> None:
    with pytest.raises(ValueError, match="raw"):
        Redactor.from_names([])


def test_raw_mode_leaves_text_and_findings_unchanged() -> None:
    text = "Mail a@b.io, call 010-1234-5678, key sk-proj-abc123DEF456ghi789JKL012"
    raw = Redactor.raw()
    out = raw.redact(text)
    assert out.text == text and out.edits == ()
    finding = _finding(text, (5, 11), details={"args": "sk-proj-abc123DEF456ghi789JKL012"})
    assert raw.redact_findings([finding], out) == (finding,)
    assert raw.redact_text(text) == text
    assert raw.redact_value({"k": text}) == {"k": text}


def test_redacted_repr_does_not_show_the_original() -> None:
    out = DEFAULT.redact("mail me: secret.person@example.com")
    assert "secret.person" not in repr(out)


# ------------------------------------------------------------------ spans


def test_span_after_an_email_keeps_pointing_at_the_same_characters() -> None:
    text = "Write to john.doe@example.com. <think>plan</think> Done."
    start = text.index("<think>")
    span = (start, text.index("</think>") + len("</think>"))
    out = DEFAULT.redact(text)
    new = out.remap_span(span)
    assert out.text[new[0] : new[1]] == text[span[0] : span[1]] == "<think>plan</think>"


def test_span_touching_a_redacted_region_covers_its_placeholder() -> None:
    text = "api_key=abc123def456ghi rest"
    secret = (text.index("abc"), text.index(" rest"))
    out = DEFAULT.redact(text)
    assert out.text == "api_key=[API_KEY] rest"
    # a span ending inside the secret, one starting inside it, one inside it
    assert out.text[slice(*out.remap_span((0, secret[0] + 3)))] == "api_key=[API_KEY]"
    assert out.text[slice(*out.remap_span((secret[0] + 3, len(text))))] == "[API_KEY] rest"
    assert out.text[slice(*out.remap_span((secret[0] + 2, secret[0] + 3)))] == "[API_KEY]"
    # spans right next to the region do not grow
    assert out.text[slice(*out.remap_span((0, secret[0])))] == "api_key="
    assert out.text[slice(*out.remap_span((secret[1], len(text))))] == " rest"


def test_offsets_map_through_several_edits() -> None:
    text = "a@b.io x 010-1234-5678 y a@b.io z"
    out = DEFAULT.redact(text)
    assert out.text == "[EMAIL] x [PHONE] y [EMAIL] z"
    for ch in "xyz":
        i = text.index(ch)
        assert out.text[out.map_start(i)] == ch
    assert out.map_start(len(text)) == len(out.text)
    assert out.map_end(len(text)) == len(out.text)


SECRETS = [p[1] for p in POSITIVES] + ["a@b.io", "4111111111111111", "010-1234-5678"]
FILLER = st.text(
    alphabet=st.sampled_from(list("ab xyz.,:;-_/+()@[]0123456789가나다中文\n\t=\"'")), max_size=12
)
MIXED = st.lists(st.one_of(FILLER, st.sampled_from(SECRETS)), max_size=8).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MIXED, st.integers(0, 400), st.integers(0, 400))
def test_remapped_spans_point_at_the_same_characters_outside_redactions(
    text: str, a: int, b: int
) -> None:
    out = DEFAULT.redact(text)
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    new_start, new_end = out.remap_span((start, end))
    assert 0 <= new_start <= new_end <= len(out.text)
    touched = [e for e in out.edits if e.start < end and start < e.end]
    if not touched:
        assert out.text[new_start:new_end] == text[start:end]
    else:
        covered = out.text[new_start:new_end]
        for edit in touched:
            assert RULES[edit.rule].placeholder in covered
    # the redacted text is the original with each region swapped for its placeholder
    rebuilt, pos = [], 0
    for edit in out.edits:
        rebuilt.append(text[pos : edit.start] + RULES[edit.rule].placeholder)
        pos = edit.end
    assert "".join(rebuilt) + text[pos:] == out.text


# ------------------------------------------------------------------ idempotence


@pytest.mark.parametrize("text", [p[1] for p in POSITIVES], ids=[p[0] for p in POSITIVES])
def test_redacting_twice_is_redacting_once(text: str) -> None:
    once = DEFAULT.redact(text).text
    assert DEFAULT.redact(once).text == once


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MIXED)
def test_redaction_is_idempotent_on_mixed_text(text: str) -> None:
    once = DEFAULT.redact(text).text
    assert DEFAULT.redact(once).text == once


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_redaction_never_raises_and_never_grows_unboundedly(text: str) -> None:
    out = DEFAULT.redact(text)
    assert len(out.text) <= len(text) + 9 * len(out.edits)
    assert DEFAULT.redact_text(text) is not None


# ------------------------------------------------------------------ findings


def _finding(
    text: str, span: tuple[int, int] | None, evidence: str | None = None, details=None
) -> Finding:
    return Finding(
        label="reasoning_leak",
        detector_id="test",
        detector_version="1",
        source=Source.RULE,
        layer=Layer.PARSER,
        remediation=Remediation.STRIP,
        confidence=0.9,
        evidence=evidence if evidence is not None else evidence_snippet(text, *span),
        span=span,
        details=details or {},
    )


def test_findings_get_remapped_spans_and_evidence_from_the_redacted_text() -> None:
    text = "Mail john.doe@example.com now. <think>call 010-1234-5678</think> ok"
    span = (text.index("<think>"), text.index("</think>") + 8)
    out = DEFAULT.redact(text)
    (finding,) = redact_findings([_finding(text, span)], out)
    assert finding.span == out.remap_span(span)
    assert out.text[slice(*finding.span)] == "<think>call [PHONE]</think>"
    assert finding.evidence == evidence_snippet(out.text, *finding.span)
    assert "john.doe" not in finding.evidence and "1234" not in finding.evidence


def test_evidence_that_is_not_a_snippet_is_redacted_as_text() -> None:
    text = "plain"
    evidence = 'get_user({"email": "x@y.com", "card": "4111 1111 1111 1111"}): schema error'
    (finding,) = redact_findings([_finding(text, None, evidence=evidence)], DEFAULT.redact(text))
    assert finding.evidence == 'get_user({"email": "[EMAIL]", "card": "[CARD]"}): schema error'


def test_a_secret_cut_by_an_ellipsis_is_not_left_half_visible() -> None:
    cut = 'send({"to": "someone.important@exampl…'
    assert "someone" not in DEFAULT.redact_text(cut)
    cut_card = "pay(4111 1111 1111 11…"
    assert "1111 11" not in DEFAULT.redact_text(cut_card)
    head = "…89012-abcdef@example.com wrote"
    assert "abcdef" not in DEFAULT.redact_text(head)
    # ordinary cut text is kept
    assert DEFAULT.redact_text("The answer is forty…") == "The answer is forty…"


def test_secrets_in_details_are_redacted_recursively() -> None:
    details = {
        "syntax": "hermes",
        "rescued_calls": [
            {
                "name": "charge",
                "arguments": {
                    "card": 4111111111111111,
                    "email": "buyer@example.com",
                    "auth": "Bearer abcdef0123456789abcdef",
                    "amount": 1299,
                    "nested": [{"phone": "+82 10-1234-5678"}],
                },
                "schema_valid": True,
            }
        ],
        "sentence": "Let me call 415-555-0132 first.",
        "count": 3,
    }
    text = "x"
    (finding,) = redact_findings([_finding(text, None, "e", details)], DEFAULT.redact(text))
    dumped = orjson.dumps(finding.details).decode()
    for secret in ("4111111111111111", "buyer@", "abcdef0123456789", "1234-5678", "555-0132"):
        assert secret not in dumped
    args = finding.details["rescued_calls"][0]["arguments"]
    assert args["card"] == "[CARD]" and args["amount"] == 1299
    assert finding.details["count"] == 3 and finding.details["syntax"] == "hermes"


def test_unchanged_findings_are_returned_as_is() -> None:
    text = "<think>a</think>b"
    finding = _finding(text, (0, 16))
    (same,) = redact_findings([finding], DEFAULT.redact(text))
    assert same is finding


def _event(content: str, **extra) -> dict:
    return {
        "event_id": "e1",
        "api": "chat.completions",
        "request": {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "send_mail",
                        "parameters": {"type": "object", "properties": {"to": {"type": "string"}}},
                    },
                }
            ]
        },
        "response": {
            "choices": [{"message": {"content": content}, "finish_reason": "stop", **extra}]
        },
    }


LEAKY = (
    "<think>The user is kim@example.com, phone 010-1234-5678, key sk-proj-abc123DEF456ghi789JKL012"
    "</think>I will mail them.\n"
    '<tool_call>{"name": "send_mail", "arguments": {"to": "kim@example.com", '
    '"card": "4111 1111 1111 1111"}}</tool_call>'
)
LEAKED = ("kim@example.com", "010-1234-5678", "abc123DEF456", "4111 1111", "4111111111111111")


def test_nothing_secret_survives_in_a_real_verdict() -> None:
    exchange = normalise(_event(LEAKY))
    verdict = run_detectors(exchange)
    assert verdict.leaking and verdict.findings
    raw_dump = orjson.dumps([f.to_dict() for f in verdict.findings]).decode()
    assert any(s in raw_dump for s in LEAKED)  # the detectors do quote the secrets
    safe = redact_exchange(exchange, verdict.findings)
    dumped = orjson.dumps(
        {
            "visible": safe.visible_text,
            "reasoning": safe.reasoning_text,
            "findings": [f.to_dict() for f in safe.findings],
        }
    ).decode()
    for secret in LEAKED:
        assert secret not in dumped
    assert safe.redactions["email"] >= 2 and safe.redactions["card"] >= 1
    # the labels are unchanged and every span points at the same kind of text
    assert [f.label for f in safe.findings] == [f.label for f in verdict.findings]
    visible = DEFAULT.redact(exchange.visible_text)
    for before, after in zip(verdict.findings, safe.findings, strict=True):
        if before.span is not None:
            assert after.span == visible.remap_span(before.span)


def test_redact_exchange_in_raw_mode_is_identity() -> None:
    exchange = normalise(_event(LEAKY))
    verdict = run_detectors(exchange)
    safe = redact_exchange(exchange, verdict.findings, Redactor.raw())
    assert safe.visible_text == exchange.visible_text
    assert safe.findings == verdict.findings
    assert safe.redactions == {}


def test_redacted_findings_stay_valid_findings() -> None:
    exchange = normalise(_event(LEAKY))
    verdict = run_detectors(exchange)
    safe = redact_exchange(exchange, verdict.findings)
    for finding in safe.findings:
        assert replace(finding) == finding
        orjson.dumps(finding.to_dict())
        if finding.span is not None:
            assert 0 <= finding.span[0] <= finding.span[1] <= len(safe.visible_text)


# ------------------------------------------------------------------ speed


ADVERSARIAL = {
    "local_part_run": "a" * 1_000_000 + "@",
    "at_signs": "a@" * 500_000,
    "dotted_domain": "x@" + "b." * 500_000,
    "digits": "1" * 1_000_000,
    "spaced_digits": "1 " * 500_000,
    "dashed_groups": "4111-" * 200_000,
    "plus_groups": "+1 2" * 250_000,
    "parens": "(0" * 500_000,
    "key_prefixes": "sk-" * 333_333,
    "key_body": "sk-" + "a1" * 500_000,
    "assignments": "token:" * 166_666,
    "assignment_spaces": "api_key" + " " * 1_000_000,
    "bearers": "Bearer " * 142_857,
    "jwt_parts": "eyJ" + "aaaaa.eyJ" * 111_111,
    "separators": "0-1.2 3-" * 125_000,
}


@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_one_megabyte_adversarial_input_is_linear(text: str) -> None:
    started = time.perf_counter()
    out = DEFAULT.redact(text)
    elapsed = time.perf_counter() - started
    assert elapsed < 5.0, f"{elapsed:.2f}s for 1 MB"
    assert len(out.text) <= len(text) + 10 * len(out.edits)


def test_speed_per_2kb_text() -> None:
    """Not a benchmark gate, a tripwire: typical text must stay far below a millisecond."""
    base = (
        "The flight from Seoul to Singapore costs about 320 USD; 2026-12-12 is cheapest. "
        "서울에서 싱가포르까지 항공권은 약 320달러입니다. 从北京到新加坡，最合适的是直飞航班。"
        "Call +82 10-1234-5678 or mail ops@example.com. Version 0.31.0, order ORD-2026-1188. "
    )
    text = (base * (2048 // len(base) + 1))[:2048]
    rounds = 200
    started = time.perf_counter()
    for _ in range(rounds):
        DEFAULT.redact(text)
    per_text_us = (time.perf_counter() - started) / rounds * 1e6
    print(f"redaction: {per_text_us:.0f} µs per 2 KB text")
    assert per_text_us < 5_000


def test_a_huge_cut_string_is_guarded_in_linear_time() -> None:
    text = "x" * 1_000_000 + "…"
    started = time.perf_counter()
    assert DEFAULT.redact_text(text) == text
    assert DEFAULT.redact_text("…" + "1" * 1_000_000 + "…").startswith("…[REDACTED]")
    assert time.perf_counter() - started < 5


def test_redacted_details_are_always_storable_as_json() -> None:
    deep: object = "sk-proj-abc123DEF456ghi789JKL012"
    for _ in range(300):
        deep = [deep]
    details = {"big": 123456789012345678901234567890, "neg": -(2**70), "deep": deep, "ok": 2**63}
    (finding,) = redact_findings([_finding("x", None, "e", details)], DEFAULT.redact("x"))
    dumped = orjson.dumps(finding.details).decode()  # orjson refuses >64-bit ints and depth >254
    assert "abc123DEF456" not in dumped
    assert finding.details["big"] == "123456789012345678901234567890"
    assert finding.details["ok"] == 2**63


def test_the_tool_call_findings_that_break_the_store_are_storable_after_redaction() -> None:
    tools = {
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    }
    for args in ('{"n": 123456789012345678901234567890}', '{"a": ' + "[" * 300 + "]" * 300 + "}"):
        text = '<tool_call>{"name": "f", "arguments": ' + args + "}</tool_call>"
        event = _event(text)
        event["request"] = tools
        exchange = normalise(event)
        verdict = run_detectors(exchange)
        with pytest.raises(TypeError):
            orjson.dumps([f.to_dict() for f in verdict.findings])
        safe = redact_exchange(exchange, verdict.findings)
        orjson.dumps([f.to_dict() for f in safe.findings])


def test_json_safe_makes_anything_json_like_storable_without_redacting() -> None:
    deep: object = 1
    for _ in range(500):
        deep = {"a": deep}
    value = {
        "big": 10**30,
        "neg": -(2**64),
        "u64": 2**64 - 1,
        1: ("a@b.io", 2),
        "deep": deep,
        "f": 1.5,
        "n": None,
    }
    safe = json_safe(value)
    loaded = orjson.loads(orjson.dumps(safe))
    assert loaded["big"] == str(10**30) and loaded["neg"] == str(-(2**64))
    assert loaded["u64"] == 2**64 - 1
    assert loaded["1"] == ["a@b.io", 2]  # not redacted: that is the redactor's job
    assert "nested too deep" in orjson.dumps(safe).decode()
    assert json_safe("x") == "x" and json_safe(None) is None


# ------------------------------------------------------------------ the pipeline contract


def _batch(content: str, **kw):
    from leakline.pipeline.events.origin import Origin
    from leakline.pipeline.events.process import RawRecord, process_batch

    payload = orjson.dumps(_event(content))
    return process_batch(
        [RawRecord(b"e1", payload, Origin("gateway.events", 0, 0))],
        worker_id="w",
        clean_text_rate=1.0,
        max_event_bytes=4 * 1024 * 1024,
        **kw,
    )


def test_nothing_unredacted_is_stored_or_published() -> None:
    result = _batch(LEAKY)
    table = result.rows.table()
    stored = orjson.dumps(
        {
            name: table.column(name).to_pylist()
            for name in ("visible_text", "reasoning_text", "findings")
        }
    ).decode()
    published = b"".join(s.value for s in result.samples).decode()
    assert result.samples
    for secret in LEAKED:
        assert secret not in stored
        assert secret not in published
    assert "[EMAIL]" in stored and "[EMAIL]" in published
    # first_leak_chunk and labels are computed on the original text
    assert table.column("labels").to_pylist()[0] == list(
        run_detectors(normalise(_event(LEAKY))).labels
    )


def test_raw_text_is_an_explicit_opt_in() -> None:
    result = _batch(LEAKY, redactor=Redactor.raw())
    assert (
        result.rows.table().column("visible_text").to_pylist()[0]
        == LEAKY.split("<tool_call>")[0] + LEAKY[LEAKY.index("<tool_call>") :]
    )
