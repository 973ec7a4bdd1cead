"""Issue 36, finding 10: ``tags.user`` is an HMAC of the user id under a key from the
environment; without a key no pseudonym is sent at all, with one warning."""

from __future__ import annotations

import hashlib
import logging

import pytest

from leakline.client import event as client_event
from leakline.client.event import ENV_PSEUDONYM_KEY, hash_user, user_pseudonym
from leakline.client.litellm import tags_of
from leakline.pipeline.ingest.integrations.otel import event_from_span

KEY = "k" * 8 + "-0123456789abcdef"
USER = "alice@example.com"


@pytest.fixture(autouse=True)
def _fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_event, "_warned", set())
    monkeypatch.delenv(ENV_PSEUDONYM_KEY, raising=False)


def test_a_dictionary_of_ids_does_not_reverse_the_pseudonym() -> None:
    pseudonym = user_pseudonym(USER, {ENV_PSEUDONYM_KEY: KEY})
    assert pseudonym is not None and len(pseudonym) == 16
    # what an attacker without the key computes for every candidate id
    guesses = {hashlib.sha256(c.encode()).hexdigest()[:16]: c for c in (USER, "bob", "carol")}
    assert pseudonym not in guesses
    assert pseudonym == hash_user(USER, KEY)  # stable under one key
    assert pseudonym != hash_user(USER, KEY + "x")  # and another key gives another name


def test_without_a_key_no_user_tag_and_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    kwargs = {"litellm_params": {"metadata": {"user_api_key_user_id": USER}}}
    with caplog.at_level(logging.WARNING, logger="leakline.client"):
        assert "user" not in tags_of(kwargs)
        assert "user" not in tags_of(kwargs)
    warnings = [r for r in caplog.records if ENV_PSEUDONYM_KEY in r.getMessage()]
    assert len(warnings) == 1 and "not set" in warnings[0].getMessage()
    assert USER not in caplog.text


def test_a_short_key_is_not_used(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="leakline.client"):
        assert user_pseudonym(USER, {ENV_PSEUDONYM_KEY: "short"}) is None
    assert "shorter than 16" in caplog.text


def test_the_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_PSEUDONYM_KEY, KEY)
    kwargs = {"litellm_params": {"metadata": {"user_api_key_user_id": USER}}}
    assert tags_of(kwargs)["user"] == hash_user(USER, KEY)
    span = {
        "traceId": "t" * 32,
        "spanId": "s1",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.request.model", "value": {"stringValue": "m"}},
            {"key": "gen_ai.completion.0.content", "value": {"stringValue": "Hello"}},
            {"key": "enduser.id", "value": {"stringValue": USER}},
        ],
    }
    event = event_from_span(span, {})
    assert event is not None and event["tags"]["user"] == hash_user(USER, KEY)
