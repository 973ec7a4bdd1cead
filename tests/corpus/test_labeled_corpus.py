"""The hand-made labeled corpus is valid, internally consistent, up to date and broad enough."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import build_corpus  # noqa: E402
import validate_corpus  # noqa: E402
from corpus_src.oracle import flatten  # noqa: E402
from corpus_src.shapes import LABELS  # noqa: E402

# reasoning families and tool-call formats the corpus must cover
FAMILIES = (
    "qwen3",
    "qwq",
    "qwen3_coder",
    "deepseek_r1",
    "deepseek_v3",
    "gemma4",
    "glm45",
    "minimax_m2",
    "kimi_k2",
    "gpt_oss",
    "granite",
    "hunyuan",
    "ernie",
    "cohere",
    "holo2",
    "nemotron",
    "olmo3",
    "seed_oss",
    "magistral",
    "mistral",
    "claude",
    "hermes",
    "llama3",
    "llama4",
    "gpt5",
)

# (what, label the case carries, a marker in the visible text)
FORMATS = (
    ("Qwen3 / QwQ <think>", "boundary_token", "<think>"),
    ("DeepSeek-R1 lone end tag", "boundary_token", "</think>"),
    ("Gemma 4 thought channel", "boundary_token", "<|channel>thought"),
    ("Kimi K2 think delimiters", "boundary_token", "◁think▷"),
    ("harmony analysis channel", "reasoning_leak", "<|channel|>analysis<|message|>"),
    ("harmony <|return|>", "boundary_token", "<|return|>"),
    ("harmony <|call|>", "boundary_token", "<|call|>"),
    ("harmony <|start|>", "boundary_token", "<|start|>"),
    ("harmony <|end|>", "boundary_token", "<|end|>"),
    ("Granite thought header", "boundary_token", "Here is my thought process:"),
    ("Cohere thinking", "boundary_token", "<|START_THINKING|>"),
    ("Cohere response", "boundary_token", "<|START_RESPONSE|>"),
    ("Seed-OSS think", "boundary_token", "<seed:think>"),
    ("Magistral THINK", "boundary_token", "[THINK]"),
    ("Claude thinking tags", "boundary_token", "<thinking>"),
    ("Hunyuan answer wrapper", "boundary_token", "<answer>"),
    ("ERNIE response wrapper", "boundary_token", "<response>"),
    ("Hermes call", "tool_call_as_text", '<tool_call>\n{"'),
    ("Qwen3-Coder XML call", "tool_call_as_text", "<function="),
    ("Mistral call", "tool_call_as_text", "[TOOL_CALLS]"),
    ("Llama 3 python_tag", "tool_call_as_text", "<|python_tag|>"),
    ("Llama 3 JSON call", "tool_call_as_text", '"parameters": {'),
    ("pythonic call", "tool_call_as_text", '[get_weather(city="Seoul")]'),
    ("DeepSeek V3/V3.1 call", "tool_call_as_text", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"),
    ("DeepSeek V3 function call", "tool_call_as_text", "function<｜tool▁sep｜>"),
    ("Kimi call section", "tool_call_as_text", "<|tool_calls_section_begin|><|tool_call_begin|>"),
    ("GLM call", "tool_call_as_text", "<arg_key>"),
    ("Granite call", "tool_call_as_text", "<|tool_call|>["),
    ("harmony commentary call", "tool_call_as_text", "commentary to=functions."),
)


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return [case for _, _, case in validate_corpus.load_cases()]


def test_files_match_the_sources() -> None:
    rendered = build_corpus.render()
    on_disk = {p.name for p in (HERE / "cases").glob("*.jsonl")}
    assert on_disk == set(rendered), "cases/ holds files the build does not write (or misses some)"
    for name, text in rendered.items():
        content = (HERE / "cases" / name).read_text(encoding="utf-8")
        assert content == text, f"{name} is stale: run python3 tests/corpus/build_corpus.py"


def test_every_case_validates_and_is_consistent() -> None:
    problems = validate_corpus.validate(validate_corpus.load_cases())
    assert not problems, "\n".join(problems)


def test_coverage_floor(cases: list[dict]) -> None:
    assert len(cases) >= 800
    per_label = Counter(label for c in cases for label in c["expected_labels"])
    for label in LABELS:
        assert per_label[label] >= 15, f"{label} has only {per_label[label]} positive cases"
    clean = sum(1 for c in cases if not c["expected_labels"])
    assert clean / len(cases) >= 0.40
    langs = Counter(c["lang"] for c in cases)
    for lang in ("en", "ko", "zh"):
        assert langs[lang] >= len(cases) / 4, f"only {langs[lang]} {lang} cases"
    assert langs["ja"] > 0


def test_every_family_appears(cases: list[dict]) -> None:
    per_family = Counter(c["family"] for c in cases)
    missing = [f for f in FAMILIES if per_family[f] == 0]
    assert not missing, f"families without cases: {missing}"
    for family in FAMILIES:
        if family in ("gpt5", "mistral", "hermes", "llama3", "llama4", "qwen3_coder"):
            continue  # no reasoning delimiters of their own
        labeled = [c for c in cases if c["family"] == family and c["expected_labels"]]
        clean = [c for c in cases if c["family"] == family and not c["expected_labels"]]
        assert labeled and clean, f"{family} needs both leaking and clean cases"


@pytest.mark.parametrize(("what", "label", "marker"), FORMATS, ids=[f[0] for f in FORMATS])
def test_every_format_appears(cases: list[dict], what: str, label: str, marker: str) -> None:
    hits = [
        c for c in cases if label in c["expected_labels"] and marker in flatten(c["event"]).visible
    ]
    assert hits, f"no {label} case shows {what} ({marker!r})"


def test_deepseek_r1_both_output_forms(cases: list[dict]) -> None:
    def forms(model_part: str) -> set[bool]:
        out = set()
        for c in cases:
            if (
                model_part in c["event"]["model"]["name"]
                and "boundary_token" in c["expected_labels"]
            ):
                text = flatten(c["event"]).visible
                if "</think>" in text:
                    out.add("<think>" in text)
        return out

    assert False in forms("DeepSeek-R1"), "no original R1 case without a start tag"
    assert True in forms("DeepSeek-R1-0528"), "no R1-0528 case with both tags"


def test_preamble_per_language(cases: list[dict]) -> None:
    pos = Counter(c["lang"] for c in cases if "preamble" in c["expected_labels"])
    look = Counter(
        c["lang"] for c in cases if c.get("kind") in ("preamble-lookalike", "let-me-know")
    )
    for lang in ("en", "ko", "zh"):
        assert pos[lang] >= 20, f"only {pos[lang]} preamble positives in {lang}"
        assert look[lang] >= 12, f"only {look[lang]} preamble-looking negatives in {lang}"


def test_reasoning_forms_and_mentions(cases: list[dict]) -> None:
    forms = Counter(c["reasoning_form"] for c in cases if "reasoning_form" in c)
    assert forms["tagged"] >= 50 and forms["untagged"] >= 20, forms
    mentions = [c for c in cases if c.get("kind") == "mention-as-noun"]
    assert len(mentions) >= 8 and all("mention-as-noun" in c["note"] for c in mentions)


def test_streams_in_every_api(cases: list[dict]) -> None:
    streamed = Counter(c["event"]["api"] for c in cases if "chunks" in c["event"])
    for api in ("chat.completions", "responses", "messages"):
        assert streamed[api] >= 15, f"only {streamed[api]} streamed {api} cases"


def test_stop_variant_groups(cases: list[dict]) -> None:
    groups = Counter(c["group"] for c in cases if c.get("group", "").startswith("stopbug-"))
    assert len(groups) >= 6 and set(groups.values()) == {4}, groups
