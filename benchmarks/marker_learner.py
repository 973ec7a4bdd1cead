"""The fleet learner (issue 29 item 1): how soon it suggests an invented marker, whether it
ever suggests one on clean fleets, and what it costs per event.

A seeded generator builds a fleet: several models, some with two versions (engine
version / template hash), each model serving its own mix of clean content (HTML, JSX,
XML, Markdown, code with and without fences, TOML/INI headers, math with angle brackets,
templates, wikitext, chat transcripts, lyrics and scripts, CJK exam answers with
``【答案】``, citations, and apps whose system prompt asks for tags the answer then
writes). In a leak run, after ``--warmup`` events a new version of one model takes part
of its traffic and writes, in a share of its answers, a marker drawn from ``grammar``:
a bracket family, a decoration (pipes, ``▁``, doubling), a name (a reasoning, turn or
channel word, or an invented syllable word) and a placement (a reasoning pair before the
answer, an end-of-turn token closing it, a role header opening a line). The grammar was
written once; it differs per seed only through the draws.

The learner (``pipeline/worker/marker_learner.py``) is fed in batches of ``--batch``
events, the way the worker feeds it, and reviewed after each batch. Reported:

- per leak seed, fleet events from the start of the leak to the suggestion (target:
  <= 2000 on >= 95 % of seeds), and any suggestion that is not the leaked marker;
- over the clean fleets (target: >= 200k events): every suggestion is a false one;
- cost per event: ``marker_shapes.tally`` (what the batch child adds) + ``MarkerLearner``
  ``add`` / ``review`` (the main process, per batch), against ``orjson.loads`` of the same
  events, measured in the same run: on ``PRODUCTION_MIX`` (the worker's benchmark traffic;
  the target is <= 0.5x) and on this benchmark's bracket-dense fleet (the worst case).

Thresholds were tuned on seeds 0-9 (``--seeds 0-9``); the figures in
``benchmarks/README.md`` are for seeds 100-139 and clean seeds 100-104.

    .venv/bin/python benchmarks/marker_learner.py                      # report seeds
    .venv/bin/python benchmarks/marker_learner.py --seeds 0-9 --clean-seeds 0-1
    .venv/bin/python benchmarks/marker_learner.py --json out.json
    .venv/bin/python benchmarks/marker_learner.py --cost-only         # the cost figures alone
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import string
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from leakline.detectors import marker_shapes as ms
from leakline.pipeline.worker.marker_learner import BatchMarkers, MarkerLearner

# --------------------------------------------------------------------------- clean content

_WORDS = [
    "the",
    "a",
    "model",
    "answer",
    "user",
    "data",
    "value",
    "system",
    "file",
    "time",
    "result",
    "function",
    "table",
    "list",
    "query",
    "request",
    "server",
    "cache",
    "memory",
    "page",
    "form",
    "button",
    "image",
    "link",
    "report",
    "step",
    "plan",
    "order",
    "price",
    "week",
    "city",
    "river",
    "music",
    "story",
    "team",
    "game",
    "score",
    "rule",
    "test",
    "error",
    "input",
    "output",
    "config",
    "option",
    "network",
    "layer",
    "token",
    "budget",
    "reason",
    "source",
    "cost",
    "market",
    "share",
]
_XML = [
    "note",
    "to",
    "from",
    "body",
    "item",
    "config",
    "entry",
    "record",
    "title",
    "author",
    "price",
    "book",
    "catalog",
    "order",
    "customer",
    "address",
    "street",
]
_JSX = [
    "Button",
    "Card",
    "App",
    "Header",
    "Footer",
    "Modal",
    "Layout",
    "Sidebar",
    "NavBar",
    "Provider",
    "Route",
    "Link",
    "Avatar",
    "Tooltip",
]
_HTML = [
    "div",
    "p",
    "span",
    "ul",
    "li",
    "ol",
    "table",
    "tr",
    "td",
    "section",
    "article",
    "header",
    "footer",
    "nav",
    "main",
    "h2",
    "h3",
    "em",
    "strong",
]
_TOML = [
    "package",
    "dependencies",
    "dev-dependencies",
    "tool.poetry",
    "build-system",
    "server",
    "database",
    "logging",
    "Settings",
    "General",
    "profile.release",
]
_LYRICS = ["Verse 1", "Verse 2", "Chorus", "Bridge", "Outro", "Intro", "Pre-Chorus", "Hook"]
_SCRIPT = [
    "Scene 1",
    "Scene 2",
    "Narrator",
    "Music fades",
    "Applause",
    "Laughter",
    "Door slams",
    "Pause",
]
_NICKS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
_CJK_HEAD = ["答案", "解析", "注意", "提示", "总结", "例题", "考点", "分析", "结论", "步骤"]
_KO_HEAD = ["정답", "해설", "요약", "참고", "주의", "예시"]
_BOOKS = ["红楼梦", "三国演义", "西游记", "水浒传", "论语", "史记"]
_WIKI = ["Category:History", "File:Map.png", "Main Page", "Help:Contents", "Talk:Physics"]
_ASKED = ("answer", "summary", "final", "result", "response", "json", "output", "critique", "sql")


def _sentence(rng: random.Random, n: int = 0) -> str:
    words = [rng.choice(_WORDS) for _ in range(n or rng.randint(6, 16))]
    return " ".join(words).capitalize() + rng.choice(".!?.")


def _prose(rng: random.Random) -> str:
    return "\n\n".join(
        " ".join(_sentence(rng) for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(1, 4))
    )


def _markdown(rng: random.Random) -> str:
    lines = [f"## {_sentence(rng, 3)[:-1]}", _sentence(rng)]
    for _ in range(rng.randint(2, 6)):
        kind = rng.random()
        if kind < 0.3:
            lines.append(f"- [{rng.choice('x ')}] {_sentence(rng, 4)}")
        elif kind < 0.5:
            lines.append(f"[{_sentence(rng, 2)[:-1]}](https://example.com/{rng.choice(_WORDS)})")
        elif kind < 0.6:
            lines.append(f"[{rng.randint(1, 9)}]: https://example.org/{rng.choice(_WORDS)}")
        elif kind < 0.75:
            lines.append(f"| {rng.choice(_WORDS)} | {rng.randint(1, 99)} |")
        else:
            lines.append(f"> {_sentence(rng)}")
    return "\n".join(lines)


def _html(rng: random.Random) -> str:
    tag = rng.choice(_HTML)
    lines = [f'<{tag} class="{rng.choice(_WORDS)}">']
    for _ in range(rng.randint(1, 5)):
        inner = rng.choice(_HTML)
        lines.append(f"  <{inner}>{_sentence(rng, 4)}</{inner}>")
    lines.append(f"</{tag}>")
    body = "\n".join(lines)
    return f"{_sentence(rng)}\n\n{body}" if rng.random() < 0.5 else body


def _xml(rng: random.Random) -> str:
    root = rng.choice(_XML)
    lines = [f"<{root}>"]
    for _ in range(rng.randint(1, 4)):
        child = rng.choice(_XML)
        lines.append(f"<{child}>{rng.choice(_WORDS)}</{child}>")
    lines.append(f"</{root}>")
    head = '<?xml version="1.0"?>\n' if rng.random() < 0.3 else ""
    return head + "\n".join(lines)


def _jsx(rng: random.Random) -> str:
    comp = rng.choice(_JSX)
    inner = rng.choice(_JSX)
    return f"{_sentence(rng)}\n\n<{comp}>\n  <{inner} />\n  {{children}}\n</{comp}>\n\n{_sentence(rng)}"


def _code(rng: random.Random) -> str:
    if rng.random() < 0.6:
        body = (
            f"#include <stdio.h>\nstd::vector<int> v;\n<{rng.choice(_XML)}>\n[{rng.choice(_TOML)}]"
        )
        return f"{_sentence(rng)}\n\n```cpp\n{body}\n```\n\n{_sentence(rng)}"
    section = rng.choice(_TOML)
    return f'[{section}]\nname = "{rng.choice(_WORDS)}"\nversion = "0.{rng.randint(1, 9)}"\n\n[{rng.choice(_TOML)}]\nkey = 1'


def _math(rng: random.Random) -> str:
    a, b = rng.choice("xyzψφ"), rng.choice("abcψφ")
    forms = [f"⟨{a}|{b}⟩", f"⟨{a}, {b}⟩", f"[0, {rng.randint(1, 9)}]", f"〈{a}〉", f"<{a}_i>"]
    return "\n".join(
        f"{rng.choice(forms)} = {rng.randint(0, 9)} {_sentence(rng, 4)}" for _ in range(3)
    )


def _template(rng: random.Random) -> str:
    forms = [
        "{{ name }}",
        "{% for item in items %}",
        "<%= user.name %>",
        "{|class=wikitable\n|-\n| a || b\n|}",
        f"[[{rng.choice(_WIKI)}]]",
        f"<<{rng.choice(_WORDS)}-anchor>>",
        "{{#each items}}",
        "${value}",
    ]
    return "\n".join(f"{rng.choice(forms)} {_sentence(rng, 5)}" for _ in range(rng.randint(2, 4)))


def _chat(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(3, 8)):
        nick = rng.choice(_NICKS)
        style = rng.random()
        if style < 0.4:
            lines.append(f"<{nick}> {_sentence(rng, 5)}")
        elif style < 0.7:
            lines.append(
                f"[{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}] <{nick}> {_sentence(rng, 4)}"
            )
        else:
            lines.append(f"[{nick.capitalize()}]: {_sentence(rng, 5)}")
    return "\n".join(lines)


def _lyrics(rng: random.Random) -> str:
    parts = _LYRICS if rng.random() < 0.6 else _SCRIPT
    return "\n\n".join(
        f"[{rng.choice(parts)}]\n{_sentence(rng)}\n{_sentence(rng)}" for _ in range(3)
    )


def _cjk(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "\n".join(
            f"【{rng.choice(_CJK_HEAD)}】{rng.choice(['这道题的关键是', '首先', '因此', '所以'])}{rng.randint(2, 99)}。"
            for _ in range(rng.randint(2, 4))
        )
    if rng.random() < 0.5:
        return f"《{rng.choice(_BOOKS)}》是中国古典文学名著之一。\n它讲述了很多故事。"
    return "\n".join(
        f"[{rng.choice(_KO_HEAD)}] 이 문제의 답은 {rng.randint(1, 9)}입니다." for _ in range(3)
    )


def _citations(rng: random.Random) -> str:
    return " ".join(
        f"{_sentence(rng)} [{rng.randint(1, 12)}]"
        if rng.random() < 0.5
        else f"{_sentence(rng)}【{rng.randint(1, 9)}†source】"
        for _ in range(4)
    )


CATEGORIES = {
    "prose": _prose,
    "markdown": _markdown,
    "html": _html,
    "xml": _xml,
    "jsx": _jsx,
    "code": _code,
    "math": _math,
    "template": _template,
    "chat": _chat,
    "lyrics": _lyrics,
    "cjk": _cjk,
    "citations": _citations,
}


# --------------------------------------------------------------------------- invented markers

_BRACKETS = (
    ("<", ">"),
    ("<<", ">>"),
    ("[", "]"),
    ("[[", "]]"),
    ("【", "】"),
    ("⟨", "⟩"),
    ("〈", "〉"),
    ("《", "》"),
    ("◁", "▷"),
    ("{|", "|}"),
    ("▶▶", "◀◀"),
)
_REASON_WORDS = (
    "reason",
    "plan",
    "scratch",
    "reflect",
    "deliberate",
    "ponder",
    "inner",
    "draft",
    "analysis",
    "mull",
    "notes",
    "think_deep",
    "思考",
    "推理",
    "생각",
)
_TURN_WORDS = ("eot", "end_turn", "stop", "done", "turn_end", "eom", "fin", "end_msg")
_ROLE_WORDS = ("assistant", "bot", "model", "agent", "reply", "speaker")


def _invented_word(rng: random.Random) -> str:
    return "".join(
        rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 3))
    )


@dataclass
class Marker:
    """One invented marker: how it is spelled and where the leaking version writes it."""

    placement: str  # "pair" | "end" | "header"
    open: str
    close: str = ""

    @property
    def shape(self) -> str:
        return self.open + ms.PAIR_SEP + self.close if self.placement == "pair" else self.open

    def write(self, rng: random.Random, answer: str) -> str:
        if self.placement == "pair":
            reasoning = _sentence(rng) + " " + _sentence(rng)
            glue = rng.choice(["", "\n", "\n\n"])
            return f"{self.open}{glue}{reasoning}{glue}{self.close}{rng.choice(['', chr(10), chr(10) * 2])}{answer}"
        if self.placement == "end":
            return answer + rng.choice(["", "\n"]) + self.open
        return f"{self.open}\n{answer}" if rng.random() < 0.5 else f"{self.open} {answer}"


def grammar(rng: random.Random) -> Marker:
    """An invented marker: bracket family x decoration x name x case x placement."""
    open_, close = rng.choice(_BRACKETS)
    placement = rng.choice(["pair", "pair", "end", "header"])
    words = {"pair": _REASON_WORDS, "end": _TURN_WORDS, "header": _ROLE_WORDS}[placement]
    word = rng.choice(words) if rng.random() < 0.6 else _invented_word(rng)
    if rng.random() < 0.3 and word.isascii():
        word = word.upper()
    deco = rng.choice(["", "", "|", "▁"]) if open_ not in ("{|",) else ""
    if deco == "▁":
        word = "▁" + word
        deco = ""
    inner = f"{deco}{word}{deco}"
    if placement == "pair":
        pad = " " if open_ == "▶▶" else ""
        return Marker(
            "pair",
            f"{open_}{pad}{inner}{pad}{close}",
            f"{open_}{pad}/{inner}{pad}{close}"
            if not deco
            else f"{open_}{deco}/{word}{deco}{close}",
        )
    return Marker(placement, f"{open_}{inner}{close}")


# --------------------------------------------------------------------------- the fleet


@dataclass
class Group:
    key: str
    model: str
    mix: list[float]
    asked: str | None  # a tag the app's system prompt asks for
    share: float


@dataclass
class Fleet:
    seed: int
    groups: list[Group] = field(default_factory=list)

    @classmethod
    def build(cls, seed: int) -> Fleet:
        rng = random.Random(seed)
        fleet = cls(seed)
        names = list(CATEGORIES)
        for m in range(rng.randint(4, 7)):
            model = f"org/model-{m}-{''.join(rng.choices(string.ascii_lowercase, k=3))}"
            mix = [rng.gammavariate(0.5, 1.0) for _ in names]
            total = sum(mix)
            mix = [x / total for x in mix]
            asked = rng.choice(_ASKED) if rng.random() < 0.5 else None
            share = rng.uniform(0.5, 2.0)
            for v in range(rng.choice([1, 1, 2, 2, 3])):
                key = ms.group_key(
                    model, "vllm", f"0.{8 + v}.{rng.randint(0, 5)}", f"t{rng.randint(0, 9999):04d}"
                )
                fleet.groups.append(Group(key, model, mix, asked, share))
        return fleet

    def add_leaking_version(self, rng: random.Random) -> tuple[Group, Marker]:
        base = rng.choice(self.groups)
        siblings = [g for g in self.groups if g.model == base.model]
        key = ms.group_key(
            base.model, "vllm", f"1.{rng.randint(0, 9)}.0", f"t{rng.randint(0, 9999):04d}"
        )
        share = sum(g.share for g in siblings) / (len(siblings) + 1)
        for g in siblings:
            g.share = share  # the new version takes part of the model's traffic
        group = Group(key, base.model, base.mix, base.asked, share)
        self.groups.append(group)
        return group, grammar(rng)


def _answer(rng: random.Random, group: Group) -> tuple[str, str]:
    names = list(CATEGORIES)
    category = rng.choices(names, weights=group.mix)[0]
    answer = CATEGORIES[category](rng)
    prompt = _sentence(rng)
    if group.asked and rng.random() < 0.7:
        tag = group.asked
        prompt = f"Reply with your answer inside <{tag}></{tag}> tags.\n\n{prompt}"
        answer = f"<{tag}>\n{answer}\n</{tag}>"
    elif rng.random() < 0.1:  # the user pastes markup and asks about it
        prompt = f"{prompt}\n\n{_xml(rng)}"
        answer = f"{_sentence(rng)}\n{prompt.splitlines()[-1]}\n{answer}"
    return prompt, answer


def events(
    fleet: Fleet, rng: random.Random, count: int, leak: tuple[Group, Marker, float] | None = None
) -> Iterator[tuple[str, str, str, bool]]:
    """(group key, prompt, visible text, marker written) per event."""
    weights = [g.share for g in fleet.groups]
    for _ in range(count):
        group = rng.choices(fleet.groups, weights=weights)[0]
        prompt, answer = _answer(rng, group)
        leaked = False
        if leak is not None and group is leak[0] and rng.random() < leak[2]:
            answer = leak[1].write(rng, answer)
            leaked = True
        yield group.key, prompt, answer, leaked


# --------------------------------------------------------------------------- running


def _batch(items: list[tuple[str, str, str, bool]]) -> BatchMarkers:
    batch: BatchMarkers = {}
    for key, prompt, text, _ in items:
        ms.tally(batch, key, text, prompt)
    return batch


def _learner() -> MarkerLearner:
    return MarkerLearner(known=lambda: ())


def leak_run(seed: int, warmup: int, after: int, batch: int) -> dict[str, Any]:
    rng = random.Random(seed * 7919 + 1)
    fleet = Fleet.build(seed)
    learner = _learner()
    false: list[str] = []
    for chunk in _chunks(events(fleet, rng, warmup), batch):
        learner.add(_batch(chunk))
        false += ["|".join(s["shape"]) for s in learner.review()]
    group, marker = fleet.add_leaking_version(rng)
    rate = rng.uniform(0.1, 0.5)
    seen_at: int | None = None
    done = 0
    leaked = 0
    for chunk in _chunks(events(fleet, rng, after, (group, marker, rate)), batch):
        learner.add(_batch(chunk))
        done += len(chunk)
        leaked += sum(1 for c in chunk if c[3])
        for s in learner.review():
            shape = ms.PAIR_SEP.join(s["shape"])
            if shape == marker.shape or shape in marker.shape.split(ms.PAIR_SEP):
                seen_at = done if seen_at is None else seen_at
            else:
                false.append("|".join(s["shape"]))
        if seen_at is not None and done >= seen_at + 5 * batch:
            break
    return {
        "seed": seed,
        "marker": marker.shape.replace(ms.PAIR_SEP, " … "),
        "placement": marker.placement,
        "rate": round(rate, 3),
        "share": round(group.share / sum(g.share for g in fleet.groups), 3),
        "events_to_suggestion": seen_at,
        "leaked_before": leaked,
        "false_suggestions": false,
    }


def clean_run(seed: int, count: int, batch: int) -> dict[str, Any]:
    rng = random.Random(seed * 104729 + 3)
    fleet = Fleet.build(10_000 + seed)
    learner = _learner()
    false: list[str] = []
    for chunk in _chunks(events(fleet, rng, count), batch):
        learner.add(_batch(chunk))
        false += [f"{s['group']['model']}: {' … '.join(s['shape'])}" for s in learner.review()]
    return {"seed": seed, "events": count, "groups": len(fleet.groups), "false_suggestions": false}


def cost(seed: int, count: int, batch: int) -> dict[str, float]:
    """µs per event: sighting + counting, and orjson.loads of the same events (best of 3)."""
    rng = random.Random(seed)
    fleet = Fleet.build(seed)
    items = list(events(fleet, rng, count))
    payloads = [
        orjson.dumps(
            {
                "event_id": f"e{i}",
                "api": "chat.completions",
                "request": {"model": "m", "messages": [{"role": "user", "content": p}]},
                "response": {
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": t},
                            "finish_reason": "stop",
                        }
                    ]
                },
            }
        )
        for i, (_, p, t, _) in enumerate(items)
    ]

    def learn() -> None:
        learner = _learner()
        for chunk in _chunks(iter(items), batch):
            learner.add(_batch(chunk))
            learner.review()

    decode, learned = float("inf"), float("inf")
    gc.disable()
    try:
        for _ in range(3):  # interleaved: a shared machine's noise hits both alike
            decode = min(decode, _timed(lambda: [orjson.loads(p) for p in payloads]))
            learned = min(learned, _timed(learn))
    finally:
        gc.enable()
    return {
        "events": count,
        "decode_us": decode / count * 1e6,
        "learner_us": learned / count * 1e6,
        "learner_vs_decode": learned / decode,
        "mean_event_bytes": sum(map(len, payloads)) / count,
    }


def production_cost(
    count: int, seed: int = 11, batch: int = 500, repeats: int = 5
) -> dict[str, float]:
    """µs per event on ``PRODUCTION_MIX`` (the traffic the worker benchmarks use): what the
    batch child adds per event (``marker_shapes.tally``: group key + sighting) plus the
    main process's ``MarkerLearner.add`` / ``review`` per batch, against ``orjson.loads``
    of the same encoded events. Best of ``repeats``, old/new interleaved, collector off."""
    from leakline.pipeline.events.normalise import normalise
    from leakline.pipeline.simulate.traffic_model import PRODUCTION_MIX, simulate

    payloads = [orjson.dumps(s.event) for s in simulate(count, seed=seed, mix=PRODUCTION_MIX)]
    exchanges = [normalise(orjson.loads(p)) for p in payloads]
    rows = [
        (
            ms.group_key(v.model_name, v.engine_name, v.engine_version, v.template_hash),
            x.visible_text,
            x.prompt_text,
        )
        for x in exchanges
        for v in (x.versions,)
    ]

    def decode() -> None:
        for p in payloads:
            orjson.loads(p)

    def learn() -> None:
        learner = _learner()
        for start in range(0, count, batch):
            markers: BatchMarkers = {}
            for key, visible, prompt in rows[start : start + batch]:
                ms.tally(markers, key, visible, prompt)
            learner.add(markers)
            learner.review()

    decoded, learned = float("inf"), float("inf")
    gc.disable()
    try:
        for _ in range(repeats):  # interleaved: a shared machine's noise hits both alike
            decoded = min(decoded, _timed(decode))
            learned = min(learned, _timed(learn))
    finally:
        gc.enable()
    return {
        "events": count,
        "decode_us": decoded / count * 1e6,
        "learner_us": learned / count * 1e6,
        "learner_vs_decode": learned / decoded,
        "mean_event_bytes": sum(map(len, payloads)) / count,
        "with_sighting": sum(1 for _, v, p in rows if ms.sighting(v, p) is not None) / count,
    }


def _costs(events: int, batch: int) -> dict[str, float]:
    """Both cost figures: the production mix (the target: <= 0.5x a JSON decode) and the
    benchmark's bracket-dense fleet (the worst case: every answer has brackets)."""
    production = production_cost(events)
    fleet = cost(0, events, batch)
    return {
        **{f"production_{k}": round(v, 3) for k, v in production.items()},
        **{f"fleet_{k}": round(v, 3) for k, v in fleet.items()},
    }


def _timed(fn: Any) -> float:
    """CPU seconds of ``fn()``: on a shared machine, wall time mostly measures the others."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def _chunks(it: Iterator[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in it:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _range(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="100-139", help="leak seeds (tuning: 0-9)")
    p.add_argument("--clean-seeds", default="100-104", help="clean fleets")
    p.add_argument("--clean-events", type=int, default=40_000, help="events per clean fleet")
    p.add_argument("--warmup", type=int, default=5_000, help="clean events before the leak")
    p.add_argument("--after", type=int, default=6_000, help="events after the leak at most")
    p.add_argument("--batch", type=int, default=100)
    p.add_argument("--cost-events", type=int, default=20_000)
    p.add_argument("--json", metavar="FILE")
    p.add_argument(
        "--cost-only", action="store_true", help="only the cost figures (production mix, fleet)"
    )
    args = p.parse_args(argv)
    if args.cost_only:
        print(json.dumps(_costs(args.cost_events, args.batch), indent=2))
        return 0
    leaks = [leak_run(s, args.warmup, args.after, args.batch) for s in _range(args.seeds)]
    for r in leaks:
        print(
            f"seed {r['seed']:>4} {r['placement']:<6} rate {r['rate']:.2f} share {r['share']:.2f} "
            f"{r['marker'][:40]!r:<44} -> {r['events_to_suggestion']} events"
            + (f"  FALSE: {r['false_suggestions']}" if r["false_suggestions"] else "")
        )
    cleans = [clean_run(s, args.clean_events, args.batch) for s in _range(args.clean_seeds)]
    for r in cleans:
        print(
            f"clean seed {r['seed']}: {r['events']} events, {r['groups']} groups, false: {r['false_suggestions']}"
        )
    within = sum(
        1
        for r in leaks
        if r["events_to_suggestion"] is not None and r["events_to_suggestion"] <= 2000
    )
    found = sorted(
        r["events_to_suggestion"] for r in leaks if r["events_to_suggestion"] is not None
    )
    clean_events = sum(r["events"] for r in cleans) + args.warmup * len(leaks)
    false_clean = sum(len(r["false_suggestions"]) for r in cleans)
    false_leak = sum(len(r["false_suggestions"]) for r in leaks)
    summary = {
        "leak_seeds": len(leaks),
        "within_2000": within,
        "within_2000_share": within / max(1, len(leaks)),
        "median_events": found[len(found) // 2] if found else None,
        "max_events": found[-1] if found else None,
        "clean_events": clean_events,
        "false_suggestions_clean_fleets": false_clean,
        "false_suggestions_leak_fleets": false_leak,
        **_costs(args.cost_events, args.batch),
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"summary": summary, "leaks": leaks, "clean": cleans}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
