"""runaway_turn: the reply writes past its end into the next turn (a role header at a line
start followed by that role's text). Positives and hard look-alikes, en/ko/zh, written
before the rule."""

from __future__ import annotations

import pytest

DETECTOR = "runaway_turn"

POSITIVES = [
    pytest.param("The capital is Canberra.\n\nHuman: And New Zealand?", "", id="en_human"),
    pytest.param(
        "Canberra is the capital.\n\nHuman: And New Zealand?\n\nAssistant: Wellington.",
        "",
        id="en_human_and_reply",
    ),
    pytest.param("Sure, 2 + 2 = 4.\nUser: what about 3 + 3?", "", id="en_user"),
    pytest.param(
        "It is 42.\n\nUSER: thanks! now tell me a joke\nASSISTANT: Sure", "", id="en_vicuna"
    ),
    pytest.param(
        "Here is the summary you asked for: sales grew 4%.\n\n### Instruction:\n"
        "Write a poem about the sea.\n\n### Response:\nThe waves…",
        "",
        id="en_alpaca_instruction",
    ),
    pytest.param(
        "Paris is the capital of France.\n### Human: Great. What is its population?",
        "",
        id="en_hash_human",
    ),
    pytest.param(
        "Use `pip install requests` to get it.\n\nUser: it says permission denied\n",
        "",
        id="en_user_after_code_span",
    ),
    pytest.param(
        "The function returns None because of the early return.\n\nuser\n"
        "ok can you fix it\nassistant\nSure, here is the fix.",
        "",
        id="en_stripped_chatml",
    ),
    pytest.param(
        "The meeting is at 3 pm.\nuser\n\nthanks, and the room?\nassistant\n\nRoom 4.",
        "",
        id="en_stripped_llama3",
    ),
    pytest.param(
        "Photosynthesis turns light into chemical energy.\nmodel\nuser\nexplain more\nmodel\n"
        "Chlorophyll absorbs…",
        "",
        id="en_stripped_gemma",
    ),
    pytest.param("Yes, that works.\n\nHuman:what else?", "", id="en_human_no_space"),
    pytest.param("서울의 인구는 약 940만 명입니다.\n\n사용자: 부산은요?", "", id="ko_user"),
    pytest.param(
        "네, 회의는 3시입니다.\n사용자: 장소는 어디예요?\n어시스턴트: 4번 회의실입니다.",
        "",
        id="ko_user_and_reply",
    ),
    pytest.param("답은 42입니다.\n\n사용자 : 고마워요. 다른 것도 알려줘", "", id="ko_spaced_colon"),
    pytest.param("환불은 7일 안에 가능합니다.\nHuman: 배송비도 돌려받나요?", "", id="ko_human"),
    pytest.param("北京是中国的首都。\n\n用户：那上海呢？", "", id="zh_user_fullwidth"),
    pytest.param("答案是 42。\n用户: 谢谢，再讲个笑话\n助手: 好的", "", id="zh_user_ascii_colon"),
    pytest.param("会议在下午三点。\n\nUser: 在哪个房间？", "", id="zh_english_header"),
    pytest.param(
        "这个函数返回 None。\n\nuser\n怎么修复？\nassistant\n把 return 移到最后。",
        "",
        id="zh_stripped_chatml",
    ),
    pytest.param(
        "The total is $120.\n\n### User:\nCan you split it three ways?", "", id="en_hash_user"
    ),
    pytest.param(
        "Done: the file is saved.\n\nHuman: great\n\nHuman: now email it", "", id="en_two_headers"
    ),
    pytest.param("총액은 12만 원입니다.\n\nUser: 3명이 나누면?", "", id="ko_english_header"),
    pytest.param("天气晴，25度。\n\n### Instruction:\n再查一下明天的天气", "", id="zh_alpaca"),
    # round 2: role words of every language from roles.py x header decorations
    pytest.param("It is 42.\n\n**User:** and 43?\n**Assistant:** 43.", "", id="en_bold"),
    pytest.param("It is 42.\n\n**Human**: thanks", "", id="en_bold_then_colon"),
    pytest.param("It is 42.\n\nHUMAN:\nthanks!\n\nAI:\nYou're welcome.", "", id="en_next_line"),
    pytest.param("It is 42.\nhuman : and 43?", "", id="en_space_before_colon"),
    pytest.param("It is 42.\n\nGPT4 Correct User: and 43?", "", id="en_openchat"),
    pytest.param("답은 42입니다.\n\n인간 : 고마워요\n\n도우미 : 천만에요", "", id="ko_human"),
    pytest.param("답은 42입니다.\n\n### 사용자:\n다음 문제요", "", id="ko_hash_user"),
    pytest.param("답은 42입니다.\n\n명령어: 다음 문제", "", id="ko_alpaca"),
    pytest.param("答案是42。\n\n人类：\n谢谢\n\n助手：\n不客气", "", id="zh_human"),
    pytest.param("答案是42。\n\n**用户:** 再来一个", "", id="zh_bold"),
    pytest.param("答案是42。\n\n### 指令：再来一个", "", id="zh_alpaca_instruction"),
]

LOOKALIKES = [
    # round 2: a role word that only starts a longer word, or a heading over a list
    pytest.param("Done.\n\nUsername: admin\nPassword: in the vault", "", id="en_username_field"),
    pytest.param("好了。\n\n用户名：admin\n密码：见保险库", "", id="zh_username_field"),
    pytest.param(
        "Steps:\n**User:** opens the app\n**Server:** checks the token", "", id="en_bold_roles"
    ),
    # the user asked for a dialogue, script, interview, transcript or chat example
    pytest.param(
        "Here is a short dialogue:\n\nUser: Hi, I lost my card.\nAgent: I can help with that.",
        "Write a short dialogue between a user and a support agent.",
        id="en_dialogue_asked",
    ),
    pytest.param(
        "Sample transcript:\nHuman: What's the weather?\nAssistant: Sunny.",
        "Give me a sample chat transcript for our docs.",
        id="en_transcript_asked",
    ),
    pytest.param(
        "INTERVIEW\n\nUser: Tell me about yourself.\nCandidate: I am a nurse.",
        "Draft a mock interview script.",
        id="en_interview_asked",
    ),
    pytest.param(
        "Example:\nUser: reset my password\nBot: Sure, check your email.",
        "Show a chat example for a password-reset bot.",
        id="en_chat_example_asked",
    ),
    pytest.param(
        "대화 예시입니다.\n사용자: 환불하고 싶어요\n상담원: 주문 번호를 알려 주세요.",
        "고객 상담 대화 예시를 써 줘.",
        id="ko_dialogue_asked",
    ),
    pytest.param(
        "好的，这是一段对话：\n用户：我想退货\n客服：请提供订单号。",
        "写一段用户和客服的对话。",
        id="zh_dialogue_asked",
    ),
    pytest.param(
        "场景剧本如下\n用户：你好\n助手：你好，请问需要什么？",
        "帮我写一个聊天机器人的剧本",
        id="zh_script_asked",
    ),
    # the prompt itself is in that shape (few-shot)
    pytest.param(
        "Canberra.\nHuman: And New Zealand?",
        "Human: Capital of France?\nAssistant: Paris.\nHuman: Capital of Australia?\nAssistant:",
        id="en_few_shot_prompt",
    ),
    pytest.param(
        "42입니다.\n사용자: 다음 문제",
        "사용자: 1+1?\n어시스턴트: 2\n사용자: 6*7?\n어시스턴트:",
        id="ko_few_shot_prompt",
    ),
    # the headers are inside code
    pytest.param(
        "Format your file like this:\n\n```\nUser: question\nAssistant: answer\n```\n\nThen load it.",
        "",
        id="en_fenced",
    ),
    pytest.param(
        "The template renders:\n```text\n<|im_start|>user\nhi\n<|im_end|>\n```\nThat's all.",
        "",
        id="en_fenced_template",
    ),
    pytest.param(
        "파일 형식은 다음과 같습니다.\n```\n사용자: 질문\n어시스턴트: 답변\n```",
        "",
        id="ko_fenced",
    ),
    pytest.param("数据格式：\n```\n用户：问题\n助手：回答\n```\n每行一条。", "", id="zh_fenced"),
    # prose that has a role word at a line start but is not a turn
    pytest.param(
        "Roles in the system:\nUser: can read and comment.\nAdmin: can delete.",
        "What roles does the app have?",
        id="en_role_glossary",
    ),
    pytest.param(
        "Set these fields:\nuser: the login name\npassword: the secret", "", id="en_yaml_fields"
    ),
    pytest.param(
        "User: the person who buys the product.\nCustomer: the same, in sales.",
        "",
        id="en_opens_with_header",
    ),
    pytest.param("Done.\n\nHuman:", "", id="en_header_without_text"),
    pytest.param(
        "The word user\nmeans the person at the keyboard, and assistant\nmeans the model.",
        "",
        id="en_wrapped_role_words",
    ),
    pytest.param(
        "권한은 다음과 같습니다.\n사용자: 읽기 가능\n관리자: 삭제 가능",
        "권한 종류를 알려줘",
        id="ko_role_glossary",
    ),
    pytest.param(
        "字段说明：\n用户：登录名\n密码：口令", "这个表单有哪些字段？", id="zh_field_list"
    ),
    pytest.param(
        "> User: why is it slow?\n\nIt is slow because of the N+1 query.", "", id="en_blockquote"
    ),
    pytest.param(
        'He wrote "User: hello" in the log, which is the first line.', "", id="en_quoted_inline"
    ),
    pytest.param(
        "Role-play scene:\nHuman: Halt! Who goes there?\nKnight: A friend.",
        "Let's role-play a castle guard scene.",
        id="en_roleplay_asked",
    ),
]


@pytest.mark.parametrize(("text", "prompt"), POSITIVES)
def test_fires(detect, text: str, prompt: str) -> None:
    found = detect(DETECTOR, text, prompt=prompt)
    assert [f.label for f in found] == ["runaway_turn"]
    (finding,) = found
    assert finding.span is not None
    start, end = finding.span
    assert 0 < start < end == len(text)  # from the header to the end: what to cut
    assert finding.details["role"] in ("user", "instruction")


@pytest.mark.parametrize(("text", "prompt"), LOOKALIKES)
def test_look_alikes_stay_clean(detect, text: str, prompt: str) -> None:
    assert detect(DETECTOR, text, prompt=prompt) == []


def test_enough_cases_per_side() -> None:
    assert len(POSITIVES) >= 20 and len(LOOKALIKES) >= 20


def test_with_tokens_it_is_boundary_token_as_well(make_exchange) -> None:
    from leakline.detectors import run_detectors

    text = "Canberra.<|im_end|>\n<|im_start|>user\nAnd New Zealand?<|im_end|>"
    labels = {f.label for f in run_detectors(make_exchange(text, model="qwen3-8b")).findings}
    assert {"runaway_turn", "boundary_token"} <= labels
