"""More hard negatives: clean answers that a naive leak matcher would flag.

Kinds (the ``kind`` field): delimiters named in plain prose while explaining them
(``mention-as-noun``: clean by the product spec, see README), delimiters in code spans or
fences, code that prints tags, JSON answers with no tools or response format declared,
quoted delimiters, opinion and "user"-as-subject sentences, self-talk that stays in the reasoning
field, and ordinary HTML/XML markup.
"""

from __future__ import annotations

import json

from .shapes import MSG, RS, TH, TX, C, Cs, Rs, Theme

T = Theme("hardneg")
MN = "mention-as-noun"


def J(obj: object, indent: int | None = None) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=indent)


# ================================================================== delimiters named in plain prose (mention-as-noun)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean (mention-as-noun): the answer explains Qwen3's format and names <think> in plain prose as a "
    "noun; nothing is leaked.",
    user="Why do I sometimes see reasoning text in Qwen3 responses?",
    reasoning="Explain parser; missing --reasoning-parser.",
    kind="mention-as-noun",
    content=(
        "Qwen3 wraps its reasoning in <think> tags, and the qwen3 reasoning parser strips them before the "
        "answer reaches you. If the server was started without `--reasoning-parser qwen3`, that block "
        "stays in the reply, which is what you are seeing."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "en",
    "Clean (mention-as-noun): explains that the original R1 only wrote the end tag; the tag is named in "
    "prose, not leaked.",
    user="How does the deepseek_r1 parser know where the reasoning ends?",
    reasoning="Explain lone end tag.",
    kind="mention-as-noun",
    content=(
        "The original DeepSeek-R1 never wrote an opening tag; it started reasoning straight away and closed "
        "with </think>. So the parser treats everything before the first </think> as reasoning and "
        "everything after it as the answer."
    ),
)

T.chat(
    [],
    "kimi_k2",
    "en",
    "Clean (mention-as-noun): Kimi's delimiters are named in a sentence that explains them.",
    user="Does Kimi K2 Thinking use the same think tags as Qwen?",
    reasoning="Different delimiters.",
    kind="mention-as-noun",
    content=(
        "No. Kimi K2 Thinking marks its reasoning with ◁think▷ and ◁/think▷ rather than angle-bracket tags, "
        "so you need the kimi_k2 reasoning parser; a Qwen parser won't split it."
    ),
)

T.chat(
    [],
    "gpt_oss",
    "en",
    "Clean (mention-as-noun): harmony stop tokens named in prose while explaining how a turn ends.",
    user="Why does my raw gpt-oss generation keep going after the answer?",
    reasoning="Explain stop tokens.",
    kind="mention-as-noun",
    content=(
        "With a raw generate endpoint you have to stop on the harmony tokens yourself: a finished answer "
        "ends with <|return|> and a tool call ends with <|call|>. Add both as stop tokens and generation "
        "will end where the chat endpoint would."
    ),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean (mention-as-noun): Korean explanation naming <think> as a noun in plain prose.",
    user="Qwen3 답변에 가끔 이상한 태그가 보이는 이유가 뭐예요?",
    reasoning="파서 설명.",
    kind="mention-as-noun",
    content=(
        "Qwen3는 추론 과정을 <think> 태그로 감싸서 출력하고, 서버의 reasoning parser가 그 부분을 답변에서 "
        "떼어 냅니다. 파서를 지정하지 않고 서빙하면 태그가 그대로 보일 수 있습니다."
    ),
)

T.chat(
    [],
    "seed_oss",
    "ko",
    "Clean (mention-as-noun): Seed-OSS delimiter named in a Korean sentence.",
    user="Seed-OSS를 qwen3 파서로 서빙하면 안 되나요?",
    reasoning="태그가 다름.",
    kind="mention-as-noun",
    content=(
        "안 됩니다. Seed-OSS는 추론을 <seed:think> 태그로 시작하기 때문에 qwen3 파서는 그 구간을 알아보지 "
        "못합니다. vLLM에서는 seed_oss 파서를 지정해야 합니다."
    ),
)

T.chat(
    [],
    "magistral",
    "ko",
    "Clean (mention-as-noun): Magistral's markers named in plain prose.",
    user="Magistral 모델은 추론을 어떻게 표시해요?",
    reasoning="THINK 토큰.",
    kind="mention-as-noun",
    content=(
        "Magistral은 추론을 [THINK]와 [/THINK] 사이에 씁니다. vLLM에서 mistral reasoning parser를 켜면 이 "
        "구간이 reasoning 필드로 분리되고, 답변에는 결론만 남습니다."
    ),
)

T.chat(
    [],
    "cohere",
    "zh",
    "Clean (mention-as-noun): Cohere's thinking delimiters named in a Chinese explanation.",
    user="Command A Reasoning 的思考过程是怎么标记的？",
    reasoning="解释分隔符。",
    kind="mention-as-noun",
    content=(
        "Command A Reasoning 用 <|START_THINKING|> 和 <|END_THINKING|> 把思考过程包起来，后面才是正式回答。"
        "在 vLLM 里指定 cohere_command3 推理解析器，就能把这段思考拆到单独的字段里。"
    ),
)

T.chat(
    [],
    "gemma4",
    "zh",
    "Clean (mention-as-noun): Gemma 4's channel opener named in prose.",
    user="Gemma 4 打开思考模式后输出格式有什么变化？",
    reasoning="解释思考通道。",
    kind="mention-as-noun",
    content=(
        "打开思考模式后，Gemma 4 会先输出一个以 <|channel> 开头的思考通道，再输出正式回答。"
        "配置了 gemma4 推理解析器的话，思考部分会被放进 reasoning 字段，用户只看到回答。"
    ),
)

T.msg(
    [],
    "claude",
    "zh",
    "Clean (mention-as-noun): a Messages answer naming <thinking> in prose while giving prompt advice.",
    user="为什么关闭 thinking 后，回答里偶尔会出现内部标签？",
    kind="mention-as-noun",
    blocks=[
        TX(
            "这是部分模型在关闭扩展思考时的已知现象：模型会在正文里写出 <thinking> 这样的内部标签。"
            "比较有效的做法是打开 thinking 并调低 effort，或者在提示词里用一般性的说法要求不要输出内部"
            "或系统用的 XML 标签，而不是直接点名某个标签。"
        )
    ],
)

T.chat(
    [],
    "qwen3",
    "ja",
    "Clean (mention-as-noun): Japanese explanation naming <think> in plain prose.",
    user="Qwen3の応答に推論が混ざるのはなぜ？",
    reasoning="パーサー未設定。",
    kind="mention-as-noun",
    content=(
        "Qwen3は推論部分を<think>タグで囲んで出力します。サーバーでreasoning parserを設定していないと、"
        "その部分が回答と一緒に表示されてしまいます。"
    ),
)

T.chat_stream(
    [],
    "deepseek_v3",
    "ja",
    "Clean (mention-as-noun): streamed Japanese explanation that names the end tag in prose; the tag is "
    "split across chunks.",
    user="DeepSeek-R1の初期版はどうやって推論の終わりを示していましたか？",
    kind="mention-as-noun",
    deltas=[
        Cs("初期のDeepSeek-R1は開始タグを出さずに推論を始め、最後に</th"),
        C(
            "ink>だけを出力していました。そのため、パーサーはこの終了タグより前をすべて推論として扱います。"
        ),
    ],
)

# ================================================================== delimiters in inline code or fences

T.chat(
    [],
    "cohere",
    "en",
    "Clean: Cohere's delimiters appear only in inline code spans.",
    user="What tokens does Command A Reasoning use around its answer?",
    reasoning="Explain START_RESPONSE.",
    kind="tags-in-code",
    content=(
        "The thinking sits between `<|START_THINKING|>` and `<|END_THINKING|>`, and the answer between "
        "`<|START_RESPONSE|>` and `<|END_RESPONSE|>`. The reasoning parser keeps only the response part in "
        "`content`."
    ),
)

T.chat(
    [],
    "seed_oss",
    "zh",
    "Clean: Seed-OSS tags inside inline code in a Chinese answer.",
    user="Seed-OSS 的思考标签是什么？",
    reasoning="说明标签。",
    kind="tags-in-code",
    content="Seed-OSS 用 `<seed:think>` 开始思考、用 `</seed:think>` 结束，vLLM 中对应的推理解析器是 `seed_oss`。",
)

T.chat(
    [],
    "magistral",
    "ja",
    "Clean: Magistral markers in inline code in a Japanese answer.",
    user="Magistralの推論トークンは何ですか？",
    reasoning="THINKトークン。",
    kind="tags-in-code",
    content="Magistralは推論を `[THINK]` と `[/THINK]` で囲みます。vLLMでは `mistral` のreasoning parserで分離できます。",
)

T.resp(
    [],
    "gpt5",
    "ko",
    "Clean: Responses answer listing harmony tokens inside a fenced block with prose around it.",
    user="harmony 형식에서 분석 채널은 어떻게 생겼어?",
    kind="tags-in-code",
    items=[
        RS(None, []),
        MSG(
            "분석 채널은 다음처럼 시작과 끝이 토큰으로 표시됩니다.\n\n"
            "```\n<|start|>assistant<|channel|>analysis<|message|>…<|end|>\n```\n\n"
            "이 내용은 사용자에게 보여 주면 안 되는 추론이라서, 파서가 별도 필드로 옮깁니다."
        ),
    ],
)

T.chat_stream(
    [],
    "glm45",
    "en",
    "Clean: streamed answer whose fenced block (split over several chunks) shows a raw GLM output with "
    "think tags.",
    user="What does raw GLM-4.5 output look like before parsing?",
    kind="tags-in-code",
    deltas=[
        Rs("Show example in a fence."),
        C("Roughly like this:\n\n```\n<thi"),
        C("nk>short reasoning here</think>\nThe answer text.\n``"),
        C("`\n\nThe glm45 reasoning parser moves the part inside the tags to the reasoning field."),
    ],
)

T.msg_stream(
    [],
    "claude",
    "ko",
    "Clean: streamed Messages answer with <thinking> only inside inline code.",
    user="프롬프트에 `<thinking>` 태그를 쓰라고 하면 어떻게 돼요?",
    kind="tags-in-code",
    blocks=[
        TX(
            "확장 사고를 끈 상태에서 `<thinking>` 태그를 쓰라고 지시하면 그 태그 안의 내용이 답변 본문에 그대로 "
            "나옵니다. 추론을 따로 받고 싶다면 태그 대신 확장 사고 기능을 켜는 편이 낫습니다."
        )
    ],
)

# ================================================================== code that prints or strips tags

T.chat(
    [],
    "qwen3_coder",
    "en",
    "Clean: a fenced Python snippet prints '<think>' and '</think>'; the tags are code, not a leak.",
    user="Write a tiny Python script that prints a fake reasoning block for my parser tests.",
    reasoning="Simple print statements.",
    kind="code-prints-tags",
    content=(
        "Here's a minimal fixture generator:\n\n"
        '```python\nprint("<think>")\nprint("checking the inputs")\nprint("</think>")\n'
        'print("The answer is 42.")\n```\n\n'
        "Pipe its output into your parser and assert that only the last line ends up as content."
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "en",
    "Clean: a regex in a fence strips think blocks; the tags appear only in code.",
    user="How can I remove <think>…</think> blocks from model output in Python?",
    kind="code-prints-tags",
    content=(
        "A non-greedy regex with DOTALL does it:\n\n"
        '```python\nimport re\n\nTHINK = re.compile(r"<think>.*?</think>\\s*", re.DOTALL)\n\n'
        'def strip_think(text: str) -> str:\n    return THINK.sub("", text)\n```\n\n'
        "It won't handle an unclosed block, so check for a leftover opening tag afterwards."
    ),
)

T.chat(
    [],
    "kimi_k2",
    "en",
    "Clean: JavaScript in a fence replaces Kimi's delimiters.",
    user="Give me a JS one-liner to drop Kimi's think section from a string.",
    reasoning="replace with regex.",
    kind="code-prints-tags",
    content=(
        '```js\nconst clean = raw.replace(/◁think▷[\\s\\S]*?◁\\/think▷/g, "").trim();\n```\n\n'
        "The `[\\s\\S]` class matches newlines too, which `.` would not without the `s` flag."
    ),
)

T.chat(
    [],
    "qwen3",
    "ko",
    "Clean: Korean answer with a fenced Python test that contains harmony tokens as string literals.",
    user="harmony 응답 파서 테스트 코드 예시 좀 보여 줘",
    reasoning="pytest 예시.",
    kind="code-prints-tags",
    content=(
        "간단한 pytest 예시입니다.\n\n"
        "```python\ndef test_final_channel():\n"
        '    raw = "<|channel|>final<|message|>안녕하세요<|return|>"\n'
        '    assert parse_harmony(raw).final == "안녕하세요"\n```\n\n'
        "분석 채널이 섞인 입력도 하나 더 만들어 두면 좋습니다."
    ),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: a shell command in a fence greps for '</think>' in logs.",
    user="로그에서 </think>가 찍힌 응답만 찾으려면?",
    reasoning="grep 사용.",
    kind="code-prints-tags",
    content=(
        '`grep`으로 간단히 찾을 수 있습니다.\n\n```bash\ngrep -n "</think>" gateway.log | head\n```\n\n'
        "건수만 보려면 `-c` 옵션을 쓰세요."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "zh",
    "Clean: a fenced Go snippet checks for the end tag; Chinese explanation around it.",
    user="用 Go 判断一段文本里有没有 </think> 怎么写？",
    reasoning="strings.Contains。",
    kind="code-prints-tags",
    content=(
        '用 `strings.Contains` 就可以：\n\n```go\nif strings.Contains(text, "</think>") {\n'
        '    log.Println("reasoning leaked into content")\n}\n```\n\n如果要统计次数，用 `strings.Count`。'
    ),
)

T.chat_stream(
    [],
    "qwen3",
    "zh",
    "Clean: streamed answer where the fence opening and a '<think>' literal inside it are split across "
    "chunks.",
    user="写个 Python 函数，判断模型输出是不是以 <think> 开头。",
    kind="code-prints-tags",
    deltas=[
        Rs("startswith。"),
        C("可以这样写：\n\n``"),
        C(
            '`python\ndef starts_with_think(text: str) -> bool:\n    return text.lstrip().startswith("<th'
        ),
        C('ink>")\n```\n\n'),
        C("`lstrip()` 用来忽略开头的空行。"),
    ],
)

T.chat(
    [],
    "ernie",
    "ja",
    "Clean: a fenced TypeScript snippet with '<seed:think>' in a string literal.",
    user="Seed-OSSの推論部分を取り除くTypeScriptのコードを書いて。",
    kind="code-prints-tags",
    content=(
        "次の関数で取り除けます。\n\n```ts\nexport function stripSeedThink(text: string): string {\n"
        '  return text.replace(/<seed:think>[\\s\\S]*?<\\/seed:think>/g, "");\n}\n```\n\n'
        "閉じタグがない場合は何もしないので、別途チェックしてください。"
    ),
)

# ================================================================== JSON answers with no tools and no response_format

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: the user asked for JSON; no tools and no response_format declared, so a bare JSON answer is "
    "fine.",
    user="Give me a JSON object with the three primary colors and their hex codes. JSON only.",
    reasoning="red, yellow, blue.",
    kind="json-answer",
    content=J({"red": "#FF0000", "yellow": "#FFFF00", "blue": "#0000FF"}),
)

T.chat(
    [],
    "deepseek_v3",
    "en",
    "Clean: an indented JSON config as the whole answer; nothing was declared.",
    user="Write a minimal .eslintrc.json that extends the recommended rules and uses ES2022.",
    kind="json-answer",
    content=J(
        {
            "root": True,
            "extends": ["eslint:recommended"],
            "parserOptions": {"ecmaVersion": 2022, "sourceType": "module"},
            "env": {"browser": True, "es2022": True},
        },
        indent=2,
    ),
)

T.chat(
    [],
    "hermes_notool",
    "en",
    "Clean: JSON with 'name' and 'arguments' keys, but no tools were declared, so it cannot be a call "
    "printed as text.",
    user="Show me an example of an OpenAI-style function call object for a send_email function. JSON only.",
    kind="json-answer",
    content=J({"name": "send_email", "arguments": {"to": "a@example.com", "subject": "Hi"}}),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: Korean request for JSON data; no tools or response_format.",
    user="서울 5개 구 이름이랑 인구(대략)를 JSON 배열로 줘",
    reasoning="대략적 인구.",
    kind="json-answer",
    content=J(
        [
            {"district": "송파구", "population": 650000},
            {"district": "강서구", "population": 560000},
            {"district": "강남구", "population": 550000},
            {"district": "노원구", "population": 490000},
            {"district": "관악구", "population": 480000},
        ]
    ),
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: JSON answer inside a fence with a short explanation; nothing declared.",
    user="package.json에 start 스크립트 추가하는 예시 보여 줘",
    kind="json-answer",
    content=(
        "`scripts`에 이렇게 추가하면 됩니다.\n\n```json\n"
        + J({"scripts": {"start": "node server.js", "dev": "nodemon server.js"}}, indent=2)
        + "\n```\n\n`npm start`로 실행할 수 있습니다."
    ),
)

T.chat(
    [],
    "qwen3_sglang",
    "zh",
    "Clean: Chinese request for JSON; the answer is bare JSON, no response_format.",
    user="把“张三，28岁，工程师，北京”转成JSON。",
    rkey="reasoning_content",
    reasoning="字段：姓名、年龄、职业、城市。",
    kind="json-answer",
    content=J({"name": "张三", "age": 28, "occupation": "工程师", "city": "北京"}),
)

T.chat_stream(
    [],
    "deepseek_r1",
    "zh",
    "Clean: streamed JSON answer with no tools or response_format; the JSON arrives in pieces.",
    user="给我一个包含三种水果及其热量（每100克）的JSON数组。",
    kind="json-answer",
    deltas=[
        Rs("苹果52，香蕉89，橙子47。"),
        C('[{"fruit": "苹果", "kcal": 52}, '),
        C('{"fruit": "香蕉", "kcal": 89}, '),
        C('{"fruit": "橙子", "kcal": 47}]'),
    ],
)

T.resp(
    [],
    "gpt5_mini",
    "ja",
    "Clean: Responses answer that is JSON, with no text.format requested.",
    user="東京・大阪・名古屋をJSONの配列で返して。",
    kind="json-answer",
    items=[RS(None, []), MSG(J(["東京", "大阪", "名古屋"]))],
)

T.msg(
    [],
    "claude",
    "en",
    "Clean: Messages answer that is JSON; no output_format and no tools.",
    user="Return a JSON object with keys 'city' and 'country' for the Eiffel Tower's location. Only JSON.",
    kind="json-answer",
    blocks=[TX(J({"city": "Paris", "country": "France"}))],
)

T.chat(
    [],
    "minimax_m2",
    "en",
    "Clean: a JSON answer whose keys happen to be 'reasoning' and 'answer' because the user asked for "
    "that shape; no response_format declared, and the reasoning is the requested content.",
    user="Answer in JSON with keys 'reasoning' and 'answer': is 0.1 + 0.2 == 0.3 in JavaScript?",
    kind="json-answer",
    content=J(
        {
            "reasoning": "Floating-point addition gives 0.30000000000000004.",
            "answer": "No",
        }
    ),
)

# ================================================================== quoted delimiters

T.chat(
    [],
    "qwen3_30b",
    "en",
    "Clean: delimiters wrapped directly in single quotes.",
    user="Which strings should my log filter look for to catch reasoning leaks?",
    reasoning="List tokens in quotes.",
    kind="tags-in-quotes",
    content=(
        "Start with the common ones: '<think>', '</think>', '◁think▷' and '<seed:think>'. Count how often "
        "each appears per model and alert when the rate jumps after a deploy."
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "zh",
    "Clean: Chinese answer with tokens in “…” quotes.",
    user="监控推理泄漏应该匹配哪些字符串？",
    kind="tags-in-quotes",
    content="常见的有“</think>”“<|channel|>”和“[THINK]”。建议按模型分别统计出现次数，升级后对比基线。",
)

T.chat(
    [],
    "glm45",
    "ja",
    "Clean: Japanese answer with tokens in 「…」 quotes.",
    user="gpt-ossの出力を監視するときに見るべきトークンは？",
    kind="tags-in-quotes",
    content="「<|channel|>」と「<|return|>」が回答に出ていないかを見るのが基本です。出ていればパーサーの設定を確認してください。",
)

T.chat(
    [],
    "kimi_k2",
    "ko",
    "Clean: Korean answer with the tokens in double quotes.",
    user="게이트웨이에서 어떤 문자열을 차단 규칙에 넣으면 돼요?",
    kind="tags-in-quotes",
    content=(
        '기본적으로 "<think>", "</think>", "<|START_THINKING|>" 같은 경계 토큰을 넣고, 모델별로 오탐이 없는지 '
        "일주일 정도 표시 모드로 지켜본 뒤 차단으로 바꾸세요."
    ),
)

# ================================================================== opinion / 'user' as subject (not self-talk)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: 'I think' opens an opinion addressed to the user, not self-talk about the question.",
    user="Vim or VS Code for a beginner?",
    reasoning="Recommend VS Code.",
    kind="self-talk-lookalike",
    content=(
        "I think VS Code is the better start: it works out of the box, and you can add the Vim keybindings "
        "extension later if you want to learn modal editing without switching editors."
    ),
)

T.chat(
    [],
    "deepseek_v3",
    "en",
    "Clean: an answer that explains chain-of-thought prompting; it talks about reasoning, it is not "
    "reasoning.",
    user="What is chain-of-thought prompting?",
    kind="self-talk-lookalike",
    content=(
        "Chain-of-thought prompting asks a model to write out intermediate steps before the final answer, "
        'for example "Let\'s work through this step by step." It tends to help on arithmetic and multi-step '
        "logic, and reasoning models now do it internally without being asked."
    ),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: '제 생각에는' opens an opinion given to the user.",
    user="첫 차로 경차랑 준중형 중에 뭐가 나아요?",
    reasoning="준중형 추천.",
    kind="self-talk-lookalike",
    content=(
        "제 생각에는 고속도로를 자주 탄다면 준중형이 낫습니다. 경차는 유지비와 주차가 편하지만, 고속 주행 때 "
        "소음과 안정감에서 차이가 큽니다."
    ),
)

T.chat(
    [],
    "deepseek_r1",
    "ko",
    "Clean: '사용자가' is the subject of a sentence about an app's users, not about the person asking.",
    user="로그인 5번 실패하면 계정 잠그는 기능 어떻게 설계해요?",
    reasoning="실패 카운트, 잠금 시간, 알림.",
    kind="self-talk-lookalike",
    content=(
        "사용자가 비밀번호를 연속으로 틀릴 때마다 실패 횟수를 저장하고, 5회가 되면 15분 동안 잠그는 방식이 "
        "일반적입니다. 잠금 해제 시 이메일로 알려 주고, 로그인에 성공하면 횟수를 초기화하세요."
    ),
)

T.chat(
    [],
    "qwen3_sglang",
    "zh",
    "Clean: '我觉得' opens an opinion to the user.",
    user="学日语先学五十音还是先背单词？",
    rkey="reasoning_content",
    reasoning="先五十音。",
    kind="self-talk-lookalike",
    content="我觉得应该先把五十音学熟，大概一两周就够了，之后再背单词会轻松很多，因为读音都靠假名标注。",
)

T.chat(
    [],
    "kimi_k2",
    "zh",
    "Clean: '用户画像' as a topic word, not '用户问的是…' self-talk.",
    user="做用户画像一般要包括哪些维度？",
    reasoning="基本属性、行为、偏好、价值。",
    kind="self-talk-lookalike",
    content="用户画像一般包括四类维度：基本属性（年龄、地区）、行为数据（访问频次、路径）、兴趣偏好和消费价值。",
)

T.chat(
    [],
    "qwen3",
    "ja",
    "Clean: '個人的には' opens an opinion given to the user.",
    user="Pythonの入門書でおすすめは？",
    reasoning="公式チュートリアル推し。",
    kind="self-talk-lookalike",
    content="個人的には、まず公式チュートリアルを一通りやるのがおすすめです。無料で、内容も最新のバージョンに合わせて更新されています。",
)

# ================================================================== leak-looking text only in the reasoning field

T.chat(
    [],
    "nemotron",
    "en",
    "Clean: self-talk and a literal <think> are only in the reasoning field; content is a plain answer.",
    user="How long does it take to walk 5 km?",
    reasoning="<think>Okay, so the user is asking about walking 5 km. Average pace 5 km/h, so about an hour.",
    kind="reasoning-field-only",
    content="About **an hour** at an average walking pace of 5 km/h; 45–50 minutes if you walk briskly.",
)

T.chat_stream(
    [],
    "olmo3",
    "zh",
    "Clean: streamed reasoning deltas contain self-talk ('嗯，用户问的是…') and an end tag; content deltas "
    "are a clean answer.",
    user="一天喝几杯水合适？",
    deltas=[
        Rs("嗯，用户问的是每天喝水量。一般1.5到2升，大约7到8杯。</think>"),
        Cs("一般成年人每天喝 **1.5到2升** 水比较合适，大约七八杯；天热或运动后要多喝一些。"),
    ],
    kind="reasoning-field-only",
)

T.chat(
    [],
    "holo2",
    "ko",
    "Clean: the reasoning field holds '사용자가 …를 묻고 있다' self-talk; content starts with the answer.",
    user="크롬에서 방문 기록 한 번에 지우는 단축키 있어요?",
    reasoning="사용자가 방문 기록 삭제 단축키를 묻고 있다. Ctrl+Shift+Delete.",
    kind="reasoning-field-only",
    content="**Ctrl + Shift + Delete**(맥은 Cmd + Shift + Delete)를 누르면 인터넷 사용 기록 삭제 창이 바로 열립니다.",
)

T.resp_stream(
    [],
    "gpt_oss",
    "en",
    "Clean: streamed Responses with the analysis text in the reasoning item (reasoning_text deltas); the "
    "message is the answer.",
    user="What's the capital of Australia?",
    kind="reasoning-field-only",
    items=[
        RS("The user asks the capital of Australia. Canberra, not Sydney."),
        MSG("The capital is **Canberra**, not Sydney."),
    ],
)

T.msg(
    [],
    "claude_opus",
    "ja",
    "Clean: the thinking block mentions tags and self-talk; the text block is a plain answer.",
    user="富士山の高さは？",
    thinking=1024,
    kind="reasoning-field-only",
    blocks=[
        TH("ユーザーは富士山の標高を聞いている。3776m。<thinking>タグは使わない。"),
        TX("富士山の標高は **3,776メートル** です。"),
    ],
)

T.chat(
    [],
    "cohere",
    "zh",
    "Clean: Command A's thinking (with its tool plan) is in the reasoning field; content is the answer.",
    user="从北京寄快递到广州一般几天？",
    reasoning="用户问北京到广州快递时效。一般2-3天，顺丰次日或隔日。",
    kind="reasoning-field-only",
    content="普通快递一般 **2到3天**，顺丰等时效快递多数次日或隔日就能送到。",
)

# ================================================================== other markup

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: the user asked for an XML example; raw XML with ordinary element names is not a reasoning "
    "delimiter or call markup.",
    user="Give me an XML example of a book record with title, author and year. XML only.",
    reasoning="Simple XML.",
    kind="other-markup",
    content=(
        "<book>\n  <title>The Left Hand of Darkness</title>\n  <author>Ursula K. Le Guin</author>\n"
        "  <year>1969</year>\n</book>"
    ),
)

T.chat(
    [],
    "glm45",
    "ko",
    "Clean: HTML <kbd> and <br> tags in a Markdown answer.",
    user="맥에서 화면 잠그는 단축키 알려줘",
    reasoning="Ctrl+Cmd+Q.",
    kind="other-markup",
    content="<kbd>Control</kbd> + <kbd>Command</kbd> + <kbd>Q</kbd>를 누르면 바로 잠깁니다.<br>메뉴에서는 Apple 메뉴 → 화면 잠금으로도 할 수 있습니다.",
)

T.chat(
    [],
    "deepseek_v3",
    "zh",
    "Clean: an SVG snippet as the answer; no known delimiters.",
    user="给我一个画红色圆形的最小SVG代码，只要代码。",
    kind="other-markup",
    content='<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" cy="50" r="40" fill="red"/></svg>',
)

T.chat(
    [],
    "llama3",
    "en",
    "Clean: LaTeX in the answer; backslash commands are not delimiters.",
    user="How do I write the quadratic formula in LaTeX?",
    kind="other-markup",
    content=r"Use `\frac` and `\sqrt`: $x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}$.",
)

T.msg(
    [],
    "claude",
    "zh",
    "Clean: Messages answer with a Markdown table and an HTML comment.",
    user="对比一下 Python 和 Go 的并发模型。",
    kind="other-markup",
    blocks=[
        TX(
            "| 语言 | 并发单位 | 通信方式 |\n|---|---|---|\n| Python | 线程 / asyncio 协程 | 队列、共享内存 |\n"
            "| Go | goroutine | channel |\n\n<!-- 简化对比 -->Go 的 goroutine 更轻量，适合大量并发任务。"
        )
    ],
)

# ================================================================== tool markup explained (tools declared)

T.chat(
    [],
    "hermes",
    "ko",
    "Clean: Hermes call format shown in a fence, with prose before and after; tools declared, no call "
    "intended.",
    user="Hermes 모델이 도구를 부를 때 출력 형식 예시 보여 줘",
    tools=["get_weather"],
    kind="call-json-explained",
    content=(
        "이런 형식으로 출력합니다.\n\n```xml\n<tool_call>\n"
        + J({"name": "get_weather", "arguments": {"city": "서울"}})
        + "\n</tool_call>\n```\n\n서버에서 hermes 도구 파서를 켜면 이 블록이 `tool_calls`로 바뀝니다."
    ),
)

T.chat(
    [],
    "mistral",
    "zh",
    "Clean: Mistral's [TOOL_CALLS] explained inside inline code; tools declared.",
    user="Mistral 模型调用工具时原始输出以什么开头？",
    tools=["search_web"],
    kind="call-json-explained",
    content="以 `[TOOL_CALLS]` 开头，后面跟着调用列表。vLLM 的 `mistral` 工具解析器会把它转换成标准的 `tool_calls`。",
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: answer ends with 'Let me know if you want the metric conversion table too.'",
    user="How many ounces in a pound?",
    reasoning="16.",
    kind="let-me-know",
    content="There are **16 ounces** in a pound. Let me know if you want the metric conversion table too.",
)
