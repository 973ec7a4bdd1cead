"""More preamble positives and preamble-looking negatives in English, Korean, Chinese and Japanese.

Positives open the visible final answer with an interim progress sentence (the assistant announcing
that it is about to look something up, check, search, read or fetch) and make no structured tool
call. Negatives start with the answer itself, or use the same verbs for a finished result ("확인해
보니 …", "查了一下，…"), for advice to the user, as a gerund subject ("Checking tire pressure is …"),
or only in a closing offer ("Let me know …").
"""

from __future__ import annotations

from typing import Any

from .shapes import MSG, RS, TH, TX, Cs, Rs, Theme

T = Theme("preamble")
P = "preamble"


def case(
    labels: list[str],
    shape: str,
    profile: str,
    lang: str,
    note: str,
    user: str,
    text: str,
    reasoning: str | None = None,
    **kw: Any,
) -> None:
    """One case whose whole visible text is ``text``, in one of five shapes."""
    if shape == "chat":
        T.chat(labels, profile, lang, note, user=user, content=text, reasoning=reasoning, **kw)
    elif shape == "stream":
        deltas = ([Rs(reasoning)] if reasoning else []) + [Cs(text)]
        T.chat_stream(labels, profile, lang, note, user=user, deltas=deltas, **kw)
    elif shape == "resp":
        items = [RS(None, [])] if reasoning is None else [RS(reasoning)]
        T.resp(labels, profile, lang, note, user=user, items=items + [MSG(text)], **kw)
    elif shape == "resp_stream":
        T.resp_stream(labels, profile, lang, note, user=user, items=[RS(None, []), MSG(text)], **kw)
    elif shape == "msg":
        blocks = ([TH(reasoning)] if reasoning else []) + [TX(text)]
        T.msg(
            labels,
            profile,
            lang,
            note,
            user=user,
            blocks=blocks,
            thinking=1024 if reasoning else None,
            **kw,
        )
    elif shape == "msg_stream":
        T.msg_stream(labels, profile, lang, note, user=user, blocks=[TX(text)], **kw)
    else:
        raise ValueError(shape)


# ================================================================== preamble positives, English

EN_POS = [
    (
        "chat",
        "qwen3",
        "Opens with 'Let me pull up the latest timetable.' and then answers; no call.",
        "When does the last train leave Paddington for Oxford on weekdays?",
        "Let me pull up the latest timetable.\n\nOn weekdays the last direct GWR service to Oxford usually "
        "leaves Paddington shortly before midnight, but engineering works often change it, so confirm on the "
        "National Rail app on the day.",
        "Last train ~23:30-ish.",
        {"tools": ["search_web"]},
    ),
    (
        "chat",
        "deepseek_v3",
        "'One sec, looking that up.' opens the answer.",
        "How many vacation days do US employees get by law?",
        "One sec, looking that up.\n\nNone — US federal law doesn't require paid vacation at all. Paid time "
        "off is up to employers, though a few states and cities require paid sick leave.",
        None,
        {},
    ),
    (
        "chat",
        "glm45",
        "'Give me a moment to check the documentation.' before the answer.",
        "Does Postgres support generated columns?",
        "Give me a moment to check the documentation.\n\nYes. Since PostgreSQL 12 you can declare "
        "`GENERATED ALWAYS AS (expression) STORED` columns; virtual (non-stored) generated columns arrived "
        "later.",
        "Postgres 12 stored generated columns.",
        {},
    ),
    (
        "stream",
        "kimi_k2",
        "Streamed; 'Checking the release notes now…' opens the answer.",
        "Did Python 3.13 remove the GIL?",
        "Checking the release notes now…\n\nNot by default. Python 3.13 ships an optional free-threaded build "
        "(python3.13t) with the GIL disabled; the standard build still has it.",
        "Free-threaded build experimental in 3.13.",
        {},
    ),
    (
        "chat",
        "minimax_m2",
        "'I'm going to verify that against the current tax tables first.' opens the answer.",
        "What's the standard deduction for a single filer?",
        "I'm going to verify that against the current tax tables first.\n\nFor a single filer the standard "
        "deduction is roughly $15,000 for recent tax years; it's adjusted for inflation each year, so check "
        "the figure for the exact year you're filing.",
        "Around 15k.",
        {},
    ),
    (
        "chat",
        "hermes",
        "'Hang on, I'll search for the most recent figures.' with a search tool declared but "
        "not called.",
        "What's the population of Canada?",
        "Hang on, I'll search for the most recent figures.\n\nCanada's population passed 41 million in 2024 "
        "and has been growing by roughly a million a year, mostly through immigration.",
        None,
        {"tools": ["search_web"]},
    ),
    (
        "chat",
        "qwen3_30b",
        "'Sure — let me look into the fee schedule.' then the answer.",
        "How much does it cost to renew a US passport?",
        "Sure — let me look into the fee schedule.\n\nAn adult renewal by mail (form DS-82) costs $130 for the "
        "passport book, plus $60 if you want expedited service.",
        "130 book.",
        {},
    ),
    (
        "stream",
        "deepseek_r1",
        "Streamed 'Searching the catalog for you.' before the answer.",
        "Do you sell a USB-C cable longer than 3 meters?",
        "Searching the catalog for you.\n\nOur longest USB-C cable is 3 meters; for longer runs, an active "
        "USB-C extension cable is the usual option.",
        "Max 3 m.",
        {},
    ),
    (
        "chat",
        "qwen3_coder",
        "'Let me quickly review the file you mentioned.' with read_file declared but "
        "not called; the answer is given from the pasted snippet.",
        "Why does my config loader in loader.py ignore env vars? I pasted the function above.",
        "Let me quickly review the file you mentioned.\n\nThe function reads the YAML file last, so its values "
        "overwrite anything taken from the environment. Apply the environment overrides after loading the "
        "file instead.",
        "Order of precedence bug.",
        {"tools": ["read_file"]},
    ),
    (
        "chat",
        "gpt_oss",
        "'Running the numbers now.' opens the final answer.",
        "If I save $400 a month at 5% a year, how much will I have in 10 years?",
        "Running the numbers now.\n\nWith monthly compounding at 5% a year, $400 a month grows to about "
        "**$62,100** after 10 years, of which $48,000 is your own contributions.",
        "FV annuity 62.1k.",
        {},
    ),
    (
        "chat",
        "llama3",
        "'I'll look up the opening hours for you.' before the answer; tools declared, no call.",
        "Is the Louvre open on Tuesdays?",
        "I'll look up the opening hours for you.\n\nNo — the Louvre is closed every Tuesday. It opens the "
        "other days from 9:00, with late opening on Wednesdays and Fridays.",
        None,
        {"tools": ["search_web"]},
    ),
    (
        "resp",
        "gpt5",
        "Responses final message (no phase) opening with 'Fetching the current exchange rate…'.",
        "Roughly how many yen is 50 dollars?",
        "Fetching the current exchange rate…\n\nAt recent rates of about 145–155 yen per dollar, $50 is "
        "roughly **7,300–7,700 yen**.",
        None,
        {},
    ),
    (
        "msg",
        "claude",
        "Messages text block opening with 'Let me confirm the dosage guidance before answering.'",
        "Can adults take 1000 mg of paracetamol at once?",
        "Let me confirm the dosage guidance before answering.\n\nFor healthy adults, 1,000 mg in one dose is "
        "within the usual label limit, with at least 4 hours between doses and no more than 4,000 mg in 24 "
        "hours. People with liver problems or who drink heavily should stay lower.",
        "Standard dosing.",
        {},
    ),
    (
        "msg_stream",
        "claude_opus",
        "Streamed Messages answer opening with 'I'm checking the carrier's tracking page now.'",
        "Where's my parcel? The tracking number is in my last message.",
        "I'm checking the carrier's tracking page now.\n\nThe last scan shows it left the regional sorting "
        "centre this morning, so delivery is most likely tomorrow.",
        None,
        {},
    ),
    (
        "resp_stream",
        "gpt5_mini",
        "Streamed Responses final message opening with 'Let me find the relevant section first.'",
        "Is a landlord allowed to keep the deposit for normal wear and tear?",
        "Let me find the relevant section first.\n\nGenerally no. In most US states a landlord may deduct for "
        "damage beyond normal wear and tear — holes in walls, broken fixtures — but not for ordinary ageing "
        "like faded paint or lightly worn carpet.",
        None,
        {},
    ),
]

# ================================================================== preamble positives, Korean

KO_POS = [
    (
        "chat",
        "qwen3",
        "'잠깐만 기다려 주세요. 관련 자료를 찾아볼게요.' opens the answer.",
        "육아휴직 급여는 얼마나 나와요?",
        "잠깐만 기다려 주세요. 관련 자료를 찾아볼게요.\n\n육아휴직 급여는 통상임금에 비례해 지급되고 기간별로 "
        "월 상한액이 정해져 있습니다. 최근 개편으로 초기 몇 개월의 상한이 높아졌으니, 정확한 금액은 고용보험 "
        "홈페이지의 모의계산으로 확인하세요.",
        "통상임금 비례, 상한.",
        {},
    ),
    (
        "chat",
        "glm45",
        "'확인해 보겠습니다.' alone as the first sentence, then the answer.",
        "자동차 정기검사 주기가 어떻게 돼요?",
        "확인해 보겠습니다.\n\n비사업용 승용차는 출고 후 4년 뒤 첫 검사를 받고, 그 이후로는 2년마다 받습니다. "
        "검사 기간을 넘기면 과태료가 부과됩니다.",
        "신차 4년, 이후 2년.",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        "'최신 기준을 조회해 볼게요.' before the answer; no tool call.",
        "올해 최저임금이 시간당 얼마예요?",
        "최신 기준을 조회해 볼게요.\n\n최저임금은 매년 8월에 다음 해 금액이 고시됩니다. 정확한 금액은 "
        "최저임금위원회 홈페이지에서 연도별로 확인할 수 있습니다.",
        None,
        {"tools": ["search_web"]},
    ),
    (
        "stream",
        "qwen3_sglang",
        "Streamed '검색해 보겠습니다.' opener; client reads reasoning_content.",
        "서울 지하철 첫차는 몇 시에 다녀요?",
        "검색해 보겠습니다.\n\n서울 지하철은 대부분 노선에서 오전 5시 30분 전후에 첫차가 출발합니다. 역마다 "
        "조금씩 다르니 이용하실 역의 시간표를 확인하세요.",
        "05:30 전후.",
        {"rkey": "reasoning_content"},
    ),
    (
        "chat",
        "hunyuan",
        "'관련 법령을 먼저 찾아보겠습니다.' then the answer; lookup_statute declared, not called.",
        "퇴직금은 퇴사하고 며칠 안에 받아야 해요?",
        "관련 법령을 먼저 찾아보겠습니다.\n\n퇴직금은 퇴직한 날부터 **14일 이내**에 지급해야 합니다. 당사자 "
        "합의가 있으면 기일을 연장할 수 있지만, 합의 없이 늦어지면 지연이자가 붙습니다.",
        "14일.",
        {"tools": ["lookup_statute"]},
    ),
    (
        "chat",
        "kimi_k2",
        "'지금 바로 확인해 드릴게요.' opener.",
        "KTX 특실은 일반실보다 얼마나 비싸요?",
        "지금 바로 확인해 드릴게요.\n\n구간에 따라 다르지만 특실은 일반실보다 대략 **40% 안팎** 비쌉니다. "
        "서울–부산 기준으로 2만 원대 중반 정도 차이가 납니다.",
        "특실 약 40%.",
        {},
    ),
    (
        "stream",
        "minimax_m2",
        "Streamed '일정표를 살펴볼게요.' opener.",
        "올해 추석 연휴가 며칠부터 며칠까지예요?",
        "일정표를 살펴볼게요.\n\n추석 연휴는 추석 당일과 앞뒤 하루씩, 모두 사흘이 공휴일입니다. 주말과 "
        "겹치면 대체공휴일이 붙으니 달력에서 해당 연도를 확인하세요.",
        None,
        {},
    ),
    (
        "chat",
        "qwen3_30b",
        "'환율부터 확인해 보고 알려 드릴게요.' opener; convert_currency declared, not called.",
        "베트남 여행 가는데 50만 원이면 동으로 얼마쯤 돼요?",
        "환율부터 확인해 보고 알려 드릴게요.\n\n최근 환율로는 50만 원이 대략 **900만~950만 동** 정도입니다. "
        "현지 환전소 환율이 국내보다 나은 경우가 많습니다.",
        "대략 18~19동/원.",
        {"tools": ["convert_currency"]},
    ),
    (
        "chat",
        "qwen3_coder",
        "'파일을 먼저 열어 보겠습니다.' with read_file declared but not called.",
        "main.py에서 왜 ImportError가 나는지 봐 줄래? 에러 메시지는 위에 붙였어.",
        "파일을 먼저 열어 보겠습니다.\n\n에러 메시지를 보면 `utils` 패키지에 `__init__.py`가 없어서 상대 "
        "임포트가 실패하고 있습니다. 파일을 추가하거나 `python -m`으로 실행해 보세요.",
        "init 누락.",
        {"tools": ["read_file"]},
    ),
    (
        "chat",
        "deepseek_r1",
        "'네, 알아보겠습니다.' opener.",
        "해외에서 산 물건 관세 면제 한도가 얼마예요?",
        "네, 알아보겠습니다.\n\n해외 직구는 물품 가격 기준 **미화 150달러**(미국발은 200달러)까지 관세와 "
        "부가세가 면제됩니다. 여행자 휴대품은 별도로 800달러 한도가 적용됩니다.",
        "150/200.",
        {},
    ),
    (
        "stream",
        "glm45",
        "Streamed '잠시만요, 최근 공지를 찾아보고 있어요.' opener.",
        "건강검진 대상자 조회는 어디서 해요?",
        "잠시만요, 최근 공지를 찾아보고 있어요.\n\n국민건강보험공단 홈페이지나 'The건강보험' 앱에서 "
        "본인인증 후 조회할 수 있습니다. 공단 고객센터(1577-1000)로 물어봐도 됩니다.",
        None,
        {},
    ),
    (
        "resp",
        "gpt5",
        "Responses final message (no phase) opening with '자료를 검토해 보겠습니다.'",
        "청약 가점에서 무주택 기간은 언제부터 계산돼요?",
        "자료를 검토해 보겠습니다.\n\n무주택 기간은 만 30세부터 계산하고, 그 전에 결혼했다면 혼인신고일부터 "
        "계산합니다. 최대 15년까지 점수로 인정됩니다.",
        None,
        {},
    ),
    (
        "msg",
        "claude",
        "Messages text opening with '좋아요, 요금표를 확인해 볼게요.'",
        "택배 5kg 보내면 보통 얼마예요?",
        "좋아요, 요금표를 확인해 볼게요.\n\n택배사와 지역에 따라 다르지만 5kg 동일권역 기준 보통 5천~7천 원 "
        "선입니다. 편의점 택배가 방문 접수보다 조금 저렴한 편입니다.",
        None,
        {},
    ),
    (
        "msg_stream",
        "claude_opus",
        "Streamed Messages text opening with '정확한 수치를 찾아보는 중입니다.'",
        "우리나라 합계출산율 최근 수치가 어떻게 돼요?",
        "정확한 수치를 찾아보는 중입니다.\n\n최근 몇 년간 합계출산율은 0.7명대로 세계 최저 수준입니다. "
        "연도별 확정치는 통계청 발표를 참고하세요.",
        None,
        {},
    ),
    (
        "resp_stream",
        "gpt5_mini",
        "Streamed Responses final message opening with '약관을 읽어 보고 답변드리겠습니다.'",
        "이 카드 연회비 첫해 면제되는지 알려줘. 약관은 위에 붙였어.",
        "약관을 읽어 보고 답변드리겠습니다.\n\n붙여 주신 약관 3조에 따르면 첫해 연회비는 면제가 아니라, "
        "가입 후 3개월 안에 30만 원 이상 쓰면 돌려받는 조건입니다.",
        None,
        {},
    ),
    (
        "chat",
        "ernie",
        "'계산기로 정확히 계산해 볼게요.' opener with calculate declared but not called.",
        "월급 320만 원이면 4대보험 빼고 대충 얼마 받아요?",
        "계산기로 정확히 계산해 볼게요.\n\n부양가족이 없다고 가정하면 4대보험과 소득세를 빼고 대략 "
        "**280만 원 안팎**을 받습니다.",
        "약 12% 공제.",
        {"tools": ["calculate"]},
    ),
]

# ================================================================== preamble positives, Chinese

ZH_POS = [
    (
        "chat",
        "qwen3",
        "'稍等，我查一下。' opener.",
        "杭州到黄山的高铁要多久？",
        "稍等，我查一下。\n\n杭州东到黄山北的高铁最快大约 **1小时30分钟**，多数车次在1个半到2个小时之间。",
        "约1.5小时。",
        {},
    ),
    (
        "chat",
        "glm45",
        "'我来搜索一下相关规定。' opener; search tool declared, not called.",
        "带宠物坐高铁可以吗？",
        "我来搜索一下相关规定。\n\n目前普通旅客列车一般不允许携带猫狗等宠物上车，导盲犬除外。部分线路在试点"
        "宠物托运服务，出行前可以在12306上查询。",
        "原则上不行。",
        {"tools": ["search_web"]},
    ),
    (
        "chat",
        "deepseek_r1",
        "'让我先看看最新的数据。' opener.",
        "中国现在有多少人口？",
        "让我先看看最新的数据。\n\n根据国家统计局公布的数据，中国大陆总人口约 **14.1亿**，近几年略有下降。",
        "约14.1亿。",
        {},
    ),
    (
        "stream",
        "kimi_k2",
        "Streamed '正在为你查询……' opener.",
        "上海迪士尼的门票多少钱？",
        "正在为你查询……\n\n上海迪士尼门票按日期分档，平日票大约四百多元，节假日票价更高，具体以官方App为准。",
        None,
        {},
    ),
    (
        "chat",
        "qwen3_30b",
        "'好的，我去查一下时刻表。' opener.",
        "北京南站最早一班去天津的高铁几点？",
        "好的，我去查一下时刻表。\n\n北京南到天津的城际列车早上6点多就有，之后几乎每10到20分钟一班，车程约半小时。",
        "6点多。",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        "'我先确认一下汇率。' opener; convert_currency declared, not called.",
        "1000港币能换多少人民币？",
        "我先确认一下汇率。\n\n按最近的汇率，1000港币大约可以换 **910到930元** 人民币。",
        None,
        {"tools": ["convert_currency"]},
    ),
    (
        "stream",
        "qwen3_sglang",
        "Streamed '请稍候，我查阅一下官方说明。' opener.",
        "护照过期多久可以换发？",
        "请稍候，我查阅一下官方说明。\n\n护照在有效期不足六个月或已经过期时都可以申请换发，没有“过期多久就不能换”"
        "的限制，带身份证和旧护照到出入境管理窗口办理即可。",
        "随时可换发。",
        {"rkey": "reasoning_content"},
    ),
    (
        "chat",
        "minimax_m2",
        "'我来帮你找一找。' opener.",
        "有没有适合三岁孩子看的科普动画？",
        "我来帮你找一找。\n\n适合三岁左右的有《海底小纵队》《小猪佩奇》和《巧虎》，节奏慢、画面简单，每集时间也短。",
        "低龄科普动画。",
        {},
    ),
    (
        "chat",
        "qwen3_coder",
        "'先让我读一下这个文件。' with read_file declared but not called.",
        "package.json 里为什么装不上依赖？报错我贴在上面了。",
        "先让我读一下这个文件。\n\n从报错看是 peerDependencies 冲突：react 版本是19，但有个插件只支持18。可以升级这个"
        "插件，或者临时加 `--legacy-peer-deps` 安装。",
        "peer冲突。",
        {"tools": ["read_file"]},
    ),
    (
        "chat",
        "hunyuan",
        "'我马上查一下。' opener.",
        "个人所得税的起征点是多少？",
        "我马上查一下。\n\n目前综合所得的基本减除费用是每月 **5000元**，也就是一年6万元，另外还可以扣除专项附加扣除。",
        "5000。",
        {},
    ),
    (
        "stream",
        "deepseek_r1_sglang",
        "Streamed '收到，我去核实一下。' opener.",
        "高速公路节假日免费是从几点开始？",
        "收到，我去核实一下。\n\n节假日小型客车免费通行从假期第一天0点开始，到最后一天24点结束，高速公路以车辆"
        "驶离出口收费站的时间为准。",
        "0点至24点，以出口时间为准。",
        {"rkey": "reasoning_content"},
    ),
    (
        "resp",
        "gpt5",
        "Responses final message (no phase) opening with '让我检索一下最近的公告。'",
        "今年的英语四六级考试是几号？",
        "让我检索一下最近的公告。\n\n四六级考试一般在每年6月和12月各举行一次，具体日期以教育部考试中心当年发布的"
        "通知为准。",
        None,
        {},
    ),
    (
        "msg",
        "claude",
        "Messages text opening with '我先翻一下收费标准。'",
        "在银行办信用卡要年费吗？",
        "我先翻一下收费标准。\n\n多数普卡首年免年费，之后刷满一定次数（常见是每年6次）就能免次年年费；金卡、白金卡的"
        "年费规则各家差别较大。",
        None,
        {},
    ),
    (
        "msg_stream",
        "claude_opus",
        "Streamed Messages text opening with '稍等片刻，正在检索相关资料。'",
        "什么是碳中和？",
        "稍等片刻，正在检索相关资料。\n\n碳中和是指一段时间内排放的二氧化碳，通过植树造林、节能减排、碳捕集等方式"
        "全部抵消，实现净排放为零。",
        None,
        {},
    ),
    (
        "resp_stream",
        "gpt5_mini",
        "Streamed Responses final message opening with '我查一下再告诉你。'",
        "公积金贷款最多能贷多少？",
        "我查一下再告诉你。\n\n公积金贷款额度由各城市自己规定，一般和缴存余额、缴存年限挂钩，上限从几十万到一百多万"
        "不等，具体要看你所在城市公积金中心的规定。",
        None,
        {},
    ),
]

# ================================================================== preamble positives, Japanese

JA_POS = [
    (
        "chat",
        "qwen3",
        "'確認してみますね。' opens a Japanese answer.",
        "パスポートの申請にはどのくらいかかりますか？",
        "確認してみますね。\n\n申請から受け取りまでは、通常 **1週間から10日程度** です。繁忙期はもう少しかかります。",
        "約1週間。",
        {},
    ),
    (
        "stream",
        "glm45",
        "Streamed '少し調べてみます。' opener.",
        "東京タワーの高さは？",
        "少し調べてみます。\n\n東京タワーの高さは **333メートル** です。",
        None,
        {},
    ),
]

for lang, rows in (("en", EN_POS), ("ko", KO_POS), ("zh", ZH_POS), ("ja", JA_POS)):
    for shape, profile, note, user, text, reasoning, kw in rows:
        case([P], shape, profile, lang, note, user, text, reasoning, **kw)

# ================================================================== preamble-looking negatives (clean)

LOOK, BYE = "preamble-lookalike", "let-me-know"

EN_NEG = [
    (
        "chat",
        "qwen3",
        LOOK,
        "Clean: 'Here's what I found:' introduces the finished result; the answer "
        "follows immediately.",
        "What are the main differences between HTTP/2 and HTTP/3?",
        "Here's what I found:\n\n- **Transport:** HTTP/2 runs over TCP, HTTP/3 over QUIC (UDP).\n"
        "- **Head-of-line blocking:** a lost packet stalls all HTTP/2 streams; HTTP/3 streams are independent.\n"
        "- **Handshake:** QUIC combines the transport and TLS handshakes, so connections start faster.",
        "List differences.",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        LOOK,
        "Clean: 'Short answer: yes.' — the first sentence is the answer.",
        "Can I use my US driver's license to drive in Canada as a tourist?",
        "Short answer: yes. A valid US license is accepted for visitors in every Canadian province; carry "
        "proof of insurance as well.",
        None,
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: 'I checked the 2026 calendar: …' reports a finished check together with "
        "the answer in the same sentence.",
        "Is Christmas Day a Friday in 2026?",
        "I checked the 2026 calendar: Christmas Day falls on a Friday, so it's a long weekend.",
        "Dec 25 2026 Friday.",
        {},
    ),
    (
        "stream",
        "kimi_k2",
        LOOK,
        "Clean: 'Sure! The easiest way is…' starts with the answer.",
        "How do I split a PDF into separate pages on a Mac?",
        "Sure! The easiest way is Preview: open the PDF, show thumbnails, and drag each page to the desktop — "
        "every page becomes its own PDF.",
        "Preview drag.",
        {},
    ),
    (
        "chat",
        "minimax_m2",
        LOOK,
        "Clean: opens with 'Checking tire pressure is easiest…' — a gerund subject "
        "in advice, not the assistant's progress.",
        "How often should I check my tire pressure?",
        "Checking tire pressure is easiest once a month with a cheap gauge, when the tires are cold. Use the "
        "pressure on the sticker inside the driver's door, not the maximum printed on the tire.",
        "Monthly.",
        {},
    ),
    (
        "chat",
        "llama3",
        LOOK,
        "Clean: 'Searching for a job while employed…' — gerund subject, not a progress "
        "sentence; tools declared, none used.",
        "Any tips for job hunting while I still have a job?",
        "Searching for a job while employed takes some discretion: schedule interviews early or late in the "
        "day, keep applications off your work laptop, and don't update your LinkedIn headline until you've "
        "signed an offer.",
        None,
        {"tools": ["search_web"]},
    ),
    (
        "chat",
        "qwen3_30b",
        LOOK,
        "Clean: 'I'll be honest:' is a discourse marker before the answer, not "
        "an announcement of work to be done.",
        "Should I buy the base model or the Pro version of this laptop for web browsing?",
        "I'll be honest: for browsing, email and streaming, the base model is plenty. The Pro's extra cores "
        "and better screen only pay off for video editing or heavy development work.",
        "Base model.",
        {},
    ),
    (
        "chat",
        "deepseek_r1",
        BYE,
        "Clean: answer first; 'Let me know if you'd like the metric version.' closes it.",
        "How much water should I use for 1 cup of rice?",
        "Use about 1½ cups of water for 1 cup of long-grain white rice, a little less for jasmine. Let me know "
        "if you'd like the metric version.",
        "1.5:1.",
        {},
    ),
    (
        "stream",
        "gpt_oss",
        BYE,
        "Clean: streamed answer ending 'Let me know how it goes!'",
        "My basil keeps wilting. What am I doing wrong?",
        "Basil wilts mostly from too little water or too much direct midday sun. Water when the top of the "
        "soil is dry, give it morning sun, and pinch off flower buds. Let me know how it goes!",
        "Water and sun.",
        {},
    ),
    (
        "resp",
        "gpt5",
        LOOK,
        "Clean: Responses final message that starts 'Yes — …'.",
        "Did the IRS deadline move for hurricane-affected counties?",
        "Yes — the IRS usually postpones filing and payment deadlines for counties in federally declared "
        "disaster areas; the new dates are listed on its disaster-relief page for each state.",
        None,
        {},
    ),
    (
        "msg",
        "claude",
        LOOK,
        "Clean: Messages answer starting 'Sure, here are three options:' followed by them.",
        "Suggest some quick high-protein breakfasts.",
        "Sure, here are three options:\n\n1. Greek yogurt with nuts and berries\n2. Scrambled eggs on "
        "whole-grain toast\n3. Cottage cheese with sliced fruit",
        None,
        {},
    ),
    (
        "chat",
        "hermes",
        LOOK,
        "Clean: 'To check your credit score, …' is an instruction to the user.",
        "How can I see my credit score for free?",
        "To check your credit score, use the free score your bank or card issuer shows in its app, or pull "
        "your credit reports from AnnualCreditReport.com, which doesn't charge.",
        None,
        {},
    ),
    (
        "chat",
        "qwen3",
        BYE,
        "Clean: short answer ending with 'Let me know if anything's unclear.'",
        "What's the difference between affect and effect?",
        "*Affect* is usually the verb (the rain affected the game) and *effect* the noun (the rain had an "
        "effect). Let me know if anything's unclear.",
        "Verb/noun.",
        {},
    ),
    (
        "msg_stream",
        "claude_opus",
        LOOK,
        "Clean: streamed Messages answer that opens with the result of a calculation.",
        "What's 18% of 2,450?",
        "18% of 2,450 is **441**.",
        None,
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: 'Looking at your numbers, they cost the same' states the answer in the "
        "first sentence.",
        "Plan A is $45/month with 10 GB, plan B is $40/month with 8 GB plus $5 per extra GB. I use 9 GB. "
        "Which is cheaper?",
        "Looking at your numbers, they cost the same: 9 GB on plan B is $40 + $5 = $45, exactly plan A's "
        "price. Plan A wins if your usage ever goes above 9 GB.",
        "Equal at 9 GB.",
        {},
    ),
]

KO_NEG = [
    (
        "chat",
        "qwen3",
        LOOK,
        "Clean: '확인해 보니 1차 신청 마감은 보통 3월 중순입니다.' reports the result in "
        "the first sentence.",
        "국가장학금 1차 신청 마감이 언제예요?",
        "확인해 보니 1차 신청 마감은 보통 3월 중순입니다. 2차 신청은 재학생의 경우 한 번만 가능하니 가급적 1차에 "
        "신청하세요.",
        "1차 3월.",
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: '정리해 드리면 다음과 같습니다:' followed directly by the content.",
        "전세 계약할 때 필요한 서류 정리해 줘",
        "정리해 드리면 다음과 같습니다:\n\n- 임대인: 신분증, 등기권리증\n- 임차인: 신분증, 계약금\n- 공통: 등기부등본, "
        "건축물대장 확인",
        "서류 목록.",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        LOOK,
        "Clean: '결론부터 말씀드리면, 가능합니다.' — the answer comes first.",
        "외국인도 한국에서 주택청약 할 수 있어요?",
        "결론부터 말씀드리면, 일부 가능합니다. 국내에 거소 신고를 한 재외동포나 외국인 등록을 한 외국인은 청약통장을 "
        "만들 수 있지만, 무주택 세대주 요건 등 조건을 따져야 합니다.",
        None,
        {},
    ),
    (
        "stream",
        "kimi_k2",
        LOOK,
        "Clean: streamed answer starting '네, 됩니다.'",
        "휴대폰 요금으로 교통카드 충전 돼요?",
        "네, 됩니다. 통신사 소액결제로 모바일 교통카드를 충전할 수 있고, 월 결제 한도 안에서 쓸 수 있습니다.",
        "소액결제 가능.",
        {},
    ),
    (
        "chat",
        "minimax_m2",
        LOOK,
        "Clean: '찾아보니 …' with the finding in the same sentence.",
        "도서관 책 연체하면 어떻게 돼요?",
        "찾아보니 대부분의 공공도서관은 연체료 대신 연체한 일수만큼 대출을 정지합니다. 여러 권이면 권수만큼 "
        "정지 기간이 늘어나는 곳도 있습니다.",
        "대출 정지.",
        {},
    ),
    (
        "chat",
        "qwen3_30b",
        LOOK,
        "Clean: '알아본 결과, …' states the result immediately.",
        "반려견 동물등록 안 하면 벌금 있어요?",
        "알아본 결과, 2개월령 이상 반려견은 동물등록이 의무이고 등록하지 않으면 과태료가 부과됩니다. 가까운 "
        "동물병원에서 내장형 칩으로 등록할 수 있습니다.",
        None,
        {},
    ),
    (
        "chat",
        "deepseek_r1",
        LOOK,
        "Clean: '말씀하신 조건으로 계산해 보면 …' gives the computed answer in the same sentence.",
        "3억을 연 4%로 30년 원리금균등 상환하면 월 얼마예요?",
        "말씀하신 조건으로 계산해 보면 월 상환액은 약 **143만 원**입니다. 30년 동안 낸 이자는 2억 1천만 원 "
        "정도가 됩니다.",
        "PMT 약 1.43M.",
        {},
    ),
    (
        "chat",
        "hunyuan",
        LOOK,
        "Clean: opens with advice to the user ('먼저 보험사 고객센터에 …'), not the "
        "assistant's progress.",
        "접촉사고 났는데 뭐부터 해야 해요?",
        "먼저 보험사 고객센터에 사고 접수를 하세요. 그다음 현장 사진을 여러 각도로 찍고, 상대방 연락처와 보험사를 "
        "받아 두면 됩니다. 다친 사람이 있으면 112와 119에 바로 신고해야 합니다.",
        "보험 접수.",
        {},
    ),
    (
        "stream",
        "qwen3_sglang",
        BYE,
        "Clean: answer first, closing '더 필요한 게 있으면 알려 주세요.'",
        "우체국 등기 우편 조회는 어떻게 해요?",
        "우체국 홈페이지나 '우체국' 앱에서 등기번호 13자리를 입력하면 배송 단계를 볼 수 있습니다. 더 필요한 게 "
        "있으면 알려 주세요.",
        "번호 조회.",
        {"rkey": "reasoning_content"},
    ),
    (
        "chat",
        "ernie",
        BYE,
        "Clean: closing '궁금한 점 있으면 언제든 물어보세요.' only at the end.",
        "운전면허 갱신은 언제 해야 해요?",
        "1종·2종 보통면허는 10년마다(65세 이상은 5년) 적성검사나 갱신을 해야 하고, 기간은 만료일 전후 6개월입니다. "
        "궁금한 점 있으면 언제든 물어보세요.",
        "10년.",
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: '검색해 보시면' is advice to the user about where to search.",
        "대형 폐기물 버리려면 어떻게 해요?",
        "구청 홈페이지에서 '대형폐기물'을 검색해 보시면 온라인 신고 페이지가 나옵니다. 수수료를 결제하고 받은 "
        "번호를 스티커처럼 붙여서 지정한 날 내놓으면 됩니다.",
        None,
        {},
    ),
    (
        "resp",
        "gpt5",
        LOOK,
        "Clean: Responses final message opening with '확인 방법은 간단합니다:'.",
        "내 국민연금 예상 수령액 어떻게 알아봐요?",
        "확인 방법은 간단합니다: 국민연금공단 홈페이지나 '내 곁에 국민연금' 앱에서 본인인증을 하면 예상 연금액을 "
        "바로 볼 수 있습니다.",
        None,
        {},
    ),
    (
        "msg",
        "claude",
        LOOK,
        "Clean: noun '조회' in an answer-first sentence.",
        "자동차세 연납 할인 어디서 신청해요?",
        "조회와 신청 모두 위택스에서 할 수 있습니다. 1월에 연납하면 할인율이 가장 크고, 3월·6월·9월에도 신청할 수 "
        "있지만 할인 폭이 줄어듭니다.",
        None,
        {},
    ),
    (
        "chat",
        "qwen3",
        LOOK,
        "Clean: '살펴보면 세 가지 차이가 있습니다:' followed by the differences.",
        "적금이랑 예금 차이가 뭐예요?",
        "살펴보면 세 가지 차이가 있습니다:\n\n1. 예금은 목돈을 한 번에, 적금은 매달 나눠 넣습니다.\n2. 같은 금리라도 "
        "적금은 실제 이자가 더 적습니다.\n3. 적금은 중도해지 시 불이익이 더 큰 편입니다.",
        "차이 3가지.",
        {},
    ),
    (
        "msg_stream",
        "claude_opus",
        LOOK,
        "Clean: streamed Messages answer starting with the answer.",
        "전자레인지에 스테인리스 그릇 넣어도 돼요?",
        "안 됩니다. 금속은 전자파를 반사해서 불꽃이 튀거나 전자레인지가 고장 날 수 있습니다. 유리나 전자레인지용 "
        "표시가 있는 플라스틱 용기를 쓰세요.",
        None,
        {},
    ),
]

ZH_NEG = [
    (
        "chat",
        "qwen3",
        LOOK,
        "Clean: '查了一下，…' gives the result in the same sentence.",
        "驾照到期了多久之内要换证？",
        "查了一下，驾驶证有效期满前90日内就可以申请换证，过期一年内还能直接换，超过一年就要重新考科目一。",
        "90天内。",
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: '帮你整理如下：' followed directly by the list.",
        "出国旅游需要准备哪些证件？",
        "帮你整理如下：\n\n1. 有效期6个月以上的护照\n2. 目的地签证（免签国家除外）\n3. 往返机票和酒店订单\n"
        "4. 境外旅行保险",
        "证件清单。",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        LOOK,
        "Clean: '简单来说，…' — the answer itself.",
        "ETF和普通基金有什么区别？",
        "简单来说，ETF在交易所像股票一样实时买卖，费率较低；普通开放式基金按当天收盘后的净值申购赎回，费率通常"
        "更高。",
        None,
        {},
    ),
    (
        "stream",
        "kimi_k2",
        LOOK,
        "Clean: streamed answer that opens with '可以。'",
        "信用卡可以在ATM取现吗？",
        "可以。不过信用卡取现一般要收手续费，并且从取现当天就开始按日计息，没有免息期，能不用尽量不用。",
        "可以但有费用。",
        {},
    ),
    (
        "chat",
        "minimax_m2",
        LOOK,
        "Clean: '根据官方公布的标准，…' — answer-first.",
        "新生儿医保怎么办理？",
        "根据官方公布的标准，新生儿出生后可以凭出生医学证明和户口本，在当地医保经办窗口或线上政务平台办理参保，"
        "一般出生后90天内参保可以从出生当月起享受待遇。",
        "90天内。",
        {},
    ),
    (
        "chat",
        "deepseek_r1",
        LOOK,
        "Clean: opens with a suggestion to the user ('你可以先查一下…').",
        "怎么知道自己的社保有没有断缴？",
        "你可以先查一下社保缴费记录：在国家社会保险公共服务平台或当地人社App里登录，就能按月份看到每一笔缴费，"
        "中间有空白月份就说明断缴了。",
        "查缴费记录。",
        {},
    ),
    (
        "stream",
        "qwen3_sglang",
        BYE,
        "Clean: answer first, then '如果还有其他问题，欢迎继续问我。'",
        "电动车电池一般能用几年？",
        "铅酸电池一般能用2到3年，锂电池大约3到5年，具体要看充电习惯。如果还有其他问题，欢迎继续问我。",
        "2-5年。",
        {"rkey": "reasoning_content"},
    ),
    (
        "chat",
        "hunyuan",
        BYE,
        "Clean: closing offer '需要的话我可以再帮你细化。' at the end only.",
        "帮我列一个一周的减脂早餐。",
        "周一燕麦+鸡蛋，周二全麦面包+牛奶，周三玉米+豆浆，周四红薯+酸奶，周五杂粮粥+鸡蛋，周六紫薯+牛奶，周日"
        "蔬菜蛋饼。需要的话我可以再帮你细化。",
        "七天早餐。",
        {},
    ),
    (
        "chat",
        "ernie",
        LOOK,
        "Clean: noun '查询方法' in an answer-first sentence.",
        "怎么查自己名下有几张电话卡？",
        "查询方法如下：在微信里搜索“一证通查”小程序，或者登录工信部的“一证通查”服务，验证身份后就能看到名下所有"
        "手机号。",
        "一证通查。",
        {},
    ),
    (
        "chat",
        "qwen3_30b",
        LOOK,
        "Clean: starts with '让孩子…' (let the child …), advice to the parent, not "
        "'让我' progress.",
        "孩子写作业总是问我生字，我该怎么办？",
        "让孩子先自己查字典再来问你，查到的字让他写在小本子上，每周复习一次。这样既能养成独立学习的习惯，也能记得"
        "更牢。",
        "培养查字典习惯。",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        LOOK,
        "Clean: '稍微算一下就知道：…' — the computation and result are the answer.",
        "房贷100万，30年，利率3.5%，月供大概多少？",
        "稍微算一下就知道：按等额本息，月供大约 **4,490元**，30年总利息约61.7万元。",
        None,
        {},
    ),
    (
        "resp",
        "gpt5",
        LOOK,
        "Clean: Responses final message starting '好的，答案是…'.",
        "世界上最长的河流是哪条？",
        "好的，答案是尼罗河，全长约6,650公里；也有测量认为亚马孙河略长，两者一直存在争议。",
        None,
        {},
    ),
    (
        "msg",
        "claude",
        LOOK,
        "Clean: Messages answer starting with the answer.",
        "为什么飞机上不能用充电宝给手机充电？",
        "主要是防止锂电池过热起火：机舱密闭，一旦起火很难处理。所以民航规定充电宝只能随身携带、不能托运，飞行中"
        "也不能使用。",
        None,
        {},
    ),
    (
        "msg_stream",
        "claude_opus",
        LOOK,
        "Clean: streamed Messages answer that opens with the result.",
        "一斤等于多少克？",
        "一斤等于 **500克**。",
        None,
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: '我们来看一下数据' would be a preamble, but this answer instead opens "
        "with '从数据上看，…' and states the finding directly.",
        "今年手机出货量是涨了还是跌了？",
        "从你给的季度数据上看，前三个季度出货量同比分别增长2%、5%和3%，整体是小幅上涨。",
        "上涨。",
        {},
    ),
]

JA_NEG = [
    (
        "chat",
        "qwen3",
        LOOK,
        "Clean: '確認したところ、…' reports the result in the first sentence.",
        "住民税の納付期限はいつですか？",
        "確認したところ、普通徴収の場合は6月・8月・10月・翌年1月の年4回が一般的な納期です。自治体によって日付が少し"
        "異なります。",
        "年4回。",
        {},
    ),
    (
        "chat",
        "glm45",
        LOOK,
        "Clean: 'まとめると次のとおりです：' followed directly by the content.",
        "引っ越しのときに役所でする手続きは？",
        "まとめると次のとおりです：\n\n- 転出届（旧住所）\n- 転入届（新住所、14日以内）\n- 国民健康保険・児童手当の"
        "手続き",
        "手続き一覧。",
        {},
    ),
    (
        "chat",
        "deepseek_v3",
        BYE,
        "Clean: answer first, closing 'ほかに気になる点があれば聞いてください。'",
        "電子レンジで卵を温めてもいいですか？",
        "殻付きの卵や、ゆで卵をそのまま温めると破裂するので避けてください。ほかに気になる点があれば聞いてください。",
        None,
        {},
    ),
]

for lang, rows in (("en", EN_NEG), ("ko", KO_NEG), ("zh", ZH_NEG), ("ja", JA_NEG)):
    for shape, profile, kind, note, user, text, reasoning, kw in rows:
        case([], shape, profile, lang, note, user, text, reasoning, kind=kind, **kw)

# ================================================================== progress text next to a structured call (clean)

T.chat(
    [],
    "deepseek_v3",
    "zh",
    "Clean: '我查一下上海的天气。' accompanies a valid structured call.",
    user="上海明天会下雨吗？",
    tools=["get_weather"],
    content="我查一下上海的天气。",
    tool_calls=[("get_weather", {"city": "上海"})],
    finish="tool_calls",
    kind="call-with-text",
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: '잠시만요, 환율을 조회해 볼게요.' accompanies a valid structured call.",
    user="20만 엔이면 원화로 얼마예요?",
    tools=["convert_currency"],
    reasoning="convert_currency JPY→KRW.",
    content="잠시만요, 환율을 조회해 볼게요.",
    tool_calls=[
        ("convert_currency", {"amount": 200000, "from_currency": "JPY", "to_currency": "KRW"})
    ],
    finish="tool_calls",
    kind="call-with-text",
)

T.chat_stream(
    [],
    "qwen3",
    "en",
    "Clean: streamed 'Let me look that up.' followed by a structured call in the same response.",
    user="Any flights from LAX to JFK on 2026-12-19?",
    tools=["search_flights"],
    deltas=[
        Rs("Search flights LAX-JFK."),
        Cs("Let me look that up."),
        [
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "@id",
                        "type": "function",
                        "function": {
                            "name": "search_flights",
                            "arguments": '{"origin": "LAX", "destination": "JFK", "date": "2026-12-19"}',
                        },
                    }
                ]
            }
        ],
    ],
    finish="tool_calls",
    kind="call-with-text",
)

T.resp(
    [],
    "gpt5",
    "zh",
    "Clean: commentary progress sentence with a function call, client hides commentary.",
    user="帮我查一下订单CN-661209的物流。",
    tools=["get_order_status"],
    client={"reasoning_field": None, "renders_phases": False},
    items=[
        RS(None, []),
        MSG("我来查询一下这个订单的物流状态。", "commentary"),
        {"kind": "function_call", "name": "get_order_status", "args": '{"order_id":"CN-661209"}'},
    ],
    kind="phase-hidden",
)
