"""Per-family output formats: every reasoning family served with and without its parser.

Leaks come from deployments without the family's reasoning parser (or with special tokens kept);
the clean cases use the matching parser. Families: Cohere Command A Reasoning, Holo2, Nemotron,
Olmo 3, Seed-OSS, Magistral, Gemma 4, Granite, Hunyuan, ERNIE, QwQ, DeepSeek R1 / R1-0528 /
V3.1, MiniMax-M2, Kimi K2, GLM-4.5 and Claude.
"""

from __future__ import annotations

from .shapes import MSG, TH, TX, C, Cs, M, Rs, Theme

T = Theme("families")
B, L, MIX, TR, FIR = (
    "boundary_token",
    "reasoning_leak",
    "mixed_chunk",
    "truncated",
    "final_in_reasoning",
)
KEEP_SPECIAL = {"skip_special_tokens": False}

# ================================================================== Cohere Command A Reasoning

T.chat(
    [B, L],
    "cohere_noparser",
    "en",
    "Command A Reasoning without the cohere_command3 reasoning parser and with skip_special_tokens=false: "
    "the thinking and response delimiters and the thinking text are all in content.",
    user="Is it worth refinancing a mortgage to drop the rate from 6.8% to 6.1%?",
    extra=KEEP_SPECIAL,
    content=(
        "<|START_THINKING|>Rate drop of 0.7 points. Worth it depends on closing costs vs monthly savings and "
        "how long they stay. Break-even = costs / monthly savings. Typical closing costs 2-5% of loan. Give "
        "an example with a $300k balance.<|END_THINKING|><|START_RESPONSE|>It can be, but only if you stay "
        "in the home past the break-even point. On a $300,000 balance, dropping from 6.8% to 6.1% saves "
        "roughly $135 a month. With $6,000 in closing costs, it takes about 44 months to break even. If "
        "you expect to move or refinance again before then, it isn't worth it.<|END_RESPONSE|>"
    ),
)

T.chat(
    [B, L],
    "cohere_noparser",
    "ko",
    "Command A Reasoning, no reasoning parser, special tokens kept: Korean thinking and answer with the "
    "Cohere delimiters visible.",
    user="사내 보고서에서 '전년 대비'와 '전년 동기 대비'는 어떻게 구분해서 써요?",
    extra=KEEP_SPECIAL,
    content=(
        "<|START_THINKING|>전년 대비는 연간 수치끼리 비교, 전년 동기 대비는 같은 기간(분기, 월)끼리 비교. "
        "예시를 들어 주자.<|END_THINKING|><|START_RESPONSE|>'전년 대비'는 한 해 전체 수치를 작년 한 해와 "
        "비교할 때 쓰고, '전년 동기 대비'는 같은 기간끼리, 예를 들어 올해 3분기를 작년 3분기와 비교할 때 "
        "씁니다. 분기·월 실적 보고서에서는 계절 요인을 없애기 위해 '전년 동기 대비'를 쓰는 것이 "
        "정확합니다.<|END_RESPONSE|>"
    ),
)

T.chat(
    [B, L],
    "cohere_noparser",
    "zh",
    "Command A Reasoning without a reasoning parser; Chinese output, Cohere delimiters kept in content.",
    user="写周报的时候，怎么把“没完成的任务”写得不那么难看？",
    extra=KEEP_SPECIAL,
    content=(
        "<|START_THINKING|>用户想在周报里如实写未完成事项但不显得消极。建议写清原因、当前进度、下一步和"
        "需要的支持。<|END_THINKING|><|START_RESPONSE|>不用回避，关键是写成“进度+原因+计划”：\n\n"
        "- 当前进度：比如“接口联调完成70%”；\n- 卡点原因：客观说明依赖或风险；\n"
        "- 下一步：给出新的完成时间；\n- 需要的支持：明确请谁协助。\n\n"
        "这样读的人看到的是可控的计划，而不是一句“未完成”。<|END_RESPONSE|>"
    ),
)

T.chat(
    [L],
    "cohere_noparser",
    "en",
    "Command A Reasoning without a reasoning parser and with the default skip_special_tokens=true: the "
    "delimiters are stripped, so the thinking runs straight into the answer. Untagged self-talk opens the "
    "visible text.",
    user="Can I use baking powder instead of baking soda in banana bread?",
    content=(
        "The user is asking about substituting baking powder for baking soda. Baking soda is about three "
        "times stronger and needs the acid from the bananas; powder carries its own acid. So use roughly "
        "three times as much powder, and the flavour will be a little less browned. I'll answer that."
        "Yes. Use about three times as much baking powder as the recipe's baking soda — for 1 teaspoon of "
        "soda, use 1 tablespoon of powder. The loaf will rise fine but will be slightly paler and less "
        "tangy, since soda also helps browning."
    ),
)

T.resp(
    [B, L],
    "cohere_noparser",
    "zh",
    "Responses API on vLLM serving Command A Reasoning without a reasoning parser (special tokens kept): the "
    "output_text of the message item holds the thinking block.",
    user="公司年会抽奖，奖品要不要交个税？",
    extra=KEEP_SPECIAL,
    items=[
        MSG(
            "<|START_THINKING|>单位年会抽奖中奖属于偶然所得，税率20%，通常由公司代扣代缴。<|END_THINKING|>"
            "<|START_RESPONSE|>需要。员工在年会抽奖中获得的奖品按“偶然所得”缴纳个人所得税，税率为20%，"
            "一般由公司代扣代缴。实物奖品按市场价格计税，所以拿到手机这类奖品时，公司可能会让你补缴税款或"
            "由公司承担。<|END_RESPONSE|>"
        )
    ],
)

T.chat_stream(
    [B, L],
    "cohere_noparser",
    "ko",
    "Streamed Command A Reasoning output without a parser: the <|END_THINKING|> delimiter is split across "
    "two content chunks.",
    user="회의 중에 상사가 틀린 숫자를 말하면 바로 정정해야 할까요?",
    extra=KEEP_SPECIAL,
    deltas=[
        C("<|START_THINKING|>"),
        Cs(
            "상황에 따라: 결정에 영향을 주는 숫자면 정중히 바로, 아니면 회의 후 개인적으로.<|END_THIN"
        ),
        C("KING|><|START_RESPONSE|>"),
        Cs(
            '그 숫자로 바로 결정이 내려지는 상황이라면 "제가 본 자료에는 ○○로 되어 있는데 한 번 확인해 '
            '보겠습니다"처럼 자료를 근거로 짧게 말하는 게 좋습니다. 결정과 무관한 숫자라면 회의가 끝난 뒤 '
            "따로 알려 드리는 편이 서로 편합니다."
        ),
        C("<|END_RESPONSE|>"),
    ],
)

T.chat(
    [],
    "cohere",
    "en",
    "Clean: Command A Reasoning with the cohere_command3 reasoning parser; thinking in the reasoning field.",
    user="What's a good way to label freezer bags so I know what's inside?",
    reasoning="Masking tape + permanent marker, write contents, date, portion; flat freezing.",
    content=(
        "Write on a strip of masking tape with a permanent marker before you fill the bag: what it is, the "
        'date, and the portion size ("chili, 2 servings, 12 Oct"). Freeze bags flat so the labels stay '
        "readable when you stack them."
    ),
)

T.chat(
    [],
    "cohere",
    "ko",
    "Clean: Cohere reasoning parser configured; Korean answer only in content.",
    user="와이셔츠 목 때 잘 빠지는 방법 있어요?",
    reasoning="주방세제 또는 샴푸를 묻혀 솔로 문지른 뒤 세탁. 과탄산소다 불림.",
    content=(
        "세탁 전에 목 부분에 주방세제나 샴푸를 조금 묻혀 칫솔로 살살 문질러 두세요. 피지 때는 기름 성분이라 "
        "세정제가 잘 녹여 줍니다. 누렇게 변색됐다면 미지근한 물에 과탄산소다를 풀어 30분 정도 담가 둔 뒤 "
        "빨면 훨씬 깨끗해집니다."
    ),
)

T.chat(
    [],
    "cohere",
    "zh",
    "Clean: Cohere parser configured; reasoning separated from the Chinese answer.",
    user="新买的铁锅第一次用要怎么开锅？",
    reasoning="洗净去防锈油，烧干，抹猪油或食用油反复擦，冷却。",
    content=(
        "先用热水和洗洁精把锅里的防锈油洗干净，小火烧干水分；然后倒一点食用油（有猪皮更好），用厨房纸或猪皮"
        "把油抹满整个锅面，小火烧几分钟，倒掉油擦净，重复两三次。之后每次用完趁热洗、烧干，薄薄抹一层油就不"
        "容易生锈。"
    ),
)

T.chat_stream(
    [],
    "cohere",
    "ja",
    "Clean: streamed Command A Reasoning with the parser; thinking arrives only as reasoning deltas.",
    user="住民票の写しはコンビニで取れますか？",
    deltas=[
        Rs("マイナンバーカードがあれば多くの自治体でコンビニ交付可能。時間6:30-23:00。"),
        Cs(
            "マイナンバーカードがあれば、対応している市区町村ならコンビニのマルチコピー機で取得できます。"
            "利用時間は原則6時30分から23時までで、暗証番号（4桁）が必要です。"
        ),
    ],
)

# ================================================================== Holo2

T.chat(
    [B, L],
    "holo2_noparser",
    "en",
    "Holo2 (thinking on by default) served without the holo2 reasoning parser: the reasoning closes with "
    "</think> inside content.",
    user="On a Mac, how do I take a screenshot of just one window?",
    content=(
        "The user wants a single-window screenshot on macOS. Shortcut: Cmd+Shift+4, then Space, then click "
        "the window. Hold Option to drop the shadow.\n</think>\n\n"
        "Press **Cmd + Shift + 4**, then press **Space**. The pointer turns into a camera; click the window "
        "you want. The image lands on your desktop. Hold **Option** while clicking if you don't want the "
        "drop shadow."
    ),
)

T.chat(
    [B, L],
    "holo2_noparser",
    "ko",
    "Holo2 without reasoning parser; <think> block in content with a Korean answer.",
    user="윈도우11에서 기본 브라우저를 바꾸려면 어디로 가야 해요?",
    content=(
        "<think>\n설정 > 앱 > 기본 앱 경로. 원하는 브라우저 선택 후 '기본값으로 설정' 버튼.\n</think>\n\n"
        "**설정 → 앱 → 기본 앱**으로 가서 원하는 브라우저를 선택한 다음, 맨 위의 **기본값으로 설정** "
        "버튼을 누르면 됩니다. 그러면 웹 링크와 .html 파일이 모두 그 브라우저로 열립니다."
    ),
)

T.chat(
    [B, L],
    "holo2_noparser",
    "zh",
    "Holo2 without reasoning parser; Chinese reasoning before a lone </think>.",
    user="Excel 里怎么把一列姓名按拼音排序？",
    content=(
        "Excel 排序选项里有“字母排序”和“笔划排序”，默认中文按拼音。步骤：选中列，数据→排序，选项里选"
        "字母排序。\n</think>\n\n"
        "选中姓名所在的列，点 **数据 → 排序**，在弹出的窗口里点 **选项**，选择 **字母排序**，确定后按升序"
        "排列即可。中文会按拼音首字母排序；如果要按笔画，就选“笔划排序”。"
    ),
)

T.chat_stream(
    [B, L],
    "holo2_noparser",
    "en",
    "Streamed Holo2 output without a parser; the end tag is split ('</thi' + 'nk>').",
    user="How do I stop Chrome from opening the tabs from my last session?",
    deltas=[
        Cs(
            "Setting is under Settings > On startup. Choose 'Open the New Tab page' instead of 'Continue "
            "where you left off'.\n</thi"
        ),
        C("nk>\n\n"),
        Cs(
            "Go to **Settings → On startup** and pick **Open the New Tab page** (or a specific page) instead "
            "of **Continue where you left off**. Chrome will start fresh next time."
        ),
    ],
)

T.chat(
    [],
    "holo2",
    "en",
    "Clean: Holo2 with the holo2 reasoning parser.",
    user="In Gmail, how do I find all emails with attachments bigger than 10 MB?",
    reasoning="Search operator: has:attachment larger:10M.",
    content=(
        "Type `has:attachment larger:10M` into the Gmail search bar. Add `older_than:1y` if you only want "
        "old ones, which is handy when you're freeing up storage."
    ),
)

T.chat(
    [],
    "holo2",
    "ko",
    "Clean: Holo2 with parser; Korean answer.",
    user="아이폰에서 사진 위치 정보 지우고 보내는 법 알려줘",
    reasoning="공유 시트 상단 '옵션' → 위치 끄기.",
    content=(
        "사진을 고른 뒤 공유 버튼을 누르고, 화면 위쪽의 **옵션**을 누른 다음 **위치**를 끄고 보내면 됩니다. "
        "원본 사진의 위치 정보는 그대로 남고, 보내는 사진에서만 빠집니다."
    ),
)

T.chat(
    [],
    "holo2",
    "zh",
    "Clean: Holo2 with thinking turned off via chat_template_kwargs (thinking=False); no reasoning at all.",
    user="微信里怎么把聊天记录迁移到新手机？",
    tkw={"thinking": False},
    content=(
        "两部手机连同一个 WiFi，在旧手机上打开 **我 → 设置 → 通用 → 聊天记录迁移与备份 → 迁移**，"
        "选择要迁移的聊天，然后用新手机登录同一个微信号扫码即可。迁移过程中两部手机都不要锁屏。"
    ),
)

T.chat_stream(
    [],
    "holo2",
    "ja",
    "Clean: streamed Holo2 with the holo2 parser.",
    user="Windowsでクリップボード履歴を使うには？",
    deltas=[
        Rs("Win+V, 初回は有効化。"),
        Cs(
            "**Windowsキー + V** を押すとクリップボード履歴が開きます。初めて使うときは「有効にする」を押して"
            "ください。以降はコピーした内容が一覧に残り、選んで貼り付けられます。"
        ),
    ],
)

# ================================================================== Nemotron

T.chat(
    [B, L],
    "nemotron_noparser",
    "en",
    "Nemotron 3 Nano served without the nemotron_v3 reasoning parser: the <think> block is in content.",
    user="What's a reasonable emergency fund for a single person renting an apartment?",
    content=(
        "<think>\nStandard advice 3-6 months of essential expenses. Renters single: closer to 3-6 depending "
        "on job stability. Keep in high-yield savings. Essential expenses, not income.\n</think>\n\n"
        "Aim for **three to six months of essential expenses** — rent, utilities, food, insurance, minimum "
        "debt payments — not of your full income. Lean toward six months if your income is irregular or "
        "your field is slow to hire. Keep it in a high-yield savings account you can reach within a day."
    ),
)

T.chat(
    [B, L],
    "nemotron_noparser",
    "zh",
    "Nemotron without a reasoning parser; Chinese think block in content.",
    user="孩子三岁了还不怎么说话，需要去医院看看吗？",
    content=(
        "<think>\n三岁语言发育：正常应能说短句，词汇几百个。如果只会几个词或听不懂指令，建议儿保科或发育"
        "行为科评估，同时查听力。\n</think>\n\n"
        "建议去看看。一般三岁的孩子能说三到五个字的短句，也能听懂简单指令。如果孩子能说的词很少、不太理会"
        "别人叫他，最好到儿童保健科或发育行为科做一次评估，并查一下听力。早发现早干预，效果会好很多。"
    ),
)

T.chat(
    [L],
    "nemotron_noparser",
    "ko",
    "Nemotron with thinking disabled through chat_template_kwargs still thinks aloud, without any "
    "delimiter: the visible text opens with untagged self-talk about the question.",
    user="노트북 배터리를 항상 충전기에 꽂아 둬도 괜찮아요?",
    tkw={"enable_thinking": False},
    content=(
        "사용자가 노트북을 계속 충전기에 연결해 둬도 되는지 묻고 있다. 요즘 노트북은 과충전 보호가 있지만 "
        "100% 상태와 열이 배터리 수명을 줄인다는 점을 설명하면 되겠다.\n\n"
        "대부분의 노트북은 과충전 보호 기능이 있어서 꽂아 둔다고 바로 문제가 생기지는 않습니다. 다만 100% "
        "상태로 오래 있고 열이 많이 나면 배터리가 빨리 닳습니다. 제조사 유틸리티에 '배터리 보호'나 "
        "'최대 80% 충전' 옵션이 있다면 켜 두세요."
    ),
)

T.resp_stream(
    [B, L],
    "nemotron_noparser",
    "en",
    "Streamed Responses API on vLLM without a reasoning parser: output_text deltas carry the <think> block.",
    user="Why does bread go stale faster in the fridge?",
    items=[
        MSG(
            [
                "<think>\nStarch retrogradation",
                " is fastest near fridge temperatures, so bread stales faster at 4 °C than at room "
                "temperature.\n</think>\n\n",
                "Because staling isn't drying out — it's the starch recrystallizing, and that happens fastest "
                "at fridge temperatures. Keep bread at room temperature for a couple of days, and freeze "
                "what you won't eat by then.",
            ]
        )
    ],
)

T.chat(
    [TR],
    "nemotron",
    "en",
    "max_tokens ran out during reasoning: with the nemotron_v3 parser the reasoning is in its field, content "
    "is null and finish_reason is length (truncated only).",
    user="Prove that the square root of 2 is irrational, with every step justified.",
    max_tokens=160,
    reasoning=(
        "Standard proof by contradiction. Suppose sqrt(2) = p/q in lowest terms. Then p^2 = 2q^2, so p^2 is "
        "even, so p is even (if p were odd, p^2 would be odd). Write p = 2k. Then 4k^2 = 2q^2, q^2 = 2k^2, "
        "so q is even too, contradicting lowest terms. Need to justify"
    ),
    content=None,
    finish="length",
)

T.chat(
    [],
    "nemotron",
    "en",
    "Clean: Nemotron with the nemotron_v3 parser.",
    user="Is it OK to run a dishwasher that's only half full?",
    reasoning="Works fine; water use same per cycle, so less efficient; use half-load/eco if available.",
    content=(
        "Yes, it'll clean fine — it just uses the same water and energy as a full load, so it's less "
        "efficient. If your machine has a half-load or eco setting, use that, or wait a day to fill it."
    ),
)

T.chat(
    [],
    "nemotron",
    "ko",
    "Clean: Nemotron with parser; Korean answer.",
    user="겨울에 실내 적정 습도는 어느 정도예요?",
    reasoning="40~60%. 너무 높으면 결로·곰팡이.",
    content=(
        "겨울철 실내 습도는 **40~60%**가 적당합니다. 40% 아래로 떨어지면 목이 건조해지고 정전기가 잘 "
        "생기며, 60%를 넘으면 창가에 결로가 생겨 곰팡이가 피기 쉽습니다."
    ),
)

T.chat_stream(
    [],
    "nemotron",
    "zh",
    "Clean: streamed Nemotron with the parser; usage chunk at the end.",
    user="隔夜菜到底能不能吃？",
    usage_chunk=True,
    deltas=[
        Rs("及时冷藏、24小时内吃完、彻底加热一般可以；绿叶菜尽量现做。"),
        Cs(
            "可以吃，但要注意三点：做好后尽快放凉并冷藏，最好24小时内吃完；吃之前要彻底加热；绿叶菜、凉拌菜"
            "和海鲜尽量当天吃完。放在室温过夜的菜就别再吃了。"
        ),
    ],
)

# ================================================================== Olmo 3

T.chat(
    [B, L],
    "olmo3_noparser",
    "en",
    "Olmo 3 Think served without the olmo3 reasoning parser: the <think> block is in content.",
    user="What's the difference between weather and climate, in two sentences?",
    content=(
        "<think>\nWeather: short-term conditions, hours to days. Climate: long-term average patterns, "
        "typically 30 years. Two sentences.\n</think>\n\n"
        "Weather is what the atmosphere is doing right now or over the next few days — rain, heat, wind. "
        "Climate is the long-term pattern of that weather in a place, usually averaged over about 30 years."
    ),
)

T.chat(
    [B, L],
    "olmo3_noparser",
    "ko",
    "Olmo 3 Think without a reasoning parser; the reasoning ends with a lone </think> in content.",
    user="커피를 마시면 왜 화장실에 가고 싶어져요?",
    content=(
        "카페인이 대장 운동을 자극하고 위결장 반사를 촉진한다. 디카페인도 어느 정도 효과가 있다는 점도 "
        "언급.\n</think>\n\n"
        "커피는 대장의 움직임을 활발하게 만들어 배변 신호를 빠르게 불러옵니다. 카페인 영향이 크지만, "
        "디카페인 커피도 어느 정도 같은 효과가 있어서 커피 속 다른 성분도 관여하는 것으로 보입니다."
    ),
)

T.chat(
    [B, L],
    "olmo3_noparser",
    "zh",
    "Olmo 3 Think without a parser; Chinese answer after the <think> block.",
    user="为什么飞机起飞前要把遮光板打开？",
    content=(
        "<think>\n原因：乘务员和乘客能看到外面情况，紧急情况便于判断；眼睛适应外面光线。\n</think>\n\n"
        "主要是为了安全：起降是最容易出状况的阶段，打开遮光板能让乘务员和乘客随时看到机外情况，比如起火或"
        "漏油；同时眼睛提前适应外面的光线，万一需要紧急撤离，出舱后不会一时看不清。"
    ),
)

T.msg(
    [B, L],
    "olmo3_noparser",
    "en",
    "Olmo 3 behind vLLM's /v1/messages endpoint without a reasoning parser: the text block carries the "
    "<think> section instead of a thinking block.",
    user="Should I stretch before or after running?",
    blocks=[
        TX(
            "<think>\nDynamic warm-up before, static stretching after. Static before may slightly reduce "
            "power.\n</think>\n\n"
            "Do a short **dynamic warm-up before** — leg swings, walking lunges, an easy jog — and save "
            "**static stretches for after** the run, when your muscles are warm."
        )
    ],
)

T.chat(
    [],
    "olmo3",
    "en",
    "Clean: Olmo 3 Think with the olmo3 reasoning parser.",
    user="How long do cooked lentils last in the fridge?",
    reasoning="3-5 days in airtight container; freeze up to 3 months.",
    content="About **3 to 5 days** in a sealed container. They also freeze well for up to three months.",
)

T.chat(
    [],
    "olmo3",
    "zh",
    "Clean: Olmo 3 with the parser; Chinese answer.",
    user="跑完步马上洗冷水澡好不好？",
    reasoning="建议先休息15-30分钟，心率平稳后用温水。",
    content=(
        "不太建议。刚跑完心率和体温都还高，马上冲冷水容易引起不适。先慢走或休息十五到三十分钟，等心率平稳、"
        "汗差不多干了，再用温水洗澡更合适。"
    ),
)

T.chat_stream(
    [],
    "olmo3",
    "ko",
    "Clean: streamed Olmo 3 with the olmo3 parser.",
    user="새로 산 운동화 냄새 빼는 방법 있어요?",
    deltas=[
        Rs("베이킹소다, 신문지, 햇볕 건조."),
        Cs(
            "베이킹소다를 양말이나 종이봉투에 담아 신발 안에 하룻밤 넣어 두면 냄새가 많이 빠집니다. 그다음 "
            "바람이 잘 통하는 그늘에서 하루 정도 말려 주세요."
        ),
    ],
)

# ================================================================== Seed-OSS

T.chat(
    [B, L],
    "seed_oss_noparser",
    "ko",
    "Seed-OSS without the seed_oss reasoning parser: <seed:think>…</seed:think> stays in content.",
    user="전세사기 예방하려면 계약 전에 뭘 꼭 봐야 돼요?",
    content=(
        "<seed:think>등기부등본 근저당, 전세가율, 임대인 세금 체납, 전세보증보험 가입 가능 여부.</seed:think>"
        "계약 전에 최소한 다음 네 가지는 확인하세요.\n\n"
        "1. 등기부등본: 소유자와 근저당 금액\n2. 전세가율: 매매가 대비 보증금이 지나치게 높지 않은지\n"
        "3. 임대인 국세·지방세 체납 여부(임대인 동의로 열람 가능)\n4. 전세보증보험 가입이 가능한 집인지"
    ),
)

T.chat(
    [B, L],
    "seed_oss_noparser",
    "ja",
    "Seed-OSS raw reasoning delimiters around Japanese reasoning; no reasoning parser.",
    user="梅雨の時期に洗濯物を部屋干しするとき、臭わないコツは？",
    content=(
        "<seed:think>生乾き臭は雑菌。早く乾かすこと：間隔をあける、扇風機・除湿機、洗濯後すぐ干す。"
        "</seed:think>ポイントは**できるだけ早く乾かすこと**です。洗い終わったらすぐ干し、洗濯物同士の間隔を"
        "こぶし一つ分あけて、扇風機や除湿機の風を当ててください。5時間以内に乾けば臭いはほとんど出ません。"
    ),
)

T.chat_stream(
    [B, L],
    "seed_oss_noparser",
    "en",
    "Streamed Seed-OSS output without a parser; the end delimiter is split ('</seed:th' + 'ink>').",
    user="Can I put a cast iron pan in the dishwasher?",
    deltas=[
        C("<seed:think>"),
        Cs(
            "No: dishwasher strips seasoning and causes rust. Hand wash, dry on heat, oil.</seed:th"
        ),
        C("ink>"),
        Cs(
            "No — the dishwasher strips the seasoning and the pan will rust. Rinse it with hot water (a drop "
            "of soap is fine), dry it on the stove, and wipe on a thin film of oil."
        ),
    ],
)

T.chat(
    [],
    "seed_oss",
    "en",
    "Clean: Seed-OSS with the seed_oss reasoning parser.",
    user="How often should I water a snake plant?",
    reasoning="Every 2-3 weeks, less in winter; let soil dry fully.",
    content=(
        "Only when the soil has dried out completely — usually every two to three weeks, and about once a "
        "month in winter. Overwatering is what kills most snake plants."
    ),
)

T.chat(
    [],
    "seed_oss",
    "ko",
    "Clean: Seed-OSS with parser; Korean answer.",
    user="라면 물 조절 실패했을 때 짜면 어떻게 해요?",
    reasoning="뜨거운 물 추가, 우유, 계란, 두부.",
    content=(
        "끓는 물을 조금 더 붓는 게 가장 빠릅니다. 국물 맛이 싱거워지는 게 싫다면 계란을 풀거나 두부, "
        "콩나물을 넣어 짠맛을 분산시키는 방법도 있습니다."
    ),
)

T.chat_stream(
    [],
    "seed_oss",
    "zh",
    "Clean: streamed Seed-OSS with the parser.",
    user="西瓜切开后放冰箱要不要盖保鲜膜？",
    deltas=[
        Rs("要，防止串味和细菌，切面贴保鲜膜，尽快吃完。"),
        Cs(
            "要盖。切面贴上保鲜膜能防止串味和细菌污染，冷藏后最好在一两天内吃完，吃之前把表面一层切掉。"
        ),
    ],
)

# ================================================================== Magistral

T.chat(
    [B, L],
    "magistral_noparser",
    "ko",
    "Magistral emits [THINK]…[/THINK]; served without the mistral reasoning parser.",
    user="2의 10제곱은 얼마예요?",
    content="[THINK]2^10 = 1024.[/THINK]2의 10제곱은 **1,024**입니다.",
)

T.chat(
    [B, L],
    "magistral_noparser",
    "zh",
    "Magistral raw [THINK] section with a Chinese answer; no reasoning parser.",
    user="一年有多少个星期？",
    content=(
        "[THINK]365天除以7等于52周余1天，闰年余2天。[/THINK]一年大约有 **52 个星期**：平年是52周零1天，"
        "闰年是52周零2天。"
    ),
)

T.chat_stream(
    [B, L],
    "magistral_noparser",
    "en",
    "Streamed Magistral output without a parser; '[/THI' + 'NK]' split across chunks.",
    user="Is a tomato a fruit or a vegetable?",
    deltas=[
        C("[THINK]"),
        Cs("Botanically fruit (develops from flower, has seeds); culinarily vegetable.[/THI"),
        C("NK]"),
        Cs(
            "Botanically it's a fruit, since it grows from the flower and carries the seeds. In the kitchen "
            "it's treated as a vegetable because it's savory."
        ),
    ],
)

T.chat(
    [L],
    "magistral_sglang",
    "en",
    "Magistral behind SGLang with no reasoning parser and special tokens skipped: the [THINK] markers are "
    "dropped, so the reasoning runs straight into the answer (untagged self-talk at the start).",
    user="How many minutes should I boil an egg for a jammy yolk?",
    content=(
        "Okay, the user wants a jammy yolk, so somewhere between soft and hard boiled. For a large egg "
        "straight from the fridge into boiling water, about six and a half to seven minutes, then an ice "
        "bath.\n\nBoil a large egg for **6½–7 minutes**, lowering it into water that's already boiling, then "
        "move it straight into ice water for a few minutes. The white will be set and the yolk soft and "
        "jammy."
    ),
)

T.chat(
    [],
    "magistral",
    "en",
    "Clean: Magistral with the mistral reasoning parser.",
    user="Is 221 prime?",
    reasoning="221 = 13 × 17.",
    content="No. 221 = 13 × 17.",
)

T.chat(
    [],
    "magistral",
    "zh",
    "Clean: Magistral with parser; Chinese answer.",
    user="“三人行，必有我师焉”出自哪里？",
    reasoning="《论语·述而》。",
    content="出自《论语·述而》。意思是几个人同行，其中一定有值得我学习的人。",
)

T.chat(
    [],
    "magistral",
    "ko",
    "Clean: Magistral with parser; Korean answer.",
    user="빛의 속도는 초속 몇 km예요?",
    reasoning="약 299,792 km/s.",
    content="빛의 속도는 진공에서 초속 약 **299,792 km**, 흔히 초속 30만 km라고 말합니다.",
)

# ================================================================== Gemma 4

T.chat(
    [B, L],
    "gemma4_noparser",
    "zh",
    "Gemma 4 thinking channel visible in content (no gemma4 reasoning parser).",
    user="养多肉植物最容易犯的错误是什么？",
    tkw={"enable_thinking": True},
    content=(
        "<|channel>thought\n最常见：浇水太多导致烂根；其次光照不足徒长。<channel|>"
        "最常见的错误是**浇水太多**。多肉的根怕闷怕湿，盆土没干透就浇水很容易烂根。其次是光照不足，"
        "植株会变得细长、颜色变淡。记住“干透浇透、多晒太阳”就能避开大部分问题。"
    ),
)

T.chat(
    [B, L],
    "gemma4_noparser",
    "ja",
    "Gemma 4 thought channel in content with a Japanese answer.",
    user="新幹線で一番揺れにくい席はどこですか？",
    tkw={"enable_thinking": True},
    content=(
        "<|channel>thought\n台車の真上を避けて車両中央が揺れにくい。<channel|>"
        "一般的に**車両の中央付近**が揺れにくいと言われます。車両の両端は台車の真上にあたるため、"
        "振動を感じやすいからです。"
    ),
)

T.chat_stream(
    [B, L],
    "gemma4_noparser",
    "en",
    "Streamed Gemma 4 without the gemma4 parser; the opening '<|channel>' is split across chunks.",
    user="What's the quickest way to cool down a hot car?",
    tkw={"enable_thinking": True},
    deltas=[
        C("<|chan"),
        C(
            "nel>thought\nOpen windows, AC on fresh air briefly then recirculate; fan the door.<channel|>"
        ),
        Cs(
            "Open the windows on one side and swing the door on the other side a few times to push the hot "
            "air out. Then start driving with the AC on high and the windows down for the first minute, "
            "and switch to recirculate once the air from the vents feels cool."
        ),
    ],
)

T.chat(
    [],
    "gemma4",
    "ko",
    "Clean: Gemma 4 with the gemma4 reasoning parser and thinking enabled via reasoning_effort.",
    user="김치찌개에 설탕을 넣는 이유가 뭐예요?",
    extra={"reasoning_effort": "low"},
    reasoning="신맛 중화.",
    content=(
        "푹 익은 김치의 **신맛을 누그러뜨리기** 위해서입니다. 설탕을 반 작은술 정도만 넣어도 신맛이 "
        "부드러워지고 감칠맛이 살아납니다."
    ),
)

T.chat(
    [],
    "gemma4",
    "en",
    "Clean: Gemma 4 with thinking off (default); no reasoning at all.",
    user="How many teaspoons are in a tablespoon?",
    content="There are **3 teaspoons** in a tablespoon.",
)

T.chat_stream(
    [],
    "gemma4",
    "zh",
    "Clean: streamed Gemma 4 with the gemma4 parser; the thought channel goes to reasoning deltas.",
    user="咖啡和茶哪个咖啡因更多？",
    tkw={"enable_thinking": True},
    deltas=[
        Rs("一杯咖啡约80-100mg，一杯茶约30-50mg。"),
        Cs(
            "按一杯算，**咖啡**更多：一杯现煮咖啡大约80到100毫克，一杯红茶或绿茶通常只有30到50毫克。"
        ),
    ],
)

# ================================================================== Granite

T.chat(
    [B, L],
    "granite_noparser",
    "zh",
    "Granite 3.2 with thinking=True but no granite reasoning parser: both headers and the thought process "
    "are visible.",
    user="怎么判断一个鸡蛋新不新鲜？",
    tkw={"thinking": True},
    content=(
        "Here is my thought process:\nWater test: fresh eggs sink and lie flat; older eggs stand up; bad eggs "
        "float. Also crack test: yolk rounded, white thick.\n\n"
        "Here is my response:\n把鸡蛋放进一碗清水里：沉底并平躺的是新鲜蛋；沉底但竖起来的放了一段时间，"
        "要尽快吃；浮起来的就别吃了。打开后蛋黄饱满、蛋白浓稠不散，也说明比较新鲜。"
    ),
)

T.chat(
    [B, L],
    "granite_noparser",
    "en",
    "Granite thinking output without a parser, short form.",
    user="Why do onions make you cry?",
    tkw={"thinking": True},
    content=(
        "Here is my thought process:\nCutting releases enzymes that make syn-propanethial-S-oxide, a gas that "
        "irritates the eyes.\n\nHere is my response:\nCutting an onion breaks its cells and releases a "
        "sulfur gas that irritates your eyes, which then water to flush it out. Chilling the onion and "
        "using a sharp knife both cut down on the gas."
    ),
)

T.chat(
    [],
    "granite",
    "ko",
    "Clean: Granite with thinking=True and the granite reasoning parser.",
    user="자전거 체인에서 소리가 나면 뭘 해야 해요?",
    tkw={"thinking": True},
    reasoning="체인 세척 후 윤활. 변속 조정 확인.",
    content=(
        "대부분은 윤활이 부족해서 납니다. 마른 헝겊으로 체인을 닦은 뒤 체인 오일을 링크마다 한 방울씩 "
        "떨어뜨리고, 겉에 남은 기름은 닦아 내세요. 그래도 소리가 나면 변속기 조정이 필요할 수 있습니다."
    ),
)

T.chat(
    [],
    "granite",
    "zh",
    "Clean: Granite without thinking; plain answer.",
    user="手机充电时可以玩游戏吗？",
    content=(
        "可以，但不建议长时间边充边玩大型游戏：充电和高负载会让手机发热，长期高温会加快电池老化。"
        "如果一定要玩，最好取下手机壳，放在通风的地方。"
    ),
)

T.chat(
    [],
    "granite",
    "en",
    "Clean: Granite thinking mode with the granite parser; headers consumed by the parser.",
    user="How do I get candle wax out of a tablecloth?",
    tkw={"thinking": True},
    reasoning="Freeze and scrape, then iron between paper towels, then treat stain.",
    content=(
        "Let the wax harden (an ice cube speeds it up) and scrape off as much as you can. Then lay a paper "
        "towel over the spot and press with a warm iron; the paper soaks up the melted wax. Treat any "
        "colour left behind with stain remover before washing."
    ),
)

# ================================================================== Hunyuan

T.chat(
    [B, L],
    "hunyuan_noparser",
    "ko",
    "Hunyuan-A13B raw <think>/<answer> output kept in content (no reasoning parser).",
    user="감기약이랑 커피 같이 먹어도 돼요?",
    content=(
        "<think>\n종합감기약에 카페인이 들어 있는 경우가 많다. 커피와 같이 먹으면 카페인 과다로 두근거림, "
        "불면. 가능하면 피하라고.\n</think>\n<answer>\n가급적 피하는 것이 좋습니다. 종합감기약에는 카페인이 "
        "들어 있는 경우가 많아서 커피까지 마시면 가슴 두근거림이나 불면이 생길 수 있습니다. 약 상자의 "
        "성분표에서 '카페인무수물'이 있는지 확인해 보세요.\n</answer>"
    ),
)

T.chat_stream(
    [B, L],
    "hunyuan_noparser",
    "en",
    "Streamed Hunyuan raw output with no reasoning parser; '</think>' split across chunks.",
    user="How long can I leave cooked pasta out before it's unsafe?",
    deltas=[
        C("<think>\n"),
        Cs("Two-hour rule for perishable food at room temperature; one hour above 32 °C.\n</thi"),
        C("nk>\n<answer>\n"),
        Cs(
            "No more than **two hours** at room temperature, or one hour on a hot day above about 32 °C. "
            "After that, bacteria such as Bacillus cereus can make toxins that reheating won't destroy."
        ),
        C("\n</answer>"),
    ],
)

T.chat(
    [],
    "hunyuan",
    "zh",
    "Clean: Hunyuan-A13B with the hunyuan_a13b parser; answer tags removed.",
    user="冬天跑步要注意什么？",
    reasoning="充分热身、分层穿衣、保护手和耳朵、注意路面结冰。",
    content=(
        "冬天跑步要注意：充分热身再出发；衣服分层穿，出汗后方便减；戴手套和护耳；避开结冰路面；"
        "跑完尽快换下湿衣服，防止着凉。"
    ),
)

T.chat(
    [],
    "hunyuan",
    "en",
    "Clean: Hunyuan with parser; English answer.",
    user="Is it bad to charge my phone overnight?",
    reasoning="Modern phones stop at 100%; optimized charging; heat is the issue.",
    content=(
        "Not really. Modern phones stop charging at 100% and many learn your routine to finish just before "
        "you wake up. Heat is the bigger risk, so don't charge it under a pillow."
    ),
)

T.chat(
    [],
    "hunyuan",
    "ko",
    "Clean: Hunyuan with parser; Korean answer.",
    user="실내 자전거 30분 타면 칼로리 얼마나 소모돼요?",
    reasoning="강도에 따라 150~350kcal.",
    content=(
        "강도와 체중에 따라 다르지만, 체중 60~70kg 기준으로 가볍게 타면 **150kcal 안팎**, 숨이 찰 정도로 "
        "타면 **300kcal 이상**을 소모합니다."
    ),
)

# ================================================================== ERNIE

T.chat(
    [B, L],
    "ernie_noparser",
    "ko",
    "ERNIE-4.5 Thinking without the ernie45 reasoning parser: reasoning before a lone </think> and a "
    "<response> wrapper.",
    user="면접 마지막에 '질문 있으세요?' 하면 뭐라고 해야 해요?",
    content=(
        "면접 마지막 질문. 업무 기대치, 팀 구성, 성장 기회 같은 질문 추천. 연봉 질문은 1차 면접에선 "
        '피하라고.\n</think>\n\n<response>\n"없습니다"보다는 짧은 질문 하나를 준비해 가세요. 예를 들어 '
        '"입사하면 첫 3개월 동안 가장 기대하시는 성과가 무엇인가요?"나 "팀은 어떻게 구성되어 있나요?" '
        "같은 질문이 좋습니다. 연봉이나 휴가 질문은 1차 면접에서는 피하는 편이 무난합니다.\n</response>"
    ),
)

T.chat_stream(
    [B, L],
    "ernie_noparser",
    "zh",
    "Streamed ERNIE raw output without a parser; reasoning then a split '</think>' and the <response> "
    "wrapper.",
    user="第一次养猫需要准备什么？",
    deltas=[
        Cs("清单：猫粮、猫砂盆和猫砂、食盆水盆、猫抓板、航空箱、驱虫疫苗安排。\n</th"),
        C("ink>\n\n<response>\n"),
        Cs(
            "第一次养猫，先备齐这些：\n\n- 猫粮、食盆和水盆\n- 猫砂盆和猫砂\n- 猫抓板\n- 航空箱（去医院用）\n\n"
            "接回家后一周内带去宠物医院检查，并安排驱虫和疫苗。"
        ),
        C("\n</response>"),
    ],
)

T.chat(
    [],
    "ernie",
    "zh",
    "Clean: ERNIE-4.5 Thinking with the ernie45 parser.",
    user="怎么去除衣服上的圆珠笔印？",
    reasoning="酒精或风油精擦拭，再用洗衣液洗。",
    content="用棉签蘸医用酒精轻轻擦拭笔迹，墨迹溶开后再用洗衣液搓洗即可。深色衣服先在不显眼处试一下。",
)

T.chat(
    [],
    "ernie",
    "en",
    "Clean: ERNIE with parser; English answer.",
    user="What's the healthiest way to cook broccoli?",
    reasoning="Steaming retains most nutrients; short time.",
    content=(
        "Steaming for 3–5 minutes keeps the most vitamin C and the glucosinolates; boiling loses more to the "
        "water. Stop while it's still bright green and slightly crisp."
    ),
)

T.chat(
    [],
    "ernie",
    "ko",
    "Clean: ERNIE with parser; Korean answer.",
    user="겨울철 보일러 외출 모드는 언제 쓰는 게 좋아요?",
    reasoning="하루 이내 외출은 온도 낮춰 유지, 장기 외출은 외출 모드.",
    content=(
        "하루 이상 집을 비울 때 쓰는 게 좋습니다. 몇 시간 외출이라면 외출 모드보다 설정 온도를 2~3도 낮춰 "
        "두는 편이 다시 데우는 데 드는 가스를 줄여 줍니다."
    ),
)

# ================================================================== QwQ

T.chat(
    [B, L],
    "qwq_noparser",
    "ko",
    "QwQ's template prefills <think>, so the raw output is reasoning then a lone </think>; served without a "
    "reasoning parser.",
    user="시계의 시침과 분침이 하루에 몇 번 겹쳐요?",
    content=(
        "분침은 시침을 12시간에 11번 따라잡는다. 하루 24시간이면 22번. 12시 정각이 양쪽에 한 번씩 "
        "포함된다.\n</think>\n\n"
        "하루에 **22번** 겹칩니다. 분침이 12시간 동안 시침을 11번 따라잡기 때문에, 24시간이면 22번이 됩니다."
    ),
)

T.chat(
    [B, L],
    "qwq_noparser",
    "zh",
    "QwQ raw output (lone end tag) with Chinese reasoning and answer; no parser.",
    user="100以内有多少个质数？",
    content=(
        "逐个数：2,3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59,61,67,71,73,79,83,89,97，共25个。\n</think>\n\n"
        "100以内共有 **25** 个质数，最小的是2，最大的是97。"
    ),
)

T.chat_stream(
    [MIX],
    "qwq_sglang",
    "en",
    "QwQ on SGLang with the deepseek-r1 reasoning parser: the boundary chunk carries both reasoning_content "
    "and content.",
    user="If a train leaves at 14:50 and the trip takes 2 h 25 min, when does it arrive?",
    rkey="reasoning_content",
    deltas=[
        Rs("14:50 + 2:00 = 16:50, + 25 min = 17:15."),
        M(" Arrival 17:15.", "It"),
        Cs(" arrives at **17:15**."),
    ],
)

T.chat(
    [],
    "qwq",
    "en",
    "Clean: QwQ with the deepseek_r1 parser.",
    user="What's the sum of the interior angles of a hexagon?",
    reasoning="(6-2) × 180 = 720.",
    content="**720°** — for any polygon it's (n − 2) × 180°, and a hexagon has n = 6.",
)

T.chat(
    [],
    "qwq",
    "zh",
    "Clean: QwQ with parser; Chinese answer.",
    user="把0.375化成分数。",
    reasoning="375/1000 = 3/8。",
    content="0.375 = 375/1000 = **3/8**。",
)

T.chat_stream(
    [],
    "qwq_sglang",
    "ko",
    "Clean: streamed QwQ with the deepseek-r1 parser; reasoning_content and content in separate chunks.",
    user="1부터 100까지 더하면 얼마예요?",
    rkey="reasoning_content",
    deltas=[
        Rs("가우스 공식 n(n+1)/2 = 5050."),
        Cs("**5,050**입니다. 1+100, 2+99처럼 짝을 지으면 101이 50쌍 나오기 때문입니다."),
    ],
)

# ================================================================== DeepSeek R1 (no start tag) and R1-0528 (both tags)

T.chat(
    [B, L],
    "deepseek_r1_noparser",
    "ja",
    "Original DeepSeek-R1 emits no start tag: Japanese reasoning, a lone </think>, then the answer.",
    user="1リットルの水を沸かすのに電気ケトルだと何分くらい？",
    content=(
        "1200Wのケトルで1Lを20℃から100℃へ。必要熱量は約335kJ、効率80%として約350秒、つまり5〜6分。"
        "\n</think>\n\n一般的な1200W前後の電気ケトルなら、1リットルでおよそ**5〜6分**です。"
        "水の量を必要な分だけにすると、時間も電気代も節約できます。"
    ),
)

T.chat(
    [B, L],
    "deepseek_r1_0528_noparser",
    "en",
    "DeepSeek-R1-0528 writes both the start and the end tag; served without a reasoning parser, the whole "
    "<think> block is in content.",
    user="Do I need to rinse rice before cooking it?",
    content=(
        "<think>\nRinsing removes surface starch: less gummy for long-grain; not needed for risotto; "
        "enriched rice in the US loses some added vitamins when rinsed.\n</think>\n\n"
        "It depends on the dish. Rinsing long-grain rice like basmati or jasmine washes off surface starch, "
        "so the grains stay separate. Skip it for risotto or rice pudding, where you want that starch. "
        "Enriched US rice also loses some of its added vitamins when rinsed."
    ),
)

T.chat(
    [B, L],
    "deepseek_r1_0528_noparser",
    "ko",
    "DeepSeek-R1-0528 with both tags, no reasoning parser; Korean.",
    user="아파트 층간소음 민원은 어디에 넣어야 해요?",
    content=(
        "<think>\n순서: 관리사무소 → 층간소음 이웃사이센터(1661-2642) → 환경분쟁조정위원회. 직접 찾아가 "
        "항의하는 건 갈등 악화 위험.\n</think>\n\n"
        "먼저 **관리사무소**에 알리고, 해결이 안 되면 **층간소음 이웃사이센터**(1661-2642)에 상담과 현장 "
        "측정을 신청할 수 있습니다. 그래도 안 되면 환경분쟁조정위원회에 조정을 신청하세요. 직접 찾아가 "
        "항의하는 것은 갈등을 키우기 쉬워 권하지 않습니다."
    ),
)

T.chat(
    [B, L],
    "deepseek_r1_0528_noparser",
    "zh",
    "DeepSeek-R1-0528 with both tags in content; Chinese.",
    user="燃气热水器和电热水器哪个更省钱？",
    content=(
        "<think>\n比较：燃气即开即热、按用量计费，通常更省；电热水器保温耗电，但峰谷电价可以降低成本。"
        "\n</think>\n\n"
        "多数家庭用**燃气热水器**更省钱：即开即热，用多少烧多少。电热水器需要反复保温，如果当地有峰谷电价、"
        "能在夜间低谷时加热，差距会缩小。"
    ),
)

T.chat(
    [],
    "deepseek_r1_0528",
    "ja",
    "Clean: DeepSeek-R1-0528 with the deepseek_r1 parser.",
    user="ペットボトルのお茶は開けたら何日もちますか？",
    reasoning="開封後は冷蔵で1〜2日、口をつけたらその日のうちに。",
    content="開封後は冷蔵庫に入れて**1〜2日**が目安です。直接口をつけた場合は、その日のうちに飲み切ってください。",
)

T.chat(
    [],
    "deepseek_r1_0528",
    "ko",
    "Clean: DeepSeek-R1-0528 with parser; Korean answer.",
    user="냉동실에 넣어 둔 고기는 얼마나 보관할 수 있어요?",
    reasoning="-18도 이하에서 소·돼지 3~6개월, 다진 고기 1~3개월.",
    content=(
        "영하 18도 이하라면 소고기·돼지고기 덩어리는 **3~6개월**, 다진 고기는 **1~3개월** 안에 먹는 것이 "
        "좋습니다. 공기가 닿지 않게 랩으로 싸서 보관하면 냉동 화상이 덜 생깁니다."
    ),
)

# ================================================================== DeepSeek V3.1

T.chat(
    [B, L],
    "deepseek_v3_noparser",
    "ko",
    "DeepSeek-V3.1 in thinking mode (thinking=True): the template prefills <think>, so the raw output is "
    "reasoning then a lone </think>; served without a reasoning parser.",
    user="운동 후에 단백질은 언제 먹는 게 좋아요?",
    tkw={"thinking": True},
    content=(
        "운동 직후 30분 골든타임은 과장됐다는 연구가 많다. 하루 총 단백질 섭취량이 더 중요. 운동 전후 "
        "몇 시간 안이면 충분.\n</think>\n\n"
        "꼭 30분 안에 먹을 필요는 없습니다. 운동 전후 몇 시간 안에 20~40g 정도를 먹으면 충분하고, 그보다 "
        "중요한 건 **하루 전체 단백질 섭취량**(체중 1kg당 1.2~1.6g)입니다."
    ),
)

T.chat(
    [B, L],
    "deepseek_v3_noparser",
    "en",
    "DeepSeek-V3.1 thinking mode without a reasoning parser; reasoning before a lone </think>.",
    user="Can I leave my car unlocked to stop thieves breaking the window?",
    tkw={"thinking": True},
    content=(
        "Some people do this in cities with frequent break-ins. Insurance may not cover theft from an "
        "unlocked car. Better: leave nothing visible.\n</think>\n\n"
        "Some city drivers do, but check your insurance first — many policies won't pay for theft from an "
        "unlocked car. The more reliable fix is to leave nothing visible inside, not even a charging cable."
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "zh",
    "Clean: DeepSeek-V3.1 thinking mode with the deepseek_v3 reasoning parser.",
    user="空调开26度还是28度更省电？",
    tkw={"thinking": True},
    reasoning="温差越小越省电，每调高1度省约5-8%。",
    content="**28度**更省电。设定温度每调高1度，大约能省5%到8%的电，再配合风扇会更舒服。",
)

T.chat(
    [],
    "deepseek_v3",
    "ja",
    "Clean: DeepSeek-V3.1 non-thinking mode (default); no reasoning.",
    user="「お疲れ様です」と「ご苦労様です」の違いは？",
    content=(
        "「お疲れ様です」は目上の人にも使える労いの言葉です。「ご苦労様です」は目上から目下へ使う表現とされる"
        "ので、上司や取引先には「お疲れ様です」を使うのが無難です。"
    ),
)

# ================================================================== MiniMax-M2

T.chat(
    [B, L],
    "minimax_m25_m2parser",
    "ko",
    "MiniMax-M2.5 served with the parser written for M2: the <think> block leaks into content.",
    user="전동킥보드 헬멧 안 쓰면 벌금 있어요?",
    content=(
        "<think>\n개인형 이동장치 안전모 미착용 범칙금 2만 원. 동승자 탑승 금지 등도 함께.\n</think>\n\n"
        "네, 전동킥보드 같은 개인형 이동장치를 탈 때 안전모를 쓰지 않으면 **범칙금 2만 원**이 부과됩니다. "
        "두 명이 함께 타는 것도 금지되어 있습니다."
    ),
)

T.chat(
    [B, L],
    "minimax_m25_m2parser",
    "zh",
    "MiniMax-M2.5 with the M2 parser: think block in content; Chinese.",
    user="手机掉水里了，放米缸里有用吗？",
    content=(
        "<think>\n米缸吸湿效果有限，还可能进米粒粉尘。正确：关机、擦干、取卡、通风晾干、尽快送修。\n</think>\n\n"
        "用处不大，米粒和粉尘还可能卡进接口。正确做法是：立刻关机，擦干表面，取出SIM卡托，放在通风处晾"
        "至少一两天，不要充电，最好尽快送到售后检测。"
    ),
)

T.chat_stream(
    [B, L],
    "minimax_m2_noparser",
    "en",
    "Streamed MiniMax-M2 on SGLang without a reasoning parser; '<think>' split ('<th' + 'ink>').",
    user="Should I warm up my car in winter before driving?",
    deltas=[
        C("<th"),
        C("ink>\nModern fuel-injected cars need ~30 s; driving gently warms faster.\n</think>\n\n"),
        Cs(
            "Not for long. A modern car only needs about 30 seconds before you set off; driving gently for "
            "the first few minutes warms the engine faster than idling and wastes less fuel."
        ),
    ],
)

T.chat(
    [],
    "minimax_m2",
    "ko",
    "Clean: MiniMax-M2 with the minimax_m2 reasoning parser.",
    user="원룸 곰팡이 예방하려면 어떻게 해야 해요?",
    reasoning="환기, 제습, 가구 벽에서 띄우기, 결로 닦기.",
    content=(
        "하루 두 번 10분씩 맞바람 환기를 하고, 습도를 60% 아래로 유지하세요. 가구는 벽에서 5cm 이상 띄우고, "
        "겨울에 창문에 맺힌 물기는 바로 닦아 내는 것이 좋습니다."
    ),
)

T.chat(
    [],
    "minimax_m2",
    "zh",
    "Clean: MiniMax-M2 with parser; Chinese answer.",
    user="第一次去健身房应该练什么？",
    reasoning="全身基础动作，学动作为主，轻重量。",
    content=(
        "第一次建议以熟悉器械和学动作为主：先做十分钟有氧热身，再用轻重量练深蹲、坐姿划船、卧推和平板支撑，"
        "每个动作三组。可以请教练帮你纠正一次动作。"
    ),
)

# ================================================================== Kimi K2

T.chat(
    [B, L],
    "kimi_k2_noparser",
    "en",
    "Kimi K2 Thinking without the kimi_k2 reasoning parser: ◁think▷…◁/think▷ in content.",
    user="Is it safe to eat the green part of a potato?",
    content=(
        "◁think▷Green means chlorophyll but signals solanine. Cut away green parts and sprouts; discard if "
        "very green or bitter.◁/think▷"
        "Cut it away. The green itself is harmless chlorophyll, but it shows the potato was exposed to light "
        "and may have built up solanine. Peel or trim the green parts and any sprouts; if the potato is green "
        "all over or tastes bitter, throw it out."
    ),
)

T.chat(
    [B, L],
    "kimi_k2_noparser",
    "ko",
    "Kimi K2 Thinking delimiters visible with a Korean answer.",
    user="택배 상자에 붙은 송장 그냥 버려도 돼요?",
    content=(
        "◁think▷송장에 이름, 주소, 전화번호가 있어 개인정보 유출 위험. 떼어서 찢거나 지우기.◁/think▷"
        "그냥 버리면 이름·주소·전화번호가 노출될 수 있습니다. 송장을 떼어 잘게 찢거나, 개인정보 지우개 "
        "스탬프로 지운 뒤 버리세요."
    ),
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: Kimi K2 Thinking with the kimi_k2 reasoning parser.",
    user="모니터 밝기는 어느 정도로 맞추는 게 눈에 좋아요?",
    reasoning="주변 밝기와 비슷하게, 흰 화면이 조명처럼 느껴지지 않게.",
    content=(
        "주변 조명과 비슷하게 맞추는 것이 가장 편합니다. 흰 화면이 조명처럼 눈부시게 느껴지면 너무 밝은 "
        "것이고, 글자가 흐릿하게 보이면 너무 어두운 겁니다."
    ),
)

T.chat_stream(
    [],
    "kimi_k2",
    "en",
    "Clean: streamed Kimi K2 Thinking with the parser.",
    user="What's the best way to remove a splinter?",
    deltas=[
        Rs("Clean, tweezers in direction of entry; needle for deep ones; wash after."),
        Cs(
            "Wash the area, then grip the end with clean tweezers and pull it out along the angle it went "
            "in. If it's buried, gently lift the skin over it with a sterilised needle first. Wash again "
            "and cover it afterwards."
        ),
    ],
)

# ================================================================== GLM-4.5

T.chat(
    [B, L],
    "glm45_noparser",
    "en",
    "GLM-4.5 served without the glm45 reasoning parser: the <think> block stays in content.",
    user="How do I stop my glasses fogging up when I wear a mask?",
    content=(
        "<think>\nSeal the top of the mask: nose wire, tape, tuck under glasses; anti-fog spray or soap "
        "film.\n</think>\n"
        "Pinch the mask's nose wire so it seals against your face, and rest your glasses on top of the mask "
        "so the warm air can't escape upward. An anti-fog wipe, or washing the lenses with a drop of dish "
        "soap and letting them air-dry, helps too."
    ),
)

T.chat(
    [B, L],
    "glm45_noparser",
    "ko",
    "GLM-4.5 without a reasoning parser; Korean.",
    user="우산을 잃어버렸는데 지하철 유실물 어디서 찾아요?",
    content=(
        "<think>\n서울이면 lost112 또는 서울교통공사 유실물센터. 역 이름과 시간 알려 주면 빨라짐.\n</think>\n"
        "**경찰청 유실물 통합포털(lost112)**에서 먼저 검색해 보세요. 서울 지하철이라면 서울교통공사 "
        "유실물센터에 탑승 역과 시간, 우산 색깔을 알려 주면 찾기가 훨씬 빠릅니다."
    ),
)

T.chat(
    [],
    "glm45",
    "en",
    "Clean: GLM-4.5 with the glm45 reasoning parser.",
    user="Why is my bread dense and heavy?",
    reasoning="Under-proofed, old yeast, too much flour, not enough kneading.",
    content=(
        "Usually it's under-proofing: the dough didn't rise long enough or the yeast was old. Adding too "
        "much flour while kneading and cutting the kneading short also make a tight, heavy crumb."
    ),
)

T.chat(
    [],
    "glm45",
    "ja",
    "Clean: GLM-4.5 with parser; Japanese answer.",
    user="観葉植物の葉が黄色くなるのはなぜ？",
    reasoning="水やり過多、日照不足、根詰まり。",
    content=(
        "多いのは**水のやりすぎ**です。土が乾く前に水を与えると根が傷み、葉が黄色くなります。"
        "日当たり不足や、鉢の中で根が詰まっていることも原因になります。"
    ),
)

# ================================================================== Claude

T.msg(
    [B, L],
    "claude",
    "ja",
    "Thinking disabled; the model wrote <thinking> tags into the text block itself.",
    user="有給休暇は何日前に申請すればいいですか？",
    blocks=[
        TX(
            "<thinking>法律上の期限はないが就業規則で定めていることが多い。時季変更権。</thinking>\n"
            "法律で何日前と決まっているわけではありませんが、多くの会社は就業規則で「○日前までに申請」と"
            "定めています。まず就業規則を確認し、業務の調整がしやすいよう早めに伝えるのが無難です。"
        )
    ],
)

T.msg_stream(
    [B, L],
    "claude_opus",
    "ko",
    "Streamed text_delta pieces with the closing tag split ('</think' + 'ing>'); thinking disabled.",
    user="주말에 아이랑 갈 만한 실내 놀거리 추천해 줘",
    blocks=[
        TX(
            [
                "<thinking>실내: 과학관, 키즈카페, 도서관, 실내 동물원. 나이 모름.</think",
                "ing>\n\n",
                "아이 나이에 따라 다르지만 이런 곳들이 무난합니다.\n\n- **과학관**: 체험형 전시가 많아 "
                "초등학생에게 좋아요.\n- **어린이 도서관**: 주말 프로그램이 있는 곳이 많습니다.\n"
                "- **실내 동물원·아쿠아리움**: 날씨와 상관없이 즐길 수 있어요.",
            ]
        )
    ],
)

T.msg(
    [],
    "claude",
    "ko",
    "Clean: extended thinking on; reasoning in the thinking block, text block is the answer.",
    user="이력서에 취미 칸은 꼭 채워야 하나요?",
    thinking=1024,
    blocks=[
        TH("필수 아님. 직무와 연결되면 플러스."),
        TX(
            "필수는 아닙니다. 다만 직무와 연결되는 취미(예: 데이터 분석 직무에 개인 프로젝트)라면 대화 "
            "소재가 되니 적어 두는 편이 좋습니다."
        ),
    ],
)

T.msg_stream(
    [],
    "claude_opus",
    "zh",
    "Clean: streamed Messages with a thinking block (thinking_delta + signature_delta) and a text block.",
    user="家里老人总是忘记吃药，有什么办法？",
    thinking=2048,
    blocks=[
        TH("药盒分格、闹钟、和日常习惯绑定、家人视频提醒。"),
        TX(
            "可以试试这几种方法：用按星期分格的药盒；把吃药和固定习惯绑在一起，比如早饭后；手机设闹钟或"
            "智能音箱提醒；家人每天视频时顺便确认一下。"
        ),
    ],
)

T.msg(
    [],
    "claude",
    "en",
    "Clean: thinking with display omitted returns an empty thinking string; the text block is the answer.",
    user="How long should a cover letter be?",
    thinking={"type": "enabled", "budget_tokens": 1024, "display": "omitted"},
    blocks=[
        TH(""),
        TX(
            "Keep it to one page — three or four short paragraphs, around 250 to 400 words. Hiring managers "
            "skim, so lead with why you fit this specific role."
        ),
    ],
)

# ================================================================== EXAONE 4.0

T.chat(
    [B, L],
    "exaone_noparser",
    "ko",
    "EXAONE 4.0 in thinking mode without a reasoning parser: the template puts <think> in the "
    "prompt, so the reasoning and a lone </think> reach content.",
    user="장마철에 빨래 냄새 안 나게 말리는 방법 알려줘",
    content=(
        "냄새의 원인은 덜 마른 상태에서 번식하는 세균이다. 핵심은 빨리 말리기. 간격, 제습기, 선풍기 정도면 "
        "충분하다.\n</think>\n\n빨래 냄새를 줄이려면 최대한 빨리 말리는 것이 핵심입니다. 세탁이 끝나면 바로 "
        "널고, 빨래 사이를 주먹 하나만큼 띄운 뒤 제습기나 선풍기 바람을 쐬어 주세요."
    ),
)

T.chat(
    [B],
    "exaone",
    "ko",
    "EXAONE 4.0 served without [|endofturn|] as a stop token: the model ends its turn and then "
    "writes the user's next turn, all in content.",
    user="서울에서 부산까지 KTX로 얼마나 걸려?",
    reasoning="서울-부산 KTX 약 2시간 30분 안팎.",
    content=(
        "서울역에서 부산역까지 KTX로 보통 2시간 20분에서 2시간 40분 정도 걸립니다.[|endofturn|]\n"
        "[|user|]\n그럼 SRT는 어디서 타?"
    ),
)

T.chat(
    [B],
    "exaone",
    "en",
    "EXAONE 4.0: the end-of-turn token is printed after an otherwise clean answer.",
    user="What is the boiling point of water at sea level in Fahrenheit?",
    reasoning="100 C = 212 F.",
    content="Water boils at 212 °F at sea level.[|endofturn|]",
)

T.chat(
    [B, L],
    "exaone_noparser",
    "zh",
    "EXAONE 4.0 answering in Chinese without a reasoning parser: reasoning before a lone </think>.",
    user="绿茶应该用多少度的水泡？",
    content=(
        "绿茶嫩，水太烫会苦。一般八十度左右。\n</think>\n\n泡绿茶建议用 75 到 85 度的水。水太烫会把茶叶烫熟，"
        "茶汤发苦；可以先把开水放凉几分钟再冲泡。"
    ),
)

T.chat(
    [],
    "exaone",
    "en",
    "Clean: EXAONE 4.0 with a reasoning parser; the reasoning stays in its field.",
    user="How long should I rest a steak after cooking?",
    reasoning="About 5-10 minutes, or half the cook time.",
    content=(
        "Let it rest for about five to ten minutes, loosely covered with foil. Thicker cuts can rest a "
        "little longer; the juices settle back into the meat instead of running onto the board."
    ),
)

T.chat(
    [],
    "exaone",
    "ko",
    "Clean (mention-as-noun): an answer that names EXAONE's turn token while explaining stop tokens.",
    user="EXAONE을 vLLM으로 띄웠더니 답이 안 끝나요. 왜 그래요?",
    reasoning="Stop token 설정 문제. [|endofturn|]을 stop으로.",
    content=(
        "EXAONE은 턴이 끝날 때 [|endofturn|] 토큰을 출력하는데, 서버가 이 토큰에서 멈추지 않으면 모델이 다음 "
        "턴까지 이어서 씁니다. 생성 설정에서 이 토큰을 stop 토큰으로 지정해 보세요."
    ),
    kind="mention-as-noun",
)

# ================================================================== Apriel Thinker

T.chat(
    [B, L],
    "apriel_noparser",
    "en",
    "Apriel Thinker without the apriel reasoning parser: the prompt ends with its reasoning header, "
    "so the reasoning, [BEGIN FINAL RESPONSE] and [END FINAL RESPONSE] reach content.",
    user="Is 221 a prime number?",
    content=(
        "Check small primes: 221 / 13 = 17. So 221 = 13 x 17, not prime.\n[BEGIN FINAL RESPONSE]\n"
        "No. 221 = 13 × 17, so it is not prime.\n[END FINAL RESPONSE]"
    ),
)

T.chat(
    [B, L],
    "apriel_noparser",
    "zh",
    "Apriel Thinker without its parser, Chinese answer; the turn-end token follows the markers.",
    user="一斤等于多少克？",
    content=(
        "用户问市斤。一市斤是五百克。\n[BEGIN FINAL RESPONSE]\n一斤等于 500 克。\n[END FINAL RESPONSE]\n<|end|>"
    ),
)

T.chat(
    [B, L],
    "apriel_noparser",
    "ko",
    "Apriel Thinker without its parser, Korean answer.",
    user="아보카도 빨리 익히는 법 있어?",
    content=(
        "종이봉투에 사과나 바나나와 함께 넣으면 에틸렌 때문에 빨리 익는다. 실온 보관.\n"
        "[BEGIN FINAL RESPONSE]\n아보카도를 사과나 바나나와 함께 종이봉투에 넣어 실온에 두면 하루이틀 안에 "
        "익습니다.\n[END FINAL RESPONSE]"
    ),
)

T.chat(
    [],
    "apriel",
    "en",
    "Clean: Apriel Thinker with the apriel reasoning parser.",
    user="Can I freeze cooked rice?",
    reasoning="Yes; cool quickly, airtight, up to a month.",
    content=(
        "Yes. Spread it out to cool quickly, pack it airtight within an hour of cooking, and use it "
        "within a month. Reheat it until it is steaming hot all the way through."
    ),
)

T.chat(
    [],
    "apriel",
    "en",
    "Clean: a screenplay answer with bracketed stage markers that are not control tokens.",
    user="Write a two-line scene that ends the play.",
    reasoning="Short scene, end marker.",
    content="MAYA: We made it.\nLEO: We did.\n\n[END OF SCENE]\n\n[START HERE next time]",
    kind="other-markup",
)

# ================================================================== HyperCLOVA X SEED Think

T.chat(
    [B, L],
    "hyperclovax_noparser",
    "ko",
    "HyperCLOVA X SEED Think served without a reasoning parser: the reasoning and a lone </think> "
    "reach content.",
    user="전기요금 누진제 구간이 어떻게 돼?",
    content=(
        "주택용 누진제 3단계. 여름철과 기타 계절 구간이 다르다. 정확한 kWh 경계는 시기마다 바뀌니 한전 확인을 "
        "권하자.\n</think>\n\n주택용 전기요금은 사용량에 따라 3단계로 나뉘고, 여름철(7~8월)에는 구간이 넓어집니다. "
        "구간별 정확한 기준은 한국전력 요금표에서 확인하세요."
    ),
)

T.chat(
    ["tool_call_as_text"],
    "hyperclovax_noparser",
    "ko",
    "HyperCLOVA X SEED Think without a tool parser: its GLM-style call is printed in content.",
    user="부산 날씨 알려줘",
    tools=["get_weather"],
    content="<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>부산</arg_value>\n</tool_call>",
)
