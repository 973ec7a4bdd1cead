"""Nothing unredacted is stored or published unless raw storage is chosen explicitly."""

from __future__ import annotations

import orjson
import pytest

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.events.redact import Redactor

SECRET_TEXT = (
    "<think>The user jane.doe@example.com wants key sk-abcdefghijklmnopqrstuvwx1234 checked.</think>"
    "Call me at +82 10-1234-5678 or pay with 4111 1111 1111 1111."
)


def _record() -> RawRecord:
    event = {
        "event_id": "p1",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": SECRET_TEXT}, "finish_reason": "stop"}]},
    }
    return RawRecord(b"p1", orjson.dumps(event), Origin("gateway.events", 0, 0))


def _stored(redactor: Redactor | None) -> tuple[dict, dict]:
    result = process_batch(
        [_record()], worker_id="w", clean_text_rate=0.0, max_event_bytes=1 << 20, redactor=redactor
    )
    row = {k: v[0] for k, v in result.rows.columns.items()}
    sample = orjson.loads(result.samples[0].value)
    return row, sample


SECRETS = [
    "jane.doe@example.com",
    "sk-abcdefghijklmnopqrstuvwx1234",
    "10-1234-5678",
    "4111 1111 1111 1111",
]


def test_default_redacts_rows_findings_and_samples() -> None:
    row, sample = _stored(None)
    blob = orjson.dumps([row["visible_text"], row["findings"], sample]).decode()
    for secret in SECRETS:
        assert secret not in blob
    assert "[EMAIL]" in row["visible_text"] and "[CARD]" in row["visible_text"]
    assert "boundary_token" in row["labels"]


def test_spans_point_at_the_same_markup_after_redaction() -> None:
    row, _ = _stored(None)
    text = row["visible_text"]
    for finding in orjson.loads(row["findings"]):
        if finding["label"] == "boundary_token" and finding["span"]:
            start, end = finding["span"]
            assert text[start:end] in ("<think>", "</think>")


def test_raw_storage_is_an_explicit_opt_in() -> None:
    row, sample = _stored(Redactor.raw())
    assert row["visible_text"] == SECRET_TEXT and sample["visible_text"] == SECRET_TEXT


# ------------------------------------------------------------------ issue 18, part 3

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
KR_RRN = "900101-1234567"
US_SSN = "078-05-1121"
IBAN = "DE89 3704 0044 0532 0130 00"
PRIVATE_KEY = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n"
    "aFDrBz9vFqU4yK2hq1Vz8xV+7Tn6pQ2rW9cLmN4oPq3sTuVwXyZaBcDeFgHiJkLm\n"
    "-----END RSA PRIVATE KEY-----"
)
NEW_KINDS = [AWS_SECRET, KR_RRN, US_SSN, IBAN, PRIVATE_KEY]


def _chat(event_id: str, content: str, **extra: object) -> dict:
    return {
        "event_id": event_id,
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {
            "choices": [
                {
                    "message": {"content": "<think>plan</think>" + content},
                    "finish_reason": "stop",
                }
            ]
        },
        **extra,
    }


def _run(*events: dict) -> tuple[list[dict], list[dict]]:
    records = [
        RawRecord(e["event_id"].encode(), orjson.dumps(e), Origin("gateway.events", 0, i))
        for i, e in enumerate(events)
    ]
    result = process_batch(records, worker_id="w", clean_text_rate=1.0, max_event_bytes=1 << 22)
    assert not result.dead_letters, result.dead_letters
    columns = result.rows.columns
    rows = [{k: v[i] for k, v in columns.items()} for i in range(len(result.rows))]
    return rows, [orjson.loads(s.value) for s in result.samples]


def _assert_absent(secret: str, *places: object) -> None:
    blob = orjson.dumps(places, default=str).decode()
    # JSON escapes newlines: look for every line of a multi-line secret, and its body
    for piece in [secret, *[line for line in secret.splitlines() if len(line) > 12]]:
        assert piece not in blob and orjson.dumps(piece).decode()[1:-1] not in blob, piece


def test_new_text_rules_redact_rows_findings_event_json_and_samples() -> None:
    text = " ".join(f"[{s}]" for s in NEW_KINDS)
    rows, samples = _run(_chat("n1", f"Here: {text}", model={"name": "m"}))
    (row,) = rows
    assert row["leaking"] and row["event_json"] is not None
    for secret in NEW_KINDS:
        _assert_absent(secret, row, samples)
    for placeholder in ("[AWS_SECRET]", "[NATIONAL_ID]", "[IBAN]", "[PRIVATE_KEY]"):
        assert placeholder in row["visible_text"]


VERSION_SECRETS = {
    ("engine", "name"): "sk-proj-abc123DEF456ghi789JKL012",
    ("engine", "version"): AWS_SECRET,
    ("model", "name"): KR_RRN,
    ("model", "revision"): "jane.doe@example.com",
    ("chat_template", "name"): "password: hunter2-hunter2",
    ("chat_template", "hash"): "4111111111111111",
    ("parsers", "reasoning"): US_SSN,
    ("parsers", "tool_call"): "DE89370400440532013000",
    ("gateway", "name"): "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl",
    ("gateway", "version"): "Ab3dEf6hIj9kLm2nOp5qRs8t",
}


def test_version_fields_that_are_not_names_are_never_stored_raw() -> None:
    event = _chat("v1", "hello")
    for (obj, member), secret in VERSION_SECRETS.items():
        event.setdefault(obj, {})[member] = secret
    event["engine"]["build"] = "token=abcdef123456"  # an extra member is checked too
    event["remediation"] = {"action": "strip", "outcome": AWS_SECRET}
    rows, samples = _run(event)
    (row,) = rows
    assert row["event_json"] is not None
    for secret in [*VERSION_SECRETS.values(), "abcdef123456"]:
        _assert_absent(secret, row, samples)
    assert row["model_name"] == "redacted" and row["engine_version"] == "redacted"
    assert row["remediation_outcome"] == "redacted" and row["remediation_action"] == "strip"
    assert samples[0]["model"]["name"] == "redacted"


def test_plain_version_names_are_kept_as_they_are() -> None:
    versions = {
        "engine": {"name": "vllm", "version": "0.10.1.1+cu126"},
        "model": {"name": "meta-llama/Llama-3.1-8B-Instruct", "revision": "3f786850e38755"},
        "chat_template": {"name": "tool_chat_template_llama3.1_json.jinja", "hash": "sha256:ab12"},
        "parsers": {"reasoning": "deepseek_r1", "tool_call": "llama3_json"},
        "gateway": {"name": "litellm", "version": "1.74.0"},
    }
    rows, _ = _run(_chat("v2", "hello", **versions))
    (row,) = rows
    assert row["model_name"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert row["engine_version"] == "0.10.1.1+cu126" and row["template_hash"] == "sha256:ab12"
    stored = orjson.loads(row["event_json"])
    assert {k: stored[k] for k in versions} == versions


JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.c2lnbmF0dXJlX3NlY3JldA"


def _streamed(event_id: str, pieces: list[str]) -> dict:
    chunks = [
        {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        for piece in pieces
    ]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return {
        "event_id": event_id,
        "api": "chat.completions",
        "stream": True,
        "request": {"messages": [{"role": "user", "content": "hi"}], "stream": True},
        "chunks": chunks,
    }


@pytest.mark.parametrize("cut", [10, 40, 60, 75], ids=lambda c: f"cut_at_{c}")
def test_a_jwt_split_across_two_chunks_never_survives_in_event_json(cut: int) -> None:
    text = f"<think>x</think>your token is {JWT} keep it"
    at = text.index(JWT) + cut
    rows, samples = _run(_streamed(f"j{cut}", [text[:at], text[at:]]))
    (row,) = rows
    assert "[BEARER]" in row["visible_text"]
    signature = JWT.rsplit(".", 1)[1]
    payload = JWT.split(".")[1]
    for piece in (JWT, signature, payload[5:]):
        _assert_absent(piece, row, samples)
