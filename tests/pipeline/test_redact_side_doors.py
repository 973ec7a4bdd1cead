"""Issue 36, finding 5: the formats that slipped past redaction, and what must still pass."""

from __future__ import annotations

import pytest

from leakline.pipeline.events.redact import SECRET_PLACEHOLDER, Redactor, secret_name

DEFAULT = Redactor.default()

# (id, text, expected)
SIDE_DOORS = [
    # Korean resident numbers written without the ASCII hyphen
    ("rrn_space", "주민번호 900101 1234567 입니다", "주민번호 [NATIONAL_ID] 입니다"),
    ("rrn_fullwidth", "주민번호 900101－1234567", "주민번호 [NATIONAL_ID]"),
    ("rrn_en_dash", "RRN 851231–2345678.", "RRN [NATIONAL_ID]."),
    ("rrn_bare_check_digit", "번호9001011234568입니다", "번호[NATIONAL_ID]입니다"),
    # cards with mixed separators
    ("card_mixed", "card 4111 1111-1111 1111 ok", "card [CARD] ok"),
    ("card_dots", "카드 5555.5555.5555.4444", "카드 [CARD]"),
    ("card_spaced_dashes", "4111 - 1111 - 1111 - 1111", "[CARD]"),
    # quoted members whose names say secret: the value goes whatever it looks like
    ("member_password", '{"password": "hunter2"}', '{"password": "[API_KEY]"}'),
    ("member_x_api_key", '{"x-api-key": "abc"}', '{"x-api-key": "[API_KEY]"}'),
    ("member_python", "{'OPENAI_API_KEY': 'short1'}", "{'OPENAI_API_KEY': '[API_KEY]'}"),
    ("member_cookie", '"Cookie": "session=abc; id=7"', '"Cookie": "[API_KEY]"'),
    # keys glued to the word before them
    (
        "glued_openai",
        "mykeysk-proj-abc123DEF456ghi789JKL012 ok",
        "mykey[API_KEY] ok",
    ),
    ("glued_github", "tokenghp_1234567890abcdefghijABCDEFGHIJ123456", "token[API_KEY]"),
    ("glued_aws", "idAKIAIOSFODNN7EXAMPLE", "id[API_KEY]"),
    ("glued_assignment", "dbpassword=hunter2x9;", "dbpassword=[API_KEY];"),
]

# ordinary numbers, dates, ids and code that look a little like the formats above
NOT_SECRETS = [
    ("ms_timestamp_dateish", "ts=1701234567890 and 1712011234567"),
    ("rrn_bad_check_digit", "ref 9001011234567"),
    ("order_no", "order 2026110100042 shipped"),
    ("phone_with_dash_word", "2026－11－01 release"),
    ("luhn_fail_mixed", "4111 1111-1111 1112"),
    ("short_groups", "41 11 11 11 11 11 11 11"),
    ("version_dots", "build 4.111.1111.1111.1"),
    ("max_tokens_member", '{"max_tokens": "4096", "token_count": "12"}'),
    ("prose_member", '{"name": "password reset", "kind": "secret santa"}'),
    ("glued_prose", "risk-assessment-framework-2024-v1-abcdefghi and task-management-2024-abc"),
    ("bypass", "bypass=abcdefgh1 and compass: northbound1"),
    ("code", "for i in range(4111): total += i * 1111"),
    ("uuid", "id 123e4567-e89b-12d3-a456-426614174000"),
    ("sha", "sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in SIDE_DOORS], ids=[c[0] for c in SIDE_DOORS]
)
def test_side_doors_are_closed(text: str, expected: str) -> None:
    assert DEFAULT.redact_text(text) == expected


@pytest.mark.parametrize("text", [c[1] for c in NOT_SECRETS], ids=[c[0] for c in NOT_SECRETS])
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert DEFAULT.redact_text(text) == text


@pytest.mark.parametrize(
    "name", ["password", "api_key", "x-api-key", "OPENAI_API_KEY", "client_secret", "Cookie",
             "Authorization", "db.password", "refresh_token", "id_token", "비밀번호"]
)  # fmt: skip
def test_secret_names(name: str) -> None:
    assert secret_name(name)


@pytest.mark.parametrize(
    "name", ["max_tokens", "tokens", "prompt_tokens", "name", "key", "keyword", "secretary",
             "passage", "token_count", "pinned", "author", "token", "pass", "pin"]
)  # fmt: skip
def test_ordinary_names(name: str) -> None:
    assert not secret_name(name)


def test_secret_members_are_replaced_whole_in_json_values() -> None:
    value = {
        "headers": {"X-Api-Key": "abc", "authorization": ["Basic", "x"], "accept": "json"},
        "db": {"password": 1234, "passwordless": False, "secret": None},
        "max_tokens": 512,
    }
    out = DEFAULT.redact_value(value)
    assert out["headers"] == {
        "X-Api-Key": SECRET_PLACEHOLDER,
        "authorization": SECRET_PLACEHOLDER,
        "accept": "json",
    }
    # a flag or a null carries nothing; a number under a secret name does
    assert out["db"] == {"password": SECRET_PLACEHOLDER, "passwordless": False, "secret": None}
    assert out["max_tokens"] == 512


def test_whole_number_floats_are_redacted_like_integers() -> None:
    out = DEFAULT.redact_value({"a": 4111111111111111.0, "b": 3.25, "c": 1234567.0, "d": 1e300})
    assert out == {"a": "[CARD]", "b": 3.25, "c": 1234567.0, "d": 1e300}


def test_the_id_shortcut_never_skips_a_secret() -> None:
    """``safe_id`` skips the full pass for ids of the usual characters without a risky
    run: every positive case of the redaction tables, glued into an id, still goes."""
    from test_redact import POSITIVES  # type: ignore[import-not-found]

    from leakline.pipeline.events.redact import safe_id

    cases = [text for _, text, _ in POSITIVES] + [text for _, text, _ in SIDE_DOORS]
    for text in cases:
        for event_id in (text, text.replace(" ", "_"), "evt:" + text.replace(" ", ":")):
            assert safe_id(event_id) == DEFAULT.redact_text(event_id), event_id


def test_plain_ids_skip_the_full_pass() -> None:
    import random
    import uuid

    from leakline.pipeline.events.redact import _ID_RISK

    rng = random.Random(36)
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(2000)]
    ids += ["chatcmpl-" + uuid.UUID(int=rng.getrandbits(128)).hex for _ in range(2000)]
    risky = sum(bool(_ID_RISK.search(i)) for i in ids)
    assert risky < len(ids) * 0.1  # the full pass costs ~45 us; the shortcut ~2 us
