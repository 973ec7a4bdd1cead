"""Tool-call formats of each family: printed as text, parsed into valid or invalid calls, and explained.

Formats: Llama 3.2 / Llama 4 pythonic lists, Llama 3 JSON and <|python_tag|>, DeepSeek V3 and V3.1
special tokens (fullwidth bars and U+2581), Kimi K2 tool sections, GLM-4.5 <arg_key>/<arg_value>,
Granite <|tool_call|>, gpt-oss harmony commentary calls, Hermes, Qwen3-Coder XML and Mistral
[TOOL_CALLS].
"""

from __future__ import annotations

import json

from .shapes import FC, MSG, RS, TC, TU, TX, C, Rs, Theme

T = Theme("tool_formats")
TXT, BAD, P = "tool_call_as_text", "tool_args_invalid", "preamble"
B, L = "boundary_token", "reasoning_leak"

# DeepSeek V3 / V3.1 special tokens
DS_CALLS = "<｜tool▁calls▁begin｜>"
DS_CALLS_END = "<｜tool▁calls▁end｜>"
DS_CALL = "<｜tool▁call▁begin｜>"
DS_CALL_END = "<｜tool▁call▁end｜>"
DS_SEP = "<｜tool▁sep｜>"


def ds31(*calls: tuple[str, dict]) -> str:
    """DeepSeek-V3.1 call markup: name<｜tool▁sep｜>{json} per call."""
    body = "".join(
        f"{DS_CALL}{name}{DS_SEP}{json.dumps(args, ensure_ascii=False)}{DS_CALL_END}"
        for name, args in calls
    )
    return f"{DS_CALLS}{body}{DS_CALLS_END}"


def ds3(name: str, args: dict) -> str:
    """DeepSeek-V3 (0324) call markup: function<｜tool▁sep｜>name, then the arguments in a json fence."""
    return (
        f"{DS_CALLS}{DS_CALL}function{DS_SEP}{name}\n```json\n"
        f"{json.dumps(args, ensure_ascii=False)}\n```{DS_CALL_END}{DS_CALLS_END}"
    )


def kimi(*calls: tuple[str, dict]) -> str:
    """Kimi K2 tool section: functions.name:index ids with an argument section per call."""
    body = "".join(
        f"<|tool_call_begin|>functions.{name}:{i}<|tool_call_argument_begin|>"
        f"{json.dumps(args, ensure_ascii=False)}<|tool_call_end|>"
        for i, (name, args) in enumerate(calls)
    )
    return f"<|tool_calls_section_begin|>{body}<|tool_calls_section_end|>"


def glm(name: str, args: dict) -> str:
    """GLM-4.5 call: <tool_call>name then one <arg_key>/<arg_value> pair per argument."""
    pairs = "".join(
        f"\n<arg_key>{k}</arg_key>\n<arg_value>"
        f"{v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}</arg_value>"
        for k, v in args.items()
    )
    return f"<tool_call>{name}{pairs}\n</tool_call>"


def granite(*calls: tuple[str, dict]) -> str:
    items = [{"name": n, "arguments": a} for n, a in calls]
    return "<|tool_call|>" + json.dumps(items, ensure_ascii=False)


# ================================================================== pythonic calls (Llama 3.2 / Llama 4)

T.chat(
    [TXT],
    "llama4_notool",
    "en",
    "Llama 4 writes its pythonic call list, but the server has no tool parser (no "
    "--tool-call-parser llama4_pythonic), so the call is the whole content and tool_calls is empty.",
    user="What's the weather in Seoul right now?",
    tools=["get_weather"],
    content='[get_weather(city="Seoul")]',
)

T.chat(
    [TXT],
    "llama4_notool",
    "ko",
    "Two pythonic calls in one list printed as content; no tool parser.",
    user="부산이랑 대구 중에 오늘 어디가 더 더워?",
    tools=["get_weather"],
    content='[get_weather(city="부산", unit="celsius"), get_weather(city="대구", unit="celsius")]',
)

T.chat(
    [TXT],
    "llama32_notool",
    "zh",
    "Llama 3.2 pythonic call in content; the server runs without the pythonic tool parser.",
    user="搜一下最近一周关于台风的新闻。",
    tools=["search_web"],
    content='[search_web(query="台风 最新消息", max_results=5, recency_days=7)]',
)

T.chat(
    [P, TXT],
    "llama4_notool",
    "ja",
    "A Japanese progress sentence followed by a pythonic call on its own line; no structured call, so it "
    "is both preamble and tool_call_as_text.",
    user="大阪の今日の天気を教えて。",
    tools=["get_weather"],
    content='大阪の天気を確認します。\n[get_weather(city="大阪")]',
)

T.chat_stream(
    [TXT],
    "llama4_notool",
    "en",
    "Streamed pythonic call split inside the function name ('[get_wea' + 'ther(…)]'); no tool parser.",
    user="Is it snowing in Sapporo?",
    tools=["get_weather"],
    deltas=[C("[get_wea"), C('ther(city="Sapporo", '), C('unit="celsius")]')],
)

T.chat(
    [TXT],
    "llama4",
    "ko",
    "Llama 4 served with the llama4_pythonic parser, but this time the model answered in the JSON call "
    "style, which that parser does not read: the whole content is a call object for a declared tool.",
    user="테슬라 주가 좀 알려줘",
    tools=["get_stock_quote"],
    content='{"name": "get_stock_quote", "parameters": {"ticker": "TSLA", "exchange": "NASDAQ"}}',
)

T.resp(
    [TXT],
    "llama4_notool",
    "zh",
    "vLLM /v1/responses serving Llama 4 without a tool parser: the message item's output_text is a pythonic "
    "call and no function_call item exists.",
    user="把300美元换成人民币是多少？",
    tools=["convert_currency"],
    items=[MSG('[convert_currency(amount=300, from_currency="USD", to_currency="CNY")]')],
)

# ================================================================== Llama 3 JSON and python_tag

T.chat(
    [P, TXT],
    "llama3_notool",
    "en",
    "A progress sentence, then a bare Llama-3 {name, parameters} call object outside code; no tool parser, "
    "no structured call.",
    user="Find flights from Boston to Denver on 2026-11-20.",
    tools=["search_flights"],
    content=(
        "I'll look up the available flights for that date.\n"
        '{"name": "search_flights", "parameters": {"origin": "BOS", "destination": "DEN", "date": "2026-11-20"}}'
    ),
)

T.chat(
    [TXT],
    "llama3_notool",
    "ko",
    "Llama 3.1 <|python_tag|> followed by a call JSON in content; no tool parser.",
    user="올해 노벨문학상 수상자 검색해 줘",
    tools=["search_web"],
    content='<|python_tag|>{"name": "search_web", "parameters": {"query": "2026 노벨문학상 수상자"}}',
)

T.chat(
    [TXT],
    "llama4_json",
    "en",
    "Llama 4 Maverick with llama4_json, but the model wrapped its call in a json fence, which the parser "
    "does not accept: the fenced call is the whole content.",
    user="What's the status of order US-880412?",
    tools=["get_order_status"],
    content='```json\n{"name": "get_order_status", "parameters": {"order_id": "US-880412"}}\n```',
)

# ================================================================== DeepSeek V3.1 / V3 special tokens

T.chat(
    [TXT],
    "deepseek_v31_notool",
    "en",
    "DeepSeek-V3.1 (non-thinking) without the deepseek_v31 tool parser: the call markup with fullwidth "
    "bars is the whole content.",
    user="What's the weather in Seoul?",
    tools=["get_weather"],
    content=ds31(("get_weather", {"city": "Seoul"})),
)

T.chat(
    [P, TXT],
    "deepseek_v31_notool",
    "ko",
    "Korean progress sentence, then DeepSeek-V3.1 call markup in content; no structured call.",
    user="100만 원을 유로로 바꾸면 얼마야?",
    tools=["convert_currency"],
    content="환율을 확인해 볼게요."
    + ds31(("convert_currency", {"amount": 1000000, "from_currency": "KRW", "to_currency": "EUR"})),
)

T.chat(
    [TXT],
    "deepseek_v31_notool",
    "zh",
    "Two DeepSeek-V3.1 calls inside one tool-calls section printed as content.",
    user="查一下茅台和五粮液现在的股价。",
    tools=["get_stock_quote"],
    content=ds31(
        ("get_stock_quote", {"ticker": "600519", "exchange": "SSE"}),
        ("get_stock_quote", {"ticker": "000858"}),
    ),
)

T.chat(
    [TXT],
    "deepseek_v3_0324_notool",
    "en",
    "DeepSeek-V3-0324 call format (function<｜tool▁sep｜>name, arguments in a json fence) left in content; "
    "no deepseek_v3 tool parser.",
    user="Get me Tesla's latest stock quote.",
    tools=["get_stock_quote"],
    content=ds3("get_stock_quote", {"ticker": "TSLA", "exchange": "NASDAQ"}),
)

T.chat(
    [TXT],
    "deepseek_v3_0324_notool",
    "zh",
    "DeepSeek-V3-0324 call markup printed as text for a Chinese request.",
    user="帮我读一下 docs/deploy.md 的前50行。",
    tools=["read_file"],
    content=ds3("read_file", {"path": "docs/deploy.md", "start_line": 1, "end_line": 50}),
)

T.chat_stream(
    [TXT],
    "deepseek_v31_notool",
    "ko",
    "Streamed DeepSeek-V3.1 markup, one special token per chunk; no tool parser.",
    user="주문번호 KR-118250 배송 조회해 줘",
    tools=["get_order_status"],
    deltas=[
        C(DS_CALLS),
        C(DS_CALL + "get_order_status" + DS_SEP),
        C('{"order_id": '),
        C('"KR-118250"}'),
        C(DS_CALL_END + DS_CALLS_END),
    ],
)

T.chat(
    [B, L, TXT],
    "deepseek_v3_noparser",
    "ja",
    "DeepSeek-V3.1 with thinking on, served with neither parser: reasoning, a lone </think>, then call "
    "markup. (V3.1 supports tool calls only in non-thinking mode, so the call is never parsed.) Visible "
    "text is reasoning plus markup, so lang follows the request.",
    user="羽田から那覇への12月1日の便を探して。",
    tools=["search_flights"],
    tkw={"thinking": True},
    content=(
        "search_flights を HND→OKA、2026-12-01 で呼ぶ。\n</think>"
        + ds31(("search_flights", {"origin": "HND", "destination": "OKA", "date": "2026-12-01"}))
    ),
)

# ================================================================== Kimi K2 tool sections

T.chat(
    [TXT],
    "kimi_k2_instruct_notool",
    "en",
    "Kimi K2 Instruct without the kimi_k2 tool parser: the tool-calls section is the whole content.",
    user="Check the weather in Nairobi, please.",
    tools=["get_weather"],
    content=kimi(("get_weather", {"city": "Nairobi"})),
)

T.chat(
    [TXT],
    "kimi_k2_instruct_notool",
    "zh",
    "Kimi tool-calls section with two calls printed as content.",
    user="帮我查一下订单CN-552301和CN-552302到哪了。",
    tools=["get_order_status"],
    content=kimi(
        ("get_order_status", {"order_id": "CN-552301"}),
        ("get_order_status", {"order_id": "CN-552302"}),
    ),
)

T.chat_stream(
    [TXT],
    "kimi_k2_instruct_notool",
    "ko",
    "Streamed Kimi tool section without a tool parser; the section tokens arrive in separate chunks.",
    user="다음 주 월요일 오전 10시에 1시간짜리 주간회의 잡아 줘. 날짜는 2026-10-12야.",
    tools=["create_event"],
    deltas=[
        C("<|tool_calls_section_begin|>"),
        C("<|tool_call_begin|>functions.create_event:0<|tool_call_argument_begin|>"),
        C('{"title": "주간회의", '),
        C('"start": "2026-10-12T10:00", "duration_minutes": 60}'),
        C("<|tool_call_end|><|tool_calls_section_end|>"),
    ],
)

T.chat(
    [B, L, TXT],
    "kimi_k2_noparser",
    "zh",
    "Kimi K2 Thinking with neither parser: the ◁think▷ block and then the tool section are in content.",
    user="搜索一下今年双十一的预售时间。",
    tools=["search_web"],
    content=(
        "◁think▷用户要双十一预售时间，需要搜索最新信息。◁/think▷"
        + kimi(("search_web", {"query": "2026 双十一 预售 时间", "recency_days": 30}))
    ),
)

T.msg(
    [TXT],
    "kimi_k2_instruct_notool",
    "ja",
    "vLLM /v1/messages serving Kimi K2 Instruct without a tool parser: the tool section is in a text block "
    "and there is no tool_use block.",
    user="東京の天気を調べて。",
    tools=["get_weather"],
    blocks=[TX(kimi(("get_weather", {"city": "東京"})))],
)

# ================================================================== GLM-4.5 arg_key / arg_value

T.chat(
    [TXT],
    "glm45_notool",
    "en",
    "GLM-4.5 with the reasoning parser but no glm45 tool parser: the <tool_call>name + arg_key/arg_value "
    "markup stays in content.",
    user="What's the weather in Seoul?",
    tools=["get_weather"],
    reasoning="Call get_weather for Seoul.",
    content=glm("get_weather", {"city": "Seoul"}),
)

T.chat(
    [TXT],
    "glm45_notool",
    "ko",
    "GLM-4.5 call markup with two arguments in content; no tool parser.",
    user="카레 재료로 감자랑 당근만 있는데 30분 안에 할 수 있는 레시피 찾아줘",
    tools=["find_recipes"],
    reasoning="find_recipes 호출.",
    content=glm("find_recipes", {"ingredients": ["감자", "당근"], "max_minutes": 30}),
)

T.chat(
    [B, L, TXT],
    "glm45_noparser",
    "zh",
    "GLM-4.5 with neither parser effective for reasoning: a <think> block, then GLM call markup, all in "
    "content.",
    user="北京今天需要带伞吗？",
    tools=["get_weather"],
    content="<think>\n需要查天气。\n</think>\n" + glm("get_weather", {"city": "北京"}),
)

T.msg_stream(
    [TXT],
    "glm45_notool",
    "en",
    "Streamed /v1/messages text_delta pieces carrying GLM call markup; no tool_use block.",
    user="Convert 120 pounds to euros.",
    tools=["convert_currency"],
    blocks=[
        TX(
            [
                "<tool_call>convert_currency\n<arg_key>amount</arg_key>\n<arg_value>120</arg_value>\n",
                "<arg_key>from_currency</arg_key>\n<arg_value>GBP</arg_value>\n",
                "<arg_key>to_currency</arg_key>\n<arg_value>EUR</arg_value>\n</tool_call>",
            ]
        )
    ],
)

# ================================================================== Granite <|tool_call|>

T.chat(
    [TXT],
    "granite_notool",
    "en",
    "Granite emits <|tool_call|> followed by a JSON list; no granite tool parser, so it stays in content.",
    user="Look up the interaction between lisinopril and potassium supplements.",
    tools=["check_drug_interaction"],
    content=granite(
        ("check_drug_interaction", {"drug_a": "lisinopril", "drug_b": "potassium chloride"})
    ),
)

T.chat(
    [TXT],
    "granite_notool",
    "ko",
    "Granite tool-call markup printed as content for a Korean request.",
    user="사번 E31882 올해 연차 며칠 남았어?",
    tools=["get_leave_balance"],
    content=granite(("get_leave_balance", {"employee_id": "E31882", "year": 2026})),
)

T.chat(
    [P, TXT],
    "granite_notool",
    "zh",
    "Chinese progress sentence, then Granite call markup; no structured call.",
    user="帮我算一下 1234 乘以 5678。",
    tools=["calculate"],
    content="我来计算一下。\n" + granite(("calculate", {"expression": "1234 * 5678"})),
)

# ================================================================== gpt-oss harmony commentary calls

T.chat(
    [B, TXT],
    "gpt_oss_raw",
    "zh",
    "Raw harmony on SGLang without parsing: a commentary-channel call to functions.search_web printed as "
    "text; the harmony tokens are boundary tokens too.",
    user="查一下杭州亚运会的举办年份。",
    tools=["search_web"],
    content=(
        "<|start|>assistant<|channel|>commentary to=functions.search_web <|constrain|>json<|message|>"
        '{"query":"杭州亚运会 举办年份","max_results":3}<|call|>'
    ),
)

T.chat(
    [B, TXT],
    "gpt_oss_raw",
    "ko",
    "Raw harmony commentary call in content for a Korean request.",
    user="주문번호 KR-901144 어디까지 왔어?",
    tools=["get_order_status"],
    content=(
        "<|channel|>commentary to=functions.get_order_status <|constrain|>json<|message|>"
        '{"order_id":"KR-901144"}<|call|>'
    ),
)

T.chat_stream(
    [B, L, TXT],
    "gpt_oss_raw",
    "en",
    "Streamed raw harmony: the analysis channel and then a commentary call arrive as content; "
    "'<|chan' + 'nel|>' is split.",
    user="Does ibuprofen interact with lisinopril?",
    tools=["check_drug_interaction"],
    deltas=[
        C("<|chan"),
        C("nel|>analysis<|message|>NSAIDs can blunt ACE inhibitors; verify with the tool.<|end|>"),
        C("<|start|>assistant<|channel|>commentary to=functions.check_drug_interaction "),
        C('<|constrain|>json<|message|>{"drug_a":"ibuprofen","drug_b":"lisinopril"}<|call|>'),
    ],
)

# ================================================================== Hermes, Qwen3-Coder XML, Mistral

T.chat(
    [TXT],
    "hermes_notool",
    "ko",
    "Hermes <tool_call> markup in content; no tool parser.",
    user="2026-12-24 인천에서 방콕 가는 비행기 찾아줘",
    tools=["search_flights"],
    content=(
        '<tool_call>\n{"name": "search_flights", "arguments": {"origin": "ICN", "destination": "BKK", '
        '"date": "2026-12-24"}}\n</tool_call>'
    ),
)

T.chat(
    [TXT],
    "qwen3_coder_hermes",
    "ja",
    "Qwen3-Coder XML call under the hermes tool parser, which cannot read it.",
    user="src/app.ts の1行目から20行目を見せて。",
    tools=["read_file"],
    content=(
        "<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/app.ts\n</parameter>\n"
        "<parameter=start_line>\n1\n</parameter>\n<parameter=end_line>\n20\n</parameter>\n</function>\n"
        "</tool_call>"
    ),
)

T.chat(
    [TXT],
    "mistral_notool",
    "zh",
    "Mistral [TOOL_CALLS] JSON list left in content; no mistral tool parser.",
    user="查一下《民法典》第一千零七十九条。",
    tools=["lookup_statute"],
    content=(
        '[TOOL_CALLS][{"name": "lookup_statute", "arguments": {"jurisdiction": "CN", "law": "民法典", '
        '"article": "1079"}}]'
    ),
)

T.chat(
    [B, L, TXT],
    "magistral_sglang",
    "en",
    "Magistral on SGLang with no parsers and skip_special_tokens=false: [THINK]…[/THINK] and then a "
    "[TOOL_CALLS] call, all in content.",
    user="Search for this week's ECB interest rate decision.",
    tools=["search_web"],
    extra={"skip_special_tokens": False},
    content=(
        "[THINK]Need the latest ECB decision; search with recency.[/THINK]"
        '[TOOL_CALLS][{"name": "search_web", "arguments": {"query": "ECB interest rate decision", '
        '"recency_days": 7}}]'
    ),
)

# ================================================================== tool_args_invalid with these parsers

T.chat(
    [BAD],
    "llama4",
    "en",
    "llama4_pythonic parsed the call, but unit='kelvin' is outside the declared enum.",
    user="Weather in Reykjavik in kelvin, please.",
    tools=["get_weather"],
    content=None,
    tool_calls=[("get_weather", {"city": "Reykjavik", "unit": "kelvin"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "deepseek_v3",
    "zh",
    "deepseek_v31 parsed a call to an undeclared tool (get_exchange_rate; only convert_currency exists).",
    user="1000日元等于多少人民币？",
    tools=["convert_currency"],
    content=None,
    tool_calls=[("get_exchange_rate", {"base": "JPY", "quote": "CNY"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "kimi_k2_instruct",
    "ko",
    "kimi_k2 parser returned arguments that are a JSON string, not an object.",
    user="광주 날씨 알려줘",
    tools=["get_weather"],
    content=None,
    tool_calls=[("get_weather", '"광주"')],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "glm45",
    "ko",
    "glm45 parsed the call, but the required 'to_currency' argument is missing.",
    user="300달러 환전하면 얼마야?",
    tools=["convert_currency"],
    reasoning="USD→KRW 변환.",
    content=None,
    tool_calls=[("convert_currency", {"amount": 300, "from_currency": "USD"})],
    finish="tool_calls",
)

T.chat(
    [BAD],
    "granite",
    "en",
    "granite tool parser produced a call with a property the schema does not allow ('language').",
    user="Search for beginner Rust tutorials in English.",
    tools=["search_web"],
    content=None,
    tool_calls=[("search_web", {"query": "beginner Rust tutorial", "language": "en"})],
    finish="tool_calls",
)

# ================================================================== clean: the same formats parsed into structured calls

T.chat(
    [],
    "llama4",
    "en",
    "Clean: llama4_pythonic parsed the pythonic call into tool_calls; content is null.",
    user="What's the weather in Lima?",
    tools=["get_weather"],
    content=None,
    tool_calls=[("get_weather", {"city": "Lima"})],
    finish="tool_calls",
)

T.chat(
    [],
    "llama4",
    "ko",
    "Clean: two parallel calls parsed by llama4_pythonic.",
    user="서울이랑 제주 날씨 둘 다 알려줘",
    tools=["get_weather"],
    content=None,
    tool_calls=[("get_weather", {"city": "서울"}), ("get_weather", {"city": "제주"})],
    finish="tool_calls",
)

T.chat_stream(
    [],
    "llama4",
    "zh",
    "Clean: streamed structured call from the llama4_pythonic parser.",
    user="找几个用鸡蛋和番茄、20分钟内能做好的菜谱。",
    tools=["find_recipes"],
    deltas=[TC(0, "find_recipes", {"ingredients": ["鸡蛋", "番茄"], "max_minutes": 20})],
    finish="tool_calls",
)

T.chat(
    [],
    "llama32_pythonic",
    "ja",
    "Clean: Llama 3.2 with the pythonic parser; structured call.",
    user="AAPLの株価を調べて。",
    tools=["get_stock_quote"],
    content=None,
    tool_calls=[("get_stock_quote", {"ticker": "AAPL", "exchange": "NASDAQ"})],
    finish="tool_calls",
)

T.chat(
    [],
    "deepseek_v3_0324",
    "zh",
    "Clean: DeepSeek-V3-0324 with the deepseek_v3 tool parser; structured call.",
    user="看一下 README.md 的前20行。",
    tools=["read_file"],
    content=None,
    tool_calls=[("read_file", {"path": "README.md", "start_line": 1, "end_line": 20})],
    finish="tool_calls",
)

T.chat(
    [],
    "deepseek_v3",
    "ko",
    "Clean: DeepSeek-V3.1 non-thinking mode with deepseek_v31; structured call.",
    user="3월 2일 김포에서 제주 가는 항공편 찾아줘. 2027년이야.",
    tools=["search_flights"],
    content=None,
    tool_calls=[("search_flights", {"origin": "GMP", "destination": "CJU", "date": "2027-03-02"})],
    finish="tool_calls",
)

T.chat_stream(
    [],
    "deepseek_v3",
    "en",
    "Clean: streamed DeepSeek-V3.1 call from the deepseek_v31 parser, with a usage chunk.",
    user="How many orders did we get yesterday? Query the warehouse.",
    tools=["run_sql"],
    usage_chunk=True,
    deltas=[
        TC(
            0,
            "run_sql",
            {"query": "SELECT COUNT(*) FROM orders WHERE created_at::date = CURRENT_DATE - 1"},
        )
    ],
    finish="tool_calls",
)

T.chat(
    [],
    "kimi_k2_instruct",
    "en",
    "Clean: kimi_k2 tool parser; call id in Kimi's functions.* form, declared name.",
    user="Look up article 22 of the GDPR.",
    tools=["lookup_statute"],
    content=None,
    tool_calls=[("lookup_statute", {"jurisdiction": "EU", "law": "GDPR", "article": "22"})],
    finish="tool_calls",
)

T.chat_stream(
    [],
    "kimi_k2",
    "zh",
    "Clean: Kimi K2 Thinking with both kimi_k2 parsers; reasoning deltas then a structured call.",
    user="查一下深圳的天气。",
    tools=["get_weather"],
    deltas=[Rs("调用天气工具查深圳。"), TC(0, "get_weather", {"city": "深圳"})],
    finish="tool_calls",
)

T.chat(
    [],
    "glm45",
    "zh",
    "Clean: glm45 tool parser turned the arg_key/arg_value markup into a structured call.",
    user="帮我查一下订单CN-330871。",
    tools=["get_order_status"],
    reasoning="调用订单查询。",
    content=None,
    tool_calls=[("get_order_status", {"order_id": "CN-330871"})],
    finish="tool_calls",
)

T.msg(
    [],
    "glm45",
    "en",
    "Clean: GLM-4.5 behind vLLM's /v1/messages with both parsers: a short text block accompanies a valid "
    "tool_use block (no preamble: the response makes a structured call).",
    user="Find recipes with chickpeas, vegan, under 30 minutes.",
    tools=["find_recipes"],
    kind="call-with-text",
    stop_reason="tool_use",
    blocks=[
        TX("Searching for quick vegan chickpea recipes."),
        TU("find_recipes", {"ingredients": ["chickpeas"], "max_minutes": 30, "diet": "vegan"}),
    ],
)

T.chat(
    [],
    "granite",
    "ko",
    "Clean: granite tool parser; structured call.",
    user="사번 E10233 작년 연차 잔여 일수 알려줘",
    tools=["get_leave_balance"],
    content=None,
    tool_calls=[("get_leave_balance", {"employee_id": "E10233", "year": 2025})],
    finish="tool_calls",
)

T.chat(
    [],
    "gpt_oss",
    "ja",
    "Clean: gpt-oss with the openai tool parser; analysis in reasoning, commentary call parsed.",
    user="福岡の天気は？",
    tools=["get_weather"],
    reasoning="Need weather for Fukuoka; call get_weather.",
    content=None,
    tool_calls=[("get_weather", {"city": "福岡"})],
    finish="tool_calls",
)

T.resp(
    [],
    "gpt_oss",
    "ko",
    "Clean: gpt-oss on vLLM /v1/responses: reasoning item plus a function_call item, no message.",
    user="서울 지금 기온 몇 도야?",
    tools=["get_weather"],
    items=[
        RS("Call get_weather for Seoul in celsius."),
        FC("get_weather", {"city": "서울", "unit": "celsius"}),
    ],
)

T.chat(
    [],
    "hermes",
    "zh",
    "Clean: hermes tool parser; structured call.",
    user="把500欧元换成港币。",
    tools=["convert_currency"],
    content=None,
    tool_calls=[
        ("convert_currency", {"amount": 500, "from_currency": "EUR", "to_currency": "HKD"})
    ],
    finish="tool_calls",
)

T.chat(
    [],
    "mistral",
    "ko",
    "Clean: mistral tool parser; structured call.",
    user="네이버 주가 조회해 줘",
    tools=["get_stock_quote"],
    content=None,
    tool_calls=[("get_stock_quote", {"ticker": "035420", "exchange": "KRX"})],
    finish="tool_calls",
)

# ================================================================== hard negatives: the formats explained

T.chat(
    [],
    "llama4",
    "en",
    "Clean: tools declared, but the user asked how the pythonic format looks; the example is in inline code "
    "inside an explanation.",
    user="How does Llama 4 format a tool call in its raw output?",
    tools=["get_weather"],
    kind="call-json-explained",
    content=(
        "With the pythonic template, Llama 4 writes a Python-style list of calls, for example "
        '`[get_weather(city="Seoul")]`. vLLM\'s `llama4_pythonic` tool parser reads that list and returns '
        "it as structured `tool_calls`, so clients never see the raw text."
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "ko",
    "Clean: DeepSeek's tool-call tokens shown in a fenced block with explanation before and after.",
    user="DeepSeek V3.1 원본 출력에서 도구 호출은 어떻게 생겼어?",
    tools=["get_weather"],
    kind="call-json-explained",
    content=(
        "전각 세로선과 밑줄 기호가 들어간 전용 토큰으로 감쌉니다. 예를 들면 다음과 같습니다.\n\n"
        "```text\n" + ds31(("get_weather", {"city": "서울"})) + "\n```\n\n"
        "서버에서 `deepseek_v31` 도구 파서를 지정하면 이 부분이 구조화된 `tool_calls`로 바뀝니다."
    ),
)

T.chat(
    [],
    "kimi_k2_instruct",
    "zh",
    "Clean: Kimi's tool-section tokens named inside inline code spans.",
    user="Kimi K2 的工具调用原始格式是什么？",
    tools=["search_web"],
    kind="call-json-explained",
    content=(
        "Kimi K2 把调用放在 `<|tool_calls_section_begin|>` 和 `<|tool_calls_section_end|>` 之间，每个调用以 "
        "`<|tool_call_begin|>` 开头，函数 ID 写成 `functions.search_web:0` 这样的形式，参数放在 "
        "`<|tool_call_argument_begin|>` 之后。用 `kimi_k2` 工具解析器就能把它转成标准的 `tool_calls`。"
    ),
)

T.chat(
    [],
    "glm45",
    "ja",
    "Clean: GLM's arg_key/arg_value call format shown in a fence with prose around it.",
    user="GLM-4.5のツール呼び出しの生の形式を見せて。",
    tools=["get_weather"],
    reasoning="Show an example in a code block.",
    kind="call-json-explained",
    content=(
        "GLM-4.5は関数名のあとに引数をキーと値のペアで並べます。\n\n"
        "```xml\n" + glm("get_weather", {"city": "京都"}) + "\n```\n\n"
        "vLLMで `--tool-call-parser glm45` を指定すると、この形式が通常の `tool_calls` に変換されます。"
    ),
)

T.chat(
    [],
    "granite",
    "en",
    "Clean: Granite's <|tool_call|> prefix explained with the example in a fence.",
    user="What does a Granite tool call look like before parsing?",
    tools=["calculate"],
    kind="call-json-explained",
    content=(
        "Granite prefixes the call with a special marker and then writes a JSON list:\n\n"
        "```\n" + granite(("calculate", {"expression": "2 + 2"})) + "\n```\n\n"
        "The `granite` tool parser strips the marker and turns each list entry into a structured call."
    ),
)

T.chat(
    [],
    "llama4",
    "zh",
    "Clean: the user asked for Python code; a fenced snippet calls a local function named like the tool, "
    "with explanation.",
    user="用 Python 写个例子：调用 get_weather 函数查首尔天气并打印结果。",
    tools=["get_weather"],
    kind="call-json-explained",
    content=(
        "假设你已经实现了 `get_weather`，可以这样写：\n\n"
        '```python\nresult = get_weather(city="Seoul", unit="celsius")\nprint(result)\n```\n\n'
        "函数返回一个字典，直接打印即可查看温度和天气状况。"
    ),
)

T.chat(
    [],
    "llama32_notool",
    "en",
    "Clean: no tools declared; the user asked for the pythonic call text itself, and the whole answer is "
    "that text (tool_call_as_text needs declared tools).",
    user="Write just the Llama pythonic call for getting the weather in Madrid, nothing else.",
    kind="call-json-explained",
    content='[get_weather(city="Madrid")]',
)

T.chat(
    [],
    "kimi_k2_instruct",
    "ko",
    "Clean: tools declared but not needed; list-indexing syntax in inline code is not a call.",
    user="도구 쓰지 말고, 파이썬 리스트에서 마지막 원소 꺼내는 법만 알려줘",
    tools=["search_web"],
    content="`my_list[-1]`로 마지막 원소를 읽을 수 있고, 꺼내면서 지우려면 `my_list.pop()`을 쓰면 됩니다.",
)
