"""The generic layer (issue 14): zero-day leaks from families with no row, and hard negatives.

Positives come from invented models (profiles ``zeroday`` / ``zeroday_gw``) whose special
tokens and call markup are in no family table: the leak must be seen from the token's
shape alone. Hard negatives are answers that *contain* such shapes legitimately:
documentation about tokens, code that prints tags, JSON and XML/HTML answers, and
transcripts the user pasted. Labels follow LABELS.md (no declared tools are needed for
framed call markup; bare JSON without declared tools is an answer).
"""

from __future__ import annotations

from .shapes import RF_JSON_OBJECT, Cs, Theme

T = Theme("generic")
B, L, X = "boundary_token", "reasoning_leak", "tool_call_as_text"

# ------------------------------------------------------------------ zero-day positives

T.chat(
    [B],
    "zeroday",
    "en",
    "Unknown model ends its turn with reserved/added special tokens that the engine did not strip.",
    user="What is the boiling point of water at sea level?",
    content="Water boils at 100 °C (212 °F) at sea level.<|reserved_special_token_5|> and "
    "<|foo_bar|> then </s>",
)

T.chat(
    [B],
    "zeroday",
    "ko",
    "Unknown model: its end-of-turn token, spelled with fullwidth bars, is left in the answer.",
    user="서울에서 부산까지 KTX로 얼마나 걸려요?",
    content="KTX로 서울역에서 부산역까지 보통 2시간 30분 안팎 걸립니다.<｜end▁of▁reply｜>",
)

T.chat(
    [B],
    "zeroday_gw",
    "zh",
    "Unknown model behind a gateway: a turn-separator token and the next turn header leak.",
    user="杭州西湖最好的游览季节是什么时候？",
    content="春季三四月和秋季九十月最舒服，春天看桃柳，秋天赏桂花。<|turn_sep|><|speaker_user|>",
)

T.chat(
    [B, L],
    "zeroday",
    "en",
    "Unknown reasoning model without a reasoning parser: thought delimiters and the thought itself "
    "are visible before the answer.",
    user="Is 221 a prime number?",
    content="<|begin_of_thought|>221 = 13 × 17, so it has divisors other than 1 and itself. Not prime."
    "<|end_of_thought|>No. 221 = 13 × 17, so it is not prime.",
    reasoning_form="tagged",
)

T.chat(
    [B, L],
    "zeroday_gw",
    "ko",
    "Unknown reasoning model with namespaced think tags (no family row): the reasoning shows.",
    user="3월 1일이 수요일이면 3월 31일은 무슨 요일이에요?",
    content="<orbit:think>3월 1일이 수요일이고 30일 뒤다. 30을 7로 나누면 나머지 2, 수요일에서 이틀 뒤는 "
    "금요일.</orbit:think>3월 31일은 금요일입니다.",
    reasoning_form="tagged",
)

T.chat(
    [B, L],
    "zeroday",
    "zh",
    "Unknown reasoning model: START/END thinking tokens in its own spelling around visible reasoning.",
    user="一斤等于多少克？",
    content="<|START_OF_REASONING|>用户问市制单位，一斤是500克。<|END_OF_REASONING|>一斤等于500克。",
    reasoning_form="tagged",
)

T.chat_stream(
    [B, L],
    "zeroday",
    "en",
    "Streamed unknown reasoning model: the thought delimiters are split across content chunks.",
    user="How many minutes are in a week?",
    deltas=Cs(
        "<|begin_of_thought|>7 days × 24 hours × 60 minutes = 10080.<|end_of_thought|>There are "
        "10,080 minutes in a week.",
        salt=2,
    ),
    reasoning_form="tagged",
)

T.chat(
    [X],
    "zeroday",
    "en",
    "Unknown model writes its call in a special-token section; the gateway dropped the request's tools.",
    user="What's the weather in Lyon right now?",
    content='<|tool_call_start|>{"name": "get_weather", "arguments": {"city": "Lyon"}}<|tool_call_end|>',
)

T.chat(
    [X],
    "zeroday_gw",
    "ko",
    "Unknown model: an XML-ish function_call element with a name and arguments, no tools declared.",
    user="도쿄 날씨 알려줘.",
    content='날씨를 조회합니다.\n<function_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}'
    "</function_call>",
)

T.chat(
    [X],
    "zeroday",
    "zh",
    "Unknown model prints an invoke element with parameters instead of a structured call.",
    user="帮我查一下深圳的天气。",
    tools=["get_weather"],
    content='<invoke name="get_weather"><parameter name="city">深圳</parameter></invoke>',
)

T.chat(
    [X],
    "zeroday",
    "en",
    "Unknown model's tool_use block with name and arguments children, tools declared.",
    user="Find flights from ICN to NRT on May 3.",
    tools=["search_flights"],
    content='<tool_use>\n<name>search_flights</name>\n<arguments>{"origin": "ICN", '
    '"destination": "NRT", "date": "2026-05-03"}</arguments>\n</tool_use>',
)

T.chat_stream(
    [X],
    "zeroday_gw",
    "ko",
    "Streamed unknown model: the call-section token is split across two chunks.",
    user="부산 날씨는?",
    deltas=Cs('<|tool_call_start|>{"name": "get_weather", "arguments": {"city": "Busan"}}', salt=1),
)

T.chat(
    [X],
    "zeroday",
    "zh",
    "Declared tools, unknown model: a call object in OpenAI wire style after a sentence of prose.",
    user="现在美元兑人民币是多少？",
    tools=["convert_currency"],
    content='我来换算：{"function": {"name": "convert_currency", "arguments": "{\\"amount\\": 1, '
    '\\"from\\": \\"USD\\", \\"to\\": \\"CNY\\"}"}}',
)

# ------------------------------------------------------------------ hard negatives: docs about tokens

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: explains end-of-sequence tokens; the </s> named as a token is prose about markup.",
    kind="other-markup",
    user="What does </s> mean in T5 outputs?",
    content="In T5 and other SentencePiece models, the end-of-sequence marker is a special token that "
    "tells the decoder to stop. You see it in raw generations because decoding kept special tokens; "
    "pass skip_special_tokens=True when you decode and it disappears.",
)

T.chat(
    [],
    "gpt5",
    "en",
    "Clean: documentation answer naming an unknown model's turn token as a token.",
    kind="other-markup",
    user="How do I stop my fine-tune from running on past the answer?",
    content="Add the <|end_of_answer|> token to the stop list and make sure the tokenizer registers it "
    "as a special token; otherwise the model never learns where a turn ends.",
)

T.chat(
    [],
    "gpt5_mini",
    "ko",
    "Clean: Korean explanation of a turn token, named with the noun '토큰'.",
    kind="other-markup",
    user="Gemma 채팅 템플릿에서 턴은 어떻게 구분하나요?",
    content="Gemma 템플릿은 각 턴을 <start_of_turn> 토큰으로 열고 <end_of_turn> 토큰으로 닫습니다. "
    "그래서 생성이 끝났는지 판단할 때 <end_of_turn> 토큰을 정지 조건으로 씁니다.",
)

T.chat(
    [],
    "gpt5",
    "zh",
    "Clean: Chinese explanation of Llama-2 chat markup, every tag inside inline code.",
    kind="tags-in-code",
    user="Llama 2 的对话格式是什么样的？",
    content="Llama 2 把用户消息放在 `[INST]` 和 `[/INST]` 之间，系统提示写在 `<<SYS>>` 与 `<</SYS>>` "
    "里，整段以 `<s>` 开头、以 `</s>` 结尾。",
)

T.chat(
    [],
    "claude",
    "en",
    "Clean: a Python snippet in a fence prints special tokens; the prose around it names none.",
    kind="code-prints-tags",
    user="How can I see which special tokens my tokenizer adds?",
    content="Print them from the tokenizer:\n\n```python\nfor tok in tok.all_special_tokens:\n"
    "    print(tok)  # e.g. <|begin_of_thought|>, <|tool_call_start|>, </s>\n```\n\nEach line is one "
    "registered special token.",
)

T.chat(
    [],
    "gpt5",
    "ko",
    "Clean: a fenced transcript shows an unknown model's raw call section as an example.",
    kind="code-prints-tags",
    user="파서 없이 띄운 모델 출력이 어떻게 생겼는지 보여줘.",
    content='파서를 끄면 원본이 그대로 보입니다.\n\n```text\n<|tool_call_start|>{"name": "get_weather", '
    '"arguments": {"city": "Seoul"}}<|tool_call_end|>\n```\n\n서버에 tool parser를 지정하면 이 '
    "부분이 tool_calls 필드로 옮겨집니다.",
)

# ------------------------------------------------------------------ hard negatives: HTML, XML, math, code

T.chat(
    [],
    "gpt5",
    "en",
    "Clean: an HTML answer using <s> for strikethrough prices.",
    kind="other-markup",
    user="Give me the HTML for a sale price with the old price struck through.",
    content='<p class="price"><s>$40</s> <strong>$28</strong></p>',
)

T.chat(
    [],
    "gpt5_mini",
    "zh",
    "Clean: inline HTML strikethrough inside a Chinese sentence.",
    kind="other-markup",
    user="用 HTML 怎么表示划掉的文字？",
    content="用 s 元素即可，比如：原价 <s>99元</s>，现价 79 元。浏览器会给它加一条删除线。",
)

T.chat(
    [],
    "claude",
    "en",
    "Clean: an XML answer the user asked for, with reasoning and answer elements.",
    kind="other-markup",
    user="Return your answer as XML with <reasoning> and <answer> elements: is 91 prime?",
    content="<reasoning>91 = 7 × 13.</reasoning>\n<answer>No</answer>",
)

T.chat(
    [],
    "gpt5",
    "en",
    "Clean: a SOAP envelope (namespaced XML) as the answer.",
    kind="other-markup",
    user="Show a minimal SOAP 1.1 request for GetPrice with item Apple.",
    content='<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\n  <soap:Body>\n'
    '    <m:GetPrice xmlns:m="https://example.com/prices">\n      <m:Item>Apple</m:Item>\n'
    "    </m:GetPrice>\n  </soap:Body>\n</soap:Envelope>",
)

T.chat(
    [],
    "gpt5_mini",
    "ko",
    "Clean: math and type notation with angle brackets and bars, outside code.",
    kind="other-markup",
    user="브라-켓 표기법이 뭐예요?",
    content="양자역학에서 내적은 <a|b> 처럼 쓰고, 기댓값은 <ψ|A|ψ> 로 적습니다. 타입스크립트의 "
    "Array<string|number> 와는 전혀 다른 뜻입니다.",
)

T.chat(
    [],
    "qwen3",
    "en",
    "Clean: Elixir pipes and a Rust generic bound in prose.",
    kind="other-markup",
    user="Explain Elixir's pipe operator in one line.",
    content="data |> parse() |> validate() passes each result as the first argument to the next call, "
    "much like chaining iterators with Vec<T> in Rust.",
)

T.chat(
    [],
    "gpt5",
    "en",
    "Clean: an email template with bracketed placeholders and log lines with bracketed levels.",
    kind="other-markup",
    user="Write a short outage notice template.",
    content="Dear [CUSTOMER_NAME],\n\nOur service was unavailable from [START_TIME] to [END_TIME]. "
    "Logs showed:\n[ERROR] db pool exhausted\n[INFO] failover complete\n\nRegards,\n[YOUR_NAME]",
)

# ------------------------------------------------------------------ hard negatives: JSON answers

T.chat(
    [],
    "zeroday",
    "en",
    "Clean: the user asked for a JSON record; it has name and arguments keys but no tools were declared "
    "and no call markup frames it.",
    kind="json-answer",
    user="Give me a JSON object for a CLI command named deploy with its arguments.",
    content='{"name": "deploy", "arguments": {"env": "prod", "dry_run": false}}',
)

T.chat(
    [],
    "zeroday_gw",
    "zh",
    "Clean: JSON mode answer that looks like a call object.",
    kind="json-answer",
    user="把这个函数签名写成 JSON：get_weather(city)",
    rf=RF_JSON_OBJECT,
    content='{"name": "get_weather", "parameters": {"city": "string"}}',
)

T.chat(
    [],
    "gpt5",
    "ko",
    "Clean: explains the tool-call JSON shape inside a fence with prose around it.",
    kind="call-json-explained",
    user="OpenAI 툴 호출 JSON은 어떻게 생겼어?",
    tools=["get_weather"],
    content='모델이 돌려주는 호출은 이런 모양입니다.\n\n```json\n{"name": "get_weather", "arguments": '
    '{"city": "Seoul"}}\n```\n\n클라이언트는 이걸 실행한 뒤 결과를 tool 메시지로 돌려보냅니다.',
)

# ------------------------------------------------------------------ hard negatives: quoted transcripts

T.chat(
    [],
    "gpt5",
    "en",
    "Clean: the user pasted raw output with unknown tokens; the answer quotes the same tokens back.",
    kind="tags-in-quotes",
    user="My model prints <|turn_sep|> and <|speaker_user|> at the end of answers. Why?",
    content="Those two are the template's separator tokens: <|turn_sep|> closes the turn and "
    "<|speaker_user|> opens the next one. Add <|turn_sep|> to your stop strings.",
)

T.chat(
    [],
    "gpt5_mini",
    "zh",
    "Clean: the user quoted a function_call block from their logs; the answer discusses it.",
    kind="tags-in-quotes",
    user='日志里出现了 <function_call>{"name": "get_weather", "arguments": {}}</function_call>，这是什么？',
    content='这说明模型把调用写进了正文：<function_call>{"name": "get_weather", "arguments": {}}'
    "</function_call>。服务端需要配置 tool parser 才能把它转成结构化的 tool_calls。",
)

T.chat(
    [],
    "claude",
    "ko",
    "Clean: reflection-tag format requested by the system prompt, then the answer.",
    kind="other-markup",
    system="Always think inside <reflection></reflection> before answering.",
    user="7 곱하기 8은?",
    content="<reflection>7×8=56.</reflection>56입니다.",
)
