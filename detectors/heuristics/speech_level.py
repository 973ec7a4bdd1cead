"""Untagged reasoning read from a change of speech level (Korean).

A Korean assistant answers its user in the polite style (-니다, -요). When a model thinks
in Korean, its notes to itself are in the plain style (-다, -겠다, -하자, -까): the
reasoning of a template whose delimiters were stripped reads "…정렬해야겠다.\\n\\n총
32개입니다." The opening block being plain *and* the next block opening polite is the
shift from talking to itself to talking to the user, whatever words the reasoning uses.

Three things keep ordinary answers out:

- the plain block must also read as planning (``LEVELS[lang].planning``: an ending of
  intent or self-questioning, a hedge, or a word about the question or the user), so a
  plain-style example sentence, translation or summary line before a polite note is not
  reasoning ("나는 어제 학교에 갔다.\\n\\n과거형으로 고쳤습니다.");
- a block of one question or exhortation with nothing else in it that plans is a title
  ("왜 그럴까?\\n\\n그 이유는…입니다");
- a prompt that asks for plain-style text (a translation, a diary, casual speech, a
  proofread) turns the check off (``LEVELS[lang].asked_for``).

One row per language that marks speech level in its sentence endings; English and
Chinese do not, so they have none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leakline.detectors.heuristics.cues import opening_block, sentences


@dataclass(frozen=True, slots=True)
class SpeechLevels:
    """How one language's sentence endings mark talking to oneself versus to the user."""

    script: str  # the opening script this row reads (``cues.Prepared.scripts``)
    plain: re.Pattern[str]  # a sentence ending of the plain (self-directed) style
    polite: re.Pattern[str]  # a sentence ending of the polite style an answer uses
    polite_endings: tuple[str, ...]  # the endings ``polite`` matches, before ``_TRAILER``
    planning: re.Pattern[str]  # plain text that plans, doubts or talks about the question
    heading: re.Pattern[str]  # a one-sentence block that reads as a title ("왜 그럴까?")
    asked_for: re.Pattern[str]  # a prompt that asks for plain-style text


_TRAILER = r"[\s.!?…~\"'”’)\]]*$"  # what may follow the last syllable of a sentence

LEVELS: dict[str, SpeechLevels] = {
    "ko": SpeechLevels(
        script="hangul",
        # -다 (not -니다), hortative -자 after a verb stem, self-question -까 (not -니까),
        # realisation -네 after a syllable ("그렇네"; a lone "네." is a polite yes)
        plain=re.compile(
            r"(?:(?<!니)다|(?<=[하보주두쓰가말넣빼찾알잡적])자|(?<!니)까|(?<=[가-힣])네)" + _TRAILER
        ),
        polite=re.compile(r"(?:니다|니까|요|죠)" + _TRAILER),
        polite_endings=("니다", "니까", "요", "죠"),
        planning=re.compile(
            r"겠다|야\s?한다|(?:하|보|주|두|쓰|가|말|넣|빼|찾|알|잡|적)자(?![가-힣])"
            r"|(?<!니)까(?![가-힣])|것\s?같다|듯하다|아마|사용자|질문|물어|묻는|답(?:은|을|이|하)"
            r"|(?:^|\s)(?:음|흠|잠깐|아니|일단|먼저|다시|결국|그럼|그러면|근데|보자)[,.\s]"
        ),
        # a question or an exhortation alone on its line: a blog-style title, "함께 알아보자!"
        heading=re.compile(r"(?:까|자|\?)[.!?…~]*\s*$"),
        asked_for=re.compile(
            r"번역|반말|해라체|일기|소설|대본|가사|시를|시 한 편|예문|문장을 (?:만들|써)"
            r"|교정|고쳐|다듬|맞춤법|요약|translat|diary",
            re.IGNORECASE,
        ),
    ),
}
_BY_SCRIPT = {row.script: lang for lang, row in LEVELS.items()}

# The plain block is short notes: at most this many sentences and characters.
_BLOCK_SENTENCES = 6
_BLOCK_CHARS = 500
# How many sentences of the next block decide its level.
_ANSWER_SENTENCES = 3


def _level(row: SpeechLevels, sentence: str) -> str:
    """ "plain" | "polite" | "" (neither: a fragment, a number, another language)."""
    if row.polite.search(sentence) is not None:
        return "polite"
    if row.plain.search(sentence) is not None:
        return "plain"
    return ""


# The characters ``_TRAILER`` allows after a sentence's last syllable (besides whitespace).
_TRAILER_CHARS = ".!?…~\"'”’)]"


def _ends_polite(row: SpeechLevels, text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends in a polite ending (``row.polite_endings``) and its
    trailer. Then its last sentence is polite, or is trailer characters alone and of no
    level: either way no shift, decided from the last few characters instead of splitting
    the block into sentences (no sentence boundary falls inside an ending)."""
    while end > start and (text[end - 1].isspace() or text[end - 1] in _TRAILER_CHARS):
        end -= 1
    return text.endswith(row.polite_endings, start, end)


def speech_level_shift(text: str, prompt: str = "") -> tuple[str, tuple[int, int]] | None:
    """(language, span of the plain block) when ``text`` opens with a plain-style block
    that plans, and the next block opens in the polite style."""
    found = opening_block(text, _BY_SCRIPT, _BLOCK_CHARS)
    if found is None:
        return None
    lang, start, brk, resume = found
    row = LEVELS[lang]
    if _ends_polite(row, text, start, brk):
        return None  # the common case: the block's last sentence answers the user
    block = sentences(text, start, brk - start, _BLOCK_SENTENCES + 1)
    if not block or len(block) > _BLOCK_SENTENCES:
        return None
    if len(block) == 1:
        title = row.heading.search(text, *block[0])
        if title is not None and row.planning.search(text, start, title.start()) is None:
            return None  # one question or exhortation and nothing else that plans: a title
    levels = [_level(row, text[lo:hi]) for lo, hi in block]
    if "polite" in levels or levels[-1] != "plain" or 2 * levels.count("plain") < len(levels):
        return None
    if not text[resume : resume + 1].isalnum():
        return None  # a token ("</think>"), markup or a list: the delimited rules' business
    answer = sentences(text, resume, _BLOCK_CHARS, _ANSWER_SENTENCES)
    after = [_level(row, text[lo:hi]) for lo, hi in answer]
    if "polite" not in after or "plain" in after:
        return None
    if row.planning.search(text, start, brk) is None:
        return None  # plain statements, not notes to itself
    if prompt and row.asked_for.search(prompt) is not None:
        return None  # the user asked for plain-style text
    return lang, (start, block[-1][1])
