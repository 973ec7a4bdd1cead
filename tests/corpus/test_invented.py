"""The invented-shape generator (issue 29): properties that can fail, and the detectors'
floors on the held-out seeds.

The property tests run on dev seeds and on seeds in neither split; the held-out split is
only ever measured as aggregate figures (``test_heldout_floors``), never printed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import invented_shapes  # noqa: E402
import quality  # noqa: E402
from corpus_src import shapes  # noqa: E402
from corpus_src.oracle import flatten  # noqa: E402

from leakline.detectors import ALL_LABELS
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise

# What the detectors measure on the held-out seeds, rounded down to 0.05 (clean flags: the
# count). Raise these as the detectors improve; issue 29's targets are recall >= 0.9 for
# boundary_token, tool_call_as_text and delimited reasoning_leak, and 0 clean flags.
FLOORS = {
    # issue 29's targets (>= 0.9 each, no clean flag); measured on the held-out seeds after
    # the generic-layer round: boundary 0.986, calls 0.948, delimited reasoning 0.985,
    # exact match 0.970 (before it: 0.125, 0.077, 0.0 and 0.535)
    "boundary_token": 0.95,
    "tool_call_as_text": 0.90,
    "delimited_reasoning_leak": 0.95,
    "exact_match": 0.95,
    "clean_flags": 0,  # the issue-29 look-alikes
    # the turn classes (issue 34), measured on the held-out seeds after round 2
    # (stalled 0.994, runaway 1.0, empty 1.0, 0 turn look-alike flags)
    "stalled_turn": 0.95,
    "runaway_turn": 1.0,
    "empty_response": 1.0,
    "turn_clean_flags": 0,  # flags on the turn look-alikes (TURN_LOOKALIKES)
}

DEV = invented_shapes.seeds("dev")
OUTSIDE = [123456, 7, 424242]  # seeds in neither split, for properties only

# sha256 of json.dumps(cases, sort_keys=True, ensure_ascii=False) over the first cases of each
# dev seed: the issue-29 classes, computed before the turn classes (issue 34) were appended.
# Appending a class must leave them byte-identical.
ISSUE29_CASES = 99
ISSUE29_DIGESTS = {
    0: "31d2ed21f0297a7181c09a936af8b6f362a8371e29e0668e08a2894979ef037e",
    1: "079307da9f5051adf5eeca01f8109d54b1cce81a89b35fc398742b540bcef4d9",
    2: "13b118b88780634249c368b9cfc8772278a41951d3175b0323ab6b9fe17e169a",
    3: "b5311ce24fc9b4ff04ddd4c265a0830aa846ce75d4539ea6fee3cd630e4054a8",
    4: "4473559d8f4d936b7b03aa8aa1faf914bfa989b0721c13c2ab8f229aa42f530e",
    5: "d73adb2ca0eed04a7eef5324ea82e65760a827b2aad2be79d7b5cf488cedbc97",
    6: "b6df229671f78f94ce3783455f96cff868312eaaa32890aba2e380eb46acdaa1",
    7: "41249471d068cb5e971efa1f91a68fb154cc1c59b23890638817439d06fc3592",
    8: "70996b3c91c759c61181e7074d613d5088dcd482d098bdf31caab43d38e6ae57",
    9: "d669434d076d0f1bdab3098584e17e797dd7b083ed0b2834449abf9e3d79976a",
    10: "ec9f87b4a3b7ad245b1ead033b317fbdd101e1a6f6ce6422c0893a19ac6e1c82",
    11: "676604753577042bb33275e7a56cc7ecc92f333f06ba66029c0e53ca46d5654f",
    12: "3453feea6c45c0d533e3a23db40a63b9f0f1193905a81c14c335a231eb9541cd",
    13: "f24f7a06fccc9528869555404090175b9dff346f9ac3cd8cd6844b13c3019e15",
    14: "8f0a85e20a76b4183547adc9b5a0ca623882252abc62453940abb37d03583de5",
    15: "fea36e26f198d214d97f3cee95479c421ce75b29b130c01fb13b8031399ca819",
    16: "c7acf8cf50d3587620a88bd63ea36531c2821961111660c63fbf78d431d180ab",
    17: "26271664d3eaef427bb9fc7eda8e1d5c59a3fe5226d066cf5b3f2f00937c329b",
    18: "b3fa78a78dd45b08fe522a7cfb15e6e3dfeebc1aea1473a0e24d43c8b371d522",
    19: "0ae97122b90c8e698fa4d9025ad3ea7a0b045426eeda37d442b0b3787ba41b32",
}
CLASS_LABELS = {
    "token_brackets": ["boundary_token"],
    "reasoning_pair": ["boundary_token", "reasoning_leak"],
    "agent_call": ["tool_call_as_text"],
    "vendor_call_tokens": ["boundary_token", "tool_call_as_text"],
    "pseudo_code_call": ["tool_call_as_text"],
    "bracket_prose_call": ["tool_call_as_text"],
    "bare_call_no_tools": ["tool_call_as_text"],
    "role_header_text": ["boundary_token"],
    "untagged_plan": ["reasoning_leak"],
    "clean": [],
    "stalled_turn": ["stalled_turn"],
    "runaway_turn": ["runaway_turn"],
    "empty_response": ["empty_response"],
    "preamble_then_answer": ["preamble"],
    "truncated_announcement": ["truncated"],
    "empty_with_reasoning": ["final_in_reasoning"],
}
TURN_CLASSES = ("stalled_turn", "runaway_turn", "empty_response")


@pytest.fixture(scope="module")
def dev_cases() -> dict[int, list[dict]]:
    return {seed: invented_shapes.generate(seed) for seed in DEV}


def test_seeds_file_is_frozen_and_disjoint() -> None:
    data = json.loads(invented_shapes.SEEDS_FILE.read_text(encoding="utf-8"))
    assert data["dev"] == list(range(20))
    assert len(data["heldout"]) == 20 and len(set(data["heldout"])) == 20
    assert not set(data["dev"]) & set(data["heldout"])
    assert "held-out" in data["note"]


@pytest.mark.parametrize("seed", [0, 13, *OUTSIDE])
def test_same_seed_same_cases(seed: int) -> None:
    first = json.dumps(invented_shapes.generate(seed), sort_keys=True)
    invented_shapes.generate(seed + 1)  # no state carries over between calls
    assert json.dumps(invented_shapes.generate(seed), sort_keys=True) == first


@pytest.mark.parametrize("seed", DEV)
def test_issue29_cases_stay_byte_identical(seed: int) -> None:
    """Classes are appended: the cases of the classes before them do not move."""
    cases = invented_shapes.generate(seed)[:ISSUE29_CASES]
    blob = json.dumps(cases, sort_keys=True, ensure_ascii=False).encode("utf-8")
    assert hashlib.sha256(blob).hexdigest() == ISSUE29_DIGESTS[seed]


def test_corpus_registry_untouched() -> None:
    before = {theme: len(cases) for theme, cases in shapes.CASES.items()}
    invented_shapes.generate(3)
    assert {theme: len(cases) for theme, cases in shapes.CASES.items()} == before


def test_different_seeds_draw_different_names(dev_cases: dict[int, list[dict]]) -> None:
    names = {s: {x for c in cases for x in c["invented"]} for s, cases in dev_cases.items()}
    assert all(len(v) >= 30 for v in names.values())
    for a, b in itertools.combinations(names, 2):
        overlap = len(names[a] & names[b]) / len(names[a] | names[b])
        assert overlap < 0.25, (a, b, sorted(names[a] & names[b]))


@pytest.mark.parametrize("seed", [*DEV[:5], *OUTSIDE])
def test_every_event_validates(seed: int) -> None:
    for case in invented_shapes.generate(seed):
        validate_event(case["event"])
        assert case["event"]["event_id"] == case["case_id"]


def test_labels_and_fields(dev_cases: dict[int, list[dict]]) -> None:
    ids = set()
    for cases in dev_cases.values():
        for case in cases:
            labels = case["expected_labels"]
            assert labels == sorted(labels) and set(labels) <= set(ALL_LABELS)
            assert labels == CLASS_LABELS[case["shape_class"]], case["case_id"]
            assert case["lang"] in invented_shapes.LANGS and case["note"]
            assert (case.get("lookalike") is not None) == (case["shape_class"] == "clean")
            if "reasoning_leak" in labels:
                assert case["reasoning_form"] in ("tagged", "untagged")
            ids.add(case["case_id"])
    assert len(ids) == sum(len(c) for c in dev_cases.values())


@pytest.mark.parametrize("seed", [*DEV, *OUTSIDE])
def test_every_seed_is_complete(seed: int) -> None:
    cases = invented_shapes.generate(seed)
    assert 140 <= len(cases) <= 180
    assert {c["shape_class"] for c in cases} == set(invented_shapes.SHAPE_CLASSES)
    assert {c["lang"] for c in cases} >= {"en", "ko", "zh"}
    positives = sum(bool(c["expected_labels"]) for c in cases)
    assert len(cases) - positives >= positives
    apis = Counter((c["event"]["api"], c["event"].get("stream", False)) for c in cases)
    assert apis[("chat.completions", False)] > len(cases) * 0.4  # the commonest shape
    assert len(apis) == 6  # the turn classes add Responses and Messages streams


def test_invented_shapes_are_visible(dev_cases: dict[int, list[dict]]) -> None:
    """The invented strings a positive names are really in the text the user sees (so a
    miss is the detector's), and a token-doc answer's token is in the user's prompt."""
    for cases in dev_cases.values():
        for case in cases:
            exchange = normalise(validate_event(case["event"]))
            if case["expected_labels"]:
                for name in case["invented"]:
                    assert name in exchange.visible_text, (case["case_id"], name)
            if case.get("lookalike") == "token_doc_answer":
                token = case["invented"][0]
                assert exchange.visible_text.startswith(token)
                assert token in json.dumps(case["event"]["request"], ensure_ascii=False)


def test_tools_are_declared_exactly_where_the_class_says(dev_cases: dict[int, list[dict]]) -> None:
    declared_classes = {
        "agent_call",
        "vendor_call_tokens",
        "pseudo_code_call",
        "bracket_prose_call",
    }
    for cases in dev_cases.values():
        for case in cases:
            tools = case["event"]["request"].get("tools")
            if case["shape_class"] in declared_classes:
                names = {t.get("name") or t["function"]["name"] for t in tools}
                assert names & set(case["invented"]), case["case_id"]
            elif case["shape_class"] == "bare_call_no_tools":
                assert tools is None


def test_heldout_floors() -> None:
    """The detectors on seeds nobody looked at: aggregate figures only."""
    cases = invented_shapes.generate_split("heldout")
    figures = quality.invented_figures(cases, quality.evaluate(cases))
    labels = figures["labels"]
    got = {
        "boundary_token": labels.get("boundary_token", {}).get("recall", 0.0),
        "tool_call_as_text": labels.get("tool_call_as_text", {}).get("recall", 0.0),
        "delimited_reasoning_leak": figures["delimited_reasoning_recall"],
        "exact_match": figures["exact_match"],
        **{label: labels.get(label, {}).get("recall", 0.0) for label in TURN_CLASSES},
    }
    for key, value in got.items():
        assert value >= FLOORS[key], f"{key}: {value} < floor {FLOORS[key]} ({got})"
    turn_kinds = {kind for kind, _ in invented_shapes.invented_turns.TURN_LOOKALIKES}
    flags = {"clean_flags": 0, "turn_clean_flags": 0}
    for kind, row in figures["clean_by_lookalike"].items():
        flags["turn_clean_flags" if kind in turn_kinds else "clean_flags"] += row["flagged"]
    for key, count in flags.items():
        assert count <= FLOORS[key], f"{key}: {count} > {FLOORS[key]}"


def _billed(event: dict) -> int:
    """The completion tokens the event's usage bills, whatever the API."""
    usages = [event["response"]["usage"]] if "response" in event else []
    for chunk in event.get("chunks", []):
        usages += [chunk.get("usage") or {}, (chunk.get("response") or {}).get("usage") or {}]
    return max(
        (u.get("completion_tokens") or u.get("output_tokens") or 0 for u in usages), default=0
    )


def _has_tool_turn(request: dict) -> bool:
    turns = request.get("messages") or request.get("input") or []
    text = json.dumps(turns) if isinstance(turns, list) else ""
    return any(k in text for k in ('"role": "tool"', "function_call_output", "tool_result"))


def test_turn_cases_have_their_structure(dev_cases: dict[int, list[dict]]) -> None:
    """What each turn class claims is really in the event (read the literal way, by the
    corpus oracle): the text, the calls, the reasoning, the finish and the billed tokens."""
    for cases in dev_cases.values():
        for case in cases:
            f, cls, kind = flatten(case["event"]), case["shape_class"], case.get("lookalike")
            where = case["case_id"]
            if cls in ("stalled_turn", "runaway_turn", "preamble_then_answer"):
                assert f.visible.strip() and not f.calls and not f.reasoning, where
                assert f.finish == "stop", where
            if cls == "runaway_turn":  # every header starts a line, after answer text
                for header in case["invented"]:
                    assert "\n" + header in f.visible, (where, header)
                assert f.visible.split("\n")[0].strip(), where
            if cls in ("empty_response", "empty_with_reasoning"):
                assert not f.visible.strip() and not f.calls and f.finish == "stop", where
                assert bool(f.reasoning) == (cls == "empty_with_reasoning"), where
            if cls == "empty_response":
                assert _billed(case["event"]) > 0, where
            if cls == "truncated_announcement":
                assert f.visible and not f.calls and f.finish == "length", where
            if kind == "empty_with_call":
                assert not f.visible.strip() and f.calls, where
            if kind == "announcement_with_call":
                assert f.visible.strip() and f.calls, where


@pytest.mark.parametrize("seed", [*DEV, *OUTSIDE])
def test_turn_classes_cover_languages_and_apis(seed: int) -> None:
    cases = invented_shapes.generate(seed)
    by_class: dict[str, list[dict]] = {}
    for case in cases:
        by_class.setdefault(case["shape_class"], []).append(case)
    for cls in ("stalled_turn", "runaway_turn"):
        assert {c["lang"] for c in by_class[cls]} == {"en", "ko", "zh"}, cls
    shapes_seen = {(c["event"]["api"], "chunks" in c["event"]) for c in by_class["empty_response"]}
    assert len(shapes_seen) == 6  # chat / Responses / Messages, streamed and not
    stalled = by_class["stalled_turn"]
    assert any(c["event"]["request"].get("tools") for c in stalled)
    assert any(not c["event"]["request"].get("tools") for c in stalled)
    assert any(_has_tool_turn(c["event"]["request"]) for c in stalled)
    lookalikes = {c.get("lookalike") for c in by_class["clean"]}
    assert {kind for kind, _ in invented_shapes.invented_turns.TURN_LOOKALIKES} <= lookalikes


def test_runaway_headers_differ_between_seeds(dev_cases: dict[int, list[dict]]) -> None:
    """Each seed writes role headers its own ways, so no fixed list covers the split."""
    spellings = {
        seed: frozenset(
            h for c in cases if c["shape_class"] == "runaway_turn" for h in c["invented"]
        )
        for seed, cases in dev_cases.items()
    }
    assert len(set(spellings.values())) == len(spellings)
    assert len(set().union(*spellings.values())) >= 40
