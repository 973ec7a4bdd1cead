"""Ordinary clean exchanges across families, APIs, languages and topics."""

from __future__ import annotations

from .shapes import MSG, RS, TH, TX, Cs, Rs, Theme

T = Theme("clean")

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: cooking answer; reasoning separated by the qwen3 parser.",
    user="Why is my rice always mushy and how do I fix it?",
    reasoning="Too much water, not rinsing, lifting lid, not resting.",
    content=(
        "Mushy rice usually means too much water or too much stirring. Try this:\n\n"
        "1. **Rinse** the rice until the water runs almost clear to remove surface starch.\n"
        "2. **Measure**: for long-grain white rice use about 1 : 1.25 rice to water by volume (less than the "
        "bag often says).\n"
        "3. Bring to a boil, cover, drop to the lowest heat and **don't lift the lid** for 12–15 minutes.\n"
        "4. Take it off the heat and let it **rest covered for 10 minutes**, then fluff with a fork."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "ko",
    "Clean: Korean legal answer, reasoning field separate.",
    user="상속 포기는 언제까지 해야 해요?",
    reasoning="민법 1019조: 상속개시 있음을 안 날부터 3개월 내.",
    content=(
        "상속 포기는 **상속이 개시되었음을 안 날부터 3개월 이내**에 가정법원에 신고해야 합니다(민법 제1019조). "
        "보통 사망 사실을 안 날이 기준이 됩니다.\n\n"
        "빚이 재산보다 많은지 확실하지 않다면, 같은 기간 안에 **한정승인**을 선택하는 방법도 있습니다. "
        "한정승인은 물려받는 재산 범위 안에서만 빚을 갚는 제도입니다."
    ),
)

T.chat(
    [],
    "glm45",
    "zh",
    "Clean: Chinese health answer.",
    user="高血压患者饮食上要注意什么？",
    reasoning="低盐、DASH饮食、限酒、控制体重。",
    content=(
        "高血压患者饮食可以注意以下几点：\n\n"
        "1. **控盐**：每天食盐不超过5克，少吃咸菜、腊肉和加工食品。\n"
        "2. **多吃蔬果和全谷物**，增加钾的摄入（肾功能不全者需遵医嘱）。\n"
        "3. **限制饮酒**，最好不喝。\n4. 控制体重，少吃油炸和高脂食物。\n\n"
        "饮食调整不能代替药物，请按医生要求规律服药并监测血压。"
    ),
)

T.chat(
    [],
    "gpt_oss",
    "en",
    "Clean: coding answer with a fenced Python block.",
    user="How do I format a float to two decimal places with a thousands separator in Python?",
    reasoning="f-string with ,.2f",
    content=(
        "Use the `,` and `.2f` format specifiers together:\n\n"
        '```python\namount = 1234567.891\nprint(f"{amount:,.2f}")  # 1,234,567.89\n```\n\n'
        "For locale-aware formatting (e.g. `1.234.567,89` in German), use `locale.format_string` or the Babel "
        "library instead."
    ),
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: Korean HR answer.",
    user="육아휴직은 최대 얼마나 쓸 수 있나요?",
    reasoning="자녀 1명당 1년, 부모 모두 3개월 이상 사용 시 1년 6개월로 연장.",
    content=(
        "육아휴직은 자녀 1명당 기본 **1년**입니다. 부모가 각각 3개월 이상 육아휴직을 사용하면 각자 최대 "
        "**1년 6개월**까지 늘어납니다. 대상은 만 8세 이하 또는 초등학교 2학년 이하 자녀를 둔 근로자이며, "
        "여러 번 나누어 쓸 수도 있습니다."
    ),
)

T.chat(
    [],
    "qwen3_sglang",
    "zh",
    "Clean: Chinese finance explanation, reasoning_content separated.",
    user="基金定投为什么能降低风险？",
    rkey="reasoning_content",
    reasoning="平均成本法：价格低时买入份额多。",
    content=(
        "定投的核心是**平均成本**：每期投入固定金额，价格低时买到的份额多，价格高时买到的份额少，"
        "长期下来持仓成本会被摊平，不必猜测买点。\n\n"
        "但要注意，定投只是降低了择时风险，并不能消除市场下跌的风险；选择长期向上的品种、坚持足够长的时间"
        "才是关键。"
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "ja",
    "Clean: Japanese travel answer from a non-thinking request.",
    user="大阪で一日だけ時間があったら、どこを回るのがおすすめ？",
    tkw={"thinking": False},
    content=(
        "一日なら、次のようなルートがおすすめです。\n\n"
        "- **午前**：大阪城公園を散策し、天守閣へ。\n- **昼**：黒門市場で海鮮や串焼きを食べ歩き。\n"
        "- **午後**：新世界と通天閣、串カツで一休み。\n- **夜**：道頓堀でたこ焼きとグリコサインを見て締めくくり。\n\n"
        "移動は大阪メトロの1日乗車券「エンジョイエコカード」が便利です。"
    ),
)

T.chat(
    [],
    "llama3",
    "en",
    "Clean: short math answer, no reasoning model.",
    user="What's the formula for compound interest?",
    content=(
        "A = P(1 + r/n)^(nt), where **P** is the principal, **r** the annual interest rate (as a decimal), "
        "**n** the number of times interest is compounded per year, and **t** the number of years. "
        "For example, $1,000 at 5% compounded monthly for 10 years grows to about $1,647."
    ),
)

T.chat(
    [],
    "granite",
    "ko",
    "Clean: Granite with thinking=True and the granite reasoning parser; headers removed from content.",
    user="하루에 물을 얼마나 마셔야 하나요?",
    tkw={"thinking": True},
    reasoning="General guidance ~1.5-2L, depends on activity, climate.",
    content=(
        "일반적으로 성인은 음식으로 섭취하는 수분을 포함해 하루 **1.5~2리터** 정도의 물을 권장합니다. "
        "운동을 많이 하거나 더운 날에는 더 필요합니다. 소변 색이 옅은 노란색이면 충분히 마시고 있다는 신호입니다."
    ),
)

T.chat(
    [],
    "hunyuan",
    "zh",
    "Clean: Hunyuan with hunyuan_a13b parser; answer tags removed.",
    user="第一次去西安，有哪些必吃的小吃？",
    reasoning="肉夹馍、羊肉泡馍、凉皮、biangbiang面、甑糕。",
    content=(
        "推荐这几样：\n\n- **肉夹馍**：腊汁肉配白吉馍。\n- **羊肉泡馍**：自己掰馍，讲究“一口汤”或“干泡”。\n"
        "- **凉皮**：夏天必备，酸辣爽口。\n- **biangbiang面**：宽面泼油辣子。\n- **甑糕**：糯米红枣，早餐常见。\n\n"
        "回民街游客多，想吃地道的可以去洒金桥一带。"
    ),
)

T.chat(
    [],
    "ernie",
    "en",
    "Clean: ERNIE-4.5 Thinking with the ernie45 parser; reasoning and <response> wrapper removed.",
    user="Why do leaves change color in autumn?",
    reasoning="Chlorophyll breaks down, carotenoids revealed, anthocyanins produced.",
    content=(
        "As days shorten, trees stop making chlorophyll, the green pigment. As it breaks down, yellow and orange "
        "carotenoids that were there all along become visible. Some trees also produce new red and purple "
        "pigments called anthocyanins, especially after sunny days and cool nights — which is why some autumns "
        "are more vivid than others."
    ),
)

T.chat(
    [],
    "seed_oss",
    "en",
    "Clean: Seed-OSS with the seed_oss reasoning parser.",
    user="Rewrite this sentence to sound more professional: 'we messed up the deadline, sorry'",
    reasoning="Own the mistake, concise, propose next step.",
    content='"We missed the agreed deadline, and I apologize for the inconvenience. We\'ll share a revised timeline by tomorrow."',
)

T.chat(
    [],
    "magistral",
    "ko",
    "Clean: Magistral with the mistral reasoning parser; [THINK] section removed from content.",
    user="1부터 100까지 자연수의 합은?",
    reasoning="n(n+1)/2 = 5050.",
    content="가우스의 방법으로 계산하면 1 + 100 = 101이 50쌍이므로 합은 **5,050**입니다.",
)

T.chat(
    [],
    "gemma4",
    "zh",
    "Clean: Gemma 4 with the gemma4 reasoning parser and thinking on.",
    user="蒸鱼怎样才能不腥？",
    tkw={"enable_thinking": True},
    reasoning="去腥：去黑膜、姜葱料酒腌、水开再蒸、倒掉蒸鱼水。",
    content=(
        "几个关键点：\n\n1. 清理干净鱼腹内的**黑膜**和血线；\n2. 用姜片、葱段和少许料酒腌10分钟；\n"
        "3. **水开后再上锅**，大火蒸8到10分钟；\n4. 蒸好后**倒掉盘里的汤汁**，换上新的葱丝，淋热油和蒸鱼豉油。"
    ),
)

T.chat(
    [],
    "minimax_m2",
    "en",
    "Clean: HR / management advice.",
    user="How do I give critical feedback to a senior colleague without it getting awkward?",
    reasoning="Private, specific, impact, ask their view, focus on behavior.",
    content=(
        "Keep it private, specific and about the work rather than the person. A simple structure: describe "
        'what happened ("In Tuesday\'s review, the migration plan skipped the rollback step"), explain the '
        'impact ("ops had no fallback if the deploy failed"), then ask for their view before suggesting a '
        "fix. Seniority usually makes people more receptive to feedback that is concrete and assumes good "
        "intent."
    ),
)

T.chat(
    [],
    "qwen3_thinking",
    "ko",
    "Clean: coding answer in Korean from a thinking-only model; reasoning field only holds reasoning.",
    user="파이썬에서 리스트 중복을 순서 유지하면서 제거하는 방법?",
    reasoning="dict.fromkeys 유지 순서 (3.7+).",
    content=(
        "`dict.fromkeys()`를 쓰면 순서를 유지하면서 중복을 제거할 수 있습니다(파이썬 3.7 이상).\n\n"
        "```python\nitems = [3, 1, 3, 2, 1]\nunique = list(dict.fromkeys(items))  # [3, 1, 2]\n```\n\n"
        "`set()`은 순서를 보장하지 않으니 순서가 중요할 때는 이 방법을 쓰세요."
    ),
)

T.chat(
    [],
    "deepseek_r1_0528",
    "zh",
    "Clean: Chinese legal answer, both reasoning tags handled by the parser.",
    user="网购商品七天无理由退货，运费谁出？",
    reasoning="电子商务法及七日无理由退货办法：退货运费由消费者承担，另有约定除外。",
    content=(
        "根据《网络购买商品七日无理由退货暂行办法》，七天无理由退货的**退回运费一般由消费者承担**；"
        "商家与消费者另有约定的，按约定执行。很多商家会提供运费险，下单时可以留意。"
        "如果是商品质量问题退货，运费则应由商家承担。"
    ),
)

T.chat(
    [],
    "hermes",
    "en",
    "Clean: a very short conversational reply.",
    user="thanks, that fixed it!",
    content="Glad to hear it! Good luck with the rest of the project.",
)

T.resp(
    [],
    "gpt5",
    "en",
    "Clean: Responses final answer about personal finance.",
    user="What's the 50/30/20 budgeting rule?",
    client={"reasoning_field": None, "renders_phases": True},
    items=[
        RS(None, []),
        MSG(
            "It's a simple way to split your after-tax income: **50% for needs** (rent, groceries, utilities, "
            "minimum debt payments), **30% for wants** (eating out, hobbies, travel) and **20% for savings and "
            "extra debt repayment**. Treat it as a starting point and adjust to your cost of living.",
            "final_answer",
        ),
    ],
)

T.msg(
    [],
    "claude",
    "ko",
    "Clean: Messages answer with a thinking block.",
    user="회사에서 번아웃이 온 것 같은데 어떻게 해야 할까요?",
    thinking=1024,
    blocks=[
        TH("Validate, practical steps: rest, boundaries, talk to manager, professional help."),
        TX(
            "많이 지치셨겠어요. 몇 가지를 시도해 보세요.\n\n"
            "- 가능하다면 **며칠이라도 연차**를 내고 업무와 완전히 떨어져 쉬어 보세요.\n"
            "- 퇴근 후 업무 메신저 알림을 끄는 등 **경계**를 정하세요.\n"
            "- 업무량이 원인이라면 팀장과 우선순위를 조정하는 대화를 해 보세요.\n"
            "- 수면이나 식욕 변화가 2주 이상 이어지면 전문 상담을 받아 보시길 권합니다."
        ),
    ],
)

T.resp(
    [],
    "gpt5_mini",
    "zh",
    "Clean: Responses answer, no phase, Chinese.",
    user="怎么向孩子解释为什么要存钱？",
    items=[
        RS(None, []),
        MSG(
            "可以用一个具体目标来讲：比如孩子想买一个玩具，让他每周把零花钱的一部分放进存钱罐，"
            "几周后攒够了自己去买。这样他能体会到“现在少花一点，以后能得到更想要的东西”。"
            "可以再准备三个罐子，分别写上“花”“存”“分享”，帮助他养成分配的习惯。"
        ),
    ],
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: longer answer with a markdown table.",
    user="Compare the main cloud object storage options for a small startup.",
    reasoning="S3, GCS, Azure Blob, R2, B2; egress costs.",
    content=(
        "Here's a quick comparison for typical startup needs:\n\n"
        "| Service | Strengths | Watch out for |\n|---|---|---|\n"
        "| AWS S3 | Ecosystem, tooling, many storage classes | Egress fees add up |\n"
        "| Google Cloud Storage | Simple pricing tiers, good with BigQuery | Egress fees |\n"
        "| Azure Blob | Fits if you're already on Azure/AD | More complex tiers |\n"
        "| Cloudflare R2 | No egress fees, S3-compatible API | Fewer advanced features |\n"
        "| Backblaze B2 | Very low storage price | Smaller ecosystem |\n\n"
        "If you serve a lot of downloads to users, egress dominates the bill, so R2 or B2 often come out "
        "cheapest. If you rely on other AWS services, S3 keeps things simple."
    ),
)

T.chat(
    [],
    "mistral",
    "zh",
    "Clean: Mistral answer in Chinese, no tools used.",
    user="怎么预防电信诈骗？",
    content=(
        "记住几条原则：\n\n1. **不轻信**：自称公检法、客服、领导要求转账的，一律先挂断核实。\n"
        "2. **不透露**：验证码、银行卡密码不告诉任何人。\n3. **不转账**：涉及“安全账户”“刷单返利”的都是骗局。\n"
        "4. 安装“国家反诈中心”App，遇到可疑情况拨打 96110 咨询。"
    ),
)

T.chat(
    [],
    "qwq",
    "en",
    "Clean: QwQ with the deepseek_r1 reasoning parser; the prefilled-start-tag output is split correctly.",
    user="If a car travels 60 km in 45 minutes, what is its average speed in km/h?",
    reasoning="45 min = 0.75 h; 60 / 0.75 = 80.",
    content="45 minutes is 0.75 hours, so the average speed is 60 ÷ 0.75 = **80 km/h**.",
)

T.chat(
    [],
    "deepseek_v3",
    "ko",
    "Clean: a longer Korean answer (~1.2 KB) on travel insurance.",
    user="해외여행자보험 꼭 들어야 하나요? 고를 때 뭘 봐야 해요?",
    content=(
        "의무는 아니지만 가입을 강력히 권합니다. 해외에서는 간단한 진료도 수십만 원, 입원이나 수술은 수천만 원이 "
        "나올 수 있고, 국내 건강보험은 해외 의료비를 원칙적으로 보장하지 않기 때문입니다.\n\n"
        "고를 때는 다음을 확인하세요.\n\n"
        "1. **해외 의료비 한도**: 미국·캐나다처럼 의료비가 비싼 나라라면 최소 1억 원 이상을 권합니다.\n"
        "2. **상해·질병 모두 보장되는지**: 상해만 보장하는 저가 상품도 있습니다.\n"
        "3. **휴대품 손해**: 분실은 보장하지 않고 도난·파손만 보장하는 경우가 대부분이며, 물품 1개당 한도가 "
        "있습니다.\n"
        "4. **항공기 지연·결항 보상**: 환승이 많거나 성수기 여행이라면 유용합니다.\n"
        "5. **배상책임**: 호텔 기물 파손이나 타인에게 피해를 준 경우를 보장합니다.\n"
        "6. **24시간 한국어 지원 서비스**: 현지 병원 안내와 통역을 받을 수 있는지 확인하세요.\n\n"
        "이미 실손보험이 있다면 국내 치료분과 중복되지 않도록 구성을 비교해 보고, 신용카드 부가 여행자보험은 "
        "항공권을 그 카드로 결제해야 적용되는 경우가 많으니 조건을 꼭 확인하세요."
    ),
)

T.chat(
    [],
    "kimi_k2",
    "zh",
    "Clean: longer Chinese answer about HR onboarding.",
    user="小公司第一次招聘实习生，需要准备哪些流程和文件？",
    reasoning="实习协议、保险、带教、考核、补贴发放。",
    content=(
        "建议按下面的流程准备：\n\n"
        "**一、招聘前**\n- 明确实习岗位职责、实习期限和补贴标准；\n- 确认实习生身份（在校生一般签实习协议，"
        "不签劳动合同）。\n\n"
        "**二、入职时**\n- 签订**三方或两方实习协议**，写明工作内容、时间、补贴、保密和安全责任；\n"
        "- 收集学生证、身份证复印件和学校推荐函；\n- 为实习生购买**意外伤害保险**或雇主责任险。\n\n"
        "**三、实习期间**\n- 指定带教同事，每周简单沟通一次；\n- 按月发放实习补贴并保留记录。\n\n"
        "**四、结束时**\n- 出具实习证明和评价；\n- 表现好的可以提前沟通转正意向。"
    ),
)

T.msg_stream(
    [],
    "claude",
    "en",
    "Clean: longer streamed Messages answer with thinking first.",
    user="I'm starting to run. How do I avoid getting injured in the first few months?",
    thinking=1024,
    blocks=[
        TH("Gradual progression, run-walk, rest days, shoes, strength."),
        TX(
            "The biggest risk for new runners is doing too much too soon. A few habits go a long way:\n\n"
            "1. **Start with run–walk intervals**, e.g. 1 minute running, 2 minutes walking, for 20–30 "
            "minutes, three times a week.\n"
            "2. **Increase slowly** — roughly 10% more total time per week, with an easier week every "
            "fourth week.\n"
            "3. **Run slower than you think**: you should be able to speak in full sentences.\n"
            "4. **Keep rest days** between runs at first; bones and tendons adapt more slowly than your "
            "lungs.\n"
            "5. **Add two short strength sessions** a week (squats, lunges, calf raises, glute bridges).\n"
            "6. Get shoes that feel comfortable from the first try; no special gait analysis is required.\n\n"
            "Sharp pain, pain that changes your stride, or pain that gets worse during a run are signs to "
            "stop and rest for a few days."
        ),
    ],
)

T.chat(
    [],
    "glm45",
    "ja",
    "Clean: Japanese answer from GLM-4.5.",
    user="有給休暇は何日から取得義務がありますか？",
    reasoning="年10日以上付与の労働者に年5日取得義務。",
    content=(
        "年10日以上の年次有給休暇が付与される労働者については、会社が**年5日**を確実に取得させる義務があります"
        "（2019年4月施行）。違反した場合、会社に罰則が科される可能性があります。"
    ),
)

T.chat(
    [],
    "qwen3_coder",
    "en",
    "Clean: Qwen3-Coder with both parsers; answer with code fence and no call.",
    user="Write a bash one-liner that finds the 10 largest files under the current directory.",
    content=(
        "```bash\nfind . -type f -exec du -h {} + 2>/dev/null | sort -rh | head -n 10\n```\n\n"
        "`du -h` prints human-readable sizes, `sort -rh` sorts them largest first, and `head` keeps the top ten."
    ),
)

T.chat_stream(
    [],
    "gemma4",
    "ko",
    "Clean: Gemma 4 stream with the gemma4 parser; thought channel routed to reasoning.",
    user="감기 걸렸을 때 샤워해도 돼요?",
    tkw={"enable_thinking": True},
    deltas=[
        Rs("미지근한 물로 짧게 샤워 가능, 고열 시 주의, 머리 잘 말리기."),
        Cs(
            "네, 괜찮습니다. 미지근한 물로 **짧게** 샤워하면 오히려 코막힘이 조금 나아질 수 있어요. 다만 열이 "
            "높거나 어지러울 때는 미끄러질 위험이 있으니 피하고, 샤워 후에는 머리를 바로 말려 몸이 식지 않게 하세요."
        ),
    ],
)

T.resp_stream(
    [],
    "gpt5",
    "ko",
    "Clean: streamed Responses final answer, client renders phases, no commentary.",
    user="재택근무할 때 집중력 높이는 팁 알려줘",
    client={"reasoning_field": None, "renders_phases": True},
    items=[
        RS(None, []),
        MSG(
            "재택근무 집중력을 높이는 방법입니다.\n\n- 업무 공간과 생활 공간을 **분리**하세요.\n"
            "- 출근하듯 옷을 갈아입고 시작 시간을 정하세요.\n- 25분 집중·5분 휴식의 뽀모도로 기법을 써 보세요.\n"
            "- 메신저 알림은 정해진 시간에만 확인하세요.",
            "final_answer",
        ),
    ],
)
