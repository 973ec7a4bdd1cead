"""Additional Korean, Chinese and Japanese cases, spread over the themes, to balance the languages."""

from __future__ import annotations

import json

from .shapes import (
    FC,
    MSG,
    RS,
    TF_JSON_OBJECT,
    TH,
    TU,
    TX,
    C,
    Cs,
    M,
    Rs,
    Theme,
    rf_schema,
)

CLEAN = Theme("clean")
STREAM = Theme("streaming")
STRUCT = Theme("structured")
RESP = Theme("responses")
MSGS = Theme("messages")
TOOLS = Theme("tools")
TRUNC = Theme("truncation")
PRE = Theme("preamble")
BOUND = Theme("boundary")
HARD = Theme("hardneg")

B, L, TXT, BAD, P = (
    "boundary_token",
    "reasoning_leak",
    "tool_call_as_text",
    "tool_args_invalid",
    "preamble",
)
SI, TR, FIR, CR, MIX = (
    "structured_invalid",
    "truncated",
    "final_in_reasoning",
    "commentary_rendered",
    "mixed_chunk",
)
RENDERS = {"reasoning_field": None, "renders_phases": True}
HIDES = {"reasoning_field": None, "renders_phases": False}


def J(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ================================================================== clean, Korean

CLEAN.chat_stream(
    [],
    "deepseek_v3",
    "ko",
    "Clean: Korean cooking answer streamed from non-thinking mode.",
    user="된장찌개 맛있게 끓이는 법 알려줘",
    tkw={"thinking": False},
    deltas=[
        Cs(
            "된장찌개는 **육수와 된장 비율**이 핵심입니다.\n\n"
            "1. 멸치와 다시마로 15분 정도 육수를 냅니다.\n"
            "2. 육수 500ml에 된장 1.5큰술, 고추장 반 큰술을 체에 걸러 풀어 줍니다.\n"
            "3. 감자와 양파를 먼저 넣고, 애호박·두부·버섯은 나중에 넣어 무르지 않게 합니다.\n"
            "4. 마지막에 청양고추와 대파, 다진 마늘을 넣고 한소끔 더 끓이면 완성입니다.\n\n"
            "된장을 너무 오래 끓이면 향이 날아가니 재료가 익은 뒤 5분 안쪽으로 마무리하세요."
        )
    ],
)

CLEAN.chat(
    [],
    "glm45",
    "ko",
    "Clean: Korean legal answer about a traffic-accident settlement.",
    user="교통사고 합의금은 보통 어떻게 정해져요?",
    reasoning="치료비, 휴업손해, 위자료, 과실비율.",
    content=(
        "합의금은 크게 **치료비, 휴업손해(일을 못 해서 줄어든 소득), 위자료**로 구성되고, 여기에 양측의 "
        "과실비율이 반영됩니다. 경상이라면 보험사 기준 위자료가 정해져 있어 큰 차이가 없지만, 후유장해가 "
        "남는다면 장해 등급에 따라 금액이 크게 달라집니다. 치료가 끝나기 전에 서둘러 합의하지 말고, "
        "필요하면 손해사정사나 변호사와 상담해 보세요."
    ),
)

CLEAN.chat(
    [],
    "qwen3_30b",
    "ko",
    "Clean: Korean coding answer with a fenced shell block.",
    user="git에서 작업 중인 변경사항을 잠깐 치워 두고 싶어",
    reasoning="git stash, stash pop, 새 파일 포함 -u.",
    content=(
        '`git stash`를 쓰면 됩니다.\n\n```bash\ngit stash push -u -m "로그인 화면 작업 중"\n# 다른 작업 후\n'
        "git stash pop\n```\n\n`-u`는 아직 추적하지 않는 새 파일까지 함께 치워 둡니다. 여러 개를 저장했다면 "
        "`git stash list`로 확인한 뒤 `git stash pop stash@{1}`처럼 골라서 꺼낼 수 있습니다."
    ),
)

CLEAN.chat(
    [],
    "hunyuan",
    "ko",
    "Clean: Korean travel answer from Hunyuan with parsers configured.",
    user="교토에서 단풍 보기 좋은 시기는 언제예요?",
    reasoning="11월 중순~하순, 고도에 따라 차이.",
    content=(
        "교토 단풍은 보통 **11월 중순부터 12월 초**가 절정입니다. 시내 중심부는 11월 하순이 가장 예쁘고, "
        "산 쪽에 있는 다카오나 오하라는 1~2주 빨리 물듭니다. 도후쿠지나 에이칸도 같은 명소는 아침 일찍 "
        "가야 사람이 적습니다."
    ),
)

CLEAN.resp(
    [],
    "gpt5",
    "ko",
    "Clean: Korean Responses final answer about a savings account.",
    user="ISA 계좌가 뭐고 누구한테 유리해요?",
    client=RENDERS,
    items=[
        RS(None, []),
        MSG(
            "ISA(개인종합자산관리계좌)는 예금·펀드·ETF 등을 한 계좌에 담아 운용하고, 만기 시 순이익에서 "
            "**일정 금액까지 비과세**, 초과분은 9.9% 분리과세를 받는 절세 계좌입니다. 의무 가입 기간이 3년이라 "
            "당장 쓸 돈이 아닌 여유 자금을 장기로 굴리려는 분, 특히 금융소득종합과세가 걱정되는 분에게 유리합니다.",
            "final_answer",
        ),
    ],
)

CLEAN.msg_stream(
    [],
    "claude",
    "ko",
    "Clean: Korean Messages stream with thinking and text blocks.",
    user="이직할 때 연봉 협상은 어떻게 해야 하나요?",
    thinking=1024,
    blocks=[
        TH("현재 연봉 근거, 시장 시세, 희망 연봉 범위, 총보상."),
        TX(
            "연봉 협상은 **숫자를 먼저 준비한 쪽**이 유리합니다.\n\n"
            "1. 같은 직무·연차의 시장 시세를 채용 플랫폼이나 지인을 통해 파악하세요.\n"
            "2. 희망 연봉은 범위로 말하되, 하한선은 받아들일 수 있는 최저치보다 조금 높게 잡으세요.\n"
            "3. 기본급뿐 아니라 성과급, 스톡옵션, 복지까지 **총보상**으로 비교하세요.\n"
            "4. 제안을 받으면 바로 답하지 말고 하루 정도 검토할 시간을 요청해도 괜찮습니다."
        ),
    ],
)

CLEAN.chat(
    [],
    "gemma4",
    "ko",
    "Clean: Korean medical answer from Gemma 4 with its parser.",
    user="독감 예방접종은 언제 맞는 게 좋아요?",
    tkw={"enable_thinking": True},
    reasoning="10~11월, 항체 형성 2주.",
    content=(
        "항체가 생기는 데 약 2주가 걸리기 때문에, 유행이 시작되기 전인 **10월부터 11월 사이**에 맞는 것이 "
        "좋습니다. 65세 이상, 임신부, 만성질환자는 무료 접종 대상인 경우가 많으니 보건소나 지정 병원에서 "
        "확인해 보세요."
    ),
)

CLEAN.chat(
    [],
    "minimax_m2",
    "ko",
    "Clean: Korean math answer.",
    user="주사위 두 개를 던져서 합이 7이 나올 확률은?",
    reasoning="6/36 = 1/6.",
    content="합이 7이 되는 경우는 (1,6), (2,5), (3,4), (4,3), (5,2), (6,1)의 6가지이므로 확률은 6/36 = **1/6**입니다.",
)

CLEAN.chat(
    [],
    "qwen3",
    "ko",
    "Clean: Korean HR answer.",
    user="주 52시간제에서 연장근로는 최대 몇 시간까지 가능해요?",
    reasoning="법정 40시간 + 연장 12시간.",
    content=(
        "법정 근로시간은 주 40시간이고, 당사자가 합의하면 **주 12시간까지** 연장근로를 할 수 있습니다. "
        "그래서 휴일근로를 포함해 한 주 최대 52시간이 됩니다. 연장근로에는 통상임금의 50% 이상을 가산해 "
        "지급해야 합니다."
    ),
)

# ================================================================== clean, Chinese

CLEAN.chat(
    [],
    "qwen3",
    "zh",
    "Clean: Chinese coding answer with a fenced block.",
    user="Python 怎么创建虚拟环境？",
    reasoning="venv 模块。",
    content=(
        "用自带的 `venv` 模块即可：\n\n```bash\npython3 -m venv .venv\nsource .venv/bin/activate   "
        "# Windows 用 .venv\\Scripts\\activate\npip install -r requirements.txt\n```\n\n"
        "退出虚拟环境用 `deactivate`。建议把 `.venv` 加到 `.gitignore` 里。"
    ),
)

CLEAN.chat(
    [],
    "deepseek_r1_sglang",
    "zh",
    "Clean: Chinese legal answer, reasoning_content separated.",
    user="劳动仲裁的时效是多久？",
    rkey="reasoning_content",
    reasoning="劳动争议调解仲裁法第二十七条：一年。",
    content=(
        "根据《劳动争议调解仲裁法》第二十七条，劳动争议申请仲裁的时效期间为 **一年**，从当事人知道或者应当"
        "知道其权利被侵害之日起计算。劳动关系存续期间因拖欠劳动报酬发生争议的，不受一年限制，但劳动关系"
        "终止的，应当自终止之日起一年内提出。"
    ),
)

CLEAN.chat_stream(
    [],
    "kimi_k2",
    "zh",
    "Clean: Chinese travel answer streamed with separate reasoning chunks.",
    user="第一次去云南，十天怎么安排？",
    deltas=[
        Rs("昆明-大理-丽江-香格里拉，或加西双版纳。"),
        Cs(
            "一个比较经典的十天路线：\n\n- **第1-2天 昆明**：滇池、翠湖、云南民族村。\n"
            "- **第3-5天 大理**：洱海骑行、双廊、喜洲古镇、苍山。\n- **第6-8天 丽江**：古城、玉龙雪山、束河。\n"
            "- **第9-10天 香格里拉**：普达措国家公园、松赞林寺。\n\n香格里拉海拔较高，注意防高原反应。"
        ),
    ],
)

CLEAN.chat(
    [],
    "glm45_sglang",
    "zh",
    "Clean: Chinese recipe.",
    user="可乐鸡翅怎么做？",
    rkey="reasoning_content",
    reasoning="焯水、煎、加可乐酱油收汁。",
    content=(
        "1. 鸡翅两面划刀，冷水下锅加姜片焯水，捞出擦干。\n2. 少油把鸡翅煎到两面金黄。\n"
        "3. 加一罐可乐（约330毫升）、两勺生抽、一勺老抽，没过鸡翅即可。\n"
        "4. 大火烧开后转中小火炖15分钟，最后大火收汁，汁变浓稠挂在鸡翅上就好了。"
    ),
)

CLEAN.resp_stream(
    [],
    "gpt5_mini",
    "zh",
    "Clean: streamed Chinese Responses answer, final_answer phase.",
    user="信用卡分期划算吗？",
    client=RENDERS,
    items=[
        RS(None, []),
        MSG(
            "通常不太划算。分期的手续费看起来每期只有0.6%左右，但因为本金在逐月减少、手续费却按全额计算，"
            "换算成实际年化利率大约在 **13%～15%**。如果只是短期周转，尽量在免息期内全额还款。",
            "final_answer",
        ),
    ],
)

CLEAN.msg(
    [],
    "claude_opus",
    "zh",
    "Clean: Chinese Messages answer about a medical topic.",
    user="幽门螺杆菌阳性一定要治疗吗？",
    blocks=[
        TX(
            "目前的共识是，**成年人检出幽门螺杆菌阳性，一般建议根除治疗**，特别是有胃溃疡、胃癌家族史、"
            "长期服用阿司匹林等情况的人。治疗通常是四联疗法，疗程10到14天，停药4周后需要复查。"
            "具体方案请在消化科医生指导下进行。"
        )
    ],
)

CLEAN.chat(
    [],
    "ernie",
    "zh",
    "Clean: Chinese education answer from ERNIE with its parser.",
    user="高考填志愿，先选学校还是先选专业？",
    reasoning="看分数段和职业规划。",
    content=(
        "没有统一答案，可以按分数段来考虑：分数在名校线附近的，学校平台带来的资源和机会更重要，可以优先学校；"
        "分数中等的，建议优先选择就业前景清晰、自己感兴趣的专业。无论哪种，都要看清楚目标院校的转专业政策。"
    ),
)

CLEAN.chat(
    [],
    "seed_oss",
    "zh",
    "Clean: Chinese writing help.",
    user="帮我把“我们下周开会讨论这个问题”改得更正式一点。",
    reasoning="正式书面语。",
    content="可以写成：“我们拟于下周召开会议，就该问题进行专题讨论。”",
)

CLEAN.chat(
    [],
    "magistral",
    "zh",
    "Clean: Magistral with the mistral reasoning parser answering in Chinese.",
    user="一个数的3倍加上5等于32，这个数是多少？",
    reasoning="3x+5=32, x=9.",
    content="设这个数为 x，3x + 5 = 32，所以 3x = 27，**x = 9**。",
)

# ================================================================== positives, Korean / Chinese

STRUCT.chat(
    [SI],
    "glm45",
    "ko",
    "Korean: schema JSON followed by an extra explanatory sentence.",
    user="이 고객 문의 분류해 줘: '비밀번호 재설정 메일이 오지 않아요.'",
    rf=rf_schema("ticket"),
    reasoning="계정 문제, 우선순위 2.",
    content=J({"category": "account", "priority": 2, "title": "비밀번호 재설정 메일 미수신"})
    + "\n\n메일이 스팸함으로 분류되었을 수 있으니 고객에게 함께 안내해 주세요.",
)

STRUCT.chat_stream(
    [SI],
    "qwen3",
    "ko",
    "Korean stream: required 'steps' field missing from the recipe JSON.",
    user="계란말이 레시피를 JSON으로 줘",
    rf=rf_schema("recipe"),
    deltas=[
        Rs("제목, 인분, 재료, 단계."),
        C('{"title": "계란말이", "servings": 2, '),
        C('"ingredients": ["달걀 4개", "대파 약간", "당근 약간", "소금 한 꼬집"]}'),
    ],
)

STRUCT.chat(
    [SI],
    "qwen3_sglang",
    "zh",
    "Chinese: total given as a string with a currency symbol instead of a number.",
    user="提取发票信息：供应商“华南办公用品有限公司”，发票号HN-20261008，金额￥3,560.00，币种CNY，付款截止2026-11-15。",
    rf=rf_schema("invoice"),
    rkey="reasoning_content",
    reasoning="金额写成字符串了。",
    content=J(
        {
            "vendor": "华南办公用品有限公司",
            "invoice_number": "HN-20261008",
            "total": "￥3,560.00",
            "currency": "CNY",
            "due_date": "2026-11-15",
        }
    ),
)

RESP.resp(
    [SI],
    "gpt5",
    "ko",
    "Korean Responses: text.format json_object, but the final answer is prose before the JSON.",
    user="서울의 위도와 경도를 JSON 객체로 알려줘",
    text=TF_JSON_OBJECT,
    client=HIDES,
    items=[
        RS(None, []),
        MSG(
            "서울의 좌표는 다음과 같습니다. " + J({"latitude": 37.5665, "longitude": 126.978}),
            "final_answer",
        ),
    ],
)

STREAM.chat_stream(
    [MIX],
    "deepseek_r1",
    "ko",
    "Korean: a DeepSeek-R1 delta carries both reasoning and content at the boundary.",
    user="1년 적금 월 50만 원, 연 4% 단리면 이자가 얼마예요?",
    deltas=[
        Rs(
            "단리 적금 이자 = 월납입액 × 연이율 × (n(n+1)/2)/12 = 50만 × 0.04 × 78/12 = 13만 원. 세전."
        ),
        M(" 세후도 언급.", "세전 이자는"),
        Cs(
            " 약 **13만 원**입니다. 적금은 매달 넣은 돈의 예치 기간이 다르기 때문에 50만 원 × 4% × (78 ÷ 12)로 "
            "계산합니다. 이자소득세 15.4%를 떼면 약 10만 9,980원을 받게 됩니다."
        ),
    ],
)

STREAM.chat_stream(
    [MIX],
    "kimi_k2_sglang",
    "ko",
    "Korean: Kimi K2 on SGLang, reasoning_content and content in one delta.",
    user="실내에서 키우기 쉬운 식물 추천해 줘",
    rkey="reasoning_content",
    deltas=[
        Rs("스킨답서스, 산세베리아, 스투키, 몬스테라, 금전수."),
        M(" 빛과 물 조건도.", "초보자에게는"),
        Cs(
            " **스킨답서스, 산세베리아, 금전수**를 추천합니다. 셋 다 빛이 적어도 잘 버티고, 흙이 마르면 물을 주는 "
            "정도로 충분합니다. 과습이 가장 흔한 실패 원인이니 물은 부족한 듯 주세요."
        ),
    ],
)

STREAM.chat_stream(
    [MIX],
    "deepseek_v3_sglang",
    "zh",
    "Chinese: DeepSeek-V3.1 thinking stream with one mixed delta.",
    user="为什么飞机起飞时要打开遮光板？",
    rkey="reasoning_content",
    tkw={"thinking": True},
    deltas=[
        Rs("便于乘务员和乘客观察外部情况，紧急时判断；眼睛适应光线。"),
        M("整理成两点。", "主要有两个原因："),
        Cs(
            "一是让乘客和乘务员能看到机外情况，出现起火、漏油等异常时能及时发现；二是让眼睛提前适应外部光线，"
            "万一需要紧急撤离，能更快看清环境。"
        ),
    ],
)

RESP.resp(
    [B, L],
    "qwen3_noparser",
    "zh",
    "Chinese: vLLM Responses endpoint without reasoning parser; <think> block in output_text.",
    user="孩子不爱吃蔬菜怎么办？",
    items=[
        MSG(
            "<think>\n家长问孩子挑食。建议：一起做饭、切成小块混入、以身作则、不强迫。\n</think>\n\n"
            "可以试试这些办法：\n\n1. **让孩子参与**洗菜、摆盘，自己做的更愿意吃。\n"
            "2. 把蔬菜切碎放进饺子、蛋饼里。\n3. 大人带头吃，不要在饭桌上批评。\n"
            "4. 同一种蔬菜多尝试几次，很多孩子要接触十几次才会接受。"
        )
    ],
)

RESP.resp_stream(
    [B, L],
    "deepseek_r1_noparser",
    "ko",
    "Korean Responses stream: original R1 without parser; the lone end tag is split across output_text "
    "deltas.",
    user="등산할 때 무릎 보호하는 방법 알려줘",
    items=[
        MSG(
            [
                "사용자가 등산 시 무릎 보호법을 묻고 있다. 스틱, 내리막 보폭, 근력, 무릎 보호대.\n</th",
                "ink>\n\n",
                "등산할 때 무릎을 보호하려면:\n\n- **등산 스틱**을 쓰면 내리막에서 무릎 부담이 크게 줄어듭니다.\n"
                "- 내리막에서는 보폭을 좁히고 무릎을 살짝 굽힌 채 천천히 내려오세요.\n"
                "- 평소 허벅지 앞뒤 근육을 강화하는 스쿼트, 런지를 꾸준히 하세요.",
            ]
        )
    ],
)

TRUNC.chat_stream(
    [TR],
    "glm45",
    "zh",
    "Chinese stream cut by max_tokens.",
    user="详细介绍一下中国古代四大发明的影响。",
    max_tokens=160,
    deltas=[
        Rs("造纸、印刷、火药、指南针，各自影响。"),
        Cs(
            "四大发明对世界文明影响深远：\n\n**造纸术**使知识记录和传播的成本大幅降低，经阿拉伯传入欧洲后推动了"
            "教育普及。\n\n**印刷术**特别是活字印刷，让书籍可以大量复制，为欧洲的宗教改革和文艺复兴提供了"
            "条件。\n\n**火药**改变了战争形态，"
        ),
    ],
    finish="length",
)

MSGS.msg(
    [TR],
    "claude",
    "ko",
    "Korean Messages answer stopped by max_tokens.",
    user="조선 시대 과거 제도에 대해 자세히 설명해 줘",
    max_tokens=150,
    stop_reason="max_tokens",
    blocks=[
        TX(
            "조선의 과거 제도는 관리를 선발하는 국가 시험으로, 크게 **문과, 무과, 잡과**로 나뉘었습니다. "
            "문과는 다시 소과(생원시·진사시)와 대과로 구분되었고, 대과는 초시, 복시, 전시의 세 단계를 거쳐 "
            "최종 33명을 뽑았습니다. 정기 시험인 식년시는 3년마다 열렸고, 나라에 경사가 있을 때는"
        )
    ],
)

TRUNC.chat_stream(
    [FIR],
    "kimi_k2",
    "zh",
    "Chinese stream: the answer stayed in the reasoning section (no end delimiter), finish stop, no content.",
    user="推荐一部适合周末看的电影。",
    deltas=[Rs("推荐《海蒂和爷爷》：画面美、节奏舒缓，适合周末放松，全家都能看。")],
)

RESP.resp(
    [FIR],
    "gpt_oss",
    "ko",
    "Korean Responses: only a reasoning item holds the answer; status completed, no message.",
    user="비 오는 날 가기 좋은 서울 실내 데이트 장소 추천",
    items=[
        RS("국립중앙박물관, 코엑스 별마당도서관, 롯데월드 아쿠아리움, 예술의전당 전시 정도면 좋다.")
    ],
)

RESP.resp(
    [BAD],
    "gpt5",
    "ko",
    "Korean Responses: function_call misses the required employee_id.",
    user="내 연차 며칠 남았어?",
    tools=["get_leave_balance"],
    client=HIDES,
    items=[RS(None, []), FC("get_leave_balance", {"year": 2026})],
)

MSGS.msg(
    [BAD],
    "claude",
    "zh",
    "Chinese Messages: tool_use order_id violates the declared pattern.",
    user="帮我查订单 20261008-778 的物流。",
    tools=["get_order_status"],
    stop_reason="tool_use",
    blocks=[TU("get_order_status", {"order_id": "20261008-778"})],
)

MSGS.msg(
    [TXT],
    "hermes_notool",
    "ko",
    "Korean: /v1/messages endpoint without tool parser; Hermes markup in the text block.",
    user="이번 주 서울 날씨 알려줘",
    tools=["get_weather"],
    blocks=[
        TX('<tool_call>\n{"name": "get_weather", "arguments": {"city": "서울"}}\n</tool_call>')
    ],
)

RESP.resp(
    [TXT],
    "llama3_notool",
    "zh",
    "Chinese: Responses output_text is a bare Llama-3 style call JSON for a declared tool.",
    user="查一下腾讯的股价",
    tools=["get_stock_quote"],
    items=[MSG('{"name": "get_stock_quote", "parameters": {"ticker": "0700.HK"}}')],
)

RESP.resp_stream(
    [CR],
    "gpt5",
    "ko",
    "Korean Responses stream: commentary + function call, client renders phases.",
    user="제주에서 김포 가는 내일 오후 항공편 찾아줘. 날짜는 2026-10-08",
    tools=["search_flights"],
    client=RENDERS,
    items=[
        RS(None, []),
        MSG("내일 오후 제주→김포 항공편을 찾아볼게요.", "commentary"),
        FC("search_flights", {"origin": "CJU", "destination": "GMP", "date": "2026-10-08"}),
    ],
)

RESP.resp_stream(
    [CR, P],
    "gpt5_mini",
    "zh",
    "Chinese Responses stream: commentary + final_answer, rendered together.",
    user="帮我把上面那段英文邮件总结成三点。",
    client=RENDERS,
    items=[
        RS(None, []),
        MSG("我先通读一下邮件内容。", "commentary"),
        MSG(
            "邮件要点：\n\n1. 项目上线时间推迟到11月20日；\n2. 需要我方在周五前提供测试账号；\n"
            "3. 下周二召开联合评审会议。",
            "final_answer",
        ),
    ],
)

RESP.resp_stream(
    [P],
    "gpt_oss",
    "ko",
    "Korean Responses stream: the final message opens with a progress sentence.",
    user="전기차 충전 요금 얼마나 해요?",
    items=[
        RS("EV charging price in Korea."),
        MSG(
            "관련 요금 정보를 확인해 보겠습니다.\n\n공공 급속충전기는 kWh당 대략 **300원대 후반**, 완속충전기는 "
            "200원대 후반에서 300원대 초반 수준입니다. 아파트 완속충전기는 계약 방식에 따라 더 저렴할 수 있어요."
        ),
    ],
)

TOOLS.chat(
    [BAD],
    "qwen3",
    "ko",
    "Korean: structured call to search_recipes is undeclared (declared tool is find_recipes).",
    user="냉장고에 두부랑 애호박 있는데 뭐 해 먹지?",
    tools=["find_recipes"],
    reasoning="레시피 검색.",
    content=None,
    tool_calls=[("search_recipes", {"ingredients": ["두부", "애호박"]})],
    finish="tool_calls",
)

TOOLS.chat(
    [TXT],
    "llama3_notool",
    "ko",
    "Korean: whole content is a bare Llama-3 call JSON for a declared tool.",
    user="카카오 주가 알려줘",
    tools=["get_stock_quote"],
    content='{"name": "get_stock_quote", "parameters": {"ticker": "035720", "exchange": "KRX"}}',
)

PRE.chat(
    [P],
    "glm45_sglang",
    "zh",
    "Chinese: '我先确认一下最新的规定。' opens the answer.",
    user="现在出境游可以带多少现金？",
    rkey="reasoning_content",
    reasoning="人民币2万元，外币等值5000美元。",
    content=(
        "我先确认一下最新的规定。\n\n按照现行规定，出境时每人可携带人民币现钞 **2万元** 以内；外币现钞折合 "
        "**5,000美元** 以内无需申报，超过则需要向海关申报，超过1万美元还需要银行出具的携带证。"
    ),
)

PRE.chat_stream(
    [P],
    "qwen3",
    "ko",
    "Korean stream: '잠시만요, 최신 기준을 찾아볼게요.' opens the answer.",
    user="1인 가구 전기요금 평균 얼마 정도 나와요?",
    deltas=[
        Rs("1인 가구 월 200kWh 내외, 요금 3만원 안팎."),
        Cs(
            "잠시만요, 최신 기준을 찾아볼게요.\n\n1인 가구는 한 달에 보통 **150~250kWh** 정도를 쓰고, 요금은 "
            "여름·겨울 냉난방 여부에 따라 **2만~4만 원** 선입니다. 누진제 구간을 넘지 않도록 에어컨과 전기장판 "
            "사용 시간을 조절하면 요금을 꽤 줄일 수 있습니다."
        ),
    ],
)

BOUND.chat(
    [B, L],
    "glm45_noparser",
    "ko",
    "Korean: GLM-4.5 without reasoning parser, <think> block with Korean reasoning in content.",
    user="고양이 사료는 하루에 몇 번 주는 게 좋아요?",
    content=(
        "<think>\n성묘 기준 하루 2~3회, 자율급식은 비만 위험. 아기 고양이는 더 자주.\n</think>\n"
        "성묘는 하루 **2~3번**에 나눠 주는 것이 일반적입니다. 사료를 계속 부어 두는 자율급식은 비만으로 "
        "이어지기 쉬우니, 하루 권장량을 정해 나눠 주세요. 생후 6개월 이전 아기 고양이는 하루 3~4번이 좋습니다."
    ),
)

BOUND.chat(
    [L],
    "hermes_notool",
    "ko",
    "Korean: untagged self-talk opens the answer ('사용자가 … 묻고 있다').",
    user="겨울철 실내 적정 습도가 몇 퍼센트예요?",
    content=(
        "사용자가 겨울철 실내 적정 습도를 묻고 있다. 일반적으로 40~60%를 권장한다.\n\n"
        "겨울철 실내 습도는 **40~60%**가 적당합니다. 너무 건조하면 호흡기 점막이 마르고, 60%를 넘으면 "
        "결로와 곰팡이가 생기기 쉽습니다."
    ),
)

BOUND.chat(
    [L],
    "qwen3_noparser",
    "zh",
    "Chinese: untagged self-talk ('好的，用户想知道…') before the answer; no delimiters.",
    user="怎么去除衣服上的油渍？",
    tkw={"enable_thinking": False},
    content=(
        "好的，用户想知道怎么去油渍。常用方法是洗洁精、小苏打或者专用去渍剂，要先处理再洗。\n\n"
        "衣服沾了油渍可以这样处理：先用纸巾吸掉多余的油，再在污渍处滴几滴**洗洁精**，用手轻轻揉搓，"
        "静置10分钟后用温水冲洗，最后正常机洗。顽固的旧油渍可以重复一次，或者用小苏打加少量水调成糊敷一会儿。"
    ),
)


# ================================================================== more hard negatives

HARD.chat(
    [],
    "deepseek_r1_0528",
    "zh",
    "Clean: Chinese explanation of R1's end tag, always inside inline code.",
    kind="tags-in-code",
    user="为什么 DeepSeek-R1 的输出里有时只有结束标签？",
    reasoning="解释模板预填开始标签。",
    content=(
        "因为 R1 的对话模板会在生成前预先写入 `<think>`，模型自己只输出推理内容和结束标签 `</think>`。"
        "所以如果服务端没有配置 `deepseek_r1` 推理解析器，你在回答里只会看到一个孤零零的 `</think>`。"
    ),
)

HARD.chat(
    [],
    "qwen3",
    "ko",
    "Clean: tools declared; a Korean answer shows an example call JSON in a fence with prose around it.",
    kind="call-json-explained",
    user="환율 변환 도구를 부를 때 인자는 어떤 형식이에요?",
    tools=["convert_currency"],
    reasoning="예시만 보여 달라는 요청.",
    content=(
        "인자는 금액과 두 통화 코드를 담은 JSON 객체입니다. 예를 들면 다음과 같습니다.\n\n"
        '```json\n{"name": "convert_currency", "arguments": {"amount": 100, "from_currency": "USD", '
        '"to_currency": "KRW"}}\n```\n\n통화 코드는 ISO 4217 형식의 대문자 세 글자로 적어야 합니다.'
    ),
)

HARD.chat(
    [],
    "qwen3_coder",
    "zh",
    "Clean: Qwen3-Coder XML call format shown in a fenced block, explained, tools declared.",
    kind="call-json-explained",
    user="Qwen3-Coder 的工具调用原始格式是什么？",
    tools=["read_file"],
    content=(
        "Qwen3-Coder 用 XML 风格的标签表示调用，原始输出大致如下：\n\n"
        "```xml\n<tool_call>\n<function=read_file>\n<parameter=path>\nREADME.md\n</parameter>\n</function>\n"
        "</tool_call>\n```\n\n在 vLLM 中需要使用 `qwen3_xml` 工具解析器，才能把它转换成结构化的 `tool_calls`。"
    ),
)

HARD.msg(
    [],
    "claude",
    "ko",
    "Clean: Korean Messages answer that names <thinking> only inside code spans.",
    kind="tags-in-code",
    user="Claude 답변에 태그가 섞여 나오면 어떻게 해요?",
    blocks=[
        TX(
            '시스템 프롬프트에서 `<thinking>` 같은 태그 이름을 직접 언급하지 말고, "응답에 내부용 XML 태그를 '
            '포함하지 마세요"처럼 일반적으로 지시하는 편이 낫습니다. 추론이 필요하다면 확장 사고(extended '
            "thinking)를 켜서 별도의 `thinking` 블록으로 받으세요."
        )
    ],
)

HARD.chat(
    [],
    "mistral",
    "ja",
    "Clean: Japanese explanation with [TOOL_CALLS] inside inline code; tools declared.",
    kind="call-json-explained",
    user="Mistralのツール呼び出しはどんな形式で出力されますか？",
    tools=["search_web"],
    content=(
        "Mistralのモデルは、ツールを呼び出すときに `[TOOL_CALLS]` トークンの後ろに関数名と引数のJSONを並べて"
        "出力します。vLLMでは `--tool-call-parser mistral` を指定すると、これが構造化された `tool_calls` に変換されます。"
    ),
)

HARD.chat(
    [],
    "glm45",
    "zh",
    "Clean: a JSON answer with no tools and no response_format declared.",
    kind="json-answer",
    user="把北京、上海、广州三个城市和它们的区号整理成 JSON。",
    reasoning="区号 010, 021, 020。",
    content=J({"北京": "010", "上海": "021", "广州": "020"}),
)

HARD.chat_stream(
    [],
    "qwen3_sglang",
    "ko",
    "Clean: reasoning_content deltas contain a literal <think> tag and self-talk; content deltas are clean.",
    kind="reasoning-field-only",
    user="라면 물은 몇 ml가 적당해요?",
    rkey="reasoning_content",
    deltas=[
        Rs("<think>사용자가 라면 물 양을 묻고 있다. 보통 500~550ml."),
        Cs(
            "대부분의 봉지 라면은 **500~550ml**가 적당합니다. 종이컵으로는 약 3컵이에요. 국물을 진하게 드시려면 "
            "조금 줄이세요."
        ),
    ],
)

HARD.chat(
    [],
    "gemma4",
    "en",
    "Clean: Gemma 4 channel tokens named inside inline code.",
    kind="tags-in-code",
    user="What tokens does Gemma 4 use for its thinking output?",
    tkw={"enable_thinking": True},
    reasoning="Explain channel tokens.",
    content=(
        "Gemma 4 turns thinking on with the `<|think|>` token in the system turn, and then writes its reasoning "
        "inside a channel that opens with `<|channel>thought` and closes with `<channel|>`. With the `gemma4` "
        "reasoning parser, vLLM moves that section out of the visible content."
    ),
)

# ================================================================== more clean

CLEAN.chat(
    [],
    "deepseek_r1",
    "ja",
    "Clean: Japanese answer from R1 with its parser.",
    user="円安になると家計にどんな影響がありますか？",
    reasoning="輸入物価上昇、海外旅行高、外貨資産は増える。",
    content=(
        "主な影響は次のとおりです。\n\n- 食料品やエネルギーなど**輸入品の値上がり**で生活費が上がりやすい。\n"
        "- 海外旅行や海外通販が割高になる。\n- 一方で、外貨預金や外国株式など**外貨建て資産の円換算額は増える**。"
    ),
)

CLEAN.msg_stream(
    [],
    "claude",
    "ja",
    "Clean: Japanese Messages stream with a thinking block.",
    user="在宅勤務で運動不足を解消するには？",
    thinking=1024,
    blocks=[
        TH("Short walks, stretching, stand-up meetings."),
        TX(
            "次のような工夫がおすすめです。\n\n- 始業前に10〜15分の**散歩**を「通勤」代わりにする\n"
            "- 1時間に1回立ち上がってストレッチする\n- 電話会議は立ったまま参加する\n"
            "- 昼休みにスクワットやかかと上げを数セット行う"
        ),
    ],
)

CLEAN.chat(
    [],
    "llama3",
    "ko",
    "Clean: Korean answer from a non-reasoning model.",
    user="이메일 제목 잘 쓰는 법 알려줘",
    content=(
        "좋은 이메일 제목은 **받는 사람이 열기 전에 무엇을 해야 하는지 알 수 있게** 씁니다.\n\n"
        "- 요청이 있으면 앞에 표시하세요: [검토 요청], [회신 필요]\n- 날짜와 대상을 구체적으로: "
        '"10/15 마감 3분기 보고서 초안 검토 요청"\n- 30자 안팎으로 짧게 유지하세요.'
    ),
)

CLEAN.chat(
    [],
    "gpt_oss",
    "ko",
    "Clean: gpt-oss chat answer in Korean with harmony parsing done by the engine.",
    user="운동 후 단백질은 언제 먹는 게 좋아요?",
    reasoning="Within a couple of hours; total daily intake matters more.",
    content=(
        "운동 후 **1~2시간 이내**에 20~30g 정도의 단백질을 먹으면 좋습니다. 다만 최근 연구들은 섭취 타이밍보다 "
        "하루 전체 단백질 섭취량(체중 1kg당 1.2~1.6g)이 더 중요하다고 봅니다."
    ),
)

CLEAN.chat(
    [],
    "hermes",
    "zh",
    "Clean: Chinese answer from a non-reasoning model.",
    user="怎样写好周报？",
    content=(
        "周报可以按“结果—问题—计划”三段写：\n\n1. **本周结果**：用数据说明完成了什么；\n"
        "2. **遇到的问题**：说明影响和需要的支持；\n3. **下周计划**：列出优先级最高的两三件事。\n\n"
        "篇幅控制在一屏以内，领导扫一眼就能抓住重点。"
    ),
)

CLEAN.resp(
    [],
    "gpt_oss_20b",
    "zh",
    "Clean: Chinese Responses answer from gpt-oss via vLLM; reasoning item then message.",
    user="晚上睡不着有什么办法？",
    items=[
        RS("Sleep hygiene tips."),
        MSG(
            "可以试试：固定起床时间；睡前一小时不看手机；卧室保持安静、偏凉；睡不着超过20分钟就起来做点放松的事，"
            "有困意再回床上；下午以后避免咖啡和浓茶。"
        ),
    ],
)

CLEAN.chat_stream(
    [],
    "glm45_sglang",
    "ko",
    "Clean: Korean stream with reasoning_content in separate chunks and a usage chunk.",
    user="분리수거할 때 헷갈리는 것들 알려줘",
    rkey="reasoning_content",
    usage_chunk=True,
    deltas=[
        Rs("영수증, 치킨 뼈, 깨진 유리, 스티로폼 오염, 페트병 라벨."),
        Cs(
            "자주 헷갈리는 항목입니다.\n\n- **영수증(감열지)**: 종이가 아니라 일반쓰레기\n"
            "- **치킨 뼈, 조개껍데기**: 음식물이 아니라 일반쓰레기\n- **깨진 유리**: 신문지로 싸서 일반쓰레기(양이 "
            "많으면 불연성 마대)\n- **페트병**: 내용물을 비우고 라벨을 떼서 투명 페트병 전용함에"
        ),
    ],
)

CLEAN.chat(
    [],
    "deepseek_v3",
    "zh",
    "Clean: Chinese HR answer from non-thinking mode.",
    user="试用期可以随时辞职吗？",
    tkw={"thinking": False},
    content=(
        "可以。根据《劳动合同法》第三十七条，劳动者在试用期内提前 **三日** 通知用人单位，就可以解除劳动合同，"
        "不需要说明理由。建议以书面形式通知并保留记录，同时办好工作交接。"
    ),
)

CLEAN.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: Korean finance answer with reasoning separated.",
    user="ETF랑 펀드 차이가 뭐예요?",
    reasoning="상장 거래, 수수료, 실시간 매매.",
    content=(
        "둘 다 여러 자산에 나눠 투자하는 상품이지만, **ETF는 주식처럼 거래소에서 실시간으로 사고팔 수 있고** "
        "보수가 낮은 편입니다. 일반 펀드는 하루 한 번 정해지는 기준가로 가입·환매하며, 판매사를 통해 거래합니다."
    ),
)

CLEAN.msg(
    [],
    "claude_opus",
    "en",
    "Clean: short Messages answer without thinking.",
    user="What's a good substitute for buttermilk?",
    blocks=[
        TX(
            "Stir 1 tablespoon of lemon juice or white vinegar into 1 cup of milk and let it sit for 5–10 "
            "minutes until slightly thickened. Plain yogurt thinned with a little milk also works."
        )
    ],
)

CLEAN.chat(
    [],
    "qwen3_30b",
    "zh",
    "Clean: Chinese math answer.",
    user="一件衣服先涨价10%再降价10%，现在的价格和原价相比怎样？",
    reasoning="1.1*0.9=0.99.",
    content="设原价为 100 元，涨价后 110 元，再降 10% 变成 99 元，所以现在比原价 **低 1%**。",
)
