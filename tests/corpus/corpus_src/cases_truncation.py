"""Truncation (finish_reason length) and answers that landed in the reasoning field (chat.completions)."""

from __future__ import annotations

from .shapes import C, Cs, Rs, Theme

T = Theme("truncation")
TR, FIR = "truncated", "final_in_reasoning"
B, L = "boundary_token", "reasoning_leak"

# ------------------------------------------------------------------ truncated

T.chat(
    [TR],
    "qwen3",
    "en",
    "Answer cut off mid-sentence by max_tokens.",
    user="Explain the CAP theorem with an example.",
    max_tokens=160,
    reasoning="C, A, P; during a partition choose C or A. Example: bank vs shopping cart.",
    content=(
        "The CAP theorem says that when a network partition happens, a distributed data store has to choose "
        "between **consistency** (every read sees the latest write) and **availability** (every request gets "
        "a response). Partition tolerance isn't optional in practice, so the real choice is C or A during a "
        "partition.\n\nExample: a bank ledger usually chooses consistency — if replicas can't agree, it "
        "rejects the transfer rather than risk"
    ),
    finish="length",
)

T.chat(
    [TR],
    "qwen3_thinking",
    "ko",
    "Reasoning consumed the whole max_tokens budget; content is null and finish_reason is length "
    "(truncated, not final_in_reasoning).",
    user="2026년 근로장려금 단독가구 소득 기준이랑 최대 지급액 알려줘",
    max_tokens=300,
    reasoning=(
        "근로장려금 단독가구 기준: 총소득 2,200만 원 미만, 최대 지급액 165만 원. 재산 기준 2억 4천만 원 미만. "
        "재산 1억 7천만 원 이상이면 50% 감액. 맞는지 다시 생각해 보면, 홑벌이 가구는 3,200만 원 미만에 "
        "최대 285만 원, 맞벌이는 4,400만 원 미만에 330만 원. 2026년에 개정이 있었는지는 확실하지 않으니 "
        "답변에 기준 연도를 밝히는 게 좋겠다. 그리고 신청 기간은 5월 정기 신청과 반기 신청이 있는데"
    ),
    content=None,
    finish="length",
)

T.chat_stream(
    [TR],
    "deepseek_r1",
    "zh",
    "Streamed answer cut by max_tokens; the final chunk has finish_reason length.",
    user="详细介绍一下北京三天的旅游路线。",
    max_tokens=200,
    deltas=[
        Rs("第一天故宫天安门，第二天长城，第三天颐和园圆明园。"),
        Cs(
            "**第一天：中轴线**\n上午从天安门广场进入故宫，建议预留四个小时；下午登景山公园俯瞰故宫全景，"
            "傍晚去什刹海、南锣鼓巷逛胡同。\n\n**第二天：长城**\n推荐慕田峪长城，人比八达岭少，"
            "可以坐缆车上去、滑道下来。回城后晚上可以去"
        ),
    ],
    finish="length",
)

T.chat(
    [TR],
    "glm45",
    "ja",
    "Japanese answer cut off by max_tokens.",
    user="京都で紅葉を見るおすすめの場所を教えてください。",
    max_tokens=120,
    reasoning="東福寺、永観堂、嵐山、清水寺。",
    content=(
        "京都の紅葉の名所をいくつか紹介します。\n\n"
        "1. **東福寺** – 通天橋から見下ろす約2,000本のもみじは圧巻です。混雑するので朝一番がおすすめ。\n"
        "2. **永観堂** – 「もみじの永観堂」と呼ばれ、夜のライトアップも"
    ),
    finish="length",
)

T.chat(
    [B, L, TR],
    "qwen3_noparser",
    "en",
    "No reasoning parser and the budget ran out inside the think block: the open tag and the reasoning are "
    "visible, no end tag ever came.",
    user="Plan a 10-day Japan itinerary for a first-time visitor who likes food and hiking.",
    max_tokens=180,
    content=(
        "<think>\nOkay, the user wants 10 days, first time, likes food and hiking. Classic route: Tokyo (3), "
        "Hakone or Kamakura (1), Kyoto (3), Nara day trip, Osaka (2). For hiking: Mt. Takao from Tokyo, "
        "Fushimi Inari full loop, maybe the Kumano Kodo but that needs 2-3 days which would cut Osaka. Food: "
        "Tsukiji outer market, depachika, Nishiki market, Dotonbori. Should I suggest a JR pass? With prices "
        "since 2023 it might not pay off for this route, individual shinkansen tickets Tokyo-Kyoto and"
    ),
    finish="length",
)

T.chat(
    [L, TR],
    "deepseek_r1_noparser",
    "zh",
    "Original R1 without parser, cut by max_tokens before it ever emitted </think>: the visible text is "
    "untagged self-talk.",
    user="比较一下沪深300指数基金和中证500指数基金，哪个更适合定投？",
    max_tokens=150,
    content=(
        "嗯，用户想比较沪深300和中证500哪个更适合定投。沪深300是大盘蓝筹，波动相对小；中证500是中盘股，"
        "波动更大。定投的逻辑是利用波动摊低成本，理论上波动大的品种定投效果可能更好，但前提是长期上涨。"
        "还要考虑估值分位、费率，以及用户的风险承受能力，另外"
    ),
    finish="length",
)

T.chat_stream(
    [TR],
    "kimi_k2",
    "en",
    "Stream where every delta was reasoning and max_tokens ended it; no content arrived.",
    user="Prove that the square root of 2 is irrational, step by step.",
    max_tokens=120,
    deltas=[
        Rs(
            "Assume sqrt2 = p/q in lowest terms. Then p^2 = 2q^2, so p^2 even, so p even, p = 2k. Then 4k^2 = "
            "2q^2 so q^2 = 2k^2, q even. Contradiction with lowest terms. Now I should write this cleanly with "
            "each step justified, including why p^2 even implies p even: if p were odd, p = 2m+1, p^2 = "
        ),
    ],
    finish="length",
)

T.chat(
    [TR],
    "gpt_oss",
    "ko",
    "gpt-oss: analysis channel exhausted max_tokens; content is an empty string, finish length.",
    user="리액트에서 useEffect 의존성 배열을 비워 두면 어떻게 되는지 자세히 설명해 줘",
    max_tokens=100,
    reasoning=(
        "Explain: empty deps array means effect runs once after mount, cleanup on unmount; in StrictMode dev "
        "it runs twice; stale closure issue with state referenced inside; eslint exhaustive-deps warning. "
        "Should give example with setInterval where count stays 0 because"
    ),
    content="",
    finish="length",
)

T.chat(
    [TR],
    "hunyuan",
    "en",
    "Hunyuan with parsers configured; answer truncated after the reasoning finished.",
    user="List the steps to set up a Python virtual environment and install requirements.",
    max_tokens=70,
    reasoning="venv, activate, pip install -r.",
    content=(
        "1. Create it: `python3 -m venv .venv`\n"
        "2. Activate it: `source .venv/bin/activate` (Windows: `.venv\\Scripts\\activate`)\n"
        "3. Upgrade pip: `python -m pip install --upgrade"
    ),
    finish="length",
)

# ------------------------------------------------------------------ final_in_reasoning

T.chat(
    [FIR],
    "qwen3_r1parser",
    "en",
    "Qwen3 with enable_thinking=false served with the deepseek_r1 parser, which assumes reasoning until "
    "</think>: the whole answer lands in reasoning, content is null, finish stop.",
    user="Suggest a name for a small bakery that specializes in sourdough.",
    tkw={"enable_thinking": False},
    reasoning=(
        "A few ideas:\n\n- **Rise & Crumb**\n- **Slow Loaf**\n- **The Wild Yeast**\n- **Crust Collective**\n\n"
        "Rise & Crumb is short, memorable and hints at both fermentation and texture."
    ),
    content=None,
)

T.chat(
    [FIR],
    "qwen3_r1parser",
    "zh",
    "Parser family mismatch; the Chinese answer is in reasoning_content and content is empty.",
    user="给我的猫起个名字，它是一只橘猫。",
    rkey="reasoning_content",
    tkw={"enable_thinking": False},
    reasoning="给橘猫推荐几个名字：**橘子**、**大橘**、**芒果**、**南瓜**、**金桔**。其中“芒果”颜色贴切，叫起来也顺口。",
    content=None,
)

T.chat(
    [FIR],
    "deepseek_v3_r1parser",
    "ko",
    "DeepSeek-V3.1 in non-thinking mode served with the deepseek_r1 parser (which expects a missing start "
    "tag): the Korean answer is parsed as reasoning.",
    user="비 오는 날 듣기 좋은 재즈 앨범 추천해 줘",
    tkw={"thinking": False},
    reasoning=(
        "비 오는 날에 어울리는 재즈 앨범을 추천드려요.\n\n"
        "- Bill Evans Trio – *Sunday at the Village Vanguard*\n- Chet Baker – *Chet*\n"
        "- Miles Davis – *Kind of Blue*\n- 나윤선 – *Same Girl*"
    ),
    content=None,
)

T.chat(
    [FIR],
    "qwen3",
    "en",
    "The model emitted its tool call inside the reasoning block; tool parsing only looks at content, so no "
    "structured call exists, content is empty and the finish is stop.",
    user="What's the weather in Reykjavik?",
    tools=["get_weather"],
    reasoning=(
        "The user wants Reykjavik weather. I should call the tool.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Reykjavik"}}\n</tool_call>'
    ),
    content=None,
)

T.chat_stream(
    [FIR],
    "glm45_sglang",
    "zh",
    "Streamed: all deltas arrive as reasoning_content, the final chunk finishes with stop and no content.",
    user="用三句话介绍一下量子计算。",
    rkey="reasoning_content",
    deltas=[
        Rs(
            "量子计算利用量子比特的叠加和纠缠来处理信息。与经典比特只能是0或1不同，量子比特可以同时处于多种状态的叠加。"
            "它有望在分子模拟、优化和密码分析等问题上远超经典计算机，但目前仍受限于噪声和纠错。"
        ),
    ],
)

T.chat(
    [FIR],
    "gpt_oss_20b",
    "en",
    "gpt-oss with a mismatched harmony parser version: both analysis and final text were returned in the "
    "reasoning field; content is an empty string and finish is stop.",
    user="What year did the Berlin Wall fall?",
    reasoning="User asks a history fact: 1989, November 9.The Berlin Wall fell on **9 November 1989**.",
    content="",
)

T.chat(
    [FIR],
    "kimi_k2",
    "ja",
    "Kimi K2: the answer stayed inside the reasoning section because the end delimiter never came; content "
    "null, finish stop.",
    user="「一期一会」の意味を簡単に教えて。",
    reasoning="「一期一会」は、一生に一度の出会いだと思って、その機会を大切にするという意味です。茶道に由来する言葉です。",
    content=None,
)

T.chat(
    [FIR],
    "ernie",
    "ko",
    "ERNIE-4.5 Thinking never emitted </think>; the base thinking parser returns the whole output as "
    "reasoning and content None.",
    user="퇴사 후 실업급여 받으려면 어떻게 해야 해?",
    reasoning=(
        "실업급여를 받으려면 이직일 이전 18개월 중 피보험 단위기간이 180일 이상이어야 하고, 비자발적 퇴사여야 "
        "합니다. 퇴사 후 고용24에서 구직 등록을 하고 수급자격 신청 교육을 들은 뒤 고용센터에 방문해 신청하세요."
    ),
    content=None,
)

T.chat_stream(
    [FIR],
    "deepseek_v3_r1parser",
    "en",
    "Streamed parser mismatch: every delta is reasoning, finish stop, no content.",
    user="Give me a tagline for a bike repair shop.",
    tkw={"thinking": False},
    deltas=[Rs('"We fix it, you ride it." — short, friendly and says exactly what the shop does.')],
)

# ------------------------------------------------------------------ negatives

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: a long answer that finished normally (stop) with max_tokens set generously.",
    user="What are the main differences between TCP and UDP, and when would I use each?",
    max_tokens=4096,
    reasoning="Connection-oriented vs connectionless, reliability, ordering, flow control, overhead; use cases.",
    content=(
        "**TCP** (Transmission Control Protocol) is connection-oriented: it sets up a connection with a "
        "handshake, guarantees that data arrives in order and without loss (retransmitting when needed), and "
        "controls the sending rate so it doesn't overwhelm the receiver or the network.\n\n"
        "**UDP** (User Datagram Protocol) just sends independent datagrams. There is no handshake, no "
        "retransmission and no ordering; packets can be lost, duplicated or arrive out of order. In exchange it "
        "has very little overhead and no head-of-line blocking.\n\n"
        "Use **TCP** when every byte must arrive intact: web pages and APIs (HTTP/1.1 and HTTP/2), file "
        "transfer, email, database connections, SSH.\n\n"
        "Use **UDP** when timeliness matters more than completeness, or when you want to build your own "
        "reliability on top: voice and video calls, online games, DNS lookups, live streaming, and QUIC (which "
        "HTTP/3 runs on) implements its own reliability and congestion control over UDP.\n\n"
        "A simple rule: if a late packet is useless, UDP is usually the better fit; if a missing packet is "
        "unacceptable, use TCP."
    ),
)

T.chat_stream(
    [],
    "deepseek_r1",
    "zh",
    "Clean: streamed answer ends with finish_reason stop.",
    user="如何挑选一款适合新手的单反相机？",
    max_tokens=2048,
    deltas=[
        Rs("入门级机身、套头、预算、握持、二手。"),
        Cs(
            "给新手几点建议：\n\n1. **预算优先考虑镜头**，机身选入门级即可。\n"
            "2. **去实体店握一握**，重量和手感很影响出门的意愿。\n"
            "3. 如果主要拍人像和日常，可以考虑微单，体积小、对焦快。\n"
            "4. 二手市场的入门机身性价比很高，注意快门次数。"
        ),
    ],
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: reasoning and content both present, finish stop.",
    user="아침에 공복 운동이 살 빼는 데 더 좋아요?",
    reasoning="공복 유산소: 지방 연소 비율은 높지만 총 감량 차이는 크지 않다는 연구.",
    content=(
        "공복 운동은 운동 중 지방을 태우는 비율은 조금 높지만, 하루 전체로 보면 체중 감량 효과는 식후 운동과 "
        "큰 차이가 없다는 연구가 많습니다. 결국 중요한 건 **꾸준함과 총 섭취·소비 열량**입니다. 공복에 "
        "어지럽다면 바나나 반 개 정도 먹고 운동해도 괜찮습니다."
    ),
)

T.chat(
    [],
    "llama3",
    "en",
    "Clean: a short reply that happens to hit the user's max_tokens exactly but finished with stop.",
    user="Reply with just the word 'ready'.",
    max_tokens=2,
    content="ready",
)

T.chat_stream(
    [],
    "qwen3_30b",
    "ja",
    "Clean: Japanese stream, finish stop, reasoning separate.",
    user="お弁当が傷みにくくなる工夫を教えて。",
    deltas=[
        Rs("冷ましてから詰める、水分を切る、梅干し、保冷剤。"),
        C("お弁当を傷みにくくするコツです。\n\n"),
        Cs(
            "- ご飯もおかずも**しっかり冷ましてから**ふたをする\n- 汁気の多いおかずは水分をよく切る\n"
            "- 卵焼きなどは中まで火を通す\n- 夏場は保冷剤と保冷バッグを使う"
        ),
    ],
)
