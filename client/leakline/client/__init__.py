"""leakline-client: build gateway events v1 and send them to leakline's Kafka topic.

The light half of leakline for gateways: its one dependency is aiokafka (orjson and
jsonschema are optional), so it installs next to a gateway's own pins::

    from leakline.client import EventMeta, LeakProducer, ProducerConfig, build_event

    producer = await LeakProducer(ProducerConfig(bootstrap="kafka:9092")).start()
    meta = EventMeta(engine_name="vllm", engine_version="0.11.0", reasoning_parser="qwen3")
    ...
    producer.submit(build_event(request=body, response=completion, meta=meta))  # never blocks
    ...
    await producer.close()

Sync gateways use ``ThreadedLeakProducer`` (same API, its own thread and loop). The
LiteLLM callback is ``leakline.client.litellm.leakline_logger`` (it needs litellm).
"""

from leakline.client.contract import APIS, ContractError, validate_event
from leakline.client.event import build_event, clean_request, infer_api, new_event_id, to_jsonable
from leakline.client.kafka import KafkaSecurity, security_from_env
from leakline.client.metadata import HEADER_FIELDS, EventMeta, meta_from_headers
from leakline.client.sender import LeakProducer, ProducerConfig, ProducerStats
from leakline.client.threaded import ThreadedLeakProducer

__all__ = [
    "APIS",
    "HEADER_FIELDS",
    "ContractError",
    "EventMeta",
    "KafkaSecurity",
    "LeakProducer",
    "ProducerConfig",
    "ProducerStats",
    "ThreadedLeakProducer",
    "build_event",
    "clean_request",
    "infer_api",
    "meta_from_headers",
    "new_event_id",
    "security_from_env",
    "to_jsonable",
    "validate_event",
]
