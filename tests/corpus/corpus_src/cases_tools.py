"""Tool calls on chat.completions: calls printed as text, invalid structured calls, and clean calls."""

from __future__ import annotations

from .shapes import TC, C, Rs, Theme

T = Theme("tools")
TXT, BAD = "tool_call_as_text", "tool_args_invalid"
B, L, P = "boundary_token", "reasoning_leak", "preamble"

# ------------------------------------------------------------------ tool_call_as_text

T.chat(
    [TXT],
    "qwen3_coder_hermes",
    "en",
    "Qwen3-Coder emits its XML call format but the server runs the hermes tool parser, so the call is "
    "left in content and tool_calls is empty.",
    user="Open src/billing/invoice.py and show me lines 40 to 80.",
    tools=["read_file", "search_web"],
    content=(
        "<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/billing/invoice.py\n</parameter>\n"
        "<parameter=start_line>\n40\n</parameter>\n<parameter=end_line>\n80\n</parameter>\n</function>\n"
        "</tool_call>"
    ),
)

T.chat(
    [B, L, TXT],
    "qwen3_noparser",
    "en",
    "Qwen3 with only a tool-call parser: the <think> block precedes the Hermes call, the parser gives up "
    "and everything stays in content.",
    user="What's the weather like in Lisbon today? Use Celsius.",
    tools=["get_weather"],
    content=(
        "<think>\nThe user wants today's weather in Lisbon in Celsius. I'll call get_weather.\n</think>\n\n"
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lisbon", "unit": "celsius"}}\n'
        "</tool_call>"
    ),
)

T.chat(
    [TXT],
    "hermes_notool",
    "en",
    "Hermes-3 served without --enable-auto-tool-choice/tool parser: the <tool_call> block is plain content.",
    user="Is order KR-204518 shipped yet?",
    tools=["get_order_status"],
    content='<tool_call>\n{"arguments": {"order_id": "KR-204518"}, "name": "get_order_status"}\n</tool_call>',
)

T.chat(
    [TXT],
    "mistral_notool",
    "en",
    "Mistral Small without the mistral tool parser: [TOOL_CALLS] markup stays in content.",
    user="What's NVIDIA trading at right now?",
    tools=["get_stock_quote"],
    content='[TOOL_CALLS][{"name": "get_stock_quote", "arguments": {"ticker": "NVDA", "exchange": "NASDAQ"}}]',
)

T.chat(
    [P, TXT],
    "mistral_notool",
    "ko",
    "Korean progress sentence, then Mistral [TOOL_CALLS] markup as text; no structured call, so the opening "
    "sentence is also a preamble.",
    user="삼성전자 지금 주가 얼마야?",
    tools=["get_stock_quote"],
    content=(
        "삼성전자 주가를 조회해 보겠습니다.\n"
        '[TOOL_CALLS][{"name": "get_stock_quote", "arguments": {"ticker": "005930", "exchange": "KRX"}}]'
    ),
)

T.chat(
    [TXT],
    "llama3_notool",
    "en",
    "Llama 3.1 JSON tool format ({name, parameters}) returned as the whole content; no tool parser.",
    user="Weather in Tokyo please",
    tools=["get_weather"],
    content='{"name": "get_weather", "parameters": {"city": "Tokyo"}}',
)

T.chat(
    [TXT],
    "llama3_notool",
    "zh",
    "Llama 3 <|python_tag|> prefix followed by a call JSON in content (tool-call markup, not a reasoning "
    "delimiter).",
    user="搜索一下2026年诺贝尔物理学奖得主",
    tools=["search_web"],
    content='<|python_tag|>{"name": "search_web", "parameters": {"query": "2026年诺贝尔物理学奖得主", "max_results": 5}}',
)

T.chat(
    [TXT],
    "llama3_notool",
    "zh",
    "The whole content is a JSON array of two calls to a declared tool.",
    user="广州和深圳今天哪个更热？",
    tools=["get_weather"],
    content=(
        '[{"name": "get_weather", "parameters": {"city": "广州"}}, '
        '{"name": "get_weather", "parameters": {"city": "深圳"}}]'
    ),
)

T.chat(
    [B, TXT],
    "gpt_oss_raw",
    "en",
    "gpt-oss without harmony parsing: a commentary-channel call to functions.get_weather is printed as text; "
    "the harmony tokens are boundary tokens too.",
    user="Do I need an umbrella in Seoul today?",
    tools=["get_weather"],
    content=(
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
        '{"city":"Seoul"}<|call|>'
    ),
)

T.chat(
    [B, L, TXT],
    "gpt_oss_raw",
    "en",
    "Raw harmony: analysis channel, then a commentary tool call, all visible as text. The request is "
    "Korean but the visible text is English analysis plus call JSON, so lang is en.",
    user="100달러가 원화로 얼마야?",
    tools=["convert_currency"],
    content=(
        "<|channel|>analysis<|message|>Need current USD to KRW rate; call convert_currency with amount 100."
        "<|end|><|start|>assistant<|channel|>commentary to=functions.convert_currency <|constrain|>json"
        '<|message|>{"amount":100,"from_currency":"USD","to_currency":"KRW"}<|call|>'
    ),
)

T.chat(
    [TXT],
    "qwen3_noparser",
    "ko",
    "The whole content is one fenced JSON call object for a declared tool (Hermes parser only looks for "
    "<tool_call> tags).",
    user="50만 원을 엔화로 바꾸면 얼마인지 계산해 줘",
    tools=["convert_currency"],
    tkw={"enable_thinking": False},
    content=(
        '```json\n{"name": "convert_currency", "arguments": {"amount": 500000, "from_currency": "KRW", '
        '"to_currency": "JPY"}}\n```'
    ),
)

T.chat(
    [P, TXT],
    "qwen3_coder_hermes",
    "zh",
    "Chinese progress sentence followed by a Qwen3-Coder XML call that the hermes parser cannot parse.",
    user="看看 config/settings.yaml 里数据库连接池设置的是多少。",
    tools=["read_file"],
    content=(
        "我先读取一下配置文件。\n<tool_call>\n<function=read_file>\n<parameter=path>\nconfig/settings.yaml\n"
        "</parameter>\n</function>\n</tool_call>"
    ),
)

T.chat(
    [TXT],
    "glm45_noparser",
    "zh",
    "GLM-4.5 call markup (<tool_call>name + arg_key/arg_value) left in content: glm45 tool markup with no "
    "structured call.",
    user="帮我查一下订单 CN-778120 的物流状态。",
    tools=["get_order_status"],
    content="<tool_call>get_order_status\n<arg_key>order_id</arg_key>\n<arg_value>CN-778120</arg_value>\n</tool_call>",
)

T.chat_stream(
    [TXT],
    "hermes_notool",
    "en",
    "Streamed Hermes markup with the tag split across chunks ('<tool_' + 'call>'); no tool parser.",
    user="Find me recipes with leftover rice and eggs, under 20 minutes.",
    tools=["find_recipes"],
    deltas=[
        C("<tool_"),
        C('call>\n{"name": "find_recipes", '),
        C('"arguments": {"ingredients": ["rice", "egg"], '),
        C('"max_minutes": 20}}\n</tool_call>'),
    ],
)

T.chat_stream(
    [TXT],
    "mistral_notool",
    "ko",
    "Streamed Mistral markup split as '[TOOL_' + 'CALLS]'; no structured call.",
    user="이번 주 금요일 오후 3시에 30분짜리 팀 회의 잡아줘. 날짜는 2026-10-09야.",
    tools=["create_event"],
    deltas=[
        C("[TOOL_"),
        C('CALLS][{"name": "create_event", "arguments": '),
        C('{"title": "팀 회의", "start": "2026-10-09T15:00", "duration_minutes": 30}}]'),
    ],
)

T.chat(
    [TXT],
    "hermes_notool",
    "ja",
    "Hermes call markup in content for a Japanese request; no tool parser.",
    user="来週の羽田から福岡へのフライトを探して。日付は2026-10-15で。",
    tools=["search_flights"],
    content=(
        '<tool_call>\n{"name": "search_flights", "arguments": {"origin": "HND", "destination": "FUK", '
        '"date": "2026-10-15"}}\n</tool_call>'
    ),
)

T.chat(
    [P, TXT],
    "hermes_notool",
    "en",
    "Progress sentence then a Hermes call as text: both preamble and tool_call_as_text (no structured call).",
    user="Can you check whether warfarin interacts with ibuprofen?",
    tools=["check_drug_interaction"],
    content=(
        "Let me check the interaction database for that.\n"
        '<tool_call>\n{"name": "check_drug_interaction", "arguments": {"drug_a": "warfarin", '
        '"drug_b": "ibuprofen"}}\n</tool_call>'
    ),
)

# ------------------------------------------------------------------ tool_args_invalid

T.chat(
    [BAD],
    "qwen3",
    "en",
    "Structured call misses the required 'city' argument.",
    user="What's the weather? I'm in Denver, use Fahrenheit.",
    tools=["get_weather"],
    reasoning="Call get_weather in fahrenheit.",
    content=None,
    tool_calls=[("get_weather", {"unit": "fahrenheit"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "qwen3_sglang",
    "zh",
    "Structured call names a tool that was not declared (get_forecast; only get_weather exists).",
    user="明天杭州会下雨吗？",
    tools=["get_weather"],
    rkey="reasoning_content",
    reasoning="用户问明天的天气，调用天气预报工具。",
    content=None,
    tool_calls=[("get_forecast", {"city": "杭州", "days": 1})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "hermes",
    "en",
    "Arguments use single quotes, so they are not valid JSON.",
    user="How's the weather in Busan?",
    tools=["get_weather"],
    content=None,
    tool_calls=[("get_weather", "{'city': 'Busan'}")],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "kimi_k2",
    "en",
    "Kimi K2 call name carries the 'functions.' prefix and ':0' index, so it does not match the declared "
    "tool name.",
    user="Search for the latest EU AI Act implementation timeline.",
    tools=["search_web"],
    reasoning="Search the web for EU AI Act timeline.",
    content=None,
    tool_calls=[("functions.search_web:0", {"query": "EU AI Act implementation timeline"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "llama3",
    "ko",
    "Amount passed as a Korean string ('50만') instead of a number.",
    user="50만 원을 달러로 환산해 줘",
    tools=["convert_currency"],
    content=None,
    tool_calls=[
        ("convert_currency", {"amount": "50만", "from_currency": "KRW", "to_currency": "USD"})
    ],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "glm45",
    "zh",
    "Extra property 'market' is not allowed by the declared schema (additionalProperties: false).",
    user="贵州茅台现在股价多少？",
    tools=["get_stock_quote"],
    reasoning="调用行情工具，代码600519。",
    content=None,
    tool_calls=[("get_stock_quote", {"ticker": "600519", "market": "SSE"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "deepseek_v3",
    "en",
    "Arguments are double-encoded: a JSON string that contains JSON, not a JSON object.",
    user="Search for reviews of the Framework 13 laptop.",
    tools=["search_web"],
    content=None,
    tool_calls=[("search_web", '"{\\"query\\": \\"Framework 13 laptop review\\"}"')],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "mistral",
    "en",
    "Arguments are a JSON array, not an object.",
    user="Get me a quote for Apple stock.",
    tools=["get_stock_quote"],
    content=None,
    tool_calls=[("get_stock_quote", '["AAPL"]')],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "qwen3_30b",
    "en",
    "Ticker violates the declared pattern (company name in lowercase instead of a symbol).",
    user="How is Apple doing on the market today?",
    tools=["get_stock_quote"],
    reasoning="Get Apple quote.",
    content="I'll pull up the latest quote.",
    tool_calls=[("get_stock_quote", {"ticker": "apple"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "qwen3",
    "ko",
    "Date argument 'next Friday' in Korean violates the YYYY-MM-DD pattern.",
    user="다음 주 금요일에 김포에서 제주 가는 비행기 찾아줘",
    tools=["search_flights"],
    reasoning="search_flights 호출. 날짜는 다음 주 금요일.",
    content=None,
    tool_calls=[
        ("search_flights", {"origin": "GMP", "destination": "CJU", "date": "다음 주 금요일"})
    ],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "qwen3_sglang",
    "zh",
    "max_results 50 exceeds the declared maximum of 10.",
    user="帮我搜一下最近关于固态电池的新闻，多给点结果。",
    tools=["search_web"],
    rkey="reasoning_content",
    reasoning="用户要多一些结果，设置max_results为50。",
    content=None,
    tool_calls=[("search_web", {"query": "固态电池 最新进展", "max_results": 50})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "qwen3",
    "en",
    "Two parallel calls: the first is valid, the second misses the required 'drug_b'.",
    user="Check metformin with ibuprofen, and also metformin with alcohol.",
    tools=["check_drug_interaction"],
    reasoning="Two checks.",
    content=None,
    tool_calls=[
        ("check_drug_interaction", {"drug_a": "metformin", "drug_b": "ibuprofen"}),
        ("check_drug_interaction", {"drug_a": "metformin"}),
    ],
    finish="tool_calls",
)

T.chat_stream(
    [BAD],
    "deepseek_v3",
    "ko",
    "Streamed argument fragments assemble into JSON with a trailing comma (invalid JSON).",
    user="최근 7일 가입자 수를 일자별로 뽑아 줘",
    tools=["run_sql"],
    deltas=[
        TC(
            0,
            "run_sql",
            '{"query": "SELECT signup_date, COUNT(*) FROM users WHERE signup_date >= CURRENT_DATE - 7 GROUP BY 1 ORDER BY 1", "timeout_s": 30,}',
        ),
    ],
    finish="tool_calls",
)

T.chat_stream(
    [BAD, "truncated"],
    "qwen3",
    "en",
    "max_tokens hit while the call arguments were streaming: the assembled arguments are cut off "
    "mid-string (not valid JSON) and finish_reason is length.",
    user="Create a 45-minute design review at 2026-10-20T10:00 with Mina, Joon and Priya.",
    tools=["create_event"],
    max_tokens=96,
    deltas=[
        Rs("Create event with three attendees."),
        TC(
            0,
            "create_event",
            '{"title": "Design review", "start": "2026-10-20T10:00", "duration_minutes": 45, "attendees": ["Mina", "Jo',
        ),
    ],
    finish="length",
)

T.chat_stream(
    [BAD],
    "minimax_m2",
    "ja",
    'duration_minutes streamed as the string "30" instead of an integer.',
    user="明日10時から30分の1on1を入れて。日付は2026-10-08。",
    tools=["create_event"],
    deltas=[
        Rs("create_event: 1on1, 2026-10-08T10:00, 30 minutes."),
        TC(
            0,
            "create_event",
            {"title": "1on1", "start": "2026-10-08T10:00", "duration_minutes": "30"},
        ),
    ],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "hunyuan",
    "zh",
    "employee_id '12345' does not match the declared pattern ^E\\d{5}$.",
    user="我的员工号是12345，帮我查一下今年还剩几天年假。",
    tools=["get_leave_balance"],
    reasoning="调用假期余额查询。",
    content=None,
    tool_calls=[("get_leave_balance", {"employee_id": "12345", "year": 2026})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "qwen3_30b",
    "en",
    "Empty argument string: not JSON at all.",
    user="What's 17% of 2,340?",
    tools=["calculate"],
    reasoning="Use calculate.",
    content=None,
    tool_calls=[("calculate", "")],
    finish="tool_calls",
)

# ------------------------------------------------------------------ clean tool calls

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: valid structured call, no content.",
    user="Is it raining in Vancouver right now?",
    tools=["get_weather"],
    reasoning="Call get_weather for Vancouver.",
    content=None,
    tool_calls=[("get_weather", {"city": "Vancouver"})],
    finish="tool_calls",
)

T.chat(
    [],
    "qwen3",
    "ko",
    "Clean: a progress sentence accompanies a valid structured call, which LABELS excludes from preamble.",
    kind="call-with-text",
    user="주문번호 KR-330912 배송 어디쯤 왔어요?",
    tools=["get_order_status"],
    reasoning="주문 상태 조회 도구 호출.",
    content="잠시만요, 주문 상태를 확인해 볼게요.",
    tool_calls=[("get_order_status", {"order_id": "KR-330912"})],
    finish="tool_calls",
)

T.chat(
    [],
    "glm45",
    "zh",
    "Clean: valid run_sql call with optional timeout.",
    user="统计一下上个月每个渠道的订单数。",
    tools=["run_sql"],
    reasoning="生成SQL按渠道分组。",
    content=None,
    tool_calls=[
        (
            "run_sql",
            {
                "query": "SELECT channel, COUNT(*) AS orders FROM orders WHERE created_at >= date_trunc('month', now()) - interval '1 month' AND created_at < date_trunc('month', now()) GROUP BY channel ORDER BY orders DESC",
                "timeout_s": 60,
            },
        )
    ],
    finish="tool_calls",
)

T.chat(
    [],
    "hermes",
    "en",
    "Clean: two valid parallel calls parsed by the hermes tool parser.",
    user="Convert 250 EUR to USD and 250 EUR to JPY.",
    tools=["convert_currency"],
    content=None,
    tool_calls=[
        ("convert_currency", {"amount": 250, "from_currency": "EUR", "to_currency": "USD"}),
        ("convert_currency", {"amount": 250, "from_currency": "EUR", "to_currency": "JPY"}),
    ],
    finish="tool_calls",
)

T.chat(
    [],
    "kimi_k2",
    "zh",
    "Clean: Kimi K2 with kimi_k2 tool parser, valid call; the call id uses Kimi's functions.* form but the "
    "function name is the declared one.",
    user="查一下《民法典》第五百八十五条的内容。",
    tools=["lookup_statute"],
    reasoning="调用法条查询工具。",
    content=None,
    tool_calls=[("lookup_statute", {"jurisdiction": "CN", "law": "民法典", "article": "585"})],
    finish="tool_calls",
)

T.chat(
    [],
    "mistral",
    "en",
    "Clean: Mistral tool parser produced a proper structured call.",
    user="Find vegetarian recipes with chickpeas and spinach.",
    tools=["find_recipes"],
    content=None,
    tool_calls=[("find_recipes", {"ingredients": ["chickpeas", "spinach"], "diet": "vegetarian"})],
    finish="tool_calls",
)

T.chat(
    [],
    "llama3",
    "ko",
    "Clean: tools were declared but none was needed; the model answered directly in plain text.",
    user="12 곱하기 12는?",
    tools=["calculate"],
    content="12 × 12 = **144**입니다.",
)

T.chat(
    [],
    "deepseek_v3",
    "en",
    "Clean: DeepSeek-V3.1 non-thinking mode with deepseek_v31 tool parser; valid call and a short "
    "accompanying sentence.",
    kind="call-with-text",
    user="Read the first 30 lines of README.md",
    tools=["read_file"],
    content="Sure, opening README.md.",
    tool_calls=[("read_file", {"path": "README.md", "start_line": 1, "end_line": 30})],
    finish="tool_calls",
)

T.chat_stream(
    [],
    "qwen3_coder",
    "zh",
    "Clean: Qwen3-Coder with both parsers configured; the XML call is parsed into structured tool_calls.",
    user="在仓库里读一下 src/main.rs。",
    tools=["read_file"],
    deltas=[TC(0, "read_file", {"path": "src/main.rs"})],
    finish="tool_calls",
)

T.chat(
    [],
    "gpt_oss",
    "en",
    "Clean: gpt-oss with the openai tool parser; analysis in reasoning, structured call, no content.",
    user="Check whether sertraline interacts with tramadol.",
    tools=["check_drug_interaction"],
    reasoning="Serotonin syndrome risk; look it up via tool.",
    content=None,
    tool_calls=[("check_drug_interaction", {"drug_a": "sertraline", "drug_b": "tramadol"})],
    finish="tool_calls",
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: final answer after a tool result in the history; no tool call, no preamble.",
    user="So should I bring a jacket?",
    tools=["get_weather"],
    history=[
        {"role": "user", "content": "What's the weather in Oslo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_0",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_0",
            "content": '{"temp_c": 7, "condition": "light rain", "wind_kph": 22}',
        },
        {"role": "assistant", "content": "It's 7 °C in Oslo with light rain and a fresh breeze."},
    ],
    reasoning="7C, rain, wind: yes jacket, waterproof.",
    content="Yes — at 7 °C with rain and a 22 km/h wind, take a waterproof jacket and maybe a warm layer underneath.",
)

T.chat(
    [],
    "hunyuan",
    "ko",
    "Clean: Hunyuan with both parsers; valid call for leave balance.",
    user="사번 E20417 올해 남은 연차 알려줘",
    tools=["get_leave_balance"],
    reasoning="연차 잔여 조회.",
    content=None,
    tool_calls=[("get_leave_balance", {"employee_id": "E20417", "year": 2026})],
    finish="tool_calls",
)
