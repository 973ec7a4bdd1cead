"""Helpers shared by the classifier tests: gateway events and model variants."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson

# Preambles the heuristics' cue tables do not cover, and ordinary answers.
MISSED = "Let me sift through the error log.\n\nThe crash starts after a restart."
MISSED_KO = "자료를 좀 뒤적여 볼게요.\n\n이 제도는 2021년부터 시행되었습니다."
CAUGHT = "Let me check the latest figures.\n\nThe fee is $35."
CLEAN = "The museum is free on the first Sunday of each month."


def event(event_id: str, text: str, **extra: object) -> bytes:
    message: dict[str, object] = {"role": "assistant", "content": text}
    message.update(extra)
    return orjson.dumps(
        {
            "event_id": event_id,
            "api": "chat.completions",
            "request": {"model": "m", "messages": [{"role": "user", "content": "question"}]},
            "response": {
                "id": event_id,
                "object": "chat.completion",
                "model": "m",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            },
        }
    )


def make_variant(models_dir: Path, version: str, tamper: bool = False) -> str:
    """A copy of the shipped model under another version in ``models_dir``; returns its sha256.

    With ``tamper``, model.json is changed after its card recorded the hash.
    """
    from leakline.models.registry import SHIPPED_DIR, read_registry

    shipped = read_registry(SHIPPED_DIR)["promoted"]["version"]
    doc = orjson.loads((SHIPPED_DIR / shipped / "model.json").read_bytes())
    doc["version"] = version
    data = orjson.dumps(doc)
    sha = hashlib.sha256(data).hexdigest()
    card = orjson.loads((SHIPPED_DIR / shipped / "card.json").read_bytes())
    # a variant was trained without regressions, whatever the shipped card says (the
    # shipped model itself was forced in by `ship`); tests that need one write it
    card.update(version=version, sha256=sha, regressions=[])
    target = models_dir / version
    target.mkdir(parents=True)
    if tamper:
        doc["heads"][0]["intercept"] += 10.0
        data = orjson.dumps(doc)
    (target / "model.json").write_bytes(data)
    (target / "card.json").write_bytes(orjson.dumps(card))
    return sha
