"""Issue 36, finding 10: debug logging wrote raw events (the Kafka producer logs every value
it sends). Records are made safe as they are created, at every level."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import orjson
import pytest

from leakline.pipeline.events import safe_logging

KEY = "sk-proj-Pl4nt3dK3yAbC123DEF456ghi789"
PROMPT = "the private prompt about the merger"
EVENT = orjson.dumps({"event_id": "e", "request": {"messages": [{"content": PROMPT}]}, "k": KEY})


@pytest.fixture
def installed() -> Iterator[None]:
    before = logging.getLogRecordFactory()
    safe_logging.install()
    try:
        yield
    finally:
        logging.setLogRecordFactory(before)
        safe_logging._installed = None


@pytest.mark.parametrize("level", [logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR])
def test_the_kafka_producer_debug_line_carries_no_event(
    installed: None, caplog: pytest.LogCaptureFixture, level: int
) -> None:
    log = logging.getLogger("aiokafka.producer.producer")  # its own words, any level
    with caplog.at_level(logging.DEBUG):
        log.log(level, "Sending (key=%s value=%s) to %s", b"e", EVENT, "gateway.events-0")
        log.log(level, "event %r", orjson.loads(EVENT))
        log.log(level, "as text: %s", EVENT.decode() * 3)
        log.log(level, "key in a short message: %s", KEY)
    text = caplog.text
    assert KEY not in text and PROMPT not in text
    assert f"value=<{len(EVENT)} bytes>" in text and "event <dict of 3>" in text
    assert f"as text: <{3 * len(EVENT)} chars>" in text
    assert "[API_KEY]" in text


def test_tracebacks_are_redacted(installed: None, caplog: pytest.LogCaptureFixture) -> None:
    try:
        raise ValueError(f"bad value {KEY!r}")
    except ValueError:
        logging.getLogger("leakline.worker").exception("batch failed")
    assert KEY not in caplog.text and "ValueError" in caplog.text


def test_messages_are_capped(installed: None, caplog: pytest.LogCaptureFixture) -> None:
    logging.getLogger("x").warning("x" * 100_000)
    assert len(caplog.records[-1].getMessage()) <= safe_logging.MESSAGE_MAX_CHARS


def test_repeats_are_still_recognised_by_their_template(installed: None) -> None:
    from leakline.pipeline.worker.app import RepeatLimiter

    limiter = RepeatLimiter(window=60)
    log = logging.getLogger("aiokafka.conn")
    records = [log.makeRecord(log.name, logging.ERROR, "f", 1, "conn %s failed", (i,), None)
               for i in range(3)]  # fmt: skip
    assert [limiter.filter(r) for r in records] == [True, False, False]


def test_a_safe_record_formats_through_faust_s_formatter(installed: None) -> None:
    """The worker logs through mode's ExtensionFormatter, which maps over ``record.args``:
    a record made safe with ``args = None`` printed "--- Logging error ---" and a
    traceback for every batch line (caught by the outage-log tests)."""
    from mode.utils.logging import ExtensionFormatter

    record = logging.getLogger("leakline.test").makeRecord(
        "leakline.test", logging.INFO, __file__, 1, "batch of %d: stored %d", (44, 44), None
    )
    line = ExtensionFormatter(fmt="%(message)s").format(record)
    assert line.endswith("batch of 44: stored 44")
