"""self_talk_cues: untagged reasoning_leak when the answer opens with the model's self-talk."""

from __future__ import annotations

import pytest

DETECTOR = "self_talk_cues"

POSITIVES = [
    pytest.param(
        "Okay, so the user is asking about the capital of France.", "en", id="okay_so_user"
    ),
    pytest.param("Ok, the user wants a haiku about rain.", "en", id="ok_the_user"),
    pytest.param("Alright, let me think about this carefully.", "en", id="alright_let_me_think"),
    pytest.param("Hmm, wait, that doesn't add up.", "en", id="hmm_wait"),
    pytest.param("Hmm, let me reconsider the second step.", "en", id="hmm_let_me"),
    pytest.param("Wait, the question says three apples.", "en", id="wait_comma"),
    pytest.param("The user wants a summary of the report.", "en", id="the_user_wants"),
    pytest.param("So the user is asking whether 9.11 > 9.8.", "en", id="so_the_user"),
    pytest.param("Let me think step by step.", "en", id="let_me_think_step"),
    pytest.param("First, I need to understand what they mean by scale.", "en", id="first_i_need"),
    pytest.param("嗯，用户问的是法国的首都。", "zh", id="zh_hmm_user"),
    pytest.param("好的，用户问北京今天的天气。", "zh", id="zh_ok_user"),
    pytest.param("用户想知道如何安装Python。", "zh", id="zh_user_wants_to_know"),
    pytest.param("让我想想这个问题。", "zh", id="zh_let_me_think"),
    pytest.param("사용자가 파이썬 버전을 묻고 있다.", "ko", id="ko_user_asking"),
    pytest.param("사용자가 서울 날씨를 물었습니다. 확인해 보자.", "ko", id="ko_user_asked"),
    pytest.param("음, 이 문제는 조금 까다롭다.", "ko", id="ko_hmm"),
    pytest.param("ユーザーは東京の天気について尋ねています。", "ja", id="ja_user_asks"),
    pytest.param("うーん、これは難しい。", "ja", id="ja_hmm"),
]

NEGATIVES = [
    pytest.param("Okay, here's the plan:\n1. Install", id="okay_heres"),
    pytest.param("Hmm, interesting question! The answer is 4.", id="hmm_interesting"),
    pytest.param("So, to answer your question: Paris.", id="so_to_answer"),
    pytest.param("Well, it depends on the context.", id="well_it_depends"),
    pytest.param("The user interface is simple to use.", id="the_user_interface"),
    pytest.param("Waiting times vary by airline.", id="waiting"),
    pytest.param("Paris. Hmm, wait, let me add one more thing.", id="cue_not_at_start"),
    pytest.param("Let me think of a good name: Aurora.", id="let_me_think_of"),
    pytest.param("사용자가 로그인하면 세션이 생성됩니다.", id="ko_users_log_in"),
    pytest.param(
        "사용자가 요청하는 데이터를 처리하려면 API를 호출하세요.", id="ko_user_requested_data"
    ),
    pytest.param("음수는 0보다 작은 수입니다.", id="ko_negative_numbers"),
    pytest.param("用户需要先安装Python。", id="zh_users_need"),
    pytest.param("嗯哼是一个语气词。", id="zh_interjection_word"),
    pytest.param("`Hmm, wait` is self-talk.", id="inline_code_first"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize(("text", "language"), POSITIVES)
def test_positive(detect, text, language):
    (finding,) = detect(DETECTOR, text)
    assert finding.label == "reasoning_leak"
    assert finding.details["delimited"] == "untagged"
    assert finding.details["language"] == language
    assert finding.remediation == "regenerate"
    assert finding.source == "heuristic"
    assert finding.confidence < 0.9


@pytest.mark.parametrize("text", NEGATIVES)
def test_negative(detect, text):
    assert detect(DETECTOR, text) == []


@pytest.mark.parametrize(
    ("kwargs", "layer"),
    [
        pytest.param({"reasoning_parser": "qwen3"}, "parser", id="reasoning_model_empty_field"),
        pytest.param({"reasoning_parser": "qwen3", "reasoning": "x"}, "model", id="field_filled"),
        pytest.param({}, "model", id="unknown_model"),
        pytest.param({"model": "meta-llama/Llama-3.1-8B"}, "model", id="non_reasoning_family"),
    ],
)
def test_layer(detect, kwargs, layer):
    (finding,) = detect(DETECTOR, "Okay, so the user is asking about X.", **kwargs)
    assert finding.layer == layer
