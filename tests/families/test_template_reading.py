"""``families import`` finds reasoning delimiters by what the chat template does with them.

Fixtures (written for these tests in the shapes of real ``tokenizer_config.json`` files):

- ``qwen3_like``: ChatML; ``<think>``/``</think>`` and the tool tags are *non-special*
  added tokens; history is split on ``</think>``; an empty block when thinking is off;
- ``r1_like``: full-width-bar tokens; the generation prompt prefills ``<think>\\n`` after
  the assistant header; history is split on ``</think>``;
- ``deliberate``: a custom pair ``<|deliberate|>``/``<|/deliberate|>``, prefilled and split
  on, nothing named like thinking;
- ``muse``: non-special ``<|muse_start|>``/``<|muse_end|>``, only split on and stripped, in
  a list of named templates;
- ``vision`` (negative): image tokens written for image parts, ``<image>`` split on in
  *user* text, an assistant header that ends on a token; no reasoning delimiters.

The small inline templates below test one behaviour each, on markers named so that no
spelling rule could pair them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leakline.detectors import families as fam
from leakline.detectors import run_detectors
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.families import chat_template as ct
from leakline.pipeline.families import files as ff

FIXTURES = Path(__file__).parent / "fixtures"


def imported(name: str, **kw):
    return ff.import_family(FIXTURES / f"{name}_tokenizer_config.json", name=name, **kw)


@pytest.fixture
def restore_table():
    yield
    fam.set_extra_families(())


# --------------------------------------------------------------------------- the fixtures


def test_qwen3_like_non_special_think_tokens_are_the_reasoning_delimiters():
    found = imported("qwen3_like")
    row = found.row
    assert row.reasoning_start == ("<think>",) and row.reasoning_end == ("</think>",)
    assert row.start_prefilled is False  # only the thinking-off branch writes a <think>
    how = found.reasoning_found_by
    assert "split on and stripped from history" in how["</think>"]
    assert "written as an empty block when thinking is off" in how["<think>"]
    assert "written before the message's reasoning" in how["<think>"]
    # non-special tokens the template writes are in the row; those it never writes are not
    assert row.contextual_tokens == ("<tool_response>", "</tool_response>")
    assert not {"<|fim_prefix|>", "<|repo_name|>", "<|file_sep|>"} & set(row.visible_tokens)
    assert not {"<tool_call>", "</tool_call>"} & set(row.visible_tokens)  # tool markup
    assert [m.name for m in row.tool_call_markup] == ["hermes"]
    assert "<|im_end|>" in row.boundary_tokens and found.notes == []


def test_r1_like_template_prefills_the_start_after_the_assistant_header():
    found = imported("r1_like")
    row = found.row
    assert row.reasoning_start == ("<think>",) and row.reasoning_end == ("</think>",)
    assert row.start_prefilled is True
    assert found.reasoning_found_by["<think>"] == ["prefilled by the generation prompt"]
    assert found.reasoning_found_by["</think>"] == ["split on and stripped from history"]
    # the role tokens are non-special added tokens here, and the template writes them
    assert {"<｜User｜>", "<｜Assistant｜>"} <= set(row.boundary_tokens)
    assert "<｜place▁holder▁no▁0｜>" in found.skipped_tokens


def test_a_custom_pair_is_found_by_prefill_and_strip():
    found = imported("deliberate")
    row = found.row
    assert row.reasoning_start == ("<|deliberate|>",)
    assert row.reasoning_end == ("<|/deliberate|>",)
    assert row.start_prefilled is True
    assert "<|says|>" in row.boundary_tokens  # the header's last token is not a start
    assert ff.check_rows([row]) == []


def test_the_pair_needs_no_related_spelling(tmp_path):
    # the same template with markers whose names say nothing and do not pair by shape
    text = (FIXTURES / "deliberate_tokenizer_config.json").read_text(encoding="utf-8")
    text = text.replace("<|/deliberate|>", "<|speak|>").replace("<|deliberate|>", "<|ponder|>")
    config = tmp_path / "tokenizer_config.json"
    config.write_text(text, encoding="utf-8")
    row = ff.import_family(config, name="renamed").row
    assert row.reasoning_start == ("<|ponder|>",) and row.reasoning_end == ("<|speak|>",)
    assert row.start_prefilled is True


def test_a_non_special_pair_only_split_on_in_named_templates():
    found = imported("muse")
    row = found.row
    assert row.reasoning_start == ("<|muse_start|>",)
    assert row.reasoning_end == ("<|muse_end|>",)
    assert row.start_prefilled is False
    assert found.reasoning_found_by["<|muse_end|>"] == ["split on and stripped from history"]
    assert "<|toolbox|>" in row.boundary_tokens  # from the second (tool_use) template
    assert found.skipped_tokens == ["<|unused_0|>"]


def test_image_tokens_that_are_neither_prefilled_nor_stripped_are_no_reasoning():
    found = imported("vision")
    row = found.row
    assert row.reasoning_start == () and row.reasoning_end == ()
    assert found.reasoning_found_by == {} and found.notes == []
    assert {"<|image_start|>", "<|image_end|>", "<|im_sep|>"} <= set(row.boundary_tokens)
    assert "<image>" not in row.visible_tokens  # non-special, and only split on, never written


def test_every_new_row_passes_the_table_invariants():
    rows = [imported(n).row for n in ("qwen3_like", "r1_like", "deliberate", "muse", "vision")]
    assert ff.check_rows(rows) == []


# --------------------------------------------------------------------------- without rendering


EXPECTED = {
    "qwen3_like": (("<think>",), ("</think>",), False),
    "r1_like": (("<think>",), ("</think>",), True),
    "deliberate": (("<|deliberate|>",), ("<|/deliberate|>",), True),
    "muse": (("<|muse_start|>",), ("<|muse_end|>",), False),
    "vision": ((), (), False),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("broken", ["_renderer", "_environment"])
def test_the_text_alone_gives_the_same_delimiters(monkeypatch, name, broken):
    # "_renderer": the template does not render; "_environment": jinja2 is not installed
    monkeypatch.setattr(ct, broken, lambda *a: None)
    found = imported(name)
    row = found.row
    assert (row.reasoning_start, row.reasoning_end, row.start_prefilled) == EXPECTED[name]
    assert any("judged from its text" in note for note in found.notes)


# --------------------------------------------------------------------------- one behaviour each


def read(template: str, *markers: str) -> ct.Reasoning:
    return ct.read_reasoning([template], markers, set(markers))


HEADER = "{% for m in messages %}<|hd|>{{ m.role }}<|go|>"


def test_a_header_shared_by_reasoning_and_answer_is_not_a_delimiter():
    # channel-style turns: the markers around the reasoning also wrap the answer
    template = (
        HEADER + "{% if m.thinking %}<|ch|>analysis<|msg|>{{ m.thinking }}<|stop|>"
        "<|hd|>assistant<|go|>{% endif %}<|ch|>final<|msg|>{{ m.content }}<|stop|>{% endfor %}"
    )
    found = read(template, "<|hd|>", "<|go|>", "<|ch|>", "<|msg|>", "<|stop|>")
    assert found.starts == [] and found.ends == []


def test_the_markers_around_the_reasoning_field_are_a_pair():
    template = (
        HEADER + "{% if m.reasoning_content %}<|mull|>{{ m.reasoning_content }}<|spoke|>"
        "{% endif %}{{ m.content }}<|stop|>{% endfor %}"
    )
    found = read(template, "<|hd|>", "<|go|>", "<|mull|>", "<|spoke|>", "<|stop|>")
    assert found.starts == ["<|mull|>"] and found.ends == ["<|spoke|>"]
    assert found.prefilled is False and found.rendered is True


def test_the_end_written_in_place_of_the_start_when_thinking_is_off():
    # the generation prompt opens reasoning, or closes an empty one when thinking is off
    template = (
        HEADER + "{{ m.content }}<|stop|>{% endfor %}{% if add_generation_prompt %}"
        "<|hd|>assistant<|go|>{% if thinking %}<|mull|>{% else %}<|spoke|>{% endif %}{% endif %}"
    )
    found = read(template, "<|hd|>", "<|go|>", "<|mull|>", "<|spoke|>", "<|stop|>")
    assert found.starts == ["<|mull|>"] and found.ends == ["<|spoke|>"]
    assert found.prefilled is True


def test_a_prefill_is_found_when_history_turns_get_an_empty_block_after_it():
    template = (
        "{% for m in messages %}<|hd|>{{ m.role }}<|go|>{% if m.role == 'assistant' %}"
        "<|mull|>\n\n<|spoke|>{% endif %}{{ m.content.split('<|spoke|>')[-1] }}<|stop|>"
        "{% endfor %}{% if add_generation_prompt %}<|hd|>assistant<|go|><|mull|>\n{% endif %}"
    )
    found = read(template, "<|hd|>", "<|go|>", "<|mull|>", "<|spoke|>", "<|stop|>")
    assert found.starts == ["<|mull|>"] and found.ends == ["<|spoke|>"]
    assert found.prefilled is True


def test_a_literal_split_on_without_dropping_history_is_no_end():
    # split on, but both halves are kept (a join): nothing is stripped from history
    template = (
        HEADER + "{{ m.content.split('<|sep|>') | join(' ') }}<|stop|>{% endfor %}"
        "{% if add_generation_prompt %}<|hd|>assistant<|go|>{% endif %}"
    )
    found = read(template, "<|hd|>", "<|go|>", "<|sep|>", "<|stop|>")
    assert found.starts == [] and found.ends == []


def test_a_lone_prefilled_marker_with_no_end_is_left_out_with_a_note():
    template = (
        HEADER + "{{ m.content }}<|stop|>{% endfor %}"
        "{% if add_generation_prompt %}<|hd|>assistant<|go|><|mull|>{% endif %}"
    )
    found = read(template, "<|hd|>", "<|go|>", "<|mull|>", "<|stop|>")
    assert found.starts == [] and found.ends == []
    assert any("<|mull|>" in note and "partner" in note for note in found.notes)


def test_a_name_bound_literal_counts_as_the_literal():
    template = (
        "{% set close = '<|spoke|>' %}"
        + HEADER
        + "{{ m.content.split(close)[-1] }}<|stop|>{% endfor %}"
        "{% if add_generation_prompt %}<|hd|>assistant<|go|><|mull|>{% endif %}"
    )
    assert ct.scan(template).cut == ["<|spoke|>"]
    found = read(template, "<|hd|>", "<|go|>", "<|mull|>", "<|spoke|>", "<|stop|>")
    assert found.starts == ["<|mull|>"] and found.ends == ["<|spoke|>"]


@pytest.mark.parametrize(
    ("opener", "closer"),
    [
        ("<x>", "</x>"),
        ("<|x|>", "<|/x|>"),
        ("[X]", "[/X]"),
        ("◁x▷", "◁/x▷"),
        ("<|x_start|>", "<|x_end|>"),
        ("<|x|>", "<|x_end|>"),
        ("<|begin_x|>", "<|end_x|>"),
    ],
)
def test_closer_forms(opener, closer):
    assert closer in ct.closer_forms(opener)
    assert opener not in ct.closer_forms(closer)


# --------------------------------------------------------------------------- the row at work


def test_the_imported_custom_pair_labels_a_leak(restore_table):
    ff.activate([imported("deliberate").row])

    def labels(text: str) -> tuple[str, ...]:
        event = {
            "event_id": "e",
            "api": "chat.completions",
            "request": {"model": "deliberate-7b", "messages": [{"role": "user", "content": "hi"}]},
            "response": {
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ]
            },
            "model": {"name": "deliberate-7b"},
        }
        return tuple(run_detectors(normalise(event)).labels)

    # prefilled: the raw output starts inside the reasoning and shows only the end
    assert "reasoning_leak" in labels("The user wants a sum. 2+2=4.<|/deliberate|>It is 4.")
    assert labels("It is 4.") == ()


def test_the_fixtures_are_real_config_shapes():
    for name in EXPECTED:
        doc = json.loads((FIXTURES / f"{name}_tokenizer_config.json").read_text("utf-8"))
        for entry in doc["added_tokens_decoder"].values():
            assert set(entry) == {
                "content",
                "lstrip",
                "normalized",
                "rstrip",
                "single_word",
                "special",
            }
        assert isinstance(doc["chat_template"], (str, list))
