"""Streamed chat.completions: split delimiters, stop-buffer leaks, mixed chunks, and clean streams."""

from __future__ import annotations

from .shapes import TC, C, Cs, M, Rs, Theme, rf_schema

T = Theme("streaming")
B, L, MIX, FIR = "boundary_token", "reasoning_leak", "mixed_chunk", "final_in_reasoning"

# ------------------------------------------------------------------ stop + streaming: end tag and reasoning tail in content

T.chat_stream(
    [B, L],
    "qwen3_30b",
    "en",
    "Streaming with `stop` set: the stop-string buffer delays delta text, so the tail of the reasoning and "
    "</think> arrive as content (the Qwen3 stop/stream boundary bug). The end tag is split across chunks.",
    user="Summarize the main risks of storing passwords with unsalted SHA-256.",
    stop=["\n\nQ:"],
    deltas=[
        Rs(
            "The user wants the risks of unsalted SHA-256 for passwords. Points: fast hash means cheap brute "
            "force on GPUs; no salt means identical passwords share hashes and precomputed rainbow tables"
        ),
        Cs(" work; recommend bcrypt, scrypt or Argon2id with per-user salts.\n</th"),
        C("ink>\n\n"),
        Cs(
            "Unsalted SHA-256 is a poor choice for passwords:\n\n"
            "- **It is fast.** A single GPU can try billions of guesses per second, so weak passwords fall "
            "quickly.\n"
            "- **No salt.** Identical passwords produce identical hashes, and precomputed rainbow tables work "
            "directly against your database.\n"
            "- **One breach reveals patterns** across all users at once.\n\n"
            "Use a slow, salted password hash such as Argon2id, scrypt or bcrypt instead."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "qwen3",
    "ko",
    "Qwen3 stream with stop: part of the reasoning plus the split </think> leak into content.",
    user="아이가 밤에 자꾸 깨서 우는데 수면 교육은 언제 시작하면 되나요?",
    stop=["<|im_end|>", "###"],
    deltas=[
        Rs(
            "수면 교육 시작 시기. 보통 생후 4~6개월 이후, 밤중 수유가 줄어들고 낮밤 구분이 생길 때. 너무 이르면"
        ),
        Cs(" 효과가 없다. 일관된 취침 루틴을 먼저 권하자.\n</"),
        C("think>\n\n"),
        Cs(
            "수면 교육은 보통 **생후 4~6개월 이후**, 소아과에서 밤중 수유를 줄여도 된다고 할 때 시작합니다.\n\n"
            "- 매일 같은 시간에 목욕 → 수유 → 책 읽기 같은 **취침 루틴**을 만드세요.\n"
            "- 완전히 잠든 뒤가 아니라 **졸려 할 때** 눕혀 스스로 잠드는 연습을 시킵니다.\n"
            "- 어떤 방법이든 최소 1~2주는 일관되게 유지해야 효과가 납니다.\n\n"
            "갑자기 자주 깬다면 이앓이, 감기, 성장급등기일 수 있으니 평소와 다른 증상이 있는지도 살펴보세요."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "qwen3_sglang",
    "zh",
    "SGLang Qwen3 stream with stop: reasoning tail and </think> (split as '</thi' + 'nk>') in content; "
    "client reads reasoning_content.",
    user="公司要求员工签竞业限制协议，但没有说给补偿，这个协议有效吗？",
    stop=["\n用户："],
    rkey="reasoning_content",
    deltas=[
        Rs(
            "竞业限制协议需要用人单位在离职后按月支付经济补偿，司法解释规定未约定补偿的，劳动者履行了义务可以"
        ),
        Cs("要求按离职前十二个月平均工资的30%支付。\n</thi"),
        C("nk>\n\n"),
        Cs(
            "协议本身不一定无效，但公司必须支付补偿：\n\n"
            "1. 竞业限制只适用于高级管理人员、高级技术人员和其他负有保密义务的人员，期限最长两年。\n"
            "2. 协议没约定补偿的，你离职后如果遵守了竞业限制，可以要求公司按你离职前十二个月平均工资的 "
            "**30%** 按月支付（不低于当地最低工资）。\n"
            "3. 公司超过三个月不支付补偿的，你可以请求解除竞业限制。\n\n"
            "建议保留离职证明和工资流水，必要时申请劳动仲裁。"
        ),
    ],
)

T.chat_stream(
    [B],
    "glm45",
    "ko",
    "Reasoning streamed correctly in the reasoning field; the closing </think> alone arrived as the first "
    "content delta. Nothing precedes it in visible text.",
    user="회의록 요약 잘 쓰는 방법 알려줘",
    stop=["\n\n사용자:"],
    deltas=[
        Rs("회의록 요약 팁: 결정 사항, 담당자, 기한을 맨 위에. 논의 과정은 짧게."),
        C("</think>"),
        Cs(
            "\n\n회의록은 **결정 사항 → 할 일(담당자·기한) → 논의 요약** 순서로 쓰면 읽는 사람이 가장 편합니다.\n\n"
            "- 첫 줄에 회의 목적과 핵심 결론을 한 문장으로 적으세요.\n"
            "- 할 일은 '누가, 무엇을, 언제까지' 형식으로 씁니다.\n"
            "- 발언을 그대로 옮기기보다 쟁점별로 묶어서 정리하세요.\n"
            "- 회의 당일 안에 공유하면 수정 요청도 빨리 받을 수 있습니다."
        ),
    ],
)

# ------------------------------------------------------------------ no parser: tags split across chunks

T.chat_stream(
    [B, L],
    "qwen3_noparser",
    "en",
    "No reasoning parser; the opening tag is split across two content chunks ('<thi' + 'nk>').",
    user="Quick question: can I freeze cooked rice?",
    deltas=[
        C("<thi"),
        C(
            "nk>\nYes, cooked rice freezes well. Cool quickly, portion, freeze up to a month; reheat until "
            "steaming hot because of Bacillus cereus.\n</think>\n\n"
        ),
        Cs(
            "Yes. Spread freshly cooked rice out to cool quickly (within an hour), pack it in flat portions and "
            "freeze for up to a month. Reheat from frozen until it is steaming hot all the way through, and "
            "don't refreeze it."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "deepseek_r1_noparser",
    "en",
    "Original R1 with no parser, streamed: reasoning without start tag, lone end tag split in three chunks.",
    user="Convert 72 °F to Celsius and explain the formula.",
    deltas=[
        Cs(
            "Okay, °C = (°F − 32) × 5/9. 72 − 32 = 40, 40 × 5/9 = 22.2. Give the formula and the result.\n"
        ),
        C("</"),
        C("think"),
        C(">\n\n"),
        Cs(
            "72 °F is about **22.2 °C**.\n\nFormula: °C = (°F − 32) × 5⁄9, so (72 − 32) × 5⁄9 = 40 × 5⁄9 ≈ 22.2."
        ),
    ],
)

T.chat_stream(
    [B, L],
    "kimi_k2_noparser",
    "zh",
    "Kimi K2 without parser, streamed; the ◁think▷ delimiter is split across chunks.",
    user="番茄炒蛋先放番茄还是先放鸡蛋？",
    deltas=[
        C("◁thi"),
        C("nk▷常见做法是先炒鸡蛋盛出，再炒番茄出汁，最后混合。加一点糖提鲜。◁/th"),
        C("ink▷"),
        Cs(
            "一般**先炒鸡蛋**：鸡蛋液加少许盐打散，热油下锅炒到刚凝固就盛出，这样口感嫩。\n\n"
            "再用底油炒番茄，炒出汤汁后加一点糖和盐，最后倒回鸡蛋翻匀即可。喜欢汤汁多的，可以加少量清水。"
        ),
    ],
)

T.chat_stream(
    [B, L],
    "gpt_oss_raw",
    "ko",
    "Raw harmony stream; '<|chan' + 'nel|>' split; analysis channel visible before the Korean final answer.",
    user="자바스크립트에서 == 와 === 차이가 뭐야?",
    deltas=[
        C("<|chan"),
        C(
            "nel|>analysis<|message|>Explain loose vs strict equality with coercion examples. Answer in Korean."
            "<|end|><|start|>assistant<|chan"
        ),
        C("nel|>final<|message|>"),
        Cs(
            "`==`는 비교 전에 **타입 변환**을 하고, `===`는 타입과 값이 **모두 같아야** true입니다.\n\n"
            '예: `0 == "0"`은 true지만 `0 === "0"`은 false입니다. 예기치 않은 변환을 피하려면 거의 항상 '
            "`===`를 쓰는 것이 좋습니다."
        ),
        C("<|return|>"),
    ],
)

T.chat_stream(
    [L],
    "qwen3_noparser",
    "zh",
    "Untagged Chinese self-talk at the start of a streamed answer (thinking disabled but the model rambles).",
    user="推荐几本适合初学者的理财书。",
    tkw={"enable_thinking": False},
    deltas=[
        Cs(
            "嗯，用户想要理财入门书。应该推荐通俗易懂的，比如讲指数基金和资产配置的，别太专业。\n\n"
            "适合入门的几本：\n\n"
            "1. 《小狗钱钱》——用故事讲储蓄和复利，很轻松。\n"
            "2. 《穷查理宝典》——了解投资思维方式。\n"
            "3. 《漫步华尔街》——讲清楚指数基金为什么适合普通人。\n"
            "4. 《财务自由之路》——从记账、储蓄到投资的一整套方法。\n\n"
            "建议先读第一本建立概念，再读《漫步华尔街》。"
        ),
    ],
)

# ------------------------------------------------------------------ mixed chunks (reasoning and content in one delta)

T.chat_stream(
    [MIX],
    "deepseek_r1",
    "en",
    "DeepSeek parser fills reasoning and content in the same chunk at the boundary; an if/elif client "
    "drops 'The total'. Reassembled text is otherwise clean.",
    user="A jacket costs $80 and is 25% off, plus 8% sales tax. What do I pay?",
    deltas=[
        Rs("25% off 80 is 60. Tax 8% of 60 is 4.80. Total 64.80."),
        M(" Answer: $64.80.", "The total"),
        Cs(" comes to **$64.80**: the discount brings it to $60.00, and 8% tax adds $4.80."),
    ],
)

T.chat_stream(
    [MIX],
    "deepseek_r1_sglang",
    "zh",
    "SGLang DeepSeek-R1: one chunk carries both reasoning_content and content.",
    user="一个长方形周长是36厘米，长比宽多4厘米，面积是多少？",
    rkey="reasoning_content",
    deltas=[
        Rs("长+宽=18，长-宽=4，长=11，宽=7，面积77。"),
        M("面积77平方厘米。", "长方形"),
        Cs(
            "的长加宽等于 36 ÷ 2 = 18 厘米，又因为长比宽多 4 厘米，所以长 11 厘米、宽 7 厘米，"
            "面积是 11 × 7 = **77 平方厘米**。"
        ),
    ],
)

T.chat_stream(
    [MIX],
    "deepseek_v3_sglang",
    "ko",
    "DeepSeek-V3.1 thinking mode on SGLang: mixed reasoning_content/content delta at the boundary.",
    user="서울에서 부산까지 KTX로 몇 시간 걸려요?",
    rkey="reasoning_content",
    tkw={"thinking": True},
    deltas=[
        Rs("서울-부산 KTX 약 2시간 30분~2시간 50분."),
        M(" 정차역에 따라 다르다.", "KTX로는"),
        Cs(
            " 보통 **2시간 30분에서 2시간 50분** 정도 걸립니다. 정차역이 적은 열차일수록 빠르고, SRT를 "
            "수서역에서 타도 비슷한 시간이 걸립니다."
        ),
    ],
)

T.chat_stream(
    [MIX],
    "deepseek_r1_0528",
    "en",
    "R1-0528 stream with a usage chunk at the end; one delta carries both reasoning and content.",
    user="Give me a one-line regex that matches a US ZIP code, with or without the +4 part.",
    usage_chunk=True,
    deltas=[
        Rs("ZIP: 5 digits, optional hyphen and 4 digits. ^\\d{5}(-\\d{4})?$"),
        M(" Anchor it.", "Use"),
        Cs(" `^\\d{5}(?:-\\d{4})?$` — five digits, optionally followed by a hyphen and four more."),
    ],
)

T.chat_stream(
    [MIX],
    "glm45",
    "zh",
    "GLM-4.5 stream: the chunk that closes reasoning also opens the answer.",
    user="怎么判断西瓜熟没熟？",
    deltas=[
        Rs("看瓜蒂、拍声音、看纹路和瓜底。"),
        M("按这几点回答。", "挑西瓜"),
        Cs(
            "可以看这几点：\n\n- **听声音**：拍起来声音清脆、有回弹感的多半熟了，发闷的可能熟过头。\n"
            "- **看纹路**：纹路清晰、颜色深绿且对比明显。\n- **看瓜底**：底部黄色的“地斑”越黄越熟。\n"
            "- **看瓜蒂**：蒂稍微有点干缩比较好。"
        ),
    ],
)

T.chat_stream(
    [MIX],
    "kimi_k2",
    "en",
    "Kimi K2 Thinking stream: reasoning and content together in one delta.",
    user="Which is healthier for a weekday breakfast: oatmeal or granola?",
    deltas=[
        Rs(
            "Oatmeal: plain oats, low sugar, fiber. Granola: often high sugar and fat, calorie-dense."
        ),
        M(" Conclusion: oatmeal generally.", "Plain oatmeal"),
        Cs(
            " usually wins. Most store-bought granola is baked with oil and sugar, so a small bowl can pack "
            "twice the calories. If you like crunch, use a spoonful of granola as a topping on oats or yogurt."
        ),
    ],
)

T.chat_stream(
    [MIX],
    "minimax_m2",
    "ko",
    "MiniMax-M2 stream with the separating minimax_m2 parser: one delta carries both fields.",
    user="퇴직금은 어떻게 계산하나요?",
    deltas=[
        Rs("퇴직금 = 1일 평균임금 × 30일 × (재직일수/365). 1년 이상 근무, 주 15시간 이상."),
        M(" 예시 포함.", "퇴직금은"),
        Cs(
            " **1일 평균임금 × 30일 × (재직일수 ÷ 365)**로 계산합니다. 평균임금은 퇴직 전 3개월 동안 받은 "
            "임금 총액을 그 기간의 총 일수로 나눈 값입니다.\n\n"
            "예를 들어 3개월 임금 총액이 900만 원(92일)이고 3년 근무했다면, 약 97,826원 × 30 × 3 ≈ "
            "**880만 원**입니다. 1년 이상, 주 15시간 이상 근무한 경우에 받을 수 있습니다."
        ),
    ],
)

T.chat_stream(
    [MIX],
    "qwen3_30b",
    "ja",
    "Qwen3 with MTP: several tokens committed in one step, so a single delta holds reasoning and content.",
    user="「お疲れ様です」と「ご苦労様です」の違いは？",
    extra={"speculative_config": {"method": "mtp", "num_speculative_tokens": 2}},
    deltas=[
        Rs("目上に対してはお疲れ様です。ご苦労様ですは目上から目下へ。"),
        M("簡潔に。", "「お疲れ様です」"),
        Cs(
            "は立場に関係なく使えますが、「ご苦労様です」は目上の人が目下の人をねぎらう言い方とされています。"
            "上司や取引先には「お疲れ様です」を使うのが無難です。"
        ),
    ],
)

T.chat_stream(
    [MIX, "truncated"],
    "deepseek_r1",
    "en",
    "Mixed chunk at the boundary, then the answer is cut off by max_tokens (finish_reason length).",
    user="Explain how a Bloom filter works and when to use one.",
    max_tokens=220,
    deltas=[
        Rs(
            "Bit array of m bits, k hash functions; insert sets k bits; query checks k bits; false positives "
            "possible, no false negatives; no deletion unless counting variant."
        ),
        M(" Write the explanation.", "A Bloom filter"),
        Cs(
            " is a compact set membership structure. It keeps an array of *m* bits, all zero at first, and *k* "
            "independent hash functions. To add an item you hash it *k* times and set those bits to 1. To "
            "check an item you look at the same *k* bits: if any is 0, the item was definitely never added; if "
            "all are 1, it was *probably* added, because other items may have set those bits.\n\nUse one when"
        ),
    ],
    finish="length",
)

T.chat_stream(
    [MIX],
    "deepseek_v3",
    "en",
    "DeepSeek-V3.1: a mixed delta, then a structured tool call. The short content sentence accompanies the "
    "call, so it is not a preamble; arguments are valid.",
    user="What's the weather in Busan right now?",
    tools=["get_weather"],
    deltas=[
        Rs("Need current weather; call get_weather with city Busan."),
        M(" Call the tool.", "Checking Busan"),
        C(" now."),
        TC(0, "get_weather", {"city": "Busan", "unit": "celsius"}),
    ],
    finish="tool_calls",
)

T.chat_stream(
    [MIX],
    "deepseek_r1_0528",
    "zh",
    "reasoning_content and content in the same delta twice in one stream (both counted as one label).",
    user="把“春眠不觉晓”翻译成英文。",
    rkey="reasoning_content",
    deltas=[
        Rs("孟浩然《春晓》第一句。常见译法：In spring I sleep and miss the dawn."),
        M("给出译文。", "可以译为："),
        M("再补一种。", "“In spring I sleep"),
        Cs(" and miss the dawn.” 也可以译作 “Spring slumber, unaware of dawn.”，后者更简洁。"),
    ],
)

T.chat_stream(
    [MIX],
    "glm45_sglang",
    "en",
    "GLM-4.5 on SGLang with reasoning_content: mixed delta at the reasoning/answer boundary.",
    user="How many hours of sleep do teenagers need?",
    rkey="reasoning_content",
    deltas=[
        Rs("AASM: 13-18 years need 8-10 hours."),
        M(" Answer directly.", "Teenagers (13–18)"),
        Cs(
            " need about **8 to 10 hours** per night, according to sleep-medicine guidelines. Most get less, "
            "largely because their body clock shifts later during puberty."
        ),
    ],
)

# ------------------------------------------------------------------ final answer in reasoning, streamed

T.chat_stream(
    [FIR],
    "qwen3_r1parser",
    "en",
    "Qwen3 with thinking off but served with the deepseek_r1 parser: every delta goes to reasoning, content "
    "never arrives, finish is stop.",
    user="Write a haiku about autumn rain.",
    tkw={"enable_thinking": False},
    deltas=[Rs("Cold rain on the eaves —\nmaple leaves let go at once,\nthe gutter runs red.")],
)

T.chat_stream(
    [FIR],
    "qwen3_r1parser",
    "ko",
    "Parser family mismatch (deepseek_r1 parser on Qwen3, thinking off): the Korean answer streams as "
    "reasoning_content only.",
    user="'데드라인'을 순화한 우리말이 있나요?",
    rkey="reasoning_content",
    tkw={"enable_thinking": False},
    deltas=[
        Rs(
            "국립국어원에서는 '데드라인'을 **마감 시한** 또는 **최종 기한**으로 바꿔 쓰도록 권하고 있습니다."
        )
    ],
)

# ------------------------------------------------------------------ clean streams

T.chat_stream(
    [],
    "qwen3",
    "en",
    "Clean: reasoning and content arrive in separate chunks, no delimiter in content.",
    user="What's the difference between latency and throughput?",
    deltas=[
        Rs("Latency = time per request; throughput = requests per unit time. Analogy: highway."),
        Cs(
            "**Latency** is how long one request takes from start to finish; **throughput** is how many "
            "requests the system completes per second. A highway analogy: latency is your travel time, "
            "throughput is how many cars pass per hour. Batching usually raises throughput at the cost of "
            "some latency."
        ),
    ],
)

T.chat_stream(
    [],
    "deepseek_r1",
    "ko",
    "Clean: DeepSeek-R1 with parser; reasoning and answer never share a delta.",
    user="커피를 마시면 왜 잠이 안 와요?",
    deltas=[
        Rs("카페인은 아데노신 수용체 길항제. 반감기 5시간 안팎."),
        Cs(
            "카페인이 졸음을 유발하는 물질인 **아데노신**이 뇌의 수용체에 붙는 것을 막기 때문입니다. 카페인의 "
            "반감기는 보통 5시간 안팎이라, 오후 늦게 마신 커피는 잠들 무렵에도 절반 정도 남아 있습니다. "
            "숙면을 원한다면 오후 2시 이후에는 피하는 것이 좋습니다."
        ),
    ],
)

T.chat_stream(
    [],
    "deepseek_v3_sglang",
    "zh",
    "Clean: reasoning_content then content, separate chunks, SGLang.",
    user="为什么天空是蓝色的？",
    rkey="reasoning_content",
    tkw={"thinking": True},
    deltas=[
        Rs("瑞利散射，短波长散射更强。"),
        Cs(
            "因为**瑞利散射**：阳光进入大气层后，波长较短的蓝光比红光更容易被空气分子散射，"
            "散射光从四面八方进入我们的眼睛，所以天空看起来是蓝色的。日出日落时光线穿过的大气更厚，"
            "蓝光被散射掉得更多，天空就偏红偏橙。"
        ),
    ],
)

T.chat_stream(
    [],
    "qwen3",
    "en",
    "Clean: stream with `stop` on an engine version where the stop/stream boundary fix is in; nothing leaks.",
    user="Give me three tips for writing clearer commit messages.",
    stop=["\n\n---"],
    deltas=[
        Rs(
            "Tips: imperative subject under ~50 chars, explain why in body, one logical change per commit."
        ),
        Cs(
            "1. Write the subject in the imperative mood and keep it short, e.g. *Fix race in cache refresh*.\n"
            "2. Use the body to explain **why** the change was needed, not just what changed.\n"
            "3. Keep one logical change per commit so the message can stay focused."
        ),
    ],
)

T.chat_stream(
    [],
    "glm45",
    "zh",
    "Clean: stream with usage chunk (empty choices) at the end.",
    user="怎么快速缓解眼睛疲劳？",
    usage_chunk=True,
    deltas=[
        Rs("20-20-20法则，热敷，眨眼，调整屏幕亮度。"),
        Cs(
            "可以试试这些方法：\n\n1. **20-20-20 法则**：每看屏幕20分钟，看20英尺（约6米）外的地方20秒。\n"
            "2. **热敷**：用温热毛巾敷眼5到10分钟。\n3. **多眨眼**，必要时用人工泪液。\n"
            "4. 把屏幕亮度调到和环境光接近，屏幕上沿略低于视线。"
        ),
    ],
)

T.chat_stream(
    [],
    "llama3",
    "en",
    "Clean: non-reasoning model, content only.",
    user="What's a polite way to decline a meeting invite?",
    deltas=[
        Cs(
            "Something like: *\"Thanks for including me. I won't be able to join this one, but I'm happy to "
            'review the notes afterwards and follow up on anything that needs my input."* It declines clearly, '
            "stays friendly, and offers a way to contribute."
        ),
    ],
)

T.chat_stream(
    [],
    "qwen3",
    "en",
    "Clean: structured tool call streamed in fragments; no content, valid arguments.",
    user="Book me a flight search from ICN to NRT on 2026-11-14, economy.",
    tools=["search_flights"],
    deltas=[
        Rs("Call search_flights with ICN, NRT, 2026-11-14, economy."),
        TC(
            0,
            "search_flights",
            {"origin": "ICN", "destination": "NRT", "date": "2026-11-14", "cabin": "economy"},
        ),
    ],
    finish="tool_calls",
)

T.chat_stream(
    [],
    "qwen3_sglang",
    "zh",
    "Clean: two parallel structured tool calls with valid arguments, and a short sentence that accompanies "
    "them (not a preamble, because structured calls exist).",
    kind="call-with-text",
    user="帮我查一下上海和北京现在的天气。",
    tools=["get_weather"],
    rkey="reasoning_content",
    deltas=[
        Rs("需要查询两个城市，分别调用get_weather。"),
        Cs("我来分别查询上海和北京的天气。"),
        TC(0, "get_weather", {"city": "上海"}),
        TC(1, "get_weather", {"city": "北京"}),
    ],
    finish="tool_calls",
)

T.chat_stream(
    [],
    "kimi_k2",
    "ko",
    "Clean: Kimi K2 with parser; reasoning and content separated.",
    user="봄에 심기 좋은 채소 추천해줘",
    deltas=[
        Rs("봄 파종: 상추, 시금치, 열무, 감자(3월), 완두콩. 초보자 상추."),
        Cs(
            "봄에는 서늘한 날씨를 좋아하는 채소가 잘 자랍니다.\n\n"
            "- **상추·쌈채소**: 초보자도 키우기 쉽고 자주 수확할 수 있어요.\n"
            "- **열무·시금치**: 한 달 남짓이면 수확합니다.\n"
            "- **감자**: 3월 중하순에 씨감자를 심으면 6월에 캘 수 있어요.\n"
            "- **완두콩**: 지지대만 세워 주면 잘 자랍니다."
        ),
    ],
)

T.chat_stream(
    [],
    "gpt_oss",
    "ja",
    "Clean: gpt-oss with the harmony parser; analysis in reasoning, final in content.",
    user="梅雨の時期に洗濯物を早く乾かすコツは？",
    deltas=[
        Rs("Tips: spacing, fan, dehumidifier, arch hanging, spin longer."),
        Cs(
            "部屋干しを早く乾かすポイントです。\n\n"
            "- 洗濯物同士の間隔を**こぶし一つ分**あける\n- 扇風機やサーキュレーターで風を当てる\n"
            "- 除湿機やエアコンの除湿を併用する\n- 長い物を外側、短い物を内側にする「アーチ干し」にする"
        ),
    ],
)

T.chat_stream(
    [],
    "glm45",
    "en",
    "Clean: long-ish answer streamed in many small pieces, no reasoning delimiter in content.",
    user="How should I prepare for a system design interview in two weeks?",
    deltas=[
        Rs("Two weeks plan: fundamentals, common designs, practice talking."),
        Cs(
            "Two weeks is enough to get comfortable if you stay structured.\n\n"
            "**Week 1 – fundamentals**\n"
            "- Review load balancing, caching (write-through vs write-back), sharding, replication and "
            "consistency models.\n"
            "- Learn rough numbers: memory vs disk vs network latency, QPS a single box can handle.\n"
            "- Read through two or three real architecture write-ups.\n\n"
            "**Week 2 – practice**\n"
            "- Design 4–5 classics out loud: URL shortener, news feed, chat, rate limiter, file storage.\n"
            "- Always start with requirements and scale estimates, then sketch, then go deep on one component.\n"
            "- Do at least two mock interviews and ask for feedback on how you communicate trade-offs.\n\n"
            "Interviewers care more about your reasoning and trade-offs than about one perfect diagram."
        ),
    ],
)

T.chat_stream(
    [],
    "minimax_m2",
    "zh",
    "Clean: MiniMax-M2 with the separating minimax_m2 parser, reasoning and content in separate chunks.",
    user="怎样写一封得体的辞职信？",
    deltas=[
        Rs("辞职信要素：称呼、离职意向与日期、感谢、交接安排、落款。"),
        Cs(
            "一封得体的辞职信通常包括：\n\n1. **明确的离职意向和最后工作日**；\n2. 简短的离职原因（可以不写细节）；\n"
            "3. 对公司和同事的感谢；\n4. 愿意配合完成工作交接的表态；\n5. 署名和日期。\n\n"
            "语气保持真诚、简洁，不要在信中抱怨。"
        ),
    ],
)

T.chat_stream(
    [],
    "qwen3_30b",
    "en",
    "Clean: JSON schema response_format satisfied by the streamed content; reasoning separate.",
    user="Classify the sentiment of: 'The update fixed the crash, finally. Took them long enough.'",
    rf=rf_schema("sentiment"),
    deltas=[
        Rs(
            "Mixed: relief but annoyance. Overall neutral-ish? The fix is positive, complaint about delay. "
            "I'd say neutral with moderate confidence."
        ),
        C('{"label": "neutral", '),
        C('"confidence": 0.62}'),
    ],
)

T.chat_stream(
    [],
    "deepseek_r1_sglang",
    "en",
    "Clean: the word 'think' appears in normal prose; reasoning is in its own chunks.",
    kind="self-talk-lookalike",
    user="Is it worth learning Rust if I already know Go?",
    rkey="reasoning_content",
    deltas=[
        Rs(
            "Compare: Rust gives memory safety without GC, steeper curve; Go simpler. Depends on goals."
        ),
        Cs(
            "It depends on what you build. If you work on latency-sensitive systems, embedded code or "
            "libraries that other languages call into, Rust's ownership model and lack of a garbage collector "
            "are worth the steeper learning curve. For network services and CLIs, Go already covers most needs. "
            "I think a small side project is the best test: you will know within a few weekends whether the "
            "borrow checker feels like a help or a hindrance."
        ),
    ],
)

T.chat_stream(
    [],
    "kimi_k2_sglang",
    "zh",
    "Clean: Kimi K2 on SGLang with reasoning_content; answer mentions 思考 naturally.",
    kind="self-talk-lookalike",
    user="怎样培养孩子的独立思考能力？",
    rkey="reasoning_content",
    deltas=[
        Rs("建议：多提开放式问题，允许犯错，让孩子做选择，一起讨论新闻。"),
        Cs(
            "可以从日常小事做起：\n\n- **多问开放式问题**，比如“你觉得为什么会这样？”，而不是直接给答案。\n"
            "- **让孩子自己做选择**，并承担合理的后果。\n- **允许犯错**，和孩子一起复盘。\n"
            "- 一起读书、看新闻，鼓励他说出不同看法。\n\n独立思考是在一次次被认真倾听中慢慢养成的。"
        ),
    ],
)
