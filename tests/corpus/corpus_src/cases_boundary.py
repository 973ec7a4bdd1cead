"""Reasoning delimiters and reasoning text in visible chat.completions content (non-streaming)."""

from __future__ import annotations

from .shapes import Theme

T = Theme("boundary")
B, L = "boundary_token", "reasoning_leak"

# ------------------------------------------------------------------ Qwen3 / QwQ

T.chat(
    [B, L],
    "qwen3_noparser",
    "en",
    "Qwen3 served without --reasoning-parser: the whole <think> block stays in content.",
    user="I work from a spare bedroom as a freelance designer. Can I deduct it on my US taxes?",
    content=(
        "<think>\nThe user is a freelancer in the US asking about the home office deduction. Key points: "
        "self-employed people can claim it on Schedule C; the space must be used regularly and exclusively "
        "for business; there is the simplified method ($5 per square foot, up to 300 sq ft) and the regular "
        "method (actual expenses prorated). Employees can't claim it since 2018. I should mention the "
        "exclusive-use test because a spare bedroom that doubles as a guest room fails it.\n</think>\n\n"
        "Yes, most likely. As a self-employed designer you can claim the home office deduction on Schedule C "
        "if the room is used **regularly and exclusively** for your business.\n\n"
        "Two ways to calculate it:\n"
        "- **Simplified method:** $5 per square foot, up to 300 sq ft (max $1,500).\n"
        "- **Regular method:** the office's share of rent or mortgage interest, utilities, insurance and "
        "repairs, based on its percentage of your home's floor area.\n\n"
        "One catch: if the bedroom also hosts guests, it fails the exclusive-use test. Keep a simple floor "
        "plan and a few photos in case you are ever asked to substantiate it."
    ),
)

T.chat(
    [B, L],
    "qwen3_noparser",
    "ko",
    "Qwen3 without reasoning parser; Korean reasoning and answer, tags visible.",
    user="전세 계약이 끝났는데 집주인이 보증금을 안 돌려줘요. 어떻게 해야 하나요?",
    content=(
        "<think>\n사용자는 전세 만기 후 보증금을 돌려받지 못한 상황이다. 순서대로 정리하면: 우선 내용증명으로 "
        "반환을 요구하고, 이사를 가야 한다면 임차권등기명령을 신청해서 대항력과 우선변제권을 유지해야 한다. "
        "그 다음 지급명령이나 보증금 반환 소송. 전세보증보험에 가입했다면 HUG에 이행청구를 하면 된다. "
        "임차권등기 전에 전출하면 대항력을 잃는다는 점을 꼭 강조하자.\n</think>\n\n"
        "보증금을 돌려받지 못했다면 아래 순서로 진행하세요.\n\n"
        "1. **내용증명 발송**: 반환 기한을 정해 서면으로 요구합니다. 이후 소송에서 증거가 됩니다.\n"
        "2. **임차권등기명령 신청**: 이사를 가야 한다면 반드시 먼저 신청하세요. 등기가 완료되기 전에 "
        "전출하면 대항력과 우선변제권을 잃을 수 있습니다.\n"
        "3. **전세보증보험 이행청구**: HUG나 SGI 보증에 가입했다면 보증기관에 청구할 수 있습니다.\n"
        "4. **지급명령 또는 소송**: 집주인이 다투지 않으면 지급명령이 빠르고, 다투면 보증금 반환 소송으로 "
        "넘어갑니다.\n\n"
        "대한법률구조공단(국번 없이 132)에서 무료 상담도 받을 수 있습니다."
    ),
)

T.chat(
    [B, L],
    "qwen3_noparser",
    "zh",
    "Qwen3 without reasoning parser; Chinese reasoning and answer, think block visible.",
    user="高铁票开车前多久退票不收手续费？",
    content=(
        "<think>\n用户问的是高铁退票手续费的规则。按照现行规定：开车前8天以上退票不收手续费；"
        "48小时以上不足8天收5%；24小时以上不足48小时收10%；不足24小时收20%。"
        "另外改签后的车票退票规则也要提一句。\n</think>\n\n"
        "按照铁路部门现行规定，高铁退票手续费按距开车时间计算：\n\n"
        "- 开车前 **8天及以上**：免收手续费；\n"
        "- 开车前 48小时以上、不足8天：收取票价的 5%；\n"
        "- 开车前 24小时以上、不足48小时：收取 10%；\n"
        "- 开车前不足 24小时：收取 20%。\n\n"
        "注意：如果车票已经改签过，退票时按改签后的开车时间计算手续费。"
    ),
)

T.chat(
    [B],
    "qwen3_noparser",
    "en",
    "Qwen3 with enable_thinking=false emits an empty <think></think> pair; no reasoning text is visible, "
    "only the delimiters.",
    user="How many milliliters are in a US cup?",
    tkw={"enable_thinking": False},
    content="<think>\n\n</think>\n\nA US customary cup is about **236.6 mL**. Nutrition labels round it to 240 mL.",
)

T.chat(
    [B],
    "qwen3_noparser",
    "zh",
    "Empty think block from non-thinking mode left in content: delimiters only, no reasoning.",
    user="“画蛇添足”是什么意思？",
    tkw={"enable_thinking": False},
    content=(
        "<think>\n\n</think>\n\n“画蛇添足”出自《战国策》：几个人比赛画蛇，先画完的人得意忘形，又给蛇添上了脚，"
        "结果反而输了酒。比喻做了多余的事，不但无益，反而坏事。\n\n"
        "例句：这份报告已经很完整了，再加一段空话就是画蛇添足。"
    ),
)

T.chat(
    [B, L],
    "qwq_noparser",
    "en",
    "QwQ's template prefills <think>, so the output starts with reasoning and only the end tag appears "
    "(lone end delimiter); served without a reasoning parser.",
    user="I roll two fair dice. What's the probability that the sum is at least 10?",
    content=(
        "Sums of 10 or more: 10 can be made as (4,6), (5,5), (6,4) → 3 ways. 11: (5,6), (6,5) → 2 ways. "
        "12: (6,6) → 1 way. Total 6 out of 36. So 1/6. Double-check: 36 equally likely outcomes, yes.\n"
        "</think>\n\n"
        "There are 36 equally likely outcomes. The favorable ones are:\n\n"
        "- sum 10: (4,6), (5,5), (6,4)\n- sum 11: (5,6), (6,5)\n- sum 12: (6,6)\n\n"
        "That's 6 outcomes, so the probability is **6/36 = 1/6 ≈ 16.7%**."
    ),
)

T.chat(
    [B, L],
    "qwen3_noparser",
    "ja",
    "Qwen3 without reasoning parser, Japanese answer with the think block visible.",
    user="ふるさと納税のワンストップ特例は何自治体まで使えますか？",
    content=(
        "<think>\nワンストップ特例制度の条件を整理する。寄附先が5自治体以内であること、確定申告が不要な給与所得者"
        "であること、寄附ごとに申請書を翌年1月10日までに提出すること。6自治体以上なら確定申告が必要。\n</think>\n\n"
        "ワンストップ特例制度を使えるのは、1年間の寄附先が **5自治体以内** の場合です。\n\n"
        "- 同じ自治体に複数回寄附しても1自治体として数えます。\n"
        "- 申請書は寄附のたびに提出し、期限は翌年の1月10日必着です。\n"
        "- 6自治体以上に寄附した場合や、医療費控除などで確定申告をする場合は特例が使えず、"
        "確定申告で寄附金控除を申告します。"
    ),
)

# ------------------------------------------------------------------ DeepSeek

T.chat(
    [B, L],
    "deepseek_r1_noparser",
    "en",
    "Original DeepSeek-R1 emits no start tag: reasoning, then </think>, then the answer, all in content.",
    user="Should I add an index on a boolean column like is_active in Postgres?",
    content=(
        "Okay, the question is about indexing a boolean column. A plain B-tree index on a low-cardinality "
        "boolean is usually useless because the planner will prefer a seq scan when a large fraction of rows "
        "match. But if the distribution is skewed — say 2% active — an index helps for the rare value. Even "
        "better is a partial index. Also mention composite indexes where is_active is a filter.\n</think>\n\n"
        "Usually not as a standalone index. A B-tree on a boolean only helps when the value you filter on is "
        "rare; if half the table is `is_active = true`, Postgres will scan the table anyway.\n\n"
        "Better options:\n\n"
        "1. **Partial index** when you mostly query the rare value:\n"
        "   ```sql\n   CREATE INDEX users_inactive_idx ON users (id) WHERE NOT is_active;\n   ```\n"
        "2. **Put the filter into an index you already need**, e.g. `CREATE INDEX ON users (org_id) WHERE is_active;` "
        "for queries like `WHERE org_id = $1 AND is_active`.\n\n"
        "Check with `EXPLAIN ANALYZE` before and after; if the planner never picks the index, drop it."
    ),
)

T.chat(
    [B, L],
    "deepseek_r1_noparser",
    "ko",
    "DeepSeek-R1 without parser: Korean reasoning before a lone </think>.",
    user="연말정산에서 월세 세액공제 받으려면 조건이 뭐예요?",
    content=(
        "월세 세액공제 조건을 물어보는 질문이다. 총급여 8천만 원 이하 무주택 세대주(일정 요건의 세대원 포함), "
        "국민주택규모(85㎡) 이하 또는 기준시가 4억 원 이하 주택, 주민등록 주소지가 임대차계약서 주소와 같아야 함. "
        "공제율은 총급여 5,500만 원 이하 17%, 8천만 원 이하 15%, 한도 연 1,000만 원. 필요 서류도 알려주자.\n"
        "</think>\n\n"
        "월세 세액공제를 받으려면 다음 조건을 모두 충족해야 합니다.\n\n"
        "- 과세기간 종료일 기준 **무주택 세대주**(요건을 갖춘 세대원도 가능)\n"
        "- 총급여 **8,000만 원 이하**(종합소득금액 7,000만 원 이하)\n"
        "- 전용 85㎡ 이하 또는 기준시가 4억 원 이하 주택\n"
        "- 임대차계약서상 주소지로 **전입신고**가 되어 있을 것\n\n"
        "공제율은 총급여 5,500만 원 이하면 17%, 그 이상 8,000만 원 이하면 15%이고, 연 1,000만 원까지 인정됩니다. "
        "임대차계약서 사본과 월세 이체 내역을 준비하세요."
    ),
)

T.chat(
    [B, L],
    "deepseek_r1_noparser",
    "zh",
    "DeepSeek-R1 without parser: Chinese reasoning then lone </think> then answer.",
    user="鸡兔同笼，共有35个头，94只脚，鸡和兔各有多少只？",
    content=(
        "嗯，这是经典的鸡兔同笼问题。设鸡x只，兔y只。x+y=35，2x+4y=94。第二个式子除以2得x+2y=47，"
        "减去第一个式子得y=12，所以x=23。验算：23×2+12×4=46+48=94，对。\n</think>\n\n"
        "设鸡有 x 只，兔有 y 只：\n\n"
        "- 头数：x + y = 35\n- 脚数：2x + 4y = 94\n\n"
        "解得 **兔 12 只，鸡 23 只**。\n\n"
        "验算：23 × 2 + 12 × 4 = 46 + 48 = 94 ✓"
    ),
)

T.chat(
    [B],
    "deepseek_r1",
    "en",
    "Reasoning was correctly split into the reasoning field, but the end tag was also emitted at the start "
    "of content. Nothing precedes the lone </think> in visible text, so only the delimiter leaks.",
    user="What's the practical difference between git merge and git rebase?",
    reasoning=(
        "Explain: merge creates a merge commit preserving history; rebase rewrites commits onto the new base "
        "giving linear history. Golden rule: don't rebase shared branches."
    ),
    content=(
        "</think>\n\nBoth integrate changes from one branch into another; they differ in the history they leave.\n\n"
        "- **merge** adds a merge commit and keeps every commit exactly as it was. History shows when branches "
        "diverged and joined.\n"
        "- **rebase** replays your commits on top of the target branch, producing new commits and a linear "
        "history.\n\n"
        "Rule of thumb: rebase your own local feature branch to tidy it up; merge (or squash-merge) into shared "
        "branches, and never rebase commits that others have already pulled."
    ),
)

T.chat(
    [B, L],
    "deepseek_r1_0528",
    "zh",
    "Gateway merged reasoning into content (merge-reasoning option) for an R1-0528 response; "
    "both tags are visible in content and the reasoning field is empty.",
    user="租房合同到期，房东说押金要扣清洁费800元，合理吗？",
    content=(
        "<think>\n用户问押金扣清洁费是否合理。关键看合同有没有约定清洁费或者恢复原状的条款，以及房屋是否超出正常"
        "使用损耗。正常使用造成的磨损不应由租客承担。建议用户要求房东列明扣款依据并提供照片或票据。\n</think>\n\n"
        "是否合理，主要看两点：\n\n"
        "1. **合同约定**：合同里如果写明退租时需保洁或扣除固定清洁费，房东按约定扣款一般有依据；"
        "没有约定的，房东不能随意扣。\n"
        "2. **是否属于正常损耗**：墙面轻微发黄、家具正常磨损属于合理使用，不应由你承担；"
        "只有明显脏污、损坏才需要你负责清理或赔偿。\n\n"
        "建议你要求房东书面说明扣款理由，并提供照片或保洁发票。协商不成，可以向当地住建部门或消费者协会投诉，"
        "也可以走小额诉讼程序。"
    ),
)

T.chat(
    [B, L],
    "deepseek_v3_noparser",
    "en",
    "DeepSeek-V3.1 with thinking enabled via chat_template_kwargs but served without a reasoning parser: "
    "<think> block in content.",
    user="Is it safe to take ibuprofen with my blood pressure medication (lisinopril)?",
    tkw={"thinking": True},
    content=(
        "<think>\nNSAIDs like ibuprofen can reduce the effect of ACE inhibitors such as lisinopril and raise "
        "blood pressure; combined with a diuretic there's a kidney risk (the so-called triple whammy). "
        "Occasional short-term use is often acceptable, but the user should check with their doctor or "
        "pharmacist. Acetaminophen is usually the preferred alternative for pain.\n</think>\n\n"
        "Occasional, short-term ibuprofen is often tolerated, but the combination deserves caution:\n\n"
        "- Ibuprofen and other NSAIDs can **blunt the blood-pressure-lowering effect** of lisinopril.\n"
        "- Together they can **strain the kidneys**, especially if you are dehydrated, older, or also take a "
        "diuretic.\n\n"
        "For everyday aches, acetaminophen (paracetamol) is usually the safer choice. If you need an NSAID for "
        "more than a few days, ask your doctor or pharmacist first and keep an eye on your blood pressure."
    ),
)

# ------------------------------------------------------------------ GLM / MiniMax

T.chat(
    [B, L],
    "glm45_noparser",
    "ko",
    "GLM-4.5 served with only the tool-call parser: <think> reasoning stays in content.",
    user="신입 개발자 온보딩 첫 주 일정을 어떻게 짜면 좋을까요?",
    content=(
        "<think>\n신입 개발자 첫 주 온보딩 계획. 너무 많은 정보를 한 번에 주지 말고, 개발 환경 세팅, 코드베이스 "
        "둘러보기, 작은 첫 PR, 팀 문화 소개 순으로 가는 게 좋겠다. 버디 지정도 중요.\n</think>\n"
        "첫 주는 '작게 성공하기'에 초점을 맞추는 것을 추천합니다.\n\n"
        "- **월요일**: 계정·장비 준비, 팀 소개, 온보딩 버디 지정\n"
        "- **화요일**: 로컬 개발 환경 세팅, 빌드와 테스트 실행해 보기\n"
        "- **수요일**: 아키텍처 개요 세션, 주요 저장소 둘러보기\n"
        "- **목요일**: 문서 오타 수정이나 작은 버그 같은 첫 PR 올리기\n"
        "- **금요일**: 코드 리뷰 반영 후 배포 과정 참관, 한 주 회고\n\n"
        "매일 15분씩 버디와 짧게 질문 시간을 잡아 두면 적응이 훨씬 빨라집니다."
    ),
)

T.chat(
    [B, L],
    "minimax_m25_m2parser",
    "en",
    "MiniMax-M2.5 served with the M2 reasoning parser; the parser does not match and <think> leaks into "
    "content.",
    user="Give me a quick weeknight dinner idea with chicken thighs and spinach.",
    content=(
        "<think>\nThe user wants something fast. A one-pan creamy garlic chicken thigh with spinach works: sear "
        "thighs, make a sauce with garlic, stock, a splash of cream or Parmesan, wilt spinach. 30 minutes.\n"
        "</think>\n\n"
        "**One-pan garlic chicken thighs with spinach (about 30 minutes)**\n\n"
        "1. Season 4 boneless thighs with salt and pepper; sear skin-side down in a hot pan for 6–7 minutes, "
        "flip and cook 5 more. Set aside.\n"
        "2. In the same pan, soften 4 sliced garlic cloves, then add 150 ml chicken stock and 100 ml cream "
        "(or 40 g grated Parmesan).\n"
        "3. Simmer 3 minutes, stir in two big handfuls of spinach until wilted.\n"
        "4. Return the chicken to the pan, spoon the sauce over and serve with rice or crusty bread."
    ),
)

T.chat(
    [B, L],
    "minimax_m2_append",
    "zh",
    "minimax_m2_append_think keeps the <think> block inside content by design; a client that renders "
    "content shows the reasoning to the user.",
    user="帮我算一下：年化利率3.5%，存10万元，3年后本息一共多少？按复利计算。",
    content=(
        "<think>\n复利公式：本息 = 本金 × (1 + r)^n = 100000 × 1.035^3。1.035^2 = 1.071225，再乘1.035 = "
        "1.108717875。所以约110871.79元，利息约10871.79元。\n</think>\n\n"
        "按年复利计算：\n\n"
        "本息合计 = 100,000 × (1 + 3.5%)³ ≈ **110,871.79 元**\n\n"
        "其中利息约 10,871.79 元。如果是银行定期存款（到期一次还本付息、不计复利），"
        "利息则是 100,000 × 3.5% × 3 = 10,500 元。"
    ),
)

# ------------------------------------------------------------------ Kimi K2

T.chat(
    [B, L],
    "kimi_k2_noparser",
    "en",
    "Kimi K2 Thinking served without the kimi_k2 reasoning parser: ◁think▷…◁/think▷ is visible.",
    user="Why does my sourdough come out dense?",
    content=(
        "◁think▷The common causes: underproofed dough (starter not active enough or too short bulk), "
        "too little gluten development, too much whole grain flour, cold kitchen. I should suggest the float "
        "test and watching for a 50–75% rise during bulk rather than going by the clock.◁/think▷"
        "Dense sourdough almost always comes down to fermentation. The usual suspects:\n\n"
        "1. **Sluggish starter** – feed it and use it at its peak, when it has doubled and smells pleasantly sour.\n"
        "2. **Short bulk fermentation** – judge by the dough, not the clock. Aim for a 50–75% rise, a domed "
        "surface and bubbles on the sides.\n"
        "3. **Cold kitchen** – at 20 °C bulk can take twice as long as at 26 °C.\n"
        "4. **Weak gluten** – add a few sets of stretch-and-folds in the first two hours.\n\n"
        "Fix fermentation first; shaping and scoring matter much less for crumb density."
    ),
)

T.chat(
    [B, L],
    "kimi_k2_noparser",
    "zh",
    "Kimi K2 without reasoning parser; Chinese reasoning inside ◁think▷ delimiters.",
    user="劳动合同到期公司不续签，有没有经济补偿？",
    content=(
        "◁think▷用户问劳动合同到期不续签是否有补偿。根据劳动合同法第四十六条，合同期满终止，除用人单位维持或者提高"
        "约定条件续订而劳动者不同意的情形外，用人单位应当支付经济补偿。标准是每满一年支付一个月工资。◁/think▷"
        "有的。根据《劳动合同法》第四十六条，劳动合同期满后，如果是**公司不续签**，公司应当支付经济补偿；"
        "只有在公司愿意以不低于原条件续签、而你本人不同意的情况下，才不用支付。\n\n"
        "补偿标准：按在本单位的工作年限，每满一年支付一个月工资；六个月以上不满一年的按一年算，"
        "不满六个月的支付半个月工资。"
    ),
)

T.chat(
    [B],
    "kimi_k2",
    "ko",
    "Reasoning correctly separated into the reasoning field, but the closing ◁/think▷ delimiter was left "
    "at the start of content; nothing precedes it.",
    user="노트북 배터리 수명을 오래 유지하려면 어떻게 충전해야 하나요?",
    reasoning="Lithium-ion care: avoid 0% and 100% extremes, heat is the main enemy, use charge limit features.",
    content=(
        "◁/think▷리튬이온 배터리는 완전 방전과 100% 유지, 그리고 열에 약합니다.\n\n"
        "- 가능하면 **20~80%** 사이에서 사용하세요.\n"
        "- 항상 전원에 꽂아 쓴다면 제조사 설정의 **충전 한도(예: 80%)** 기능을 켜 두세요.\n"
        "- 고사양 게임이나 영상 인코딩처럼 발열이 큰 작업은 통풍이 잘 되는 곳에서 하세요.\n"
        "- 오래 보관할 때는 50% 정도 충전한 상태로 두는 것이 좋습니다."
    ),
)

# ------------------------------------------------------------------ gpt-oss harmony

T.chat(
    [B, L],
    "gpt_oss_raw",
    "en",
    "gpt-oss served with no harmony parsing: analysis channel and channel tokens are visible.",
    user="What's a good rule of thumb for an emergency fund?",
    content=(
        "<|channel|>analysis<|message|>User asks about emergency fund size. Standard advice: 3-6 months of "
        "essential expenses; more if income is variable or single earner. Keep it in a high-yield savings "
        "account. Keep answer short.<|end|><|start|>assistant<|channel|>final<|message|>"
        "Aim for **3–6 months of essential expenses** (rent, food, utilities, insurance, minimum debt payments). "
        "Lean toward 6 months or more if you are self-employed, the only earner in your household, or work in a "
        "volatile industry. Keep it somewhere boring and liquid, like a high-yield savings account, not in "
        "stocks.<|return|>"
    ),
)

T.chat(
    [B, L],
    "gpt_oss_raw",
    "ko",
    "gpt-oss raw harmony text (English analysis, Korean final) returned as content.",
    user="김치찌개 맛있게 끓이는 팁 알려줘",
    content=(
        "<|channel|>analysis<|message|>The user wants tips for kimchi jjigae. Key: well-fermented kimchi, "
        "sauté kimchi with pork fat first, add a bit of kimchi brine, use anchovy stock or rice water, "
        "season with gochugaru and a pinch of sugar. Answer in Korean.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>"
        "김치찌개를 맛있게 끓이는 요령입니다.\n\n"
        "1. **잘 익은 신김치**를 쓰세요. 덜 익은 김치라면 식초를 아주 조금 넣어도 됩니다.\n"
        "2. 돼지고기 앞다리살이나 삼겹살을 먼저 볶아 기름을 낸 뒤 **김치를 함께 충분히 볶습니다**.\n"
        "3. 물 대신 **쌀뜨물이나 멸치 육수**를 붓고 김칫국물을 한 국자 더하세요.\n"
        "4. 고춧가루 약간, 설탕 한 꼬집으로 신맛을 잡고 두부와 대파는 마지막에 넣습니다."
    ),
)

T.chat(
    [B, L],
    "gpt_oss_raw",
    "zh",
    "Raw harmony output with analysis channel visible; final answer in Chinese.",
    user="Python 里 list 和 tuple 有什么区别？",
    content=(
        "<|channel|>analysis<|message|>Explain list vs tuple: mutability, hashability (tuples can be dict keys "
        "if elements hashable), performance/memory, intent. Reply in Chinese.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>"
        "主要区别有三点：\n\n"
        "1. **可变性**：list 可以增删改元素；tuple 创建后不能修改。\n"
        "2. **可哈希**：元素都可哈希时，tuple 可以作为字典的键或放进集合，list 不行。\n"
        "3. **用途**：list 适合同类数据的可变集合；tuple 常用来表示固定结构的记录，比如 (纬度, 经度)。\n\n"
        "另外 tuple 占用内存略小，创建也稍快，但差别通常不是选择的主要依据。<|return|>"
    ),
)

T.chat(
    [B],
    "gpt_oss",
    "en",
    "Analysis went correctly to the reasoning field, but the final-channel header leaked in front of the "
    "answer. No analysis text is visible.",
    user="What is the capital of Australia?",
    reasoning="Simple factual question. Canberra, not Sydney.",
    content="<|channel|>final<|message|>The capital of Australia is **Canberra**, not Sydney or Melbourne.",
)

T.chat(
    [B],
    "gpt_oss_20b",
    "ja",
    "Harmony stop token <|return|> left at the end of an otherwise clean answer.",
    user="東京から京都まで新幹線で何分くらいですか？",
    reasoning="Nozomi Tokyo to Kyoto about 2h15m.",
    content="東海道新幹線「のぞみ」なら、東京駅から京都駅まで**約2時間15分**です。「ひかり」だと約2時間40分かかります。<|return|>",
)

# ------------------------------------------------------------------ Granite, Hunyuan, ERNIE, Seed, Magistral, Gemma

T.chat(
    [B, L],
    "granite_noparser",
    "en",
    "Granite 3.2 with thinking=True but no granite reasoning parser: the thought-process header and the "
    "reasoning are visible.",
    user="How do I explain a gap year on my resume?",
    tkw={"thinking": True},
    content=(
        "Here is my thought process:\nThe user took a gap year and worries about the resume. Recruiters mainly "
        "want a short, honest explanation and evidence that skills stayed current. Suggest listing it as an "
        "entry, naming concrete activities, and preparing a one-sentence answer for interviews.\n\n"
        "Here is my response:\nTreat the gap year as a normal entry rather than hiding it:\n\n"
        "- Add a line such as *Career break – travel and caregiving, 2024–2025*.\n"
        "- List anything concrete you did: courses, freelance work, volunteering, certifications.\n"
        "- Prepare a one-sentence explanation for interviews and move on to what you are looking for now.\n\n"
        "A short, confident explanation reads far better than an unexplained gap."
    ),
)

T.chat(
    [B, L],
    "granite_noparser",
    "ko",
    "Granite thinking headers in English with a Korean answer; no reasoning parser.",
    user="연차휴가를 쓰지 못하고 퇴사하면 수당을 받을 수 있나요?",
    tkw={"thinking": True},
    content=(
        "Here is my thought process:\nUnused annual leave at resignation in Korea: the employer must pay "
        "allowance for unused days (미사용 연차수당). Compute with ordinary daily wage. Claim period 3 years.\n\n"
        "Here is my response:\n네, 받을 수 있습니다. 퇴사로 인해 사용하지 못한 연차가 남아 있다면 회사는 "
        "**미사용 연차휴가수당**을 지급해야 합니다. 금액은 통상임금 기준 1일분에 남은 일수를 곱해 계산하며, "
        "퇴사일로부터 14일 이내 지급이 원칙입니다. 임금채권 소멸시효는 3년이니 받지 못했다면 그 안에 "
        "고용노동부에 진정할 수 있습니다."
    ),
)

T.chat(
    [B, L],
    "hunyuan_noparser",
    "zh",
    "Hunyuan-A13B output format <think>…</think><answer>…</answer> left in content (no reasoning parser).",
    user="糖尿病患者可以吃水果吗？",
    content=(
        "<think>\n用户问糖尿病人能不能吃水果。可以吃，但要控制量和时机，选低升糖指数水果，血糖控制稳定时在两餐之间吃，"
        "每天200克左右。避免果汁和果干。\n</think>\n<answer>\n"
        "可以吃，但要注意方法：\n\n"
        "1. **血糖控制平稳时再吃**，一般空腹血糖低于7 mmol/L、餐后2小时低于10 mmol/L时比较合适。\n"
        "2. **选低升糖水果**，如苹果、梨、柚子、草莓、樱桃；荔枝、龙眼、榴莲要少吃。\n"
        "3. **控制分量**，每天约200克，分在两餐之间吃，并相应减少主食。\n"
        "4. 少喝果汁、少吃果干。\n\n"
        "吃完后可以测一下血糖，了解自己对不同水果的反应。\n</answer>"
    ),
)

T.chat(
    [B, L],
    "hunyuan_noparser",
    "en",
    "Hunyuan-A13B raw tagged output in content.",
    user="Can you summarize what a 409 Conflict status code means in REST APIs?",
    content=(
        "<think>\nExplain 409: request conflicts with current state of the resource, e.g. version mismatch in "
        "optimistic locking, duplicate unique key. Distinguish from 412 Precondition Failed and 422.\n</think>\n"
        "<answer>\n**409 Conflict** means the request is valid but clashes with the current state of the "
        "resource. Typical cases: creating a user whose email already exists, or updating a record with a stale "
        "version number under optimistic locking. Return a body that explains the conflict so the client can "
        "resolve it. If the client sent an `If-Match` precondition that failed, 412 is the more precise code.\n"
        "</answer>"
    ),
)

T.chat(
    [B, L],
    "ernie_noparser",
    "zh",
    "ERNIE-4.5 Thinking: template prefills the start tag, output is reasoning, </think>, then <response>; "
    "no reasoning parser configured.",
    user="孩子发烧38.5度，需要马上吃退烧药吗？",
    content=(
        "用户的孩子体温38.5℃。一般建议：2个月以上儿童体温≥38.5℃且伴有明显不适时可以使用对乙酰氨基酚或布洛芬；"
        "更重要的是观察精神状态。3个月以下婴儿发烧应立即就医。需要提醒危险信号。\n</think>\n\n<response>\n"
        "38.5℃ 左右时，是否用药主要看孩子的精神状态：\n\n"
        "- 如果孩子明显不舒服、哭闹或睡不好，可以按体重使用 **对乙酰氨基酚** 或 **布洛芬**，两次用药间隔要足够。\n"
        "- 如果精神还不错、能玩能吃，可以先多喝水、减少衣物，继续观察。\n\n"
        "出现以下情况请尽快就医：3个月以下婴儿发烧、持续高烧超过3天、抽搐、精神萎靡、呼吸急促或皮疹。\n</response>"
    ),
)

T.chat(
    [B, L],
    "ernie_noparser",
    "en",
    "ERNIE-4.5 Thinking raw output: reasoning before a lone </think> and a <response> wrapper.",
    user="What's the difference between a Roth IRA and a traditional IRA in one paragraph?",
    content=(
        "Core difference is tax timing. Traditional: contributions may be deductible now, withdrawals taxed. "
        "Roth: contributions after-tax, qualified withdrawals tax-free. Mention RMDs and income limits briefly.\n"
        "</think>\n\n<response>\nThe difference is when you pay tax. With a **traditional IRA** your "
        "contributions may be tax-deductible today and withdrawals in retirement are taxed as income; with a "
        "**Roth IRA** you contribute after-tax money and qualified withdrawals are tax-free. Roth IRAs also have "
        "no required minimum distributions for the original owner but have income limits for contributing, "
        "so the Roth tends to win if you expect a higher tax rate in retirement.\n</response>"
    ),
)

T.chat(
    [B, L],
    "seed_oss_noparser",
    "en",
    "Seed-OSS uses <seed:think>…</seed:think>; served without the seed_oss reasoning parser.",
    user="Translate 'The meeting has been moved to Thursday afternoon' into French.",
    content=(
        "<seed:think>Simple translation. 'moved' → 'reportée' or 'déplacée'; déplacée is neutral. "
        "'Thursday afternoon' → 'jeudi après-midi'.</seed:think>"
        'In French: "La réunion a été déplacée à jeudi après-midi." You can also say "reportée" if it '
        "was pushed later rather than simply moved."
    ),
)

T.chat(
    [B, L],
    "seed_oss_noparser",
    "zh",
    "Seed-OSS raw reasoning tags with Chinese text in content.",
    user="用一句话解释什么是通货膨胀。",
    content=(
        "<seed:think>用户要一句话的定义，简洁即可：物价总水平持续上涨，货币购买力下降。</seed:think>"
        "通货膨胀是指一段时间内物价总水平持续上涨、同样的钱能买到的东西越来越少的现象。"
    ),
)

T.chat(
    [B, L],
    "magistral_noparser",
    "en",
    "Magistral emits [THINK]…[/THINK]; served without the mistral reasoning parser.",
    user="Is 391 a prime number?",
    content=(
        "[THINK]Check divisibility up to sqrt(391) ≈ 19.8. 391/17 = 23. So 17 × 23 = 391, not prime.[/THINK]"
        "No. 391 = 17 × 23, so it is composite."
    ),
)

T.chat(
    [B, L],
    "gemma4_noparser",
    "en",
    "Gemma 4 thinking mode marks reasoning with its <|channel>thought … <channel|> delimiters; without the "
    "gemma4 reasoning parser they stay in content.",
    user="What should I pack for a 3-day hiking trip in the Alps in September?",
    content=(
        "<|channel>thought\nSeptember in the Alps: warm days, cold nights, possible snow above 2500 m. Layers, "
        "rain shell, hut booking, sleeping-bag liner for huts, headlamp, water, first aid.<channel|>"
        "For three days in the Alps in September, pack for everything from 20 °C sunshine to sleet:\n\n"
        "- **Layers:** base layer, fleece, light down jacket, waterproof shell and rain trousers\n"
        "- **Extremities:** warm hat, thin gloves, sun hat, sunglasses\n"
        "- **Hut gear:** sleeping-bag liner, earplugs, cash (many huts don't take cards)\n"
        "- **Essentials:** headlamp, 1.5–2 L water capacity, first-aid kit, map or offline GPS, sunscreen\n\n"
        "Book huts ahead — many close in late September — and check the forecast each morning."
    ),
)

T.chat(
    [B, L],
    "gemma4_noparser",
    "ko",
    "Gemma 4 thought channel visible in content (Korean).",
    user="고양이가 갑자기 밥을 안 먹어요. 언제 병원에 가야 하나요?",
    content=(
        "<|channel>thought\n고양이 식욕 부진. 24~48시간 이상 굶으면 지방간 위험이 있으므로 하루 이상이면 병원 "
        "권장. 구토, 무기력, 배뇨 문제가 동반되면 즉시.<channel|>"
        "고양이는 오래 굶으면 **간 지방증(지방간)** 위험이 있어서 사람보다 빨리 병원에 가는 것이 좋습니다.\n\n"
        "- **24시간 이상** 전혀 먹지 않으면 진료를 받으세요.\n"
        "- 구토, 설사, 축 처짐, 숨을 헐떡임, 소변을 못 보는 증상이 함께 있으면 **바로** 가야 합니다. "
        "특히 수컷 고양이가 화장실을 들락거리는데 소변이 안 나오면 응급입니다.\n"
        "- 사료를 바꾼 직후라면 이전 사료를 섞어 천천히 바꿔 보세요."
    ),
)

# ------------------------------------------------------------------ Untagged reasoning (self-talk opening)

T.chat(
    [L],
    "hermes_notool",
    "en",
    "No tags at all: the visible text opens with self-talk about the user before the answer.",
    user="can you tell me how often I should replace my toothbrush",
    content=(
        "Okay, so the user is asking how often to replace a toothbrush. The usual dental guidance is every "
        "three to four months, or sooner if the bristles are frayed. Also after being sick is a common tip.\n\n"
        "Replace your toothbrush (or electric brush head) every **3–4 months**, or sooner if the bristles look "
        "splayed. Many dentists also suggest a fresh one after a cold or flu."
    ),
)

T.chat(
    [L],
    "qwen3_noparser",
    "ko",
    "Untagged Korean self-talk ('사용자가 …를 묻고 있다') opens the visible answer; no delimiters.",
    user="주택담보대출 고정금리랑 변동금리 중에 뭐가 나아요?",
    tkw={"enable_thinking": False},
    content=(
        "사용자가 주택담보대출 금리 유형을 묻고 있다. 금리 전망과 상환 기간, 중도상환 계획에 따라 달라진다는 점을 "
        "설명하면 될 것 같다.\n\n"
        "정답은 상황에 따라 다릅니다.\n\n"
        "- **고정금리**: 월 상환액이 일정해 계획 세우기가 쉽고, 금리가 오를 때 안전합니다. 대신 시작 금리가 "
        "조금 높은 편입니다.\n"
        "- **변동금리**: 초기 금리가 낮고 금리가 내려가면 유리하지만, 오르면 부담이 커집니다.\n\n"
        "몇 년 안에 갚거나 갈아탈 계획이면 변동, 장기간 안정적으로 갚을 계획이면 고정이나 혼합형(5년 고정 후 "
        "변동)을 많이 선택합니다. 중도상환수수료도 꼭 비교해 보세요."
    ),
)

T.chat(
    [L],
    "llama3_notool",
    "zh",
    "Untagged Chinese self-talk ('嗯，用户问的是…') opens the visible text.",
    user="跑步膝盖疼怎么办？",
    content=(
        "嗯，用户问的是跑步时膝盖疼。常见原因是跑量增加太快、跑姿问题、鞋子不合适，或者髌骨周围的软组织劳损。"
        "应该先建议休息和减量，再提到力量训练，严重时就医。\n\n"
        "跑步膝盖疼，可以先这样处理：\n\n"
        "1. **减量或暂停**：疼痛期间改为游泳、骑车等低冲击运动。\n"
        "2. **冰敷**：运动后冰敷15分钟，缓解炎症。\n"
        "3. **加强力量**：练臀中肌、股四头肌，比如侧卧抬腿、靠墙静蹲。\n"
        "4. **检查装备和跑量**：鞋子是否磨损，每周跑量增加不要超过10%。\n\n"
        "如果出现肿胀、关节卡住或休息两周仍不缓解，建议去运动医学科检查。"
    ),
)

T.chat(
    [L],
    "deepseek_r1_distill",
    "en",
    "Distilled R1 under a template without the <think> prefill: the model reasons untagged and never "
    "emits an end tag, so the visible text opens with 'Hmm, wait' style self-talk.",
    user="What's 15% of 240, and is that the same as 240 times 0.15?",
    content=(
        "Hmm, wait, 10% of 240 is 24 and 5% is 12, so 15% is 36. And 240 × 0.15 = 36 as well. Yes, same "
        "thing since 15% means 0.15.\n\n"
        "15% of 240 is **36**, and yes, it's exactly the same as 240 × 0.15, because 15% is just 15/100 = 0.15."
    ),
)

T.chat(
    [B],
    "qwen3_thinking",
    "en",
    "Thinking budget forced the end of reasoning; the reasoning (ending in the budget message) is in the "
    "reasoning field, but the forced </think> also leaked at the start of content. Nothing precedes it.",
    user="Outline a 4-week beginner strength program.",
    extra={"thinking_token_budget": 512},
    reasoning=(
        "Beginner: full body 3x/week, compound lifts, progressive overload... squat, push-up/bench, row, "
        "hinge, plank.\n\nConsidering the limited time by the user, I have to give the solution based on the "
        "thinking directly now."
    ),
    content=(
        "</think>\n\n**Weeks 1–4: full-body, three days a week (e.g. Mon/Wed/Fri)**\n\n"
        "- Goblet squat 3×8–10\n- Push-up (incline if needed) 3×8–12\n- Dumbbell row 3×10 per side\n"
        "- Romanian deadlift 3×10\n- Plank 3×30–45 s\n\n"
        "Add a little weight or a couple of reps each week while keeping form clean. Rest 60–90 s between sets "
        "and take at least one day off between sessions."
    ),
)

T.chat(
    [B, L],
    "qwen3_coder_toolonly",
    "en",
    "Qwen3-Coder served with --tool-call-parser qwen3_xml only: </think> is consumed as a boundary but "
    "reasoning is not split out, so reasoning and the lone end tag sit in content.",
    user="My pandas groupby drops rows where the key is NaN. How do I keep them?",
    content=(
        "groupby drops NaN keys by default; since pandas 1.1 there's dropna=False. Show example.\n</think>\n\n"
        "Pass `dropna=False` (pandas ≥ 1.1):\n\n"
        '```python\ndf.groupby("region", dropna=False)["sales"].sum()\n```\n\n'
        "Rows whose `region` is NaN will then appear under a `NaN` group instead of being silently dropped."
    ),
)

T.chat(
    [B, L],
    "glm45_noparser",
    "zh",
    "GLM-4.5 tagged reasoning in content, Chinese, short answer.",
    user="“的、地、得”怎么区分？",
    content=(
        "<think>\n用户问的、地、得的用法。口诀：的+名词，地+动词，得后面跟补语。举例子。\n</think>\n"
        "简单记：\n\n"
        "- **的** 用在名词前：美丽**的**花园\n"
        "- **地** 用在动词前：认真**地**学习\n"
        "- **得** 用在动词、形容词后，引出补语：跑**得**很快、高兴**得**跳起来"
    ),
)
