"""Structured output on chat.completions (response_format json_schema / json_object)."""

from __future__ import annotations

import json

from .shapes import RF_JSON_OBJECT, C, Cs, Rs, Theme, rf_schema

T = Theme("structured")
SI, TR, FIR = "structured_invalid", "truncated", "final_in_reasoning"
B, L = "boundary_token", "reasoning_leak"


def J(obj: object, indent: int | None = None) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=indent)


INVOICE_TEXT = (
    "Extract the invoice fields: 'Northwind Office Supply — Invoice NW-88213. Amount due: 1,284.50 USD. "
    "Payment due by 31 October 2026.'"
)
INVOICE = {
    "vendor": "Northwind Office Supply",
    "invoice_number": "NW-88213",
    "total": 1284.5,
    "currency": "USD",
    "due_date": "2026-10-31",
}

# ------------------------------------------------------------------ structured_invalid

T.chat(
    [SI],
    "qwen3",
    "en",
    "JSON schema requested; the content wraps the (otherwise valid) JSON in a ```json fence.",
    user=INVOICE_TEXT,
    rf=rf_schema("invoice"),
    reasoning="Parse vendor, number, total 1284.50, USD, due 2026-10-31.",
    content="```json\n" + J(INVOICE, 2) + "\n```",
)

T.chat(
    [SI],
    "qwen3_30b",
    "ko",
    "Korean prose before the JSON ('요청하신 JSON입니다:').",
    user="다음 주소를 구조화해 줘: 서울특별시 마포구 월드컵북로 396, 03925",
    rf=rf_schema("address"),
    reasoning="country 대한민국, region 서울특별시, city 마포구, street 월드컵북로 396, postal 03925.",
    content="요청하신 JSON입니다:\n"
    + J(
        {
            "country": "대한민국",
            "region": "서울특별시",
            "city": "마포구",
            "street": "월드컵북로 396",
            "postal_code": "03925",
        }
    ),
)

T.chat(
    [SI],
    "deepseek_r1",
    "zh",
    "Valid JSON followed by an explanatory sentence in Chinese.",
    user="判断这条评论的情感倾向：“物流很快，但是包装有破损，客服态度还可以。”",
    rf=rf_schema("sentiment"),
    reasoning="有正有负，整体偏中性。",
    content=J({"label": "neutral", "confidence": 0.7})
    + "\n\n说明：评论中既有正面评价（物流快）也有负面评价（包装破损），整体偏中性。",
)

T.chat(
    [SI],
    "glm45",
    "en",
    "Required field due_date is missing.",
    user="Pull the invoice details from: 'Acme Cloud Ltd, invoice AC-2026-0419, total EUR 349.00.'",
    rf=rf_schema("invoice"),
    reasoning="No due date given in text.",
    content=J(
        {
            "vendor": "Acme Cloud Ltd",
            "invoice_number": "AC-2026-0419",
            "total": 349.0,
            "currency": "EUR",
        }
    ),
)

T.chat(
    [SI],
    "gpt_oss",
    "en",
    'servings is the string "4" where the schema requires an integer.',
    user="Give me a simple shakshuka recipe as JSON.",
    rf=rf_schema("recipe"),
    reasoning="Recipe for 4.",
    content=J(
        {
            "title": "Simple shakshuka",
            "servings": "4",
            "ingredients": [
                "2 tbsp olive oil",
                "1 onion",
                "1 red pepper",
                "3 garlic cloves",
                "1 tsp cumin",
                "1 tsp paprika",
                "800 g canned tomatoes",
                "6 eggs",
                "feta and parsley to serve",
            ],
            "steps": [
                "Soften onion and pepper in oil for 8 minutes.",
                "Add garlic and spices for 1 minute.",
                "Add tomatoes and simmer 10 minutes until thick.",
                "Make wells, crack in the eggs, cover and cook 6-8 minutes.",
                "Top with feta and parsley.",
            ],
        }
    ),
)

T.chat(
    [SI],
    "kimi_k2",
    "zh",
    "label 'mixed' is not in the schema's enum.",
    user="这句话的情感是什么：“价格贵了点，不过质量确实好。”",
    rf=rf_schema("sentiment"),
    reasoning="褒贬都有。",
    content=J({"label": "mixed", "confidence": 0.8}),
)

T.chat(
    [TR, SI],
    "qwen3_thinking",
    "en",
    "max_tokens ran out during reasoning: content is null, finish_reason is length. The grammar never "
    "applied, so the structured answer is empty (truncated and structured_invalid).",
    user="Summarize this meeting into decisions and action items: 'We agreed to ship v2.3 on Nov 4. Dana will "
    "update the release notes, Ravi will run the load test, and we'll drop IE11 support.'",
    rf=rf_schema("meeting"),
    max_tokens=256,
    reasoning=(
        "Decisions: ship v2.3 on Nov 4; drop IE11 support. Action items: Dana — release notes; Ravi — load "
        "test. Wait, is 'drop IE11 support' a decision or an action? It's phrased as a decision ('we'll drop'). "
        "Should there be an owner for dropping IE11? Not specified. Maybe I should add an action item with "
        "owner 'team'... but the schema requires owner strings, and inventing an owner might be wrong. Let me "
        "reconsider whether the release date counts as"
    ),
    content=None,
    finish="length",
)

T.chat(
    [B, L, SI],
    "qwen3_noparser",
    "ko",
    "No reasoning parser, so the engine never saw the end of reasoning and the think block precedes the JSON "
    "in content.",
    user="증상을 분류해 줘: 어젯밤부터 38.9도 고열과 심한 두통, 목이 뻣뻣함",
    rf=rf_schema("triage"),
    content=(
        "<think>\n고열, 심한 두통, 경부 강직은 수막염 의심 소견. 응급.\n</think>\n\n"
        + J(
            {
                "urgency": "emergency",
                "department": "응급의학과",
                "reason": "고열·두통·경부 강직으로 수막염 의심",
            }
        )
    ),
)

T.chat(
    [SI],
    "llama3",
    "en",
    "json_object mode requested, but the model answered in prose.",
    user="Return a JSON object with the keys city and country for the Eiffel Tower's location.",
    rf=RF_JSON_OBJECT,
    content="The Eiffel Tower is in Paris, France.",
)

T.chat_stream(
    [SI],
    "deepseek_v3",
    "en",
    "Streamed JSON followed by a closing courtesy sentence; the visible text is no longer a single JSON value.",
    user="Classify this support ticket: 'I was charged twice for my October subscription.'",
    rf=rf_schema("ticket"),
    deltas=[
        C('{"category": "billing", '),
        C('"priority": 2, '),
        C('"title": "Duplicate charge for October subscription"}'),
        Cs("\n\nLet me know if you need the ticket in another format."),
    ],
)

T.chat(
    [SI],
    "minimax_m2",
    "zh",
    "Extra top-level key 'summary' violates additionalProperties: false.",
    user="把会议要点整理成JSON：决定下周一上线新版首页；小王负责埋点，小李负责回归测试。",
    rf=rf_schema("meeting"),
    reasoning="决策一条，行动项两条。",
    content=J(
        {
            "decisions": ["下周一上线新版首页"],
            "action_items": [
                {"owner": "小王", "task": "负责埋点"},
                {"owner": "小李", "task": "负责回归测试"},
            ],
            "summary": "新版首页下周一上线",
        }
    ),
)

T.chat(
    [SI],
    "gemma4_old",
    "en",
    "Gemma 4 with enable_thinking=false on an engine version where that disabled structured output: the "
    "schema was ignored and a prose answer came back.",
    user="Classify the urgency: 'Mild sore throat for two days, no fever.'",
    rf=rf_schema("triage"),
    tkw={"enable_thinking": False},
    content=(
        "This sounds routine. A mild sore throat for two days without fever is usually viral; rest, fluids and "
        "lozenges help. See a GP if it lasts more than a week or you develop a high fever."
    ),
)

T.chat(
    [FIR, SI],
    "qwen3_sglang",
    "zh",
    "Grammar enforced inside reasoning (enable_in_reasoning): the schema-valid JSON landed in "
    "reasoning_content and content is empty with finish stop.",
    user="请给出这个地址的结构化结果：广东省深圳市南山区科技园南区高新南七道 518057",
    rf=rf_schema("address"),
    rkey="reasoning_content",
    extra={"structured_outputs": {"enable_in_reasoning": True}},
    reasoning=J(
        {
            "country": "中国",
            "region": "广东省",
            "city": "深圳市",
            "street": "南山区高新南七道",
            "postal_code": "518057",
        }
    ),
    content=None,
)

T.chat(
    [SI],
    "qwen3",
    "ko",
    "Two JSON objects back to back: not exactly one JSON value.",
    user="이 문장의 감정을 분류해 줘: '배송은 느렸지만 제품은 정말 마음에 들어요.'",
    rf=rf_schema("sentiment"),
    reasoning="긍정 우세.",
    content=J({"label": "positive", "confidence": 0.66})
    + "\n"
    + J({"label": "negative", "confidence": 0.34}),
)

T.chat_stream(
    [SI],
    "qwen3_30b",
    "en",
    "MTP speculative decoding made the engine miss the end of reasoning, so the grammar never applied and "
    "the streamed JSON comes inside a code fence.",
    user="Turn this into JSON: 'Unsubscribe link broken in the mobile app' (bug, priority 3).",
    rf=rf_schema("ticket"),
    extra={"speculative_config": {"method": "mtp", "num_speculative_tokens": 2}},
    deltas=[
        Rs("Category bug, priority 3, title short."),
        C("```json\n"),
        C('{"category": "bug", "priority": 3, '),
        C('"title": "Unsubscribe link broken in mobile app"}'),
        C("\n```"),
    ],
)

T.chat(
    [FIR, SI],
    "deepseek_r1",
    "en",
    "A stop string matched inside the reasoning, so the request ended with content null and finish stop "
    "while only partial reasoning exists: the answer never reached content.",
    user="Solve: a train travels 180 km in 2.5 hours. Average speed in km/h? Return JSON.",
    rf=rf_schema("math_answer"),
    stop=["\n\n"],
    reasoning="Speed = distance / time = 180 / 2.5 = 72 km/h.",
    content=None,
)

T.chat(
    [SI],
    "qwen3",
    "ja",
    "risk 'critical' is outside the enum low/medium/high.",
    user="この条項を分類して：「受託者は、本契約に関連して生じた一切の損害について責任を負わない。」",
    rf=rf_schema("clause"),
    reasoning="責任制限条項、全面免責なのでリスク高。",
    content=J(
        {
            "clause_type": "liability",
            "risk": "critical",
            "summary": "受託者の責任を全面的に免除する条項",
        }
    ),
)

T.chat(
    [SI],
    "glm45",
    "en",
    "title is longer than the schema's maxLength of 80 characters.",
    user="File a ticket: users on Android 15 can't log in with SSO after the last update; priority 1.",
    rf=rf_schema("ticket"),
    reasoning="bug, p1.",
    content=J(
        {
            "category": "bug",
            "priority": 1,
            "title": "Users on Android 15 are unable to log in with single sign-on (SSO) after the most recent app update",
        }
    ),
)

# ------------------------------------------------------------------ clean structured outputs

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: exactly one schema-valid JSON value; reasoning is in the reasoning field.",
    user=INVOICE_TEXT,
    rf=rf_schema("invoice"),
    reasoning="Straightforward extraction.",
    content=J(INVOICE),
)

T.chat(
    [],
    "deepseek_v3",
    "ko",
    "Clean: Korean address extraction, schema-valid.",
    user="주소를 JSON으로 바꿔 줘: 부산광역시 해운대구 센텀중앙로 79, 48058",
    rf=rf_schema("address"),
    content=J(
        {
            "country": "대한민국",
            "region": "부산광역시",
            "city": "해운대구",
            "street": "센텀중앙로 79",
            "postal_code": "48058",
        }
    ),
)

T.chat(
    [],
    "glm45",
    "zh",
    "Clean: triage JSON in Chinese, schema-valid, pretty-printed.",
    user="分诊：60岁男性，胸口压榨样疼痛30分钟，伴出冷汗。",
    rf=rf_schema("triage"),
    reasoning="疑似急性冠脉综合征，急诊。",
    content=J(
        {
            "urgency": "emergency",
            "department": "急诊科（胸痛中心）",
            "reason": "持续胸痛伴出汗，需排除急性心肌梗死",
        },
        2,
    ),
)

T.chat(
    [],
    "llama3",
    "en",
    "Clean: json_object mode, a single JSON object.",
    user="Give me a JSON object with the keys city and country for the Colosseum's location.",
    rf=RF_JSON_OBJECT,
    content=J({"city": "Rome", "country": "Italy"}),
)

T.chat_stream(
    [],
    "qwen3",
    "ko",
    "Clean: schema-valid meeting JSON streamed in pieces after reasoning chunks.",
    user="회의 내용 정리: 11월 2일 워크숍 확정. 지수 님이 장소 예약, 민호 님이 안건 초안 작성.",
    rf=rf_schema("meeting"),
    deltas=[
        Rs("결정: 워크숍 11월 2일. 할 일 두 개."),
        C('{"decisions": ["11월 2일 워크숍 개최 확정"], '),
        C('"action_items": [{"owner": "지수", "task": "장소 예약"}, '),
        C('{"owner": "민호", "task": "안건 초안 작성"}]}'),
    ],
)

T.chat(
    [],
    "qwen3",
    "zh",
    "Clean: response_format and tools both declared; the model made a valid structured tool call instead of "
    "answering, which LABELS excludes from structured_invalid.",
    user="查一下东京现在的天气，然后用JSON告诉我要不要带伞。",
    rf=RF_JSON_OBJECT,
    tools=["get_weather"],
    reasoning="先调用天气工具。",
    content=None,
    tool_calls=[("get_weather", {"city": "东京"})],
    finish="tool_calls",
)

T.chat(
    [],
    "gpt_oss",
    "ja",
    "Clean: translation JSON, schema-valid.",
    user="「締め切りを一日延ばしていただけますか」を英語にしてJSONで返して。",
    rf=rf_schema("translation"),
    reasoning="Polite request: Could you extend the deadline by one day?",
    content=J(
        {
            "source_lang": "ja",
            "target_lang": "en",
            "text": "Could you possibly extend the deadline by one day?",
        }
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "en",
    "Clean: reasoning separated; content is the JSON answer only.",
    user="What is the area of a circle with radius 3 cm? Return JSON with answer and unit.",
    rf=rf_schema("math_answer"),
    reasoning="π r² = 9π ≈ 28.274.",
    content=J({"answer": 28.27, "unit": "cm^2"}),
)

T.chat(
    [],
    "glm45_sglang",
    "zh",
    "Clean: itinerary JSON, schema-valid.",
    user="给我一个成都两日游的行程，用JSON。",
    rf=rf_schema("itinerary"),
    rkey="reasoning_content",
    reasoning="第一天市区，第二天熊猫基地和宽窄巷子。",
    content=J(
        {
            "city": "成都",
            "days": [
                {
                    "day": 1,
                    "plan": ["上午：人民公园喝茶", "下午：武侯祠、锦里", "晚上：九眼桥夜景和火锅"],
                },
                {
                    "day": 2,
                    "plan": ["清晨：大熊猫繁育研究基地", "下午：宽窄巷子", "晚上：看川剧变脸"],
                },
            ],
        }
    ),
)

T.chat(
    [],
    "qwen3_30b",
    "en",
    "Clean: the label is debatable but the output is schema-valid; structured_invalid is about format only.",
    user="Sentiment of: 'Absolutely love it, best purchase this year!'",
    rf=rf_schema("sentiment"),
    reasoning="Very positive wording, superlatives.",
    content=J({"label": "neutral", "confidence": 0.5}),
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: non-strict json_schema, output still valid.",
    user="이 조항 분류해 줘: '본 계약은 일방 당사자가 30일 전에 서면으로 통지하여 해지할 수 있다.'",
    rf=rf_schema("clause", strict=False),
    reasoning="해지 조항, 위험 낮음.",
    content=J(
        {
            "clause_type": "termination",
            "risk": "low",
            "summary": "30일 전 서면 통지로 어느 당사자든 해지 가능",
        }
    ),
)
