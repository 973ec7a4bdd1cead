"""What a chat template does with the markers around reasoning, read from the template.

``leakline families import`` finds a family's reasoning delimiters by what its Jinja chat
template *does* with a marker, never by what the marker is called. A marker (an added
token, or a tag-like literal the template writes) is a reasoning delimiter when the
template:

- **prefills** it: the generation prompt ends with it, past the header that assistant
  turns in the history get (``<|im_start|>assistant\\n<think>\\n``);
- **wraps the reasoning** in it: the markers right around a message's reasoning field,
  which do not also wrap the answer (so channel headers shared with the answer are not);
- writes an **empty block** (or the end alone) in the generation prompt when thinking is
  off (``<think>\\n\\n</think>``);
- **splits history on it and drops what came before** (``content.split('</think>')[-1]``,
  ``{% if '</x>' in content %}``): the end of reasoning.

A marker found one way pairs with its partner spelled the usual ways (``</x>``, ``[/X]``,
``<|/x|>``, ``x_start``/``x_end``) among the markers the files carry.

With jinja2 installed the template is parsed (the strings it writes, the literals it
splits on, replaces or tests with ``in``) and rendered in a sandbox on a three-turn
conversation made of sentinel words, which shows each behaviour. Without jinja2, or when
the template does not render, the same questions are answered from the parsed or raw
text, less surely (``Reasoning.rendered`` is False and a note says so).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from leakline.pipeline.core.errors import LeaklineError

# a tag-like literal: <x>, </x>, <|x|>, <｜x｜>, <|x>, [X], [/X], ◁x▷
TAG = re.compile(r"<[|｜]?[/\w:.\-▁]{2,48}[|｜]?>|\[/?[A-Z_]{3,32}\]|◁/?\w{2,24}▷")

# what Hugging Face's chat-template environment enables ({% break %}, {% continue %})
_EXTENSIONS = ["jinja2.ext.loopcontrols"]
# Hugging Face's {% generation %} marks assistant text for training masks; it renders nothing
_GENERATION_TAG = re.compile(r"\{%-?\s*(?:end)?generation\s*-?%\}")
# string methods and filters whose first argument is a literal the template cuts text on
_CUT_METHODS = frozenset({"split", "rsplit", "partition", "rpartition", "replace"})


class TemplateError(LeaklineError):
    """The chat template cannot be used; nothing was written."""


# --------------------------------------------------------------------------- parsing


def check_template(template: str, source: str) -> None:
    """``TemplateError`` when the template is not a parseable Jinja template."""
    template = _GENERATION_TAG.sub("", template)
    env = _environment()
    if env is None:
        _check_blocks(template, source)
        return
    import jinja2

    try:
        env.parse(template)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(
            f"the chat template in {source} does not parse (line {exc.lineno}: {exc.message})",
            hint="pass the model's chat template as shipped (--chat-template FILE)",
        ) from None


_BLOCK = re.compile(r"\{%-?\s*(\w+)")
_OPENERS = {
    "if": "endif",
    "for": "endfor",
    "macro": "endmacro",
    "set": "endset",
    "call": "endcall",
    "filter": "endfilter",
    "raw": "endraw",
    "block": "endblock",
    "generation": "endgeneration",
}


def _check_blocks(template: str, source: str) -> None:
    """Without jinja2: the block tags must nest, and ``{% %}`` / ``{{ }}`` must close."""
    hint = "pass the model's chat template as shipped (--chat-template FILE)"
    if template.count("{%") != template.count("%}") or template.count("{{") != template.count("}}"):
        raise TemplateError(
            f"the chat template in {source} does not parse (unclosed tag)", hint=hint
        )
    stack: list[str] = []
    for m in _BLOCK.finditer(template):
        word = m[1]
        if word == "set" and "=" in template[m.end() : template.find("%}", m.end())]:
            continue  # {% set x = ... %} has no end tag
        if word in _OPENERS:
            stack.append(_OPENERS[word])
        elif word.startswith("end") and (not stack or stack.pop() != word):
            raise TemplateError(
                f"the chat template in {source} does not parse ({word} without its opener)",
                hint=hint,
            )
    if stack:
        raise TemplateError(
            f"the chat template in {source} does not parse (missing {stack[-1]})", hint=hint
        )


def _environment() -> Any:
    """The sandboxed environment Hugging Face renders chat templates in; None without jinja2."""
    try:
        import jinja2
        import jinja2.sandbox
    except ImportError:
        return None

    def raise_exception(message: str) -> None:
        raise jinja2.TemplateError(message)

    env = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=_EXTENSIONS
    )
    env.filters["tojson"] = lambda value, **kw: orjson.dumps(value).decode()
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: time.strftime(fmt)
    return env


@dataclass
class Scan:
    """The literals of a template, by what it does with them."""

    written: list[str] = field(default_factory=list)  # strings it writes (output and constants)
    cut: list[str] = field(default_factory=list)  # literals it splits on, replaces, tests `in`
    prompt: list[str] = field(default_factory=list)  # its generation-prompt block's own strings


def scan(template: str) -> Scan:
    """Sort the template's literals: written, cut on, written by the generation prompt."""
    template = _GENERATION_TAG.sub("", template)
    env = _environment()
    if env is None:
        return _scan_text(template)
    import jinja2
    from jinja2 import nodes

    try:
        tree = env.parse(template)
    except jinja2.TemplateSyntaxError:
        return _scan_text(template)
    # {% set end = '</x>' %} ... content.split(end): a name bound to one string stands for it
    bound: dict[str, str] = {}
    for assign in tree.find_all(nodes.Assign):
        if isinstance(assign.target, nodes.Name) and _const_str(assign.node) is not None:
            bound[assign.target.name] = _const_str(assign.node) or ""
    out = Scan()
    cut_ids: set[int] = set()

    def literal(node: Any) -> str | None:
        if isinstance(node, nodes.Name):
            return bound.get(node.name)
        return _const_str(node)

    for node in tree.find_all((nodes.Call, nodes.Filter, nodes.Compare)):
        arg: Any = None
        if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr):
            if node.node.attr in _CUT_METHODS and node.args:
                arg = node.args[0]
        elif isinstance(node, nodes.Filter) and node.name == "replace" and node.args:
            arg = node.args[0]
        elif isinstance(node, nodes.Compare) and node.ops and node.ops[0].op in ("in", "notin"):
            arg = node.expr
        value = literal(arg) if arg is not None else None
        if value:
            cut_ids.add(id(arg))
            out.cut.append(value)
    for node in tree.find_all((nodes.Const, nodes.TemplateData)):
        if id(node) in cut_ids:
            continue
        text = node.data if isinstance(node, nodes.TemplateData) else node.value
        if isinstance(text, str) and text:
            out.written.append(text)
    for block in tree.find_all(nodes.If):
        names = (block.test, *block.test.find_all(nodes.Name))  # find_all skips the node itself
        if any(isinstance(n, nodes.Name) and n.name == "add_generation_prompt" for n in names):
            out.prompt.extend(_top_level_strings(block.body))
    out.cut = list(dict.fromkeys(out.cut))
    return out


def _const_str(node: Any) -> str | None:
    from jinja2 import nodes

    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return node.value
    return None


def _top_level_strings(body: Sequence[Any]) -> list[str]:
    """The strings a block writes itself, not inside a nested if or for it cannot decide."""
    from jinja2 import nodes

    out: list[str] = []
    for stmt in body:
        if isinstance(stmt, nodes.Output):
            for child in stmt.nodes:
                for leaf in (child, *child.find_all((nodes.Const, nodes.TemplateData))):
                    if isinstance(leaf, nodes.TemplateData):
                        out.append(leaf.data)
                    elif isinstance(leaf, nodes.Const) and isinstance(leaf.value, str):
                        out.append(leaf.value)
    return out


_QUOTED = r"""'((?:[^'\\\n]|\\.){1,64})'|"((?:[^"\\\n]|\\.){1,64})\""""
_LITERAL = re.compile(_QUOTED)
_CUT_TEXT = re.compile(
    r"(?:\.(?:r?split|r?partition|replace)\(\s*|\|\s*replace\(\s*)(?:" + _QUOTED + ")"
)
_IN_TEXT = re.compile("(?:" + _QUOTED + r")\s+(?:not\s+)?in\s+[\w.\[\]'\"]")
_GEN_BLOCK = re.compile(
    r"\{%-?\s*if\s+add_generation_prompt\s*-?%\}(?P<body>.*?)\{%-?\s*(?:endif|else|elif|if)",
    re.DOTALL,
)
_TAGS = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", re.DOTALL)


def _unescape(text: str) -> str:
    return text.replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')


def _scan_text(template: str) -> Scan:
    """``scan`` without jinja2: quoted literals and the text between tags, by regex."""
    out = Scan()
    for pattern in (_CUT_TEXT, _IN_TEXT):
        out.cut.extend(_unescape(m[1] or m[2] or "") for m in pattern.finditer(template))
    out.cut = [c for c in dict.fromkeys(out.cut) if c]
    out.written = [_unescape(m[1] or m[2] or "") for m in _LITERAL.finditer(template)]
    out.written += [t for t in _TAGS.split(template) if t.strip()]
    for m in _GEN_BLOCK.finditer(template):
        body = m["body"]
        out.prompt += [_unescape(x[1] or x[2] or "") for x in _LITERAL.finditer(body)]
        out.prompt += [t for t in _TAGS.split(body) if t.strip()]
    return out


# --------------------------------------------------------------------------- reasoning


# sentinel words for the rendered conversation: nothing a template writes contains them
_U1, _A1, _U2, _R1, _PRE, _POST = "qzu1", "qza1", "qzu2", "qzr1", "qzpre", "qzpost"
_MAX_CUT_RENDERS = 24  # the literals a template cuts on that are checked by rendering

Piece = tuple[bool, str]  # (is a marker, text)

# how a closer is spelled from its opener: (opener part, closer part) substitutions
_WORD_SWAPS = (
    ("START", "END"),
    ("Start", "End"),
    ("start", "end"),
    ("BEGIN", "END"),
    ("Begin", "End"),
    ("begin", "end"),
    ("OPEN", "CLOSE"),
    ("open", "close"),
)
_BRACKETS = ("<|", "<｜", "<", "[", "◁", "【")
_CLOSERS = ("|>", "｜>", ">", "]", "▷", "】")


def closer_forms(opener: str) -> list[str]:
    """The spellings of the delimiter that closes ``opener`` (``</x>``, ``<|/x|>``, ``x_end``)."""
    out = []
    for bracket in _BRACKETS:
        if opener.startswith(bracket) and len(opener) > len(bracket) + 1:
            out.append(bracket + "/" + opener[len(bracket) :])  # <x> -> </x>, <|x|> -> <|/x|>
            break
    for a, b in _WORD_SWAPS:
        if a in opener:
            out.append(opener.replace(a, b, 1))
    for closer in _CLOSERS:
        if opener.endswith(closer) and len(opener) > len(closer) + 1:
            core = opener[: -len(closer)]
            out += [core + "_end" + closer, core + "_END" + closer]  # <|x|> -> <|x_end|>
            break
    return [c for c in dict.fromkeys(out) if c != opener]


@dataclass
class Reasoning:
    """The reasoning delimiters a template shows, and how each was found."""

    starts: list[str] = field(default_factory=list)
    ends: list[str] = field(default_factory=list)
    prefilled: bool = False
    how: dict[str, list[str]] = field(default_factory=dict)  # delimiter -> the evidence
    rendered: bool = False  # True: the behaviours were seen in a rendering
    notes: list[str] = field(default_factory=list)


class _Found:
    """Collects starts and ends with their evidence, in the order found."""

    def __init__(self, allowed: Collection[str]) -> None:
        self.allowed = allowed
        self.starts: dict[str, list[str]] = {}
        self.ends: dict[str, list[str]] = {}

    def start(self, literal: str, how: str) -> None:
        if literal in self.allowed:
            self.starts.setdefault(literal, []).append(how)

    def end(self, literal: str, how: str) -> None:
        if literal in self.allowed:
            self.ends.setdefault(literal, []).append(how)

    def pair_by_shape(self, pool: Iterable[str]) -> None:
        """Give each start its closer and each end its opener, when the files carry it."""
        pool = [p for p in pool if p in self.allowed]
        for start in list(self.starts):
            for end in closer_forms(start):
                if end in pool and end not in self.ends:
                    self.end(end, f"closes {start}")
        for end in list(self.ends):
            for start in pool:
                if end in closer_forms(start) and start not in self.starts:
                    self.start(start, f"opens what {end} closes")


def read_reasoning(
    templates: Sequence[str],
    markers: Collection[str],
    allowed: Collection[str],
    *,
    bos: str = "",
    eos: str = "",
    scans: Sequence[Scan] | None = None,
) -> Reasoning:
    """The reasoning delimiters among ``allowed``, from what the templates do with them.

    ``templates``: a model's chat templates (one, or its named ones: each is read alone);
    ``markers``: every token and tag the files carry (to cut rendered text into pieces);
    ``allowed``: the ones that may be delimiters (no tool-call markup, no reserved tokens).
    """
    scans = scans or [scan(t) for t in templates]
    pattern = _marker_pattern(markers)
    acc = _Found(allowed)
    result = Reasoning(rendered=True)
    pool: list[str] = list(allowed)
    cuts: list[str] = []
    for template, found in zip(templates, scans, strict=True):
        cut = [c for c in found.cut if c in allowed or TAG.fullmatch(c)]
        cuts += cut
        pool += cut
        render = _renderer(_GENERATION_TAG.sub("", template), bos, eos)
        if render is None or not _rendered_evidence(render, pattern, cut, acc, result.notes):
            _static_evidence(found, pattern, cut, [*allowed, *cut], acc)
            result.rendered = False
    if not result.rendered:
        result.notes.append(
            "a template did not render (or jinja2 is not installed): "
            "its reasoning delimiters were judged from its text"
        )
    pool = list(dict.fromkeys(pool))
    acc.pair_by_shape(pool)
    if not acc.starts and not acc.ends:
        _cut_pairs(list(dict.fromkeys(cuts)), acc)
    both = set(acc.starts) & set(acc.ends)
    if both:
        result.notes.append(f"{', '.join(sorted(both))} both open and close: left out")
    starts = [s for s in acc.starts if s not in both]
    ends = [e for e in acc.ends if e not in both]
    if bool(starts) != bool(ends):
        lone = starts or ends
        result.notes.append(
            f"{' '.join(lone)} looks like a reasoning "
            f"{'start' if starts else 'end'} but its partner was not found: left out"
        )
        return result
    result.starts, result.ends = starts, ends
    result.prefilled = any("prefilled" in h for s in starts for h in acc.starts[s])
    result.how = {k: v for k, v in (*acc.starts.items(), *acc.ends.items()) if k not in both}
    return result


def _marker_pattern(markers: Iterable[str]) -> re.Pattern[str]:
    known = sorted({m for m in markers if m.strip()}, key=len, reverse=True)
    return re.compile("|".join([*map(re.escape, known), TAG.pattern]))


def _pieces(text: str, pattern: re.Pattern[str]) -> list[Piece]:
    """``text`` as markers and the words between them (blank space dropped)."""
    out: list[Piece] = []
    pos = 0
    for m in pattern.finditer(text):
        gap = text[pos : m.start()].strip()
        if gap:
            out.append((False, gap))
        out.append((True, m[0]))
        pos = m.end()
    if text[pos:].strip():
        out.append((False, text[pos:].strip()))
    return out


def _past_common(a: list[Piece], b: list[Piece]) -> list[Piece]:
    """What ``a`` has after the pieces it shares with ``b`` from the start."""
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return a[n:]


Render = Callable[..., "str | None"]


def _renderer(template: str, bos: str, eos: str) -> Render | None:
    env = _environment()
    if env is None:
        return None
    try:
        compiled = env.from_string(template)
    except Exception:  # noqa: BLE001 - a template that does not compile cannot be rendered
        return None

    def render(
        messages: list[dict[str, Any]], *, prompt: bool, thinking: bool = True
    ) -> str | None:
        try:
            return str(
                compiled.render(
                    messages=messages,
                    add_generation_prompt=prompt,
                    enable_thinking=thinking,
                    thinking=thinking,
                    bos_token=bos,
                    eos_token=eos,
                    tools=None,
                )
            )
        except Exception:  # noqa: BLE001 - any template failure means "cannot tell by rendering"
            return None

    return render


def _turns(assistant: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": _U1},
        {"role": "assistant", **assistant},
        {"role": "user", "content": _U2},
    ]


def _rendered_evidence(
    render: Render, pattern: re.Pattern[str], cut: Sequence[str], acc: _Found, notes: list[str]
) -> bool:
    """Render the behaviours; False when the plain conversation does not render."""
    on = render(_turns({"content": _A1}), prompt=True)
    if on is None or not (0 <= on.find(_U1) < on.find(_A1) < on.rfind(_U2)):
        return False
    header = _pieces(on[on.find(_U1) + len(_U1) : on.find(_A1)], pattern)
    prompt = _pieces(on[on.rfind(_U2) + len(_U2) :], pattern)
    # prefill: the generation prompt goes on past the assistant header, and ends on a marker
    bare = render(_turns({"content": _A1}), prompt=False)
    bare_tail = _pieces(bare[bare.rfind(_U2) + len(_U2) :], pattern) if bare and _U2 in bare else []
    added = bool(_past_common(prompt, bare_tail))
    extra = _past_common(prompt, header)
    start = None
    if not added:
        pass  # no generation prompt (or it renders nothing): nothing is prefilled
    elif extra and extra[-1][0]:
        start = extra[-1][1]
    elif not extra and prompt and prompt[-1][0] and len(prompt) < len(header):
        start = prompt[-1][1]  # history turns get more (an empty block) after the same start
    elif extra:
        notes.append(
            f"the generation prompt adds text after the assistant header: {extra[-1][1]!r}"
        )
    if start is not None:
        acc.start(start, "prefilled by the generation prompt")
    # thinking off: an empty block, or the end alone, past the thinking-on generation prompt
    off = render(_turns({"content": _A1}), prompt=True, thinking=False)
    if off is not None and off != on and _U2 in off:
        extra_off = _past_common(_pieces(off[off.rfind(_U2) + len(_U2) :], pattern), prompt)
        if len(extra_off) == 2 and extra_off[0][0] and extra_off[1][0]:
            acc.start(extra_off[0][1], "written as an empty block when thinking is off")
            acc.end(extra_off[1][1], "written as an empty block when thinking is off")
        elif len(extra_off) == 1 and extra_off[0][0] and start and extra_off[0][1] != start:
            acc.end(extra_off[0][1], "written in place of the start when thinking is off")
    _wrap_evidence(render, pattern, acc)
    # split on and stripped from history: what came before the literal is gone, what after stays
    for literal in cut[:_MAX_CUT_RENDERS]:
        text = render(_turns({"content": f"{_PRE} {literal} {_POST}"}), prompt=True)
        if text is not None and _PRE not in text and _POST in text:
            acc.end(literal, "split on and stripped from history")
    return True


_REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")


def _wrap_evidence(render: Render, pattern: re.Pattern[str], acc: _Found) -> None:
    """The markers right around a message's reasoning field that do not also wrap its answer."""
    message = {"content": _A1, **dict.fromkeys(_REASONING_FIELDS, _R1)}
    for text in (
        render(_turns(message)[:2], prompt=False),
        render(_turns(message), prompt=True),
    ):
        if text is None or _R1 not in text:
            continue
        r = text.find(_R1)
        before = _pieces(text[:r], pattern)
        after = _pieces(text[r + len(_R1) :], pattern)
        if not (before and before[-1][0] and after and after[0][0]):
            continue
        start, end = before[-1][1], after[0][1]
        a = text.find(_A1)
        answer_before = _pieces(text[:a], pattern)[-1:] if a >= 0 else []
        answer_after = _pieces(text[a + len(_A1) :], pattern)[:1] if a >= 0 else []
        if start != end and (True, start) not in answer_before and (True, end) not in answer_after:
            acc.start(start, "written before the message's reasoning")
            acc.end(end, "written after the message's reasoning")
        return


def _static_evidence(
    found: Scan, pattern: re.Pattern[str], cut: Sequence[str], pool: Sequence[str], acc: _Found
) -> None:
    """Without a rendering: the generation prompt's last marker, and the literals cut on."""
    prompt = _pieces("".join(found.prompt), pattern)
    start = prompt[-1][1] if prompt and prompt[-1][0] else None
    # the assistant header may end on a marker too (<|im_middle|>): a start must have an end
    if start is not None and (set(closer_forms(start)) & {*cut, *pool}):
        acc.start(start, "prefilled by the generation prompt (judged from the text)")
    for literal in cut:
        closes = any(literal in closer_forms(p) for p in pool)
        if closes or (start in acc.starts and literal != start):
            acc.end(literal, "split on in history (judged from the text)")


def _cut_pairs(cut: Sequence[str], acc: _Found) -> None:
    """Two literals the template cuts on that spell an opener and its closer."""
    for start in cut:
        for end in closer_forms(start):
            if end in cut:
                acc.start(start, f"split on in history, with {end}")
                acc.end(end, f"split on in history, with {start}")
