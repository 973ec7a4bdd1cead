"""Fixtures for the dashboard tests; the helpers are in dashboard_kit.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from leakline.pipeline.kafka.broker import free_port


@pytest.fixture
def web_port() -> Iterator[int]:
    yield free_port()
