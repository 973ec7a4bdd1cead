"""The leakline producer library: build gateway events v1 and send them to Kafka.

Importable without Faust (it needs aiokafka, orjson and jsonschema only), so a
gateway can embed it::

    from leakline.pipeline.ingest.producer import EventMeta, LeakProducer, ProducerConfig, build_event

    producer = await LeakProducer(ProducerConfig(bootstrap="kafka:9092")).start()
    meta = EventMeta(engine_name="vllm", engine_version="0.11.0", reasoning_parser="qwen3")
    ...
    producer.submit(build_event(request=body, response=completion, meta=meta))  # never blocks
    ...
    await producer.close()

Sync gateways use ``ThreadedLeakProducer`` (same API, its own thread and loop).
"""

from leakline.pipeline.ingest.producer.event import (
    APIS,
    build_event,
    clean_request,
    infer_api,
    new_event_id,
    to_jsonable,
)
from leakline.pipeline.ingest.producer.metadata import HEADER_FIELDS, EventMeta, meta_from_headers
from leakline.pipeline.ingest.producer.sender import LeakProducer, ProducerConfig, ProducerStats
from leakline.pipeline.ingest.producer.threaded import ThreadedLeakProducer

__all__ = [
    "APIS",
    "HEADER_FIELDS",
    "EventMeta",
    "LeakProducer",
    "ProducerConfig",
    "ProducerStats",
    "ThreadedLeakProducer",
    "build_event",
    "clean_request",
    "infer_api",
    "meta_from_headers",
    "new_event_id",
    "to_jsonable",
]
