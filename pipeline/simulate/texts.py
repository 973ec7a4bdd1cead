# ruff: noqa: E501  (a text bank: long natural-language lines read better unbroken)
"""Text banks for the traffic simulator (``leakline.pipeline.simulate``).

Everything here is plain data: prompts, answer sentences, reasoning traces, preambles and
small word pools in English, Korean and Chinese. ``plan.EventContext`` fills the
``{placeholders}`` with per-event values (see ``topics.topic_values``) and combines
sentences, so two events on the same topic rarely read the same.

Rules the banks follow, because the simulator's expected labels depend on them
(see ``detectors/LABELS.md``):

* ``answer`` sentences never open with a progress sentence or self-talk, and never hold a
  reasoning delimiter, special token or tool-call markup. The first two sentences of each
  topic are "lead" sentences that start with the answer itself.
* ``reasoning`` sentences may say anything; ``REASONING_CUES`` open every trace with
  unmistakable self-talk, so a trace that lands in visible text is an untagged leak.
* ``preamble`` / ``PREAMBLES`` / ``COMMENTARY`` are interim progress sentences.
* ``CLOSERS`` may say "Let me know…" at the *end* of an answer, which is not a preamble.
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "ko", "zh")
TOPICS: tuple[str, ...] = ("weather", "code", "finance", "travel", "cooking", "hr", "math")

# How sentences are glued together in each language.
JOINER: dict[str, str] = {"en": " ", "ko": " ", "zh": ""}

# ----------------------------------------------------------------------------- word pools

CITIES: dict[str, tuple[str, ...]] = {
    "en": ("Seattle", "Lisbon", "Osaka", "Toronto", "Melbourne", "Denver", "Edinburgh", "Austin"),
    "ko": ("서울", "부산", "제주", "대구", "인천", "광주", "강릉", "전주"),
    "zh": ("北京", "上海", "成都", "杭州", "深圳", "西安", "厦门", "青岛"),
}

DESTINATIONS: dict[str, tuple[str, ...]] = {
    "en": ("Kyoto", "Barcelona", "Reykjavik", "Hanoi", "Vancouver", "Prague", "Singapore"),
    "ko": ("교토", "바르셀로나", "레이캬비크", "하노이", "밴쿠버", "프라하", "싱가포르"),
    "zh": ("京都", "巴塞罗那", "雷克雅未克", "河内", "温哥华", "布拉格", "新加坡"),
}

DAYS: dict[str, tuple[str, ...]] = {
    "en": ("tomorrow", "this weekend", "on Saturday", "on Monday", "tomorrow morning"),
    "ko": ("내일", "이번 주말", "토요일", "월요일", "내일 오전"),
    "zh": ("明天", "这个周末", "周六", "周一", "明天上午"),
}

# (dry conditions, wet conditions)
CONDITIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        (
            "clear skies",
            "scattered clouds",
            "a mix of sun and cloud",
            "patchy fog clearing by noon",
        ),
        ("light rain", "a few showers", "steady rain in the afternoon", "drizzle on and off"),
    ),
    "ko": (
        ("맑음", "구름 조금", "구름 많음", "오전 안개 후 갬"),
        ("약한 비", "가끔 소나기", "오후 한때 비", "흐리고 이슬비"),
    ),
    "zh": (
        ("晴", "多云", "晴转多云", "早晨有雾，中午转晴"),
        ("小雨", "阵雨", "午后有雨", "阴有毛毛雨"),
    ),
}

RAIN_ADVICE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        ("you can probably leave the umbrella at home", "rain gear is optional"),
        ("I'd pack an umbrella", "a rain jacket is a good idea"),
    ),
    "ko": (
        ("우산은 없어도 괜찮겠습니다", "비 걱정은 크게 안 하셔도 됩니다"),
        ("우산을 챙기시는 게 좋겠습니다", "우비를 준비하시길 권합니다"),
    ),
    "zh": (
        ("一般不用带伞", "不太需要担心下雨"),
        ("建议带把伞", "最好准备好雨具"),
    ),
}

CODE_LANGS: tuple[str, ...] = ("Python", "Go", "Rust", "TypeScript", "Java", "Kotlin")
FUNCTIONS: tuple[str, ...] = (
    "parse_config",
    "load_users",
    "merge_intervals",
    "retry_request",
    "normalize_path",
    "build_index",
    "render_invoice",
)
ERRORS: tuple[str, ...] = (
    "KeyError",
    "IndexError",
    "TypeError",
    "NullPointerException",
    "ValueError",
)

CODE_ISSUES: dict[str, tuple[str, ...]] = {
    "en": (
        "input is not validated",
        "parsed result is rebuilt on every call",
        "whole file is loaded into memory",
        "error message hides the failing key",
        "no test covers the empty-input case",
    ),
    "ko": (
        "입력값 검증이 없음",
        "호출할 때마다 파싱 결과를 다시 만듦",
        "파일 전체를 메모리에 올림",
        "오류 메시지에 실패한 키가 드러나지 않음",
        "빈 입력을 다루는 테스트가 없음",
    ),
    "zh": (
        "没有校验输入",
        "每次调用都重新解析",
        "把整个文件读进内存",
        "错误信息没有指出出错的键",
        "缺少空输入的测试用例",
    ),
}

# (symbol, currency)
STOCKS: tuple[tuple[str, str], ...] = (
    ("AAPL", "USD"),
    ("NVDA", "USD"),
    ("MSFT", "USD"),
    ("TSLA", "USD"),
    ("ASML", "EUR"),
    ("005930.KS", "KRW"),
    ("0700.HK", "HKD"),
    ("7203.T", "JPY"),
)

MOVE_WORDS: dict[str, tuple[str, str]] = {  # (up, down)
    "en": ("up", "down"),
    "ko": ("상승", "하락"),
    "zh": ("上涨", "下跌"),
}

DISHES: dict[str, tuple[str, ...]] = {
    "en": (
        "mushroom risotto",
        "chicken curry",
        "banana bread",
        "vegetable fried rice",
        "tomato soup",
        "lemon garlic salmon",
    ),
    "ko": ("버섯 리소토", "닭볶음탕", "된장찌개", "김치볶음밥", "잡채", "소고기 미역국"),
    "zh": ("番茄炒蛋", "红烧肉", "宫保鸡丁", "麻婆豆腐", "葱油拌面", "清蒸鲈鱼"),
}

INGREDIENTS: dict[str, tuple[str, ...]] = {
    "en": (
        "onion",
        "garlic",
        "fresh ginger",
        "olive oil",
        "butter",
        "scallions",
        "soy sauce",
        "chopped tomatoes",
        "a splash of stock",
        "black pepper",
    ),
    "ko": (
        "양파",
        "다진 마늘",
        "생강",
        "참기름",
        "대파",
        "간장",
        "고춧가루",
        "애호박",
        "두부",
        "멸치 육수",
    ),
    "zh": ("葱", "姜片", "蒜末", "生抽", "料酒", "白糖", "干辣椒", "花椒", "鸡蛋", "番茄"),
}

NAMES: dict[str, tuple[str, ...]] = {
    "en": (
        "Maria Chen",
        "David Okafor",
        "Priya Nair",
        "Tom Becker",
        "Lucia Romero",
        "Sam Whitfield",
    ),
    "ko": ("김민준", "이서연", "박지호", "최유나", "정하람", "한도윤"),
    "zh": ("王芳", "李伟", "张敏", "刘洋", "陈静", "赵磊"),
}

DEPARTMENTS: dict[str, tuple[str, ...]] = {
    "en": ("Finance", "Platform Engineering", "Sales", "Customer Support", "Legal"),
    "ko": ("재무팀", "플랫폼개발팀", "영업팀", "고객지원팀", "법무팀"),
    "zh": ("财务部", "平台研发部", "销售部", "客服部", "法务部"),
}

HIGHLIGHTS: dict[str, tuple[str, ...]] = {
    "en": (
        "old town walking tour",
        "morning food market",
        "a museum day",
        "day trip by train",
        "sunset viewpoint",
        "riverside cycling",
    ),
    "ko": (
        "구시가지 도보 여행",
        "아침 시장 먹거리",
        "박물관 투어",
        "기차 당일치기",
        "일몰 전망대",
        "강변 자전거",
    ),
    "zh": ("老城区徒步", "早市美食", "博物馆一日游", "坐火车一日游", "看日落的观景台", "河边骑行"),
}

# ----------------------------------------------------------------------------- generic pieces

SYSTEM_PROMPTS: dict[str, tuple[str, ...]] = {
    "en": (
        "You are a helpful assistant. Answer concisely.",
        "You are the internal help desk assistant. Keep answers short and factual.",
        "You help employees with everyday questions. Use plain language.",
    ),
    "ko": (
        "당신은 친절한 업무 도우미입니다. 간결하게 답하세요.",
        "사내 헬프데스크 어시스턴트입니다. 짧고 정확하게 답하세요.",
        "직원들의 일상적인 질문을 돕습니다. 쉬운 말로 설명하세요.",
    ),
    "zh": (
        "你是一个乐于助人的助手，请简洁作答。",
        "你是公司内部的服务台助手，回答要简短准确。",
        "你帮助员工解答日常问题，请用通俗的语言。",
    ),
}

JSON_SYSTEM_PROMPTS: dict[str, tuple[str, ...]] = {
    "en": (
        "Reply with a single JSON object that matches the schema. No extra text.",
        "You are a data extraction service. Output JSON only.",
    ),
    "ko": (
        "스키마에 맞는 JSON 객체 하나만 출력하세요. 다른 텍스트는 쓰지 마세요.",
        "당신은 데이터 추출 서비스입니다. JSON만 출력하세요.",
    ),
    "zh": (
        "只输出一个符合 schema 的 JSON 对象，不要有其他文字。",
        "你是数据提取服务，只输出 JSON。",
    ),
}

# Self-talk openers. Every reasoning trace starts with one of these.
REASONING_CUES: dict[str, tuple[str, ...]] = {
    "en": (
        "Okay, so the user is asking about {subject}.",
        "Hmm, the user wants to know about {subject}.",
        "Okay, the user is asking about {subject}. I need to work through the details.",
        "So the user wants help with {subject}. Hmm, wait, first the facts.",
    ),
    "ko": (
        "사용자가 {subject}에 대해 묻고 있다.",
        "음, 사용자는 {subject}에 대해 알고 싶어 한다.",
        "질문은 {subject}에 관한 것이다. 하나씩 따져 보자.",
        "사용자가 {subject}에 대해 물었다. 잠깐, 조건부터 정리하자.",
    ),
    "zh": (
        "嗯，用户问的是{subject}。",
        "好的，用户想知道{subject}。",
        "用户在问{subject}，得把细节理清楚。",
        "用户关心的是{subject}，先把已知条件列出来。",
    ),
}

REASONING_WRAPUPS: dict[str, tuple[str, ...]] = {
    "en": ("That should be enough; I'll answer directly.", "Okay, I'll write the answer now.", ""),
    "ko": ("이 정도면 충분하다. 바로 답하자.", "좋아, 이제 답을 쓰자.", ""),
    "zh": ("这样就够了，直接回答吧。", "好，现在开始写回答。", ""),
}

PREAMBLES: dict[str, tuple[str, ...]] = {
    "en": (
        "Let me check that.",
        "Let me look that up first.",
        "I'll search for the latest details.",
        "Sure, let me look into that first.",
        "One moment, I'll check the details.",
        "Let me pull up the numbers for you.",
    ),
    "ko": (
        "먼저 자료를 찾아보겠습니다.",
        "잠시만요, 확인해 보겠습니다.",
        "먼저 관련 정보를 확인해 보겠습니다.",
        "최신 정보를 검색해 보겠습니다.",
        "바로 조회해 보겠습니다.",
    ),
    "zh": (
        "我先查一下。",
        "让我搜索一下相关信息。",
        "稍等，我查一下最新数据。",
        "我先确认一下细节。",
        "让我先看看。",
    ),
}

COMMENTARY: dict[str, tuple[str, ...]] = {
    "en": (
        "Checking a couple of sources before I answer.",
        "I'm pulling the latest data now.",
        "Give me a moment to verify the numbers.",
    ),
    "ko": (
        "답변 전에 자료 몇 가지를 확인하고 있습니다.",
        "최신 데이터를 불러오는 중입니다.",
        "숫자를 한 번 더 확인하겠습니다.",
    ),
    "zh": ("回答之前我先核对几个来源。", "正在获取最新数据。", "稍等，我再核对一下数字。"),
}

CLOSERS: dict[str, tuple[str, ...]] = {
    "en": (
        "Let me know if you need anything else.",
        "Happy to go into more detail if that helps.",
        "Hope that helps!",
        "Let me know if you want me to dig further.",
    ),
    "ko": (
        "더 궁금한 점이 있으면 알려 주세요.",
        "필요하면 더 자세히 정리해 드릴게요.",
        "도움이 되었으면 좋겠습니다.",
    ),
    "zh": ("如果还有其他问题，随时告诉我。", "需要的话我可以再详细说明。", "希望对你有帮助。"),
}

# Structured output gone wrong: prose around the JSON.
JSON_PREFIXES: dict[str, tuple[str, ...]] = {
    "en": (
        "Here is the JSON you asked for:\n",
        "Result:\n\n",
        "Here's the data in the requested format:\n\n",
    ),
    "ko": ("요청하신 JSON입니다:\n", "결과는 다음과 같습니다.\n\n"),
    "zh": ("以下是你要的 JSON：\n", "结果如下：\n\n"),
}

JSON_SUFFIXES: dict[str, tuple[str, ...]] = {
    "en": ("\n\nI can add more fields if you need them.", "\n\nNote: values are approximate."),
    "ko": ("\n\n필요하면 필드를 더 추가해 드릴게요.", "\n\n참고: 값은 대략적인 수치입니다."),
    "zh": ("\n\n需要的话可以再加字段。", "\n\n注：数值为近似值。"),
}

# ----------------------------------------------------------------------------- hard negatives

# Answers that talk *about* markup: tokens sit in code spans, fences or quotes, so no label.
EXPLAINER_PROMPTS: dict[str, tuple[str, ...]] = {
    "en": (
        "Why do I sometimes see think tags in my chatbot's answers?",
        "How does gpt-oss separate its reasoning from the answer?",
    ),
    "ko": (
        "챗봇 답변에 가끔 think 태그가 보이는 이유가 뭔가요?",
        "gpt-oss는 추론과 답변을 어떻게 구분하나요?",
    ),
    "zh": (
        "为什么我的聊天机器人回答里有时会出现 think 标签？",
        "gpt-oss 是怎么把推理和答案分开的？",
    ),
}

EXPLAINERS: dict[str, tuple[str, ...]] = {
    "en": (
        "Reasoning models such as Qwen3 wrap their chain of thought in `<think>` and `</think>` "
        "tags, and the serving engine is expected to move that part into a separate `reasoning` "
        "field. If the tags show up in your chat UI, check that the server runs with "
        "`--reasoning-parser qwen3` and that your client reads the right field. A cheap regression "
        'check is to search responses for the literal string "</think>".',
        "gpt-oss is trained on the harmony format, where every message carries a channel. A raw "
        "completion looks roughly like this:\n\n```\n<|start|>assistant<|channel|>analysis"
        "<|message|>...<|end|>\n<|start|>assistant<|channel|>final<|message|>Hello!<|return|>\n```"
        "\n\nOnly the `final` channel is meant for users. The `analysis` channel is the model's "
        "scratchpad and should stay on the server.",
    ),
    "ko": (
        "Qwen3 같은 추론 모델은 생각 과정을 `<think>`와 `</think>` 태그로 감싸고, 서빙 엔진이 이 부분을 "
        "별도의 `reasoning` 필드로 옮깁니다. 채팅 화면에 태그가 보인다면 서버를 "
        "`--reasoning-parser qwen3` 옵션으로 띄웠는지, 클라이언트가 올바른 필드를 읽는지 확인하세요. "
        '회귀 테스트에서는 응답에 "</think>" 문자열이 남아 있는지만 검사해도 효과가 큽니다.',
        "gpt-oss는 모든 메시지에 채널이 붙는 harmony 형식으로 학습됐습니다. 원문 출력은 대략 이렇습니다."
        "\n\n```\n<|start|>assistant<|channel|>analysis<|message|>...<|end|>\n"
        "<|start|>assistant<|channel|>final<|message|>안녕하세요!<|return|>\n```\n\n"
        "사용자에게 보여 줄 것은 `final` 채널뿐이고, `analysis` 채널은 모델의 작업 메모라서 서버 밖으로 "
        "나가면 안 됩니다.",
    ),
    "zh": (
        "像 Qwen3 这样的推理模型会用 `<think>` 和 `</think>` 标签包住思考过程，推理引擎应当把这部分"
        "移到单独的 `reasoning` 字段里。如果聊天界面里能看到这些标签，请确认服务是否带着 "
        "`--reasoning-parser qwen3` 启动，以及客户端读取的字段是否正确。做回归测试时，检查回答里是否"
        '还残留 "</think>" 这个字符串就很有用。',
        "gpt-oss 使用 harmony 格式训练，每条消息都带有一个频道。原始输出大致如下：\n\n```\n"
        "<|start|>assistant<|channel|>analysis<|message|>...<|end|>\n"
        "<|start|>assistant<|channel|>final<|message|>你好！<|return|>\n```\n\n"
        "只有 `final` 频道是给用户看的，`analysis` 频道是模型的草稿，不应该离开服务端。",
    ),
}

# Tools declared, the user asks what a call would look like: a fenced call with prose
# around it is an explanation, not a leaked call.
TOOL_EXAMPLE_PROMPTS: dict[str, tuple[str, ...]] = {
    "en": (
        "What would the request to the {tool} tool look like for this? Just show me, don't run it.",
    ),
    "ko": ("이 경우 {tool} 도구 호출은 어떤 모양이 되나요? 실행하지 말고 보여만 주세요.",),
    "zh": ("这种情况下调用 {tool} 工具的请求长什么样？不用执行，给我看看就行。",),
}

TOOL_EXAMPLE_BEFORE: dict[str, tuple[str, ...]] = {
    "en": (
        "Here's what the call to `{tool}` would look like:",
        "The function call would be shaped like this:",
    ),
    "ko": ("`{tool}` 호출은 다음과 같은 모양입니다.", "함수 호출은 이런 형태가 됩니다."),
    "zh": ("调用 `{tool}` 的请求大致如下：", "函数调用的结构是这样的："),
}

TOOL_EXAMPLE_AFTER: dict[str, tuple[str, ...]] = {
    "en": (
        "Your application sends this as a function call and passes the result back to the model.",
        "Nothing was executed; run it when you're ready.",
    ),
    "ko": (
        "애플리케이션이 이것을 함수 호출로 보내고, 결과를 다시 모델에 넘겨주면 됩니다.",
        "실제로 실행하지는 않았습니다. 준비되면 실행하세요.",
    ),
    "zh": (
        "应用程序会把它作为函数调用发出，再把结果交回给模型。",
        "这里没有实际执行，准备好后再运行即可。",
    ),
}

# ----------------------------------------------------------------------------- topic banks
#
# subject:    short noun phrase used by REASONING_CUES
# prompts:    user questions
# json_prompt: the question when structured output is requested
# answer:     answer sentences; the first two are alternative leads, the rest follow in order
# reasoning:  reasoning sentences, used in order after a cue
# preamble:   topic-specific progress sentences

BANK: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "weather": {
            "subject": ("the weather in {city} {day}", "whether it will rain in {city} {day}"),
            "prompts": (
                "What's the weather going to be like in {city} {day}?",
                "Do I need an umbrella in {city} {day}?",
                "I'm planning a bike ride in {city} {day}. How does the forecast look?",
                "Quick check: how warm will it get in {city} {day}?",
            ),
            "json_prompt": (
                "Summarise the forecast for {city} {day} as JSON with city, high_c, low_c, "
                "condition and rain_chance.",
            ),
            "answer": (
                "{city} is looking at {cond} {day}, with a high around {high}°C and a low near {low}°C.",
                "Expect {cond} in {city} {day}; temperatures should range from {low}°C to {high}°C.",
                "The chance of rain sits at about {rain}%, so {advice}.",
                "Wind should stay near {wind} km/h for most of the day.",
                "It will be coolest early in the morning, so a light layer is worth bringing.",
                "The warmest stretch is usually between 1 and 4 pm.",
            ),
            "reasoning": (
                "They want the forecast for {city} {day}.",
                "The data points to {cond}, highs of {high} and lows of {low}.",
                "Rain probability is {rain} percent, which settles the umbrella question.",
                "Wind is around {wind} km/h, worth a short mention if they'll be outside.",
                "Wait, I should give Celsius since that's what the source uses.",
                "Lead with the temperature range and keep it brief.",
            ),
            "preamble": (
                "Let me check the forecast for {city}.",
                "I'll look up the latest forecast for {city} first.",
            ),
        },
        "code": {
            "subject": (
                "the {err} in their {code_lang} function {fn}",
                "speeding up {fn} in {code_lang}",
            ),
            "prompts": (
                "My {code_lang} function {fn} throws {err} on line {line}. What usually causes that?",
                "How do I speed up {fn} in {code_lang}? It takes about {ms} ms per call.",
                "Can you review this approach: {fn} reads the whole file into memory before parsing it.",
            ),
            "json_prompt": (
                "Review the {code_lang} function {fn} and return JSON with language, verdict and "
                "a list of issues.",
            ),
            "answer": (
                "{err} around line {line} usually means {fn} reads a value that was never set on that "
                "code path.",
                "The most likely culprit in {fn} is the input it receives, not the parsing logic itself.",
                "Add a guard at the top of {fn} that checks the input and fails with a clear message.",
                "If the function runs in a loop, cache the parsed result instead of rebuilding it on "
                "every call; that alone often brings {ms} ms down to a few milliseconds.",
                "Reading the file as a stream keeps memory flat even for large inputs.",
                "A small unit test that reproduces the failure makes the fix easy to verify.",
            ),
            "reasoning": (
                "{err} on line {line} suggests a missing value or a bad index.",
                "{fn} probably assumes its input is already validated, which may not hold.",
                "Hmm, {ms} ms per call hints that something is recomputed each time.",
                "I should suggest a guard clause and a regression test.",
                "No need to rewrite the whole function; targeted fixes are better.",
            ),
            "preamble": (
                "Let me look through the {code_lang} docs for that.",
                "I'll search the docs for {err} first.",
            ),
        },
        "finance": {
            "subject": ("the price of {symbol}", "today's move in {symbol}"),
            "prompts": (
                "What's {symbol} trading at right now?",
                "How did {symbol} do today?",
                "Should I be worried that {symbol} moved {change}% today?",
            ),
            "json_prompt": (
                "Give me the latest quote for {symbol} as JSON with symbol, price, currency and "
                "change_pct.",
            ),
            "answer": (
                "{symbol} last traded at {price} {ccy}, {move} {abs_change}% on the day.",
                "The latest quote for {symbol} is {price} {ccy}, a daily move of {change}%.",
                "A single-day move of that size is within the stock's normal range over the past month.",
                "Volume has been close to its 30-day average, so the move doesn't look driven by one "
                "large order.",
                "If you hold it for the long term, one session rarely changes the picture.",
                "Quotes can lag by up to 15 minutes depending on the exchange, so check with your "
                "broker before trading.",
            ),
            "reasoning": (
                "I need the latest price for {symbol}.",
                "The quote shows {price} {ccy} with a change of {change} percent.",
                "Is that move unusual? Probably not for this stock.",
                "I shouldn't give personalised investment advice, just context.",
                "Mention that quotes may be delayed.",
            ),
            "preamble": (
                "I'll look up the latest quote for {symbol}.",
                "Let me pull the current price for {symbol}.",
            ),
        },
        "travel": {
            "subject": ("a trip from {origin} to {dest}", "flights to {dest} around {date}"),
            "prompts": (
                "Find me a flight from {origin} to {dest} on {date}.",
                "I have {days} days and about {budget} USD. Is {dest} doable from {origin}?",
                "What's the cheapest way to get from {origin} to {dest} around {date}?",
            ),
            "json_prompt": (
                "Plan a {days}-day trip to {dest} and return JSON with destination, days, "
                "budget_usd and highlights.",
            ),
            "answer": (
                "The best option from {origin} to {dest} on {date} is a nonstop flight at about {fare} USD.",
                "A {days}-day trip to {dest} fits a {budget} USD budget if you book the flights soon.",
                "Fares on that route tend to climb in the last two weeks before departure.",
                "Mid-week departures are usually cheaper than Friday or Sunday ones.",
                "Set aside roughly a third of the budget for lodging and keep the rest for food and "
                "local transport.",
                "Check whether your passport needs six months of validity for entry.",
            ),
            "reasoning": (
                "They're going from {origin} to {dest} around {date}.",
                "The fare I see is about {fare} USD; with {budget} USD that leaves room for hotels.",
                "Wait, {days} days is short, so I should not suggest too many side trips.",
                "Mention booking early and flying mid-week.",
            ),
            "preamble": (
                "Let me search for flights from {origin} to {dest}.",
                "I'll check fares for {date} first.",
            ),
        },
        "cooking": {
            "subject": ("how to cook {dish}", "making {dish} in {minutes} minutes"),
            "prompts": (
                "How do I make {dish} for {servings} people?",
                "I have about {minutes} minutes. Can I still make {dish}?",
                "What's a good way to cook {dish} without it turning out bland?",
            ),
            "json_prompt": (
                "Give me a recipe outline for {dish} as JSON with dish, servings, minutes and "
                "ingredients.",
            ),
            "answer": (
                "For {servings} servings of {dish}, plan on about {minutes} minutes from start to finish.",
                "You can make {dish} in {minutes} minutes if everything is prepped before the heat goes on.",
                "Start with {ing1} and {ing2}, then build flavour slowly over medium heat.",
                "Season in stages rather than all at the end, and taste after each addition.",
                "If anything goes in the oven, preheat it to {oven}°C so it's ready when you are.",
                "Leftovers keep for two to three days in a sealed container in the fridge.",
            ),
            "reasoning": (
                "They want to cook {dish} for {servings}.",
                "A total of about {minutes} minutes seems right.",
                "Key ingredients: {ing1}, {ing2}.",
                "Hmm, the oven temperature only matters if part of it is baked.",
                "Give the timing first, then a couple of tips.",
            ),
            "preamble": (
                "Let me find a reliable recipe for {dish}.",
                "I'll look up a recipe first.",
            ),
        },
        "hr": {
            "subject": ("the leave balance for {name}", "whether {name} can take {leave} days off"),
            "prompts": (
                "How many vacation days does {name} in {dept} have left this year?",
                "Can you check whether employee {emp_id} is eligible for parental leave?",
                "{name} wants to take {leave} days off next month. Is that allowed?",
            ),
            "json_prompt": (
                "Check the leave balance for employee {emp_id} and return JSON with employee_id, "
                "leave_days and approved.",
            ),
            "answer": (
                "{name} ({emp_id}) has {remaining} paid leave days left for this year.",
                "Employee {emp_id} in {dept} currently has {remaining} days of annual leave available.",
                "A request for {leave} days fits within that balance, so it only needs manager approval.",
                "Requests longer than five working days should be submitted at least {weeks} weeks ahead.",
                "Up to five unused days can be carried over into the first quarter of next year.",
                "Parental leave is tracked separately and does not reduce the annual balance.",
            ),
            "reasoning": (
                "They're asking about the leave balance for {name}, ID {emp_id}.",
                "The record shows {remaining} days remaining.",
                "The requested {leave} days is less than that, so it fits.",
                "I should mention the {weeks}-week notice rule.",
                "Careful not to share anything beyond the leave balance.",
            ),
            "preamble": (
                "Let me look up {name}'s record.",
                "I'll check the HR system for {emp_id}.",
            ),
        },
        "math": {
            "subject": ("solving {m}x + {c} = {rhs}", "the equation {m}x + {c} = {rhs}"),
            "prompts": (
                "Solve for x: {m}x + {c} = {rhs}.",
                "Can you walk me through solving {m}x + {c} = {rhs}?",
                "My kid's homework asks for x in {m}x + {c} = {rhs}. What's the answer?",
            ),
            "json_prompt": (
                "Solve {m}x + {c} = {rhs} and return JSON with answer and explanation.",
            ),
            "answer": (
                "x = {x}.",
                "The solution is x = {x}.",
                "Subtract {c} from both sides to get {m}x = {mx}.",
                "Then divide both sides by {m}, which leaves x = {x}.",
                "To check, plug it back in: {m} × {x} + {c} = {rhs}.",
            ),
            "reasoning": (
                "The equation is {m}x + {c} = {rhs}.",
                "Subtract {c}: {m}x = {mx}.",
                "Divide by {m}: x = {x}.",
                "Hmm, wait, verify: {m} times {x} is {mx}, plus {c} gives {rhs}. Good.",
                "Show the two steps and the check.",
            ),
            "preamble": ("Let me work that out.", "I'll run the numbers first."),
        },
    },
    "ko": {
        "weather": {
            "subject": ("{city}의 {day} 날씨", "{day} {city}의 비 소식"),
            "prompts": (
                "{city} {day} 날씨 어때요?",
                "{day} {city}에 우산 챙겨야 할까요?",
                "{day} {city}에서 자전거 타려고 하는데 날씨 괜찮을까요?",
                "{city} {day} 최고 기온이 몇 도예요?",
            ),
            "json_prompt": (
                "{city}의 {day} 예보를 city, high_c, low_c, condition, rain_chance 필드가 있는 "
                "JSON으로 정리해 주세요.",
            ),
            "answer": (
                "{day} {city} 예보는 '{cond}'이고, 최고 {high}도, 최저 {low}도 정도로 예상됩니다.",
                "{day} {city}의 기온은 {low}도에서 {high}도 사이이며, 하늘 상태는 '{cond}'입니다.",
                "강수 확률이 {rain}% 정도라서 {advice}.",
                "바람은 시속 {wind}km 안팎으로 불 것으로 보입니다.",
                "아침에는 체감 온도가 낮으니 얇은 겉옷을 하나 챙기세요.",
                "한낮인 오후 1시에서 4시 사이가 가장 따뜻하겠습니다.",
            ),
            "reasoning": (
                "{city}의 {day} 예보를 찾고 있다.",
                "자료를 보면 '{cond}', 최고 {high}도, 최저 {low}도다.",
                "강수 확률이 {rain}%니까 우산 얘기를 해 줘야겠다.",
                "바람은 시속 {wind}km 정도라 야외 활동에 큰 문제는 없겠다.",
                "잠깐, 섭씨 기준으로 답하는 게 맞겠다.",
                "기온 범위를 먼저 말하고 짧게 정리하자.",
            ),
            "preamble": ("{city} 예보를 먼저 확인해 보겠습니다.", "최신 예보를 조회해 보겠습니다."),
        },
        "code": {
            "subject": ("{code_lang} 함수 {fn}의 {err} 문제", "{code_lang} 함수 {fn}의 속도"),
            "prompts": (
                "{code_lang} 코드의 {fn} 함수가 {line}번째 줄에서 {err} 예외를 던집니다. 보통 원인이 뭔가요?",
                "{code_lang}에서 {fn} 호출 한 번에 {ms}ms씩 걸려요. 어떻게 줄일 수 있을까요?",
                "{fn} 함수가 파일 전체를 메모리에 올린 다음 파싱하는데, 이 방식 괜찮을까요?",
            ),
            "json_prompt": (
                "{code_lang} 함수 {fn} 검토 결과를 language, verdict, issues 필드가 있는 JSON으로 "
                "주세요.",
            ),
            "answer": (
                "{line}번째 줄에서 발생하는 {err} 문제는 대개 {fn} 함수가 그 경로에서 아직 설정되지 않은 값을 읽을 때 생깁니다.",
                "{fn} 함수에서 가장 의심되는 부분은 파싱 로직보다 함수가 받는 입력값입니다.",
                "함수 첫머리에 입력을 검사하고 명확한 메시지와 함께 실패하는 가드를 넣어 보세요.",
                "반복문 안에서 호출된다면 매번 다시 파싱하지 말고 결과를 캐시하세요. 그것만으로도 "
                "{ms}ms가 몇 ms 수준으로 줄어드는 경우가 많습니다.",
                "파일을 스트리밍 방식으로 읽으면 입력이 커져도 메모리 사용량이 일정하게 유지됩니다.",
                "실패를 재현하는 작은 단위 테스트를 하나 만들어 두면 수정 여부를 확인하기 쉽습니다.",
            ),
            "reasoning": (
                "{line}번째 줄의 {err} 예외라면 값이 비어 있거나 인덱스가 잘못됐을 가능성이 크다.",
                "{fn} 함수는 입력이 이미 검증됐다고 가정하는 것 같다.",
                "음, 호출당 {ms}ms면 매번 뭔가를 다시 계산하고 있다는 뜻이다.",
                "가드 조건과 회귀 테스트를 제안하자.",
                "함수 전체를 다시 짤 필요는 없다.",
            ),
            "preamble": (
                "{code_lang} 문서부터 찾아보겠습니다.",
                "먼저 관련 이슈를 검색해 보겠습니다.",
            ),
        },
        "finance": {
            "subject": ("{symbol} 시세", "오늘 {symbol} 주가 움직임"),
            "prompts": (
                "{symbol} 지금 얼마예요?",
                "오늘 {symbol} 주가 어땠어요?",
                "{symbol} 주가가 오늘 {change}% 움직였는데 걱정해야 하나요?",
            ),
            "json_prompt": (
                "{symbol}의 최신 시세를 symbol, price, currency, change_pct 필드의 JSON으로 주세요.",
            ),
            "answer": (
                "{symbol}의 최근 체결가는 {price} {ccy}이며, 오늘 {abs_change}% {move}했습니다.",
                "{symbol} 최신 시세는 {price} {ccy}, 당일 등락률은 {change}%입니다.",
                "하루 이 정도 움직임은 최근 한 달 변동 범위 안에 있습니다.",
                "거래량도 30일 평균과 비슷해서 대량 주문 하나 때문에 움직인 것으로 보이지는 않습니다.",
                "장기 보유 중이라면 하루 등락으로 판단을 바꿀 이유는 크지 않습니다.",
                "거래소에 따라 시세가 최대 15분 지연될 수 있으니 매매 전에는 증권사 앱에서 다시 확인하세요.",
            ),
            "reasoning": (
                "{symbol}의 최신 가격이 필요하다.",
                "시세는 {price} {ccy}, 등락률은 {change}%다.",
                "이 정도 변동이 이례적인가? 이 종목이면 그렇지 않다.",
                "개인 맞춤 투자 조언은 피하고 맥락만 주자.",
                "시세 지연 가능성도 언급해야겠다.",
            ),
            "preamble": (
                "{symbol} 시세를 먼저 조회해 보겠습니다.",
                "잠시만요, 최신 주가를 확인해 보겠습니다.",
            ),
        },
        "travel": {
            "subject": ("{origin}에서 {dest}로 가는 여행", "{date} 전후 {dest}행 항공편"),
            "prompts": (
                "{date}에 {origin}에서 {dest} 가는 항공편 찾아 주세요.",
                "{days}일 일정에 예산이 {budget}달러 정도인데 {origin}에서 {dest} 여행 가능할까요?",
                "{date} 전후로 {origin}에서 {dest}까지 제일 싸게 가는 방법이 뭐예요?",
            ),
            "json_prompt": (
                "{dest} {days}일 여행 계획을 destination, days, budget_usd, highlights 필드의 "
                "JSON으로 짜 주세요.",
            ),
            "answer": (
                "{date} {origin}발 {dest}행은 약 {fare}달러짜리 직항편이 가장 좋아 보입니다.",
                "항공권을 일찍 예매하면 {budget}달러 예산으로 {dest} {days}일 여행이 충분히 가능합니다.",
                "이 노선은 출발 2주 전부터 운임이 오르는 경향이 있습니다.",
                "금요일이나 일요일보다 주중 출발편이 대체로 저렴합니다.",
                "예산의 3분의 1 정도는 숙소에, 나머지는 식비와 현지 교통비로 잡아 두세요.",
                "입국할 때 여권 유효기간이 6개월 이상 남아 있어야 하는지도 확인해 보세요.",
            ),
            "reasoning": (
                "{date} 무렵 {origin}에서 {dest}로 가려는 일정이다.",
                "운임이 {fare}달러 정도니까 예산 {budget}달러면 숙소비도 남는다.",
                "잠깐, {days}일이면 짧으니 근교 여행을 너무 많이 넣으면 안 된다.",
                "조기 예매와 주중 출발을 권하자.",
            ),
            "preamble": (
                "{origin}-{dest} 항공편을 먼저 검색해 보겠습니다.",
                "{date} 운임부터 확인해 보겠습니다.",
            ),
        },
        "cooking": {
            "subject": ("{dish} 만드는 법", "{minutes}분 안에 {dish} 만들기"),
            "prompts": (
                "{dish} {servings}인분 만드는 법 알려 주세요.",
                "시간이 {minutes}분 정도밖에 없는데 {dish} 만들 수 있을까요?",
                "{dish} 싱겁지 않게 만드는 요령이 있나요?",
            ),
            "json_prompt": (
                "{dish} 레시피 개요를 dish, servings, minutes, ingredients 필드의 JSON으로 주세요.",
            ),
            "answer": (
                "{dish} {servings}인분은 처음부터 끝까지 {minutes}분 정도 잡으시면 됩니다.",
                "불을 켜기 전에 재료 손질을 모두 끝내 두면 {minutes}분 안에 충분히 만들 수 있습니다.",
                "{ing1}, {ing2} 순서로 넣고 중불에서 천천히 맛을 끌어내세요.",
                "간은 마지막에 한 번에 하지 말고 단계마다 조금씩 보면서 맞추세요.",
                "오븐을 쓴다면 {oven}도로 미리 예열해 두세요.",
                "남은 음식은 밀폐 용기에 담아 냉장고에서 2~3일 보관할 수 있습니다.",
            ),
            "reasoning": (
                "{dish} {servings}인분을 만들려는 것이다.",
                "총 {minutes}분 정도면 적당하다.",
                "핵심 재료: {ing1}, {ing2}.",
                "음, 오븐 온도는 굽는 요리일 때만 의미가 있다.",
                "시간을 먼저 말하고 팁을 두어 개 붙이자.",
            ),
            "preamble": (
                "{dish} 레시피를 먼저 찾아보겠습니다.",
                "믿을 만한 레시피부터 확인해 보겠습니다.",
            ),
        },
        "hr": {
            "subject": ("{name} 님의 휴가 잔여일", "{name} 님의 {leave}일 휴가 신청"),
            "prompts": (
                "{dept} {name} 님 올해 남은 연차가 며칠인가요?",
                "사번 {emp_id} 직원이 육아휴직 대상인지 확인해 줄 수 있나요?",
                "{name} 님이 다음 달에 {leave}일 휴가를 쓰고 싶어 하는데 가능한가요?",
            ),
            "json_prompt": (
                "사번 {emp_id}의 휴가 잔여일을 employee_id, leave_days, approved 필드의 JSON으로 "
                "알려 주세요.",
            ),
            "answer": (
                "{name} 님({emp_id})의 올해 남은 유급 휴가는 {remaining}일입니다.",
                "{dept} 소속 {emp_id} 직원은 현재 연차 {remaining}일을 사용할 수 있습니다.",
                "{leave}일 신청은 잔여일 안에 들어가므로 팀장 승인만 받으면 됩니다.",
                "영업일 기준 5일이 넘는 휴가는 최소 {weeks}주 전에 신청해야 합니다.",
                "쓰지 못한 연차는 5일까지 내년 1분기로 이월됩니다.",
                "육아휴직은 별도로 관리되며 연차 잔여일에서 차감되지 않습니다.",
            ),
            "reasoning": (
                "{name}, 사번 {emp_id}의 휴가 잔여일을 묻는 질문이다.",
                "기록상 남은 일수는 {remaining}일이다.",
                "신청한 {leave}일은 그보다 적으니 문제없다.",
                "{weeks}주 전 사전 신청 규정도 알려 줘야겠다.",
                "휴가 잔여일 외의 개인 정보는 말하지 말자.",
            ),
            "preamble": (
                "{name} 님 인사 기록을 확인해 보겠습니다.",
                "먼저 인사 시스템에서 조회해 보겠습니다.",
            ),
        },
        "math": {
            "subject": ("{m}x + {c} = {rhs} 풀이", "방정식 {m}x + {c} = {rhs}"),
            "prompts": (
                "{m}x + {c} = {rhs}에서 x를 구해 주세요.",
                "{m}x + {c} = {rhs} 푸는 과정을 설명해 줄래요?",
                "아이 숙제인데 {m}x + {c} = {rhs}의 답이 뭐예요?",
            ),
            "json_prompt": (
                "{m}x + {c} = {rhs}를 풀고 answer, explanation 필드의 JSON으로 답해 주세요.",
            ),
            "answer": (
                "x = {x}입니다.",
                "답은 x = {x}입니다.",
                "양변에서 {c}만큼 빼면 {m}x = {mx}입니다.",
                "이제 양변을 나누면 x = {mx} ÷ {m} = {x}입니다.",
                "검산: {m} × {x} + {c} = {rhs}. 식이 성립합니다.",
            ),
            "reasoning": (
                "방정식: {m}x + {c} = {rhs}.",
                "양변에서 {c}만큼 빼면 {m}x = {mx}.",
                "나누면 x = {x}.",
                "잠깐, 검산하자. {m} 곱하기 {x}는 {mx}, 여기에 {c} 더하면 {rhs}. 맞다.",
                "두 단계와 검산을 보여 주자.",
            ),
            "preamble": ("계산해 보겠습니다.", "먼저 숫자를 확인해 보겠습니다."),
        },
    },
    "zh": {
        "weather": {
            "subject": ("{city}{day}的天气", "{city}{day}会不会下雨"),
            "prompts": (
                "{city}{day}天气怎么样？",
                "{day}去{city}需要带伞吗？",
                "我打算{day}在{city}骑车，天气合适吗？",
                "{city}{day}最高气温多少度？",
            ),
            "json_prompt": (
                "请把{city}{day}的天气预报整理成 JSON，包含 city、high_c、low_c、condition 和 "
                "rain_chance 字段。",
            ),
            "answer": (
                "{city}{day}{cond}，最高气温约{high}°C，最低约{low}°C。",
                "{day}{city}气温在{low}°C到{high}°C之间，天气以{cond}为主。",
                "降水概率大约{rain}%，{advice}。",
                "风速大概在每小时{wind}公里左右。",
                "早晚体感偏凉，可以带一件薄外套。",
                "一天中最暖和的时段通常在下午一点到四点。",
            ),
            "reasoning": (
                "要查的是{city}{day}的天气。",
                "数据显示{cond}，最高{high}度，最低{low}度。",
                "降水概率是{rain}%，要说明带不带伞。",
                "风速每小时{wind}公里，户外活动问题不大。",
                "等一下，用摄氏度回答比较合适。",
                "先给出温度范围，回答简短一些。",
            ),
            "preamble": ("我先查一下{city}的天气预报。", "让我看看最新的预报。"),
        },
        "code": {
            "subject": ("{code_lang}函数{fn}报{err}的问题", "{code_lang}函数{fn}的性能"),
            "prompts": (
                "我用{code_lang}写的{fn}函数在第{line}行报{err}，一般是什么原因？",
                "{code_lang}里{fn}每次调用要{ms}毫秒，怎么优化？",
                "{fn}先把整个文件读进内存再解析，这样做合适吗？",
            ),
            "json_prompt": (
                "请审查{code_lang}函数{fn}，以 JSON 返回 language、verdict 和 issues 字段。",
            ),
            "answer": (
                "第{line}行出现{err}，通常是{fn}在这条代码路径上读取了一个还没被赋值的变量。",
                "{fn}里最可疑的是它接收到的输入，而不是解析逻辑本身。",
                "在{fn}开头加一个参数检查，输入不合法时给出明确的错误信息。",
                "如果它在循环里被调用，可以把解析结果缓存起来，不必每次重新计算，往往能把{ms}毫秒降到几毫秒。",
                "改成流式读取文件，内存占用就不会随输入变大而增长。",
                "再写一个能复现问题的小单元测试，修复后就容易验证。",
            ),
            "reasoning": (
                "第{line}行的{err}，多半是值缺失或者下标越界。",
                "{fn}好像默认输入已经校验过，这个假设不一定成立。",
                "嗯，每次{ms}毫秒，说明有东西在重复计算。",
                "应该建议加防御性检查和回归测试。",
                "没必要重写整个函数。",
            ),
            "preamble": ("我先查一下{code_lang}的文档。", "让我搜索一下这个错误。"),
        },
        "finance": {
            "subject": ("{symbol}的股价", "{symbol}今天的走势"),
            "prompts": (
                "{symbol}现在股价多少？",
                "{symbol}今天表现怎么样？",
                "{symbol}今天波动了{change}%，需要担心吗？",
            ),
            "json_prompt": (
                "请以 JSON 给出{symbol}的最新报价，包含 symbol、price、currency 和 change_pct 字段。",
            ),
            "answer": (
                "{symbol}最新成交价为{price} {ccy}，今天{move}{abs_change}%。",
                "{symbol}最新报价{price} {ccy}，当日涨跌幅为{change}%。",
                "单日这个幅度的波动，在过去一个月的正常区间之内。",
                "成交量和30日均值接近，看起来不是某一笔大单造成的。",
                "如果是长期持有，一天的涨跌通常不会改变基本判断。",
                "不同交易所的行情可能延迟最多15分钟，交易前请在券商软件里再确认一次。",
            ),
            "reasoning": (
                "需要{symbol}的最新价格。",
                "报价是{price} {ccy}，涨跌幅{change}%。",
                "这个波动算异常吗？对这只股票来说不算。",
                "不能给个性化的投资建议，只提供背景信息。",
                "还要提醒行情可能有延迟。",
            ),
            "preamble": ("我先查一下{symbol}的最新报价。", "稍等，我看一下实时行情。"),
        },
        "travel": {
            "subject": ("从{origin}去{dest}的行程", "{date}前后去{dest}的航班"),
            "prompts": (
                "帮我找一下{date}从{origin}飞{dest}的航班。",
                "我有{days}天时间，预算{budget}美元左右，从{origin}去{dest}可行吗？",
                "{date}前后从{origin}到{dest}，最便宜的走法是什么？",
            ),
            "json_prompt": (
                "请规划一个{days}天的{dest}行程，以 JSON 返回 destination、days、budget_usd 和 "
                "highlights 字段。",
            ),
            "answer": (
                "{date}从{origin}到{dest}，最合适的是一班约{fare}美元的直飞航班。",
                "只要尽早订机票，{budget}美元的预算足够在{dest}玩{days}天。",
                "这条航线在出发前两周左右票价通常会上涨。",
                "周中出发一般比周五或周日便宜。",
                "建议把预算的三分之一留给住宿，其余用于餐饮和当地交通。",
                "另外确认一下入境是否要求护照有效期在六个月以上。",
            ),
            "reasoning": (
                "行程是{date}前后从{origin}去{dest}。",
                "票价约{fare}美元，预算{budget}美元的话住宿费也够。",
                "等一下，{days}天比较短，不要安排太多周边游。",
                "建议提前订票、选择周中出发。",
            ),
            "preamble": ("我先搜一下{origin}到{dest}的航班。", "让我查一下{date}的票价。"),
        },
        "cooking": {
            "subject": ("{dish}的做法", "{minutes}分钟内做{dish}"),
            "prompts": (
                "{servings}个人吃的{dish}怎么做？",
                "我只有{minutes}分钟左右，还来得及做{dish}吗？",
                "{dish}怎么做才不会没味道？",
            ),
            "json_prompt": (
                "请以 JSON 给出{dish}的菜谱概要，包含 dish、servings、minutes 和 ingredients 字段。",
            ),
            "answer": (
                "做{servings}人份的{dish}，从备料到出锅大约需要{minutes}分钟。",
                "开火前把食材都准备好，{minutes}分钟内完全可以做出{dish}。",
                "先下{ing1}和{ing2}，中火慢慢炒出香味。",
                "调味分几次进行，每加一次尝一下，不要全留到最后。",
                "如果要用烤箱，提前预热到{oven}°C。",
                "剩菜放进密封盒冷藏，可以保存两到三天。",
            ),
            "reasoning": (
                "要做{servings}人份的{dish}。",
                "总时间{minutes}分钟左右比较合理。",
                "主要食材是{ing1}和{ing2}。",
                "嗯，烤箱温度只有烘烤类菜才需要。",
                "先说时间，再补充几个小技巧。",
            ),
            "preamble": ("我先找一个靠谱的{dish}菜谱。", "让我查一下做法。"),
        },
        "hr": {
            "subject": ("{name}的假期余额", "{name}请{leave}天假的事"),
            "prompts": (
                "{dept}的{name}今年还剩几天年假？",
                "能帮我查一下工号{emp_id}的员工是否符合育儿假条件吗？",
                "{name}下个月想请{leave}天假，可以吗？",
            ),
            "json_prompt": (
                "请查询工号{emp_id}的假期余额，以 JSON 返回 employee_id、leave_days 和 approved 字段。",
            ),
            "answer": (
                "{name}（{emp_id}）今年还剩{remaining}天带薪年假。",
                "{dept}的{emp_id}号员工目前可用年假为{remaining}天。",
                "申请{leave}天在余额范围内，只需直属经理审批。",
                "超过五个工作日的假期需要至少提前{weeks}周提交。",
                "未用完的年假最多可结转五天到明年第一季度。",
                "育儿假单独计算，不占用年假余额。",
            ),
            "reasoning": (
                "问的是{name}（工号{emp_id}）的假期余额。",
                "记录显示还剩{remaining}天。",
                "申请的{leave}天比余额少，没问题。",
                "还要提一下提前{weeks}周申请的规定。",
                "注意不要透露假期余额以外的个人信息。",
            ),
            "preamble": ("我先查一下{name}的人事记录。", "让我在人事系统里查一下。"),
        },
        "math": {
            "subject": ("{m}x + {c} = {rhs}的解法", "方程{m}x + {c} = {rhs}"),
            "prompts": (
                "解方程：{m}x + {c} = {rhs}。",
                "能讲一下{m}x + {c} = {rhs}怎么解吗？",
                "孩子的作业题：{m}x + {c} = {rhs}，x等于多少？",
            ),
            "json_prompt": ("解方程{m}x + {c} = {rhs}，以 JSON 返回 answer 和 explanation 字段。",),
            "answer": (
                "x = {x}。",
                "答案是 x = {x}。",
                "两边同时减去{c}，得到{m}x = {mx}。",
                "再两边同时除以{m}，得到 x = {x}。",
                "验算：{m} × {x} + {c} = {rhs}，成立。",
            ),
            "reasoning": (
                "方程是{m}x + {c} = {rhs}。",
                "两边减{c}，得{m}x = {mx}。",
                "除以{m}，x = {x}。",
                "等等，验算一下：{m}乘{x}是{mx}，加{c}是{rhs}，对的。",
                "写出两步再加验算就行。",
            ),
            "preamble": ("我先算一下。", "让我核对一下数字。"),
        },
    },
}

# Short explanations used as the "explanation" field of the math JSON output.
MATH_EXPLANATIONS: dict[str, str] = {
    "en": "Subtract {c} from both sides, then divide by {m}.",
    "ko": "양변에서 {c}만큼 빼고, 양변을 x의 계수로 나누어 x를 구합니다.",
    "zh": "两边减去{c}，再除以{m}。",
}

# Reasoning pushed into the first string field of a structured answer (thinking on with a
# grammar that masked the thinking block), or a validation error echoed after a retry.
FIELD_REASONING: dict[str, tuple[str, ...]] = {
    "en": (
        "I need to figure out which value fits here. The request is short, so I should pick the most common option.",
        "Let me think step by step. First I check what the user asked, then I fill in the value they expect.",
        "Hmm, the question is ambiguous. I think the right value is the first one the user mentioned.",
        "The previous response failed validation, so this is the corrected value.",
    ),
    "ko": (
        "먼저 어떤 값을 넣어야 할지 정해야 한다. 요청이 짧으니 가장 흔한 값을 골라야겠다.",
        "생각해보면 사용자가 묻는 것은 하나다. 그 값을 그대로 쓰면 되겠다.",
        "음, 질문이 모호하다. 사용자가 처음 말한 값이 맞을 것 같다.",
        "이전 출력이 스키마 검증에 실패했다. 수정한 값을 다시 쓴다.",
    ),
    "zh": (
        "我需要先确定这个字段填什么。请求很简短，所以应该选最常见的值。",
        "让我想想，用户问的只有一件事，直接填那个值就行。",
        "嗯，这个问题有点模糊。我觉得应该用用户最先提到的值。",
        "上一次输出未通过 schema 校验，下面是修正后的值。",
    ),
}

# In-schema chain of thought (a route schema with leading reasoning slots): the slots'
# contents. Reasoning on purpose, never a leak where the schema reserves the slot.
COT_GOALS: dict[str, tuple[str, ...]] = {
    "en": (
        "The user wants the tenants whose rent for last month is unpaid.",
        "Find the lease that expires next month for the named tenant.",
        "The tenant reports a leak; a repair visit is needed today.",
    ),
    "ko": (
        "사용자는 지난달 임대료가 미납된 임차인을 확인하려 한다",
        "지목한 임차인의 다음 달 만료 계약을 찾는다",
        "임차인이 누수를 신고했으니 오늘 수리 방문이 필요하다",
    ),
    "zh": (
        "用户想查看上个月未交租金的租客",
        "找到指定租客下个月到期的租约",
        "租客报告漏水，今天需要安排维修",
    ),
}
COT_EVIDENCE: dict[str, tuple[str, ...]] = {
    "en": (
        "screen: payments overview",
        "'last month' is the previous calendar month",
        "the user said 'show'",
    ),
    "ko": ("현재 화면: 수납 현황", "'지난달'은 직전 월 전체", "사용자가 '보여줘'라고 했다"),
    "zh": ("当前页面：收款情况", "“上个月”指上一个自然月", "用户说的是“看看”"),
}
