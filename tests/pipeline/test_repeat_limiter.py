"""The worker's filter on the Kafka client's loggers: an outage reads as a few retry lines."""

from __future__ import annotations

import logging
import time

from leakline.pipeline.worker.app import RepeatLimiter


def _record(msg: str, name: str = "aiokafka.conn") -> logging.LogRecord:
    return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, (), None)


def test_repeats_are_held_back_then_counted_as_retries() -> None:
    limiter = RepeatLimiter(window=0.2)
    first = _record("Unable connect to node with id %s")
    assert limiter.filter(first) and first.getMessage() == "Unable connect to node with id %s"
    # the same message again within the window: held back; another message passes
    assert not any(limiter.filter(_record("Unable connect to node with id %s")) for _ in range(5))
    assert limiter.filter(_record("Unable to update metadata"))
    time.sleep(0.25)
    after = _record("Unable connect to node with id %s")
    assert limiter.filter(after)
    assert after.msg.endswith("[5 similar suppressed: the client is retrying]")
    # the same text from another logger is another message
    assert limiter.filter(_record("Unable connect to node with id %s", name="aiokafka.client"))
