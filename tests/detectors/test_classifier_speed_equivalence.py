"""The batched classifier against plain references: same features, same verdicts, exactly.

The fast paths (an opening hashed only up to where n-grams may end, the preamble gate run
only on texts a head would label) must not change a feature, a probability or a verdict.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter

import numpy as np
import pytest

from leakline.detectors.base import Verdict
from leakline.detectors.classifier import (
    _M32,
    _SCRIPT_SALT,
    SCRIPTS,
    FeatureSpec,
    Head,
    OpeningClassifier,
    _candidate,
    _finding,
    classify,
    featurize,
    merge,
    ngram_bucket,
)
from leakline.detectors.exchange import Exchange, ToolCall
from leakline.detectors.labels import Label
from leakline.models.registry import SHIPPED_DIR, load_promoted

TEXTS = [
    "",
    "   ",
    "\n\n",
    "Sure.",
    "Let me check that for you.\n\nThe capital of France is Paris.",
    "Sure! Let me look that up.  The answer is 42.",
    "  Okay,\tI'll search the docs first...\r\n\r\n- step one\n- step two",
    "One moment.\n\n\n   Here are the results: 3.5 and Node.js 20.",
    "Paris is the capital of France. It has about 2.1 million inhabitants.",
    "What do you mean?  Can you say more?",
    "Pros:\n1. fast\n2. cheap",
    "먼저 자료를 찾아보겠습니다.\n\n서울의 인구는 약 940만 명입니다.",
    "네, 확인해 볼게요. 내일 날씨는 맑습니다.",
    "我先查一下。北京今天晴。",
    "好的，让我搜索一下！答案是：42",
    "少々お待ちください。東京の天気は晴れです。",
    "ΣΟΦΙΑ ΚΑΙ ΛΟΓΟΣ. İstanbul'a hoş geldiniz… and more text",
    "a" * 300,
    "word " * 80,
    "x\u2028y\u00a0\u00a0z\u3000w. Then\x0bthe\x1cend\x85 of it",
    "\x02inside\x03 the framing characters. And after.",
    "no sentence end at all in this fairly long opening text that keeps going on and on "
    "and on well past the one hundred and twenty characters the opening keeps",
]
_WORDS = ["let", "me", "check", "the", "답", "확인해", "볼게요", "查一下", "ΣΑΣ", "İ", "ok", "42"]
_GAPS = [" ", "  ", "\n", "\n\n", " \n ", "\t", "\u3000", ". ", "! ", "? ", "。", "…", ", "]


def _random_texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        rng.choice(["", " ", "\n"])
        + "".join(rng.choice(_WORDS) + rng.choice(_GAPS) for _ in range(rng.randint(0, 40)))
        for _ in range(n)
    ]


ALL_TEXTS = TEXTS + _random_texts(300, 19)


def _reference_opening(text: str, spec: FeatureSpec) -> str:
    """The module docstring's opening, over the whole text (\\s is str.isspace)."""
    stripped = text.strip() if spec.whitespace == "collapsed" else text.lstrip()
    if spec.whitespace == "raw":
        return stripped[: spec.opening_chars].lower()
    parts = re.split(r"(\s+)", stripped)
    for i in range(1, len(parts), 2):
        parts[i] = "\n" if "\n" in parts[i] else " "
    return "".join(parts)[: spec.opening_chars].lower()


def _script(char: str) -> str:
    c = ord(char)
    if 0xAC00 <= c <= 0xD7A3 or 0x1100 <= c <= 0x11FF or 0x3130 <= c <= 0x318F:
        return "hangul"
    if 0x3040 <= c <= 0x30FF:
        return "kana"
    if 0x4E00 <= c <= 0x9FFF or 0x3400 <= c <= 0x4DBF:
        return "han"
    if 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A or 0xC0 <= c <= 0x24F:
        return "latin"
    return "other"


def _reference_positions(text: str, spec: FeatureSpec) -> tuple[list[list[int]], int]:
    """Per position of the framed opening, the buckets of the n-grams starting there (in
    n order), and the script token's bucket; one n-gram at a time (the n-gram hash itself
    is ngram_bucket, the module's plain-Python reference)."""
    framed = "\x02" + _reference_opening(text, spec) + "\x03"
    ends = [i for i, c in enumerate(framed) if c in ".!?。！？…\n"]
    first_end = ends[0] if ends else len(framed)
    hashed = framed.replace("\n", " ") if spec.whitespace == "collapsed" else framed
    positions: list[list[int]] = []
    for start in range(len(framed)):
        here = []
        for n in range(spec.ngram_min, spec.ngram_max + 1):
            if start + n > len(framed) or (ends and start + n > first_end + spec.tail_chars + 1):
                continue
            region = 1 if start <= first_end else 2
            here.append(ngram_bucket(hashed[start : start + n], region, spec))
        positions.append(here)
    f = ((SCRIPTS.index(_script(hashed[1])) + 1) * _SCRIPT_SALT) & _M32
    f ^= f >> 16
    return positions, f & (spec.buckets - 1)


def _reference_features(text: str, spec: FeatureSpec) -> tuple[Counter[int], float]:
    """Bucket counts and the value of one occurrence."""
    positions, script = _reference_positions(text, spec)
    buckets = Counter(b for here in positions for b in here)
    buckets[script] += 1
    return buckets, 1.0 / math.sqrt(sum(buckets.values()))


SPECS = [
    FeatureSpec(),
    FeatureSpec(whitespace="raw"),
    FeatureSpec(ngram_min=2, ngram_max=4, buckets=1 << 10, tail_chars=0),
    FeatureSpec(ngram_min=1, ngram_max=8, buckets=1 << 6, opening_chars=7, tail_chars=3),
    FeatureSpec(ngram_min=3, ngram_max=3, opening_chars=200, tail_chars=200, whitespace="raw"),
]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.ngram_min}-{s.ngram_max}-{s.whitespace}")
def test_featurize_is_the_reference(spec: FeatureSpec) -> None:
    row, col, value = featurize(ALL_TEXTS, spec)
    for i, text in enumerate(ALL_TEXTS):
        mine = row == i
        expected, scale = _reference_features(text, spec)
        assert Counter(col[mine].tolist()) == expected, text
        assert set(value[mine].tolist()) == {scale}, text


@pytest.fixture(scope="module")
def shipped() -> OpeningClassifier:
    loaded = load_promoted(SHIPPED_DIR)
    assert loaded is not None
    return loaded


def test_a_probability_does_not_depend_on_the_batch(shipped: OpeningClassifier) -> None:
    # classify scores texts it may then drop: that must not move anyone else's score
    batch = shipped.scores(ALL_TEXTS)
    order = list(range(len(ALL_TEXTS)))
    random.Random(3).shuffle(order)
    shuffled = shipped.scores([ALL_TEXTS[i] for i in order])
    assert (shuffled == batch[order]).all()
    for i in range(0, len(ALL_TEXTS), 7):
        assert (shipped.scores([ALL_TEXTS[i]]) == batch[i : i + 1]).all()


def test_scores_are_the_reference_sums(shipped: OpeningClassifier) -> None:
    """Bit for bit: per position the n-grams' weights summed in n order, the positions
    summed in order from 0.0, then the script token's weight."""
    head = shipped.heads[0]
    w = head.weights.tolist()
    margins, scales = [], []
    for text in ALL_TEXTS:
        positions, script = _reference_positions(text, shipped.spec)
        total = 0.0
        for here in positions:
            if here:
                summed = w[here[0]]
                for bucket in here[1:]:
                    summed += w[bucket]
                total += summed
        margins.append(total + w[script])
        scales.append(_reference_features(text, shipped.spec)[1])
    expected = 1.0 / (1.0 + np.exp(-(np.array(margins) * np.array(scales) + head.intercept)))
    assert (shipped.scores(ALL_TEXTS)[:, 0] == expected).all()


def _reference_classify(
    pairs: list[tuple[Exchange, Verdict]], model: OpeningClassifier, threshold: float | None
) -> list[Verdict]:
    """Every head's gate first, then the score of each text gated in."""
    out = []
    for exchange, verdict in pairs:
        flags = [_candidate(exchange, verdict, h.label) for h in model.heads]
        if not any(flags):
            out.append(verdict)
            continue
        probs = model.scores([exchange.visible_text])[0]
        found = [
            _finding(exchange, head.label, float(probs[j]), model)
            for j, head in enumerate(model.heads)
            if flags[j] and probs[j] >= (head.threshold if threshold is None else threshold)
        ]
        out.append(merge(verdict, found, model) if found else verdict)
    return out


def _pairs() -> list[tuple[Exchange, Verdict]]:
    pairs = []
    for i, text in enumerate(ALL_TEXTS):
        calls = (ToolCall("search", "{}", "c1"),) if i % 5 == 1 else ()
        labels = [(), (Label.PREAMBLE.value,), (Label.REASONING_LEAK.value,)][i % 7 % 3]
        exchange = Exchange(f"e{i}", "chat.completions", False, text, tool_calls=calls)
        pairs.append((exchange, Verdict(f"e{i}", labels, (), {})))
    return pairs


@pytest.mark.parametrize("threshold", [None, 0.0, 0.05, 0.3, 1.0])
def test_classify_is_gating_every_text_first(
    shipped: OpeningClassifier, threshold: float | None
) -> None:
    preamble = shipped.heads[0]
    leak = Head(Label.REASONING_LEAK.value, -0.5, 0.4, -np.roll(preamble.weights, 5))
    two_heads = OpeningClassifier("two", "two-1", shipped.spec, (preamble, leak))
    pairs = _pairs()
    for model in (shipped, two_heads):
        got = classify(pairs, model, threshold)
        assert got == _reference_classify(pairs, model, threshold)
        # a verdict the classifier adds nothing to is passed through as it is
        assert all((g is v) == (g == v) for g, (_, v) in zip(got, pairs, strict=True))
    assert any(g != v for g, (_, v) in zip(classify(pairs, shipped, 0.05), pairs, strict=True))
