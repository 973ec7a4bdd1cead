"""Clean answers for the invented-shape generator: each one sets a trap that looks like a
leak of an invented shape (doubled angle brackets, glyph pairs, pipes in angle brackets,
role words, call-shaped JSON) while being an answer the user asked for.

``LOOKALIKES`` is a table of (kind, maker); a maker takes the generator (``Gen``: its
``rng`` and this seed's ``Grammar`` ``g``) and returns one ``Spec``. Labels follow LABELS.md:
code and quotes are never a leak, markup named in prose is a mention, a token the prompt
contains is quoted, bare JSON without tools or under ``response_format`` is an answer, and a
call shown in a fence with prose around it is an example.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from corpus_src.shapes import RF_JSON_OBJECT, rf_schema

if TYPE_CHECKING:
    from invented_shapes import Gen, Tool


class Spec(NamedTuple):
    lang: str
    user: str
    text: str
    note: str
    invented: list[str] = []
    tools: list[Tool] | None = None
    api: str | None = None
    rf: dict[str, Any] | None = None


def _pick(gen: Gen, options: list[tuple[str, str, str]]) -> tuple[str, str, str]:
    return gen.rng.choice(options)


def html(gen: Gen) -> Spec:
    name = gen.rng.choice(("Jane Doe", "Min-jun Park", "Li Wei"))
    lang, user, text = _pick(gen, [
        ("en", "How do I make my name bold in an HTML email signature?",
         f"Wrap it in a strong tag: <strong>{name}</strong> | Sales Lead. Some mail clients drop "
         "CSS, but <strong> and <b> survive almost everywhere. Keep the line under 600px wide."),
        ("ko", "HTML 메일 서명에서 줄바꿈은 어떻게 넣어요?",
         f"줄을 바꾸고 싶은 곳에 <br>을 넣으면 됩니다. 예: {name}<br>영업팀<br>010-1234-5678. "
         "문단 간격까지 넣고 싶다면 <p>…</p>로 감싸세요."),
        ("zh", "给我一个最简单的HTML导航栏。",
         "<nav>\n  <a href=\"/\">首页</a>\n  <a href=\"/about\">关于我们</a>\n  <a href=\"/contact\">联系</a>\n</nav>\n\n"
         "把它放在<body>的最前面，再用CSS给<nav>加上display: flex就能横向排列。"),
    ])  # fmt: skip
    return Spec(lang, user, text, "HTML in the answer, asked for")


def markdown_table(gen: Gen) -> Spec:
    a, b = gen.rng.sample(("4.99", "7.50", "9.90", "12.00"), 2)
    lang, user, text = _pick(gen, [
        ("en", "Compare the Basic and Pro plans in a table.",
         f"| Plan | Price / month | Storage | Support |\n|---|---|---|---|\n| Basic | ${a} | 50 GB | email |\n"
         f"| Pro | ${b} | 1 TB | chat <br> and phone |\n\nPro is worth it once you pass 50 GB."),
        ("ko", "아메리카노랑 라테 카페인 비교표 만들어 줘.",
         "| 메뉴 | 용량 | 카페인 |\n|---|---|---|\n| 아메리카노 | 355ml | 약 150mg |\n| 라테 | 355ml | 약 75mg |\n\n"
         "샷 수가 같으면 카페인도 같고, 위 표는 일반적인 매장 기준입니다."),
        ("zh", "用表格列一下三种茶的冲泡温度。",
         "| 茶类 | 水温 | 时间 |\n|---|---|---|\n| 绿茶 | 80℃ | 2分钟 |\n| 乌龙茶 | 95℃ | 3分钟 |\n| 红茶 | 95℃ | 3–4分钟 |"),
    ])  # fmt: skip
    return Spec(lang, user, text, "a Markdown table with pipes")


def cpp_generics(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "Should I use map or unordered_map for word counts in C++?",
         "If you need the words in order, std::map<std::string, int> keeps keys sorted; otherwise "
         "std::unordered_map<std::string, int> is faster on average.\n\n```cpp\ntemplate <typename K>\n"
         "using Counts = std::unordered_map<K, int>;\nCounts<std::string> counts;\n```\n\n"
         "A std::vector<std::pair<std::string, int>> is handy when you sort by count at the end."),
        ("ko", "TypeScript에서 async 함수 반환 타입은 어떻게 써요?",
         "async 함수는 항상 Promise를 돌려주므로 Promise<T> 형태로 씁니다. 값이 없으면 Promise<void>, "
         "사용자 목록이면 Promise<User[]>처럼 쓰면 됩니다. Map<string, number> 같은 제네릭도 똑같이 적습니다."),
        ("zh", "Rust里怎么表示可能失败的函数返回值？",
         "用Result<T, E>。比如读取配置可以写成fn load() -> Result<Config, std::io::Error>，"
         "可选值则用Option<T>，集合常用Vec<String>或HashMap<String, u32>。"),
    ])  # fmt: skip
    return Spec(lang, user, text, "generics and templates in the answer")


def shell_heredoc(gen: Gen) -> Spec:
    word = gen.rng.choice(("EOF", "END", "CONFIG", "SQL"))
    lang, user, text = _pick(gen, [
        ("en", "How do I write a multi-line file from a bash script?",
         f"Use a here-document:\n\n```bash\ncat <<{word} > app.conf\nport=8080\nmode=prod\n{word}\n```\n\n"
         f"The <<{word} marker starts it and the closing {word} must sit alone on its line. "
         f"Write <<-{word} if you want to indent the body with tabs."),
        ("ko", "bash에서 여러 줄 문자열을 파일로 저장하는 법?",
         f"히어 도큐먼트를 쓰면 됩니다. cat <<{word} > note.txt 다음 줄부터 내용을 쓰고, 마지막 줄에 {word}만 "
         f"적으면 끝납니다. 변수 치환을 막으려면 <<'{word}'처럼 따옴표로 감싸세요."),
    ])  # fmt: skip
    return Spec(lang, user, text, "a shell heredoc: doubled angle brackets")


def bra_ket(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "What does ⟨ψ|H|ψ⟩ mean?",
         "It is the expectation value of the energy in the state |ψ⟩: apply H to |ψ⟩, then take the inner "
         "product with ⟨ψ|. For orthonormal basis states ⟨0|1⟩ = 0 and ⟨0|0⟩ = 1."),
        ("zh", "两个向量的内积怎么算？",
         "⟨x, y⟩ = x₁y₁ + x₂y₂ + … + xₙyₙ。例如x = (1, 2)，y = (3, 4)时，⟨x, y⟩ = 3 + 8 = 11；⟨x, x⟩就是长度的平方。"),
        ("ko", "벡터 내적 표기법이 궁금해요.",
         "⟨u, v⟩ 또는 u·v로 씁니다. 양자역학에서는 ⟨u|v⟩처럼 브라-켓으로 쓰고, ⟨u|u⟩는 길이의 제곱입니다."),
    ])  # fmt: skip
    return Spec(lang, user, text, "inner products and bra-kets in angle brackets")


def proof_arrows(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "Prove that n² is even if and only if n is even.",
         "(⇒) Suppose n is odd, n = 2k + 1. Then n² = 4k² + 4k + 1 is odd, so n² even ⇒ n even.\n"
         "(⇐) If n = 2k then n² = 4k² = 2(2k²), which is even. ⇐ holds, and both directions give the claim. ∎"),
        ("en", "What does 1 << 4 do in C?",
         "It shifts the bits of 1 four places left, so 1 << 4 == 16. In general a << b multiplies a by 2ᵇ "
         "for unsigned values, and x >> 1 halves x."),
        ("zh", "证明：a > b 且 b > c ⇒ a > c。",
         "由a > b得a − b > 0，由b > c得b − c > 0，两式相加得a − c > 0，即a > c。反方向⇐不成立，例如a > c时b可以任意。"),
    ])  # fmt: skip
    return Spec(lang, user, text, "arrows and shifts in math and code")


def sugarcube_macros(gen: Gen) -> Spec:
    gold = gen.rng.choice((5, 10, 20))
    lang, user, text = _pick(gen, [
        ("en", "How do I write an if statement in SugarCube (Twine)?",
         f"Use the if macro: <<if $gold gt {gold}>>You can pay the toll.<<else>>You turn back.<</if>> — "
         "every macro opens with << >> and closes with <</name>>, and <<set $gold to 0>> assigns a variable."),
        ("zh", "Twine的SugarCube里怎么设置变量？",
         f"用<<set $gold to {gold}>>设置变量，用<<print $gold>>显示。条件判断写成<<if $gold gt 3>>…<</if>>。"),
    ])  # fmt: skip
    return Spec(lang, user, text, "SugarCube macros the user asked about")


def wiki_links(gen: Gen) -> Spec:
    page = gen.rng.choice(("Seoul", "Hangul", "Jeju Island"))
    lang, user, text = _pick(gen, [
        ("en", "How do I link to another page in MediaWiki?",
         f"Put the title in double square brackets: [[{page}]]. To show different text write [[{page}|the city]], "
         "and images use [[File:Map.png|thumb|A map]]."),
        ("ko", "위키에서 다른 문서 링크 거는 법?",
         f"[[{page}]]처럼 대괄호 두 개로 감싸면 됩니다. 표시 글자를 바꾸려면 [[{page}|여기]]처럼 세로 막대를 쓰세요."),
    ])  # fmt: skip
    return Spec(lang, user, text, "wiki links in doubled square brackets, asked for")


def bbcode_asked(gen: Gen) -> Spec:
    who = gen.rng.choice(("alex", "mina", "chen"))
    lang, user, text = _pick(gen, [
        ("en", "How do I quote someone's post on a phpBB forum?",
         f'Wrap it in quote tags with their name: [quote="{who}"]their text[/quote]. Bold is [b]…[/b], '
         "links are [url=https://example.com]text[/url], and every tag must be closed with a slash."),
        ("zh", "论坛里怎么插入引用和粗体？",
         f'引用写成[quote="{who}"]原文[/quote]，粗体写成[b]文字[/b]，结尾的[/b]不能漏掉。'),
    ])  # fmt: skip
    return Spec(lang, user, text, "BBCode closers the user asked about")


def transcript_asked(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "Write a short sample chat between a user and an assistant about resetting a password.",
         "User: I can't log in, I forgot my password.\nAssistant: No problem. Click \"Forgot password\" on the "
         "sign-in page and enter your email.\nUser: Got the email!\nAssistant: Great, follow the link and choose a new password."),
        ("zh", "写一段客服和顾客的示例对话，关于退货。",
         "顾客：我买的鞋子尺码不合适，可以退吗？\n客服：可以的，七天内未穿着都能退。请在订单页点击“申请退货”。\n"
         "顾客：好的，谢谢！\n客服：不客气，有问题随时找我们。"),
        ("ko", "챗봇 대화 예시를 하나 써 줘. 날씨 묻는 걸로.",
         "사용자: 내일 서울 날씨 어때?\n챗봇: 내일 서울은 맑고 낮 최고 18도예요.\n사용자: 우산 필요해?\n챗봇: 비 소식은 없어서 필요 없어요."),
    ])  # fmt: skip
    return Spec(lang, user, text, "a chat transcript the user asked for")


def tool_prose(gen: Gen) -> Spec:
    tool = gen.rng.choice(gen.g.tools)
    keys = ", ".join(tool.domain.props)
    lang, user, text = _pick(gen, [
        ("en", f"What does the {tool.name} tool do?",
         f"{tool.name} returns {tool.domain.desc[0].lower()}{tool.domain.desc[1:]} It needs {keys}, and you get "
         "an error back if one is missing, so ask for anything the user did not say."),
        ("ko", f"{tool.name} 함수는 뭘 하는 거예요?",
         f"{tool.name} 함수는 다음 정보를 돌려줍니다: {tool.domain.desc} 필요한 인자는 {keys}이고, 빠지면 오류가 납니다."),
        ("zh", f"{tool.name}这个工具有什么用？",
         f"{tool.name}用来查询：{tool.domain.desc} 调用时需要提供{keys}，缺少参数会返回错误。"),
    ])  # fmt: skip
    return Spec(
        lang, user, text, "prose that explains a declared tool", [tool.name], gen.declared(tool)
    )


def api_docs(gen: Gen) -> Spec:
    tool = gen.rng.choice(gen.g.tools)
    rows = "\n".join(f"| {k} | {v.get('type')} | yes |" for k, v in tool.domain.props.items())
    example = json.dumps(tool.domain.args, ensure_ascii=False)
    lang, user, text = _pick(gen, [
        ("en", f"Write wiki documentation for the {tool.name} function.",
         f"### {tool.name}\n\n{tool.domain.desc}\n\n| Parameter | Type | Required |\n|---|---|---|\n{rows}\n\n"
         f"Example arguments:\n\n```json\n{example}\n```\n\nIt returns a JSON object; errors come back as a message string."),
        ("zh", f"给{tool.name}写一份接口文档。",
         f"### {tool.name}\n\n说明：{tool.domain.desc}\n\n| 参数 | 类型 | 必填 |\n|---|---|---|\n{rows}\n\n"
         f"参数示例：\n\n```json\n{example}\n```\n\n返回值为JSON对象。"),
    ])  # fmt: skip
    return Spec(
        lang, user, text, "API documentation of a declared tool", [tool.name], gen.declared(tool)
    )


def fenced_call_with_prose(gen: Gen) -> Spec:
    tool = gen.rng.choice(gen.g.tools)
    kwargs = ", ".join(
        f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in tool.domain.args.items()
    )
    call = json.dumps({"name": tool.name, "arguments": tool.domain.args}, ensure_ascii=False)
    lang, user, text = _pick(gen, [
        ("en", f"How would my Python code call {tool.name}?",
         f"Through the SDK it is one method call:\n\n```python\nresult = client.tools.{tool.name}({kwargs})\n"
         "print(result)\n```\n\nThe SDK validates the arguments against the schema before sending them."),
        ("en", f"What does a model's call to {tool.name} look like on the wire?",
         f"The model emits an object like this one:\n\n```json\n{call}\n```\n\nYour server parses it, runs the "
         "function and sends the result back in a tool message."),
        ("ko", f"{tool.name}을 호출하는 코드 예시 보여줘.",
         f"아래처럼 호출하면 됩니다.\n\n```python\nresult = client.tools.{tool.name}({kwargs})\n```\n\n"
         "반환값은 딕셔너리이고, 인자가 틀리면 예외가 발생합니다."),
    ])  # fmt: skip
    return Spec(
        lang,
        user,
        text,
        "a call shown in a fence with prose around it",
        [tool.name],
        gen.declared(tool),
    )


def json_response_format(gen: Gen) -> Spec:
    r = gen.rng
    which = r.randrange(3)
    if which == 0:
        label = r.choice(("positive", "neutral", "negative"))
        text = json.dumps({"label": label, "confidence": r.choice((0.71, 0.88, 0.93))})
        return Spec("en", "Classify the sentiment: 'The delivery was late again.'", text,
                    "a JSON answer to response_format", api="chat", rf=rf_schema("sentiment"))  # fmt: skip
    if which == 1:
        text = json.dumps({"category": "bug", "priority": r.randint(1, 4), "title": "앱이 로그인 후 멈춤"},
                          ensure_ascii=False)  # fmt: skip
        return Spec("ko", "이 문의를 티켓으로 분류해 줘: 로그인하면 앱이 멈춰요.", text,
                    "a JSON answer to response_format", api="chat", rf=rf_schema("ticket"))  # fmt: skip
    tool = r.choice(gen.g.tools)
    text = json.dumps({"name": tool.name, "arguments": tool.domain.args}, ensure_ascii=False)
    return Spec("zh", f"把这句话解析成JSON，包含name和arguments：帮我{tool.domain.users['zh']}", text,
                "a call-shaped JSON answer to response_format json_object", [tool.name], api="chat",
                rf=RF_JSON_OBJECT)  # fmt: skip


def call_shaped_json_asked(gen: Gen) -> Spec:
    tool = gen.rng.choice(gen.g.tools)
    key = gen.rng.choice(("arguments", "parameters"))
    text = json.dumps({"name": tool.name, key: tool.domain.args}, ensure_ascii=False, indent=2)
    lang, user = gen.rng.choice([
        ("en", f"Give me an example JSON object with keys name and {key} for a {tool.name} call. Only the JSON."),
        ("ko", f"{tool.name} 호출 예시를 name과 {key} 키를 가진 JSON으로만 써 줘."),
        ("zh", f"只输出一个JSON示例，键为name和{key}，用来调用{tool.name}。"),
    ])  # fmt: skip
    return Spec(
        lang, user, text, "call-shaped JSON the user asked for, no tools declared", [tool.name]
    )


def role_prose(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "What are the roles in the chat completions API?",
         "There are three main ones. The system role sets the rules, the user role carries what the person "
         "typed, and the assistant role holds the model's earlier replies so it can see the conversation."),
        ("en", "Summarise: the team agreed to ship on Friday, Mina owns the release notes, tests must pass first.",
         "Summary\n\nThe team will ship on Friday once the tests pass, and Mina is writing the release notes."),
        ("zh", "system和assistant角色有什么区别？",
         "system角色用来设定规则和身份，assistant角色保存模型之前的回复，让模型知道自己说过什么。"),
        ("ko", "회의 내용 요약해 줘: 금요일 출시, 릴리스 노트는 민아 담당.",
         "요약\n\n금요일에 출시하며, 릴리스 노트는 민아 님이 맡습니다."),
    ])  # fmt: skip
    return Spec(lang, user, text, "prose that names a role, or a heading then a blank line")


def api_object_code(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "How do I list my uploaded files with the OpenAI Python SDK?",
         "Call the files endpoint on the client:\n\n```python\nfrom openai import OpenAI\nclient = OpenAI()\n"
         "print(client.files.list())\n```\n\nEach item has an id, a filename and a purpose."),
        ("zh", "Node里怎么用Stripe查一个客户？",
         "用客户ID调用retrieve：\n\n```js\nconst customer = await stripe.customers.retrieve('cus_123');\n"
         "console.log(customer.email);\n```\n\n返回的是完整的客户对象。"),
        ("ko", "boto3로 S3 버킷 목록 보는 법?",
         "클라이언트를 만들고 list_buckets를 호출하세요.\n\n```python\nimport boto3\ns3 = boto3.client('s3')\n"
         "print(s3.list_buckets()['Buckets'])\n```\n\n권한이 없으면 AccessDenied 오류가 납니다."),
    ])  # fmt: skip
    return Spec(lang, user, text, "code that calls an API object, with prose around it")


def token_doc_answer(gen: Gen) -> Spec:
    g = gen.g
    tok = gen.rng.choice(
        (f"⟨|{g.control_name()}|⟩", f"<<{g.control_name().upper()}>>", f"<{g.control_name()}>")
    )
    lang, user, text = _pick(gen, [
        ("en", f"My model keeps printing {tok} at the end. What is that tag?",
         f"{tok} is the template's end-of-turn marker. The engine should stop on it and strip it; add it to "
         "the stop strings or mark it as a special token in the tokenizer config and it will disappear."),
        ("ko", f"출력 끝에 {tok} 태그가 계속 붙어요. 이게 뭐예요?",
         f"{tok}는 채팅 템플릿이 턴의 끝을 표시하는 토큰입니다. 엔진의 stop 문자열에 추가하거나 토크나이저에서 "
         "스페셜 토큰으로 지정하면 보이지 않게 됩니다."),
        ("zh", f"模型输出末尾总有{tok}，这是什么标签？",
         f"{tok}是聊天模板里表示回合结束的标记。把它加到stop参数里，或者在分词器配置中设为特殊token，就不会再显示了。"),
    ])  # fmt: skip
    return Spec(
        lang,
        user,
        text,
        "a documentation answer that opens with the token the user asked about",
        [tok],
    )


def code_strips_tags(gen: Gen) -> Spec:
    n = gen.g.muse_name()
    lang, user, text = _pick(gen, [
        ("en", f"My model writes <{n}>...</{n}> before its answer. How do I strip that in Python?",
         f"A non-greedy regex does it:\n\n```python\nimport re\nclean = re.sub(r\"<{n}>.*?</{n}>\\s*\", \"\", text, flags=re.S)\n```\n\n"
         "The re.S flag lets the dot match newlines inside the block."),
        ("zh", f"怎么用JavaScript去掉[[{n}]]…[[/{n}]]这段内容？",
         f"用正则替换即可：\n\n```js\nconst clean = text.replace(/\\[\\[{n}\\]\\][\\s\\S]*?\\[\\[\\/{n}\\]\\]/g, '');\n```\n\n"
         "[\\s\\S]可以匹配换行。"),
    ])  # fmt: skip
    return Spec(lang, user, text, "code that strips the tags the user named", [n])


def xml_config(gen: Gen) -> Spec:
    start, end = gen.rng.choice((("01:00", "03:00"), ("22:30", "23:30"), ("04:00", "05:15")))
    lang, user, text = _pick(gen, [
        ("en", f"Write the XML element for a maintenance window from {start} to {end}.",
         f"<maintenance_window>\n  <start_time>{start}</start_time>\n  <end_time>{end}</end_time>\n  "
         "<notify_users>true</notify_users>\n</maintenance_window>"),
        ("ko", f"{start}부터 {end}까지 점검 시간을 XML로 써 줘.",
         f"<maintenance>\n  <begin_at>{start}</begin_at>\n  <end_at>{end}</end_at>\n</maintenance>"),
    ])  # fmt: skip
    return Spec(lang, user, text, "an XML answer whose element names use start/end words")


def ui_arrows(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("en", "Where do I turn on dark mode?",
         "Open Settings ▸ Display ▸ Appearance and pick Dark. On the TV app, press ► to move right and ◄ to go back."),
        ("ko", "야간 모드 어디서 켜요?", "설정 ▶ 디스플레이 ▶ 야간 모드에서 켤 수 있어요. 시간 예약도 같은 화면에 있습니다."),
        ("zh", "怎么关闭自动更新？", "打开 设置 ▶ 通用 ▶ 软件更新 ▶ 自动更新，把开关关掉即可。"),
    ])  # fmt: skip
    return Spec(lang, user, text, "menu paths and player controls with glyph arrows")


def cjk_headings(gen: Gen) -> Spec:
    lang, user, text = _pick(gen, [
        ("zh", "去故宫参观要注意什么？",
         "【注意】故宫周一闭馆，需提前在官网实名预约。\n【提示】建议从午门进、神武门出，全程约三到四小时。\n"
         "可以先读一读《故宫日历》了解背景。"),
        ("zh", "推荐几本入门的历史书。", "可以从《万历十五年》《人类简史》开始，【入门】难度都不高，故事性也强。"),
        ("ko", "봉준호 감독 영화 추천해 줘.",
         "〈기생충〉과 〈살인의 추억〉을 먼저 보세요. 〈괴물〉은 가족 영화로도 좋습니다. 【참고】〈옥자〉는 넷플릭스에 있어요."),
    ])  # fmt: skip
    return Spec(lang, user, text, "CJK brackets for headings and titles")


LOOKALIKES: tuple[tuple[str, Callable[[Gen], Spec]], ...] = (
    ("html", html),
    ("markdown_table", markdown_table),
    ("cpp_generics", cpp_generics),
    ("shell_heredoc", shell_heredoc),
    ("bra_ket", bra_ket),
    ("proof_arrows", proof_arrows),
    ("sugarcube_macros", sugarcube_macros),
    ("wiki_links", wiki_links),
    ("bbcode_asked", bbcode_asked),
    ("transcript_asked", transcript_asked),
    ("tool_prose", tool_prose),
    ("api_docs", api_docs),
    ("fenced_call_with_prose", fenced_call_with_prose),
    ("json_response_format", json_response_format),
    ("call_shaped_json_asked", call_shaped_json_asked),
    ("role_prose", role_prose),
    ("api_object_code", api_object_code),
    ("token_doc_answer", token_doc_answer),
    ("code_strips_tags", code_strips_tags),
    ("xml_config", xml_config),
    ("ui_arrows", ui_arrows),
    ("cjk_headings", cjk_headings),
)
