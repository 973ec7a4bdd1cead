"""leakline.detectors.common: the fast Finding construction equals the dataclass's own."""

from __future__ import annotations

from dataclasses import fields

from hypothesis import given
from hypothesis import strategies as st

from leakline.detectors.common import _FINDING_FIELDS, _SETTERS, _snippet, new_finding
from leakline.detectors.exchange import (
    _EXCHANGE_SETTERS,
    Exchange,
    RequestConfig,
    ResponseFormat,
    StreamFacts,
    ToolCall,
    Turn,
    Versions,
    new_exchange,
)
from leakline.detectors.finding import Finding, evidence_snippet
from leakline.detectors.labels import Layer, Remediation, Source


def test_the_fast_path_is_active_and_tracks_the_dataclass_fields():
    assert tuple(f.name for f in fields(Finding)) == _FINDING_FIELDS
    # slot writes in both builds: mypyc compiles the class, not dataclass's __init__
    assert _SETTERS is not None


def test_new_finding_equals_the_constructor():
    args = (
        "boundary_token",
        "boundary_tokens",
        "2",
        Source.RULE,
        Layer.PARSER,
        Remediation.STRIP,
        0.98,
        "…<think>…",
        (3, 10),
        {"token": "<think>"},
    )
    fast, slow = new_finding(*args), Finding(*args)
    assert fast == slow
    assert fast.to_dict() == slow.to_dict()
    assert repr(fast) == repr(slow)


@given(
    text=st.text(alphabet="ab …\n<>", max_size=400),
    a=st.integers(0, 400),
    b=st.integers(0, 400),
)
def test_inlined_snippet_equals_evidence_snippet(text, a, b):
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    assert _snippet(text, (start, end)) == evidence_snippet(text, start, end)


def test_new_exchange_equals_the_constructor():
    values = (
        "ev-1",
        "chat.completions",
        True,
        "visible",
        "reasoning",
        "reasoning_content",
        (ToolCall("get_weather", '{"city": "Seoul"}', "call_1"),),
        {"get_weather": {"type": "object"}},
        ResponseFormat("json_schema", {"type": "object"}, True),
        "stop",
        "end_turn",
        "commentary",
        False,
        "reasoning",
        "abc123",
        ("</s>",),
        StreamFacts(chunk_count=3, mixed_chunks=(1,), visible_pieces=("vis", "ible")),
        Versions(engine_name="vllm", model_name="qwen3"),
        "prompt",
        RequestConfig(thinking="on"),
        (Turn(role="user", has_text=True),),
        7,
    )
    assert _EXCHANGE_SETTERS is not None  # the fast path is on, in both builds
    fast, slow = new_exchange(*values), Exchange(*values)
    assert fast == slow
    assert repr(fast) == repr(slow)
    assert tuple(getattr(fast, f.name) for f in fields(Exchange)) == values
