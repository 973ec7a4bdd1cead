"""api_contract: commentary_rendered (Responses phases) and mixed_chunk (streamed deltas)."""

from __future__ import annotations

import pytest

DETECTOR = "api_contract"
COMMENTARY = "I'll look up the latest figures first."

CASES = [
    pytest.param(
        {"text": COMMENTARY + "\nGDP grew 2%.", "commentary": COMMENTARY, "renders_phases": True},
        ["commentary_rendered"],
        id="commentary_rendered",
    ),
    pytest.param(
        {"text": "GDP grew 2%.", "commentary": COMMENTARY, "renders_phases": False},
        [],
        id="client_filters_phases",
    ),
    pytest.param(
        {"text": "GDP grew 2%.", "commentary": COMMENTARY, "renders_phases": None},
        [],
        id="unknown_client",
    ),
    pytest.param(
        {"text": "GDP grew 2%.", "commentary": "  ", "renders_phases": True},
        [],
        id="empty_commentary",
    ),
    pytest.param(
        {"text": "x", "stream": True, "mixed": (3, 7), "pieces": ("x",)},
        ["mixed_chunk"],
        id="mixed_chunks",
    ),
    pytest.param({"text": "x", "stream": False, "mixed": (3,)}, [], id="not_streamed"),
    pytest.param({"text": "x", "stream": True, "mixed": ()}, [], id="clean_stream"),
    pytest.param(
        {
            "text": COMMENTARY + " Done.",
            "commentary": COMMENTARY,
            "renders_phases": True,
            "stream": True,
            "mixed": (0,),
        },
        ["commentary_rendered", "mixed_chunk"],
        id="both",
    ),
]


@pytest.mark.parametrize(("kwargs", "labels"), CASES)
def test_labels(detect, kwargs, labels):
    kwargs = dict(kwargs)
    text = kwargs.pop("text")
    found = detect(DETECTOR, text, api="responses", **kwargs)
    assert [f.label for f in found] == labels
    assert all(f.layer == "client" for f in found)


def test_commentary_span_points_at_the_commentary(detect):
    text = COMMENTARY + "\nGDP grew 2%."
    (finding,) = detect(DETECTOR, text, commentary=COMMENTARY, renders_phases=True)
    assert text[finding.span[0] : finding.span[1]] == COMMENTARY
    assert finding.remediation == "strip"


def test_commentary_not_in_visible_text_has_no_span(detect):
    (finding,) = detect(DETECTOR, "Other.", commentary=COMMENTARY, renders_phases=True)
    assert finding.span is None
    assert COMMENTARY[:20] in finding.evidence


def test_mixed_chunk_lists_the_chunks(detect):
    (finding,) = detect(DETECTOR, "x", stream=True, mixed=(2, 5, 9))
    assert finding.details == {"chunks": [2, 5, 9], "count": 3}
    assert finding.span is None
