"""Structured output, truncation, parser mismatch, phases and invalid calls on the newer families,
mostly in Korean and Chinese (to keep the language split even)."""

from __future__ import annotations

import json

from .shapes import (
    FC,
    MSG,
    RF_JSON_OBJECT,
    RS,
    TH,
    TU,
    TX,
    C,
    Cs,
    Rs,
    Theme,
    of_schema,
    rf_schema,
    tf_schema,
)

STRUCT = Theme("structured")
TRUNC = Theme("truncation")
RESP = Theme("responses")
TOOLS = Theme("tools")
CLEAN = Theme("clean")

B, L, BAD, P = "boundary_token", "reasoning_leak", "tool_args_invalid", "preamble"
SI, TR, FIR, CR = "structured_invalid", "truncated", "final_in_reasoning", "commentary_rendered"
RENDERS = {"reasoning_field": None, "renders_phases": True}
HIDES = {"reasoning_field": None, "renders_phases": False}


def J(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ================================================================== structured output

STRUCT.chat(
    [SI],
    "nemotron",
    "ko",
    "json_schema requested; the JSON is wrapped in a ```json fence, so the visible text is not exactly one "
    "JSON value.",
    user="다음 리뷰 감성 분류해 줘: '배송은 빨랐는데 포장이 엉망이었어요.'",
    rf=rf_schema("sentiment"),
    reasoning="혼합, 부정 쪽.",
    content='```json\n{"label": "negative", "confidence": 0.62}\n```',
)

STRUCT.chat(
    [SI],
    "olmo3",
    "zh",
    "json_schema requested; a Chinese lead-in sentence precedes the JSON.",
    user="把这条反馈归类：“付款页面一直转圈，无法完成支付。”",
    rf=rf_schema("ticket"),
    reasoning="支付问题，bug，优先级高。",
    content='以下是分类结果：{"category": "bug", "priority": 1, "title": "支付页面卡住无法付款"}',
)

STRUCT.chat(
    [],
    "holo2",
    "ko",
    "Clean: json_object requested and the content is exactly one JSON object.",
    user="'회의 3시로 변경'이라는 문자를 JSON으로 구조화해 줘. 필드는 event, time.",
    rf=RF_JSON_OBJECT,
    reasoning="event, time.",
    content=J({"event": "회의", "time": "15:00"}),
)

STRUCT.chat(
    [],
    "cohere",
    "zh",
    "Clean: json_schema with the cohere_command3 parser; the content validates.",
    user="判断情感：“这家店的服务太贴心了，下次还来。”",
    rf=rf_schema("sentiment"),
    reasoning="明显正面。",
    content=J({"label": "positive", "confidence": 0.95}),
)

STRUCT.chat(
    [B, L, SI],
    "seed_oss_noparser",
    "ko",
    "Without the seed_oss parser the grammar never starts (the reasoning end is not detected) and the "
    "<seed:think> block precedes the JSON in content: leaked reasoning and an invalid structured response.",
    user="사과 3개에 1,200원이면 사과 7개는 얼마야? 숫자만 JSON으로.",
    rf=rf_schema("math_answer"),
    content='<seed:think>1개 400원, 7개 2800원.</seed:think>{"answer": 2800, "unit": "원"}',
)

STRUCT.chat(
    [SI, TR],
    "deepseek_r1_0528",
    "zh",
    "max_tokens reached while reasoning: content is null and finish_reason is length, so the structured "
    "response is also invalid (empty).",
    user="从这张发票文字里提取字段：供应商“华东电子”，发票号HD-2026-0931，总额12800元，币种CNY，到期日2026-11-30。",
    rf=rf_schema("invoice"),
    max_tokens=64,
    reasoning="需要提取五个字段：供应商、发票号、总额、币种、到期日。先确认日期格式",
    content=None,
    finish="length",
)

STRUCT.chat(
    [SI],
    "glm45",
    "ko",
    "json_schema 'meeting' requires action_items; the JSON omits it.",
    user="회의 내용 요약: 다음 달 출시 확정, 지민이 보도자료 준비.",
    rf=rf_schema("meeting"),
    reasoning="결정 1개, 할 일 1개.",
    content=J({"decisions": ["다음 달 출시 확정"]}),
)

STRUCT.chat_stream(
    [],
    "qwen3",
    "zh",
    "Clean: streamed json_schema response; the reassembled content validates against the recipe schema.",
    user="给我一个番茄炒蛋的菜谱，JSON格式。",
    rf=rf_schema("recipe"),
    deltas=[
        Rs("标题、份数、食材、步骤。"),
        C('{"title": "番茄炒蛋", "servings": 2, '),
        C('"ingredients": ["番茄2个", "鸡蛋3个", "盐", "糖"], '),
        C('"steps": ["鸡蛋打散炒熟盛出", "番茄炒出汁", "倒回鸡蛋调味翻匀"]}'),
    ],
)

STRUCT.resp(
    [SI],
    "gpt5",
    "ko",
    "text.format json_schema: priority 7 violates the maximum of 4.",
    user="이 문의 분류해 줘: '결제 영수증을 다시 받고 싶어요.'",
    text=tf_schema("ticket"),
    items=[
        RS(None, []),
        MSG(J({"category": "billing", "priority": 7, "title": "영수증 재발급 요청"})),
    ],
)

STRUCT.resp(
    [],
    "gpt5_mini",
    "zh",
    "Clean: text.format json_schema; the message validates.",
    user="把“早上好”翻译成英文，用JSON返回。",
    text=tf_schema("translation"),
    items=[
        RS(None, []),
        MSG(J({"source_lang": "zh", "target_lang": "en", "text": "Good morning"})),
    ],
)

STRUCT.msg(
    [],
    "claude",
    "zh",
    "Clean: output_format json_schema on Messages; the text block validates.",
    user="把地址“上海市浦东新区世纪大道100号，邮编200120”结构化。",
    output_format=of_schema("address"),
    blocks=[
        TX(
            J(
                {
                    "country": "中国",
                    "region": "上海市",
                    "city": "上海",
                    "street": "浦东新区世纪大道100号",
                    "postal_code": "200120",
                }
            )
        )
    ],
)

STRUCT.msg(
    [SI],
    "claude",
    "ko",
    "output_format json_schema on Messages; a Korean sentence follows the JSON.",
    user="이 조항 분석해 줘: '을은 계약 종료 후 2년간 영업비밀을 누설해서는 안 된다.'",
    output_format=of_schema("clause"),
    blocks=[
        TX(
            J(
                {
                    "clause_type": "confidentiality",
                    "risk": "low",
                    "summary": "계약 종료 후 2년간 비밀유지 의무",
                }
            )
            + "\n\n일반적인 비밀유지 조항입니다."
        )
    ],
)

# ================================================================== truncation and parser mismatch

TRUNC.chat(
    [TR],
    "olmo3",
    "ko",
    "finish_reason length in the middle of a Korean answer.",
    user="조선 왕 27명 이름 순서대로 다 알려줘",
    max_tokens=60,
    reasoning="태정태세문단세...",
    content="조선의 왕은 태조, 정종, 태종, 세종, 문종, 단종, 세조, 예종, 성종, 연산군, 중종, 인종, 명종, 선조,",
    finish="length",
)

TRUNC.chat(
    [TR],
    "holo2",
    "zh",
    "max_tokens used up during reasoning: content null, finish_reason length (truncated only).",
    user="详细比较一下五款主流笔记App的同步、价格和隐私政策。",
    max_tokens=80,
    reasoning="五款：Notion、印象笔记、Obsidian、OneNote、Bear。先比同步方式，再比价格，然后隐私政策，需要逐条",
    content=None,
    finish="length",
)

TRUNC.chat(
    [B, L, TR],
    "cohere_noparser",
    "ko",
    "Command A Reasoning without a parser (special tokens kept) cut off by max_tokens inside the thinking: "
    "an unclosed <|START_THINKING|> section is visible.",
    user="신혼여행지 동남아 5곳 장단점 비교해 줘",
    extra={"skip_special_tokens": False},
    max_tokens=48,
    content="<|START_THINKING|>발리, 푸껫, 다낭, 세부, 코타키나발루. 항공 시간, 물가, 우기를 기준으로",
    finish="length",
)

TRUNC.resp(
    [TR],
    "gpt5",
    "zh",
    "Responses status incomplete (max_output_tokens) with a partial Chinese message.",
    user="写一篇800字的关于秋天的散文。",
    max_output_tokens=90,
    status="incomplete",
    items=[RS(None, []), MSG("秋天是从一片落叶开始的。清晨推开窗，风里已经带着凉意，楼下的银杏")],
)

TRUNC.chat(
    [FIR],
    "deepseek_v3_r1parser",
    "zh",
    "DeepSeek-V3.1 non-thinking mode served with the deepseek_r1 parser: the whole Chinese answer is "
    "parsed as reasoning, content is empty, finish stop.",
    user="推荐一部适合全家看的电影。",
    tkw={"thinking": False},
    rkey="reasoning_content",
    reasoning="推荐《寻梦环游记》：讲家人和记忆，画面温暖，适合大人小孩一起看。",
    content=None,
)

TRUNC.msg(
    [FIR],
    "qwen3_r1parser",
    "ko",
    "Qwen3 (thinking off) with the deepseek_r1 parser behind /v1/messages: only a thinking block with the "
    "answer, no text block, end_turn.",
    user="비 오는 날 어울리는 노래 한 곡만 추천해 줘",
    extra={"chat_template_kwargs": {"enable_thinking": False}},
    blocks=[
        TH(
            "아이유의 '비밀의 화원'이나 에픽하이의 '우산'을 추천해요. 특히 '우산'은 비 오는 날 분위기에 잘 맞아요."
        )
    ],
)

TRUNC.chat_stream(
    [FIR],
    "qwen3_r1parser",
    "zh",
    "Streamed parser mismatch: every delta arrives as reasoning, finish stop, no content.",
    user="用一句话形容秋天。",
    tkw={"enable_thinking": False},
    deltas=[Rs("秋天是一封写满金黄和凉意的信，风一吹就拆开了。")],
)

# ================================================================== phases (Responses)

RESP.resp(
    [CR, P],
    "gpt5",
    "zh",
    "Commentary progress sentence and a final answer, no function call, and the client renders phases: "
    "commentary_rendered and preamble.",
    user="根据我上面贴的销售数据，哪个月最好？",
    client=RENDERS,
    items=[
        RS(None, []),
        MSG("我先把各月份的数据整理一下。", "commentary"),
        MSG("**7月** 最好，销售额 86 万元，比第二名的 8 月高出约 12%。", "final_answer"),
    ],
)

RESP.resp_stream(
    [CR],
    "gpt5_mini",
    "ko",
    "Streamed commentary plus a function call; the client renders phases (no preamble: a call exists).",
    user="내일 부산 날씨 알려줘",
    tools=["get_weather"],
    client=RENDERS,
    items=[
        RS(None, []),
        MSG("부산 날씨를 조회할게요.", "commentary"),
        FC("get_weather", {"city": "부산"}),
    ],
)

RESP.resp(
    [],
    "gpt5",
    "ja",
    "Clean: commentary + final_answer, the client hides commentary; the final answer starts with the "
    "answer.",
    user="さっきの見積もりの合計金額は？",
    client=HIDES,
    kind="phase-hidden",
    items=[
        RS(None, []),
        MSG("見積もりの明細を合計しています。", "commentary"),
        MSG("合計は **128,700円**（税込）です。", "final_answer"),
    ],
)

RESP.resp(
    [],
    "gpt5_mini",
    "zh",
    "Clean: commentary next to a function call; renders_phases false.",
    user="帮我查一下明天从广州到北京的航班，日期是2026-10-21。",
    tools=["search_flights"],
    client=HIDES,
    kind="phase-hidden",
    items=[
        RS(None, []),
        MSG("我来查一下广州到北京的航班。", "commentary"),
        FC("search_flights", {"origin": "CAN", "destination": "PEK", "date": "2026-10-21"}),
    ],
)

# ================================================================== invalid structured calls

TOOLS.chat(
    [BAD],
    "holo2",
    "ko",
    "Structured call from the hermes parser misses the required 'destination'.",
    user="2026-11-05 인천 출발 삿포로 가는 항공편 찾아줘",
    tools=["search_flights"],
    reasoning="search_flights 호출.",
    content=None,
    tool_calls=[("search_flights", {"origin": "ICN", "date": "2026-11-05"})],
    finish="tool_calls",
)

TOOLS.chat(
    [BAD],
    "qwen3_coder",
    "zh",
    "qwen3_xml parsed the call, but path is an empty string (minLength 1).",
    user="打开那个配置文件看看。",
    tools=["read_file"],
    content=None,
    tool_calls=[("read_file", {"path": ""})],
    finish="tool_calls",
)

TOOLS.chat(
    [BAD],
    "gpt_oss",
    "ko",
    "The openai tool parser returned a call to an undeclared tool (browser.search; only search_web was "
    "declared).",
    user="요즘 유행하는 러닝화 검색해 줘",
    tools=["search_web"],
    reasoning="Search for trending running shoes.",
    content=None,
    tool_calls=[("browser.search", {"query": "인기 러닝화 2026"})],
    finish="tool_calls",
)

TOOLS.resp(
    [BAD],
    "glm45",
    "zh",
    "vLLM /v1/responses: the function_call item's arguments are cut-off JSON.",
    user="查一下《道路交通安全法》第九十条。",
    tools=["lookup_statute"],
    items=[
        RS("调用法条查询。"),
        FC("lookup_statute", '{"jurisdiction": "CN", "law": "道路交通安全法", "article": "90"'),
    ],
)

TOOLS.msg(
    [BAD],
    "claude",
    "zh",
    "tool_use input has max_minutes as a string instead of an integer.",
    user="找几个30分钟内能做好的土豆菜。",
    tools=["find_recipes"],
    stop_reason="tool_use",
    blocks=[TU("find_recipes", {"ingredients": ["土豆"], "max_minutes": "30分钟"})],
)

# ================================================================== clean, newer families in normal operation

CLEAN.chat(
    [],
    "cohere",
    "ko",
    "Clean: Command A Reasoning with the parser; Korean answer.",
    user="전입신고 온라인으로도 돼요?",
    reasoning="정부24 온라인 전입신고 가능.",
    content="네, 정부24에서 온라인으로 할 수 있습니다. 세대주 확인이 필요한 경우에는 세대주가 승인해야 처리됩니다.",
)

CLEAN.chat_stream(
    [],
    "nemotron",
    "zh",
    "Clean: streamed Nemotron with the parser.",
    user="为什么剥洋葱会流眼泪？",
    deltas=[
        Rs("切开洋葱释放含硫气体刺激眼睛。"),
        Cs(
            "切洋葱时细胞破裂，会释放一种含硫的刺激性气体，碰到眼睛就会流泪。先把洋葱冷藏一会儿再切能减轻很多。"
        ),
    ],
)

CLEAN.resp(
    [],
    "olmo3",
    "ko",
    "Clean: vLLM /v1/responses for Olmo 3 with the olmo3 parser: reasoning item, then the message.",
    user="녹차랑 홍차 차이가 뭐예요?",
    items=[
        RS("발효 여부."),
        MSG(
            "같은 찻잎이라도 **발효 정도**가 다릅니다. 녹차는 발효시키지 않고, 홍차는 완전히 발효시켜 맛과 색이 진합니다."
        ),
    ],
)

CLEAN.msg(
    [],
    "holo2",
    "zh",
    "Clean: Holo2 behind vLLM's /v1/messages with the parser: thinking block and text block.",
    user="电脑上怎么截长图？",
    thinking=512,
    blocks=[
        TH("浏览器截长图：开发者工具或扩展。"),
        TX(
            "用 Chrome 的话，按 F12 打开开发者工具，再按 Ctrl+Shift+P，输入 “full size screenshot” 回车，就能保存整页长图。"
        ),
    ],
)

CLEAN.chat(
    [],
    "seed_oss",
    "zh",
    "Clean: Seed-OSS with the seed_oss parser; Chinese answer.",
    user="羽绒服能机洗吗？",
    reasoning="看洗标，低温轻柔，晾干拍打。",
    content="多数羽绒服可以机洗：先看洗标，用中性洗涤剂、冷水和轻柔模式，洗后低温烘干或晾干时多拍打，让羽绒蓬松。",
)

CLEAN.chat(
    [],
    "magistral",
    "ko",
    "Clean: Magistral with the mistral parser; Korean answer.",
    user="1년은 몇 초예요?",
    reasoning="365*86400 = 31,536,000.",
    content="평년 기준으로 **31,536,000초**입니다. 윤년이면 31,622,400초가 됩니다.",
)

CLEAN.chat_stream(
    [],
    "granite",
    "zh",
    "Clean: streamed Granite with thinking on and the granite parser.",
    user="怎么让米饭不粘锅？",
    tkw={"thinking": True},
    deltas=[
        Rs("水量、浸泡、焖的时间。"),
        Cs(
            "淘米后浸泡二十分钟，水和米的比例大约1.2比1，煮好后别马上开盖，再焖十分钟，米饭就不容易粘锅。"
        ),
    ],
)

CLEAN.chat(
    [],
    "llama4",
    "ko",
    "Clean: Llama 4 with tools declared answers directly without calling one.",
    user="한국의 수도가 어디예요?",
    tools=["search_web"],
    content="한국의 수도는 **서울**입니다.",
)
