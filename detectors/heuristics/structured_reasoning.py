"""``reasoning_leak`` inside a structured answer: reasoning prose in a JSON string field.

A grammar that masks ``<think>`` (thinking on + ``json_schema``) pushes the reasoning into
the first string field; a retry-with-feedback loop gets its error message copied back into
the JSON. The answer stays schema-valid, so only reading the fields finds it. Each string
field that is not a designated reasoning slot (``structured_fields``) is judged on its own,
by what the field is for:

- **value** fields (a label, an action, an id: ``enum``/``const``/``pattern``/``format``, a
  ``maxLength`` of at most 64, or a name like ``action``/``category``): any reasoning cue,
  or prose of two sentences or more, is a leak;
- **descriptive** fields the schema asked prose for (``summary``, ``description``,
  ``explanation``, ``rationale``, ``notes``, ...): only first-person deliberation, step-by-step
  narration or an echoed validation error; third-person narration ("The user wants to
  cancel…", "사용자가 …라고 했다") is what a summary says;
- other **free** fields (``answer``, ``reply``, ``result``, ...): the self-talk check of the
  visible text (``self_talk_cues.self_talk``) or a strong cue, or two weak cues.

Each finding names the field: ``details["path"]`` is its JSON Pointer (``/action``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.heuristics.cues import find_sentence_end
from leakline.detectors.heuristics.self_talk_cues import self_talk
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.structured_fields import answer, fields, in_slot

VALUE, DESCRIPTIVE, FREE = "value", "descriptive", "free"

# property names of one-token values (lower case, exact)
VALUE_NAMES: Final = frozenset(
    {
        "action", "label", "labels", "category", "intent", "type", "kind", "status", "priority",
        "tool", "function", "route", "class", "sentiment", "decision", "choice", "verdict",
        "code", "id", "key", "tag", "tags", "language", "lang", "unit", "severity", "level",
        "name", "title", "topic", "mode", "operation", "command", "target", "selection",
    }
)  # fmt: skip
# substrings of property names that ask for prose (lower case)
DESCRIPTIVE_WORDS: Final = (
    "summary", "summar", "descr", "detail", "explanation", "explain", "rationale",
    "justification", "reason", "note", "comment", "message", "body", "bio", "abstract",
    "overview", "feedback", "review", "instruction", "steps", "content", "text", "caption",
)  # fmt: skip
_VALUE_KEYWORDS: Final = ("enum", "const", "pattern", "format")
_SHORT_VALUE: Final = 64
_MIN_CHARS: Final = 12

# Cue tables: regex fragments per language, "strong" (one is enough in any field) and
# "weak" (count in value and free fields). Matched case-insensitively on the field text.
CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "strong": [
            # step-by-step narration
            r"\b(?:let['’]s|let\s+me|i['’]ll|we['’]ll|i\s+will)\s+(?:think|work|go|reason|solve"
            r"|figure|break)\w*[^.!?\n]{0,24}step[- ]by[- ]step",
            r"^\s*step[- ]by[- ]step\s*[:,]",
            r"\bthinking\s+(?:about\s+it|it\s+through|this\s+through)\b",
            r"\blet\s+me\s+(?:think|see|work\s+through|double[- ]check|re-?check|figure|reconsider"
            r"|recompute|recalculate|recall)\b",
            r"(?:^|[.!?]\s+)(?:wait|hmm+)[,.!…]",
            # first-person deliberation about the output itself
            r"\bi\s+(?:think|guess|believe)\s+(?:the\s+)?(?:right|best|correct|proper)\s+"
            r"(?:label|action|choice|option|answer|category|value|tool)\b",
            r"\bi\s+should\s+(?:pick|choose|select|use|go\s+with|return|output|answer|label)\b",
            r"\bi['’]ll\s+(?:go\s+with|pick|choose|select|label)\b",
            r"\b(?:we|i)\s+(?:need|have)\s+to\s+(?:output|pick|choose|decide|select|figure\s+out"
            r"|recall|convert|determine|map)\b",
            r"\b(?:the\s+)?(?:answer|response|reply)\s+should\s+be\b",
            # an echoed validation error (jsonschema, pydantic, zod, a retry prompt)
            r"\bis\s+a\s+required\s+property\b",
            r"\badditional\s+properties\s+are\s+not\s+allowed\b",
            r"\bis\s+not\s+one\s+of\s+\[",
            r"\bis\s+not\s+of\s+type\b",
            r"\b(?:failed|did\s+not\s+pass|didn['’]t\s+pass|fails)\s+(?:the\s+)?(?:schema\s+)?"
            r"validation\b",
            r"\b(?:previous|last|prior)\s+(?:output|response|attempt|answer)\s+(?:failed|did\s+not"
            r"|didn['’]t|was\s+(?:invalid|rejected))",
            r"\bretry(?:ing)?\s+after\s+(?:the\s+)?error\b",
            r"\bexpected\s+\w+,\s+(?:received|got)\s+\w+",
            r"\b(?:string|array)\s+must\s+contain\s+at\s+(?:least|most)\b",
            r"\bnumber\s+must\s+be\s+(?:less|greater)\s+than\b",
            r"\binvalid\s+json\b[^.!?\n]{0,40}\b(?:line|column|position|trailing|comma)\b",
            r"\bcorrected\s+(?:answer|value|json|output)\b",
            r"\bfix(?:ing|ed)?\s+the\s+(?:validation\s+|schema\s+)?error\b",
        ],
        "weak": [
            r"\b(?:probably|maybe|perhaps)\b",
            r"\bi\s+think\b",
            r"\bthe\s+user\s+(?:wants|is\s+asking|asked|said|says|mentioned|probably|means|needs)\b",
            r"\bso\s+(?:the\s+answer|that\s+means)\b",
            r"\bfirst,?\s+i\b",
            r"\bit\s+(?:seems|looks)\s+like\b",
            r"\blet['’]s\s+(?:see|check|pick|go)\b",
            r"\bi\s+(?:should|need\s+to|must)\b",
            r"\bsince\s+(?:they|the\s+user)\s+(?:said|mentioned|asked|want)",
        ],
    },
    "ko": {
        "strong": [
            r"생각해\s?보면",
            r"단계별로\s?(?:풀|생각|따져|계산|정리)",
            r"한\s?단계씩",
            r"차근차근",
            r"(?:골라야|해야|봐야|바꿔야|써야|정해야|잡아야|확인해야)겠다",
            r"(?:하자|보자|잡자|고르자|가자)[.!…]?(?:\s|$)",
            r"(?:^|[.!?]\s*)(?:음|흠|잠깐)[,.…\s]",
            r"(?:^|[.!?]\s*)좋아[,.]",
            r"스키마\s?검증",
            r"검증(?:에|을)?\s?(?:실패|통과하지)",
            r"파싱\s?실패",
            r"(?:이전|직전)\s?(?:출력|응답)(?:이|은|에서)?\s?(?:검증|오류|실패)",
            r"오류\s?(?:요약|반영)",
            r"JSON이\s?유효하지\s?않",
            r"필수\s?(?:항목|필드|속성)입니다",
        ],
        "weak": [
            r"사용자(?:가|는|의)\s",
            r"것\s?같다",
            r"(?:이|하|있)겠다",
            r"아마",
            r"(?:그러므로|따라서|그래서|그러니)\s?답은",
            r"맞(?:겠다|을\s?것)",
            r"(?:이니|니까|이므로)\s",
        ],
    },
    "zh": {
        "strong": [
            r"一步一步|一步步",
            r"让我(?:想|算|看|先)",
            r"我们先(?:算|想|看)",
            r"(?:我|我们)(?:应该|需要|得|要)(?:选|从|换|先|理解|回忆|算|想)",
            r"应该选",
            r"(?:^|[。！？\s])(?:嗯|等等|不对)[，,]",
            r"仔细想想|再算一遍|想一想",
            r"我(?:觉得|认为)应该",
            r"(?:schema|模式)\s?校验",
            r"(?:校验|验证)(?:失败|未通过|没有通过)|(?:没有|未)通过\S{0,6}校验",
            r"解析失败",
            r"(?:上一次|上一条|上次)(?:输出|回复|回答)",
            r"错误摘要|根据错误",
            r"必填(?:字段|项)",
            r"JSON\s?无效",
        ],
        "weak": [
            r"用户(?:在问|想|要|说|提到|的意思)",
            r"应该是",
            r"所以答案",
            r"可能",
            r"我觉得",
            r"好的，",
            r"那(?:就|应该)",
        ],
    },
}
# "path: message | path: message": a validator's issues joined for a retry prompt
_ISSUE_LIST = re.compile(r"^[\w.\[\]/-]{1,40}\s?[:：]\s?[^|]{1,80}\|\s?[\w.\[\]/-]{1,40}\s?[:：]")


def _compile(kind: str) -> dict[str, re.Pattern[str]]:
    return {
        lang: re.compile("|".join(f"(?:{rx})" for rx in table[kind]), re.IGNORECASE)
        for lang, table in CUES.items()
    }


# Required words: a case-insensitive cue search costs ~200 ns per character, so each table
# first looks for the words one of which every match of its cues contains (derived from the
# parsed regexes, so a new cue needs nothing more) in the lower-cased field: most fields
# hold none. Lower-casing finds every such match, except where the regex engine folds a
# character onto an ASCII letter that ``str.lower`` does not (below): such a field is
# searched as before.
_re_parser: Any = importlib.import_module("re._parser")
_re_constants: Any = importlib.import_module("re._constants")
_LITERAL: Any = _re_constants.LITERAL
_BRANCH: Any = _re_constants.BRANCH
_SUBPATTERN: Any = _re_constants.SUBPATTERN
_REPEATS: Any = (_re_constants.MAX_REPEAT, _re_constants.MIN_REPEAT)
# İ ı ſ match i / s under IGNORECASE (K U+212A matches k and lower-cases to it)
_UNFOLDED = re.compile("[\u0130\u0131\u017f]")


def _foldable(char: str) -> bool:
    """``char`` in a cue matches only characters that ``str.lower`` turns into ``char.lower()``."""
    return char.isascii() or char.lower() == char == char.upper()


def _better(best: frozenset[str] | None, other: frozenset[str]) -> frozenset[str]:
    """The word set that rules out more fields: longer shortest word, then fewer words."""
    if best is None:
        return other
    rank = (min(map(len, other)), -len(other))
    return other if rank > (min(map(len, best)), -len(best)) else best


def _words(items: Any) -> frozenset[str] | None:
    """Lower-case words one of which every match of the parsed ``items`` contains (None: unknown)."""
    best: frozenset[str] | None = None
    run = ""
    for op, av in [*items, (None, None)]:
        if op == _LITERAL and _foldable(chr(av)):
            run += chr(av).lower()
            continue
        if run:
            best = _better(best, frozenset((run,)))
            run = ""
        found: frozenset[str] | None = None
        if op == _BRANCH:
            found = _any_of([_words(branch) for branch in av[1]])
        elif op == _SUBPATTERN:
            found = _words(av[-1])
        elif op in _REPEATS and av[0] >= 1:
            found = _words(av[2])
        if found:
            best = _better(best, found)
    return best


def _any_of(sets: Sequence[frozenset[str] | None]) -> frozenset[str] | None:
    out: set[str] = set()
    for words in sets:
        if not words:
            return None
        out.update(words)
    return frozenset(out)


def _required(fragments: Sequence[str]) -> re.Pattern[str] | None:
    """A search for the words one of ``fragments`` needs (None: no precheck possible)."""
    words = _any_of([_words(_re_parser.parse(rx, re.IGNORECASE)) for rx in fragments])
    if words is None:
        return None
    return re.compile("|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)))


def _folded(text: str) -> str | None:
    """``text`` lower-cased for the required-word prechecks; None when they cannot be used."""
    if not text.isascii() and _UNFOLDED.search(text) is not None:
        return None
    return text.lower()


_STRONG = _compile("strong")
_STRONG_NEEDS = {lang: _required(table["strong"]) for lang, table in CUES.items()}
_WEAK_EACH = {
    lang: tuple(re.compile(rx, re.IGNORECASE) for rx in table["weak"])
    for lang, table in CUES.items()
}
_WEAK_NEEDS = {lang: _required(table["weak"]) for lang, table in CUES.items()}


def _absent(needs: re.Pattern[str] | None, folded: str | None) -> bool:
    """No match of the cues behind ``needs`` can be in the field ``folded`` came from."""
    return needs is not None and folded is not None and needs.search(folded) is None


def field_kind(name: str, schema: dict[str, Any] | None) -> str:
    """What a property is for: ``value``, ``descriptive`` or ``free``."""
    if schema is not None:
        if any(k in schema for k in _VALUE_KEYWORDS):
            return VALUE
        limit = schema.get("maxLength")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit <= _SHORT_VALUE:
            return VALUE
    kind = _BY_NAME.get(name)
    if kind is None:
        lowered = name.lower()
        if lowered in VALUE_NAMES:
            kind = VALUE
        elif any(word in lowered for word in DESCRIPTIVE_WORDS):
            kind = DESCRIPTIVE
        else:
            kind = FREE
        if len(_BY_NAME) < _MAX_NAMES:
            _BY_NAME[name] = kind
    return kind


# property name -> kind, remembered (schemas repeat their names across events)
_BY_NAME: dict[str, str] = {}
_MAX_NAMES: Final = 4096


def _language(text: str) -> str:
    for char in text:
        code = ord(char)
        if 0xAC00 <= code <= 0xD7A3:
            return "ko"
        if 0x4E00 <= code <= 0x9FFF:
            return "zh"
    return "en"


_EN_ONLY: Final = ("en",)


def _tables(text: str) -> tuple[str, ...]:
    """The cue tables worth trying: English always, Korean/Chinese when the script is there."""
    if text.isascii():
        return _EN_ONLY
    langs = ["en"]
    if _HANGUL.search(text) is not None:
        langs.append("ko")
    if _HAN.search(text) is not None:
        langs.append("zh")
    return tuple(langs)


_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _strong(text: str, langs: tuple[str, ...], folded: str | None) -> str | None:
    for lang in langs:
        if _absent(_STRONG_NEEDS[lang], folded):
            continue
        found = _STRONG[lang].search(text)
        if found is not None:
            return found.group().strip()[:80]
    if "|" in text and _ISSUE_LIST.search(text) is not None:
        return "validation issues"
    return None


def _weak(text: str, langs: tuple[str, ...], folded: str | None) -> list[str]:
    hits: list[str] = []
    for lang in langs:
        if _absent(_WEAK_NEEDS[lang], folded):
            continue
        for pattern in _WEAK_EACH[lang]:
            found = pattern.search(text)
            if found is not None:
                hits.append(found.group().strip())
    return hits


def _sentences(text: str) -> int:
    count, pos = 0, 0
    while count < 3:
        end = find_sentence_end(text, pos)
        if end < 0:
            return count + (1 if text[pos:].strip() else 0)
        if text[pos:end].strip():
            count += 1
        pos = end + 1
    return count


def judge(text: str, kind: str) -> str | None:
    """The cue that makes ``text`` reasoning in a field of ``kind``; None when it is not."""
    if len(text) < _MIN_CHARS or text.isspace():
        return None
    if text.isascii() and " " not in text:
        return None  # one token (an id, a snake_case value, a URL): not prose
    langs = _tables(text)
    folded = _folded(text)
    strong = _strong(text, langs, folded)
    if strong is not None:
        return strong
    if kind == DESCRIPTIVE:
        return None
    talk = self_talk(text)
    if talk is not None:
        return talk[2]
    weak = _weak(text, langs, folded)
    if kind == VALUE:
        if weak:
            return weak[0]
        if len(text) >= 40 and " " in text.strip() and _sentences(text) >= 2:
            return "prose in a value field"
        return None
    return f"{weak[0]} + {weak[1]}" if len(weak) >= 2 else None


class StructuredReasoning(DetectorBase):
    """Reasoning prose in the string fields of a structured answer (not in its slots)."""

    id = "structured_reasoning"
    version = "1"
    source = Source.HEURISTIC

    def __init__(self, reasoning_slots: Iterable[str] = ()) -> None:
        # detector configuration: property names or JSON Pointers that are reasoning slots
        self.reasoning_slots = frozenset(reasoning_slots)

    def detect(self, exchange: Exchange) -> list[Finding]:
        if exchange.response_format is None:  # most traffic: not structured, nothing to read
            return []
        parsed = answer(exchange, self.reasoning_slots)
        if parsed is None:
            return []
        text = exchange.visible_text
        out: list[Finding] = []
        for item in fields(parsed.value, parsed.schema):
            value = item.text
            if len(value) < _MIN_CHARS or (" " not in value and value.isascii()):
                continue  # too short, or one token: never prose (``judge`` says the same)
            if parsed.slots and in_slot(item.path, parsed.slots):
                continue
            kind = field_kind(item.name, item.schema)
            cue = judge(item.text, kind)
            if cue is None:
                continue
            out.append(
                self.finding(
                    Label.REASONING_LEAK,
                    layer=_layer(exchange),
                    remediation=Remediation.REGENERATE,
                    confidence=0.6 if kind == VALUE else 0.5,
                    text=text,
                    span=_span(text, item.text),
                    evidence=item.text[:160],
                    details={
                        "delimited": "structured_field",
                        "path": item.path,
                        "field_kind": kind,
                        "language": _language(item.text),
                        "cue": cue,
                    },
                )
            )
            if len(out) >= MAX_FINDINGS:
                break
        return out


def _layer(exchange: Exchange) -> Layer:
    """Reasoning pushed into the fields by a grammar that masked the thinking block is a
    configuration (API) problem; otherwise the model wrote it there."""
    return Layer.API if exchange.thinking_requested else Layer.MODEL


def _span(text: str, value: str) -> tuple[int, int] | None:
    """Where the value sits in the visible text, when it is written there unescaped."""
    probe = value[:48]
    if not probe or '"' in probe or "\\" in probe:
        return None
    at = text.find(probe)
    if at < 0:
        return None
    end = text.find(value, at) if len(value) > len(probe) else at
    return (at, at + len(value)) if end == at else (at, at + len(probe))
