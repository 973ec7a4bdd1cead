"""The fleet learner: marker shapes that one version group writes and nobody asked for.

``process_batch`` extracts each response's candidate shapes where they are made
(``detectors/marker_shapes.sighting``, in the batch child); the worker's main process
feeds every batch's sightings here (``add``) and asks for suggestions (``review``).

Memory is bounded whatever the traffic: at most ``max_groups`` version groups (the least
recently seen one is dropped), and per group and window a Misra-Gries table of
``capacity`` shapes for responses and one for prompts, plus one table over all groups'
responses. Counting is in windows of ``window`` events: the current one and the one
before it; at the end of a window the older one is dropped.

Misra-Gries undercounts by at most what it has decremented, so every test uses the
side of the bound that argues *against* a suggestion: the group's own count from below,
the prompts' and the other groups' counts from above. A shape becomes a suggestion when

- its group wrote it at least ``min_count`` times (lower bound), and the lower Wilson
  bound of its rate in that group's responses is at least ``min_rate``;
- the upper Wilson bound of its rate in the other groups' responses (counted from the
  all-groups table, minus this group) is at most ``ratio`` times that lower bound, and
  the other groups saw ``min_others`` events;
- its rate in the model's prompts (counted from above) is at most ``ratio`` times its
  rate in the group's responses (each response's own prompt was checked already: a
  shape the prompt contains is not a candidate);
- no active family row has the literal already.

It sits where markers sit by construction: only such positions are candidates. A
suggestion is never a label (``detectors/LABELS.md``); it is written to the data
directory for ``leakline families suggest`` / ``accept``.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from leakline.detectors import marker_shapes as ms

log = logging.getLogger("leakline.markers")

# (group key, events in the batch, that group's sightings)
BatchMarkers = dict[str, tuple[int, list[Any]]]


class MisraGries:
    """Frequent items in bounded memory: ``count(k) <= true <= count(k) + dropped``."""

    __slots__ = ("capacity", "counts", "dropped")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.counts: dict[str, int] = {}
        self.dropped = 0  # how much each count may have lost

    def add(self, key: str) -> None:
        counts = self.counts
        n = counts.get(key)
        if n is not None:
            counts[key] = n + 1
        elif len(counts) < self.capacity:
            counts[key] = 1
        else:  # full: every count (and the newcomer) loses one; amortised O(1) per add
            self.dropped += 1
            self.counts = {k: v - 1 for k, v in counts.items() if v > 1}

    def update(self, items: Iterable[tuple[str, int]]) -> None:
        """Weighted adds (a batch's counts per shape): the same bound as ``add`` one by one.
        When full, every count and the newcomer lose the smaller of the newcomer's weight
        and the smallest count; what is left of the newcomer takes the freed slot."""
        for key, weight in items:
            counts = self.counts
            n = counts.get(key)
            if n is not None:
                counts[key] = n + weight
            elif len(counts) < self.capacity:
                counts[key] = weight
            else:
                cut = min(weight, min(counts.values()))
                self.dropped += cut
                counts = self.counts = {k: v - cut for k, v in counts.items() if v > cut}
                if weight > cut:
                    counts[key] = weight - cut

    def lower(self, key: str) -> int:
        return self.counts.get(key, 0)

    def upper(self, key: str) -> int:
        return self.counts.get(key, 0) + self.dropped


def wilson(successes: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of a rate."""
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, successes / n)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Thresholds:
    """When a shape becomes a suggestion (tuned on benchmark seeds 0-9; see the module doc)."""

    min_count: int = 8
    min_rate: float = 0.005
    ratio: float = 0.05  # against the fleet, whose content differs from the group's
    sibling_ratio: float = 0.2  # against the same model's other versions: the same content
    min_others: int = 500
    z: float = 3.0


@dataclass
class _Window:
    events: int = 0
    responses: MisraGries = field(default_factory=lambda: MisraGries(64))
    prompts: MisraGries = field(default_factory=lambda: MisraGries(64))


class _Group:
    """One version group's counts, in two windows, and what it keeps about its shapes."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.windows = [self._new(), self._new()]  # current, previous (prompts unused)
        self.where: dict[str, int] = {}
        self.first_seen: dict[str, str] = {}
        self.examples: dict[str, list[str]] = {}  # raw; redacted only into a suggestion

    def _new(self) -> _Window:
        return _Window(0, MisraGries(self.capacity), MisraGries(self.capacity))

    def rotate(self) -> None:
        self.windows = [self._new(), self.windows[0]]
        kept = set(self.windows[1].responses.counts)
        for table in (self.where, self.first_seen, self.examples):
            for key in [k for k in table if k not in kept]:
                del table[key]

    @property
    def events(self) -> int:
        return self.windows[0].events + self.windows[1].events

    def lower(self, shape: str) -> int:
        return sum(w.responses.lower(shape) for w in self.windows)


def suggestion_id(group: str, shape: str) -> str:
    return hashlib.sha256(f"{group}\x00{shape}".encode()).hexdigest()[:10]


_WHERE_NAMES = (
    (ms.WHERE_START, "start"),
    (ms.WHERE_END, "end"),
    (ms.WHERE_LINE, "line"),
    (ms.WHERE_PAIR, "pair"),
)


def family_row(sid: str, model: str, shape: str, where: int) -> dict[str, Any]:
    """The family row a suggestion would write, in ``families import``'s format: a pair
    that opens the text frames reasoning before the answer; anything else is a boundary
    token (both literals of a pair)."""
    from leakline.pipeline.families.marker_suggestions import row_name

    literals = shape.split(ms.PAIR_SEP)
    reasoning = len(literals) == 2 and bool(where & ms.WHERE_START) and bool(where & ms.WHERE_PAIR)
    return {
        "name": row_name(sid),
        "parser_names": [],
        "model_patterns": [model.lower() or "unknown"],
        "reasoning_start": literals[:1] if reasoning else [],
        "reasoning_end": literals[1:] if reasoning else [],
        "start_prefilled": False,
        "boundary_tokens": [] if reasoning else literals,
        "contextual_tokens": [],
        "budget_end_strings": [],
        "tool_call_markup": [],
    }


class _Model:
    """All groups of one model together: the baseline a new version is compared with."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.windows = [self._new(), self._new()]

    def _new(self) -> _Window:
        return _Window(0, MisraGries(self.capacity), MisraGries(self.capacity))

    def rotate(self) -> None:
        self.windows = [self._new(), self.windows[0]]

    @property
    def events(self) -> int:
        return self.windows[0].events + self.windows[1].events

    def upper(self, shape: str) -> int:
        return sum(w.responses.upper(shape) for w in self.windows)

    def prompt_upper(self, shape: str) -> int:
        return sum(w.prompts.upper(shape) for w in self.windows)


class MarkerLearner:
    """Counts candidate shapes per version group and turns the unasked-for ones into
    suggestions. Not thread-safe: one per worker, fed from its event loop.

    A group is compared with its *siblings* (the same model's other versions: the same
    users and apps, so the same content) when they saw ``min_others`` events in the
    windows, else with every other group (``baseline`` in the suggestion says which)."""

    def __init__(
        self,
        *,
        window: int = 200_000,
        capacity: int = 64,
        model_capacity: int = 512,
        global_capacity: int = 2048,
        max_groups: int = 256,
        max_models: int = 64,
        max_suggestions: int = 200,
        thresholds: Thresholds | None = None,
        known: Callable[[], Iterable[str]] | None = None,
        redact: Callable[[str], str] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.window = window
        self.capacity = capacity
        self.model_capacity = model_capacity
        self.global_capacity = global_capacity
        self.max_groups = max_groups
        self.max_models = max_models
        self.max_suggestions = max_suggestions
        self.thresholds = thresholds or Thresholds()
        self._known = known or _active_literals
        self._redact = redact or (lambda text: text)
        self._clock = clock or (lambda: datetime.now(UTC))
        self.groups: OrderedDict[str, _Group] = OrderedDict()
        self.models: OrderedDict[str, _Model] = OrderedDict()
        self.everyone = [MisraGries(global_capacity), MisraGries(global_capacity)]
        self.totals = [0, 0]
        self.suggestions: dict[str, dict[str, Any]] = {}
        # the shapes each group wrote since the last review: only they can have changed
        self.touched: dict[str, set[str]] = {}

    # -- counting

    def _model(self, key: str) -> _Model:
        name = key.split(ms.GROUP_SEP, 1)[0]
        model = self.models.get(name)
        if model is None:
            model = self.models[name] = _Model(self.model_capacity)
            if len(self.models) > self.max_models:
                self.models.popitem(last=False)
        else:
            self.models.move_to_end(name)
        return model

    def add(self, batch: BatchMarkers) -> None:
        """One batch's events and sightings, per group: counted in bulk, one ``Counter``
        per group and batch, then one weighted update per distinct shape and table."""
        now = ""
        for key, (events, sightings) in batch.items():
            group = self.groups.get(key)
            if group is None:
                group = self.groups[key] = _Group(self.capacity)
                if len(self.groups) > self.max_groups:
                    self.groups.popitem(last=False)
            else:
                self.groups.move_to_end(key)
            model = self._model(key).windows[0]
            current = group.windows[0]
            current.events += events
            model.events += events
            self.totals[0] += events
            if not sightings:
                continue
            seen = [pair for response, _, _ in sightings for pair in response]
            counted = Counter([shape for shape, _ in seen])
            items = counted.items()
            current.responses.update(items)
            model.responses.update(items)
            self.everyone[0].update(items)
            asked = Counter([shape for _, prompt, _ in sightings for shape in prompt])
            if asked:
                model.prompts.update(asked.items())
            self.touched.setdefault(key, set()).update(counted)
            where = group.where
            for shape, bits in seen:
                where[shape] = where.get(shape, 0) | bits
            for shape in counted:
                if shape not in group.first_seen:
                    now = now or self._clock().isoformat()
                    group.first_seen[shape] = now
            examples = group.examples
            for response, _, example in sightings:
                if not example:
                    continue
                for shape, _ in response:
                    kept = examples.setdefault(shape, [])
                    if len(kept) < 3 and example not in kept:
                        kept.append(example)
        if self.totals[0] >= self.window:
            self._rotate()

    def _rotate(self) -> None:
        self.everyone = [MisraGries(self.global_capacity), self.everyone[0]]
        self.totals = [0, self.totals[0]]
        for group in self.groups.values():
            group.rotate()
        for model in self.models.values():
            model.rotate()

    # -- judging

    def review(self) -> list[dict[str, Any]]:
        """New suggestions among the groups seen since the last review (and updates the
        counts of earlier ones)."""
        t = self.thresholds
        total = self.totals[0] + self.totals[1]
        fresh: list[dict[str, Any]] = []
        known: set[str] | None = None
        for key, shapes in self.touched.items():
            group = self.groups.get(key)
            model = self.models.get(key.split(ms.GROUP_SEP, 1)[0])
            if group is None or model is None:
                continue
            n = group.events
            siblings = model.events - n
            baseline = "siblings" if siblings >= t.min_others else "fleet"
            others = siblings if baseline == "siblings" else total - n
            if others < t.min_others:
                continue
            current, previous = group.windows[0].responses.counts, group.windows[1].responses.counts
            for shape in shapes:
                count = current.get(shape, 0) + previous.get(shape, 0)
                if count < t.min_count:
                    continue
                low, high = wilson(count, n, t.z)
                if low < t.min_rate:
                    continue
                seen = model.upper(shape) if baseline == "siblings" else self._everyone(shape)
                elsewhere = max(0, seen - count)
                ratio = t.sibling_ratio if baseline == "siblings" else t.ratio
                if wilson(elsewhere, others, t.z)[1] > ratio * low:
                    continue
                # the same event's prompt was checked where the shape was found; this is
                # the model's prompts at large (system prompts that ask for a format)
                asked = model.prompt_upper(shape)
                if asked * n > t.ratio * count * model.events:
                    continue
                if known is None:
                    known = set(self._known())
                if any(literal in known for literal in shape.split(ms.PAIR_SEP)):
                    continue
                sid = suggestion_id(key, shape)
                item = self._suggestion(sid, key, group, shape, count, n, low, high)
                item.update(
                    baseline=baseline,
                    prompt_count=asked,
                    others_count=elsewhere,
                    others_events=others,
                )
                if sid not in self.suggestions:
                    if len(self.suggestions) >= self.max_suggestions:
                        continue
                    fresh.append(item)
                else:
                    item["first_seen"] = self.suggestions[sid]["first_seen"]
                    item["examples"] = self.suggestions[sid]["examples"]
                self.suggestions[sid] = item
        self.touched.clear()
        return fresh

    def _everyone(self, shape: str) -> int:
        return sum(w.upper(shape) for w in self.everyone)

    def _suggestion(
        self,
        sid: str,
        key: str,
        group: _Group,
        shape: str,
        count: int,
        n: int,
        low: float,
        high: float,
    ) -> dict[str, Any]:
        model, engine, engine_version, template_hash = (key.split(ms.GROUP_SEP) + ["", "", "", ""])[
            :4
        ]
        where = group.where.get(shape, 0)
        literals = shape.split(ms.PAIR_SEP)
        return {
            "id": sid,
            "group": {
                "model": model,
                "engine": engine,
                "engine_version": engine_version,
                "template_hash": template_hash,
            },
            "shape": literals,
            "kind": "pair" if len(literals) == 2 else "token",
            "where": [name for bit, name in _WHERE_NAMES if where & bit],
            "first_seen": group.first_seen.get(shape) or self._clock().isoformat(),
            "last_seen": self._clock().isoformat(),
            "count": count,
            "events": n,
            "rate": round(count / n, 6) if n else 0.0,
            "interval": [round(low, 6), round(high, 6)],
            "examples": [self._redact(e) for e in group.examples.get(shape, [])[:3]],
            "row": family_row(sid, model, shape, where),
        }


class WorkerLearner:
    """The worker's side: feed each batch's sightings, review, and keep the worker's
    suggestions file (``marker_suggestions``) and metric current. Never raises into the
    worker: a learner that fails is logged and the batch goes on."""

    def __init__(
        self,
        data_dir: Path,
        worker_id: str,
        redaction: str,
        *,
        write_every_s: float = 10.0,
        publish: Callable[[dict[str, int]], None] | None = None,
        learner: MarkerLearner | None = None,
    ) -> None:
        from leakline.pipeline.events.redact import Redactor
        from leakline.pipeline.families import marker_suggestions as sg

        redactor = Redactor.from_spec(redaction)
        self.learner = learner or MarkerLearner(redact=lambda text: redactor.redact(text).text)
        if learner is not None:
            learner._redact = lambda text: redactor.redact(text).text
        self.path = sg.worker_path(data_dir, worker_id)
        self.worker_id = worker_id
        self.write_every_s = write_every_s
        self.publish = publish
        self._written = 0.0
        self._dirty = False

    def observe(self, markers: BatchMarkers | None) -> list[dict[str, Any]]:
        """One batch; returns the new suggestions (also written to the file)."""
        if not markers:
            return []
        try:
            self.learner.add(markers)
            fresh = self.learner.review()
            self._dirty = self._dirty or bool(self.learner.suggestions)
            now = time.monotonic()
            if fresh or (self._dirty and now - self._written >= self.write_every_s):
                self.write()
                self._written = now
            if fresh:
                for item in fresh:
                    log.warning(
                        "new marker shape %s in %s (%d of %d responses); "
                        "`leakline families suggest --where id=%s`",
                        " … ".join(item["shape"]),
                        item["group"]["model"],
                        item["count"],
                        item["events"],
                        item["id"],
                    )
                if self.publish is not None:
                    self.publish(self.counts())
            return fresh
        except Exception:  # the learner must never stop the stream
            log.exception("the marker learner failed on a batch; skipped")
            return []

    def counts(self) -> dict[str, int]:
        """Suggestions by kind (``token`` / ``pair``): the metric's values."""
        out = {"token": 0, "pair": 0}
        for item in self.learner.suggestions.values():
            out[item["kind"]] = out.get(item["kind"], 0) + 1
        return out

    def write(self) -> None:
        from leakline.pipeline.families import marker_suggestions as sg

        items = sorted(self.learner.suggestions.values(), key=lambda s: s["first_seen"])
        sg.write(self.path, self.worker_id, datetime.now(UTC).isoformat(), items)
        self._dirty = False


def _active_literals() -> Iterable[str]:
    """Every literal the active family table knows (built-in and imported rows)."""
    from leakline.detectors.families import active_table

    for row in active_table().families:
        yield from row.visible_tokens
