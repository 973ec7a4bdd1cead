"""Responses API: phases (commentary vs final), and the other labels on Responses shapes."""

from __future__ import annotations

import json

from .shapes import FC, MSG, RS, TF_JSON_OBJECT, Theme, tf_schema

T = Theme("responses")
CR, P = "commentary_rendered", "preamble"
B, L, TXT, BAD = "boundary_token", "reasoning_leak", "tool_call_as_text", "tool_args_invalid"
SI, TR, FIR = "structured_invalid", "truncated", "final_in_reasoning"

RENDERS = {"reasoning_field": None, "renders_phases": True}
HIDES = {"reasoning_field": None, "renders_phases": False}
UNKNOWN = {"reasoning_field": None, "renders_phases": None}


def J(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


ENC = RS(None, [])  # an OpenAI reasoning item with no visible summary

# ------------------------------------------------------------------ commentary_rendered

T.resp(
    [CR],
    "gpt5",
    "en",
    "Commentary-phase preamble next to a function call, and the client renders phases, so the commentary is "
    "shown as if it were the answer. No preamble label: the response has a structured call.",
    user="How much is 2,500 Swiss francs in euros today?",
    tools=["convert_currency"],
    client=RENDERS,
    items=[
        ENC,
        MSG("I'll look up today's CHF→EUR rate before converting.", "commentary"),
        FC("convert_currency", {"amount": 2500, "from_currency": "CHF", "to_currency": "EUR"}),
    ],
)

T.resp(
    [CR],
    "gpt5",
    "ko",
    "Korean commentary + function_call; client renders phases.",
    user="도쿄 하네다에서 인천 가는 11월 3일 비행기 찾아줘",
    tools=["search_flights"],
    client=RENDERS,
    items=[
        ENC,
        MSG("11월 3일 하네다→인천 항공편을 조회할게요.", "commentary"),
        FC("search_flights", {"origin": "HND", "destination": "ICN", "date": "2026-11-03"}),
    ],
)

T.resp(
    [CR],
    "gpt5_mini",
    "zh",
    "Chinese commentary + function_call; client renders phases.",
    user="帮我搜一下最近关于锂电池回收政策的新闻。",
    tools=["search_web"],
    client=RENDERS,
    items=[
        ENC,
        MSG("我先搜索一下最近的相关新闻。", "commentary"),
        FC("search_web", {"query": "锂电池回收 政策 新闻", "recency_days": 30}),
    ],
)

T.resp(
    [CR, P],
    "gpt5",
    "en",
    "Commentary then final_answer in one response, no function call; the client renders the commentary, so "
    "the visible text opens with a progress sentence (preamble as well).",
    user="Compare the gross margins in Q2 and Q3 from the figures I pasted above.",
    client=RENDERS,
    items=[
        ENC,
        MSG("Pulling the two quarters' figures together now.", "commentary"),
        MSG(
            "Gross margin rose from **41.2%** in Q2 to **43.8%** in Q3. Revenue grew 6%, while cost of goods "
            "sold grew only 1.5%, mostly thanks to the lower freight costs you mentioned.",
            "final_answer",
        ),
    ],
)

T.resp(
    [CR, P],
    "gpt5_mini",
    "ko",
    "Korean commentary + final_answer rendered together.",
    user="내가 붙여 넣은 계약서에서 해지 조항만 요약해 줘",
    client=RENDERS,
    items=[
        ENC,
        MSG("계약서에서 해지 관련 조항을 찾아보겠습니다.", "commentary"),
        MSG(
            "해지 조항 요약:\n\n- 어느 당사자든 **30일 전 서면 통지**로 해지할 수 있습니다.\n"
            "- 상대방이 중대한 의무를 위반하고 14일 내에 시정하지 않으면 즉시 해지할 수 있습니다.\n"
            "- 해지 시 미지급 대금은 해지일 기준으로 정산합니다.",
            "final_answer",
        ),
    ],
)

T.resp(
    [CR, P],
    "gpt5",
    "zh",
    "Chinese commentary + final_answer; commentary shown by the client.",
    user="根据我上面给的数据，算一下今年的客户留存率。",
    client=RENDERS,
    items=[
        ENC,
        MSG("我来整理一下年初和年末的客户数。", "commentary"),
        MSG(
            "按你提供的数据：年初客户 1,200 个，年末 1,310 个，其中新增 260 个。\n\n"
            "留存率 = (1,310 − 260) ÷ 1,200 ≈ **87.5%**。",
            "final_answer",
        ),
    ],
)

T.resp_stream(
    [CR],
    "gpt5",
    "en",
    "Streamed: commentary item then a function call; client renders phases.",
    user="What's the status of order US-118204?",
    tools=["get_order_status"],
    client=RENDERS,
    items=[
        ENC,
        MSG("Checking the carrier's tracking for that order.", "commentary"),
        FC("get_order_status", {"order_id": "US-118204"}),
    ],
)

T.resp_stream(
    [CR, P],
    "gpt5",
    "ja",
    "Streamed Japanese commentary + final_answer, rendered.",
    user="さっき貼った議事録から、決定事項だけ抜き出して。",
    client=RENDERS,
    items=[
        ENC,
        MSG("議事録から決定事項を確認しています。", "commentary"),
        MSG(
            "決定事項は次の2点です。\n\n1. 新料金プランは12月1日から適用する。\n2. 旧プランの新規受付は11月末で終了する。",
            "final_answer",
        ),
    ],
)

T.resp(
    [CR, SI],
    "gpt5",
    "en",
    "text.format json_schema: the commentary item also carried schema-shaped JSON and the client renders "
    "phases, so the visible text is two JSON values (structured_invalid too). Not a preamble: the visible "
    "text opens with JSON, not a progress sentence.",
    user="Classify: 'App crashes when I rotate the screen on the settings page.'",
    text=tf_schema("ticket"),
    client=RENDERS,
    items=[
        ENC,
        MSG(J({"category": "bug", "priority": 3, "title": "Crash on rotation"}), "commentary"),
        MSG(
            J(
                {
                    "category": "bug",
                    "priority": 2,
                    "title": "Settings page crashes on screen rotation",
                }
            ),
            "final_answer",
        ),
    ],
)

T.resp(
    [CR],
    "gpt5",
    "ko",
    "Commentary with substantive interim findings before a second function call; rendered.",
    user="이번 주말 제주 날씨 보고 우비 필요한지 알려줘",
    tools=["get_weather", "search_web"],
    client=RENDERS,
    items=[
        ENC,
        MSG("현재 제주 날씨는 흐림이에요. 주말 예보를 추가로 확인할게요.", "commentary"),
        FC("search_web", {"query": "제주 주말 날씨 예보", "max_results": 3}),
    ],
)

T.resp(
    [CR],
    "gpt5_mini",
    "en",
    "Two commentary items and two calls in one response; rendered.",
    user="Get me the weather in Lyon and the price of a Lyon–Paris train next Friday.",
    tools=["get_weather", "search_web"],
    client=RENDERS,
    items=[
        ENC,
        MSG("Looking up Lyon's weather first.", "commentary"),
        FC("get_weather", {"city": "Lyon"}),
        MSG("Now searching train fares to Paris.", "commentary"),
        FC("search_web", {"query": "Lyon Paris TGV fare next Friday", "max_results": 5}),
    ],
)

T.resp_stream(
    [CR],
    "gpt5",
    "zh",
    "Streamed Chinese commentary + function call, rendered.",
    user="查一下《劳动合同法》第四十七条。",
    tools=["lookup_statute"],
    client=RENDERS,
    items=[
        ENC,
        MSG("我先调取一下法条原文。", "commentary"),
        FC("lookup_statute", {"jurisdiction": "CN", "law": "劳动合同法", "article": "47"}),
    ],
)

T.resp(
    [CR],
    "gpt5",
    "en",
    "Commentary describing interim results (not a 'let me' sentence) before a call; rendered.",
    user="Find me the cheapest flight from SFO to SEA on 2026-12-18.",
    tools=["search_flights"],
    client=RENDERS,
    items=[
        ENC,
        MSG(
            "Found nonstop options on three carriers; checking economy fares for the 18th.",
            "commentary",
        ),
        FC(
            "search_flights",
            {"origin": "SFO", "destination": "SEA", "date": "2026-12-18", "cabin": "economy"},
        ),
    ],
)

# ------------------------------------------------------------------ commentary not rendered (clean)

T.resp(
    [],
    "gpt5",
    "en",
    "Clean: same shape as a rendered commentary case, but the client filters commentary out.",
    kind="phase-hidden",
    user="How much is 800 Canadian dollars in US dollars?",
    tools=["convert_currency"],
    client=HIDES,
    items=[
        ENC,
        MSG("I'll check the current CAD→USD rate.", "commentary"),
        FC("convert_currency", {"amount": 800, "from_currency": "CAD", "to_currency": "USD"}),
    ],
)

T.resp(
    [],
    "gpt5",
    "ko",
    "Clean: renders_phases unknown (null): LABELS does not fire commentary_rendered.",
    kind="phase-hidden",
    user="서울 지금 미세먼지 심해?",
    tools=["search_web"],
    client=UNKNOWN,
    items=[
        ENC,
        MSG("서울 대기질 정보를 확인해 볼게요.", "commentary"),
        FC("search_web", {"query": "서울 실시간 미세먼지", "max_results": 3}),
    ],
)

T.resp(
    [],
    "gpt5_mini",
    "zh",
    "Clean: no client field at all (unknown renderer); commentary not counted.",
    kind="phase-hidden",
    user="查一下苹果公司的股价。",
    tools=["get_stock_quote"],
    client=False,
    items=[
        ENC,
        MSG("我来查询一下最新股价。", "commentary"),
        FC("get_stock_quote", {"ticker": "AAPL", "exchange": "NASDAQ"}),
    ],
)

T.resp(
    [],
    "gpt5",
    "en",
    "Clean: commentary + final_answer, but the client hides commentary; the visible final answer starts "
    "with the answer.",
    kind="phase-hidden",
    user="Summarize the refund policy I pasted in one sentence.",
    client=HIDES,
    items=[
        ENC,
        MSG("Reading through the policy text now.", "commentary"),
        MSG(
            "Unused items can be returned within 30 days for a full refund; opened software and gift cards "
            "are final sale.",
            "final_answer",
        ),
    ],
)

T.resp_stream(
    [],
    "gpt5",
    "ko",
    "Clean: streamed commentary + final_answer with a client that filters commentary.",
    kind="phase-hidden",
    user="위에 붙인 로그에서 에러 원인만 알려줘",
    client=HIDES,
    items=[
        ENC,
        MSG("로그를 살펴보는 중이에요.", "commentary"),
        MSG(
            "원인은 DB 커넥션 풀 고갈입니다. `HikariPool-1 - Connection is not available, request timed out "
            "after 30000ms` 오류가 반복되고 있어서, 풀 크기를 늘리거나 오래 걸리는 쿼리를 먼저 확인해 보세요.",
            "final_answer",
        ),
    ],
)

T.resp(
    [],
    "gpt5",
    "zh",
    "Clean: a message without phase is the final answer (Responses-compatible APIs may omit phase); the "
    "client renders phases but there is no commentary.",
    user="用一句话解释什么是边际成本。",
    client=RENDERS,
    items=[ENC, MSG("边际成本是指每多生产一单位产品所增加的总成本。")],
)

T.resp(
    [],
    "gpt5_mini",
    "ja",
    "Clean: only a final_answer item; rendering phases changes nothing.",
    user="「よろしくお願いします」を英語でどう言えばいい？",
    client=RENDERS,
    items=[
        ENC,
        MSG(
            '場面によりますが、メールなら "Thank you in advance."、初対面なら "Nice to meet you. I look '
            'forward to working with you." が自然です。',
            "final_answer",
        ),
    ],
)

T.resp(
    [],
    "gpt5",
    "en",
    "Clean: schema JSON appears in both commentary and final items, but the client hides commentary and "
    "the final answer is one valid JSON value.",
    kind="phase-hidden",
    user="Classify: 'Please add dark mode to the web dashboard.'",
    text=tf_schema("ticket"),
    client=HIDES,
    items=[
        ENC,
        MSG(J({"category": "feature_request", "priority": 4, "title": "Dark mode"}), "commentary"),
        MSG(
            J(
                {
                    "category": "feature_request",
                    "priority": 4,
                    "title": "Add dark mode to web dashboard",
                }
            ),
            "final_answer",
        ),
    ],
)

# ------------------------------------------------------------------ other labels on Responses

T.resp(
    [P],
    "gpt5",
    "en",
    "Final message (no phase) opens with a progress sentence; no function call.",
    user="What's the max carry-on size for most US airlines?",
    items=[
        ENC,
        MSG(
            "Let me pull up the airline size limits for that.\n\nMost major US airlines allow carry-ons "
            "up to **22 × 14 × 9 inches** (56 × 36 × 23 cm), including wheels and handles. Budget "
            "carriers often charge for anything larger than a personal item."
        ),
    ],
)

T.resp(
    [P],
    "gpt5_mini",
    "zh",
    "The final_answer item itself opens with a progress sentence; renders_phases false does not matter.",
    user="小孩几岁可以开始学游泳？",
    client=HIDES,
    items=[
        ENC,
        MSG(
            "我先确认一下相关建议。\n\n一般建议 **4岁左右** 开始正式学游泳，这时孩子的协调性和理解能力"
            "足以学习基本动作；1到3岁可以先参加亲子水中适应课程。",
            "final_answer",
        ),
    ],
)

T.resp(
    [B, L],
    "qwen3_noparser",
    "ko",
    "vLLM Responses endpoint serving Qwen3 without a reasoning parser: <think> block in output_text.",
    user="알레르기 비염에 좋은 생활 습관 알려줘",
    items=[
        MSG(
            "<think>\n비염 관리: 침구 세탁, 실내 습도, 외출 후 세안, 생리식염수 세척.\n</think>\n\n"
            "알레르기 비염 관리에 도움이 되는 습관입니다.\n\n"
            "- 침구는 **일주일에 한 번 60℃ 이상**의 물로 세탁하세요.\n- 실내 습도는 40~50%로 유지합니다.\n"
            "- 외출 후에는 세안하고 옷을 털어 꽃가루를 제거하세요.\n- 생리식염수로 코 세척을 하면 증상 완화에 "
            "도움이 됩니다."
        )
    ],
)

T.resp(
    [L],
    "deepseek_r1_distill",
    "en",
    "Responses output_text opens with untagged self-talk about the user's question.",
    user="Can I use baking soda instead of baking powder?",
    items=[
        MSG(
            "Okay, so the user is asking whether baking soda can replace baking powder. Baking soda needs an "
            "acid and is about three to four times stronger.\n\n"
            "Yes, with adjustments: use about **¼ teaspoon of baking soda plus ½ teaspoon of cream of tartar** "
            "for every teaspoon of baking powder. Without an acid, baking soda alone will taste soapy and won't "
            "rise properly."
        )
    ],
)

T.resp(
    [TXT],
    "hermes_notool",
    "en",
    "Responses API on an engine without a tool parser: the Hermes call is output_text and there is no "
    "function_call item.",
    user="Add a 30-minute 'Budget sync' at 2026-10-12T09:30.",
    tools=["create_event"],
    items=[
        MSG(
            '<tool_call>\n{"name": "create_event", "arguments": {"title": "Budget sync", '
            '"start": "2026-10-12T09:30", "duration_minutes": 30}}\n</tool_call>'
        )
    ],
)

T.resp(
    [TXT],
    "qwen3_coder_hermes",
    "zh",
    "Qwen3-Coder XML call in output_text; the hermes parser cannot read it, so no function_call item.",
    user="查一下 SQL：过去30天每天的活跃用户数。",
    tools=["run_sql"],
    items=[
        MSG(
            "<tool_call>\n<function=run_sql>\n<parameter=query>\nSELECT date_trunc('day', ts) AS d, "
            "COUNT(DISTINCT user_id) FROM events WHERE ts >= now() - interval '30 days' GROUP BY 1 ORDER BY 1\n"
            "</parameter>\n</function>\n</tool_call>"
        )
    ],
)

T.resp(
    [BAD],
    "gpt_oss",
    "ko",
    "function_call arguments are a JSON array instead of an object.",
    user="서울 날씨 알려줘",
    tools=["get_weather"],
    items=[RS("User wants Seoul weather; call get_weather."), FC("get_weather", '["Seoul"]')],
)

T.resp(
    [BAD],
    "gpt5",
    "en",
    "function_call names an undeclared tool (web_search vs the declared search_web).",
    user="Look up the 2026 Boston Marathon winner.",
    tools=["search_web"],
    client=HIDES,
    items=[ENC, FC("web_search", {"query": "2026 Boston Marathon winner"})],
)

T.resp_stream(
    [BAD],
    "gpt_oss",
    "zh",
    "Streamed function_call arguments miss the required 'to_currency'.",
    user="把300美元换成人民币是多少？",
    tools=["convert_currency"],
    items=[RS("Convert 300 USD."), FC("convert_currency", {"amount": 300, "from_currency": "USD"})],
)

T.resp(
    [SI],
    "gpt_oss",
    "zh",
    "text.format json_schema requested; output_text is wrapped in a ```json fence.",
    user="把这句话的情感分类：“这家店的服务太差了，再也不来了。”",
    text=tf_schema("sentiment"),
    items=[
        RS("Clearly negative."),
        MSG("```json\n" + J({"label": "negative", "confidence": 0.95}) + "\n```"),
    ],
)

T.resp_stream(
    [SI],
    "gpt5",
    "en",
    "Streamed output_text puts a sentence before the JSON; text.format json_object requested.",
    user="Give me a JSON object with fields name and founded for the company that makes the iPhone.",
    text=TF_JSON_OBJECT,
    client=HIDES,
    items=[ENC, MSG("Here you go: " + J({"name": "Apple Inc.", "founded": 1976}), "final_answer")],
)

T.resp(
    [TR],
    "gpt_oss",
    "en",
    "status incomplete with max_output_tokens while still reasoning; no message item.",
    user="Write a detailed comparison of PostgreSQL and MySQL replication.",
    max_output_tokens=200,
    status="incomplete",
    items=[
        RS(
            "Postgres: physical streaming replication via WAL, logical replication since 10, synchronous "
            "option. MySQL: binlog-based, statement/row/mixed formats, GTIDs, group replication. Compare "
            "failover tooling: Patroni vs Orchestrator/InnoDB Cluster. Need to also discuss"
        )
    ],
)

T.resp(
    [TR],
    "gpt5",
    "ko",
    "Partial Korean output_text, then status incomplete (max_output_tokens).",
    user="스타트업 초기 투자 계약서에서 꼭 봐야 할 조항을 자세히 알려줘",
    max_output_tokens=150,
    status="incomplete",
    items=[
        ENC,
        MSG(
            "초기 투자 계약서에서 특히 주의할 조항은 다음과 같습니다.\n\n1. **청산우선권**: 회사 매각 시 투자자가 "
            "먼저 돌려받는 금액과 배수를 확인하세요.\n2. **희석 방지 조항**: 다음 라운드 가치가 낮아질 때 "
            "투자자 지분을 보정하는 방식(풀 래칫인지 가중평균인지)에 따라",
            "final_answer",
        ),
    ],
)

T.resp_stream(
    [TR],
    "gpt_oss_20b",
    "zh",
    "Streamed response that ends with response.incomplete (max_output_tokens) mid-answer.",
    user="详细讲讲红烧肉的做法。",
    max_output_tokens=120,
    status="incomplete",
    items=[
        RS("Braised pork belly steps."),
        MSG(
            "红烧肉做法：\n\n1. 五花肉切3厘米见方的块，冷水下锅焯水，撇去浮沫后捞出。\n"
            "2. 锅里放少量油和冰糖，小火炒出枣红色的糖色，"
        ),
    ],
)

T.resp(
    [TR, SI],
    "gpt_oss",
    "en",
    "text.format schema requested, budget exhausted during reasoning: incomplete and no output_text.",
    user="Extract the meeting decisions and action items from the transcript above as JSON.",
    text=tf_schema("meeting"),
    max_output_tokens=128,
    status="incomplete",
    items=[
        RS(
            "Transcript mentions: agreed to postpone launch to March; Priya to update roadmap; Tom to "
            "notify sales. Also maybe a decision about pricing? They discussed but did not"
        )
    ],
)

T.resp(
    [FIR],
    "gpt_oss",
    "en",
    "Reasoning item only, status completed: the answer ended up in reasoning_text and no message was "
    "produced.",
    user="What's a good name for a golden retriever puppy?",
    items=[
        RS(
            "Some ideas: Maple, Sunny, Biscuit, Honey, Copper. Maple is warm and fits the golden coat."
        )
    ],
)

T.resp_stream(
    [FIR],
    "gpt_oss_20b",
    "ko",
    "Streamed: only reasoning_text deltas, then response.completed with no message item.",
    user="월요병 이기는 방법 세 가지만",
    items=[
        RS("1. 일요일 밤 일찍 자기 2. 월요일 아침 가벼운 운동 3. 월요일에 즐거운 약속 하나 잡기")
    ],
)

T.resp(
    [],
    "gpt_oss",
    "en",
    "Clean: gpt-oss via vLLM Responses; reasoning item plus a final message without phase.",
    user="How many tablespoons are in a quarter cup?",
    items=[RS("1 cup = 16 tbsp, so 1/4 cup = 4 tbsp."), MSG("A quarter cup is **4 tablespoons**.")],
)

T.resp_stream(
    [],
    "gpt_oss",
    "zh",
    "Clean: streamed reasoning then output_text, separate items.",
    user="熬夜后第二天怎么恢复精神？",
    items=[
        RS("Short nap, hydration, light, avoid caffeine late."),
        MSG(
            "可以这样做：上午多晒太阳，补充水分；中午小睡20分钟以内；下午3点后少喝咖啡；当晚尽量按时早睡，"
            "不要靠周末补觉。"
        ),
    ],
)

T.resp(
    [],
    "gpt_oss",
    "ko",
    "Clean: valid function_call with reasoning, no text.",
    user="사번 E10233 올해 연차 몇 개 남았어?",
    tools=["get_leave_balance"],
    items=[
        RS("Call get_leave_balance."),
        FC("get_leave_balance", {"employee_id": "E10233", "year": 2026}),
    ],
)

T.resp_stream(
    [],
    "gpt5",
    "en",
    "Clean: streamed valid function call, commentary absent.",
    user="Check interactions between lisinopril and potassium supplements.",
    tools=["check_drug_interaction"],
    client=RENDERS,
    items=[
        ENC,
        FC("check_drug_interaction", {"drug_a": "lisinopril", "drug_b": "potassium chloride"}),
    ],
)

T.resp(
    [],
    "gpt5",
    "ja",
    "Clean: schema-valid JSON in the final answer.",
    user="この文章を英語に翻訳してJSONで：「本日の会議は中止になりました。」",
    text=tf_schema("translation"),
    client=RENDERS,
    items=[
        ENC,
        MSG(
            J(
                {
                    "source_lang": "ja",
                    "target_lang": "en",
                    "text": "Today's meeting has been cancelled.",
                }
            ),
            "final_answer",
        ),
    ],
)
