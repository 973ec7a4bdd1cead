"""The classifier tier: a small linear model over the opening of the visible text.

Pure inference, numpy only (no scikit-learn at run time). An artifact is one JSON file,
``model.json``: the feature spec and, per head (``preamble``, ``reasoning_leak``), the
nonzero weights, the intercept and the decision threshold. JSON holds data only, so
loading an artifact never executes code; it is loaded only after its sha256 matches the
hash its caller got from the model card or the registry.

Features (format ``leakline.classifier/1``, hash ``fnv1a32-v1``):

- the opening (``whitespace: "collapsed"``): the text without the whitespace around it,
  every run of whitespace inside it made one character (a newline when the run holds
  one, else a space), first ``opening_chars`` characters, lower-cased, framed by
  ``\\x02`` ... ``\\x03`` so n-grams see where the text starts and ends. A newline still
  ends the first sentence but is hashed as a space: the layout ("Sure.\\n\\n", a blank line
  after a short first sentence) never changes a score, only the words and the sentence
  ends do. (``"raw"``, artifacts before it: the text without leading whitespace, first
  ``opening_chars`` characters, lower-cased.);
- every character n-gram with ``ngram_min <= n <= ngram_max``: 32-bit FNV-1a over its
  code points, then ``f = (h ^ (16 * region + n)) * prime`` where region is 1 when the
  n-gram starts in the first sentence (up to and including the first of ``.!?。！？…``
  or a newline) and 2 after it (a preamble is a first sentence), ``f ^= f >> 16``;
  only n-grams that end within ``tail_chars`` characters after the first sentence count;
- one token for the script of the first character (other, latin, hangul, han, kana);
- bucket = ``f & (buckets - 1)``; value = count / sqrt(number of features of the text).

Score = sigmoid(intercept + x . w), exactly ``LogisticRegression.predict_proba`` on the
same features (``leakline.models.train`` builds them with :func:`featurize`). An artifact
whose spec has no ``whitespace`` key was trained on raw openings and is scored that way.

The preamble head only looks at texts that pass the gate the heuristics pass,
:func:`~leakline.detectors.heuristics.preamble_cues.precedes_answer`: an answer follows the
opening sentence, and that sentence is not a question or a line introducing the answer.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from leakline.detectors.base import Verdict
from leakline.detectors.common import new_finding
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.heuristics.cues import sentence_end
from leakline.detectors.heuristics.preamble_cues import opening_sentence_start, precedes_answer
from leakline.detectors.labels import Label, Layer, Remediation, Source

FORMAT = "leakline.classifier/1"
HASH = "fnv1a32-v1"
DETECTOR_ID = "opening_classifier"

# 32-bit FNV-1a
_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193
_SCRIPT_SALT = 0x9E3779B1
SCRIPTS = ("other", "latin", "hangul", "han", "kana")


class ArtifactError(ValueError):
    """An artifact that is missing, tampered with, or not in a known format."""


@dataclass(frozen=True, slots=True)
class FeatureSpec:
    ngram_min: int = 1
    ngram_max: int = 3
    buckets: int = 1 << 18
    opening_chars: int = 120
    # n-grams must start within this many characters after the first sentence's end:
    # closing offers ("let me know…") later in a short answer are not its opening
    tail_chars: int = 24
    # "collapsed": whitespace around the text dropped, runs inside it one character, a
    # newline hashed as a space; "raw" (artifacts before it): leading whitespace dropped
    whitespace: str = "collapsed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "char_ngram_hash",
            "hash": HASH,
            "ngram_min": self.ngram_min,
            "ngram_max": self.ngram_max,
            "buckets": self.buckets,
            "opening_chars": self.opening_chars,
            "tail_chars": self.tail_chars,
            "whitespace": self.whitespace,
            "lowercase": True,
            "regions": "first_sentence",
            "script_token": True,
            "scale": "count_over_sqrt_total",
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FeatureSpec:
        if data.get("kind") != "char_ngram_hash" or data.get("hash") != HASH:
            raise ArtifactError(f"unknown feature kind/hash {data.get('kind')}/{data.get('hash')}")
        spec = cls(
            int(data["ngram_min"]),
            int(data["ngram_max"]),
            int(data["buckets"]),
            int(data["opening_chars"]),
            int(data["tail_chars"]),
            str(data.get("whitespace", "raw")),
        )
        if spec.whitespace not in WHITESPACE_MODES:
            raise ArtifactError(f"unknown whitespace mode {spec.whitespace!r}")
        power_of_two = spec.buckets >= 2 and spec.buckets & (spec.buckets - 1) == 0
        if not 1 <= spec.ngram_min <= spec.ngram_max <= 8 or not power_of_two:
            raise ArtifactError(f"bad feature spec {data}")
        return spec


# what ends the first sentence
_ENDER = re.compile("[.!?。！？…\n]")
_M32 = 0xFFFFFFFF
WHITESPACE_MODES = ("collapsed", "raw")
# where str.lstrip() would start, without copying the text (\s is exactly str.isspace)
_LEADING_SPACE = re.compile(r"\s*")


def _collapse(text: str) -> str:
    """Every whitespace run one character: a newline when the run holds one, else a space.

    str.split, not a regex: a pattern that starts with ``\\s`` is tried at every position.
    """
    if "\n" not in text:
        return text if _collapsed(text) else " ".join(text.split())
    # a run around a newline ends one line and starts the next: blank lines are part of it
    lines: list[str] = []
    for line in text.split("\n"):
        if not line:
            continue
        if _collapsed(line):
            lines.append(line)
        elif words := line.split():
            lines.append(" ".join(words))
    return "\n".join(lines)


def _collapsed(line: str) -> bool:
    """``line`` is its own collapse: split and join (an object per word) would copy it.

    No whitespace but single spaces (every other whitespace character is unprintable),
    none at either end."""
    return line.isprintable() and "  " not in line and line[:1] != " " and line[-1:] != " "


def opening(text: str, spec: FeatureSpec) -> str:
    """The characters :func:`featurize` reads (see the module docstring).

    ``collapsed``: the same for a text and for the text with any whitespace added around
    it or any whitespace run inside it lengthened. Reads a bounded prefix of ``text``.
    """
    # most texts start with a visible character: skip the regex call then
    start = _LEADING_SPACE.match(text).end() if text[:1].isspace() else 0  # type: ignore[union-attr]
    if spec.whitespace == "raw":
        return text[start : start + spec.opening_chars].lower()
    width = spec.opening_chars + 16
    while True:
        window = text[start : start + width]
        whole = start + width >= len(text)
        collapsed = _collapse(window)
        # the window's runs collapse as the whole text's do (a run it cuts is dropped), so
        # this is a prefix of the whole text collapsed
        if whole or len(collapsed) >= spec.opening_chars:
            return collapsed[: spec.opening_chars].lower()
        width *= 4


def _scripts(first: np.ndarray) -> np.ndarray:
    """``SCRIPTS`` index of each first character (code points, uint32)."""
    c = first.astype(np.int64)
    hangul = ((c >= 0xAC00) & (c <= 0xD7A3)) | ((c >= 0x1100) & (c <= 0x11FF))
    hangul |= (c >= 0x3130) & (c <= 0x318F)
    kana = (c >= 0x3040) & (c <= 0x30FF)
    han = ((c >= 0x4E00) & (c <= 0x9FFF)) | ((c >= 0x3400) & (c <= 0x4DBF))
    latin = ((c >= 0x61) & (c <= 0x7A)) | ((c >= 0x41) & (c <= 0x5A))
    latin |= (c >= 0xC0) & (c <= 0x24F)
    return np.select([hangul, kana, han, latin], [2, 4, 3, 1], 0).astype(np.uint32)


@dataclass(frozen=True, slots=True)
class _Hashed:
    """The hashed n-grams of a batch, position by position (``buckets`` = no n-gram)."""

    doc: np.ndarray  # document of each position
    grams: list[np.ndarray]  # per n: bucket of the n-gram starting there, or ``buckets``
    script: np.ndarray  # per document: bucket of its script token
    scale: np.ndarray  # per document: 1 / sqrt(number of features)


def _hash(texts: Sequence[str], spec: FeatureSpec) -> _Hashed:
    """Vectorised over the whole batch: the hash of an n-gram extends the hash of its
    (n-1)-gram prefix, so a batch costs a few array passes per n, not Python per char.

    Only the characters an n-gram may cover are hashed: n-grams must end within the tail
    after the first sentence, so the rest of the opening (about half of it) is dropped
    here; its positions held no n-gram and so added nothing to any sum."""
    n_docs = len(texts)
    pieces: list[str] = []
    limits: list[int] = []  # per document: n-grams end at or before this framed offset
    firsts: list[int] = []  # per document: characters hashed in the first-sentence region
    for text in texts:
        framed = "\x02" + opening(text, spec) + "\x03"
        found = _ENDER.search(framed)
        if found is None:
            limit = first = len(framed)
        else:
            # the first sentence runs up to and including its first sentence-ending character
            limit = min(len(framed), found.end() + spec.tail_chars)
            # the script token reads the character after "\x02"
            framed = framed[: max(limit, 2)]
            first = min(found.end(), len(framed))
        pieces.append(framed)
        limits.append(limit)
        firsts.append(first)
    joined = "".join(pieces)
    if spec.whitespace == "collapsed":
        joined = joined.replace("\n", " ")  # a newline ends a sentence, nothing more
    cp = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    total = len(cp)
    kept = np.fromiter(map(len, pieces), dtype=np.int64, count=n_docs)
    limit_of = np.array(limits, dtype=np.int64)
    first_of = np.array(firsts, dtype=np.int64)
    ends = np.cumsum(kept)
    starts = ends - kept
    doc = np.repeat(np.arange(n_docs, dtype=np.int64), kept)
    # region 16 (first sentence) then 32, per document
    region = np.repeat(
        np.tile(np.array([16, 32], dtype=np.uint32), n_docs),
        np.column_stack([first_of, kept - first_of]).ravel(),
    )
    padded = np.concatenate([cp, np.zeros(spec.ngram_max, dtype=np.uint32)])
    mask = np.uint32(spec.buckets - 1)
    prime = np.uint32(_FNV_PRIME)
    grams: list[np.ndarray] = []
    count = np.zeros(n_docs, dtype=np.int64)
    with np.errstate(over="ignore"):
        h = np.full(total, _FNV_OFFSET, dtype=np.uint32)
        for n in range(1, spec.ngram_max + 1):
            h ^= padded[n - 1 : n - 1 + total]
            h *= prime
            if n < spec.ngram_min:
                continue
            f = region + np.uint32(n)
            f ^= h
            f *= prime
            f ^= f >> np.uint32(16)
            f &= mask
            g = f.astype(np.intp)  # a gather by intp indices is twice as fast as by uint32
            # the n-grams starting at these positions would end past the limit
            fits = np.maximum(limit_of - (n - 1), 0)
            bad = kept - fits
            first_bad = np.repeat(ends - bad, bad)
            g[first_bad + np.arange(len(first_bad)) - np.repeat(np.cumsum(bad) - bad, bad)] = (
                spec.buckets
            )
            grams.append(g)
            count += fits
        script = (_scripts(cp[starts + 1]) + np.uint32(1)) * np.uint32(_SCRIPT_SALT)
        script ^= script >> np.uint32(16)
    # count is whole numbers: the same float64 the per-position sum of ones gave
    scale = 1.0 / np.sqrt(count.astype(np.float64) + 1.0)
    return _Hashed(doc, grams, (script & mask).astype(np.int64), scale)


def featurize(texts: Sequence[str], spec: FeatureSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """COO features of a batch: (row, bucket, value) per occurrence; duplicates add up."""
    if not texts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    hashed = _hash(texts, spec)
    rows = [hashed.doc[g < spec.buckets] for g in hashed.grams]
    cols = [g[g < spec.buckets].astype(np.int64) for g in hashed.grams]
    rows.append(np.arange(len(texts), dtype=np.int64))
    cols.append(hashed.script)
    row = np.concatenate(rows)
    return row, np.concatenate(cols), hashed.scale[row]


def ngram_bucket(gram: str, region: int, spec: FeatureSpec) -> int:
    """The bucket of one n-gram (region 1: first sentence, 2: after), in plain Python.

    The reference the vectorised :func:`featurize` follows.
    """
    h = _FNV_OFFSET
    for char in gram:
        h = ((h ^ ord(char)) * _FNV_PRIME) & _M32
    f = ((h ^ (16 * region + len(gram))) * _FNV_PRIME) & _M32
    f ^= f >> 16
    return f & (spec.buckets - 1)


@dataclass(frozen=True)
class Head:
    """One binary decision (a label) over the shared features."""

    label: str
    intercept: float
    threshold: float
    weights: np.ndarray  # dense, one float64 per bucket

    @property
    def padded(self) -> np.ndarray:
        """``weights`` plus a zero at index ``buckets`` (cached: scored every batch)."""
        cached = self.__dict__.get("_padded")
        if cached is None:
            cached = np.append(self.weights, 0.0)
            object.__setattr__(self, "_padded", cached)
        return cached

    def to_dict(self) -> dict[str, Any]:
        nz = np.flatnonzero(self.weights).astype("<u4")
        return {
            "label": self.label,
            "intercept": self.intercept,
            "threshold": self.threshold,
            "nonzero": int(len(nz)),
            "indices_u32le_b64": base64.b64encode(nz.tobytes()).decode(),
            "weights_f64le_b64": base64.b64encode(
                self.weights[nz].astype("<f8").tobytes()
            ).decode(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], buckets: int) -> Head:
        idx = np.frombuffer(base64.b64decode(data["indices_u32le_b64"]), dtype="<u4")
        val = np.frombuffer(base64.b64decode(data["weights_f64le_b64"]), dtype="<f8")
        if len(idx) != len(val) or (len(idx) and int(idx.max()) >= buckets):
            raise ArtifactError(f"head {data.get('label')!r}: weights do not fit the feature spec")
        weights = np.zeros(buckets, dtype=np.float64)
        weights[idx.astype(np.int64)] = val
        label = str(data["label"])
        if label not in (Label.PREAMBLE.value, Label.REASONING_LEAK.value):
            raise ArtifactError(f"head label {label!r} is not preamble or reasoning_leak")
        return cls(label, float(data["intercept"]), float(data["threshold"]), weights)


@dataclass(frozen=True)
class OpeningClassifier:
    """A loaded artifact: ``version`` is recorded on every stored row."""

    name: str
    version: str
    spec: FeatureSpec
    heads: tuple[Head, ...]
    sha256: str = ""

    def head(self, label: str) -> Head | None:
        return next((h for h in self.heads if h.label == label), None)

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """Probabilities, shape (len(texts), len(heads)), in one vectorised pass."""
        n = len(texts)
        out = np.zeros((n, len(self.heads)))
        if not n:
            return out
        hashed = _hash(texts, self.spec)
        for j, head in enumerate(self.heads):
            w = head.padded  # one extra zero weight for "no n-gram here"
            summed = np.take(w, hashed.grams[0])
            for grams in hashed.grams[1:]:
                summed += np.take(w, grams)  # in place: the same sums, in the same order
            margin = np.bincount(hashed.doc, weights=summed, minlength=n) + w[hashed.script]
            out[:, j] = 1.0 / (1.0 + np.exp(-(margin * hashed.scale + head.intercept)))
        return out

    def to_json(self) -> bytes:
        return orjson.dumps(
            {
                "format": FORMAT,
                "name": self.name,
                "version": self.version,
                "features": self.spec.to_dict(),
                "heads": [h.to_dict() for h in self.heads],
            },
            option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2,
        )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_artifact(data: bytes, expected_sha256: str) -> OpeningClassifier:
    """Parse artifact bytes after checking their sha256 (``sha256:`` prefix optional)."""
    expected = expected_sha256.removeprefix("sha256:").lower()
    actual = sha256_hex(data)
    if not expected or actual != expected:
        raise ArtifactError(
            f"artifact sha256 {actual} does not match the expected {expected or '(none)'}; "
            "refusing to load it"
        )
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ArtifactError(f"artifact is not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArtifactError(f"artifact format is not {FORMAT}")
    try:
        spec = FeatureSpec.from_dict(doc["features"])
        heads = tuple(Head.from_dict(h, spec.buckets) for h in doc["heads"])
        return OpeningClassifier(str(doc["name"]), str(doc["version"]), spec, heads, actual)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ArtifactError):
            raise
        raise ArtifactError(f"artifact is malformed: {exc!r}") from None


def load_artifact(path: Path, expected_sha256: str) -> OpeningClassifier:
    """Read ``model.json`` and parse it only if its sha256 is ``expected_sha256``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ArtifactError(f"cannot read artifact {path}: {exc.strerror}") from None
    return parse_artifact(data, expected_sha256)


# ------------------------------------------------------------------ the detection tier

_LAYER_REMEDIATION = {
    Label.PREAMBLE.value: (Layer.MODEL, Remediation.STRIP),
    Label.REASONING_LEAK.value: (Layer.MODEL, Remediation.REGENERATE),
}


_PREAMBLE = Label.PREAMBLE.value  # an enum member's .value is a descriptor call


def _may_label(exchange: Exchange, verdict: Verdict, labels: Sequence[str]) -> bool:
    """The cheap part of :func:`_candidate` for any of ``labels``: false means it is false."""
    text = exchange.visible_text
    if not text or text.isspace():
        return False
    for label in labels:  # a loop, not any(generator): this runs for every event
        if label not in verdict.labels and (label != _PREAMBLE or not exchange.tool_calls):
            return True
    return False


def _candidate(exchange: Exchange, verdict: Verdict, label: str) -> bool:
    if not _may_label(exchange, verdict, (label,)):
        return False
    # a progress sentence next to a structured call is the call's narration, not a
    # preamble; and a preamble needs an answer after it (the gate the heuristics pass too)
    return label != _PREAMBLE or precedes_answer(exchange.visible_text)


def classify(
    pairs: Sequence[tuple[Exchange, Verdict]],
    model: OpeningClassifier,
    threshold: float | None = None,
) -> list[Verdict]:
    """One batched pass over the openings the cheaper tiers left unlabeled.

    Returns a verdict per pair: the input verdict when the classifier adds nothing,
    else a new one with the classifier's findings (``source=classifier``) merged in.
    ``threshold`` overrides every head's own threshold.
    """
    out = [v for _, v in pairs]
    labels = [h.label for h in model.heads]
    # the preamble gate (precedes_answer) costs more than scoring a text, and a text's
    # probabilities do not depend on the rest of the batch: score first, gate only the
    # few texts a head would label
    todo = [
        i for i, (exchange, verdict) in enumerate(pairs) if _may_label(exchange, verdict, labels)
    ]
    if not todo:
        return out
    probs = model.scores([pairs[i][0].visible_text for i in todo])
    cuts = [h.threshold if threshold is None else threshold for h in model.heads]
    for row in np.flatnonzero((probs >= np.array(cuts, dtype=np.float64)).any(axis=1)):
        i = todo[row]
        exchange, verdict = pairs[i]
        found: list[Finding] = []
        for j, head in enumerate(model.heads):
            p = float(probs[row, j])
            if p >= cuts[j] and _candidate(exchange, verdict, head.label):
                found.append(_finding(exchange, head.label, p, model))
        if found:
            out[i] = merge(verdict, found, model)
    return out


def _finding(exchange: Exchange, label: str, p: float, model: OpeningClassifier) -> Finding:
    text = exchange.visible_text
    start = _LEADING_SPACE.match(text).end()  # type: ignore[union-attr]  # always matches
    # the sentence after any acknowledgement ("Sure! Let me …"), as the heuristics' span
    end = sentence_end(
        text, opening_sentence_start(text) if label == Label.PREAMBLE.value else start
    )
    layer, remediation = _LAYER_REMEDIATION[label]
    sentence = text[start:end]
    evidence = sentence if len(sentence) <= 160 else sentence[:160] + "…"
    return new_finding(
        label,
        DETECTOR_ID,
        model.version,
        Source.CLASSIFIER,
        layer,
        remediation,
        p,
        evidence,
        (start, end),
        {"probability": round(p, 4), "model": model.version, "sentence": sentence.strip()[:200]},
    )


def merge(verdict: Verdict, findings: Sequence[Finding], model: OpeningClassifier) -> Verdict:
    """A new verdict: the old findings plus the classifier's, labels recomputed."""
    merged = verdict.findings + tuple(findings)
    labels = tuple(sorted({f.label for f in merged}))
    versions = dict(verdict.detector_versions)
    versions[DETECTOR_ID] = model.version
    return Verdict(verdict.event_id, labels, merged, versions, verdict.cut)
