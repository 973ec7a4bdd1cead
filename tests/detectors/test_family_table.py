"""The active family table: extra rows merged at run time, rows left out, indexes rebuilt."""

from __future__ import annotations

import pytest

from leakline.detectors import run_detectors
from leakline.detectors.families import (
    FAMILIES,
    ModelFamily,
    UnknownFamilyError,
    active_families,
    active_markups,
    active_table,
    families_excluding,
    get_family,
    set_extra_families,
    token_roles,
)
from leakline.detectors.tool_markup import KIMI_K2

NOVA = ModelFamily(
    name="nova_test",
    parser_names=("nova_test",),
    model_patterns=("nova-test",),
    reasoning_start=("<nova:reason>",),
    reasoning_end=("</nova:reason>",),
    boundary_tokens=("<|nova_eot|>",),
)


@pytest.fixture
def restore():
    yield
    set_extra_families(())


def test_extra_rows_reach_every_index_and_the_rules(make_exchange, restore):
    before = active_table()
    text = "<nova:reason>plan the answer</nova:reason>Done.<|nova_eot|>"
    assert "<|nova_eot|>" not in token_roles()
    table = set_extra_families([NOVA])
    assert table is active_table() and table.version > before.version
    assert get_family("nova_test") is NOVA and active_families()[-1] is NOVA
    assert token_roles()["<nova:reason>"].starts == (NOVA,)
    found = run_detectors(make_exchange(text, reasoning_parser="nova_test")).findings
    assert {f.detector_id for f in found} == {"boundary_tokens"}  # the row claims them now
    assert {f.details["family"] for f in found} == {"nova_test"}
    set_extra_families(())
    assert active_families() == FAMILIES
    found = run_detectors(make_exchange(text)).findings
    assert {f.details["family"] for f in found} == {"unknown"}  # back to the generic layer


def test_an_extra_row_replaces_a_built_in_row_of_the_same_name(restore):
    qwen3 = get_family("qwen3")
    patched = ModelFamily(
        name="qwen3",
        parser_names=qwen3.parser_names,
        reasoning_start=("<x>",),
        reasoning_end=("</x>",),
    )
    set_extra_families([patched])
    assert get_family("qwen3") is patched
    assert [f.name for f in active_families()] == [f.name for f in FAMILIES]


def test_clashing_parser_names_fail_loudly_and_keep_the_table(restore):
    before = active_table()
    clash = ModelFamily(name="other", parser_names=("qwen3",))
    with pytest.raises(ValueError, match="qwen3"):
        set_extra_families([clash])
    assert active_table() is before


def test_families_excluding_leaves_rows_and_their_markup_out():
    assert KIMI_K2 in active_markups()
    with families_excluding(["kimi_k2"]) as table:
        assert table is active_table()
        assert "kimi_k2" not in {f.name for f in active_families()}
        assert KIMI_K2 not in active_markups()
        assert "◁think▷" not in token_roles()
        with pytest.raises(UnknownFamilyError):
            get_family("kimi_k2")
    assert get_family("kimi_k2").name == "kimi_k2"
    assert KIMI_K2 in active_markups()


def test_families_excluding_unknown_name_raises():
    with pytest.raises(UnknownFamilyError), families_excluding(["qwen9"]):
        pass
    assert active_families() == FAMILIES


def test_rules_see_the_swap(make_exchange):
    text = "<seed:think>plan it</seed:think>Sure."
    with_row = run_detectors(make_exchange(text)).findings
    with families_excluding(["seed_oss"]):
        without = run_detectors(make_exchange(text)).findings
    assert {f.detector_id for f in with_row} == {"boundary_tokens"}
    assert {f.detector_id for f in without} == {"generic_tokens"}
