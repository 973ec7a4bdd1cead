"""Faust's Kafka transport with the one consumer setting leakline needs to change.

Faust builds its worker consumer with ``fetch_max_wait_ms=1500`` and no setting to
change it. A broker answers a fetch early when data arrives, or when the wait runs
out. Apache Kafka answers early, but Tansu (the dev/test broker) mostly holds an
empty fetch for the whole wait. An event that lands just after such a fetch then
waits up to 1.5 s before the worker even sees it. Measured on this machine at
2k events/s, a raw aiokafka consumer's produce-to-fetch lag was p50 0.2 s and p99
0.8 s with 1500 ms, and p50 0.014 s and p99 0.07 s with 100 ms. A shorter wait
costs a few empty fetches a second when the topic is idle.

``LeaklineApp`` is ``faust.App`` with this transport; everything else is Faust's.
"""

from __future__ import annotations

from typing import Any

import faust
from faust.transport.drivers import aiokafka as faust_aiokafka

# the longest a fetch waits at the broker for data to arrive (aiokafka's own default is 500)
FETCH_MAX_WAIT_MS = 100


class _ConsumerThread(faust_aiokafka.AIOKafkaConsumerThread):
    def _create_worker_consumer(self, transport: Any) -> Any:
        consumer = super()._create_worker_consumer(transport)
        # read by aiokafka when the consumer starts (it builds its Fetcher then);
        # tests/pipeline/test_faust_transport.py checks it reaches the fetcher
        consumer._fetch_max_wait_ms = FETCH_MAX_WAIT_MS
        return consumer


class _Consumer(faust_aiokafka.Consumer):
    def _new_consumer_thread(self) -> faust_aiokafka.AIOKafkaConsumerThread:
        return _ConsumerThread(self, loop=self.loop, beacon=self.beacon)


class Transport(faust_aiokafka.Transport):
    Consumer = _Consumer


class LeaklineApp(faust.App):
    """``faust.App`` whose consumer fetches with ``FETCH_MAX_WAIT_MS``."""

    def _new_transport(self) -> Any:
        return Transport(self.conf.broker_consumer, self, loop=self.loop)
