"""leakline.pipeline.families.files: a family row from a model's own files, and the file.

The fixtures in ``fixtures/`` are written for these tests in the shapes the real files
have (tokenizer_config.json ``added_tokens_decoder``, tokenizer.json ``added_tokens``,
Jinja chat templates): a ChatML template with <think>, one that pre-fills "<think>\\n", a
Kimi-like one with tool-call section tokens, a Mistral-like one with [TOOL_CALLS], and
malformed inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leakline.detectors import families as fam
from leakline.detectors.families import ModelFamily, family_from_dict, family_to_dict
from leakline.pipeline.families import chat_template as ct
from leakline.pipeline.families import files as ff

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> Path:
    return FIXTURES / name


@pytest.fixture
def restore_table():
    yield
    fam.set_extra_families(())


# --------------------------------------------------------------------------- import


def test_chatml_template_inside_the_tokenizer_config():
    found = ff.import_family(fixture("chatml_think_tokenizer_config.json"), name="acme")
    row = found.row
    assert row.reasoning_start == ("<think>",) and row.reasoning_end == ("</think>",)
    # the generation prompt opens no <think> (only the enable_thinking=false branch writes one)
    assert row.start_prefilled is False
    assert row.boundary_tokens == (
        "<|endoftext|>",
        "<|im_start|>",
        "<|im_end|>",
        "<|acme_sep|>",
        "<|vision_pad|>",
    )
    assert [m.name for m in row.tool_call_markup] == ["hermes"]
    # non-special added tokens the template writes: markup words, for this family only
    assert row.contextual_tokens == ("<tool_response>", "</tool_response>")
    assert row.model_patterns == ("acme",)
    assert "chat_template" in (found.template_source or "")
    assert found.unknown_tool_tags == []


def test_a_template_that_prefills_the_start_tag():
    found = ff.import_family(
        fixture("prefill_tokenizer_config.json"),
        chat_template=fixture("prefill_think.jinja"),
        name="acme_thinking",
        model_patterns=["Acme-Thinking"],
    )
    assert found.row.start_prefilled is True
    assert found.row.model_patterns == ("acme-thinking",)  # lower-cased


def test_prefill_is_judged_from_the_text_when_the_template_does_not_render(monkeypatch):
    monkeypatch.setattr(ct, "_renderer", lambda *a: None)
    found = ff.import_family(
        fixture("prefill_tokenizer_config.json"),
        chat_template=fixture("prefill_think.jinja"),
        name="acme_thinking",
    )
    assert found.row.start_prefilled is True
    assert found.notes


def test_kimi_like_section_tokens_are_tool_markup_not_boundary_tokens():
    found = ff.import_family(
        fixture("kimi_like_tokenizer_config.json"),
        chat_template=fixture("kimi_like.jinja"),
        name="moon",
        parser_names=["moon_k9"],
    )
    row = found.row
    assert row.reasoning_start == ("◁think▷",) and row.reasoning_end == ("◁/think▷",)
    assert [m.name for m in row.tool_call_markup] == ["kimi_k2"]
    assert "<|im_middle|>" in row.boundary_tokens
    assert not any("tool_call" in t for t in row.visible_tokens)
    assert "<|tool_call_end|>" in found.tool_tags
    # reserved placeholders are left out of the row, and said so
    assert found.skipped_tokens == ["<|reserved_token_0|>", "<|reserved_token_1|>"]
    assert row.parser_names == ("moon_k9",)


def test_mistral_like_tokens_from_tokenizer_json():
    found = ff.import_family(
        fixture("mistral_like_tokenizer_config.json"),
        tokenizer=fixture("mistral_like_tokenizer.json"),
        chat_template=fixture("mistral_like.jinja"),
        name="breeze",
    )
    row = found.row
    assert row.reasoning_start == ("[THINK]",) and row.reasoning_end == ("[/THINK]",)
    assert [m.name for m in row.tool_call_markup] == ["mistral"]
    assert {"[INST]", "[/INST]", "[TOOL_RESULTS]", "[AVAILABLE_TOOLS]"} <= set(row.boundary_tokens)
    # markup parts are never boundary tokens; HTML-like words are contextual only
    assert not {"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"} & set(row.visible_tokens)
    assert row.contextual_tokens == ("<unk>", "<s>", "</s>")
    assert "<SPECIAL_20>" in found.skipped_tokens


def test_an_imported_row_passes_the_table_invariants():
    rows = [
        ff.import_family(fixture("chatml_think_tokenizer_config.json"), name="acme").row,
        ff.import_family(
            fixture("kimi_like_tokenizer_config.json"),
            chat_template=fixture("kimi_like.jinja"),
            name="moon",
        ).row,
    ]
    assert ff.check_rows(rows) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"tokenizer_config": "not_json_tokenizer_config.json"}, "is not JSON", id="not_json"
        ),
        pytest.param(
            {"tokenizer_config": "no_added_tokens_tokenizer_config.json"},
            "no added tokens",
            id="no_added_tokens",
        ),
        pytest.param(
            {
                "tokenizer_config": "chatml_think_tokenizer_config.json",
                "chat_template": "malformed.jinja",
            },
            "does not parse",
            id="template_not_parseable",
        ),
        pytest.param(
            {"tokenizer_config": "missing.json"}, "cannot read tokenizer_config.json", id="missing"
        ),
        pytest.param(
            {
                "tokenizer_config": "chatml_think_tokenizer_config.json",
                "tokenizer": "chatml_think_tokenizer_config.json",
            },
            "no added_tokens list",
            id="tokenizer_json_without_added_tokens",
        ),
    ],
)
def test_bad_model_files_are_clear_errors(kwargs, message):
    paths = {k: fixture(v) for k, v in kwargs.items()}
    config = paths.pop("tokenizer_config")
    with pytest.raises(ff.FamilyFileError) as raised:
        ff.import_family(config, name="bad", **paths)
    assert message in str(raised.value)
    assert raised.value.hint


def test_the_block_check_without_jinja_catches_a_missing_end():
    with pytest.raises(ct.TemplateError, match="missing endif"):
        ct._check_blocks("{% if add_generation_prompt %}<think>", "t.jinja")
    ct._check_blocks("{% set x = 1 %}{% if x %}a{% endif %}{% for m in y %}{% endfor %}", "t")


def test_a_bad_name_is_refused():
    with pytest.raises(ff.FamilyFileError, match="bad family name"):
        ff.import_family(fixture("chatml_think_tokenizer_config.json"), name="no spaces")


# --------------------------------------------------------------------------- the file


def _row(name: str = "acme", **kw) -> ModelFamily:
    return ModelFamily(name=name, model_patterns=(name,), boundary_tokens=("<|acme_sep|>",), **kw)


def test_rows_round_trip_through_the_file(tmp_path):
    path = ff.families_path(tmp_path)
    rows = [
        ff.import_family(
            fixture("kimi_like_tokenizer_config.json"),
            chat_template=fixture("kimi_like.jinja"),
            name="moon",
        ).row,
        _row(),
    ]
    ff.write_families(path, rows)
    doc = json.loads(path.read_text())
    assert doc["format"] == ff.FILE_FORMAT
    assert doc["families"][0]["tool_call_markup"] == ["kimi_k2"]
    again = ff.read_families(path)
    assert [family_to_dict(r) for r in again] == [family_to_dict(r) for r in rows]
    assert not list(tmp_path.glob(".*.tmp"))


def test_every_builtin_row_round_trips_as_data():
    for row in fam.FAMILIES:
        assert family_to_dict(family_from_dict(family_to_dict(row))) == family_to_dict(row)


def test_a_missing_file_is_no_rows(tmp_path):
    assert ff.read_families(ff.families_path(tmp_path)) == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"{nope", "is not JSON", id="not_json"),
        pytest.param(b'{"families": []}', "is not a leakline.families/1 file", id="no_format"),
        pytest.param(
            b'{"format": "leakline.families/1", "families": [{"name": "x", "colour": []}]}',
            "unknown field(s) colour",
            id="unknown_field",
        ),
        pytest.param(
            b'{"format": "leakline.families/1", "families": [{"name": "x", '
            b'"model_patterns": ["x"], "tool_call_markup": ["smoke_signals"]}]}',
            "unknown tool_call_markup smoke_signals",
            id="unknown_markup",
        ),
        pytest.param(
            b'{"format": "leakline.families/1", "families": [{"name": "qwen3", '
            b'"model_patterns": ["x"]}]}',
            "already defined",
            id="builtin_name",
        ),
        pytest.param(
            b'{"format": "leakline.families/1", "families": [{"name": "x", '
            b'"parser_names": ["deepseek_r1"]}]}',
            "already belongs to deepseek_r1",
            id="builtin_parser_name",
        ),
        pytest.param(
            b'{"format": "leakline.families/1", "families": [{"name": "x", '
            b'"model_patterns": ["x"], "boundary_tokens": ["<tool_call>"]}]}',
            "is tool-call markup",
            id="markup_as_token",
        ),
        pytest.param(
            b'{"format": "leakline.families/1", "families": [{"name": "x", '
            b'"model_patterns": ["x"], "reasoning_start": ["</think>"], '
            b'"reasoning_end": ["<think>"]}]}',
            "would both open and close",
            id="start_is_an_end",
        ),
    ],
)
def test_a_bad_families_file_is_refused(tmp_path, content, message):
    path = ff.families_path(tmp_path)
    path.write_bytes(content)
    with pytest.raises(ff.FamilyFileError) as raised:
        ff.read_families(path)
    assert message in str(raised.value)


def test_merge_refuses_builtin_names_and_duplicates_unless_replace():
    with pytest.raises(ff.FamilyFileError, match="built-in") as raised:
        ff.merge([], _row("deepseek_r1"), replace=True)
    assert "--name" in (raised.value.hint or "")
    first = ff.merge([], _row(), replace=False)
    with pytest.raises(ff.FamilyFileError, match="imported before"):
        ff.merge(first, _row(), replace=False)
    newer = _row(contextual_tokens=("<x>",))
    assert ff.merge(first, newer, replace=True) == [newer]


# --------------------------------------------------------------------------- the watcher


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_watcher_follows_the_file_without_a_restart(tmp_path):
    path = ff.families_path(tmp_path)
    applied: list[list[str]] = []
    clock = Clock()
    watcher = ff.FamilyWatcher(
        path,
        check_every_s=2.0,
        clock=clock,
        apply=lambda rows: applied.append([r.name for r in rows]),
    )
    assert watcher.current() == [] and applied == []  # no file: the built-in table only

    ff.write_families(path, [_row()])
    assert watcher.current() == []  # checks at most every check_every_s
    clock.now = 2.5
    assert [r.name for r in watcher.current()] == ["acme"]
    assert applied == [["acme"]]

    clock.now = 5.0
    assert [r.name for r in watcher.current()] == ["acme"]
    assert applied == [["acme"]]  # unchanged file: no reload

    path.write_bytes(b"{broken")  # a bad file is refused: the rows before stay
    clock.now = 7.5
    assert [r.name for r in watcher.current()] == ["acme"]
    assert applied == [["acme"]]

    ff.write_families(path, [_row(), _row("acme2")])
    clock.now = 10.0
    assert [r.name for r in watcher.current()] == ["acme", "acme2"]

    path.unlink()
    clock.now = 12.5
    assert watcher.current() == []
    assert applied[-1] == []


def test_the_watcher_loads_an_existing_file_at_start(tmp_path, restore_table):
    path = ff.families_path(tmp_path)
    ff.write_families(path, [_row()])
    watcher = ff.FamilyWatcher(path)
    assert [r.name for r in watcher.rows] == ["acme"]
    assert "acme" in {r.name for r in fam.active_families()}


def test_activate_merges_into_the_active_table(tmp_path, restore_table):
    ff.write_families(ff.families_path(tmp_path), [_row()])
    ff.activate_data_dir(tmp_path)
    assert fam.get_family("acme").boundary_tokens == ("<|acme_sep|>",)
    ff.activate([])
    assert "acme" not in {r.name for r in fam.active_families()}
