"""Imported model families: read a model's own files, write and read ``DATA_DIR/families.json``.

A family the built-in table (``leakline.detectors.families.FAMILIES``) does not know can be
imported from the files a model ships with (``leakline families import``):

- ``tokenizer_config.json``: ``added_tokens_decoder`` (the ``special: true`` entries are
  special tokens that must never be visible; the ``special: false`` ones decode as text,
  and count only when the chat template writes them or treats them as reasoning
  delimiters, as Qwen3's ``<think>``) and, when no
  template file is given, its ``chat_template`` (a string, or named templates, each read
  alone);
- ``tokenizer.json`` (optional): its ``added_tokens`` list, read the same way;
- the chat template (optional file): the reasoning delimiters, found by what the template
  does with a marker, whatever it is called (``chat_template.read_reasoning``: prefilled
  by the generation prompt, written around the reasoning, split on and stripped from
  history), and the tool-call tags it writes, matched against the known ``ToolMarkup`` rows.

The result is one reviewed row in ``DATA_DIR/families.json``::

    {"format": "leakline.families/1",
     "families": [{"name", "parser_names", "model_patterns", "reasoning_start",
                   "reasoning_end", "start_prefilled", "boundary_tokens",
                   "contextual_tokens", "budget_end_strings", "tool_call_markup"}, ...]}

``detect``, ``gate``, ``diagnose`` and the worker merge these rows with the built-in
table (``activate`` / ``FamilyWatcher``). Pure: no Kafka; the only I/O is the files named.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from leakline.detectors import families as fam
from leakline.detectors import tool_markup as tm
from leakline.detectors.families import ModelFamily, family_from_dict, family_to_dict
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.families import chat_template as ct

log = logging.getLogger("leakline.families")

FAMILIES_FILE = "families.json"
FILE_FORMAT = "leakline.families/1"


class FamilyFileError(LeaklineError):
    """A model file or the families file cannot be used; nothing was written."""


def families_path(data_dir: Path) -> Path:
    """Where the imported families of a data directory live."""
    return Path(data_dir) / FAMILIES_FILE


def builtin_names() -> set[str]:
    return {row.name for row in fam.FAMILIES}


# --------------------------------------------------------------------------- the families file


def read_families(path: Path) -> list[ModelFamily]:
    """The rows of a families file; a missing file is no rows. ``FamilyFileError`` when bad."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise FamilyFileError(f"cannot read {path}: {exc.strerror}") from None
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise FamilyFileError(
            f"{path} is not JSON: {exc}", hint="fix or delete the file, then import again"
        ) from None
    if not isinstance(doc, dict) or doc.get("format") != FILE_FORMAT:
        raise FamilyFileError(
            f"{path} is not a {FILE_FORMAT} file",
            hint="it must be an object with format and families; write it with "
            "`leakline families import`",
        )
    items = doc.get("families")
    if not isinstance(items, list):
        raise FamilyFileError(f"{path}: families must be a list")
    rows = []
    for i, item in enumerate(items):
        try:
            row = family_from_dict(item)
        except (ValueError, TypeError) as exc:
            raise FamilyFileError(f"{path}: family #{i + 1}: {exc}") from None
        rows.append(row)
    problems = check_rows(rows)
    if problems:
        raise FamilyFileError(f"{path}: {problems[0]}", hint="; ".join(problems[1:]) or None)
    return rows


def write_families(path: Path, rows: Sequence[ModelFamily]) -> None:
    """Write the rows atomically: a reader sees the old file or the new one, never half."""
    path = Path(path)
    doc = {"format": FILE_FORMAT, "families": [family_to_dict(row) for row in rows]}
    data = orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        raise FamilyFileError(
            f"cannot write {path}: {exc.strerror}",
            hint="pass a writable --data-dir (or $LEAKLINE_DATA_DIR)",
        ) from None


def check_rows(rows: Sequence[ModelFamily]) -> list[str]:
    """What would make these rows unsafe next to the built-in table (empty when fine).

    The same invariants the built-in table's tests hold: unique names and parser names,
    a way to be named, paired reasoning delimiters, no literal that both opens and
    closes reasoning, and no tool-call markup cue used as a boundary token.
    """
    problems: list[str] = []
    builtin = fam.FAMILIES
    names = {row.name for row in builtin}
    parsers = {p.lower(): row.name for row in builtin for p in row.parser_names}
    starts = {t for row in builtin for t in row.reasoning_start}
    ends = {t for row in builtin for t in row.reasoning_end}
    cues = {cue for markup in tm.TOOL_MARKUPS for cue in markup.cues}
    for row in rows:
        if row.name in names:
            problems.append(f"family {row.name!r} is already defined")
        names.add(row.name)
        for parser in row.parser_names:
            owner = parsers.get(parser.lower())
            if owner is not None:
                problems.append(f"{row.name}: parser name {parser!r} already belongs to {owner}")
            parsers[parser.lower()] = row.name
        if not row.parser_names and not row.model_patterns:
            problems.append(f"{row.name}: needs a parser name or a model pattern")
        if any(p != p.lower() or not p for p in row.model_patterns):
            problems.append(f"{row.name}: model patterns must be lower case")
        if bool(row.reasoning_start) != bool(row.reasoning_end):
            problems.append(f"{row.name}: reasoning start and end come in pairs")
        if row.start_prefilled and not row.reasoning_end:
            problems.append(f"{row.name}: a prefilled start needs an end delimiter")
        starts.update(row.reasoning_start)
        ends.update(row.reasoning_end)
        for literal in row.visible_tokens:
            if any(cue in literal or literal in cue for cue in cues):
                problems.append(f"{row.name}: {literal!r} is tool-call markup, not a token")
    both = sorted(starts & ends)
    if both:
        problems.append(f"{', '.join(both)} would both open and close reasoning")
    return problems


# --------------------------------------------------------------------------- activation


def activate(rows: Sequence[ModelFamily]) -> None:
    """Make ``rows`` the extra families of this process (replacing the previous ones)."""
    fam.set_extra_families(tuple(rows))


def activate_data_dir(data_dir: Path) -> list[ModelFamily]:
    """Load ``DATA_DIR/families.json`` (if any) into this process's family table."""
    rows = read_families(families_path(data_dir))
    activate(rows)
    return rows


@dataclass
class FamilyWatcher:
    """Keeps a process's extra families in step with a families file, without a restart.

    ``current()`` is called once per batch; it stats the file at most every
    ``check_every_s`` seconds and reloads only when its mtime or size changed. A file
    that does not read or validate is refused: the rows loaded before stay active.
    """

    path: Path | None
    check_every_s: float = 2.0
    clock: Callable[[], float] = time.monotonic
    apply: Callable[[Sequence[ModelFamily]], None] = activate
    rows: list[ModelFamily] = field(default_factory=list)
    _seen: tuple[int, int] | None = None
    _last_check: float = 0.0

    def __post_init__(self) -> None:
        self._last_check = self.clock()
        self._seen = self._stamp()
        if self._seen is not None:
            self._load("loaded")

    def _stamp(self) -> tuple[int, int] | None:
        if self.path is None:
            return None
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _load(self, verb: str) -> None:
        assert self.path is not None
        try:
            rows = read_families(self.path)
        except LeaklineError as exc:
            log.error("refused the families file, keeping %d rows: %s", len(self.rows), exc)
            return
        self.apply(rows)
        self.rows = rows
        log.info("families %s: %s", verb, ", ".join(r.name for r in rows) or "none")

    def current(self) -> list[ModelFamily]:
        now = self.clock()
        if now - self._last_check < self.check_every_s:
            return self.rows
        self._last_check = now
        stamp = self._stamp()
        if stamp == self._seen:
            return self.rows
        self._seen = stamp
        if stamp is None:  # the file was removed: back to the built-in table
            self.apply([])
            self.rows = []
            log.info("families file removed: built-in table only")
        else:
            self._load("reloaded")
        return self.rows


# --------------------------------------------------------------------------- import


@dataclass
class Imported:
    """What ``import_family`` found, and the row it built from it."""

    row: ModelFamily
    special_tokens: list[str]  # every special added token read
    skipped_tokens: list[str]  # special tokens left out of the row (reserved, plain words)
    tool_tags: list[str]  # tool-call markup tags the template or tokens carry (not boundary)
    unknown_tool_tags: list[str]  # ... when no known ToolMarkup row was recognised
    template_source: str | None  # where the chat template came from
    # non-special added tokens the template writes, put in the row (they decode as text)
    written_plain_tokens: list[str] = field(default_factory=list)
    reasoning_found_by: dict[str, list[str]] = field(default_factory=dict)  # delimiter -> how
    notes: list[str] = field(default_factory=list)


def _load_json(path: Path, what: str) -> Any:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise FamilyFileError(
            f"cannot read {what} {path}: {exc.strerror}", hint=f"pass the model's {what}"
        ) from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise FamilyFileError(
            f"{path} is not JSON ({exc})",
            hint=f"pass the model's {what} as shipped (a JSON file)",
        ) from None


@dataclass(frozen=True)
class _Token:
    content: str
    special: bool


def _tokens_from_config(doc: Any, path: Path) -> list[_Token]:
    if not isinstance(doc, dict):
        raise FamilyFileError(f"{path} is not a tokenizer config (not a JSON object)")
    decoder = doc.get("added_tokens_decoder")
    if decoder is None:
        return []
    if not isinstance(decoder, dict):
        raise FamilyFileError(f"{path}: added_tokens_decoder must be an object of id -> token")
    out = []
    for key, entry in decoder.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str):
            raise FamilyFileError(f"{path}: added token {key} has no content string")
        out.append(_Token(entry["content"], entry.get("special") is True))
    return out


def _tokens_from_tokenizer(doc: Any, path: Path) -> list[_Token]:
    items = doc.get("added_tokens") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise FamilyFileError(
            f"{path} has no added_tokens list", hint="pass the model's tokenizer.json"
        )
    out = []
    for i, entry in enumerate(items):
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str):
            raise FamilyFileError(f"{path}: added token #{i + 1} has no content string")
        out.append(_Token(entry["content"], entry.get("special") is True))
    return out


def _config_templates(doc: dict[str, Any], path: Path) -> list[str] | None:
    template = doc.get("chat_template")
    if template is None:
        return None
    if isinstance(template, str):
        return [template]
    # a list of named templates: [{"name": "default", "template": ...}, {"name": "tool_use", ...}]
    if isinstance(template, list):
        parts = [t.get("template") for t in template if isinstance(t, dict)]
        if parts and all(isinstance(p, str) for p in parts):
            return [p for p in parts if isinstance(p, str)]
    raise FamilyFileError(f"{path}: chat_template must be a string or a list of named templates")


_RESERVED = re.compile(
    r"reserved|unused|place[▁_ ]?holder|^<extra_id_\d+>$|^<SPECIAL_\d+>$", re.IGNORECASE
)
_HTML_WORD = re.compile(r"^</?[a-z]{1,8}>$")
# a markup word with no pipes (<tool_response>): prose about the format can write it
_XML_WORD = re.compile(r"^</?[A-Za-z][\w.\-:]{0,47}>$")
# a tag that writes a call (tool *output* tags such as <tool_response> are boundary tokens)
_TOOLISH = re.compile(
    r"call|function|action|\bargs\b|\[ARGS\]|arg_key|arg_value|invoke", re.IGNORECASE
)


def _is_tool_tag(tag: str, cues: set[str]) -> bool:
    return bool(_TOOLISH.search(tag)) or any(c in tag or tag in c for c in cues)


def _plain_or_reserved(token: str) -> bool:
    """Reserved placeholders, plain words and very short strings are no markers."""
    return bool(_RESERVED.search(token)) or not re.search(r"[^\w\s]", token) or len(token) < 3


def _config_str(config: dict[str, Any], key: str) -> str:
    value = config.get(key)
    return value if isinstance(value, str) else ""


def _markups_for(literals: set[str], template: str) -> list[tm.ToolMarkup]:
    """The known ToolMarkup rows whose cues the template or the tokens carry (specific first)."""
    haystack = template + "\n" + "\n".join(sorted(literals))
    chosen: list[tm.ToolMarkup] = []
    for markup in tm.TOOL_MARKUPS:
        if markup.bare:
            continue  # bare JSON / pythonic lists: nothing in a template proves them
        if any(cue in haystack for cue in markup.cues):
            chosen.append(markup)
    names = {m.name for m in chosen}
    if "glm45" in names and "<arg_key>" not in haystack:
        chosen = [m for m in chosen if m.name != "glm45"]
    if "olmo3_pythonic" in names and "<invoke" in haystack:
        chosen = [m for m in chosen if m.name != "olmo3_pythonic"]
    if "claude_xml" in names and "<invoke" not in haystack:
        chosen = [m for m in chosen if m.name != "claude_xml"]
    return chosen


def import_family(
    tokenizer_config: Path,
    *,
    name: str,
    tokenizer: Path | None = None,
    chat_template: Path | None = None,
    model_patterns: Sequence[str] = (),
    parser_names: Sequence[str] = (),
) -> Imported:
    """Build one family row from a model's own files. Raises ``FamilyFileError``; writes nothing."""
    if not re.fullmatch(r"[A-Za-z0-9][\w.\-]{0,63}", name):
        raise FamilyFileError(
            f"bad family name {name!r}",
            hint="letters, digits, '_', '.' and '-', at most 64 characters",
        )
    config = _load_json(tokenizer_config, "tokenizer_config.json")
    tokens = _tokens_from_config(config, tokenizer_config)
    if tokenizer is not None:
        tokens += _tokens_from_tokenizer(_load_json(tokenizer, "tokenizer.json"), tokenizer)
    if not tokens:
        raise FamilyFileError(
            f"no added tokens in {tokenizer_config}"
            + (f" or {tokenizer}" if tokenizer is not None else ""),
            hint="pass the model's tokenizer_config.json with added_tokens_decoder, or its "
            "tokenizer.json with --tokenizer",
        )
    if chat_template is not None:
        try:
            templates: list[str] | None = [Path(chat_template).read_text(encoding="utf-8")]
        except (OSError, UnicodeDecodeError) as exc:
            raise FamilyFileError(
                f"cannot read chat template {chat_template}: {exc}",
                hint="pass the model's chat template file (.jinja)",
            ) from None
        source: str | None = str(chat_template)
    else:
        templates = _config_templates(config, tokenizer_config)
        source = f"{tokenizer_config} (chat_template)" if templates is not None else None
    for template in templates or ():
        try:
            ct.check_template(template, source or "")
        except ct.TemplateError as exc:
            raise FamilyFileError(str(exc), hint=exc.hint) from None
        if not template.strip():
            raise FamilyFileError(f"the chat template in {source} is empty")

    contents = list(dict.fromkeys(t.content for t in tokens))
    special = list(dict.fromkeys(t.content for t in tokens if t.special))
    scans = [ct.scan(template) for template in templates or ()]
    written_texts = [text for found in scans for text in found.written]
    literals = {
        tag
        for found in scans
        for text in (*found.written, *found.cut)
        for tag in ct.TAG.findall(text)
    }
    markups = _markups_for(set(contents) | literals, "\n".join(templates or ()))
    cues = {cue for m in tm.TOOL_MARKUPS for cue in m.cues}
    tool_tags = sorted(t for t in set(contents) | literals if _is_tool_tag(t, cues))
    # with a known syntax recognised, the other call tags are its parts ([ARGS], <|tool_call_end|>)
    unknown_tool_tags = [] if markups else tool_tags

    # a reasoning delimiter is any marker the template treats as one, whatever it is called
    reasoning = ct.Reasoning()
    if templates:
        allowed = {
            t
            for t in (*contents, *literals)
            if not _is_tool_tag(t, cues) and not _plain_or_reserved(t)
        }
        reasoning = ct.read_reasoning(
            templates,
            [*contents, *literals],
            allowed,
            bos=_config_str(config, "bos_token"),
            eos=_config_str(config, "eos_token"),
            scans=scans,
        )
    delimiters = set(reasoning.starts) | set(reasoning.ends)

    # non-special added tokens decode as text, so only those the template writes belong here
    written = [
        t.content
        for t in tokens
        if not t.special and any(t.content in text for text in written_texts)
    ]
    plain_written = list(dict.fromkeys(t for t in written if t not in special))
    boundary, contextual, skipped = [], [], []
    for token in [*special, *plain_written]:
        if token in delimiters or token in boundary or token in contextual:
            continue
        if _plain_or_reserved(token):
            skipped.append(token)
        elif _is_tool_tag(token, cues):
            continue  # tool-call markup is tool_call_as_text, never a boundary token
        elif _HTML_WORD.match(token) or (token in plain_written and _XML_WORD.match(token)):
            contextual.append(token)  # <s>, <answer>, <tool_response>: ordinary text elsewhere
        else:
            boundary.append(token)

    patterns = tuple(dict.fromkeys(p.lower() for p in model_patterns)) or (name.lower(),)
    row = ModelFamily(
        name=name,
        parser_names=tuple(dict.fromkeys(parser_names)),
        model_patterns=patterns,
        reasoning_start=tuple(reasoning.starts),
        reasoning_end=tuple(reasoning.ends),
        start_prefilled=reasoning.prefilled,
        boundary_tokens=tuple(boundary),
        contextual_tokens=tuple(contextual),
        tool_call_markup=tuple(markups),
    )
    return Imported(
        row=row,
        special_tokens=special,
        skipped_tokens=skipped,
        tool_tags=tool_tags,
        unknown_tool_tags=unknown_tool_tags,
        template_source=source,
        written_plain_tokens=[t for t in plain_written if t not in skipped],
        reasoning_found_by=reasoning.how,
        notes=reasoning.notes,
    )


def merge(existing: Sequence[ModelFamily], row: ModelFamily, *, replace: bool) -> list[ModelFamily]:
    """``existing`` with ``row`` added (or put in place of the row of the same name)."""
    if row.name in builtin_names():
        raise FamilyFileError(
            f"{row.name!r} is a built-in family",
            hint=f"import it under another --name (e.g. {row.name}_local); built-in rows "
            "change in detectors/families.py",
        )
    names = [r.name for r in existing]
    if row.name in names and not replace:
        raise FamilyFileError(
            f"family {row.name!r} was imported before",
            hint="pass --replace to overwrite it, or choose another --name",
        )
    rows = [row if r.name == row.name else r for r in existing]
    if row.name not in names:
        rows.append(row)
    problems = check_rows(rows)
    if problems:
        raise FamilyFileError(problems[0], hint="; ".join(problems[1:]) or None)
    return rows
