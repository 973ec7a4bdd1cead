"""Ratchet: every engine parser name leakline knows has a family row (detectors/PARSERS.md).

The lists are the engines' registries as surveyed (see PARSERS.md for the sources). A name
with no row must be listed in ``NOT_COVERED`` with the reason; once a row takes it, the
entry must go (the gap list only shrinks).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leakline.detectors.families import FAMILIES

PARSERS_MD = Path(__file__).resolve().parents[2] / "detectors" / "PARSERS.md"

ENGINE_PARSERS: dict[str, tuple[str, ...]] = {
    "vllm reasoning": (
        "deepseek_r1", "deepseek_v3", "deepseek_v4", "poolside_v1", "cohere_command3",
        "cohere_command4", "ernie45", "gemma4", "glm45", "glm47", "openai_gptoss", "granite",
        "holo2", "hunyuan_a13b", "hy_v3", "kimi_k2", "kimi_k3", "mimo", "minimax_m2",
        "minimax_m2_append_think", "minimax_m3", "mistral", "nemotron_v3", "olmo3", "qwen3",
        "seed_oss", "step3", "step3p5", "inkling", "solar_open2",
    ),
    "vllm tool": (
        "deepseek_v3", "deepseek_v31", "deepseek_v32", "deepseek_v4", "cohere_command3",
        "cohere_command4", "ernie45", "glm45", "glm47", "granite-20b-fc", "granite", "granite4",
        "hermes", "poolside_v1", "hunyuan_a13b", "hy_v3", "internlm", "jamba", "lfm2",
        "kimi_k2", "kimi_k3", "llama3_json", "llama4_json", "llama4_pythonic", "longcat",
        "mimo", "minimax_m2", "minimax_m3", "minicpm5", "mistral", "olmo3", "openai",
        "phi4_mini_json", "pythonic", "qwen3_coder", "qwen3_xml", "seed_oss", "step3",
        "step3p5", "inkling", "xlam", "gigachat3", "functiongemma", "gemma4", "apertus",
        "solar_open2",
    ),
    "sglang reasoning": (
        "apertus2509", "deepseek-r1", "deepseek-v3", "deepseek-v4", "glm45", "hunyuan",
        "gpt-oss", "kimi", "kimi_k2", "kimi_k3", "mimo", "poolside_v1", "qwen3",
        "qwen3-thinking", "minimax", "minimax-append-think", "minimax-m3", "step3", "step3p5",
        "mistral", "nemotron_3", "interns1", "gemma4", "inkling", "cohere_command4",
        "telechat4",
    ),
    "sglang tool": (
        "apertus2509", "cohere_command4", "deepseekv3", "deepseekv31", "deepseekv32",
        "deepseekv4", "dots", "glm", "glm45", "glm47", "gpt-oss", "k2_horizon", "kimi_k2",
        "kimi_k3", "lfm2", "ling3", "llama3", "mimo", "minicpm5", "mistral", "muse",
        "poolside_v1", "pythonic", "qwen", "qwen25", "qwen3_coder", "spark25", "step3",
        "step3p5", "minimax-m2", "minimax-m3", "trinity", "interns1", "hermes", "hunyuan",
        "gigachat3", "gigachat35", "gemma4", "inkling",
    ),
    "ollama": (
        "qwen3", "qwen3-thinking", "qwen3.5", "qwen3-coder", "qwen3-vl-instruct",
        "qwen3-vl-thinking", "ministral", "harmony", "cogito", "deepseek3", "olmo3",
        "olmo3-think", "nemotron-3-nano", "functiongemma", "glm-4.7", "glm-ocr", "lfm2",
        "lfm2-thinking",
    ),
}  # fmt: skip

# name -> why there is no row yet (the same table as PARSERS.md "Not covered yet")
NOT_COVERED: dict[str, str] = {
    "poolside_v1": "syntax not read yet",
    "hy_v3": "markup not read yet",
    "inkling": "control-token format not read yet",
    "solar_open2": "not read yet",
    "telechat4": "not read yet",
    "jamba": "turn tokens not confirmed (calls are tool_calls_json)",
    "xlam": "no markup of its own: the base family applies",
    "dots": "not read yet",
    "k2_horizon": "not read yet",
    "ling3": "not read yet",
    "muse": "not read yet",
    "spark25": "not read yet",
    "trinity": "not read yet",
    "cogito": "fine-tunes of Llama/Qwen: the base family applies",
    "glm-ocr": "an OCR model: no reasoning or tool markup",
}

ROW_PARSERS = {p.lower(): row.name for row in FAMILIES for p in row.parser_names}
ALL_NAMES = sorted({name for names in ENGINE_PARSERS.values() for name in names})


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_engine_parser_has_a_row_or_a_reason(name):
    assert name.lower() in ROW_PARSERS or name in NOT_COVERED, (
        f"parser {name!r} has no family row: add one to detectors/families.py "
        "(or list it in NOT_COVERED and in PARSERS.md with the reason)"
    )


def test_the_gap_list_only_shrinks():
    covered = sorted(name for name in NOT_COVERED if name.lower() in ROW_PARSERS)
    assert not covered, f"now covered by a row, remove from NOT_COVERED/PARSERS.md: {covered}"
    unknown = sorted(set(NOT_COVERED) - set(ALL_NAMES))
    assert not unknown, f"not an engine parser name in the survey: {unknown}"


def test_parsers_md_names_every_parser_and_gap():
    text = PARSERS_MD.read_text(encoding="utf-8")
    missing = [name for name in ALL_NAMES if f"`{name}`" not in text]
    assert not missing, f"add to detectors/PARSERS.md: {missing}"
    for row in {ROW_PARSERS[n.lower()] for n in ALL_NAMES if n.lower() in ROW_PARSERS}:
        assert row in text, f"PARSERS.md does not name row {row}"


def test_parsers_md_gap_table_is_not_covered():
    text = PARSERS_MD.read_text(encoding="utf-8")
    section = text.split("## Not covered yet", 1)[1].split("\n## ", 1)[0]
    listed = {
        name
        for line in section.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`([^`]+)`", line.split("|")[1])
    }
    assert listed == set(NOT_COVERED)
