"""More streams: split delimiters for many families, mixed chunks, Responses and Messages streams,
and untagged reasoning (self-talk with no delimiter at all) in every API shape."""

from __future__ import annotations

from .shapes import MSG, RS, TH, TX, C, Cs, M, Rs, Theme

T = Theme("streaming")
B, L, MIX, TR, FIR = (
    "boundary_token",
    "reasoning_leak",
    "mixed_chunk",
    "truncated",
    "final_in_reasoning",
)
STRIPPER = "A gateway rule strips the delimiters but keeps the text between them, so"

# ================================================================== split delimiters, chat.completions

T.chat_stream(
    [B, L],
    "nemotron_noparser",
    "ko",
    "Nemotron without a reasoning parser; '<thi' + 'nk>' split across chunks.",
    user="수박 고를 때 두드려 보는 게 의미가 있어요?",
    deltas=[
        C("<thi"),
        C("nk>\n맑고 통통 울리는 소리가 잘 익은 것. 꼭지, 줄무늬, 배꼽도 함께.\n</think>\n\n"),
        Cs(
            "어느 정도 의미가 있습니다. 두드렸을 때 맑게 '통통' 울리면 잘 익은 경우가 많고, 둔탁하면 덜 "
            "익었거나 너무 익었을 수 있습니다. 줄무늬가 선명하고 배꼽이 작은 것도 함께 보세요."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "olmo3_noparser",
    "zh",
    "Olmo 3 Think without a parser; '</th' + 'ink>' split.",
    user="为什么冬天静电特别多？",
    deltas=[
        C("<think>\n"),
        Cs("冬天空气干燥，电荷不容易散掉；毛衣等化纤摩擦起电。\n</th"),
        C("ink>\n\n"),
        Cs(
            "因为冬天空气干燥，身上积累的电荷不容易通过空气中的水分散掉，再加上毛衣、化纤衣物摩擦多，就容易被电到。"
        ),
    ],
)

T.chat_stream(
    [B, L],
    "holo2_noparser",
    "ja",
    "Holo2 without the holo2 parser; Japanese reasoning then a split end tag.",
    user="Macで隠しファイルを表示するショートカットは？",
    deltas=[
        Cs("Finderで Cmd+Shift+. 。\n</thi"),
        C("nk>\n\n"),
        Cs(
            "Finderで **Command + Shift + .（ピリオド）** を押すと、隠しファイルの表示・非表示を切り替えられます。"
        ),
    ],
)

T.chat_stream(
    [B, L],
    "cohere_noparser",
    "zh",
    "Command A Reasoning without a parser (special tokens kept); '<|START_THINK' + 'ING|>' split.",
    user="怎么防止手机被偷偷装了定位软件？",
    extra={"skip_special_tokens": False},
    deltas=[
        C("<|START_THINK"),
        C("ING|>检查设备管理、陌生App、位置权限；设锁屏密码。<|END_THINKING|><|START_RESPONSE|>"),
        Cs(
            "给手机设锁屏密码，不随便借给别人；定期检查“位置权限”和“设备管理应用”里有没有陌生App，发现就卸载。"
        ),
        C("<|END_RESPONSE|>"),
    ],
)

T.chat_stream(
    [B, L],
    "glm45_noparser",
    "ko",
    "GLM-4.5 without a reasoning parser; the opening tag arrives as '<' + 'think>'.",
    user="머리 감고 바로 자면 안 좋아요?",
    deltas=[
        C("<"),
        C("think>\n젖은 채 자면 두피에 세균·비듬, 모발 마찰 손상.\n</think>\n"),
        Cs(
            "젖은 채로 자면 두피가 습해져 비듬이나 가려움이 생기기 쉽고, 머리카락도 베개와 마찰해 잘 상합니다. 두피만이라도 말리고 주무세요."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "deepseek_r1_0528_noparser",
    "en",
    "DeepSeek-R1-0528 (both tags) without a parser; the end tag split in three.",
    user="Is it bad to crack your knuckles?",
    deltas=[
        C("<think>\n"),
        Cs("Studies show no link to arthritis; sound is gas bubbles in joint fluid.\n"),
        C("</"),
        C("thi"),
        C("nk>\n\n"),
        Cs(
            "Not as far as studies can tell. The pop is a gas bubble collapsing in the joint fluid, and "
            "research hasn't linked the habit to arthritis. See a doctor only if it hurts or swells."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "granite_noparser",
    "ko",
    "Granite thinking output streamed without the granite parser; the header is split across chunks.",
    user="전자레인지 돌릴 때 랩 씌워도 돼요?",
    tkw={"thinking": True},
    deltas=[
        C("Here is my thought"),
        C(
            " process:\nMicrowave-safe wrap ok if not touching food, leave vent.\n\nHere is my response:\n"
        ),
        Cs(
            "전자레인지용 표시가 있는 랩이라면 괜찮습니다. 다만 음식에 닿지 않게 살짝 띄우고, 김이 빠질 틈을 조금 남겨 두세요."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "gpt_oss_raw",
    "zh",
    "Raw harmony stream; '<|mess' + 'age|>' split; analysis channel visible before the final answer.",
    user="“内卷”用英语怎么说？",
    deltas=[
        C("<|channel|>analysis<|mess"),
        C("age|>Common translation: involution; explain meaning.<|end|>"),
        C("<|start|>assistant<|channel|>final<|message|>"),
        Cs("常见译法是 **involution**，也可以根据语境说成 rat race 或 pointless competition。"),
        C("<|return|>"),
    ],
)

T.chat_stream(
    [B, L],
    "kimi_k2_noparser",
    "ja",
    "Kimi K2 Thinking without a parser; '◁/thi' + 'nk▷' split.",
    user="猫にチョコレートはダメですか？",
    deltas=[
        C("◁think▷"),
        Cs("テオブロミンが猫に有毒。少量でも危険。◁/thi"),
        C("nk▷"),
        Cs(
            "ダメです。チョコレートに含まれるテオブロミンは猫にとって有毒で、少量でも嘔吐やけいれんを起こすことがあります。"
        ),
    ],
)

T.chat_stream(
    [B],
    "qwen3_thinking",
    "ko",
    "Thinking budget reached: the reasoning (ending in the forced message) streamed as reasoning, but the "
    "forced end tag arrived as the first content delta. Nothing precedes it in visible text.",
    user="초보자용 5km 달리기 훈련 계획 짜 줘",
    extra={"thinking_token_budget": 256},
    deltas=[
        Rs(
            "주 3회, 걷기·달리기 인터벌부터... 시간 부족.\n\nI have to give the solution based on the thinking directly now."
        ),
        C("</think>"),
        Cs(
            "\n\n**8주 계획(주 3회)**\n\n- 1~2주: 1분 달리기 + 2분 걷기 × 8회\n- 3~4주: 3분 달리기 + 1분 걷기 × 6회\n- 5~6주: 10분 달리기 × 2회\n- 7~8주: 쉬지 않고 25~35분 달리기"
        ),
    ],
)

# ================================================================== mixed chunks

T.chat_stream(
    [MIX],
    "deepseek_r1",
    "ko",
    "DeepSeek-R1 parser fills reasoning and content in the same chunk at the boundary.",
    user="물 1리터는 몇 컵이에요?",
    deltas=[Rs("200ml 컵 기준 5컵."), M(" 5컵.", "200ml"), Cs(" 컵 기준으로 **5컵**입니다.")],
)

T.chat_stream(
    [MIX],
    "deepseek_r1_0528",
    "en",
    "R1-0528 with the deepseek_r1 parser: one delta carries both the last reasoning words and the first "
    "content words.",
    user="How many seconds are in a day?",
    deltas=[Rs("24*60*60 = 86400."), M(" Done.", "There are"), Cs(" **86,400** seconds in a day.")],
)

T.chat_stream(
    [MIX],
    "deepseek_v3",
    "zh",
    "DeepSeek-V3.1 thinking mode with the deepseek_v3 parser: mixed reasoning/content chunk.",
    user="一公里等于多少英里？",
    tkw={"thinking": True},
    deltas=[Rs("1 km ≈ 0.621 mi。"), M("约0.62。", "一公里"), Cs("约等于 **0.621 英里**。")],
)

T.chat_stream(
    [MIX],
    "qwq",
    "ja",
    "QwQ with the deepseek_r1 parser on vLLM: a mixed chunk at the boundary.",
    user="円周率を小数第5位まで教えて。",
    deltas=[Rs("3.14159。"), M(" 確認済み。", "円周率は"), Cs("小数第5位まで **3.14159** です。")],
)

T.chat_stream(
    [MIX],
    "deepseek_r1_distill",
    "zh",
    "R1-Distill with the deepseek_r1 parser: mixed chunk; client reads reasoning_content.",
    user="一周有多少小时？",
    rkey="reasoning_content",
    deltas=[Rs("7×24=168。"), M("168。", "一周有"), Cs(" **168** 个小时。")],
)

T.chat_stream(
    [B, MIX],
    "deepseek_r1",
    "en",
    "Mixed chunk whose content part opens with the end tag: the reasoning tail went to reasoning, the "
    "lone </think> to content with nothing visible before it (boundary_token only, no visible reasoning).",
    user="What's the chemical symbol for gold?",
    deltas=[
        Rs("Gold is Au, from aurum."),
        M(" Answer Au.", "</think>\n\n"),
        Cs("It's **Au**, from the Latin *aurum*."),
    ],
)

T.chat_stream(
    [MIX, TR],
    "deepseek_v3_sglang",
    "ko",
    "Mixed chunk at the boundary, then max_tokens hit mid-answer (finish_reason length).",
    user="서울 5대 궁궐 이름이랑 특징 자세히 알려줘",
    rkey="reasoning_content",
    tkw={"thinking": True},
    max_tokens=120,
    deltas=[
        Rs("경복궁, 창덕궁, 창경궁, 덕수궁, 경희궁."),
        M(" 각각 설명.", "서울의 5대 궁궐은"),
        Cs(" 경복궁, 창덕궁, 창경궁, 덕수궁, 경희궁입니다.\n\n1. **경복궁**: 조선의 정궁으로"),
    ],
    finish="length",
)

# ================================================================== clean streams

T.chat_stream(
    [],
    "deepseek_r1",
    "ja",
    "Clean: DeepSeek-R1 with the parser; reasoning and content in separate chunks.",
    user="1マイルは何キロ？",
    deltas=[Rs("1 mile = 1.609 km。"), Cs("1マイルは約 **1.609キロメートル** です。")],
)

T.chat_stream(
    [],
    "nemotron",
    "en",
    "Clean: Nemotron with nemotron_v3; usage chunk at the end.",
    user="What's the freezing point of salt water?",
    usage_chunk=True,
    deltas=[
        Rs("Seawater ~ -1.9 °C; saturated brine ~ -21 °C."),
        Cs(
            "Seawater freezes at about **−1.9 °C**; a fully saturated salt solution doesn't freeze until about −21 °C."
        ),
    ],
)

T.chat_stream(
    [],
    "holo2",
    "ko",
    "Clean: Holo2 with the holo2 parser.",
    user="엑셀에서 중복값 표시하는 법 알려줘",
    deltas=[
        Rs("조건부 서식 > 셀 강조 규칙 > 중복 값."),
        Cs(
            "범위를 선택한 뒤 **홈 → 조건부 서식 → 셀 강조 규칙 → 중복 값**을 누르면 중복된 셀에 색이 칠해집니다."
        ),
    ],
)

T.chat_stream(
    [],
    "olmo3",
    "en",
    "Clean: Olmo 3 with the olmo3 parser.",
    user="Why is the sky blue?",
    deltas=[
        Rs("Rayleigh scattering, shorter wavelengths scatter more."),
        Cs(
            "Sunlight scatters off air molecules, and short blue wavelengths scatter far more than red ones, so blue light reaches your eyes from every direction."
        ),
    ],
)

T.resp_stream(
    [],
    "glm45",
    "zh",
    "Clean: vLLM /v1/responses stream for GLM-4.5 with the glm45 parser: reasoning_text deltas, then "
    "output_text deltas.",
    user="为什么要定期更换牙刷？",
    items=[
        RS("刷毛磨损、细菌滋生，3个月换一次。"),
        MSG("刷毛用久了会变形，清洁力下降，还容易滋生细菌，一般建议 **每三个月** 换一次。"),
    ],
)

T.msg_stream(
    [],
    "kimi_k2",
    "ko",
    "Clean: Kimi K2 Thinking behind vLLM's /v1/messages with the parser: a thinking block then a text "
    "block.",
    user="노트북 화면 닦을 때 뭘 써야 해요?",
    thinking=1024,
    blocks=[
        TH("극세사 천, 물 살짝. 알코올·유리세정제 피함."),
        TX(
            "마른 극세사 천으로 먼저 닦고, 얼룩이 남으면 천에 물을 살짝 묻혀 닦으세요. 유리세정제나 알코올은 코팅을 상하게 할 수 있습니다."
        ),
    ],
)

T.resp_stream(
    [],
    "gpt_oss",
    "zh",
    "Clean: gpt-oss on vLLM /v1/responses: analysis in the reasoning item, final in the message.",
    user="地球到月球有多远？",
    items=[RS("Average distance ~384,400 km."), MSG("地球到月球的平均距离约为 **38.44万公里**。")],
)

# ================================================================== Responses and Messages streams that leak

T.resp_stream(
    [B, L],
    "qwen3_noparser",
    "ko",
    "vLLM /v1/responses for Qwen3 without a reasoning parser: output_text deltas carry the <think> block, "
    "split ('<thi' + 'nk>').",
    user="김밥 싸는데 밥이 자꾸 터져요",
    items=[
        MSG(
            [
                "<thi",
                "nk>\n밥 양 많음, 김 방향, 단단히 말기.\n</think>\n\n",
                "밥을 김의 2/3 정도에만 얇게 펴고, 김의 거친 면이 위로 오게 놓으세요. 말 때 김발로 꾹꾹 눌러 주면 잘 터지지 않습니다.",
            ]
        )
    ],
)

T.resp_stream(
    [B, L],
    "deepseek_r1_noparser",
    "zh",
    "Responses stream for the original DeepSeek-R1 without a parser: reasoning with no start tag, then a "
    "lone </think> in output_text.",
    user="为什么打哈欠会传染？",
    items=[
        MSG(
            [
                "可能和共情、镜像神经元有关，研究还没有定论。\n",
                "</think>\n\n",
                "目前还没有定论，比较主流的解释是和共情有关：看到别人打哈欠，大脑里负责模仿和共情的区域被激活，"
                "于是自己也跟着打。",
            ]
        )
    ],
)

T.resp_stream(
    [FIR],
    "qwen3_r1parser",
    "en",
    "Responses stream from Qwen3 with thinking off but the deepseek_r1 parser: the answer streams as "
    "reasoning_text; no message item at all.",
    user="Suggest a name for a cat that loves boxes.",
    extra={"chat_template_kwargs": {"enable_thinking": False}},
    items=[RS("How about **Boxer**? Or Cardboard Kitty, Parcel, or Fort Knox.")],
)

T.resp_stream(
    [TR],
    "nemotron",
    "ja",
    "Responses stream ended by max_output_tokens in the middle of the answer (status incomplete).",
    user="日本の47都道府県を北から全部挙げて。",
    max_output_tokens=64,
    status="incomplete",
    items=[
        RS("北海道から順に。"),
        MSG("北海道、青森県、岩手県、宮城県、秋田県、山形県、福島県、茨城県、栃木県、"),
    ],
)

T.msg_stream(
    [B, L],
    "minimax_m25_m2parser",
    "ko",
    "MiniMax-M2.5 with the M2 parser behind /v1/messages: <think> arrives in text_delta events.",
    user="고양이가 꾹꾹이 하는 이유가 뭐예요?",
    blocks=[
        TX(
            [
                "<think>\n아기 때 젖 먹던 행동, 편안함·애정 표현, 영역 표시.\n</think>\n\n",
                "새끼 때 어미 젖을 먹으며 하던 행동이 남은 것으로, 편안하고 만족스러울 때 나옵니다. 발바닥 "
                "냄새샘으로 자기 냄새를 묻히는 의미도 있습니다.",
            ]
        )
    ],
)

T.msg_stream(
    [B, L],
    "glm45_noparser",
    "zh",
    "GLM-4.5 without a reasoning parser behind /v1/messages; the end tag split across text_delta events.",
    user="鱼缸里的水多久换一次？",
    blocks=[
        TX(
            [
                "<think>\n每周换三分之一左右，不要一次全换。</thi",
                "nk>\n",
                "一般 **每周换三分之一** 左右的水，新水要提前晾晒或用除氯剂处理，不要一次全部换掉，以免水质突变。",
            ]
        )
    ],
)

# ================================================================== untagged reasoning (self-talk, no delimiters)

T.chat_stream(
    [L],
    "qwen3_noparser",
    "en",
    "Thinking disabled, but the model still opens with self-talk about the question (no delimiters).",
    user="Do I need to sift flour for a sponge cake?",
    tkw={"enable_thinking": False},
    deltas=[
        Cs(
            "Okay, the user wants to know whether sifting matters for sponge cake. Modern flour isn't lumpy, "
            "but sifting helps fold it into whipped eggs without deflating them. I should say it's worth it "
            "for sponges specifically.\n\n"
            "For a sponge, yes, it's worth it. Sifting aerates the flour and lets you fold it into the whipped "
            "eggs quickly, with fewer lumps and less lost air. For most other cakes you can skip it."
        )
    ],
)

T.chat(
    [L],
    "deepseek_r1_distill",
    "ko",
    "R1-Distill under a template without the <think> prefill: untagged Korean self-talk opens the visible "
    "text.",
    user="강아지한테 포도 줘도 돼요?",
    content=(
        "음, 사용자가 강아지에게 포도를 줘도 되는지 묻고 있네. 포도는 개에게 급성 신부전을 일으킬 수 있다는 "
        "걸 먼저 말해야겠다.\n\n"
        "안 됩니다. 포도와 건포도는 강아지에게 **급성 신장 손상**을 일으킬 수 있고, 적은 양으로도 위험할 수 "
        "있습니다. 이미 먹었다면 바로 동물병원에 연락하세요."
    ),
)

T.chat(
    [L],
    "nemotron_noparser",
    "zh",
    "Nemotron with thinking disabled still opens with Chinese self-talk ('好的，用户想知道…').",
    user="新车需要磨合吗？",
    tkw={"enable_thinking": False},
    content=(
        "好的，用户想知道新车要不要磨合。我需要先说明现在的发动机工艺，再给几条前几千公里的注意事项。\n\n"
        "现在的新车不需要刻意磨合，但前1000到2000公里最好避免长时间高转速和急加速急刹车，也不要长时间保持同一"
        "车速，这样对发动机和刹车都更友好。"
    ),
)

T.chat(
    [L],
    "cohere_noparser",
    "ja",
    "Command A Reasoning without a parser and with special tokens skipped: the delimiters are gone and the "
    "Japanese thinking opens the visible text.",
    user="ゆで卵の殻をきれいにむくコツは？",
    content=(
        "ユーザーはゆで卵の殻をきれいにむく方法を聞いている。冷水で急冷すること、お尻に小さなひびを入れること"
        "を伝えればよい。ゆでたらすぐに冷水に取り、しっかり冷やしてください。殻全体にひびを入れてから、空気の"
        "入っている丸いほうからむくと、つるんとむけます。"
    ),
)

T.chat(
    [L],
    "magistral_sglang",
    "ko",
    "Magistral on SGLang with special tokens skipped: the [THINK] markers are stripped and the Korean "
    "reasoning runs into the answer.",
    user="모기 물린 데 침 바르면 나아요?",
    content=(
        "사용자가 모기 물린 곳에 침을 바르는 민간요법이 효과가 있는지 알고 싶어 한다. 근거가 없고 세균 감염 "
        "위험이 있다는 점을 말하자.\n\n"
        "효과가 없고 오히려 입속 세균이 들어가 염증이 생길 수 있습니다. 찬물로 씻고 냉찜질을 한 뒤, 가려우면 "
        "약국에서 파는 가려움 완화 연고를 바르세요."
    ),
)

T.chat(
    [L],
    "magistral_sglang",
    "zh",
    "Magistral with special tokens skipped: Chinese reasoning with no markers before the answer.",
    user="牛奶可以和橙汁一起喝吗？",
    content=(
        "用户问牛奶和橙汁能不能一起喝。其实没有毒性问题，只是酸会让蛋白质凝结，可能胃不舒服。所以回答可以，但"
        "肠胃敏感的人最好隔开。\n\n可以一起喝，不会中毒。橙汁里的酸会让牛奶蛋白凝结成絮状，肠胃敏感的人可能会"
        "觉得胀气，间隔半小时再喝就好。"
    ),
)

T.chat_stream(
    [L],
    "olmo3_noparser",
    "en",
    f"{STRIPPER} the Olmo 3 reasoning opens the visible text untagged.",
    user="How do I keep cut apples from turning brown?",
    deltas=[
        Cs(
            "The user is asking how to stop apple slices browning. That's enzymatic browning; acid or salt "
            "water slows it.\n\n"
            "Toss the slices in a little lemon juice, or soak them for a few minutes in lightly salted water "
            "(about half a teaspoon per cup) and rinse. Both slow the enzyme that causes browning."
        )
    ],
)

T.chat(
    [L],
    "glm45_noparser",
    "ko",
    f"{STRIPPER} the GLM-4.5 reasoning opens the visible Korean text untagged.",
    user="겨울에 수도관 안 얼게 하려면 어떻게 해요?",
    content=(
        "질문을 보니 수도관 동파 예방법을 알고 싶어 하는 것 같다. 보온재, 물 조금 틀어 두기, 계량기함 막기를 "
        "정리해야겠다.\n\n"
        "한파가 심한 밤에는 수돗물을 가늘게 틀어 두고, 노출된 배관은 보온재로 감싸 주세요. 계량기함 안에는 "
        "헌 옷이나 보온재를 채워 찬 바람을 막으면 효과가 좋습니다."
    ),
)

T.chat(
    [L],
    "qwq_noparser",
    "zh",
    f"{STRIPPER} QwQ's reasoning opens the visible Chinese text untagged.",
    user="一个三角形的三边分别是3、4、5，它的面积是多少？",
    content=(
        "嗯，这个问题是关于三角形面积的。3、4、5满足勾股定理，是直角三角形，两条直角边是3和4，面积就是3×4÷2=6。"
        "\n\n这是一个直角三角形（3² + 4² = 5²），两条直角边是3和4，所以面积是 3 × 4 ÷ 2 = **6**。"
    ),
)

T.chat(
    [L],
    "hermes_notool",
    "ja",
    "No delimiters at all: the visible Japanese text opens with self-talk about the user's question.",
    user="日焼け止めは曇りの日も必要？",
    content=(
        "ユーザーは曇りの日にも日焼け止めが要るかを聞いている。紫外線は雲を通ることを説明すればいい。\n\n"
        "必要です。紫外線は雲を通り抜けるので、曇りの日でも晴れの日の半分以上が届くことがあります。"
        "外に出る時間が長い日は塗っておきましょう。"
    ),
)

T.chat(
    [L],
    "llama3_notool",
    "en",
    "No delimiters: the visible text opens with 'Alright, so they're asking…' self-talk.",
    user="Can you freeze milk?",
    content=(
        "Alright, so they're asking whether milk can be frozen. Yes, but it separates; shake it after "
        "thawing. Mention leaving headroom in the container.\n\n"
        "Yes. Leave some room in the container because milk expands, thaw it in the fridge, and shake it "
        "well — the fat can separate a little, so it's best for cooking or smoothies."
    ),
)

T.chat_stream(
    [L],
    "kimi_k2_instruct_notool",
    "ko",
    "Kimi K2 Instruct (no reasoning mode) still opens the stream with self-talk about the request.",
    user="운동화 세탁기에 돌려도 돼요?",
    deltas=[
        Cs(
            "사용자가 운동화를 세탁기에 넣어도 되는지 묻고 있다. 소재에 따라 다르다고 먼저 말하고, 세탁망과 "
            "찬물을 권하자.\n\n"
            "캔버스나 메시 소재라면 대부분 괜찮습니다. 끈과 깔창을 빼고 세탁망에 넣어 찬물·울 코스로 돌리세요. "
            "가죽이나 스웨이드 운동화는 손세탁하는 게 안전합니다."
        )
    ],
)

T.resp_stream(
    [L],
    "deepseek_r1_distill",
    "en",
    "Responses stream from R1-Distill under a template without the <think> prefill: untagged self-talk "
    "opens the output_text.",
    user="How long should I steep green tea?",
    items=[
        MSG(
            [
                "Hmm, the user is asking about green tea steeping time. ",
                "Usually 2-3 minutes at 70-80 °C; longer makes it bitter.\n\n",
                "Steep green tea for **2–3 minutes** in water around 70–80 °C, not boiling. Longer or hotter "
                "brewing pulls out bitter tannins.",
            ]
        )
    ],
)

T.msg(
    [L],
    "qwen3_noparser",
    "zh",
    "Qwen3 with thinking off behind /v1/messages still opens with Chinese self-talk (no delimiters).",
    user="剪完的头发多久能长回来？",
    extra={"chat_template_kwargs": {"enable_thinking": False}},
    blocks=[
        TX(
            "嗯，用户问的是头发长回来要多久。头发一个月大约长1到1.5厘米，可以按这个估算。\n\n"
            "头发每个月大约长 **1到1.5厘米**。比如剪短了5厘米，大概需要四个月左右才能长回原来的长度。"
        )
    ],
)

T.msg_stream(
    [L],
    "deepseek_r1_distill",
    "ja",
    "Messages stream from R1-Distill: the text block opens with Japanese self-talk.",
    user="ほうれん草は生で食べても大丈夫？",
    blocks=[
        TX(
            [
                "ユーザーはほうれん草を生で食べていいか聞いている。シュウ酸の話をすればいい。\n\n",
                "少量なら大丈夫ですが、ほうれん草にはシュウ酸が多く含まれるので、たくさん食べるならさっとゆでて"
                "水にさらすのがおすすめです。サラダ用の品種なら生でも食べやすいです。",
            ]
        )
    ],
)
