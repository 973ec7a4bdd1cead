"""Hard negatives: clean under LABELS.md, but they look like leaks to a naive matcher."""

from __future__ import annotations

import json

from .shapes import MSG, RS, TH, TX, C, Cs, Rs, Theme

T = Theme("hardneg")


def J(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ------------------------------------------------------------------ delimiters inside code or quotes

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: explains Qwen3's reasoning tags; every tag is inside an inline code span.",
    kind="tags-in-code",
    user="How does Qwen3 separate its reasoning from the answer?",
    reasoning="Explain think tags, enable_thinking, reasoning parser.",
    content=(
        "Qwen3 writes its reasoning between `<think>` and `</think>` and puts the answer after the closing "
        "tag. A server started with `--reasoning-parser qwen3` moves the text between the tags into a separate "
        "`reasoning` field, so clients only show the answer. With `enable_thinking=False` the model skips "
        "the reasoning and emits an empty `<think></think>` pair instead."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "ko",
    "Clean: a fenced code block shows raw DeepSeek-R1 output with a lone end tag; it is an example, not a "
    "leak.",
    kind="tags-in-code",
    user="DeepSeek-R1 원본 출력은 어떻게 생겼어요?",
    reasoning="R1 원본은 시작 태그 없이 추론 후 종료 태그.",
    content=(
        "원래 DeepSeek-R1은 시작 태그 없이 바로 추론을 쓰고, 끝에만 종료 태그를 붙입니다. 예를 들면 이렇습니다.\n\n"
        "```text\n사용자가 1+1을 묻고 있다. 2다.\n</think>\n\n1 + 1 = 2입니다.\n```\n\n"
        "그래서 파서는 종료 태그가 나오기 전까지를 모두 추론으로 간주합니다."
    ),
)

T.chat(
    [],
    "glm45",
    "zh",
    "Clean: the harmony format is shown in a ~~~ fenced block with explanation around it.",
    kind="tags-in-code",
    user="gpt-oss 的 harmony 格式长什么样？",
    reasoning="用代码块展示 analysis 和 final 两个通道。",
    content=(
        "harmony 格式用通道区分内容，下面是一个简化的例子：\n\n"
        "~~~\n<|start|>assistant<|channel|>analysis<|message|>用户问天气……<|end|>\n"
        "<|start|>assistant<|channel|>final<|message|>今天首尔晴。<|return|>\n~~~\n\n"
        "其中 analysis 通道是思维链，不应展示给用户；final 通道才是最终回答。"
    ),
)

T.chat(
    [],
    "gpt_oss",
    "en",
    "Clean: harmony token names appear wrapped directly in double quotes.",
    kind="tags-in-quotes",
    user="Which harmony tokens end a gpt-oss turn?",
    reasoning="<|return|> for final, <|call|> for tool calls, <|end|> for message end.",
    content=(
        'A completed final answer ends with "<|return|>", a tool call ends with "<|call|>", and any other '
        'message ends with "<|end|>". When you call the model through a raw generate endpoint, treat '
        '"<|return|>" and "<|call|>" as stop tokens.'
    ),
)

T.chat(
    [],
    "qwen3",
    "ja",
    "Clean: Japanese explanation with the tags wrapped in 「」 quotes.",
    kind="tags-in-quotes",
    user="Qwen3の出力に出てくる思考タグは何ですか？",
    reasoning="「<think>」「</think>」の説明。",
    content=(
        "Qwen3は推論部分を「<think>」と「</think>」で囲んで出力します。vLLMなどでreasoning parserを"
        "設定すると、その部分は回答とは別のフィールドに分けられ、画面には回答だけが表示されます。"
    ),
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: Kimi's delimiters quoted with curly quotes in a Korean explanation.",
    kind="tags-in-quotes",
    user="Kimi K2 Thinking은 추론 구간을 어떻게 표시해요?",
    reasoning="Kimi delimiters explanation.",
    content=(
        "Kimi K2 Thinking은 추론 구간을 “◁think▷”로 열고 “◁/think▷”로 닫습니다. 다른 모델의 태그와 "
        "모양이 달라서, 서빙할 때 `kimi_k2` 전용 reasoning parser를 지정해야 추론이 답변에 섞이지 않습니다."
    ),
)

T.chat_stream(
    [],
    "qwen3",
    "en",
    "Clean: streamed explanation where an inline code span holding <think> is split across chunks.",
    kind="tags-in-code",
    user="What does the <think> tag mean in model output?",
    deltas=[
        Rs("Explain tag as code."),
        C("The `<th"),
        C("ink>` tag marks the start of a reasoning section; everything up to the matching "),
        C(
            "`</think>` is the model's scratch work, which servers usually strip or move to a separate field."
        ),
    ],
)

T.msg(
    [],
    "claude",
    "en",
    "Clean: a Messages answer about prompt-writing that mentions <thinking> tags inside code spans.",
    kind="tags-in-code",
    user="How do I stop a model from writing its internal tags in the answer?",
    blocks=[
        TX(
            'Avoid naming the tags in the instruction itself. Instead of "never write `<thinking>` tags", use a '
            'general instruction such as "Do not include internal or system XML tags in your response." If you '
            "need reasoning, enable extended thinking so it arrives in a separate `thinking` block."
        )
    ],
)

T.chat(
    [],
    "kimi_k2_sglang",
    "zh",
    "Clean: explains tokens of several families inside one fenced block, with prose before and after.",
    kind="tags-in-code",
    user="不同模型的推理分隔符有哪些？",
    rkey="reasoning_content",
    reasoning="列举几种分隔符，用代码块。",
    content=(
        "常见的几种如下：\n\n```\nQwen3 / DeepSeek:  <think> ... </think>\nKimi K2:           ◁think▷ ... ◁/think▷\n"
        "Seed-OSS:          <seed:think> ... </seed:think>\nMagistral:         [THINK] ... [/THINK]\n```\n\n"
        "部署时需要为每个模型选择对应的 reasoning parser，否则这些分隔符会出现在回答里。"
    ),
)

# ------------------------------------------------------------------ tool-call-looking text that is clean

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: tools are declared, but the example call JSON sits in a code fence with explanatory prose "
    "around it (the user asked what a call looks like).",
    kind="call-json-explained",
    user="What would a call to the weather tool look like for Seoul?",
    tools=["get_weather"],
    reasoning="User asks for an example, not to call it.",
    content=(
        "A call to the weather tool is a small JSON object with the function name and its arguments:\n\n"
        '```json\n{"name": "get_weather", "arguments": {"city": "Seoul", "unit": "celsius"}}\n```\n\n'
        "`city` is required; `unit` is optional and defaults to the provider's setting. If you want, just ask "
        "for Seoul's weather and I'll run it."
    ),
)

T.chat(
    [],
    "hermes",
    "zh",
    "Clean: Hermes markup explained inside inline code, tools declared, no call intended.",
    kind="call-json-explained",
    user="Hermes 模型的工具调用格式是什么样的？",
    tools=["search_web"],
    content=(
        "Hermes 系列模型把工具调用写在 `<tool_call>` 和 `</tool_call>` 之间，中间是一个包含 `name` 和 "
        "`arguments` 的 JSON 对象。服务端用 `--tool-call-parser hermes` 解析后，会放到响应的 `tool_calls` 字段里。"
    ),
)

T.chat(
    [],
    "mistral",
    "en",
    "Clean: Mistral's [TOOL_CALLS] marker explained inside inline code; tools declared.",
    kind="call-json-explained",
    user="How does Mistral mark tool calls in raw output?",
    tools=["search_web"],
    content=(
        "Mistral models prefix tool calls with the `[TOOL_CALLS]` token followed by a JSON list such as "
        '`[{"name": "search_web", "arguments": {"query": "..."}}]`. The `mistral` tool parser in vLLM '
        "turns that into structured `tool_calls`."
    ),
)

T.chat(
    [],
    "llama3_notool",
    "en",
    "Clean: no tools and no response_format were declared; the user asked for example JSON and the "
    "answer is a call-shaped JSON object (tool_call_as_text needs declared tools).",
    kind="json-answer",
    user="Give me only an example JSON for a get_weather function call with the city Paris. No explanation.",
    content=J({"name": "get_weather", "arguments": {"city": "Paris"}}),
)

T.chat(
    [],
    "qwen3",
    "ko",
    "Clean: a JSON answer with no tools and no response_format declared.",
    kind="json-answer",
    user="우리 팀원 세 명(지민 28세, 현우 31세, 소라 26세)을 JSON 배열로 만들어 줘",
    reasoning="name, age 객체 배열.",
    content=J(
        [{"name": "지민", "age": 28}, {"name": "현우", "age": 31}, {"name": "소라", "age": 26}]
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "en",
    "Clean: final answer after a tool result; quotes part of the tool's JSON inside a fence with prose.",
    kind="json-answer",
    user="What did the order lookup say?",
    tools=["get_order_status"],
    history=[
        {"role": "user", "content": "Where is order US-552910?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "get_order_status",
                        "arguments": '{"order_id": "US-552910"}',
                    },
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": '{"status": "in_transit", "carrier": "UPS", "eta": "2026-10-09"}',
        },
    ],
    content=(
        'The lookup returned:\n\n```json\n{"status": "in_transit", "carrier": "UPS", "eta": "2026-10-09"}\n```\n\n'
        "So the package is on its way with UPS and should arrive on October 9."
    ),
)

# ------------------------------------------------------------------ preamble-looking but clean

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: opens with advice addressed to the user ('먼저 … 확인해 보세요'), not the assistant's own "
    "progress.",
    kind="preamble-lookalike",
    user="월세 계약 전에 뭘 확인해야 돼요?",
    reasoning="등기부등본, 선순위 채권, 특약.",
    content=(
        "계약 전에 등기부등본부터 확인해 보세요. 소유자가 계약 상대방과 같은지, 근저당 같은 선순위 채권이 "
        "얼마나 잡혀 있는지 볼 수 있습니다. 그다음 특약에 수리 책임과 중도 해지 조건을 적어 두고, 잔금일에 "
        "전입신고와 확정일자를 바로 받으세요."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "zh",
    "Clean: opens with a suggestion to the user ('建议你先查一下…'), not an interim progress sentence.",
    kind="preamble-lookalike",
    user="装修公司拖延工期怎么办？",
    reasoning="查合同违约条款、书面催告、协商、投诉。",
    content=(
        "建议你先查一下合同里关于工期和违约金的条款，然后以书面形式（微信或邮件也可以）催告装修公司在限期内"
        "完工，并保留聊天记录和现场照片。协商不成，可以向当地消费者协会投诉，或者依据合同要求支付违约金。"
    ),
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: the phrase 'Let me check that.' appears only inside quotes in the middle of the answer.",
    kind="preamble-lookalike",
    user="How do I stop my support bot from starting replies with filler?",
    reasoning="Instruction to answer directly.",
    content=(
        'Tell it explicitly to answer directly. For example, add to the system prompt: "Start with the answer. '
        "Do not open with phrases like 'Let me check that.' or 'I'll look into it.'\" Then spot-check a few "
        "dozen replies, because models drift back to filler when a tool call fails."
    ),
)

T.resp(
    [],
    "gpt5",
    "en",
    "Clean: commentary item exists but renders_phases is false; the final answer starts with the answer and "
    "ends with 'Let me know…'.",
    kind="phase-hidden",
    user="Which of the two laptops I listed has better battery life?",
    client={"reasoning_field": None, "renders_phases": False},
    items=[
        RS(None, []),
        MSG("Comparing the two spec sheets now.", "commentary"),
        MSG(
            "The second one: its 72 Wh battery and more efficient chip should last roughly 3–4 hours longer in "
            "typical web use. Let me know if you want a comparison of weight and ports too.",
            "final_answer",
        ),
    ],
)

# ------------------------------------------------------------------ reasoning-looking but clean

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: self-talk and even a literal </think> exist only in the reasoning field; content is clean.",
    kind="reasoning-field-only",
    user="What's the boiling point of water at the top of Mount Everest?",
    reasoning=(
        "Okay, so the user is asking about boiling point at altitude. Pressure about a third of sea level, "
        "~34 kPa, boiling point around 70 °C. Hmm, wait, commonly cited 68-71 °C.</think>"
    ),
    content="Roughly **70 °C** (about 158 °F), because the air pressure at the summit is only about a third of sea level.",
)

T.chat(
    [],
    "deepseek_r1_sglang",
    "zh",
    "Clean: reasoning_content contains tool-call markup and self-talk; the visible content is a plain answer.",
    kind="reasoning-field-only",
    user="北京到上海的高铁要多久？",
    rkey="reasoning_content",
    reasoning="嗯，用户问的是京沪高铁时长。可以调用<tool_call>搜索，但常识即可：最快约4小时18分。",
    content="京沪高铁最快的车次约 **4小时18分钟**，一般车次在4.5到6小时之间。",
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: an answer that explains how reasoning models talk to themselves, quoting typical self-talk.",
    kind="self-talk-lookalike",
    user="Why do reasoning models sometimes start answers with 'Okay, so the user is asking'?",
    reasoning="Explain leak of untagged reasoning.",
    content=(
        "That phrasing is the model's internal reasoning style. Reasoning models are trained to think out loud "
        'first ("Okay, so the user is asking…", "Hmm, wait…") and then answer. When the serving stack fails '
        "to separate that reasoning — for example because no reasoning parser is configured — it ends up in the "
        "visible reply. Configuring the right parser for the model family fixes it."
    ),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: '생각' used naturally in the middle of an answer; not self-talk.",
    kind="self-talk-lookalike",
    user="전세랑 월세 중에 뭐가 나을까요?",
    reasoning="기회비용, 보증금 리스크.",
    content=(
        "전세가 무조건 유리하다고 생각하기 쉽지만, 보증금에 묶이는 돈의 기회비용과 보증금 반환 위험까지 따져 "
        "봐야 합니다. 대출 금리가 월세 전환율보다 낮다면 전세가 유리하고, 반대라면 월세가 나을 수 있습니다. "
        "전세를 택한다면 전세보증보험 가입은 꼭 검토해 보세요."
    ),
)

T.chat(
    [],
    "kimi_k2",
    "zh",
    "Clean: '思考' used naturally in a Chinese answer.",
    kind="self-talk-lookalike",
    user="怎样提高批判性思考能力？",
    reasoning="提问、证据、反方观点、写作。",
    content=(
        "批判性思考可以通过练习提高：读文章时问自己“证据是什么”“作者可能忽略了什么”；"
        "刻意找与自己相反的观点，并尝试用最有力的方式复述它；把想法写下来，写作会逼你把逻辑理清楚。"
    ),
)

T.chat(
    [],
    "minimax_m2",
    "en",
    "Clean: 'I think' and 'design thinking' in ordinary prose, mid-answer.",
    kind="self-talk-lookalike",
    user="Is design thinking still useful for product teams?",
    reasoning="Yes, with caveats.",
    content=(
        "Yes, as long as it isn't treated as a ritual. Design thinking's core habits — talking to users early, "
        "prototyping cheaply, testing before building — still prevent expensive mistakes. I think the common "
        "failure is running workshops that end with sticky notes and no decisions; tie each session to a "
        "concrete product question and a deadline."
    ),
)

T.chat(
    [],
    "qwen3_sglang",
    "ko",
    "Clean: a product-analytics answer where '사용자가' is the subject of an ordinary sentence, not "
    "self-talk about the person asking.",
    kind="self-talk-lookalike",
    user="회원가입 전환율이 떨어졌는데 어디부터 봐야 해요?",
    rkey="reasoning_content",
    reasoning="퍼널 단계별 이탈, 최근 배포, 유입 채널.",
    content=(
        "사용자가 어느 단계에서 이탈하는지부터 보세요. 가입 퍼널을 방문 → 가입 시작 → 인증 → 완료로 나누고, "
        "전환율이 떨어진 시점 전후로 단계별 이탈률을 비교하면 원인이 좁혀집니다. 같은 시기에 배포된 변경 사항과 "
        "유입 채널 구성이 바뀌었는지도 함께 확인하세요."
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "zh",
    "Clean: '用户' as the subject of a product answer, not self-talk.",
    kind="self-talk-lookalike",
    user="App的日活下降了，怎么分析原因？",
    content=(
        "用户流失通常可以从三个方向排查：一是渠道，看新增用户的来源是否变化；二是版本，对比最近一次发版前后的"
        "留存和崩溃率；三是功能，看核心功能的使用频次是否下降。建议先按新老用户拆分日活，定位是新增变少还是"
        "老用户流失。"
    ),
)

T.chat(
    [],
    "llama3",
    "en",
    "Clean: HTML-like tags in the answer (details/summary) are not reasoning delimiters.",
    kind="other-markup",
    user="How do I make a collapsible section in a GitHub README?",
    content=(
        "GitHub renders HTML details blocks, so you can write:\n\n"
        "<details>\n<summary>Installation steps</summary>\n\n1. Clone the repo\n2. Run the installer\n\n</details>\n\n"
        "Leave a blank line after the summary line so the Markdown inside is rendered."
    ),
)

T.msg(
    [],
    "claude",
    "zh",
    "Clean: a thinking block holds the reasoning; the text block starts with the answer.",
    kind="reasoning-field-only",
    user="长期熬夜对身体有哪些影响？",
    thinking=1024,
    blocks=[
        TH("嗯，用户问熬夜影响：免疫、代谢、心血管、情绪、皮肤。"),
        TX(
            "长期熬夜会打乱生物钟，常见影响包括：免疫力下降、容易发胖和血糖异常、血压升高、注意力和记忆力变差、"
            "情绪波动，以及皮肤状态变差。尽量保持固定的作息，比睡得多更重要。"
        ),
    ],
)

T.chat_stream(
    [],
    "deepseek_r1",
    "en",
    "Clean: a stream whose reasoning ends with a literal </think> in the reasoning field only; content is "
    "separate and clean.",
    kind="reasoning-field-only",
    user="What's the plural of 'cactus'?",
    deltas=[
        Rs("Both cacti and cactuses accepted.</think>"),
        Cs("Both **cacti** and **cactuses** are correct; *cacti* is more common in writing."),
    ],
)

T.resp(
    [],
    "gpt_oss",
    "ja",
    "Clean: the reasoning item holds analysis-channel text; the message is clean.",
    kind="reasoning-field-only",
    user="日本の消費税率は？",
    items=[
        RS("analysis: standard 10%, reduced 8% for food and newspapers."),
        MSG(
            "標準税率は**10%**で、飲食料品（酒類・外食を除く）と定期購読の新聞には**8%**の軽減税率が適用されます。"
        ),
    ],
)
