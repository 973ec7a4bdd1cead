"""``reasoning_slot``: an in-schema reasoning slot used in a way that voids the method.

In-schema chain of thought works because decoding runs left to right: slots written before
the answer properties condition them, like a thinking block does. This rule reports

- ``answer_first``: an answer property comes before a reasoning slot in the output (the
  slot then only justifies an answer already given);
- ``over_max_length`` / ``over_max_items``: a slot (or an item of an array slot) is longer
  than the schema's ``maxLength`` / ``maxItems`` (the bound that caps thinking time was not
  enforced).

Slots are what ``structured_fields`` says they are (annotation, configuration, a lone
leading ``reasoning``/``thoughts`` property). Their content is never a ``reasoning_leak``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.structured_fields import answer, escape


def _limit(schema: dict[str, Any] | None, key: str) -> int | None:
    if schema is None:
        return None
    value = schema.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class ReasoningSlots(DetectorBase):
    id = "reasoning_slots"
    version = "1"
    source = Source.RULE

    def __init__(self, reasoning_slots: Iterable[str] = ()) -> None:
        self.reasoning_slots = frozenset(reasoning_slots)

    def detect(self, exchange: Exchange) -> list[Finding]:
        if exchange.response_format is None:  # most traffic: not structured, nothing to read
            return []
        parsed = answer(exchange, self.reasoning_slots)
        if parsed is None or not parsed.slots or not isinstance(parsed.value, dict):
            return []
        out: list[Finding] = []
        top = [f"/{escape(k)}" for k in parsed.value if isinstance(k, str)]
        top_slots = [p for p in top if p in parsed.slots]
        if top_slots:
            last_slot = max(top.index(p) for p in top_slots)
            early = [p for p in top[:last_slot] if p not in parsed.slots]
            if early:
                out.append(
                    self._problem(
                        "answer_first",
                        Layer.API,
                        f"{early[0]} before {top[last_slot]}",
                        {"path": top[last_slot], "answer_path": early[0]},
                    )
                )
        props = parsed.schema.get("properties") if parsed.schema is not None else None
        for path in top_slots:
            key = path[1:].replace("~1", "/").replace("~0", "~")
            sub = props.get(key) if isinstance(props, dict) else None
            sub = sub if isinstance(sub, dict) else None
            value = parsed.value.get(key)
            out.extend(self._over(path, value, sub))
        return out

    def _over(self, path: str, value: Any, schema: dict[str, Any] | None) -> list[Finding]:
        found: list[Finding] = []
        max_len = _limit(schema, "maxLength")
        if isinstance(value, str) and max_len is not None and len(value) > max_len:
            found.append(self._overflow("over_max_length", path, len(value), max_len))
        max_items = _limit(schema, "maxItems")
        if isinstance(value, list):
            if max_items is not None and len(value) > max_items:
                found.append(self._overflow("over_max_items", path, len(value), max_items))
            items = schema.get("items") if schema is not None else None
            item_len = _limit(items if isinstance(items, dict) else None, "maxLength")
            if item_len is not None:
                for i, item in enumerate(value):
                    if isinstance(item, str) and len(item) > item_len:
                        found.append(
                            self._overflow("over_max_length", f"{path}/{i}", len(item), item_len)
                        )
                        break
        return found

    def _overflow(self, problem: str, path: str, size: int, limit: int) -> Finding:
        # a bound in the schema that the output exceeds: the engine did not enforce it
        return self._problem(
            problem,
            Layer.PARSER,
            f"{path}: {size} > {limit}",
            {"path": path, "size": size, "limit": limit},
        )

    def _problem(self, problem: str, layer: Layer, evidence: str, extra: dict[str, Any]) -> Finding:
        return self.finding(
            Label.REASONING_SLOT,
            layer=layer,
            remediation=Remediation.REGENERATE,
            confidence=1.0,
            evidence=evidence,
            details={"problem": problem, **extra},
        )
