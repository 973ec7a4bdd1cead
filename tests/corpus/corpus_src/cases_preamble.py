"""Interim progress sentences in front of final answers (chat.completions), and their negatives."""

from __future__ import annotations

from .shapes import Cs, Rs, Theme

T = Theme("preamble")
P = "preamble"

# ------------------------------------------------------------------ preamble

T.chat(
    [P],
    "qwen3",
    "en",
    "Opens with a progress sentence although no tool is called; the answer follows from memory.",
    user="How much is 1,000 euros in US dollars roughly?",
    tools=["convert_currency"],
    reasoning="Rate around 1.08-1.10 recently; answer approximately without tool.",
    content=(
        "Let me check the current exchange rate first.\n\n"
        "At a rate of roughly 1.08–1.10 dollars per euro, 1,000 EUR is about **$1,080–$1,100**. Your bank or "
        "card will add a spread of 1–3% on top of the mid-market rate, so budget a little more."
    ),
)

T.chat(
    [P],
    "llama3",
    "en",
    "'I'll search for…' progress sentence, then the answer; no tool call in the response.",
    user="How long should I wait to swim after eating?",
    tools=["search_web"],
    content=(
        "I'll search for the latest guidance on that.\n\n"
        "There's no need to wait a set time. The old 30-minute rule isn't backed by evidence; at most, a big "
        "meal might make hard swimming feel uncomfortable. Just avoid alcohol before swimming."
    ),
)

T.chat(
    [P],
    "deepseek_v3",
    "en",
    "'Sure, let me look that up first.' before the answer.",
    user="When does daylight saving time end in the US this year?",
    content=(
        "Sure, let me look that up first.\n\n"
        "In the US, daylight saving time ends on the **first Sunday of November** at 2:00 a.m. local time, "
        "when clocks go back one hour. In 2026 that's Sunday, November 1."
    ),
)

T.chat(
    [P],
    "qwen3",
    "ko",
    "'먼저 자료를 찾아보겠습니다.' opens the final answer.",
    user="청년도약계좌 가입 조건이 어떻게 되나요?",
    tools=["search_web"],
    reasoning="청년도약계좌: 만 19~34세, 개인소득 7,500만 원 이하, 가구소득 중위 250% 이하.",
    content=(
        "먼저 자료를 찾아보겠습니다.\n\n"
        "청년도약계좌는 다음 조건을 충족하면 가입할 수 있습니다.\n\n"
        "- **나이**: 만 19~34세(병역 이행 기간은 최대 6년까지 나이 계산에서 제외)\n"
        "- **개인소득**: 총급여 7,500만 원 이하\n"
        "- **가구소득**: 기준 중위소득 250% 이하\n\n"
        "매월 최대 70만 원까지 5년간 납입할 수 있고, 소득 구간에 따라 정부 기여금이 더해집니다."
    ),
)

T.chat(
    [P],
    "glm45",
    "ko",
    "'잠시만요, 확인해 보겠습니다.' before a Korean answer.",
    user="여권 재발급 하려면 뭐 챙겨가야 돼요?",
    reasoning="여권 재발급 준비물: 신분증, 여권용 사진 1매, 기존 여권, 수수료.",
    content=(
        "잠시만요, 확인해 보겠습니다.\n\n"
        "여권 재발급 시 준비물은 다음과 같습니다.\n\n"
        "- 신분증(주민등록증 또는 운전면허증)\n- 여권용 사진 1매(6개월 이내 촬영)\n"
        "- 기존 여권(유효기간이 남아 있는 경우)\n- 발급 수수료(10년 복수여권 58면 기준 5만 원)\n\n"
        "정부24에서 온라인으로 신청하고 수령만 방문하는 방법도 있습니다."
    ),
)

T.chat_stream(
    [P],
    "kimi_k2",
    "ko",
    "Streamed Korean answer opening with '관련 규정을 먼저 살펴보겠습니다.'",
    user="수습기간에도 최저임금을 다 받아야 하나요?",
    deltas=[
        Rs("수습 3개월 이내, 1년 이상 계약, 단순노무직 제외 시 최저임금의 90% 가능."),
        Cs(
            "관련 규정을 먼저 살펴보겠습니다.\n\n"
            "원칙적으로 수습기간에도 최저임금을 지급해야 합니다. 다만 **1년 이상 근로계약**을 맺은 경우에 한해 "
            "수습 시작 후 **3개월까지**는 최저임금의 90%를 지급할 수 있습니다. 단순 노무 업무로 고용노동부 "
            "장관이 정한 직종은 이 감액도 적용되지 않습니다."
        ),
    ],
)

T.chat(
    [P],
    "qwen3_sglang",
    "zh",
    "'我先查一下。' opens the answer.",
    user="上海落户的积分要求是多少？",
    rkey="reasoning_content",
    reasoning="上海居住证积分标准分值120分。",
    content=(
        "我先查一下。\n\n"
        "上海居住证积分的标准分值是 **120 分**。积分由年龄、学历、职称、在沪缴纳社保年限等指标累计，"
        "达到 120 分后可以享受子女在沪参加中高考等公共服务待遇。需要注意的是，居住证积分达标不等于落户，"
        "落户（居转户）还有单独的条件。"
    ),
)

T.chat(
    [P],
    "deepseek_r1",
    "zh",
    "'让我搜索一下最新的政策。' before the answer, with a search tool declared but not called.",
    user="现在个人养老金每年最多能存多少？",
    tools=["search_web"],
    reasoning="个人养老金年度缴费上限12000元。",
    content=(
        "让我搜索一下最新的政策。\n\n"
        "个人养老金目前每人每年缴费上限为 **12,000 元**，缴费可以在个税综合所得中扣除，"
        "领取时按 3% 的税率单独计税。资金可以用来购买符合规定的储蓄存款、理财产品、商业养老保险和公募基金。"
    ),
)

T.chat_stream(
    [P],
    "glm45",
    "zh",
    "Streamed Chinese answer opening with '好的，我来查一下相关数据。'",
    user="中国高铁运营里程现在有多少公里？",
    deltas=[
        Rs("截至2024年底约4.8万公里。"),
        Cs(
            "好的，我来查一下相关数据。\n\n截至 2024 年底，中国高铁运营里程约 **4.8 万公里**，"
            "占世界高铁总里程的三分之二以上。"
        ),
    ],
)

T.chat(
    [P],
    "qwen3",
    "ja",
    "'少々お待ちください。確認します。' opens a Japanese answer.",
    user="マイナンバーカードの更新はいつ必要ですか？",
    reasoning="カード本体は10回目の誕生日（18歳以上）、電子証明書は5回目の誕生日。",
    content=(
        "少々お待ちください。確認します。\n\n"
        "18歳以上の方の場合、マイナンバーカード本体の有効期限は発行日から **10回目の誕生日** まで、"
        "署名用・利用者証明用の電子証明書は **5回目の誕生日** までです。期限の2〜3か月前に"
        "通知書が届くので、市区町村の窓口で更新手続きをしてください。"
    ),
)

T.chat_stream(
    [P],
    "minimax_m2",
    "en",
    "Streamed answer opening with a progress sentence ('One moment — I'm checking the schedules now.').",
    user="How early should I get to the airport for an international flight?",
    deltas=[
        Rs("International: 3 hours typical guidance."),
        Cs(
            "One moment — I'm checking the schedules now.\n\n"
            "For international flights, aim to arrive **about 3 hours before departure**. Bag drop usually closes "
            "60 minutes before, and security plus passport control can take well over an hour at busy times."
        ),
    ],
)

T.chat(
    [P],
    "gpt_oss",
    "en",
    "Short progress sentence ('Checking the latest numbers now.') before the answer.",
    user="What's the current US federal minimum wage?",
    reasoning="$7.25/hour since 2009.",
    content=(
        "Checking the latest numbers now.\n\n"
        "The federal minimum wage is **$7.25 per hour**, unchanged since 2009. Many states and cities set "
        "higher minimums, and the higher one applies."
    ),
)

T.chat(
    [P],
    "deepseek_v3",
    "ko",
    "'최신 환율 정보를 조회해 보겠습니다.' opens the answer; the tool was declared but not called.",
    user="엔화 환율 지금 얼마 정도예요?",
    tools=["convert_currency"],
    content=(
        "최신 환율 정보를 조회해 보겠습니다.\n\n"
        "최근 원·엔 환율은 100엔당 대략 **900~950원** 수준에서 움직이고 있습니다. 실제 환전할 때는 "
        "은행 우대율에 따라 차이가 나니 환전 앱에서 당일 고시 환율을 확인하세요."
    ),
)

T.chat(
    [P],
    "kimi_k2",
    "zh",
    "'稍等，我帮你查询一下。' before the answer.",
    user="北京地铁最晚几点停运？",
    reasoning="多数线路末班车22:30-23:30之间。",
    content=(
        "稍等，我帮你查询一下。\n\n"
        "北京地铁各线路末班车时间不同，大多数线路的末班车在 **22:30 到 23:30** 之间发车，"
        "部分线路周五、周六会延长运营。建议出发前在“亿通行”App 里查看具体站点的末班车时间。"
    ),
)

T.chat(
    [P],
    "hermes",
    "en",
    "'I'm going to look this up to be sure.' opens the answer; no tools at all in the request.",
    user="Do I need a visa to visit Japan as a Canadian for two weeks?",
    content=(
        "I'm going to look this up to be sure.\n\n"
        "No. Canadian passport holders can visit Japan **visa-free for up to 90 days** for tourism or "
        "business meetings. You'll need a passport valid for the length of your stay, and you can fill in "
        "the Visit Japan Web form beforehand to speed up immigration and customs."
    ),
)

# ------------------------------------------------------------------ negatives

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: 'Let me know if you need anything else.' closes the answer; it is not an opening progress "
    "sentence.",
    kind="let-me-know",
    user="How do I undo my last git commit but keep the changes?",
    reasoning="git reset --soft HEAD~1.",
    content=(
        "Use a soft reset:\n\n```bash\ngit reset --soft HEAD~1\n```\n\n"
        "This removes the last commit but keeps its changes staged. Use `--mixed` instead if you want them "
        "unstaged. Let me know if you need anything else."
    ),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: the closing '더 궁금한 점이 있으면 말씀해 주세요.' is not a preamble.",
    kind="let-me-know",
    user="전입신고는 이사 후 며칠 안에 해야 하나요?",
    reasoning="14일 이내.",
    content=(
        "이사한 날로부터 **14일 이내**에 전입신고를 해야 합니다. 기한을 넘기면 과태료가 부과될 수 있고, "
        "전세라면 확정일자와 함께 빨리 해 두어야 보증금 보호에 유리합니다. 더 궁금한 점이 있으면 말씀해 주세요."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "zh",
    "Clean: answer first, closing offer at the end.",
    kind="let-me-know",
    user="护照过期了还能用来坐高铁吗？",
    reasoning="过期护照不能作为有效身份证件购票乘车。",
    content=(
        "不能。过期护照不属于有效身份证件，无法用来购票和进站。可以用身份证，"
        "或者到车站办理临时乘车身份证明。如果还有其他问题，随时告诉我。"
    ),
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: a progress sentence that accompanies a structured tool call (excluded by LABELS).",
    kind="call-with-text",
    user="Search for the best-reviewed budget mechanical keyboards.",
    tools=["search_web"],
    reasoning="Search.",
    content="Let me search for that.",
    tool_calls=[
        ("search_web", {"query": "best reviewed budget mechanical keyboard 2026", "max_results": 5})
    ],
    finish="tool_calls",
)

T.chat(
    [],
    "kimi_k2",
    "zh",
    "Clean: '我先查一下北京的天气。' accompanies a structured call.",
    kind="call-with-text",
    user="北京今天冷不冷？",
    tools=["get_weather"],
    reasoning="调用天气。",
    content="我先查一下北京的天气。",
    tool_calls=[("get_weather", {"city": "北京", "unit": "celsius"})],
    finish="tool_calls",
)

T.chat(
    [],
    "deepseek_v3",
    "en",
    "Clean: the answer starts with the answer ('Here are three options:' followed directly by them).",
    kind="preamble-lookalike",
    user="What are some good alternatives to a standing desk?",
    content=(
        "Here are three options:\n\n"
        "1. **Desk converter** – sits on your existing desk and lifts the keyboard and monitor.\n"
        "2. **Timed breaks** – stand or walk for 5 minutes every half hour; a phone timer is enough.\n"
        "3. **Kneeling chair or stool** – changes your posture without a new desk."
    ),
)

T.chat(
    [],
    "qwen3",
    "ja",
    "Clean: Japanese closing 'ご不明な点があればお知らせください。' at the end only.",
    kind="let-me-know",
    user="年末調整で生命保険料控除を受けるには何が必要？",
    reasoning="保険会社からの控除証明書。",
    content=(
        "保険会社から届く **生命保険料控除証明書** を、年末調整の書類（保険料控除申告書）と一緒に"
        "勤務先へ提出すれば控除を受けられます。証明書をなくした場合は保険会社に再発行を依頼してください。"
        "ご不明な点があればお知らせください。"
    ),
)

T.chat(
    [],
    "minimax_m2",
    "en",
    "Clean: an 'I'll' sentence in the middle of the answer is not an opening progress sentence.",
    kind="preamble-lookalike",
    user="My cat keeps scratching the sofa. What can I do?",
    reasoning="Scratching posts, deterrents, nail trims.",
    content=(
        "Give her a better option right next to the sofa: a tall, sturdy scratching post covered in sisal. "
        "Cats prefer posts that don't wobble and are tall enough for a full stretch. Cover the favourite sofa "
        "corner with double-sided tape for a few weeks and reward her when she uses the post. If you want, "
        "I'll suggest a few post designs that work well for large cats."
    ),
)

T.chat_stream(
    [],
    "qwen3_sglang",
    "ko",
    "Clean: answer-first Korean stream; the only '확인' is advice to the user at the end.",
    kind="preamble-lookalike",
    user="중고차 살 때 꼭 봐야 할 게 뭐예요?",
    rkey="reasoning_content",
    deltas=[
        Rs("사고 이력, 성능점검기록부, 주행거리, 침수 여부, 시운전."),
        Cs(
            "중고차를 살 때는 다음 네 가지를 꼭 보세요.\n\n"
            "1. **사고·침수 이력**: 보험개발원 카히스토리로 조회할 수 있습니다.\n"
            "2. **성능·상태점검기록부**: 판금·교환 부위를 확인합니다.\n"
            "3. **주행거리와 정비 이력**: 연식 대비 주행거리가 지나치게 적으면 의심해 보세요.\n"
            "4. **시운전**: 변속 충격, 소음, 핸들 쏠림을 직접 느껴 보세요.\n\n"
            "계약 전에 보증 기간과 환불 조건도 꼭 확인하세요."
        ),
    ],
)
