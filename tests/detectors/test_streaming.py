"""StreamScanner: boundary tokens flagged before they are emitted, with a bounded hold-back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leakline.detectors import get_detector, native
from leakline.detectors.families import TOKEN_ROLES, UnknownFamilyError
from leakline.detectors.streaming import StreamScanner
from leakline.detectors.text import LiteralScanner

PLAIN = tuple(t for t, role in TOKEN_ROLES.items() if not role.contextual)
PLAIN_SCANNER = LiteralScanner(PLAIN)


def run(chunks, **kwargs):
    """Feed ``chunks``, close; return (scanner, steps)."""
    scanner = StreamScanner(**kwargs)
    steps = [scanner.feed(chunk) for chunk in chunks]
    steps.append(scanner.close())
    return scanner, steps


def tokens(steps):
    return [f.details["token"] for step in steps for f in step.findings]


def emitted(steps):
    return "".join(step.emit for step in steps)


def batch_tokens(make_exchange, text):
    found = get_detector("boundary_tokens").detect(make_exchange(text))
    return [
        (f.span, f.details["token"], f.details["family"], f.layer)
        for f in found
        if f.label == "boundary_token"
    ]


# --------------------------------------------------------------------------- what is flagged

FLAGGED = [
    pytest.param(["<think>plan</think>Paris."], {}, ["<think>", "</think>"], id="think_pair"),
    pytest.param(["<th", "ink>plan</thi", "nk>Paris."], {}, ["<think>", "</think>"], id="split"),
    pytest.param(list("<think>x</think>"), {}, ["<think>", "</think>"], id="one_char_chunks"),
    pytest.param(
        ["<|channel|>ana", "lysis<|message|>We should greet.<|end|><|start|>assistant"],
        {},
        ["<|channel|>analysis", "<|message|>", "<|end|>", "<|start|>"],
        id="harmony_longest_literal_wins",
    ),
    pytest.param(["<|channel|>", "final"], {}, ["<|channel|>"], id="harmony_bare_channel"),
    pytest.param(
        ["◁think▷", "공식을 떠올린다◁/think", "▷넓이는 πr²"],
        {},
        ["◁think▷", "◁/think▷"],
        id="kimi_korean",
    ),
    pytest.param(
        ["嗯，用户问的是首都</think>", "答案是巴黎。"], {}, ["</think>"], id="chinese_lone_end"
    ),
    pytest.param(
        ["답변 전에\n<thinking>", "메모</thinking>\n서울"],
        {},
        ["<thinking>", "</thinking>"],
        id="claude_korean",
    ),
    pytest.param(
        ["```python\n", "x = '<think>'\n```\n", "</think>done"],
        {},
        ["</think>"],
        id="fence_then_leak",
    ),
    pytest.param(["~~~\n</think>\n~~~\n<think>"], {}, ["<think>"], id="tilde_fence"),
    pytest.param(
        ["```\n<think>\n", "```\n<think>"], {}, ["<think>"], id="fence_closed_across_chunks"
    ),
    pytest.param(["Use the `<thi", "nk>` tag"], {}, [], id="inline_code_split"),
    pytest.param(["``a <think> b`` then </think>"], {}, ["</think>"], id="double_tick_inline"),
    pytest.param(['Write "<think>" literally'], {}, [], id="quoted"),
    pytest.param(["```\n<think>"], {}, [], id="unclosed_fence_is_code"),
    pytest.param(["```js <think>"], {}, [], id="fence_line_is_code"),
    pytest.param(["<answer>42</answer>"], {}, [], id="contextual_alone_not_flagged"),
    pytest.param(
        ["<think>x</think><answer>42</answer>"],
        {},
        ["<think>", "</think>", "<answer>", "</answer>"],
        id="contextual_after_family_token",
    ),
    pytest.param(
        ["<answer>42</answer>"],
        {"families": ["hunyuan"]},
        ["<answer>", "</answer>"],
        id="contextual_named_family",
    ),
    pytest.param(
        ["<think>a</think>[THINK]b[/THINK]"],
        {"families": ["mistral"]},
        ["[THINK]", "[/THINK]"],
        id="only_named_families",
    ),
    pytest.param(
        ["I have to give the solution based on the thinking ", "directly now. 4"],
        {},
        ["I have to give the solution based on the thinking directly now."],
        id="budget_string_split",
    ),
]


@pytest.mark.parametrize(("chunks", "kwargs", "expected"), FLAGGED)
def test_flagged_tokens(chunks, kwargs, expected):
    scanner, steps = run(chunks, **kwargs)
    assert tokens(steps) == expected
    assert emitted(steps) == "".join(chunks)
    assert scanner.token_count == len(expected)


# The batch detector names families from the exchange's versions and lets a contextual
# token count when its family shows anywhere in the text; compare only the other cases.
UNNAMED_PLAIN = [
    pytest.param(*p.values[:1], id=p.id)
    for p in FLAGGED
    if not p.values[1] and not any(TOKEN_ROLES[t].contextual for t in p.values[2])
]


@pytest.mark.parametrize("chunks", UNNAMED_PLAIN)
def test_same_tokens_as_the_batch_detector(make_exchange, chunks):
    _, steps = run(chunks)
    got = [
        (f.span, f.details["token"], f.details["family"], f.layer)
        for step in steps
        for f in step.findings
    ]
    assert got == batch_tokens(make_exchange, "".join(chunks))


def test_finding_shape():
    _, steps = run(["Paris.</th", "ink>"], families=["deepseek_r1"])
    (finding,) = [f for step in steps for f in step.findings]
    assert finding.label == "boundary_token"
    assert finding.detector_id == "stream_scanner"
    assert finding.remediation == "strip"
    assert finding.layer == "template"  # lone end of a family whose template prefills <think>
    assert finding.span == (6, 14)
    assert finding.details == {
        "token": "</think>",
        "family": "deepseek_r1",
        "chunk_index": 0,
        "end_chunk_index": 1,
        "split_across_chunks": True,
    }


# --------------------------------------------------------------------------- hold-back and chunks


def test_plain_text_is_emitted_at_once():
    scanner = StreamScanner()
    assert scanner.feed("Hello world").emit == "Hello world"
    assert scanner.held_chars == 0


def test_a_possible_prefix_is_held_then_released():
    scanner = StreamScanner()
    assert scanner.feed("Hello <th").emit == "Hello "
    assert scanner.held_chars == 3
    step = scanner.feed("ere")
    assert step.emit == "<there"
    assert step.findings == ()


def test_a_token_is_flagged_before_any_of_it_is_emitted():
    scanner = StreamScanner()
    sent = ""
    for chunk in ["ok <", "|im", "_end", "|>"]:
        step = scanner.feed(chunk)
        if step.findings:
            assert sent == "ok "  # not one character of it went out before it was flagged
        sent += step.emit
    assert sent == "ok <|im_end|>"
    assert scanner.token_count == 1


def test_chunk_facts():
    scanner, _ = run(["Sure. ", "", "Here <th", "ink>x</think>"])
    assert scanner.chunk_count == 4
    assert scanner.first_leak_chunk == 2
    spans = [
        (f.span, f.details["chunk_index"], f.details["end_chunk_index"]) for f in scanner.findings
    ]
    assert spans == [((11, 18), 2, 3), ((19, 27), 3, 3)]


def test_no_leak_no_first_leak_chunk():
    scanner, _ = run(["all ", "clean"])
    assert scanner.first_leak_chunk is None
    assert scanner.chunk_count == 2


def test_default_hold_back_is_longest_literal_minus_one():
    assert StreamScanner().hold_back == max(map(len, TOKEN_ROLES)) - 1
    # mistral's longest literal is its tool-list closer
    assert StreamScanner(families=["mistral"]).hold_back == len("[/AVAILABLE_TOOLS]") - 1


def test_smaller_hold_back_stops_watching_longer_literals():
    scanner = StreamScanner(families=["qwen3"], hold_back=12)
    assert "I have to give the solution based on the thinking directly now." in scanner.unwatched
    for chunk in ["<|im_", "start|>", "I have to give the solution"]:
        scanner.feed(chunk)
        assert scanner.held_chars <= 12
    assert [f.details["token"] for f in scanner.findings] == ["<|im_start|>"]


@pytest.mark.skipif(
    native.compiled(), reason="spies on a method; compiled classes can't be patched"
)
def test_work_is_new_bytes_plus_bounded_tail(monkeypatch):
    scanned: list[int] = []
    original = LiteralScanner.finditer

    def spy(self, text):
        scanned.append(len(text))
        return original(self, text)

    monkeypatch.setattr(LiteralScanner, "finditer", spy)
    scanner = StreamScanner()
    for _ in range(500):
        scanner.feed("some words I <")
    assert max(scanned) <= scanner.hold_back + len("some words I <")


def test_bad_configuration_fails_loudly():
    with pytest.raises(UnknownFamilyError, match="known families"):
        StreamScanner(families=["nope"])
    with pytest.raises(ValueError, match="strip"):
        StreamScanner(drop_reasoning=True)
    with pytest.raises(ValueError, match="empty"):
        StreamScanner(families=[])
    with pytest.raises(ValueError):
        StreamScanner(hold_back=-1)


def test_feed_after_close_raises_and_close_is_idempotent():
    scanner = StreamScanner()
    scanner.feed("<thi")
    assert scanner.close().emit == "<thi"
    assert scanner.close().emit == ""
    with pytest.raises(RuntimeError):
        scanner.feed("x")


def test_findings_are_capped_but_stripping_goes_on():
    scanner, steps = run(["<|im_end|>x" * 100], strip=True)
    assert len(scanner.findings) == 64
    assert scanner.token_count == 100
    assert emitted(steps) == "x" * 100


# --------------------------------------------------------------------------- strip

STRIPPED = [
    pytest.param(["<think>plan</think>\n\nParis."], {}, "plan\n\nParis.", id="tokens_only"),
    pytest.param(["Paris.<|im_e", "nd|>"], {}, "Paris.", id="split_token"),
    pytest.param(["```\n<think>\n```\n<think>x"], {}, "```\n<think>\n```\nx", id="code_token_kept"),
    pytest.param(["<thi<think>nk> ok"], {}, " ok", id="joined_literal_removed"),
    pytest.param(["<thi", "<", "think>nk> ok"], {}, "<thi ok", id="joined_after_first_half_sent"),
    pytest.param(
        ["I have to give the solution<|im_end|> based on the thinking directly now.!"],
        {},
        "!",
        id="joined_budget_string",
    ),
    pytest.param(
        ["<think>\n사용자가 수도를 묻고 있다.\n</think>\n서울입니다."],
        {"drop_reasoning": True},
        "\n서울입니다.",
        id="drop_region_korean",
    ),
    pytest.param(
        ["<think>", "\n用户在问首都。\n", "</think>", "巴黎。"],
        {"drop_reasoning": True},
        "巴黎。",
        id="drop_region_chunks_chinese",
    ),
    pytest.param(
        ["<think>\nstill thinking when the stream ends"],
        {"drop_reasoning": True},
        "\nstill thinking when the stream ends",
        id="unterminated_released",
    ),
    pytest.param(
        ["Models put <think> and </think> around it."],
        {"drop_reasoning": True},
        "Models put  and  around it.",
        id="mention_not_dropped",
    ),
    pytest.param(
        ["Paris is big.</think>Paris."],
        {"drop_reasoning": True},
        "Paris is big.Paris.",
        id="lone_end_only_token",
    ),
    pytest.param(
        [
            "<|channel|>analysis<|message|>Greet.<|end|><|start|>assistant<|channel|>final<|message|>Hi!"
        ],
        {"drop_reasoning": True},
        "Hi!",
        id="harmony_drop",
    ),
    pytest.param(
        ["```\n<think>\n```\n"],
        {"drop_reasoning": True},
        "```\n<think>\n```\n",
        id="drop_ignores_code",
    ),
]


@pytest.mark.parametrize(("chunks", "kwargs", "expected"), STRIPPED)
def test_strip(chunks, kwargs, expected):
    _, steps = run(chunks, strip=True, **kwargs)
    assert emitted(steps) == expected


@pytest.mark.parametrize(("chunks", "kwargs", "expected"), STRIPPED)
def test_removed_spans_account_for_the_difference(chunks, kwargs, expected):
    text = "".join(chunks)
    _, steps = run(chunks, strip=True, **kwargs)
    removed = sorted(span for step in steps for span in step.removed)
    kept, pos = [], 0
    for start, end in removed:
        assert start >= pos
        kept.append(text[pos:start])
        pos = end
    kept.append(text[pos:])
    assert "".join(kept) == expected


def test_drop_withholds_the_region_until_it_closes():
    scanner = StreamScanner(strip=True, drop_reasoning=True)
    assert scanner.feed("<think>\n").emit == ""
    assert scanner.feed("weighing options\n").emit == ""
    assert scanner.withheld_chars > 0
    assert scanner.held_chars <= scanner.hold_back  # the region is a separate buffer
    step = scanner.feed("</think>Answer")
    assert step.emit == "Answer"
    assert step.removed == ((0, 33),)


def test_drop_gives_up_past_max_reasoning_chars():
    scanner = StreamScanner(strip=True, drop_reasoning=True, max_reasoning_chars=20)
    out = [scanner.feed(c).emit for c in ["<think>", "a long stretch of reasoning", "</think>ok"]]
    out.append(scanner.close().emit)
    assert "".join(out) == "a long stretch of reasoningok"
    assert scanner.withheld_chars == 0


def test_findings_do_not_depend_on_strip():
    chunks = ["<think>plan", "</think><|im_end|>", "`<think>`"]
    plain = [f.to_dict() for f in run(chunks)[0].findings]
    for kwargs in ({"strip": True}, {"strip": True, "drop_reasoning": True}):
        assert [f.to_dict() for f in run(chunks, **kwargs)[0].findings] == plain


# --------------------------------------------------------------------------- properties

# Fragments that never make the batch detector read a token as a word in prose
# (its mention filter needs the rest of the sentence, which a stream does not have yet):
# nothing ends in a space or a CJK character right before a token.
FILLERS = [
    "Hello",
    "x",
    "\n",
    "答案是2",
    "사용자가 묻는다.",
    "<",
    ">",
    "|",
    "think",
    "<thi",
    "nk>",
    "</",
    "<|",
    "<|chan",
    "nel|>",
    "channel|>",
    "assistant",
    "final",
    "analysis",
    "Here is my",
    " thought process:",
    "I have to give the solution",
    " based on the thinking directly now.",
    "[",
    "]",
    "THINK",
    "◁",
    "/think▷",
]
CODE = ["`<think>`", "\n```\n<think>\n```\n", "\n~~~\n</think>\n~~~\n", "\n```py\n[THINK]\n```\n"]

prose = st.lists(st.sampled_from(FILLERS + list(PLAIN)), max_size=30).map("".join)
with_code = st.lists(st.sampled_from(FILLERS + list(PLAIN) + CODE), max_size=30).map("".join)


def split(data, text):
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=12)))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=with_code, data=st.data())
def test_property_streaming_equals_batch(make_exchange, text, data):
    chunks = split(data, text)
    scanner = StreamScanner()
    steps = []
    for chunk in chunks:
        steps.append(scanner.feed(chunk))
        assert scanner.held_chars <= scanner.hold_back
    steps.append(scanner.close())
    assert emitted(steps) == text
    got = [
        (f.span, f.details["token"], f.details["family"], f.layer)
        for step in steps
        for f in step.findings
    ]
    assert got == batch_tokens(make_exchange, text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=prose, data=st.data(), drop=st.booleans())
def test_property_strip_never_emits_a_delimiter(text, data, drop):
    chunks = split(data, text)
    scanner = StreamScanner(strip=True, drop_reasoning=drop)
    emits = []
    for chunk in chunks:
        emits.append(scanner.feed(chunk).emit)
        assert scanner.held_chars <= scanner.hold_back
    emits.append(scanner.close().emit)
    for emit in emits:
        assert not PLAIN_SCANNER.search(emit)
    assert not PLAIN_SCANNER.search("".join(emits))
