"""One event in the making: the context scenarios draw from and the plan they fill in.

``EventContext`` holds one event's draws (deployment, language, topic, stream mode, the
topic's values and tools) and composes texts from the bank. ``ResponsePlan`` is what the
response should carry, independent of the API; ``writers`` turns it into wire bodies.

Every method draws from the event's one ``rng``, so the order of calls is part of the
traffic: calling them in another order changes every later event of the run.
"""

from __future__ import annotations

import json
import random
from typing import Any

from leakline.pipeline.simulate import texts as T
from leakline.pipeline.simulate import topics
from leakline.pipeline.simulate.draws import choice, randint, randrange, sample
from leakline.pipeline.simulate.fleet import Deployment


class EventContext:
    """One event's draws, and the texts composed from them in its language and topic."""

    __slots__ = (
        "rng",
        "dep",
        "lang",
        "topic",
        "v",
        "stream",
        "bank",
        "tool",
        "extra_tools",
        "joiner",
    )

    def __init__(
        self, rng: random.Random, dep: Deployment, lang: str, topic: str, stream: bool
    ) -> None:
        self.rng = rng
        self.dep = dep
        self.lang = lang
        self.topic = topic
        self.stream = stream
        self.v = topics.topic_values(rng, lang, topic)
        self.bank = T.BANK[lang][topic]
        self.tool = topics.TOOLS[topic]
        self.extra_tools = tuple(sample(rng, topics.OTHER_TOOLS[topic], choice(rng, (0, 0, 1, 2))))
        self.joiner = T.JOINER[lang]

    def fmt(self, template: str) -> str:
        return template.format_map(self.v)

    def prompt(self) -> str:
        return self.fmt(choice(self.rng, self.bank["prompts"]))

    def answer(self) -> str:
        rng, sents = self.rng, self.bank["answer"]
        lead = self.fmt(sents[randrange(rng, 2)])
        rest = sents[2:]
        picked = sorted(sample(rng, range(len(rest)), randint(rng, 1, min(3, len(rest)))))
        body = self.joiner.join(self.fmt(rest[i]) for i in picked)
        text = lead + ("\n\n" if rng.random() < 0.3 else self.joiner) + body
        if rng.random() < 0.3:
            text += "\n\n" + choice(rng, T.CLOSERS[self.lang])
        return text

    def reasoning(self, short: bool = False) -> str:
        rng, sents = self.rng, self.bank["reasoning"]
        subject = self.fmt(choice(rng, self.bank["subject"]))
        cue = choice(rng, T.REASONING_CUES[self.lang]).replace("{subject}", subject)
        k = 1 if short else randint(rng, 2, len(sents))
        picked = sorted(sample(rng, range(len(sents)), k))
        parts = [cue] + [self.fmt(sents[i]) for i in picked]
        wrap = choice(rng, T.REASONING_WRAPUPS[self.lang])
        if wrap and not short:
            parts.append(wrap)
        sep = "\n" if rng.random() < 0.25 else self.joiner
        return sep.join(parts)

    def preamble(self) -> str:
        if self.rng.random() < 0.5:
            return self.fmt(choice(self.rng, self.bank["preamble"]))
        return choice(self.rng, T.PREAMBLES[self.lang])

    def commentary(self) -> str:
        if self.rng.random() < 0.5:
            return choice(self.rng, T.COMMENTARY[self.lang])
        return self.fmt(choice(self.rng, self.bank["preamble"]))

    def json_output(self) -> dict[str, Any]:
        return topics.json_output(self.rng, self.lang, self.topic, self.v)

    def json_text(self, obj: dict[str, Any]) -> str:
        return json.dumps(obj, ensure_ascii=False, indent=2 if self.rng.random() < 0.3 else None)

    def args(self) -> dict[str, Any]:
        return self.tool.args(self.v)

    def cut(self, text: str) -> str:
        """A prefix of ``text`` as if generation stopped mid-way."""
        return text[: max(1, int(len(text) * self.rng.uniform(0.3, 0.8)))]


class ResponsePlan:
    """What one response should look like, independent of the API shape."""

    __slots__ = (
        "tools",
        "structured",
        "stop",
        "followup",
        "thinking",
        "prompt",
        "system",
        "content",
        "reasoning",
        "calls",
        "finish",
        "commentary",
        "mixed",
        "split",
        "labels",
        "schema",
        "thinking_kwarg",
        "strict",
        "history",
    )

    def __init__(self) -> None:
        self.tools = False
        self.structured: str | None = None  # None | "json_schema" | "json_object"
        self.stop = False
        self.followup = False
        self.thinking: bool | None = None  # Messages: request thinking
        self.prompt: str | None = None
        self.system: str | None = None
        self.content: str | None = None
        self.reasoning = ""
        self.calls: list[tuple[str, str]] = []  # (name, arguments as sent)
        self.finish = "stop"  # stop | length | tool_calls
        self.commentary = ""
        self.mixed = False
        self.split: str | None = None  # a delimiter to split across two stream chunks
        self.labels: set[str] = set()
        self.schema: dict[str, Any] | None = None  # overrides the topic's response schema
        # chat.completions: chat_template_kwargs.enable_thinking (None: not sent)
        self.thinking_kwarg: bool | None = None
        self.strict: str | None = None  # tools sent with strict: all | some | none
        # follow-up history: None (as the family's template expects) | "missing" (reasoning
        # of the tool-call turn not passed back) | "resent" (an earlier turn's reasoning kept)
        self.history: str | None = None
