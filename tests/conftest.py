"""Shared fixtures: a real Tansu broker process per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from leakline.pipeline.kafka.broker import EmbeddedBroker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[EmbeddedBroker]:
    """A fresh in-memory broker per test: topics and groups never leak between tests."""
    with EmbeddedBroker(log_path=tmp_path / "broker.log") as running:
        yield running
