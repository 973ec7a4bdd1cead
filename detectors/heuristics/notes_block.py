"""Untagged reasoning read from who the opening block is written for (en, zh, ko).

An answer talks to its reader, or about the subject. A model's notes to itself talk about
the reader ("the user wants…", "用户问的是…") and about its own work on the reply ("I
should check…", "我得先算…"). When a template's delimiters are stripped, such a block of
notes opens the text and the answer follows after a line break, whatever words the
reasoning starts with. ``speech_level`` reads the same shift from Korean sentence endings
when the notes are plain; English and Chinese do not mark it there, and Korean notes may be
polite or memo-style, so this module reads it from person and reference instead.

A block counts as notes when, before the first line break:

- it never addresses the reader (``addressed``: "you", "please", "你", "您", "请", "稍等",
  "-세요", "고객님");
- it has one strong sign: the requester or the task spoken of in the third person
  (``_EN_ABOUT``, ``_ZH_ABOUT``, ``_KO_ABOUT``), or a first-person plan about the work
  of answering (``_EN_INTENT``, ``_ZH_INTENT``, ``_KO_INTENT``);
- and one more sign of a different kind (the other strong one, or ``musing``: a hedge, a
  restart, a self-check), since a single "I'll keep it short." is an assistant's aside;
  a plan with only a musing beside it needs two sentences: one sentence announcing work
  ("Hold on, let me double-check the numbers.") is a preamble to the user;
- and an answer follows it (not a token or markup: the delimited rules read those).

Each sign is a table of literal anchors with the regex that must follow them
(``cues.Markers``): one regex with every continuation inlined cost ~16 µs per answer,
most of it on answers that are nothing like notes.

A prompt that names the requester itself ("write a user story", "用户表怎么设计") makes
talk about "the user" ordinary, so ``prompt_names`` turns that sign off; a prompt that asks
for memo-style text (a Korean summary) turns the check off (``asked_for``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leakline.detectors.heuristics.cues import Markers, opening_block, sentences
from leakline.detectors.heuristics.speech_level import LEVELS


@dataclass(frozen=True, slots=True)
class NotesRegister:
    """The signs that one language's opening block is written for the model itself."""

    script: str  # the opening script this row reads (``cues.Prepared.scripts``)
    addressed: re.Pattern[str]  # the block talks to its reader: an answer
    # STRONG: the requester or the task in the third person; WEAK: the model's own plan
    # for working out or writing the reply. One scan finds either.
    signs: Markers
    intent: Markers  # the plans alone, for a block whose talk of the requester is discounted
    musing: re.Pattern[str]  # hedges, restarts, self-checks (weak alone)
    prompt_names: re.Pattern[str]  # a prompt about users: "the user" is its subject
    asked_for: re.Pattern[str] | None  # a prompt that asks for notes-style text (a summary)
    # a prompt that asks for first-person text (a diary, a monologue): plans and musing are
    # then the text itself, and only the requester in the third person still marks notes
    voiced: re.Pattern[str] | None
    # a heading that names the writer's own thinking ("Thinking Process:"), its kind of
    # thinking in the group ``noun`` (a prompt that names it asked for it): ``plan_block``
    heading: re.Pattern[str]


# Verbs of working on a reply, not of talking to the reader ("explain", "mention", "note"
# and "clarify" are how an assistant introduces a caveat to its user).
_EN_WORK = (
    r"(?:answer|respond|reply|check|verify|double[- ]check|re-?check|confirm|compute"
    r"|calculate|work\s+out|figure|recall|remember|consider|reconsider|think|assume|decide"
    r"|plan|pick|choose|go\s+with|make\s+sure|be\s+careful|avoid|keep\s+(?:it|the\s+answer)"
    r"|start\s+(?:with|by)|focus|look\s+(?:at|up|into)|parse|re-?read|count|add\s+up|sum"
    r"|structure|write\s+the|draft|format|list\s+the|convert|search|interpret|guess)\b"
)
_EN_WORK_NEXT = r"\s+(?:\w+\s+)?(?:try\s+to\s+)?" + _EN_WORK  # "let me (try to) work out"
# the work done on the request, as a step of a plan: "Analyze the request", "Identify the
# user's core question" (an answer's steps act on the subject: "Preheat the oven")
_EN_ON_REQUEST = (
    r"\s+(?:the\s+)?(?:user['’]s\s+)?(?:core\s+|main\s+|actual\s+)?(?:request|prompt|question"
    r"|query|task|goal|ask|intent)\b"
)
_EN_REQUESTER_DOES = (
    r"(?:['’]s)?\s+(?:\w+\s+)?(?:wants?|wanted|asks|asked|asking|said|says|mentions?|mentioned"
    r"|means|meant|question|request|message|query|intent|is\s+(?:asking|looking|trying|probably"
    r"|likely|confused|wondering)|probably|likely|seems|might\s+(?:want|mean)|expects?|did)\b"
)
# telegraphic notes drop the article: "Customer wants a refund. User says hi."
_EN_BARE_REQUESTER = (
    r"\s+(?:just\s+)?(?:says|said|wants|asks|asked|is\s+asking|mentions|mentioned)\b"
)
_EN_TASK_DOES = (
    r"\s+(?:is\s+(?:asking|about|basically|really|probably)|asks|wants|mentions|says|seems"
    r"|requires|gives|states)\b"
)
_ZH_REQUESTER_DOES = (
    r"[^，。！？\n]{0,6}?(?:问|想知道|想要|想问|提到|说(?!明)|希望我|让我|要我|的意思|的问题|的需求"
    r"|在问|要的是|用的是|只是|想|要|给了|提供了|发来|贴了)|(?:应该|好像|似乎|可能|大概)是"
)
_ZH_WORK = (
    r"(?!们)[^，。！？\n]{0,6}?(?:想|算|看|检查|确认|核对|回忆|考虑|分析|理解|判断|决定|列|回答"
    r"|回复|组织|整理|计算|验证|假设|注意|避免|排序|搞清楚|弄清楚|弄明白|搞明白|规划|写|解决|求)"
)
_ZH_REPLY_RULE = r"(?:要|别|不要|不用|尽量|应该|得)"  # "回答别写太长", "语气要正式"
_ZH_REPLY_ADD = r"(?:提醒|提一下|解释|说明|补充)"  # "再解释原因", "顺便提一下"

_EN_ABOUT: dict[str, str | None] = {
    **dict.fromkeys(
        ("the user", "the person", "the asker", "the requester", "the op"),
        _EN_REQUESTER_DOES,
    ),
    **dict.fromkeys(("user", "customer", "asker"), _EN_BARE_REQUESTER),
    "they": r"(?:['’]re|\s+are|\s+were|['’]ve|\s+have)?\s+(?:probably\s+|just\s+"
    r"|actually\s+)?(?:asked|asking|said|mentioned|meant)\b"
    r"|['’]re\s+(?:describing|asking|looking\s+for)\b",
    "what they": r"\s+(?:mean|meant|want|asked)\b",
    "their": r"\s+(?:question|request|message|prompt|query)\b",
    **dict.fromkeys(("the question", "the prompt", "the request", "the task"), _EN_TASK_DOES),
    **dict.fromkeys(
        ("is the question", "was the question", "is the prompt", "was the prompt"),
        r"\s+(?:about|asking)\b",
    ),
    "i'm being asked": None,
    "i’m being asked": None,
    # what the model was told, spoken of as a third party
    "system": r"\s+(?:prompt|instructions?|message)\s+(?:says|said|say|tells"
    r"|requires|forbids|allows)\b",
}
_EN_INTENT: dict[str, str | None] = {
    **dict.fromkeys(
        (
            "i should",
            "i need to",
            "i have to",
            "i must",
            "i will",
            "i am going to",
            "i want to",
            "i'll",
            "i’ll",
            "let me",
            "we need to",
            "we have to",
            "need to",
        ),
        _EN_WORK_NEXT,
    ),
    **dict.fromkeys(
        (
            "my answer",
            "my reply",
            "my response",
            "the answer",
            "the reply",
            "the response",
            "the tone",
            "the wording",
        ),
        r"\s+should\b",
    ),
    "before i": r"\s+(?:answer|reply|respond|write)\b",
    **dict.fromkeys(
        (
            "analyze",
            "analyse",
            "deconstruct",
            "understand",
            "identify",
            "parse",
            "clarify",
            "re-read",
            "reread",
            "interpret",
        ),
        _EN_ON_REQUEST,
    ),
    **dict.fromkeys(
        (
            "i wonder",
            "my guess",
            "my first guess",
            "i was wrong",
            "i am wrong",
            "i'll assume",
            "i’ll assume",
        ),
        None,
    ),
}
_ZH_ABOUT: dict[str, str | None] = {
    **dict.fromkeys(("用户", "对方", "提问者", "楼主"), _ZH_REQUESTER_DOES),
    # the requester as the one the work is for: "帮用户把这段话翻译成英文"
    **dict.fromkeys(("帮用户", "替用户", "回答用户", "回复用户"), None),
    "问的是": None,  # subjectless: "问的是水的沸点"
    "问题": r"(?:问的是|是在问|要求|说的是|给了|给出)",
    "题目": r"(?:问的是|是在问|要求|说的是|给了|给出|问|说|中|里)",
    **dict.fromkeys(("他", "她"), r"(?:问|想问|想知道|说的|的意思|提到)"),
}
_ZH_INTENT: dict[str, str | None] = {
    **dict.fromkeys(
        ("我需要", "我应该", "我得", "我要先", "我先", "我再", "我要", "我可以先"),
        _ZH_WORK,
    ),
    "让我": r"(?!们)",
    "我现在": r"(?:需要|得|要|应该|必须)",  # "嗯，我现在需要解决这个问题"
    **dict.fromkeys(("我觉得", "我认为", "我猜"), r"(?:答案|应该是)"),
    # a note to itself about the reply: "回答别写太长", "语气要正式", "先共情"
    **dict.fromkeys(("回答", "回复", "语气", "答案"), _ZH_REPLY_RULE),
    "先共情": None,
    **dict.fromkeys(("给", "给出", "再", "顺便", "最后"), _ZH_REPLY_ADD),
}

# Korean notes are in any speech level (``speech_level`` reads the plain ones): polite notes
# speak of the requester with an honorific ("써 달라고 하시네요"), memo notes end in nouns
# ("JS 배열 합계 질문.", "사과 톤 유지 필요.").
# Hangul syllables whose final consonant is ㅁ: the nominal ending of memo notes.
_M_FINAL = "".join(chr(0xAC00 + 28 * vowel_and_initial + 16) for vowel_and_initial in range(399))
_KO_ABOUT: dict[str, str | None] = {
    "사용자": r"(?:가|는|께서|의)?\s?(?:[^.!?\n]|\.(?=[A-Za-z0-9])){0,40}?(?:물어|물었|묻|질문|요청"
    r"|원하|원해|달라고|알고\s?싶|궁금|했네|하네|하시네)",
    "달라고": r"\s?(?:하시|하셨|했|한다|함|요청)",
    **dict.fromkeys(("질문이", "질문은"), r"(?:[^.!?\n]){0,60}?(?:이다|임|인지|거다)"),
    **dict.fromkeys(("고객 문의", "고객문의"), None),
    **dict.fromkeys(("질문", "요청", "문의"), r"\s?[.:]"),  # a memo's heading: "regex 요청."
}
_KO_INTENT: dict[str, str | None] = {
    **dict.fromkeys(("야겠", "답하자", "주자", "넣자", "정리하자", "답은"), None),
    **dict.fromkeys(
        ("언급", "덧붙이", "넣으면", "넣는", "안내하", "설명하", "마무리하", "알려드리면"),
        r"(?:하)?(?:면\s?좋|는\s?게\s?(?:좋|낫)|자|기로|야)",
    ),
    "필요": r"(?:함)?\s?[.]",  # "사과 톤 유지 필요."
    "검산": None,
}

REGISTERS: dict[str, NotesRegister] = {
    "en": NotesRegister(
        script="latin",
        # literals first, so the engine scans for "y" and "p"; the word start checked after
        addressed=re.compile(
            r"you(?<![^\W\d_]you)(?:r|rs|rself)?(?:\b|['’])|please(?<!\wplease)\b"
        ),
        signs=Markers(_EN_ABOUT, _EN_INTENT, word_start=True),
        intent=Markers(_EN_INTENT, word_start=True),
        musing=re.compile(
            r"(?:^|[.?!]\s+)(?:wait|hmm+|hm|actually|hold\s+on|no|oh|okay|ok|alright|right|so"
            r"|now|first|let['’]s\s+see)\b|\b(?:probably|maybe|perhaps|likely|i\s+think|i\s+guess"
            r"|i\s+believe|seems)\b|\?\s+\w"  # a question the block goes on to answer itself
        ),
        prompt_names=re.compile(r"\buser|\bpersona\b|\bcustomer\b", re.IGNORECASE),
        asked_for=None,
        voiced=re.compile(
            r"first[- ]person|\bdiary\b|\bjournal\s+entry|monologue|stream\s+of\s+consciousness"
            r"|\bin\s+character\b|role-?play|\bpretend\b|\bin\s+my\s+voice\b|\bas\s+if\s+you\s+were\b",
            re.IGNORECASE,
        ),
        # lower case, the decoration stripped: "here's a thinking process that leads to…:"
        heading=re.compile(
            r"(?:here(?:['’]s|\s+is)\s+(?:a|my|the)\s+|my\s+|the\s+)?(?:step[- ]by[- ]step\s+)?"
            r"(?P<noun>(?:thinking|thought|reasoning)(?:\s+process)?|chain\s+of\s+thought"
            r"|internal\s+monologue|scratchpad)\b[^:\n]{0,60}:"
        ),
    ),
    "zh": NotesRegister(
        script="han",
        addressed=re.compile(r"[你您请]|稍等"),
        signs=Markers(_ZH_ABOUT, _ZH_INTENT),
        intent=Markers(_ZH_INTENT),
        musing=re.compile(
            r"嗯|等等|不对|等一下|好像|大概|也许|应该是|似乎|对吧|对吗|再(?:检查|确认|算|想)"
            r"|验证一下|核对一下|算一下|我记得|我以为|[说算搞]错了|对不对|就行|[？?][^\n]"
        ),
        prompt_names=re.compile(r"用户|客户"),
        asked_for=None,
        voiced=re.compile(r"第一人称|日记|独白|口吻|扮演|自述"),
        heading=re.compile(
            r"(?:我的)?(?P<noun>(?:思考|思维|推理)过程|(?<=我的)思路)(?:如下)?[：:]"
        ),
    ),
    "ko": NotesRegister(
        script="hangul",
        # imperatives and titles for the reader; "드리-" is not here: notes plan it too
        # ("알려드리면 좋겠어요")
        addressed=re.compile(r"세요|십시오|당신|고객님"),
        signs=Markers(_KO_ABOUT, _KO_INTENT),
        intent=Markers(_KO_INTENT),
        musing=re.compile(
            r"(?:^|\s)(?:음|흠|잠깐|아니|그래|좋아|어차피|근데|아마)[,.\s]|것\s?같|[?？]\s?\S"
            rf"|[{_M_FINAL}]\.|맞아요|맞다"  # memo endings: "충분함.", "다름."
        ),
        prompt_names=re.compile(r"사용자|고객"),
        asked_for=LEVELS["ko"].asked_for,  # a summary, a translation, a diary: plain or memo style
        voiced=None,  # ``asked_for`` already turns the check off for the texts asked for
        heading=re.compile(r"(?:나의\s?|제\s?)?(?P<noun>(?:생각|사고|추론)\s?과정)[:：]"),
    ),
}
_BY_SCRIPT = {row.script: lang for lang, row in REGISTERS.items()}

# Notes are a block of at most this many characters before the first line break.
_BLOCK_CHARS = 600
# What may not open the text after the block: a token or markup the delimited rules read.
_NOT_AN_ANSWER = "<[◁{"
# How a token that closes the block ends.
_CLOSING = (">", "]", "▷")


def notes_block(text: str, prompt: str = "") -> tuple[str, tuple[int, int]] | None:
    """(language, span of the block) when ``text`` opens with a block of notes to itself
    and an answer follows it."""
    found = opening_block(text, _BY_SCRIPT, _BLOCK_CHARS)
    if found is None:
        return None
    lang, start, brk, resume = found
    if resume >= len(text) or text[resume] in _NOT_AN_ANSWER:
        return None
    if text[start:brk].rstrip().endswith(_CLOSING):
        return None  # "…</think>": a delimited region, read by the delimited rules
    if not reads_as_notes(lang, text, start, brk, prompt):
        return None
    return lang, (start, brk)


def reads_as_notes(
    lang: str, text: str, start: int, end: int, prompt: str = "", *, headed: bool = False
) -> bool:
    """Whether ``text[start:end]`` is written for the model itself (the signs above).

    ``headed``: a heading that names the writer's thinking came before it ("Thinking
    Process:"), which is one sign already, so any one sign here completes it."""
    row = REGISTERS[lang]
    block = text[start:end]
    if lang == "en":
        block = block.lower()
    kinds = row.signs.scan(block)  # stops at the first STRONG sign
    if not kinds:
        return False  # the common case: nothing of notes in the block
    if row.addressed.search(block) is not None:
        return False
    if prompt and row.asked_for is not None and row.asked_for.search(prompt) is not None:
        return False  # the user asked for text in this style
    about = bool(kinds & Markers.STRONG)
    intent = bool(kinds & Markers.WEAK)
    if about and not intent:
        intent = bool(row.intent.scan(block))  # a plan after the scan's stop
    if about and prompt and row.prompt_names.search(prompt) is not None:
        about = False  # the prompt is about users: so may the answer be
    if not about and prompt and row.voiced is not None and row.voiced.search(prompt) is not None:
        return False  # first-person text was asked for: its plans are the text
    if not (intent or about):
        return False
    if headed:
        return True
    if not (intent and about):
        if row.musing.search(block) is None:
            return False
        if not about and len(sentences(text, start, end - start, 2)) < 2:
            return False  # one sentence announcing work ("稍等，我再核对一下。"): a preamble
    return True
