"""Training examples: an export (contract 2), the project's corpus, the written texts.

Every example belongs to a ``group``; the held-out split is a hash of the group, so
the variants of one case (or every pairing of one written sentence) stay on one side.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from leakline.pipeline.core.errors import LeaklineError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = PROJECT_ROOT / "tests" / "corpus" / "cases"
HOLDOUT = Path(__file__).resolve().parent / "data" / "holdout.jsonl"
# untagged self-talk openings (and answers that sound like it), written after the detectors
HOLDOUT_UNTAGGED = HOLDOUT.with_name("holdout_untagged.jsonl")
# a second untagged set (December 2026, en/ko/zh, 45/45/40 leaks and 60/60/55 answers), written
# by sessions that saw neither the detectors nor the first set. Its even-numbered ids were
# read while writing heuristics.notes_block; its odd-numbered ids never were, and stay unread
# (``unread_half``): figures on them are the honest ones
HOLDOUT_UNTAGGED_V2 = HOLDOUT.with_name("holdout_untagged_v2.jsonl")
# short clean answers (tests/corpus/precision_src.py): false positives only, never trained on
PRECISION_SET = PROJECT_ROOT / "tests" / "corpus" / "precision_clean.jsonl"
TEST_SHARE = 0.25
LANGS = ("en", "ko", "zh", "ja", "other")


@dataclass(frozen=True, slots=True)
class Example:
    text: str
    labels: tuple[str, ...]
    lang: str
    group: str
    origin: str  # export | corpus | texts | holdout | precision
    untagged: bool = False  # a reasoning_leak with no delimiter (self-talk)
    # a structured tool call came with the text: the tier skips such exchanges for
    # preamble (the sentence narrates the call), so training does too
    tool_calls: bool = False

    def target(self, label: str) -> int | None:
        """1 positive, 0 negative, None when the example says nothing about ``label``."""
        if label == "preamble":
            return None if self.tool_calls else int("preamble" in self.labels)
        if label == "reasoning_leak":
            if "reasoning_leak" not in self.labels:
                return 0
            return 1 if self.untagged else None
        raise ValueError(f"unknown head {label!r}")


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def text_group(text: str) -> str:
    return "text:" + hashlib.sha256(_norm(text).encode()).hexdigest()[:16]


def is_test(example: Example, seed: int = 0, share: float = TEST_SHARE) -> bool:
    digest = hashlib.sha256(f"{seed}:{example.group}".encode()).digest()
    return int.from_bytes(digest[:4], "big") < share * 2**32


def split(examples: Iterable[Example], seed: int = 0) -> tuple[list[Example], list[Example]]:
    train: list[Example] = []
    test: list[Example] = []
    for example in examples:
        (test if is_test(example, seed) else train).append(example)
    return train, test


def _lang(value: Any) -> str:
    return value if isinstance(value, str) and value in LANGS else "other"


def read_export(path: Path) -> list[Example]:
    """Contract-2 lines from a JSONL file or an export directory holding samples.jsonl."""
    path = Path(path)
    if path.is_dir():
        candidate = path / "samples.jsonl"
        if not candidate.exists():
            raise LeaklineError(
                f"{path} has no samples.jsonl",
                hint="pass the JSONL file written by `leakline export`, or its directory",
            )
        path = candidate
    if not path.exists():
        raise LeaklineError(
            f"no training data at {path}", hint="pass --data FILE.jsonl or an export directory"
        )
    examples: list[Example] = []
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                line = orjson.loads(raw)
                text = line["text"]
                labels = tuple(sorted(str(x) for x in line.get("labels") or ()))
            except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
                raise LeaklineError(
                    f"{path}:{number} is not an export line ({exc})",
                    hint="each line needs at least text and labels (see `leakline export`)",
                ) from None
            if not isinstance(text, str) or not text.strip():
                continue
            examples.append(
                Example(
                    text=text,
                    labels=labels,
                    lang=_lang(line.get("lang")),
                    group=text_group(text),
                    origin="export",
                    untagged="reasoning_leak" in labels and "boundary_token" not in labels,
                )
            )
    return examples


def read_corpus(cases_dir: Path = CORPUS_DIR) -> list[Example]:
    """The labeled corpus, through the same normalisation the worker uses."""
    from leakline.pipeline.events.normalise import normalise

    if not cases_dir.is_dir():
        raise LeaklineError(
            f"no corpus at {cases_dir}", hint="--with-corpus needs a source checkout of leakline"
        )
    examples: list[Example] = []
    for file in sorted(cases_dir.glob("*.jsonl")):
        for raw in file.read_bytes().splitlines():
            if not raw.strip():
                continue
            case = orjson.loads(raw)
            exchange = normalise(case["event"])
            text = exchange.visible_text
            if not text.strip():
                continue
            examples.append(
                Example(
                    text=text,
                    labels=tuple(case["expected_labels"]),
                    lang=_lang(case.get("lang")),
                    group="corpus:" + str(case.get("group") or case["case_id"]),
                    origin="corpus",
                    untagged=case.get("reasoning_form") == "untagged",
                    tool_calls=bool(exchange.tool_calls),
                )
            )
    return examples


def read_texts(seed: int = 0) -> list[Example]:
    from leakline.models.texts import composed_examples

    return [
        Example(
            text=e["text"],
            labels=tuple(e["labels"]),
            lang=e["lang"],
            group=e["group"],
            origin="texts",
            untagged="reasoning_leak" in e["labels"],
        )
        for e in composed_examples(seed)
    ]


def read_holdout(path: Path = HOLDOUT) -> list[Example]:
    examples = []
    for raw in path.read_bytes().splitlines():
        if raw.strip():
            line = orjson.loads(raw)
            labels = tuple(line["labels"])
            examples.append(
                Example(
                    line["text"],
                    labels,
                    line["lang"],
                    line["id"],
                    "holdout",
                    untagged="reasoning_leak" in labels,  # hold-out sets carry no tagged reasoning
                )
            )
    return examples


def unread_half(examples: Iterable[Example]) -> list[Example]:
    """The odd-numbered ids of a hold-out set whose other half was read while tuning."""
    return [e for e in examples if int(e.group.rsplit("-", 1)[-1][1:]) % 2 == 1]


def read_precision_set(path: Path = PRECISION_SET) -> list[Example]:
    """The clean precision set: every example is clean, whitespace around it kept."""
    examples = []
    for raw in path.read_bytes().splitlines():
        if raw.strip():
            line = orjson.loads(raw)
            examples.append(Example(line["text"], (), _lang(line["lang"]), line["id"], "precision"))
    return examples


def manifest_hash(examples: Iterable[Example]) -> str:
    """sha256 over the sorted examples: the same data gives the same hash."""
    lines = sorted(
        orjson.dumps([e.group, e.lang, list(e.labels), e.untagged, e.tool_calls, e.text])
        for e in examples
    )
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line)
        digest.update(b"\n")
    return "sha256:" + digest.hexdigest()


def iter_texts(examples: Iterable[Example]) -> Iterator[str]:
    for example in examples:
        yield example.text
