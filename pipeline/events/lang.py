"""A script-based language guess for exported samples (en / ko / zh / ja / other).

Good enough to split training data by language: Hangul means Korean, kana means
Japanese, Han without kana means Chinese, mostly ASCII letters means English.
"""

from __future__ import annotations

LANGS = ("en", "ko", "zh", "ja", "other")


def guess_lang(text: str, limit: int = 400) -> str:
    hangul = kana = han = latin = 0
    for ch in text[:limit]:
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            hangul += 1
        elif 0x3040 <= code <= 0x30FF:
            kana += 1
        elif 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
            han += 1
        elif ch.isascii() and ch.isalpha():
            latin += 1
    # CJK characters carry more per character than Latin letters; weigh them up
    scores = {"ko": hangul * 3, "ja": kana * 3 + (han if kana else 0), "zh": 0 if kana else han * 3}
    best = max(scores, key=lambda k: scores[k])
    if scores[best] and scores[best] >= latin * 0.5:
        return best
    if latin:
        return "en"
    return "other"
