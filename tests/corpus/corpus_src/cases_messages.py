"""Messages API (Anthropic shape): Claude and open models behind a /v1/messages endpoint."""

from __future__ import annotations

import json

from .shapes import TH, TU, TX, Theme, of_schema

T = Theme("messages")
B, L, TXT, BAD, P = (
    "boundary_token",
    "reasoning_leak",
    "tool_call_as_text",
    "tool_args_invalid",
    "preamble",
)
SI, TR, FIR = "structured_invalid", "truncated", "final_in_reasoning"


def J(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ------------------------------------------------------------------ <thinking> in a text block

T.msg(
    [B, L],
    "claude_opus",
    "en",
    "Thinking disabled; the model wrote internal <thinking> tags into the text block itself.",
    user="Should I pay off my student loans faster or invest the extra $500 a month?",
    blocks=[
        TX(
            "<thinking>\nCompare loan interest rate to expected investment return. If loans are above ~6-7%, pay "
            "down; if below ~4%, invest, especially with employer match. Mention emergency fund first.\n</thinking>\n\n"
            "It mostly comes down to your loan's interest rate:\n\n"
            "- **Above ~6–7%:** paying it down is a guaranteed return that's hard to beat.\n"
            "- **Below ~4%:** investing usually wins over the long run, especially if you aren't yet getting your "
            "full employer 401(k) match.\n- **In between:** splitting the $500 is perfectly reasonable.\n\n"
            "Either way, make sure you have an emergency fund of a few months' expenses first."
        )
    ],
)

T.msg(
    [B, L],
    "claude",
    "ko",
    "Korean answer with an internal <thinking> section in the text block (thinking off).",
    user="강아지 산책은 하루에 몇 번 시키는 게 좋아요?",
    blocks=[
        TX(
            "<thinking>\n견종과 나이에 따라 다름. 일반적으로 하루 2회, 총 30분~2시간. 소형견은 짧게 여러 번.\n</thinking>\n"
            "견종과 나이에 따라 다르지만, 보통 **하루 2회 이상**, 합쳐서 30분에서 1시간 정도를 권장합니다. "
            "보더콜리나 리트리버 같은 활동량이 많은 견종은 1~2시간이 필요하고, 노견이나 소형견은 짧게 여러 번 "
            "나누어 걷는 것이 좋습니다."
        )
    ],
)

T.msg(
    [B, L],
    "claude_opus",
    "zh",
    "Chinese answer with visible <thinking> tags in the text block.",
    user="新手学吉他应该先买民谣吉他还是古典吉他？",
    blocks=[
        TX(
            "<thinking>用户是新手。古典吉他尼龙弦手指不疼，指板宽；民谣吉他钢弦适合弹唱。看用户想弹什么风格。</thinking>\n\n"
            "取决于你想弹什么：\n\n- 想**弹唱流行歌**：选民谣吉他（钢弦），音色明亮，但刚开始手指会比较疼。\n"
            "- 想学**古典曲目或指弹基础**：选古典吉他（尼龙弦），手感柔和，但琴颈较宽。\n\n"
            "预算有限的话，建议在实体店试弹后再买，弦距低的琴更容易上手。"
        )
    ],
)

T.msg_stream(
    [B, L],
    "claude_opus",
    "en",
    "Streamed text_delta pieces split the tag ('<think' + 'ing>'); reassembled, the <thinking> block is "
    "visible.",
    user="What's the best way to store fresh herbs?",
    blocks=[
        TX(
            [
                "<think",
                "ing>Soft herbs like a bouquet in water; hardy herbs wrapped in damp paper towel.</think",
                "ing>\n\nIt depends on the herb:\n\n- **Soft herbs** (basil, parsley, cilantro, mint): trim the stems and "
                "stand them in a glass of water like flowers. Keep basil on the counter; cover the others loosely with a "
                "bag and refrigerate.\n- **Hardy herbs** (rosemary, thyme, sage): wrap them in a slightly damp paper "
                "towel, put them in a container and refrigerate.",
            ]
        )
    ],
)

T.msg(
    [B, L],
    "qwen3_noparser",
    "zh",
    "Open model behind a /v1/messages-compatible endpoint without a reasoning parser: <think> text in the "
    "text block instead of a thinking block.",
    user="怎么给绿萝浇水？",
    blocks=[
        TX(
            "<think>\n绿萝喜湿但怕积水，见干见湿，夏天多浇冬天少浇，可以喷叶面。\n</think>\n\n"
            "绿萝浇水记住“**见干见湿**”：盆土表面干了两三厘米再浇透，盆底有水流出即可，别让托盘积水。"
            "夏天大约三四天一次，冬天一周左右一次，平时可以往叶面喷水增加湿度。"
        )
    ],
)

# ------------------------------------------------------------------ tool calls as text / invalid tool_use

T.msg(
    [TXT],
    "hermes_notool",
    "en",
    "/v1/messages endpoint on an engine without a tool parser: Hermes call markup in a text block, no "
    "tool_use block.",
    user="Is there any interaction between clopidogrel and omeprazole?",
    tools=["check_drug_interaction"],
    blocks=[
        TX(
            '<tool_call>\n{"name": "check_drug_interaction", "arguments": {"drug_a": "clopidogrel", '
            '"drug_b": "omeprazole"}}\n</tool_call>'
        )
    ],
)

T.msg(
    [TXT],
    "claude",
    "ko",
    "Thinking off: the whole text block is a JSON object naming a declared tool with its arguments, instead "
    "of a tool_use block.",
    user="부산 날씨 어때?",
    tools=["get_weather"],
    blocks=[TX(J({"name": "get_weather", "arguments": {"city": "부산"}}))],
)

T.msg(
    [TXT],
    "mistral_notool",
    "zh",
    "Mistral behind a messages-compatible endpoint without tool parser: [TOOL_CALLS] in the text block.",
    user="查一下订单 CN-550871 到哪了。",
    tools=["get_order_status"],
    blocks=[
        TX('[TOOL_CALLS][{"name": "get_order_status", "arguments": {"order_id": "CN-550871"}}]')
    ],
)

T.msg(
    [BAD],
    "claude",
    "en",
    "tool_use input misses the required 'origin'.",
    user="Find flights to Lisbon on 2026-11-21 from Boston.",
    tools=["search_flights"],
    stop_reason="tool_use",
    blocks=[
        TX("I'll search for flights to Lisbon."),
        TU("search_flights", {"destination": "LIS", "date": "2026-11-21"}),
    ],
)

T.msg_stream(
    [BAD],
    "claude_opus",
    "zh",
    "Streamed input_json_delta assembles ingredients as a string, not an array.",
    user="我有土豆、胡萝卜和牛肉，推荐个菜谱。",
    tools=["find_recipes"],
    stop_reason="tool_use",
    blocks=[TU("find_recipes", {"ingredients": "土豆, 胡萝卜, 牛肉"})],
)

T.msg(
    [BAD],
    "claude",
    "ko",
    "tool_use names an undeclared tool (get_exchange_rate; only convert_currency is declared).",
    user="달러 환율 알려줘",
    tools=["convert_currency"],
    stop_reason="tool_use",
    blocks=[TU("get_exchange_rate", {"base": "USD", "quote": "KRW"})],
)

T.msg_stream(
    [BAD],
    "qwen3",
    "en",
    "Open model on a messages endpoint: streamed partial_json fragments form invalid JSON (unquoted key).",
    user="Look up Article 750 of the Korean Civil Act.",
    tools=["lookup_statute"],
    stop_reason="tool_use",
    blocks=[
        TH("Call lookup_statute KR civil act 750."),
        TU("lookup_statute", '{"jurisdiction": "KR", law: "Civil Act", "article": "750"}'),
    ],
)

# ------------------------------------------------------------------ preamble

T.msg(
    [P],
    "claude",
    "en",
    "Text opens with an interim progress sentence and no tool is used.",
    user="When is the deadline for filing a US extension (Form 4868)?",
    thinking=2048,
    blocks=[
        TH("Form 4868 due by the regular filing deadline, April 15, extends to Oct 15."),
        TX(
            "I'll look up the filing deadlines first.\n\nForm 4868 must be filed by the regular due date of "
            "your return, normally **April 15**. It extends the time to *file* until **October 15**, but not "
            "the time to *pay*: estimate and pay what you owe by April 15 to avoid interest and penalties."
        ),
    ],
)

T.msg_stream(
    [P],
    "claude_opus",
    "zh",
    "Streamed Chinese text that opens with '让我先查一下相关规定。'",
    user="在国内开网店需要办营业执照吗？",
    blocks=[
        TX(
            "让我先查一下相关规定。\n\n一般需要。根据《电子商务法》，电商经营者原则上应当办理市场主体登记；"
            "个人销售自产农副产品、家庭手工业产品，或者零星小额交易活动等情形可以不登记。"
            "在主要平台开店时，平台通常也会要求提交营业执照或个体工商户信息。"
        )
    ],
)

T.msg(
    [P],
    "claude",
    "ko",
    "Korean text opens with '관련 정보를 찾아보겠습니다.' with no tool_use.",
    user="청약통장 납입 인정 금액이 올랐다던데 얼마예요?",
    blocks=[
        TX(
            "관련 정보를 찾아보겠습니다.\n\n주택청약종합저축의 월 납입 인정 금액은 **25만 원**으로 상향되었습니다. "
            "공공분양에서 납입 인정액이 당락을 가르는 경우가 많으니, 여유가 있다면 매달 25만 원씩 꾸준히 "
            "넣는 것이 유리합니다."
        )
    ],
)

# ------------------------------------------------------------------ structured output

T.msg(
    [SI],
    "claude",
    "en",
    "output_format json_schema requested; the text adds a sentence before the JSON.",
    user="Extract the address: 'Ship to 1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA.'",
    output_format=of_schema("address"),
    blocks=[
        TX(
            "Here is the extracted address:\n"
            + J(
                {
                    "country": "USA",
                    "region": "CA",
                    "city": "Mountain View",
                    "street": "1600 Amphitheatre Pkwy",
                    "postal_code": "94043",
                }
            )
        )
    ],
)

T.msg(
    [SI],
    "qwen3",
    "ko",
    "Open model on a messages endpoint: output_format requested, JSON wrapped in a code fence.",
    user="이 문장 감정 분류해 줘: '기대 이상이에요, 또 주문할게요!'",
    output_format=of_schema("sentiment"),
    blocks=[TH("긍정."), TX("```json\n" + J({"label": "positive", "confidence": 0.93}) + "\n```")],
)

T.msg_stream(
    [SI],
    "claude_opus",
    "zh",
    "Streamed JSON misses the required 'reason' field.",
    user="分诊：成年人被猫抓伤，伤口轻微出血。",
    output_format=of_schema("triage"),
    blocks=[TX(J({"urgency": "routine", "department": "急诊外科"}))],
)

# ------------------------------------------------------------------ truncation / final in reasoning

T.msg(
    [TR],
    "claude",
    "en",
    "stop_reason max_tokens with a partial text block.",
    user="Write a short story about a lighthouse keeper who finds a message in a bottle.",
    max_tokens=120,
    stop_reason="max_tokens",
    blocks=[
        TX(
            "The storm had finally spent itself by dawn, and Ines walked the shingle below the lighthouse the "
            "way she did every morning, counting what the sea had returned. Rope. A child's sandal. A green "
            "bottle, stoppered with wax, wedged between two rocks as if someone had placed it there. Inside, "
            "the paper was dry. The handwriting was her own.\n\nShe"
        )
    ],
)

T.msg_stream(
    [TR],
    "claude_opus",
    "ko",
    "Streamed: thinking used the whole max_tokens budget; no text block, stop_reason max_tokens.",
    user="우리 회사 신규 서비스 출시 로드맵을 분기별로 아주 자세히 짜 줘",
    max_tokens=1024,
    thinking=1000,
    stop_reason="max_tokens",
    blocks=[
        TH(
            "분기별 로드맵: 1분기 시장 조사와 MVP 정의, 2분기 베타, 3분기 정식 출시, 4분기 확장. 각 분기마다 "
            "목표, 핵심 지표, 팀별 과제, 리스크를 정리해야 한다. 1분기 세부: 고객 인터뷰 30건, 경쟁사 분석"
        )
    ],
)

T.msg(
    [TR],
    "claude",
    "zh",
    "Chinese text cut by max_tokens.",
    user="介绍一下二十四节气的由来和意义。",
    max_tokens=90,
    stop_reason="max_tokens",
    blocks=[
        TX(
            "二十四节气起源于黄河流域，是古人通过观察太阳周年运动，把一年划分为二十四个段落而形成的时间体系。"
            "它最早在战国时期逐步形成，到西汉《淮南子》中已有完整记载。节气对农业生产有重要指导作用，比如"
        )
    ],
)

T.msg(
    [FIR],
    "qwen3_r1parser",
    "en",
    "Open model on a messages endpoint with a mismatched reasoning parser: only a thinking block holding the "
    "answer, stop_reason end_turn.",
    user="Give me a fun fact about octopuses.",
    blocks=[
        TH(
            "Octopuses have three hearts and blue, copper-based blood; two hearts pump blood to the gills and "
            "one to the rest of the body."
        )
    ],
)

T.msg_stream(
    [FIR],
    "qwen3_r1parser",
    "ko",
    "Streamed: only thinking_delta events, end_turn, no text block.",
    user="스트레칭 쉬운 거 하나만 알려줘",
    blocks=[
        TH(
            "목 스트레칭: 오른손으로 머리 왼쪽을 잡고 천천히 오른쪽으로 당겨 15초 유지, 반대쪽도 반복하세요."
        )
    ],
)

# ------------------------------------------------------------------ clean

T.msg_stream(
    [],
    "claude",
    "en",
    "Clean: thinking_delta and text_delta in separate blocks; signature_delta and ping events present.",
    user="How do I politely ask my manager for a raise?",
    thinking=1024,
    blocks=[
        TH("Advice: timing, evidence of impact, market data, specific number, practice."),
        TX(
            "Ask for a dedicated meeting rather than bringing it up in passing, and come prepared:\n\n"
            "1. List two or three concrete results you delivered this year, with numbers if possible.\n"
            "2. Check market pay for your role so your request is grounded.\n"
            "3. Name a specific figure or range, then pause and let your manager respond.\n\n"
            'If the answer is "not now", ask what you\'d need to show and agree on when to revisit it.'
        ),
    ],
)

T.msg(
    [],
    "claude_opus",
    "ko",
    "Clean: thinking display omitted (empty thinking text) and a normal text block.",
    user="제주도 3박 4일 여행 예산 어느 정도 잡아야 해요?",
    thinking={"type": "enabled", "budget_tokens": 2048, "display": "omitted"},
    blocks=[
        TH(""),
        TX(
            "성수기가 아니라면 1인 기준 **60만~100만 원** 정도로 잡는 경우가 많습니다.\n\n"
            "- 항공권: 왕복 10만~20만 원\n- 숙소: 1박 8만~15만 원\n- 렌터카와 유류비: 15만~25만 원\n"
            "- 식비와 입장료: 하루 5만~8만 원"
        ),
    ],
)

T.msg(
    [],
    "claude",
    "zh",
    "Clean: a text block accompanies a valid tool_use block (not a preamble by LABELS).",
    kind="call-with-text",
    user="巴黎现在天气怎么样？",
    tools=["get_weather"],
    stop_reason="tool_use",
    blocks=[
        TX("我来查一下巴黎现在的天气。"),
        TU("get_weather", {"city": "Paris", "unit": "celsius"}),
    ],
)

T.msg(
    [],
    "claude",
    "en",
    "Clean: stop_reason stop_sequence is a normal finish, not truncation.",
    user="List three fruits, one per line, then write END.",
    stop_sequences=["END"],
    stop_reason="stop_sequence",
    stop_sequence="END",
    blocks=[TX("Mango\nPear\nBlueberry\n")],
)

T.msg(
    [],
    "claude",
    "en",
    "Clean: output_format satisfied exactly.",
    user="Extract: 'Invoice GL-4410 from Greenleaf Catering, total 2,150.00 GBP, due 2026-11-30.'",
    output_format=of_schema("invoice"),
    blocks=[
        TX(
            J(
                {
                    "vendor": "Greenleaf Catering",
                    "invoice_number": "GL-4410",
                    "total": 2150.0,
                    "currency": "GBP",
                    "due_date": "2026-11-30",
                }
            )
        )
    ],
)

T.msg_stream(
    [],
    "claude_opus",
    "zh",
    "Clean: streamed schema-valid JSON with thinking in its own block.",
    user="把这条反馈分类：“希望能增加导出PDF的功能。”",
    output_format=of_schema("ticket"),
    thinking=1024,
    blocks=[
        TH("功能需求，优先级低。"),
        TX(J({"category": "feature_request", "priority": 4, "title": "增加导出PDF功能"})),
    ],
)

T.msg(
    [],
    "claude",
    "ja",
    "Clean: two text blocks forming one answer.",
    user="新幹線で大きな荷物を持ち込むときの注意点は？",
    blocks=[
        TX(
            "東海道・山陽・九州新幹線では、3辺の合計が160cmを超え250cm以内の荷物は"
            "**特大荷物スペースつき座席の事前予約**が必要です。"
        ),
        TX("予約なしで持ち込むと、車内で手数料1,000円がかかります。160cm以内なら予約は不要です。"),
    ],
)

T.msg_stream(
    [],
    "claude",
    "ko",
    "Clean: streamed valid tool_use after a thinking block.",
    user="KR-990135 주문 배송 조회해 줘",
    tools=["get_order_status"],
    thinking=1024,
    stop_reason="tool_use",
    blocks=[TH("주문 상태 조회 도구 호출."), TU("get_order_status", {"order_id": "KR-990135"})],
)

T.msg(
    [],
    "glm45",
    "en",
    "Clean: open model on a messages endpoint with proper parsers: thinking block then text.",
    user="What's the difference between a virus and a bacterium in one paragraph?",
    blocks=[
        TH("Size, structure, reproduction, treatment."),
        TX(
            "Bacteria are single-celled living organisms that can reproduce on their own, and many are harmless "
            "or even helpful; infections they cause can often be treated with antibiotics. Viruses are much "
            "smaller, are not cells, and can only reproduce inside a host's cells, so antibiotics don't work "
            "on them — antivirals or vaccines are used instead."
        ),
    ],
)
