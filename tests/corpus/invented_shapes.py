"""A seeded generator of *invented* leak shapes (issue 29): tokens, reasoning frames and
tool-call formats that no real model family uses, plus clean answers heavy with look-alikes.

    from invented_shapes import generate
    cases = generate(7)          # ~100 corpus-format cases, the same for the same seed

Every seed draws its own names from one small grammar (control words, syllables, bracket
families, glyph pairs, tool verbs and nouns), so the shapes cannot be memorised: a detector
measured here has to work from the shape. Labels follow ``detectors/LABELS.md`` and issue 29;
they were decided from the class, never by running a detector. The grammar was written
without reading the detectors. Seeds live in ``invented_seeds.json``: nobody tunes on the
held-out ones.

Cases carry the corpus fields (``case_id``, ``expected_labels``, ``family``, ``lang``, ``note``,
``event``) plus ``shape_class``, ``seed``, ``invented`` (the invented strings the case uses),
``lookalike`` (clean cases: the trap they set) and ``reasoning_form`` (``tagged`` for
reasoning in an invented frame, ``untagged`` for a bare plan or walk).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import invented_turns  # noqa: E402
from corpus_src.profiles import Profile  # noqa: E402
from corpus_src.shapes import (  # noqa: E402
    FC,
    MSG,
    RF_JSON_OBJECT,
    RS,
    TC,
    TH,
    TU,
    TX,
    C,
    Cs,
    Rs,
    Theme,
    assemble,
    rf_schema,
)
from invented_clean import LOOKALIKES  # noqa: E402
from invented_texts import TOPICS, Topic  # noqa: E402

from leakline.detectors.labels import ALL_LABELS  # noqa: E402

B, L, X = "boundary_token", "reasoning_leak", "tool_call_as_text"
LANGS = ("en", "ko", "zh")
SHAPE_CLASSES = (
    "token_brackets",
    "reasoning_pair",
    "agent_call",
    "vendor_call_tokens",
    "pseudo_code_call",
    "bracket_prose_call",
    "bare_call_no_tools",
    "role_header_text",
    "untagged_plan",
    "clean",
    # turn-level failures (issue 34), appended so that the classes above keep their cases
    "stalled_turn",
    "runaway_turn",
    "empty_response",
    # their labelled neighbours: the same words with an answer, a cut, or reasoning
    "preamble_then_answer",
    "truncated_announcement",
    "empty_with_reasoning",
)
PROFILES = ("zeroday", "zeroday_gw")  # families with no row: the shape is all there is
_BASE_TS = datetime(2026, 11, 2, 3, 0, 0, tzinfo=UTC)

# ---------------------------------------------------------------- the grammar

_ONSETS = "bdfgklmnprstvz"
_VOWELS = "aeiou"
_CODAS = ("", "", "", "n", "r", "l", "x", "s")
_CTRL_SUBJECT = ("turn", "msg", "seg", "reply", "speaker", "dialog", "block", "frame", "utter",
                 "round", "answer", "output", "role", "span")  # fmt: skip
_CTRL_ACTION = ("end", "start", "sep", "close", "open", "stop", "eot", "break", "done", "begin",
                "boundary", "halt", "seq", "mark", "fin")  # fmt: skip
_ROLES = ("ASSISTANT", "BOT", "PERSONA", "AGENT", "MODEL", "SPEAKER", "HOST", "REPLY", "NARRATOR",
          "CHARACTER", "RESPONDER", "COMPANION")  # fmt: skip
_MUSE_WORDS = ("muse", "ponder", "mull", "draft", "brood", "deliberate", "cogitate", "inner",
               "ruminate", "workings", "musing", "trace", "sketch", "weigh", "noodle", "reckon",
               "aside", "jot")  # fmt: skip
_LENTICULAR = ("思考", "沉思", "推演", "草稿", "内省", "盘算", "琢磨", "斟酌", "默想", "생각", "검토",
               "궁리", "메모", "숙고", "muse", "draft")  # fmt: skip
_GLYPH_PAIRS = (("▶▶", "◀◀"), ("►", "◄"), ("⇒", "⇐"), ("▷▷", "◁◁"), ("⊳", "⊲"), ("»»", "««"),
                ("⟶", "⟵"), ("➤", "⮜"), ("⏵⏵", "⏴⏴"), ("▸", "◂"))  # fmt: skip
_PIPE_BRACKETS = (("⟨|", "|⟩"), ("〈|", "|〉"), ("《|", "|》"))
_VENDOR_BRACKETS = (("<|", "|>"), ("<｜", "｜>"), ("[|", "|]"))
_VENDOR_WORDS = ("invoke", "fn", "action", "plugin", "exec", "act", "callout", "skill", "op",
                 "dispatch", "func")  # fmt: skip
_CALL_MARKERS = ("call", "invoke", "fn", "act", "use", "run", "tool", "exec")
_API_OBJECTS = ("default_api", "api", "tools", "functions", "toolbox", "agent_api", "svc",
                "client_api", "actions")  # fmt: skip
_VERBS = ("get", "lookup", "fetch", "find", "query", "check", "load", "read", "resolve",
          "retrieve")  # fmt: skip
_ROLE_HEADERS = ("assistant", "Assistant", "ASSISTANT", "model", "bot", "gpt", "Bot")
_KEY_PAIRS = (("tool_name", "tool_input"), ("action", "action_input"), ("tool", "args"),
              ("function", "params"), ("call", "with"), ("skill", "inputs"))  # fmt: skip


class Domain(NamedTuple):
    """What an invented tool is about: its noun choices, argument schema, one call's
    arguments and the question that makes the call, per language."""

    nouns: tuple[str, ...]
    desc: str
    props: dict[str, Any]
    args: dict[str, Any]
    users: dict[str, str]


_S = {"type": "string", "minLength": 1}
_DATE = {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"}
DOMAINS: tuple[Domain, ...] = (
    Domain(("tide_table", "tide_times", "high_tide"), "Tide times for a harbour on a date.",
           {"harbor": _S, "date": _DATE}, {"harbor": "Busan", "date": "2026-11-03"},
           {"en": "When is high tide in Busan tomorrow?", "ko": "내일 부산 만조 시간이 언제예요?",
            "zh": "明天釜山什么时候涨潮？"}),
    Domain(("parcel_status", "shipment", "tracking_info"), "Where a parcel is now.",
           {"tracking_number": _S, "carrier": {"type": "string", "enum": ["cj", "hanjin", "sf", "dhl"]}},
           {"tracking_number": "KR4471920385", "carrier": "cj"},
           {"en": "Where is my parcel KR4471920385 (CJ)?", "ko": "CJ 택배 KR4471920385 어디쯤 왔어요?",
            "zh": "CJ快递KR4471920385到哪了？"}),
    Domain(("pollen_level", "pollen_forecast", "allergy_index"), "Pollen forecast for a city.",
           {"city": _S, "days": {"type": "integer", "minimum": 1, "maximum": 5}},
           {"city": "Seoul", "days": 2},
           {"en": "How bad will the pollen be in Seoul over the next two days?",
            "ko": "앞으로 이틀 서울 꽃가루 어때요?", "zh": "首尔接下来两天花粉多吗？"}),
    Domain(("ferry_schedule", "ferry_times", "boat_departures"), "Ferry departures on a route.",
           {"route": _S, "date": _DATE}, {"route": "Mokpo-Jeju", "date": "2026-11-04"},
           {"en": "What ferries run from Mokpo to Jeju on November 4?",
            "ko": "11월 4일 목포에서 제주 가는 배 시간표 알려줘.", "zh": "11月4日木浦到济州有哪些轮渡？"}),
    Domain(("gym_slots", "class_schedule", "studio_booking"), "Free places in a gym class.",
           {"class_name": _S, "day": {"type": "string", "enum": ["monday", "wednesday", "saturday"]}},
           {"class_name": "spin", "day": "saturday"},
           {"en": "Are there spaces left in Saturday's spin class?", "ko": "토요일 스피닝 수업 자리 남았어요?",
            "zh": "周六的动感单车课还有位置吗？"}),
    Domain(("book_availability", "library_hold", "catalog_item"), "Whether a library book is in.",
           {"isbn": {"type": "string", "pattern": "^\\d{13}$"}}, {"isbn": "9788937460449"},
           {"en": "Is ISBN 9788937460449 on the shelf at the library?",
            "ko": "ISBN 9788937460449 책 도서관에 있어요?", "zh": "图书馆里ISBN 9788937460449这本书在架吗？"}),
    Domain(("exchange_rate", "fx_rate", "currency_rate"), "The latest rate between two currencies.",
           {"base": {"type": "string", "pattern": "^[A-Z]{3}$"}, "quote": {"type": "string", "pattern": "^[A-Z]{3}$"}},
           {"base": "USD", "quote": "KRW"},
           {"en": "What's the dollar to won rate right now?", "ko": "지금 달러 환율 얼마예요?",
            "zh": "现在美元兑韩元汇率是多少？"}),
    Domain(("air_quality", "aqi_reading", "pm25_level"), "Current air quality index for a city.",
           {"city": _S}, {"city": "Beijing"},
           {"en": "How is the air in Beijing today?", "ko": "오늘 베이징 미세먼지 어때요?",
            "zh": "北京今天空气质量怎么样？"}),
    Domain(("parking_spaces", "garage_occupancy", "parking_lot"), "Free spaces in a car park.",
           {"lot_id": _S}, {"lot_id": "P3"},
           {"en": "Any free spaces in car park P3?", "ko": "P3 주차장에 자리 있어요?",
            "zh": "P3停车场还有空位吗？"}),
    Domain(("nutrition_facts", "calorie_count", "food_nutrients"), "Nutrition for a food portion.",
           {"food": _S, "grams": {"type": "number", "exclusiveMinimum": 0}},
           {"food": "banana", "grams": 120},
           {"en": "How many calories are in a 120 g banana?", "ko": "바나나 120g 칼로리가 얼마예요?",
            "zh": "120克香蕉有多少卡路里？"}),
    Domain(("train_seats", "seat_availability", "rail_fares"), "Seats left on trains for a date.",
           {"from_station": _S, "to_station": _S, "date": _DATE},
           {"from_station": "Seoul", "to_station": "Busan", "date": "2026-11-05"},
           {"en": "Are there seats on trains from Seoul to Busan on November 5?",
            "ko": "11월 5일 서울에서 부산 가는 기차 자리 있어요?", "zh": "11月5日首尔到釜山的火车还有座吗？"}),
    Domain(("free_rooms", "room_booking", "meeting_rooms"), "Free meeting rooms on a floor.",
           {"floor": {"type": "integer", "minimum": 1}, "start": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"}},
           {"floor": 4, "start": "14:00"},
           {"en": "Is there a free meeting room on floor 4 at 2 pm?", "ko": "4층에 오후 2시 빈 회의실 있어요?",
            "zh": "4楼下午两点有空会议室吗？"}),
)  # fmt: skip


class Tool(NamedTuple):
    name: str
    domain: Domain

    def schema(self) -> dict[str, Any]:
        props = self.domain.props
        return {
            "type": "object",
            "properties": json.loads(json.dumps(props)),
            "required": sorted(props),
            "additionalProperties": False,
        }


class Grammar:
    """One seed's invented vocabulary: every draw comes from this seed's own Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        domains = rng.sample(DOMAINS, 6)
        self.tools = [Tool(self._tool_name(d), d) for d in domains]
        self.call_marker = self._maybe_prefixed(rng.choice(_CALL_MARKERS))
        self.api_object = rng.choice(_API_OBJECTS)
        self.vendor_word = self._maybe_prefixed(rng.choice(_VENDOR_WORDS))
        self.key_pair = rng.choice(_KEY_PAIRS)
        self.glyph_pairs = rng.sample(_GLYPH_PAIRS, 2)

    # -- words -------------------------------------------------------------------
    def syllables(self, n: int = 2) -> str:
        r = self.rng
        return "".join(r.choice(_ONSETS) + r.choice(_VOWELS) + r.choice(_CODAS) for _ in range(n))

    def _maybe_prefixed(self, word: str) -> str:
        return f"{self.syllables(1)}_{word}" if self.rng.random() < 0.35 else word

    def control_name(self) -> str:
        """A snake_case name that reads like a control word: ``turn_close``, ``eot_of_reply``."""
        r = self.rng
        a, b = r.choice(_CTRL_SUBJECT), r.choice(_CTRL_ACTION)
        form = r.randrange(4)
        name = (f"{a}_{b}", f"{b}_{a}", f"{b}_of_{a}", f"{self.syllables(1)}_{a}_{b}")[form]
        return name

    def muse_name(self) -> str:
        """A tag name for a reasoning frame: a musing word or a made-up word."""
        return self.rng.choice(_MUSE_WORDS) if self.rng.random() < 0.6 else self.syllables(2)

    def _tool_name(self, domain: Domain) -> str:
        verb, noun = self.rng.choice(_VERBS), self.rng.choice(domain.nouns)
        if self.rng.random() < 0.2:  # camelCase, as some frameworks spell them
            return verb + "".join(w.title() for w in noun.split("_"))
        return f"{verb}_{noun}"

    def dumps(self, obj: Any) -> str:
        seps = (",", ":") if self.rng.random() < 0.4 else (", ", ": ")
        return json.dumps(obj, ensure_ascii=False, separators=seps)


# ---------------------------------------------------------------- events


def _tools_field(api: str, tools: list[Tool]) -> list[dict[str, Any]]:
    """Invented tools in each API's request shape (as corpus_src.tools renders its table)."""
    out: list[dict[str, Any]] = []
    for t in tools:
        if api == "chat":
            out.append({"type": "function", "function": {"name": t.name, "description": t.domain.desc,
                                                          "parameters": t.schema()}})  # fmt: skip
        elif api == "responses":
            out.append({"type": "function", "name": t.name, "description": t.domain.desc,
                        "parameters": t.schema(), "strict": False})  # fmt: skip
        else:
            out.append({"name": t.name, "description": t.domain.desc, "input_schema": t.schema()})
    return out


class ToolTurn(NamedTuple):
    """An earlier tool exchange in the conversation: the user asked, the assistant called
    ``tool``, the tool answered. With ``final`` the request ends on the tool's result (the
    agent loop asks for the reply to it); otherwise the assistant answered with ``summary``
    and the user asks the current question."""

    user: str
    tool: Tool
    result: dict[str, Any]
    summary: str
    final: bool


class Turn(NamedTuple):
    """What a turn-class event carries beyond one text: earlier tool turns, structured calls,
    a reasoning field, the finish, and the completion tokens the usage bills."""

    history: ToolTurn | None = None
    calls: list[tuple[str, dict[str, Any]]] | None = None
    reasoning: str | None = None
    finish: str = "stop"
    completion_tokens: int | None = None
    null_content: bool = False  # chat: content null rather than ""
    no_text_item: bool = False  # Responses/Messages: no message item / text block at all


def _history_field(api: str, turn: ToolTurn | None, user: str) -> dict[str, Any]:
    """The request's conversation with an earlier tool turn, in each API's shape."""
    if turn is None:
        return {}
    name, args = turn.tool.name, turn.tool.domain.args
    call_id = "call_" + hashlib.sha1(f"{name}|{turn.user}".encode()).hexdigest()[:16]
    result = json.dumps(turn.result, ensure_ascii=False)
    if api == "chat":
        msgs: list[dict[str, Any]] = [
            {"role": "user", "content": turn.user},
            {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function",
             "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}]},
            {"role": "tool", "tool_call_id": call_id, "content": result},
        ]  # fmt: skip
        if not turn.final:
            msgs += [
                {"role": "assistant", "content": turn.summary},
                {"role": "user", "content": user},
            ]
        return {"messages": msgs}
    if api == "responses":
        items: list[dict[str, Any]] = [
            {"role": "user", "content": turn.user},
            {"type": "function_call", "call_id": call_id, "name": name,
             "arguments": json.dumps(args, ensure_ascii=False)},
            {"type": "function_call_output", "call_id": call_id, "output": result},
        ]  # fmt: skip
        if not turn.final:
            items += [
                {"role": "assistant", "content": turn.summary},
                {"role": "user", "content": user},
            ]
        return {"input": items}
    blocks: list[dict[str, Any]] = [
        {"role": "user", "content": turn.user},
        {"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": name, "input": args}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result}]},
    ]  # fmt: skip
    if not turn.final:
        blocks += [
            {"role": "assistant", "content": turn.summary},
            {"role": "user", "content": user},
        ]
    return {"messages": blocks}


def _set_completion_tokens(event: dict[str, Any], n: int) -> None:
    """Bill ``n`` completion tokens in whatever usage the event carries (an empty reply
    still costs what the model generated before the text was stripped)."""
    if "response" in event:
        usage = event["response"]["usage"]
        key = "completion_tokens" if event["api"] == "chat.completions" else (
            "output_tokens")  # fmt: skip
        total = "total_tokens" in usage
        usage[key] = n
        if total:
            prompt = usage.get("prompt_tokens", usage.get("input_tokens", 0))
            usage["total_tokens"] = prompt + n
        return
    for chunk in event["chunks"]:
        if chunk.get("usage") and "completion_tokens" in chunk["usage"]:
            chunk["usage"]["completion_tokens"] = n
            chunk["usage"]["total_tokens"] = chunk["usage"]["prompt_tokens"] + n
        elif chunk.get("type") in ("response.completed", "response.incomplete"):
            usage = chunk["response"]["usage"]
            usage["output_tokens"] = n
            usage["total_tokens"] = usage["input_tokens"] + n
        elif chunk.get("type") == "message_delta":
            chunk["usage"]["output_tokens"] = n


class _Sink(Theme):
    """A Theme whose cases go to this generator's own list (the corpus registry stays as is)."""

    def __init__(self, seed: int) -> None:  # no super(): the theme registry is not used
        self.name = "invented"
        self.seed = seed
        self.cases: list[dict[str, Any]] = []
        self.counts: dict[tuple[str, str], int] = {}
        self.current_class = ""  # the class being built: it names the cases

    def _add(self, labels, prof: Profile, lang, note, build, tags=None) -> dict[str, Any]:
        unknown = [lb for lb in labels if lb not in ALL_LABELS]
        if unknown or len(set(labels)) != len(labels):
            raise ValueError(f"bad labels {labels}")
        cls = self.current_class
        key = (cls, lang)
        self.counts[key] = self.counts.get(key, 0) + 1
        case_id = f"inv{self.seed}-{cls}-{lang}-{self.counts[key]:03d}"
        ts = _BASE_TS + timedelta(seconds=97 * len(self.cases) + self.seed % 86400)
        case = {
            "case_id": case_id,
            "expected_labels": sorted(labels),
            "family": prof.family,
            "lang": lang,
            "note": note,
            "shape_class": cls,
            "seed": self.seed,
            "event": assemble(prof, case_id, ts, build),
        }
        self.cases.append(case)
        return case


class Gen:
    """Builds one seed's cases, class by class."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.g = Grammar(self.rng)
        self.sink = _Sink(seed)

    # -- emitting one case -----------------------------------------------------
    def emit(
        self,
        cls: str,
        labels: list[str],
        lang: str,
        note: str,
        user: str,
        text: str,
        *,
        invented: list[str],
        tools: list[Tool] | None = None,
        api: str | None = None,
        rf: dict[str, Any] | None = None,
        lookalike: str | None = None,
        form: str | None = None,
        turn: Turn | None = None,
    ) -> dict[str, Any]:
        r = self.rng
        if api is None:
            api = r.choices(("chat", "chat_stream", "responses", "messages"), (60, 15, 12, 13))[0]
        prof = r.choice(PROFILES)
        self.sink.current_class = cls
        base = api.removesuffix("_stream")
        tool_extra: dict[str, Any] = {}
        if tools:
            tool_extra["tools"] = _tools_field(base, tools)
        if base == "chat" and tools:
            tool_extra["tool_choice"] = "auto"
        if turn is not None:  # the turn classes: history, calls, reasoning, finish, streams
            tool_extra.update(_history_field(base, turn.history, user))
            case = self._emit_turn(api, labels, prof, lang, note, user, text, turn, tool_extra)
        elif api == "chat":
            case = self.sink.chat(labels, prof, lang, note, user=user, content=text, rf=rf,
                                  extra=tool_extra or None)  # fmt: skip
        elif api == "chat_stream":
            case = self.sink.chat_stream(labels, prof, lang, note, user=user,
                                         deltas=list(Cs(text, r.randrange(8))), extra=tool_extra or None)  # fmt: skip
        elif api == "responses":
            case = self.sink.resp(labels, prof, lang, note, user=user, items=[MSG(text)],
                                  extra=tool_extra or None)  # fmt: skip
        else:
            case = self.sink.msg(labels, prof, lang, note, user=user, blocks=[TX(text)],
                                 extra=tool_extra or None)  # fmt: skip
        if turn is not None and turn.completion_tokens is not None:
            _set_completion_tokens(case["event"], turn.completion_tokens)
        case["invented"] = sorted(set(invented))
        if lookalike is not None:
            case["lookalike"] = lookalike
        if form is not None:
            case["reasoning_form"] = form
        case["event"] = case.pop("event")  # keep the event last, as in the corpus files
        return case

    def _emit_turn(self, api, labels, prof, lang, note, user, text, turn, extra) -> dict[str, Any]:
        """One turn-class event on any API, streamed or not. ``text`` may be empty or blank
        (nothing is written for an empty text block where the API allows none)."""
        sink, calls, reasoning = self.sink, turn.calls, turn.reasoning
        length = turn.finish == "length"
        kw: dict[str, Any] = {"user": user, "extra": extra or None}
        if api == "chat":
            finish = "length" if length else ("tool_calls" if calls else "stop")
            content = None if (turn.null_content and not text) else text
            return sink.chat(labels, prof, lang, note, content=content, reasoning=reasoning,
                             tool_calls=calls, finish=finish, **kw)  # fmt: skip
        if api == "chat_stream":
            deltas: list[Any] = list(Rs(reasoning)) if reasoning else []
            pieces = list(Cs(text, self.rng.randrange(8))) if text.strip() else [C(text)]
            if text or not (deltas or calls):
                deltas += pieces
            for i, (name, args) in enumerate(calls or []):
                deltas.append(TC(i, name, args))
            finish = "length" if length else ("tool_calls" if calls else "stop")
            return sink.chat_stream(labels, prof, lang, note, deltas=deltas, finish=finish,
                                    usage_chunk=turn.completion_tokens is not None, **kw)  # fmt: skip
        if api.startswith("responses"):
            items: list[dict[str, Any]] = [RS(reasoning)] if reasoning else []
            if text or not turn.no_text_item:
                items.append(MSG(text))
            items += [FC(name, args) for name, args in calls or []]
            build = sink.resp_stream if api.endswith("_stream") else sink.resp
            return build(labels, prof, lang, note, items=items,
                         status="incomplete" if length else "completed", **kw)  # fmt: skip
        blocks: list[dict[str, Any]] = [TH(reasoning)] if reasoning else []
        if text or not turn.no_text_item:
            blocks.append(TX(text))
        blocks += [TU(name, args) for name, args in calls or []]
        stop = "max_tokens" if length else ("tool_use" if calls else "end_turn")
        build = sink.msg_stream if api.endswith("_stream") else sink.msg
        return build(labels, prof, lang, note, blocks=blocks, stop_reason=stop, **kw)  # fmt: skip

    def topic(self, lang: str) -> Topic:
        return self.rng.choice(TOPICS[lang])

    def lang(self) -> str:
        return self.rng.choice(LANGS)

    def declared(self, tool: Tool) -> list[Tool]:
        """The called tool plus up to two others, in a random order."""
        others = [t for t in self.g.tools if t is not tool]
        chosen = [tool, *self.rng.sample(others, self.rng.randrange(3))]
        self.rng.shuffle(chosen)
        return chosen

    # -- 1. control tokens in other bracket families ------------------------------
    def token_brackets(self) -> None:
        g, r = self.g, self.rng
        families: list[tuple[str, Callable[[str], str]]] = [
            ("angle", lambda n: f"<{n}>"),
            ("double_angle", lambda n: f"<<{n.upper()}>>"),
            ("square_closer", lambda n: f"[/{n}]"),
            ("math_angle_pipe", lambda n: f"⟨|{n}|⟩"),
            ("cjk_angle_pipe", lambda n: f"〈|{n}|〉"),
            ("double_cjk_pipe", lambda n: f"《|{n}|》"),
        ]
        for fam, shape in families:
            for _ in range(2):
                lang = self.lang()
                top = self.topic(lang)
                if fam == "square_closer":
                    role = r.choice(_ROLES) + r.choice(("", "", "_TURN", "_MSG"))
                    tok = shape(role)
                    text = top.answer + r.choice(("", "\n", "\n\n")) + tok
                    self.emit("token_brackets", [B], lang, f"role closer {tok} leaked after the answer",
                              top.user, text, invented=[tok])  # fmt: skip
                    continue
                tok = shape(g.control_name())
                where = r.choice(("end_glued", "end_line", "start", "both"))
                if where == "end_glued":
                    text = top.answer + tok
                elif where == "end_line":
                    text = top.answer + "\n" + tok + r.choice(("", "\n"))
                elif where == "start":
                    text = tok + r.choice(("", "\n")) + top.answer
                else:
                    opener = shape(g.control_name())
                    text, tok = opener + top.answer + tok, f"{opener} {tok}"
                self.emit("token_brackets", [B], lang,
                          f"invented control token ({fam}) leaked at the turn's {where}",
                          top.user, text, invented=tok.split(" "))  # fmt: skip

    # -- 2. reasoning framed by a pair that is no known token -----------------------
    def reasoning_pair(self) -> None:
        g, r = self.g, self.rng
        frames: list[tuple[str, Callable[[], tuple[str, str]]]] = [
            ("xml_tag", lambda: (lambda n: (f"<{n}>", f"</{n}>"))(g.muse_name())),
            ("double_square", lambda: (lambda n: (f"[[{n}]]", f"[[/{n}]]"))(g.muse_name())),
            ("lenticular", lambda: (lambda w: (f"【{w}】", f"【/{w}】"))(r.choice(_LENTICULAR))),
            ("glyph_pair", lambda: r.choice(g.glyph_pairs)),
            (
                "pipe_bracket",
                lambda: (lambda n, b: (f"{b[0]}{n}{b[1]}", f"{b[0]}/{n}{b[1]}"))(
                    g.muse_name(), r.choice(_PIPE_BRACKETS)
                ),
            ),
        ]
        langs = [*LANGS, *(self.lang() for _ in range(7))]
        r.shuffle(langs)
        for i, lang in enumerate(langs):
            fam, draw = frames[i % len(frames)]
            opener, closer = draw()
            top = self.topic(lang)
            inner = ("" if lang == "zh" else " ").join(top.steps)
            pad = r.choice(("", "\n", " "))
            text = opener + pad + inner + pad + closer + r.choice(("", "\n", "\n\n")) + top.answer
            self.emit("reasoning_pair", [B, L], lang,
                      f"reasoning framed by an invented {fam} pair {opener}…{closer} before the answer",
                      top.user, text, invented=[opener, closer], form="tagged")  # fmt: skip

    # -- 3. agent-framework call formats, tool declared ------------------------------
    def call_text(self, fmt: str, tool: Tool) -> tuple[str, list[str]]:
        g, r = self.g, self.rng
        args, name = tool.domain.args, tool.name
        if fmt == "react":
            return f"Action: {name}\nAction Input: {g.dumps(args)}", [name]
        if fmt == "keyed_json":
            k1, k2 = g.key_pair
            return g.dumps({k1: name, k2: args}), [name, k1, k2]
        if fmt == "double_colon":
            return f"{name}::{g.dumps(args)}", [name]
        if fmt == "fenced":
            info = r.choice(("tool", "tool_call", name))
            body = g.dumps(args) if info == name else g.dumps({"name": name, "arguments": args})
            return f"```{info}\n{body}\n```", [name, info]
        if fmt == "double_angle_marker":
            m = g.call_marker
            return f"<<{m}>>{name}{g.dumps(args)}<</{m}>>", [name, f"<<{m}>>"]
        if fmt == "arrow":
            return f"{name} => {g.dumps(args)}", [name]
        return f"{name}: {g.dumps(args)}", [name]

    def agent_call(self) -> None:
        fmts = [
            "react",
            "keyed_json",
            "double_colon",
            "fenced",
            "double_angle_marker",
            "arrow",
            "colon",
        ]
        fmts.append(self.rng.choice(fmts))
        for fmt in fmts:
            tool, lang = self.rng.choice(self.g.tools), self.lang()
            text, inv = self.call_text(fmt, tool)
            self.emit("agent_call", [X], lang, f"{fmt} call of the declared tool {tool.name} as the reply",
                      tool.domain.users[lang], text + self.rng.choice(("", "\n")), invented=inv,
                      tools=self.declared(tool))  # fmt: skip

    # -- 4. the classes real reports show ------------------------------------------------
    def vendor_call_tokens(self) -> None:
        g, r = self.g, self.rng
        for _ in range(3):
            tool, lang = r.choice(g.tools), self.lang()
            lo, hi = r.choice(_VENDOR_BRACKETS)
            w = g.vendor_word

            def t(s: str, lo: str = lo, hi: str = hi) -> str:
                return f"{lo}{s}{hi}"

            layout = r.randrange(3)
            if layout == 0:
                toks = [t(f"{w}_begin"), t(f"{w}_args"), t(f"{w}_end")]
                text = f"{toks[0]}{tool.name}{toks[1]}{g.dumps(tool.domain.args)}{toks[2]}"
            elif layout == 1:
                toks = [t(w), t(f"/{w}")]
                text = f"{toks[0]}{g.dumps({'name': tool.name, 'parameters': tool.domain.args})}{toks[1]}"
            else:
                toks = [t(f"{w}_start"), t(f"{w}_sep"), t(f"{w}_stop")]
                text = f"{toks[0]}{tool.name}{toks[1]}{g.dumps(tool.domain.args)}{toks[2]}"
            self.emit("vendor_call_tokens", [B, X], lang,
                      "call markup built from invented special-token-like delimiters",
                      tool.domain.users[lang], text, invented=[*toks, tool.name],
                      tools=self.declared(tool))  # fmt: skip

    def pseudo_code_call(self) -> None:
        g, r = self.g, self.rng
        for _ in range(3):
            tool, lang = r.choice(g.tools), self.lang()
            kwargs = ", ".join(
                f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in tool.domain.args.items()
            )
            call = f"{g.api_object}.{tool.name}({kwargs})"
            body = f"print({call})" if r.random() < 0.7 else call
            text = f"```tool_code\n{body}\n```"
            self.emit("pseudo_code_call", [X], lang, "a tool_code block calling an API object's method",
                      tool.domain.users[lang], text, invented=[g.api_object, tool.name],
                      tools=self.declared(tool))  # fmt: skip

    def bracket_prose_call(self) -> None:
        g, r = self.g, self.rng
        for _ in range(3):
            tool, lang = r.choice(g.tools), self.lang()
            (k, v), *_ = tool.domain.args.items()
            forms = (
                f'[tool_call: {tool.name} for "{v}"]',
                f'[Calling {tool.name} with {k}="{v}"]',
                f"[tool: {tool.name} {k}={v}]",
                f'[invoke {tool.name} for "{v}"]',
                f'[Using tool {tool.name} to look up "{v}"]',
            )
            text = r.choice(forms)
            self.emit("bracket_prose_call", [X], lang, "a call written as bracketed prose",
                      tool.domain.users[lang], text, invented=[tool.name],
                      tools=self.declared(tool))  # fmt: skip

    def bare_call_no_tools(self) -> None:
        g, r = self.g, self.rng
        for _ in range(3):
            tool, lang = r.choice(g.tools), self.lang()
            key = r.choice(("arguments", "parameters"))
            text = g.dumps({"name": tool.name, key: tool.domain.args})
            if r.random() < 0.25:
                text = f"```json\n{text}\n```"
            self.emit("bare_call_no_tools", [X], lang,
                      "a bare call object is the whole reply; the logged request has no tools",
                      tool.domain.users[lang], text, invented=[tool.name])  # fmt: skip

    def role_header_text(self) -> None:
        r = self.rng
        for role in r.sample(_ROLE_HEADERS, 3):
            lang = self.lang()
            top = self.topic(lang)
            self.emit("role_header_text", [B], lang, f"role header {role!r} decoded as plain text",
                      top.user, f"{role}\n\n{top.answer}", invented=[role])  # fmt: skip

    def untagged_plan(self) -> None:
        r = self.rng
        headers = {"en": ("Here's a thinking process:", "Here's a thinking process to get to the answer:",
                          "Thinking process:"),
                   "zh": ("以下是思考过程：", "思考过程：", "我的思路如下：")}  # fmt: skip
        openers = {"en": ("Okay, so I need to answer this.", "Alright, thinking it through.", "Hmm."),
                   "zh": ("好的，我需要想一下这个问题。", "嗯，", "好，先把思路理清楚。")}  # fmt: skip
        for lang in ("en", "en", "zh", "zh"):
            top = self.topic(lang)
            joiner = " " if lang == "en" else ""
            if r.random() < 0.5:
                steps = "\n".join(f"{i}. {s}" for i, s in enumerate(top.steps, 1))
                text, how = f"{r.choice(headers[lang])}\n\n{steps}\n\n{top.answer}", "numbered plan"
            else:
                walk = joiner.join(top.steps)
                text, how = (
                    f"{r.choice(openers[lang])}{joiner}{walk}\n\n{top.answer}",
                    "first-person walk",
                )
            self.emit("untagged_plan", [L], lang, f"untagged {how} before the answer (R1-distill style)",
                      top.user, text, invented=[], form="untagged")  # fmt: skip

    # -- 5. clean answers heavy with look-alikes --------------------------------------------
    def clean(self) -> None:
        for kind, make in LOOKALIKES:
            for _ in range(2):
                spec = make(self)
                self.emit("clean", [], spec.lang, spec.note, spec.user, spec.text, invented=spec.invented,
                          tools=spec.tools, api=spec.api, rf=spec.rf, lookalike=kind)  # fmt: skip
        for _ in range(6):
            lang = self.lang()
            top = self.topic(lang)
            self.emit("clean", [], lang, "an ordinary answer", top.user, top.answer, invented=[],
                      lookalike="plain")  # fmt: skip

    # -- 6. turn-level failures (issue 34): invented_turns.py --------------------------------
    def stalled_turn(self) -> None:
        invented_turns.stalled_turn(self)

    def runaway_turn(self) -> None:
        invented_turns.runaway_turn(self)

    def empty_response(self) -> None:
        invented_turns.empty_response(self)

    def preamble_then_answer(self) -> None:
        invented_turns.preamble_then_answer(self)

    def truncated_announcement(self) -> None:
        invented_turns.truncated_announcement(self)

    def empty_with_reasoning(self) -> None:
        invented_turns.empty_with_reasoning(self)

    def turn_lookalikes(self) -> None:
        """Clean cases for the turn classes. They come after every class rather than inside
        ``clean``: that class ends with plain answers, which a longer loop would move."""
        for kind, make in invented_turns.TURN_LOOKALIKES:
            for _ in range(3):
                spec = make(self)
                self.emit("clean", [], spec.lang, spec.note, spec.user, spec.text, invented=[],
                          tools=spec.tools, api=spec.api, lookalike=kind, turn=spec.turn)  # fmt: skip

    def run(self) -> list[dict[str, Any]]:
        for cls in SHAPE_CLASSES:
            getattr(self, cls)()
        self.turn_lookalikes()
        return self.sink.cases


def generate(seed: int) -> list[dict[str, Any]]:
    """The invented-shape cases of one seed (deterministic: same seed, same cases)."""
    return Gen(seed).run()


SEEDS_FILE = Path(__file__).resolve().parent / "invented_seeds.json"


def seeds(split: str) -> list[int]:
    """The frozen seeds of a split (``dev`` or ``heldout``)."""
    data = json.loads(SEEDS_FILE.read_text(encoding="utf-8"))
    if split not in ("dev", "heldout"):
        raise ValueError(f"unknown split {split!r}")
    return list(data[split])


def generate_split(split: str) -> list[dict[str, Any]]:
    out = []
    for seed in seeds(split):
        for case in generate(seed):
            case["split"] = split
            out.append(case)
    return out


__all__ = ["RF_JSON_OBJECT", "SHAPE_CLASSES", "generate", "generate_split", "rf_schema", "seeds"]
