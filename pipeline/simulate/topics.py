"""What each topic brings besides its text bank: the tool, the answer schema, the values.

For every topic in ``texts.TOPICS``: the tool an assistant may call (``TOOLS``), the JSON
schema a structured answer must pass (``SCHEMAS``), the per-event values that fill the
text templates (``topic_values``), and the objects built from them: a schema-valid answer
(``json_output``) and what the tool returned (``tool_result``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from leakline.pipeline.simulate import texts as T
from leakline.pipeline.simulate.draws import choice, randint, randrange, sample


@dataclass(frozen=True)
class Tool:
    """A tool declared in requests, with how to call it right and how to call it wrong."""

    name: str
    description: str
    parameters: dict[str, Any]
    alias: str  # a plausible name that is never declared
    args: Callable[[dict[str, Any]], dict[str, Any]]  # topic values -> valid arguments
    bad: tuple[str, Any]  # (key, value) that breaks the schema


def _object_schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


_STRING = {"type": "string"}

# topic -> the tool an assistant calls for it
TOOLS: dict[str, Tool] = {
    "weather": Tool(
        "get_weather",
        "Current conditions and forecast for a city.",
        _object_schema(
            {"city": _STRING, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
            ["city"],
        ),
        "weather_lookup",
        lambda v: {"city": v["city"], "unit": "celsius"},
        ("unit", "kelvin"),
    ),
    "code": Tool(
        "search_docs",
        "Search the engineering documentation.",
        _object_schema(
            {"query": _STRING, "top_k": {"type": "integer", "minimum": 1, "maximum": 20}}, ["query"]
        ),
        "web_search",
        lambda v: {"query": f"{v['err']} {v['fn']} {v['code_lang']}", "top_k": 5},
        ("top_k", "five"),
    ),
    "finance": Tool(
        "get_stock_quote",
        "Latest quote for a ticker symbol.",
        _object_schema({"symbol": _STRING}, ["symbol"]),
        "stock_price",
        lambda v: {"symbol": v["symbol"]},
        ("symbol", 1234),
    ),
    "travel": Tool(
        "search_flights",
        "Search flights between two cities on a date.",
        _object_schema(
            {
                "origin": _STRING,
                "destination": _STRING,
                "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            },
            ["origin", "destination", "date"],
        ),
        "find_flights",
        lambda v: {"origin": v["origin"], "destination": v["dest"], "date": v["date"]},
        ("date", 20261214),
    ),
    "cooking": Tool(
        "find_recipes",
        "Find recipes for a dish.",
        _object_schema(
            {"dish": _STRING, "max_minutes": {"type": "integer", "minimum": 5}}, ["dish"]
        ),
        "recipe_search",
        lambda v: {"dish": v["dish"], "max_minutes": v["minutes"]},
        ("max_minutes", "about 30"),
    ),
    "hr": Tool(
        "lookup_employee",
        "Look up an employee record by ID.",
        _object_schema(
            {"employee_id": {"type": "string", "pattern": r"^E\d{5}$"}}, ["employee_id"]
        ),
        "get_employee",
        lambda v: {"employee_id": v["emp_id"]},
        ("employee_id", "10423"),
    ),
    "math": Tool(
        "calculate",
        "Evaluate an arithmetic expression.",
        _object_schema({"expression": _STRING}, ["expression"]),
        "calculator",
        lambda v: {"expression": f"({v['rhs']} - {v['c']}) / {v['m']}"},
        ("expression", 42),
    ),
}
_TOOL_LIST = tuple(TOOLS.values())
# topic -> the other tools, some of which a request declares alongside
OTHER_TOOLS = {
    topic: tuple(t for t in _TOOL_LIST if t is not tool) for topic, tool in TOOLS.items()
}

# topic -> the schema of a structured (JSON) answer
SCHEMAS: dict[str, dict[str, Any]] = {
    "weather": _object_schema(
        {
            "city": _STRING,
            "high_c": {"type": "number"},
            "low_c": {"type": "number"},
            "condition": _STRING,
            "rain_chance": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        ["city", "high_c", "low_c", "condition", "rain_chance"],
    ),
    "code": _object_schema(
        {
            "language": _STRING,
            "verdict": {"type": "string", "enum": ["ok", "needs_changes"]},
            "issues": {"type": "array", "items": _STRING},
        },
        ["language", "verdict", "issues"],
    ),
    "finance": _object_schema(
        {
            "symbol": _STRING,
            "price": {"type": "number"},
            "currency": _STRING,
            "change_pct": {"type": "number"},
        },
        ["symbol", "price", "currency", "change_pct"],
    ),
    "travel": _object_schema(
        {
            "destination": _STRING,
            "days": {"type": "integer", "minimum": 1},
            "budget_usd": {"type": "number"},
            "highlights": {"type": "array", "items": _STRING},
        },
        ["destination", "days", "budget_usd", "highlights"],
    ),
    "cooking": _object_schema(
        {
            "dish": _STRING,
            "servings": {"type": "integer"},
            "minutes": {"type": "integer"},
            "ingredients": {"type": "array", "items": _STRING},
        },
        ["dish", "servings", "minutes", "ingredients"],
    ),
    "hr": _object_schema(
        {
            "employee_id": {"type": "string", "pattern": r"^E\d{5}$"},
            "leave_days": {"type": "integer"},
            "approved": {"type": "boolean"},
        },
        ["employee_id", "leave_days", "approved"],
    ),
    "math": _object_schema(
        {"answer": {"type": "number"}, "explanation": _STRING}, ["answer", "explanation"]
    ),
}


def as_json(obj: Any) -> str:
    """JSON as models and tools write it: default separators, non-ASCII kept as is."""
    return json.dumps(obj, ensure_ascii=False)


def topic_values(rng: random.Random, lang: str, topic: str) -> dict[str, Any]:
    """The values one event's texts, answers and tool arguments share (city, price, ...)."""
    if topic == "weather":
        wet = rng.random() < 0.4
        high = randint(rng, 6, 31)
        return {
            "city": choice(rng, T.CITIES[lang]),
            "day": choice(rng, T.DAYS[lang]),
            "cond": choice(rng, T.CONDITIONS[lang][wet]),
            "advice": choice(rng, T.RAIN_ADVICE[lang][wet]),
            "high": high,
            "low": high - randint(rng, 4, 10),
            "rain": choice(rng, (55, 60, 70, 80, 90)) if wet else choice(rng, (0, 5, 10, 20, 30)),
            "wind": randint(rng, 5, 25),
        }
    if topic == "code":
        return {
            "code_lang": choice(rng, T.CODE_LANGS),
            "fn": choice(rng, T.FUNCTIONS),
            "err": choice(rng, T.ERRORS),
            "line": randint(rng, 12, 480),
            "ms": choice(rng, (40, 85, 120, 250, 400, 900)),
        }
    if topic == "finance":
        symbol, ccy = choice(rng, T.STOCKS)
        if ccy == "KRW":
            price: float = float(randrange(rng, 52000, 91000, 100))
        elif ccy == "JPY":
            price = float(randrange(rng, 2000, 3600, 5))
        else:
            price = round(rng.uniform(40, 900), 2)
        change = round(rng.uniform(-3.8, 3.8), 2) or 0.12
        return {
            "symbol": symbol,
            "ccy": ccy,
            "price_num": price,
            "price": f"{price:,.0f}" if ccy in ("KRW", "JPY") else f"{price:,.2f}",
            "change_num": change,
            "change": f"{change:+.2f}",
            "abs_change": f"{abs(change):.2f}",
            "move": T.MOVE_WORDS[lang][0 if change > 0 else 1],
        }
    if topic == "travel":
        return {
            "origin": choice(rng, T.CITIES[lang]),
            "dest": choice(rng, T.DESTINATIONS[lang]),
            "date": f"2026-12-{randint(rng, 1, 28):02d}",
            "days": randint(rng, 3, 10),
            "budget": randrange(rng, 1200, 4001, 50),
            "fare": randrange(rng, 180, 600, 10),
        }
    if topic == "cooking":
        ing1, ing2 = sample(rng, T.INGREDIENTS[lang], 2)
        return {
            "dish": choice(rng, T.DISHES[lang]),
            "servings": randint(rng, 2, 6),
            "minutes": choice(rng, (20, 25, 30, 40, 45, 60, 75, 90)),
            "oven": choice(rng, (160, 175, 180, 190, 200, 220)),
            "ing1": ing1,
            "ing2": ing2,
        }
    if topic == "hr":
        leave = randint(rng, 2, 10)
        return {
            "name": choice(rng, T.NAMES[lang]),
            "dept": choice(rng, T.DEPARTMENTS[lang]),
            "emp_id": f"E{randint(rng, 10000, 99999)}",
            "leave": leave,
            "remaining": leave + randint(rng, 0, 12),
            "weeks": randint(rng, 2, 4),
        }
    # math
    x, m = randint(rng, 2, 15), randint(rng, 2, 9)
    c = randint(rng, 1, 30)
    return {"x": x, "m": m, "c": c, "mx": m * x, "rhs": m * x + c}


def json_output(rng: random.Random, lang: str, topic: str, v: dict[str, Any]) -> dict[str, Any]:
    """A value that passes ``SCHEMAS[topic]``."""
    if topic == "weather":
        return {
            "city": v["city"],
            "high_c": v["high"],
            "low_c": v["low"],
            "condition": v["cond"],
            "rain_chance": v["rain"],
        }
    if topic == "code":
        return {
            "language": v["code_lang"],
            "verdict": "needs_changes",
            "issues": sample(rng, T.CODE_ISSUES[lang], randint(rng, 1, 3)),
        }
    if topic == "finance":
        return {
            "symbol": v["symbol"],
            "price": v["price_num"],
            "currency": v["ccy"],
            "change_pct": v["change_num"],
        }
    if topic == "travel":
        return {
            "destination": v["dest"],
            "days": v["days"],
            "budget_usd": v["budget"],
            "highlights": sample(rng, T.HIGHLIGHTS[lang], 3),
        }
    if topic == "cooking":
        return {
            "dish": v["dish"],
            "servings": v["servings"],
            "minutes": v["minutes"],
            "ingredients": sample(rng, T.INGREDIENTS[lang], randint(rng, 3, 5)),
        }
    if topic == "hr":
        return {
            "employee_id": v["emp_id"],
            "leave_days": v["remaining"],
            "approved": v["leave"] <= v["remaining"],
        }
    return {"answer": v["x"], "explanation": T.MATH_EXPLANATIONS[lang].format_map(v)}


def tool_result(rng: random.Random, lang: str, topic: str, v: dict[str, Any]) -> dict[str, Any]:
    """What the topic's tool returned, for the earlier turn of a follow-up request."""
    if topic == "code":
        return {
            "results": [
                {
                    "title": f"Troubleshooting {v['err']} in {v['code_lang']}",
                    "url": f"https://docs.internal.example/{v['code_lang'].lower()}/{v['err'].lower()}",
                }
            ]
        }
    if topic == "travel":
        return {
            "flights": [
                {"date": v["date"], "price_usd": v["fare"], "stops": 0},
                {
                    "date": v["date"],
                    "price_usd": v["fare"] + randrange(rng, 40, 200, 10),
                    "stops": 1,
                },
            ]
        }
    if topic == "cooking":
        return {
            "recipes": [{"title": v["dish"], "minutes": v["minutes"], "servings": v["servings"]}]
        }
    if topic == "math":
        return {"result": v["x"]}
    if topic == "hr":
        return {"employee_id": v["emp_id"], "name": v["name"], "leave_remaining": v["remaining"]}
    return json_output(rng, lang, topic, v)
