"""Redaction of stored text: e-mail, phones, API keys, tokens, cards, national ids, IBANs, keys.

Everything leakline writes (Parquet rows) or publishes (``leak.samples``) passes
through a ``Redactor`` first. The rules are a data table (``RULES``): a name, a
placeholder and scans; a scan is a compiled pattern, an optional validator (Luhn
for cards, digit counts for phones) and where in a text the pattern can match,
so the regex engine only starts where a match is possible. All rules are on
by default; ``Redactor.raw()`` is the explicit opt-in to store text unredacted.

Finding spans point into the visible text, so ``Redacted`` keeps the edits it
made and ``remap_span`` moves a span onto the redacted text: characters outside
redacted regions keep pointing at the same characters, and a span that touches a
redacted region grows to cover that region's placeholder.

Every pattern runs in linear time: a fixed-width look-behind or a literal first
character anchors each attempt, repeats are over disjoint character classes, and
optional separators of phone and card numbers are followed by a mandatory digit,
so no input makes a pattern backtrack more than a bounded number of steps per
position (``tests/pipeline/test_redact.py`` times 1 MB adversarial strings).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding, evidence_snippet
from leakline.pipeline.events.memo import remember

__all__ = [
    "DEFAULT_RULES",
    "RULES",
    "SECRET_PLACEHOLDER",
    "Edit",
    "Finds",
    "Needs",
    "Redacted",
    "Redactor",
    "Rule",
    "SafeText",
    "Scan",
    "UnknownRuleError",
    "json_safe",
    "label_ok",
    "luhn_ok",
    "redact_exchange",
    "redact_findings",
    "safe_id",
    "safe_label",
    "safe_reason",
    "secret_name",
]

# ------------------------------------------------------------------ validators


def luhn_ok(digits: str) -> bool:
    """The Luhn checksum of a string of decimal digits (any Unicode decimal digits)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_NON_DIGIT = re.compile(r"\D+")


def _card_ok(match: str) -> bool:
    """13-19 digits, an issuer prefix 2-6, the Luhn check, and digit groups of 3+ between
    separators of any mix (``4111 1111-1111.1111``: a hand-typed number mixes them; the
    Luhn check, 1 in 10 of random digits, keeps ordinary numbers out)."""
    digits = _NON_DIGIT.sub("", match)
    if not 13 <= len(digits) <= 19 or digits[0] not in "23456":
        return False
    groups = [g for g in _NON_DIGIT.split(match) if g]
    if len(groups) > 1 and min(len(g) for g in groups) < 3:
        return False
    return luhn_ok(digits)


def _phone_ok(match: str) -> bool:
    return 7 <= sum(ch.isdigit() for ch in match) <= 15


def _has_digit(match: str) -> bool:
    return any(ch.isdigit() for ch in match)


def _key_ok(match: str) -> bool:
    """Provider keys are random: a letter and a digit somewhere (``sk-learn-...`` is not a key)."""
    return _has_digit(match) and any(ch.isalpha() for ch in match)


def _assigned_secret_ok(value: str) -> bool:
    """``password: ...`` values: a digit in it, or long enough not to be a prose word."""
    return _has_digit(value) or len(value) >= 20


# ------------------------------------------------------------------ rules


# in a ``Needs`` class: every non-ASCII character (a ``\d`` also matches other scripts' digits)
_ANY_NON_ASCII = "\x80"
# the characters that Python's ``re`` matches to an ASCII letter under IGNORECASE
# (dotted and dotless i, long s, Kelvin sign): a text with one gets no gate for ``(?i)`` scans
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
_NEEDS_KEYS: dict[tuple[bytes, bytes], int] = {}


class Needs:
    """A necessary condition for a scan to match: the characters of ``pattern`` in a row,
    each standing for its class in ``classes``, once the ``skip`` characters are left out.

    It is tested on the text encoded as ASCII with every other character as ``?`` (one
    byte per character, so offsets stay the same), translated to class marks with one
    ``bytes.translate`` shared by every ``Needs`` with the same classes and skip, and
    one ``in``: far cheaper than running the scan. A scan whose ``Needs`` fails cannot
    match; one whose ``Needs`` holds runs as before. Classes are disjoint sets of ASCII
    characters; ``_ANY_NON_ASCII`` in a class adds every other character (and ``?``).
    With ``within``, a scan with ``starts`` also looks for them only inside the stretches.
    """

    __slots__ = ("key", "needle", "skip", "table", "within")

    def __init__(
        self, pattern: str, classes: Mapping[str, str], skip: str = "", within: bool = False
    ) -> None:
        table = bytearray(256)  # 0: in no class
        for mark, chars in classes.items():
            for ch in chars:
                code = ord("?" if ch == _ANY_NON_ASCII else ch)
                if code >= 0x80 or table[code]:
                    raise ValueError(f"classes must be ASCII and disjoint: {ch!r}")
                table[code] = ord(mark)
        self.table = bytes(table)
        self.skip = skip.encode("ascii")
        self.needle = pattern.encode("ascii")
        self.key = _NEEDS_KEYS.setdefault((self.table, self.skip), len(_NEEDS_KEYS))
        if within and (len(classes) != 1 or skip or _ANY_NON_ASCII in "".join(classes.values())):
            raise ValueError("within: one class of ASCII characters, none skipped")
        # ``within``: every match is made of these characters only, so it lies inside a
        # stretch of them that holds the pattern (``_Where.stretches``)
        self.within = within

    def __repr__(self) -> str:
        return f"Needs({self.needle.decode()!r}, skip={self.skip.decode()!r})"


@dataclass(frozen=True, slots=True)
class Finds:
    """A necessary condition for a scan to match: ``pattern`` finds a match in the text,
    which then holds one of ``chars`` (tested first: a character search is far cheaper)."""

    chars: str
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class Scan:
    """One pattern of a rule, and where in a text it can match.

    Python's regex engine pays per character it tries to start a match at, so a
    scan says where its matches can be and only those places are tried:

    - ``starts``: a match begins at one of these literals (``fold``: ignoring case);
    - ``anchor``: a match contains this literal, at most ``reach`` characters away;
    - ``min_digits``: a match lies inside a run of digits and ``+ ( ) . -`` and spaces
      holding at least this many digits (phone and card numbers), and containing
      ``lead`` when that is set;
    - none of these: the whole text is scanned.

    ``needs`` (``Needs`` or ``Finds``) is a cheaper test that every match passes: when a
    text fails it, the scan is skipped.

    Look-behinds see the text before a window, and windows end two characters past
    a run so look-aheads do too: a scan finds exactly what a whole-text scan finds.

    When ``pattern`` has a named group ``secret`` that took part in a match, only that
    group is replaced (``api_key=`` stays, the value goes). ``validator`` sees the text
    to be replaced and can veto it (Luhn for cards, digit counts for phones).
    """

    pattern: re.Pattern[str]
    validator: Callable[[str], bool] | None = None
    starts: tuple[str, ...] = ()
    fold: bool = False
    anchor: str | None = None
    reach: int = 0
    min_digits: int = 0
    lead: str = ""
    needs: Needs | Finds | None = None
    # sees the whole match when the validator's text is not enough (a member's name)
    accept: Callable[[re.Match[str]], bool] | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """One kind of secret: its scans, and the placeholder that replaces a match."""

    name: str
    placeholder: str
    scans: tuple[Scan, ...]
    description: str = ""


# Characters that may not directly precede a phone or card number: letters,
# digits, and the joiners of versions, ids and paths ("v1.2", "ORD-", "/", "#").
_NUM_BEFORE = r"[0-9A-Za-z_+\-./\\#]"
# ... and what may not follow one: another digit or letter, or a joiner plus digit.
_NUM_AFTER = r"(?![0-9A-Za-z_]|[.\-/]\d)"
# Runs of the characters phone and card patterns consume, holding at least 6 digits
# after their first character (separator and digit classes are disjoint, so each
# attempt is linear; the leading class lets the engine skip to candidates).
_NUMBERISH = re.compile(r"[+(0-9](?:[ .\-()+]*[0-9]){6}[0-9 .\-()+]*")

# character classes of the ``Needs`` of the scans below
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"
_ALNUM = _UPPER + _UPPER.lower() + _DIGITS
# the characters of phone and card numbers (``_NUMBERISH``), and their digits
_NUMBER_VIEW = Needs("n", {"n": _DIGITS + " .-()+"})
_DIGIT_VIEW = Needs("d", {"d": _DIGITS})
# base64 (AWS secrets)
_B64_CLASSES = {"b": _ALNUM + "/+"}
# token characters after a space (bearer and authorization values, JWTs)
_TOKEN_CLASSES = {"s": " \t", "t": _ALNUM + "-._~+/"}


def _num(first: str, rest: str, before: str = _NUM_BEFORE) -> re.Pattern[str]:
    """A number pattern (ASCII digits) that starts with its first character, so the engine
    skips ahead to candidates, and checks the character before it right after."""
    return re.compile(f"{first}(?<!{before}.){rest}{_NUM_AFTER}", re.ASCII)


def _phone(first: str, rest: str, digits: int, before: str = _NUM_BEFORE, lead: str = "") -> Scan:
    """A phone format; ``digits`` is the fewest digits it can match. A format that starts
    with one literal digit only looks at runs holding that digit (not ``1793491219``
    for a ``0``-led format)."""
    if not lead and first.isdigit():
        lead = first
    return Scan(_num(first, rest, before), _phone_ok, min_digits=digits, lead=lead)


_PHONE_SCANS = (
    # international with separators: +82 10-1234-5678, +1 (415) 555-0132, +86 138 0013 8000
    _phone(
        r"\+",
        r"[1-9]\d{0,3}(?:[ .\-]?\(\d{1,4}\))?(?:[ .\-]\d{1,5}){1,5}",
        7,
        r"[0-9A-Za-z_+]",
        "+",
    ),
    # international without separators: +821012345678
    _phone(r"\+", r"[1-9]\d{6,14}", 7, r"[0-9A-Za-z_+]", "+"),
    # KR / CN trunk-prefixed, one kind of separator: 010-1234-5678, 02-123-4567, 021 6888 8888
    _phone("0", r"\d{1,3}([ .\-])\d{3,4}\1\d{4}", 9),
    # CN landline: 010-12345678, 0755-1234567
    _phone("0", r"\d{2,3}-\d{7,8}", 10),
    # trunk prefix in parentheses: (02) 123-4567, (031)123-4567
    _phone(r"\(", r"0\d{1,3}\) ?\d{3,4}[ .\-]\d{4}", 9, r"[0-9A-Za-z_]", "("),
    # KR mobile without separators: 01012345678
    _phone("0", r"1[016789]\d{7,8}", 10),
    # CN mobile: 138 0013 8000, 138-0013-8000, 13800138000
    _phone("1", r"[3-9]\d([ \-]?)\d{4}\1\d{4}", 11),
    # NANP: 415-555-0132, 415.555.0132, 415 555 0132, 1-800-555-0199
    _phone("[1-9]", r"(?:(?<=1)[ .\-][2-9]\d{2}|(?<=[2-9])\d{2})([ .\-])[2-9]\d{2}\1\d{4}", 10),
    # NANP with the area code in parentheses: (415) 555-0132
    _phone(r"\(", r"[2-9]\d{2}\) ?[2-9]\d{2}[ .\-]\d{4}", 10, r"[0-9A-Za-z_]", "("),
)

# up to three separators between digits, of any mix ("4111 - 1111.1111 1111")
_CARD_SCANS = (Scan(_num(r"[2-6]", r"(?:[ .\-]{0,3}\d){12,18}"), _card_ok, min_digits=13),)


def _has_classes(value: str) -> bool:
    return (
        any(ch.isdigit() for ch in value)
        and any(ch.isupper() for ch in value)
        and any(ch.islower() for ch in value)
    )


def _aws_secret_ok(value: str) -> bool:
    """40 characters of base64 mixing upper case, lower case and digits (a git sha or a
    word is not); on its own it also needs a ``/`` or ``+``, or 4+ digits, like a random key."""
    return len(value) == 40 and _has_classes(value)


def _bare_aws_secret_ok(value: str) -> bool:
    return _aws_secret_ok(value) and (
        "/" in value or "+" in value or sum(ch.isdigit() for ch in value) >= 4
    )


_AWS_SECRET_SCANS = (
    # named: aws_secret_access_key = ..., "SecretAccessKey": "...", AWS_SECRET_KEY=...
    Scan(
        re.compile(
            r"(?i)(?<![A-Za-z0-9])(?:aws_?)?secret_?(?:access_?)?key[\"']?[ \t]{0,3}[:=][ \t]{0,3}"
            r"[\"']?(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        _aws_secret_ok,
        starts=("aws", "secret"),
        fold=True,
        needs=Needs("b" * 40, _B64_CLASSES),
    ),
    # bare: exactly 40 base64 characters between non-base64 characters
    Scan(
        re.compile(r"[A-Za-z0-9/+](?<![A-Za-z0-9/+=_\-.].)[A-Za-z0-9/+]{39}(?![A-Za-z0-9/+=_\-])"),
        _bare_aws_secret_ok,
        needs=Needs("b" * 40, _B64_CLASSES),
    ),
)


# dashes other than the ASCII hyphen: hyphen, non-breaking hyphen, figure dash, en dash,
# em dash, minus sign, small and full-width hyphen-minus
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"


def _valid_yymmdd(digits: str) -> bool:
    month, day = int(digits[2:4]), int(digits[4:6])
    return 1 <= month <= 12 and 1 <= day <= 31


_RRN_WEIGHTS = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)


def _kr_rrn_check(digits: str) -> bool:
    """The check digit numbers issued before October 2020 carry."""
    total = sum(int(d) * w for d, w in zip(digits, _RRN_WEIGHTS, strict=False))
    return (11 - total % 11) % 10 == int(digits[12])


def _kr_rrn_ok(match: str) -> bool:
    """YYMMDD-GNNNNNN: a real month and day, and a gender/century digit 1-8. With a
    separator (hyphen, space, any dash) the check digit is not tested: numbers issued since
    October 2020 no longer have one. Thirteen bare digits also need the check digit: a
    millisecond timestamp or a barcode can look like a date and a gender digit, and only
    1 in 10 of those passes it (newer numbers written without a separator are missed)."""
    digits = _NON_DIGIT.sub("", match)
    if len(digits) != 13 or not _valid_yymmdd(digits) or digits[6] not in "12345678":
        return False
    return len(match) > 13 or _kr_rrn_check(digits)


def _us_ssn_ok(match: str) -> bool:
    """AAA-GG-SSSS with the ranges the SSA never issues excluded (000, 666, 9xx; 00; 0000)."""
    area, group, serial = match.split(match[3])
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


_NATIONAL_ID_SCANS = (
    # Korean resident registration number: 900101-1234567, 900101 1234567, 9001011234567
    Scan(_num(r"\d", r"\d{5}[ \-]?\d{7}"), _kr_rrn_ok, min_digits=13),
    # ... with a full-width hyphen or another dash (typed in a Korean IME): 900101－1234567
    Scan(
        re.compile(f"\\d(?<!{_NUM_BEFORE}.)\\d{{5}} ?[{_DASHES}] ?\\d{{7}}{_NUM_AFTER}", re.ASCII),
        _kr_rrn_ok,
        needs=Finds(_DASHES, re.compile(f"\\d{{6}} ?[{_DASHES}]", re.ASCII)),
    ),
    # US social security number: 123-45-6789 (dashes or spaces, one kind)
    Scan(_num(r"\d", r"\d{2}([ \-])\d{2}\1\d{4}"), _us_ssn_ok, min_digits=9),
)

# IBAN lengths per country (ISO 13616 registry, the common ones); others: 15-34
_IBAN_LENGTHS = {
    "AD": 24, "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22,
    "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27, "HR": 21,
    "HU": 28, "IE": 22, "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
    "MC": 27, "MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SA": 24,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26, "AE": 23, "IL": 23, "BR": 29,
}  # fmt: skip


def iban_ok(match: str) -> bool:
    """The ISO 13616 mod-97 check (and the country's length, when known)."""
    iban = match.replace(" ", "").upper()
    if not 15 <= len(iban) <= 34:
        return False
    if _IBAN_LENGTHS.get(iban[:2], len(iban)) != len(iban):
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


_IBAN_SCANS = (
    # compact (DE89370400440532013000) or printed in groups of four (DE89 3704 0044 ...)
    Scan(
        re.compile(
            r"[A-Z](?<![A-Za-z0-9].)[A-Z]\d{2}"
            r"(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![A-Za-z0-9])"
        ),
        iban_ok,
        needs=Needs("AAdd", {"A": _UPPER, "d": _DIGITS + _ANY_NON_ASCII}),
    ),
)


def _key_body_ok(match: str) -> bool:
    """A header with a key after it: 40+ base64 characters (prose that names the header is not)."""
    body = match.split("-----", 2)[-1].replace("\\n", "")
    return sum(ch.isalnum() or ch in "+/" for ch in body) >= 40


_PRIVATE_KEY_SCANS = (
    # a PEM/OpenSSH/PGP private key block; without its END line (a cut text) up to 16k chars
    Scan(
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:(?!-----END )[\s\S]){0,16384}"
            r"(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?"
        ),
        _key_body_ok,
        starts=("-----BEGIN ",),
    ),
)

_EMAIL_SCANS = (
    Scan(
        re.compile(
            r"[A-Za-z0-9._%+\-](?<![A-Za-z0-9._%+\-].)[A-Za-z0-9._%+\-]*"
            r"@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}"
        ),
        # local parts are at most 64 characters (RFC 5321), domains at most 253
        anchor="@",
        reach=256,
    ),
)

# every provider key starts with one of these (fewer, shorter needles: fewer passes)
_PROVIDER_PREFIXES = (
    "sk",  # OpenAI sk-..., sk-proj-..., Anthropic sk-ant-..., Stripe sk_live_...
    "rk_",  # Stripe restricted
    "AKIA",  # AWS access key ids
    "ASIA",
    "ABIA",
    "ACCA",
    "AIza",  # Google
    "gh",  # GitHub ghp_ gho_ ghu_ ghs_ ghr_ github_pat_
    "xox",  # Slack
    "hf_",  # Hugging Face
    "glpat-",  # GitLab
)
_ASSIGNED_NAMES = (
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "refresh",
    "client",
    "pass",
    "pwd",
    "token",
    "비밀번호",
    "密码",
    "密钥",
    "口令",
)

_PROVIDER_KEYS = (
    r"(?:sk-[A-Za-z0-9_\-]{20,}"
    r"|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"
    r"|(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}"
    r"|AIza[0-9A-Za-z_\-]{35}"
    r"|hf_[A-Za-z0-9]{30,}"
    r"|glpat-[A-Za-z0-9_\-]{20,}"
    r")(?![A-Za-z0-9_\-])"
)
# every key is 15+ of these characters (the shortest: xoxb- and 10 more)
_KEY_NEEDS = Needs("k" * 15, {"k": _ALNUM + "_-"}, within=True)


def _glued_key_ok(match: str) -> bool:
    """A key glued to the word before it (``mykeysk-proj-...``, ``tokenghp_...``): only
    the key part is replaced, and it must look random, mixing letters and digits in its
    body, AWS-style upper case and digits included (``risk-assessment-framework-2024`` is
    ``sk-assessment-...`` after ``ri``, and is not a key: no upper case)."""
    body = match[4:]
    if not any(ch.isdigit() for ch in body):
        return False
    return match[:4] in ("AKIA", "ASIA", "ABIA", "ACCA") or _has_classes(body)


_API_KEY_SCANS = (
    Scan(
        re.compile(r"(?<![A-Za-z0-9_\-])" + _PROVIDER_KEYS),
        _key_ok,
        starts=_PROVIDER_PREFIXES,
        needs=_KEY_NEEDS,
    ),
    # glued to a preceding word or identifier ("apikeysk-...", "token=Xghp_..."); the
    # look-behind of the scan above refuses these
    Scan(
        re.compile(r"(?<=[A-Za-z0-9_\-])" + _PROVIDER_KEYS),
        _glued_key_ok,
        starts=_PROVIDER_PREFIXES,
        needs=_KEY_NEEDS,
    ),
    # key = value, "api_key": "value", OPENAI_API_KEY=value, 비밀번호: value, 密码：value
    Scan(
        re.compile(
            # long names may be glued to a word before them (dbpassword=, myapikey=)
            r"(?i)(?:(?:api[_\-]?key|access[_\-]?key|secret[_\-]?key|private[_\-]?key"
            r"|access[_\-]?token|auth[_\-]?token|refresh[_\-]?token|client[_\-]?secret"
            r"|password|passwd)"
            # short ones only as words ("bypass", "tokens")
            r"|(?<![A-Za-z0-9])(?:api key|pwd|secret|token|api ?키)"
            # CJK text has no spaces: these names may follow anything
            r"|비밀번호|密码|密钥|口令)"
            r"[\"']?[ \t]{0,3}[:=：][ \t]{0,3}[\"']?"
            # ASCII only: a Korean particle or CJK comma right after the value ends it
            r"(?P<secret>[A-Za-z0-9_\-.+/=~!@#$%^&*?:|\\]{8,})"
        ),
        _assigned_secret_ok,
        starts=_ASSIGNED_NAMES,
        fold=True,
        # the separator and the value: far rarer than the names ("token", "pass")
        needs=Finds(
            ":=：", re.compile(r"[:=：][ \t]{0,3}[\"']?[A-Za-z0-9_\-.+/=~!@#$%^&*?:|\\]{8}")
        ),
    ),
)

# Member names that say secret, compared once lower-cased and without ``_ - . `` and
# spaces: the whole name, or its end (``openai_api_key``, ``DB_PASSWORD``,
# ``x-goog-api-key``). ``token``, ``pass`` and ``pin`` are not secret names here: a
# finding's ``token`` is the delimiter it saw (``</think>``), and an LLM request counts
# tokens; ``access_token`` and the like are (their ends below).
SECRET_NAMES = frozenset(
    {
        "pwd", "passphrase", "cookie", "setcookie", "authorization",
        "proxyauthorization", "credential", "credentials", "xapikey", "apikey", "secret",
        "비밀번호", "密码", "密钥", "口令",
    }
)  # fmt: skip
SECRET_NAME_ENDS = (
    "password", "passwd", "secret", "apikey", "accesskey", "secretkey", "privatekey",
    "accesstoken", "refreshtoken", "authtoken", "idtoken", "sessiontoken", "apitoken",
    "bearertoken", "csrftoken", "authkey", "signingkey", "encryptionkey", "clientsecret",
)  # fmt: skip
_NAME_JOINERS = str.maketrans("", "", "_-. ")
SECRET_PLACEHOLDER = "[REDACTED]"


def secret_name(name: str) -> bool:
    """Whether a member name says its value is a secret (the value is replaced whole)."""
    if len(name) > 64:
        return False
    key = name.lower().translate(_NAME_JOINERS)
    return key in SECRET_NAMES or key.endswith(SECRET_NAME_ENDS)


def _member_ok(m: re.Match[str]) -> bool:
    """A quoted member whose name says secret, with a value that is not blank."""
    return secret_name(m.group("name")) and bool(m.group("secret").strip())


# a quoted member in JSON or a Python literal: "name": "value" / 'name': 'value'
_MEMBER = re.compile(
    r"[\"'](?P<name>[^\"'\n\\]{1,64})[\"'][ \t]{0,3}:[ \t]{0,3}"
    r"[\"'](?P<secret>(?:[^\"'\n\\]|\\.){0,1024})[\"']"
)

_MEMBER_SCANS = (
    Scan(
        _MEMBER,
        accept=_member_ok,
        needs=Finds("\"'", re.compile(r"[\"'][ \t]{0,3}:[ \t]{0,3}[\"']")),
    ),
)

_BEARER_SCANS = (
    Scan(
        re.compile(r"(?i)(?<![A-Za-z])bearer[ \t]+(?P<secret>[A-Za-z0-9\-._~+/]{16,}=*)"),
        _assigned_secret_ok,
        starts=("bearer",),
        fold=True,
        needs=Needs("s" + "t" * 16, _TOKEN_CLASSES),
    ),
    Scan(
        re.compile(
            r"(?i)(?<![A-Za-z])authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
            r"(?:basic|token|digest)[ \t]+(?P<secret>[A-Za-z0-9\-._~+/]{12,}=*)"
        ),
        starts=("authorization",),
        fold=True,
        needs=Needs("s" + "t" * 12, _TOKEN_CLASSES),
    ),
    # a JWT anywhere: header.payload[.signature], both base64url-encoded JSON objects
    Scan(
        re.compile(
            r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.?[A-Za-z0-9_\-]*"
        ),
        starts=("eyJ",),
        needs=Needs("t" * 17, _TOKEN_CLASSES),
    ),
)


RULES: dict[str, Rule] = {
    rule.name: rule
    for rule in (
        Rule(
            "email",
            "[EMAIL]",
            _EMAIL_SCANS,
            "e-mail addresses (ASCII local part and domain)",
        ),
        Rule(
            "phone",
            "[PHONE]",
            _PHONE_SCANS,
            "phone numbers with 7-15 digits: +CC international, KR/CN trunk-prefixed "
            "(010-1234-5678), CN mobile (138 0013 8000), NANP ((415) 555-0132)",
        ),
        Rule(
            "api_key",
            "[API_KEY]",
            _API_KEY_SCANS + _MEMBER_SCANS,
            "provider keys (sk-, sk-ant-, AKIA, ghp_, xoxb-, AIza, hf_, glpat-) and the "
            "values of api_key= / token: / password: / 비밀번호: / 密码: assignments, and "
            'whole values of quoted members named so ("x-api-key": "...")',
        ),
        Rule(
            "bearer",
            "[BEARER]",
            _BEARER_SCANS,
            "Bearer tokens, Authorization: Basic/Token credentials, JWTs",
        ),
        Rule(
            "card",
            "[CARD]",
            _CARD_SCANS,
            "payment card numbers: 13-19 digits, issuer digit 2-6, Luhn, uniform separators",
        ),
        Rule(
            "aws_secret",
            "[AWS_SECRET]",
            _AWS_SECRET_SCANS,
            "AWS secret access keys: 40 base64 characters mixing cases and digits, named "
            "(aws_secret_access_key=, SecretAccessKey:) or bare",
        ),
        Rule(
            "national_id",
            "[NATIONAL_ID]",
            _NATIONAL_ID_SCANS,
            "Korean resident registration numbers (900101-1234567, a real date) and US "
            "social security numbers (123-45-6789, issued ranges only)",
        ),
        Rule("iban", "[IBAN]", _IBAN_SCANS, "IBANs, compact or in groups of four, mod-97 check"),
        Rule(
            "private_key",
            "[PRIVATE_KEY]",
            _PRIVATE_KEY_SCANS,
            "-----BEGIN ... PRIVATE KEY----- blocks (PEM, OpenSSH, PGP), also when cut short",
        ),
    )
}
DEFAULT_RULES: tuple[str, ...] = tuple(RULES)


class UnknownRuleError(ValueError):
    def __init__(self, names: Iterable[str]) -> None:
        unknown = ", ".join(sorted(names))
        super().__init__(
            f"unknown redaction rule(s): {unknown}; known rules: {', '.join(RULES)}"
            " ('default' for all of them; 'raw' alone stores text unredacted)"
        )


# ------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class Edit:
    """``original[start:end]`` became ``redacted[new_start:new_end]`` (a placeholder)."""

    start: int
    end: int
    new_start: int
    new_end: int
    rule: str


@dataclass(frozen=True, slots=True)
class Redacted:
    """A redacted text, the edits that made it, and the way back to original offsets."""

    text: str
    edits: tuple[Edit, ...] = ()
    # the original is kept for re-deriving evidence; never printed
    source: str = field(default="", repr=False)
    redactor: Redactor | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> bool:
        return bool(self.edits)

    def counts(self) -> dict[str, int]:
        """Redactions per rule name."""
        return dict(Counter(e.rule for e in self.edits))

    def map_start(self, pos: int) -> int:
        """Where an original start offset lands; inside a redacted region: its placeholder start."""
        edits = self.edits
        if not edits:
            return pos
        i = bisect_right(_starts(edits), pos) - 1
        if i < 0:
            return pos
        edit = edits[i]
        if pos < edit.end:
            return edit.new_start
        return pos + edit.new_end - edit.end

    def map_end(self, pos: int) -> int:
        """Where an original end offset lands; inside a redacted region: its placeholder end."""
        edits = self.edits
        if not edits:
            return pos
        i = bisect_left(_starts(edits), pos) - 1
        if i < 0:
            return pos
        edit = edits[i]
        if pos <= edit.end:
            return edit.new_end
        return pos + edit.new_end - edit.end

    def map_back_start(self, pos: int) -> int:
        """Where a redacted-text start offset came from; inside a placeholder: its region start."""
        edits = self.edits
        i = bisect_right([e.new_start for e in edits], pos) - 1
        if i < 0:
            return pos
        edit = edits[i]
        if pos < edit.new_end:
            return edit.start
        return pos - edit.new_end + edit.end

    def map_back_end(self, pos: int) -> int:
        """Where a redacted-text end offset came from; inside a placeholder: its region end."""
        edits = self.edits
        i = bisect_left([e.new_start for e in edits], pos) - 1
        if i < 0:
            return pos
        edit = edits[i]
        if pos <= edit.new_end:
            return edit.end
        return pos - edit.new_end + edit.end

    def remap_span(self, span: tuple[int, int]) -> tuple[int, int]:
        """A half-open span of the original text, moved onto the redacted text.

        Characters outside redacted regions keep pointing at the same characters;
        a span that starts or ends inside a redacted region grows to cover its
        placeholder, so it never points into the middle of one.
        """
        start, end = span
        new_start, new_end = self.map_start(start), self.map_end(end)
        return new_start, max(new_start, new_end)


def _starts(edits: tuple[Edit, ...]) -> list[int]:
    return [e.start for e in edits]


@dataclass(frozen=True, slots=True)
class SafeText:
    """What may be stored or published for one exchange: redacted text and findings."""

    visible_text: str
    reasoning_text: str
    findings: tuple[Finding, ...]
    redactions: dict[str, int] = field(default_factory=dict)


# ------------------------------------------------------------------ the redactor


_MAX_PASSES = 4
_MEMO_MAX_LEN = 256
_MEMO_ENTRIES = 4096
_ELLIPSIS = "…"
# the token or digit run right before a trailing / after a leading ellipsis
_CUT_TOKEN_END = re.compile(r"(?:[+(0-9][0-9 .\-()+]*[0-9]|\S+)…\Z")
_CUT_TOKEN_START = re.compile(r"\A…(?:[0-9][0-9 .\-()+]*[0-9]|\S{1,256})")
_KEYISH = re.compile(r"(?:sk-|sk_|rk_|AKIA|ASIA|gh[pousr]_|github_pat_|xox|AIza|hf_|glpat-|eyJ)")
_CUT_PLACEHOLDER = "[REDACTED]"
_CUT_REACH = 256
MAX_DETAIL_DEPTH = 64
_TOO_DEEP = "[nested too deep]"


def _looks_cut_secret(token: str) -> bool:
    """A token cut by an ellipsis that may be the visible part of a longer secret."""
    return "@" in token or sum(ch.isdigit() for ch in token) >= 4 or bool(_KEYISH.search(token))


class _Where:
    """Candidate places in one text, computed once and shared by all scans."""

    __slots__ = ("text", "fewest", "_lower", "_numeric", "_ascii", "_views", "_folds")

    def __init__(self, text: str, fewest: int = 1) -> None:
        self.text = text
        self.fewest = fewest  # the fewest digits a number scan needs
        self._lower: str | None | bool = False  # False: not computed; None: unusable
        self._numeric: list[tuple[int, int, int, str]] | None = None
        self._ascii: bytes | None = None
        self._views: dict[int, bytes] = {}
        self._folds: bool | None = None

    def lower(self) -> str | None:
        """The lower-cased text, or None when lower-casing changed its length."""
        if self._lower is False:
            lowered = self.text.lower()
            self._lower = lowered if len(lowered) == len(self.text) else None
        return self._lower if isinstance(self._lower, str) else None

    def view(self, needs: Needs) -> bytes:
        """The text as ``needs``' class marks, one byte per character (unless skipped)."""
        view = self._views.get(needs.key)
        if view is None:
            if self._ascii is None:
                self._ascii = self.text.encode("ascii", "replace")
            view = self._views[needs.key] = self._ascii.translate(needs.table, needs.skip)
        return view

    def has(self, needs: Needs | Finds, folded: bool) -> bool:
        """Whether the text passes a scan's ``needs`` (``folded``: the scan ignores case)."""
        if folded:
            if self._folds is None:
                text = self.text
                self._folds = not text.isascii() and any(ch in text for ch in _FOLDS_TO_ASCII)
            if self._folds:
                return True  # an ASCII class of a (?i) pattern also takes these characters
        if isinstance(needs, Finds):
            text = self.text
            return any(ch in text for ch in needs.chars) and needs.pattern.search(text) is not None
        return needs.needle in self.view(needs)

    def stretches(self, needs: Needs) -> list[tuple[int, int]]:
        """The maximal stretches of the text that hold ``needs`` (of one class)."""
        view, needle = self.view(needs), needs.needle
        found: list[tuple[int, int]] = []
        at = view.find(needle)
        while at >= 0:
            lo = view.rfind(b"\x00", 0, at) + 1
            hi = view.find(b"\x00", at + len(needle))
            hi = len(view) if hi < 0 else hi
            found.append((lo, hi))
            at = view.find(needle, hi)
        return found

    def numeric(self) -> list[tuple[int, int, int, str]]:
        """(start, end + 2, digits, run) of every run of digits and phone/card separators
        that may hold a phone or card number, in stretches of such characters that hold
        ``fewest`` digits (each scan looks at runs with at least its ``min_digits``)."""
        if self._numeric is None:
            fewest = max(1, self.fewest)
            text, size = self.text, len(self.text)
            view = self.view(_NUMBER_VIEW)
            runs: list[tuple[int, int, int, str]] = []
            # A run lies inside one stretch of number characters, and holds ``fewest``
            # digits only in a stretch at least that long with that many digits: finding
            # those stretches takes substring searches of views, and scanning just them
            # finds the same runs there as scanning the whole text.
            enough = b"n" * fewest
            at = view.find(enough)
            digits = self.view(_DIGIT_VIEW) if at >= 0 else b""
            while at >= 0:
                lo = view.rfind(b"\x00", 0, at) + 1
                hi = view.find(b"\x00", at + fewest)
                hi = size if hi < 0 else hi
                if digits.count(b"d", lo, hi) >= fewest:
                    for m in _NUMBERISH.finditer(text, lo, hi):
                        run = m.group()
                        runs.append(
                            (m.start(), min(size, m.end() + 2), sum(map(str.isdigit, run)), run)
                        )
                at = view.find(enough, hi)
            self._numeric = runs
        return self._numeric

    def matches(self, scan: Scan) -> list[re.Match[str]]:
        text, pattern = self.text, scan.pattern
        if scan.min_digits:
            runs = self.numeric()
            if not runs:
                return []
            lead, need = scan.lead, scan.min_digits
            return [
                m
                for lo, hi, digits, run in runs
                if digits >= need and (not lead or lead in run)
                for m in pattern.finditer(text, lo, hi)
            ]
        if scan.starts:
            hay = self.lower() if scan.fold else text
            if hay is None:
                return list(pattern.finditer(text))
            places: list[int] = []
            needs = scan.needs
            if not scan.fold and isinstance(needs, Needs) and needs.within:
                # a match lies inside one stretch of the needed characters (a provider
                # key inside a chat id): look for the starts only there
                for lo, hi in self.stretches(needs):
                    for needle in scan.starts:
                        at = hay.find(needle, lo, hi)
                        while at >= 0:
                            places.append(at)
                            at = hay.find(needle, at + 1, hi)
            else:
                for needle in scan.starts:
                    at = hay.find(needle)
                    while at >= 0:
                        places.append(at)
                        at = hay.find(needle, at + 1)
            if not places:
                return []
            places.sort()
            found, taken = [], 0  # like finditer: matches do not overlap
            for at in places:
                if at >= taken:
                    m = pattern.match(text, at)
                    if m is not None:
                        taken = m.end()
                        found.append(m)
            return found
        if scan.anchor:
            at = text.find(scan.anchor)
            if at < 0:
                return []
            windows: list[list[int]] = []
            size, reach, width = len(text), scan.reach, len(scan.anchor)
            while at >= 0:
                lo, hi = max(0, at - reach), min(size, at + width + reach + 2)
                if windows and lo <= windows[-1][1]:
                    windows[-1][1] = hi
                else:
                    windows.append([lo, hi])
                at = text.find(scan.anchor, at + width)
            return [m for lo, hi in windows for m in pattern.finditer(text, lo, hi)]
        return list(pattern.finditer(text))


class Redactor:
    """Applies a set of rules; ``Redactor.raw()`` applies none (explicit opt-in)."""

    __slots__ = ("rules", "_scans", "_memo", "_fewest")
    _scans: tuple[tuple[int, Rule, Scan, bool, bool], ...]
    _fewest: int

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        # short strings in finding details repeat (diagnosis texts, reasons): remember them
        self._memo: dict[str, str] = {}
        self._scans = tuple(
            (
                rank,
                rule,
                scan,
                "secret" in scan.pattern.groupindex,
                bool(scan.pattern.flags & re.IGNORECASE),
            )
            for rank, rule in enumerate(self.rules)
            for scan in rule.scans
        )
        # number scans only look at runs with at least min_digits digits: runs in stretches
        # with fewer digits need not be found at all
        self._fewest = min(
            (scan.min_digits for _, _, scan, _, _ in self._scans if scan.min_digits), default=1
        )

    # -- construction

    @classmethod
    def default(cls) -> Redactor:
        return _DEFAULT

    @classmethod
    def raw(cls) -> Redactor:
        """No redaction at all: stored text is exactly what the model produced."""
        return _RAW

    @classmethod
    def from_names(cls, names: Iterable[str]) -> Redactor:
        """Rules by name, in table order; ``default`` means all of them."""
        wanted = {n.strip().lower() for n in names if n.strip()}
        if "default" in wanted or "all" in wanted:
            wanted = (wanted - {"default", "all"}) | set(DEFAULT_RULES)
        unknown = wanted - set(RULES)
        if unknown:
            raise UnknownRuleError(unknown)
        if not wanted:
            raise ValueError(
                "no redaction rules given; storing raw text must be asked for explicitly"
                " ('raw', Redactor.raw())"
            )
        return cls([rule for name, rule in RULES.items() if name in wanted])

    @classmethod
    def from_spec(cls, spec: str) -> Redactor:
        """``"default"``, ``"raw"`` or a comma-separated list of rule names."""
        if spec.strip().lower() == "raw":
            return cls.raw()
        return cls.from_names(spec.split(","))

    @property
    def enabled(self) -> bool:
        return bool(self.rules)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(rule.name for rule in self.rules)

    def __repr__(self) -> str:
        return f"Redactor({', '.join(self.names) or 'raw'})"

    # -- text

    def redact(self, text: str) -> Redacted:
        """The text with every match replaced by its rule's placeholder."""
        if not self.rules or not text:
            return Redacted(text, (), text, self)
        found = self._find(text)
        if not found:
            return Redacted(text, (), text, self)
        redacted = self._apply(text, found)
        # A placeholder can expose a neighbour that the secret hid: "a@b.io010-1234-5678"
        # has no phone (a letter precedes it), "[EMAIL]010-1234-5678" has one. Redact the
        # result again, carry what it finds back to the original, and stop when nothing
        # new turns up, so that redacting twice is redacting once.
        for _ in range(_MAX_PASSES):
            more = self._find(redacted.text)
            if not more:
                break
            found.extend(
                (redacted.map_back_start(start), redacted.map_back_end(end), rank, rule)
                for start, end, rank, rule in more
            )
            redacted = self._apply(text, found)
        return redacted

    def _find(self, text: str) -> list[tuple[int, int, int, Rule]]:
        found: list[tuple[int, int, int, Rule]] = []
        where = _Where(text, self._fewest)
        most = -1  # the most digits in a number run; -1: not looked yet
        for rank, rule, scan, grouped, folded in self._scans:
            if scan.min_digits:
                if most < 0:
                    most = max([run[2] for run in where.numeric()], default=0)
                if scan.min_digits > most:
                    continue  # no run holds enough digits for this format
            elif scan.needs is not None and not where.has(scan.needs, folded):
                continue
            for m in where.matches(scan):
                start, end = m.span("secret") if grouped else (-1, -1)
                if start < 0:
                    start, end = m.span()
                if scan.validator is not None and not scan.validator(text[start:end]):
                    continue
                if scan.accept is not None and not scan.accept(m):
                    continue
                found.append((start, end, rank, rule))
        return found

    def _apply(self, text: str, found: list[tuple[int, int, int, Rule]]) -> Redacted:
        # Overlapping matches merge into one region (never leave part of a secret
        # visible); the region takes the placeholder of its longest match.
        found.sort(key=lambda f: (f[0], -f[1], f[2]))
        regions: list[list[Any]] = []
        for start, end, rank, rule in found:
            if regions and start < regions[-1][1]:
                region = regions[-1]
                if end - start > region[3] or (end - start == region[3] and rank < region[4]):
                    region[2], region[3], region[4] = rule, end - start, rank
                region[1] = max(region[1], end)
            else:
                regions.append([start, end, rule, end - start, rank])
        pieces: list[str] = []
        edits: list[Edit] = []
        pos = new_pos = 0
        for start, end, rule, _, _ in regions:
            pieces.append(text[pos:start])
            new_pos += start - pos
            pieces.append(rule.placeholder)
            edits.append(Edit(start, end, new_pos, new_pos + len(rule.placeholder), rule.name))
            new_pos += len(rule.placeholder)
            pos = end
        pieces.append(text[pos:])
        return Redacted("".join(pieces), tuple(edits), text, self)

    def redact_text(self, text: str) -> str:
        """Just the redacted string. A string cut with ``…`` also loses a secret-looking
        token at the cut, which the patterns could no longer recognise."""
        if not self.rules or not text:
            return text
        short = len(text) <= _MEMO_MAX_LEN
        if short:
            hit = self._memo.get(text)
            if hit is not None:
                return hit
        out = self.redact(text).text
        if _ELLIPSIS in out:
            out = _guard_cuts(out)
        if short:
            remember(self._memo, text, out, _MEMO_ENTRIES)
        return out

    def redact_value(self, value: Any, _depth: int = 0) -> Any:
        """Redact every string (and long integer) inside a JSON-like value; keys too.

        The result is also storable as JSON: integers beyond 64 bits become strings
        and anything nested deeper than ``MAX_DETAIL_DEPTH`` is replaced by a marker
        (a secret could hide down there, and orjson refuses deep values anyway).
        """
        if not self.rules:
            return value
        kind = type(value)
        if kind is str:
            return self.redact_text(value)
        if value is None or kind is bool:
            return value
        if kind is float:
            return self._redact_float(value)
        if _depth > MAX_DETAIL_DEPTH:
            return _TOO_DEEP
        if kind is dict or isinstance(value, Mapping):
            text = self.redact_text
            out = {}
            for k, v in value.items():
                name = k if type(k) is str else str(k)
                # a member named like a secret is replaced whole, whatever its value
                # looks like ("password": "hunter2" has no pattern to catch)
                if secret_name(name) and v is not None and type(v) is not bool:
                    out[text(name)] = SECRET_PLACEHOLDER
                else:
                    out[text(name)] = self.redact_value(v, _depth + 1)
            return out
        if kind is list or kind is tuple:
            items = [self.redact_value(v, _depth + 1) for v in value]
            return items if kind is list else tuple(items)
        if isinstance(value, int) and not isinstance(value, bool):
            return self._redact_int(value)
        if isinstance(value, str):
            return self.redact_text(value)
        return value

    def _redact_float(self, value: float) -> float | str:
        """A whole-number float is a number like an integer (``4111111111111111.0`` is a
        card number): redacted like one. Fractions, small values and values beyond 19
        digits (a float keeps 17 significant digits: no number format survives) stay."""
        if -1_000_000 < value < 1_000_000 or not -1e19 < value < 1e19 or not value.is_integer():
            return value
        redacted = self._redact_int(int(value))
        return value if type(redacted) is int else redacted

    def _redact_int(self, value: int) -> int | str:
        if -1_000_000 < value < 1_000_000:
            return value
        try:
            text = str(value)
        except ValueError:  # beyond Python's int -> str digit limit
            return "[NUMBER]"
        redacted = self.redact_text(text)
        if redacted == text and -(2**63) <= value < 2**64:
            return value
        return redacted

    # -- findings and exchanges

    def redact_findings(
        self, findings: Iterable[Finding], redacted: Redacted, *others: Redacted
    ) -> tuple[Finding, ...]:
        """Findings with spans moved onto ``redacted.text`` and evidence and details redacted.

        Evidence is derived from the stored texts wherever it quotes them, so a finding
        shows exactly what its text shows: a snippet at the span is the same snippet of
        ``redacted.text``, and a piece of evidence found verbatim in ``redacted.source``
        or an ``others`` source (the reasoning text) is that stretch of the redacted text
        (widened to a whole placeholder where it starts or ends inside one). Only what
        quotes no text is redacted on its own (``redact_text``, with its guard for cuts)."""
        if not self.rules:
            return tuple(findings)
        out = []
        source, text = redacted.source, redacted.text
        texts = (redacted, *others)
        for finding in findings:
            span = finding.span
            new_span = span
            evidence = finding.evidence
            if span is not None:
                new_span = redacted.remap_span(span)
                if _is_snippet(evidence, source, span):
                    if redacted.changed:
                        evidence = evidence_snippet(text, *new_span)
                else:
                    evidence = self._redact_evidence(evidence, texts)
            else:
                evidence = self._redact_evidence(evidence, texts)
            details = self.redact_value(finding.details)
            if new_span == span and evidence == finding.evidence and details == finding.details:
                out.append(finding)
            else:
                out.append(replace(finding, span=new_span, evidence=evidence, details=details))
        return tuple(out)

    def _redact_evidence(self, evidence: str, texts: Sequence[Redacted]) -> str:
        """Evidence that is no snippet at its span: each piece between ``…`` cuts that
        quotes one of ``texts`` becomes that stretch of the redacted text; the others are
        redacted as text, with the cuts around them (so the guard sees them)."""
        if not evidence:
            return evidence
        pieces = evidence.split(_ELLIPSIS)
        last = len(pieces) - 1
        out = []
        for i, piece in enumerate(pieces):
            quoted = _quoted(piece, texts) if len(piece) >= _MIN_QUOTE else None
            if quoted is not None:
                out.append(quoted)
            elif piece:
                cut_before, cut_after = i > 0, i < last
                shown = self.redact_text(
                    (_ELLIPSIS if cut_before else "") + piece + (_ELLIPSIS if cut_after else "")
                )
                out.append(shown[int(cut_before) : len(shown) - int(cut_after)])
            else:
                out.append(piece)
        return _ELLIPSIS.join(out)

    def redact_exchange(self, exchange: Exchange, findings: Iterable[Finding]) -> SafeText:
        visible = self.redact(exchange.visible_text)
        reasoning = self.redact(exchange.reasoning_text)
        counts = Counter(visible.counts())
        counts.update(reasoning.counts())
        return SafeText(
            visible.text,
            reasoning.text,
            self.redact_findings(findings, visible, reasoning),
            dict(counts),
        )


# a shorter piece of evidence is not looked up in the texts (a word can occur anywhere)
_MIN_QUOTE = 8


def _quoted(piece: str, texts: Sequence[Redacted]) -> str | None:
    """``piece`` as the redacted text shows it, when it is a verbatim stretch of a source."""
    for redacted in texts:
        at = redacted.source.find(piece)
        if at >= 0:
            if not redacted.edits:
                return piece
            start, end = redacted.remap_span((at, at + len(piece)))
            return redacted.text[start:end]
    return None


def _is_snippet(evidence: str, source: str, span: tuple[int, int]) -> bool:
    start, end = span
    if not 0 <= start <= end <= len(source):
        return False
    return evidence == evidence_snippet(source, start, end)


def _guard_cuts(text: str) -> str:
    if text.endswith(_ELLIPSIS):
        # only the tail can hold the cut token: never scan the whole string
        m = _CUT_TOKEN_END.search(text, max(0, len(text) - _CUT_REACH))
        if m:
            token = m.group()[: -len(_ELLIPSIS)]
            if "[" not in token and _looks_cut_secret(token):
                text = text[: m.start()] + _CUT_PLACEHOLDER + _ELLIPSIS
    if text.startswith(_ELLIPSIS):
        m = _CUT_TOKEN_START.match(text)
        if m:
            token = m.group()[len(_ELLIPSIS) :]
            if "]" not in token and _looks_cut_secret(token):
                text = _ELLIPSIS + _CUT_PLACEHOLDER + text[m.end() :]
    return text


_DEFAULT = Redactor([RULES[name] for name in DEFAULT_RULES])
_RAW = Redactor([])


# ------------------------------------------------------------------ module-level helpers


def json_safe(value: Any, max_depth: int = MAX_DETAIL_DEPTH, _depth: int = 0) -> Any:
    """``value`` made storable by orjson, without redacting anything.

    orjson refuses integers beyond 64 bits and nesting deeper than 254, and a rescued
    tool-call argument can hold either. Such integers become strings, containers
    nested deeper than ``max_depth`` become a marker, and keys become strings.
    """
    kind = type(value)
    if kind is str or kind is float or kind is bool or value is None:
        return value
    if kind is int:
        return value if -(2**63) <= value < 2**64 else _int_text(value)
    if _depth >= max_depth and isinstance(value, Mapping | list | tuple):
        return _TOO_DEEP
    if isinstance(value, Mapping):
        return {
            (k if type(k) is str else str(k)): json_safe(v, max_depth, _depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [json_safe(v, max_depth, _depth + 1) for v in value]
    if isinstance(value, int):
        return json_safe(int(value), max_depth, _depth)
    return value


def _int_text(value: int) -> str:
    try:
        return str(value)
    except ValueError:  # beyond Python's int -> str digit limit
        return "[NUMBER]"


def redact_findings(
    findings: Iterable[Finding], redacted: Redacted, *others: Redacted
) -> tuple[Finding, ...]:
    """``Redactor.redact_findings`` with the redactor that produced ``redacted``."""
    redactor = redacted.redactor if redacted.redactor is not None else _DEFAULT
    return redactor.redact_findings(findings, redacted, *others)


def redact_exchange(
    exchange: Exchange, findings: Iterable[Finding], redactor: Redactor | None = None
) -> SafeText:
    """The text and findings of one exchange as they may be stored and published."""
    return (redactor if redactor is not None else _DEFAULT).redact_exchange(exchange, findings)


# ------------------------------------------------------------------ labels (version fields)

# Version metadata (engine, model, template, parsers, gateway) and remediation words end
# up as stored columns, version keys of live stats and exports, and Prometheus labels.
# They are names, not prose: a value is kept only when it looks like one.
LABEL_MAX_CHARS = 128
REDACTED_LABEL = "redacted"
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+\-]*", re.ASCII)
# a long run of base64 characters mixing upper case, lower case and digits is a random
# token (an AWS secret, a provider key), not a name: hashes are one case, and names are
# short words between separators (meta-llama/Llama-3.1-8B-Instruct)
_TOKENISH = re.compile(r"[A-Za-z0-9+/]{20,}", re.ASCII)


def label_ok(value: str) -> bool:
    """Whether a version field may be stored and used as a label as it is."""
    if not 0 < len(value) <= LABEL_MAX_CHARS or not _LABEL.fullmatch(value):
        return False
    if any(_has_classes(run) for run in _TOKENISH.findall(value)):
        return False
    return not _DEFAULT.redact(value).changed


_LABEL_MEMO: dict[str, str] = {}


def safe_label(value: str) -> str:
    """``value`` when it is a plain name or version (``label_ok``), else ``"redacted"``.

    No hash of the refused value is kept: a short hash of a short secret (an SSN, a PIN)
    can be reversed by trying every candidate."""
    if len(value) > LABEL_MAX_CHARS:
        return REDACTED_LABEL
    hit = _LABEL_MEMO.get(value)
    if hit is None:
        hit = remember(
            _LABEL_MEMO, value, value if label_ok(value) else REDACTED_LABEL, _MEMO_ENTRIES
        )
    return hit


# ------------------------------------------------------------------ ids

# An id (the event id) is unique per event, so no memo helps and a full redaction costs
# ~45 us: far over the worker's per-event budget. An id of the usual characters can only
# hold a secret through one of these: a run of 7+ digits and separators at the start or
# after a ``:`` (every number scan refuses a letter, digit, ``_ - .`` before its first
# digit, and a letter or digit after it: phone, card, national id),
# an IBAN's country and check digits, a provider key or JWT prefix, a name-colon
# assignment, 40 base64 characters (an AWS secret). Any other character (``@``, ``+``,
# spaces, ``=``, non-ASCII) sends the id through the full redaction. About 2% of random
# UUIDs hit a digit run and take the full pass too (``tests/pipeline/test_redact_side_doors``).
_ID_CHARS = re.compile(r"[A-Za-z0-9_\-:.]{1,256}", re.ASCII)
_ID_RISK = re.compile(
    r"(?<![0-9A-Za-z_\-.])\d[\d\-.:]{5,}\d(?![0-9A-Za-z_])|[A-Z]{2}\d\d"
    r"|sk-|sk_|rk_|AKIA|ASIA|ABIA|ACCA|gh[pousr]_|github_pat_|xox|AIza|hf_|glpat-|eyJ"
    r"|(?i:passw(?:or)?d|pwd|secret|token|key):|(?<![A-Za-z0-9])[A-Za-z0-9]{40}",
    re.ASCII,
)


def safe_id(value: str, redactor: Redactor | None = None) -> str:
    """An id as it may be stored and published: itself, or redacted when it holds a secret."""
    redactor = redactor if redactor is not None else _DEFAULT
    if not redactor.rules or (_ID_CHARS.fullmatch(value) and not _ID_RISK.search(value)):
        return value
    return redactor.redact_text(value)


# ------------------------------------------------------------------ reasons

# Why a payload was refused (a dead letter's reason, a schema message) quotes the value that
# failed: it is read by operators in `leakline dlq`, logs and metrics' examples, so it is
# redacted, a long quoted value keeps only its start, and the whole is capped.
REASON_MAX_CHARS = 300
_QUOTED_KEEP = 24
# a quoted value longer than _QUOTED_KEEP, to its closing quote or as far as it runs
# (possessive, and never failing once past the kept part: linear on any input)
_QUOTED_CHAR = r"(?:(?!\1)[^\\\n]|\\.)"
_QUOTED = re.compile(rf"(['\"])({_QUOTED_CHAR}{{{_QUOTED_KEEP}}}){_QUOTED_CHAR}*+\1?")


def _shorten_quoted(m: re.Match[str]) -> str:
    return m.group(1) + m.group(2) + _ELLIPSIS + m.group(1)


def safe_reason(reason: str, redactor: Redactor | None = None) -> str:
    """A reason as it may be published, logged or shown: redacted, quoted values cut to
    their first characters, at most ``REASON_MAX_CHARS``."""
    redactor = redactor if redactor is not None and redactor.rules else _DEFAULT
    # redacted before quoted values are cut, so that a secret is replaced, not cut in two
    text = redactor.redact_text(reason[: 64 * REASON_MAX_CHARS])
    text = _QUOTED.sub(_shorten_quoted, text)
    if len(text) > REASON_MAX_CHARS:
        text = text[: REASON_MAX_CHARS - 1] + _ELLIPSIS
    return redactor.redact_text(text)  # a cut can leave part of a secret: its guard drops it
