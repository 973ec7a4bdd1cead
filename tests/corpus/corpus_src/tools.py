"""Declared tools and structured-output schemas used by the corpus.

Each tool is stored once as (name, description, JSON Schema of its arguments)
and rendered into the request shape of each API by ``chat_tools``,
``responses_tools`` and ``messages_tools``.
"""

from __future__ import annotations

import copy
from typing import Any

TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "get_weather": (
        "Current weather for a city.",
        {
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
            "additionalProperties": False,
        },
    ),
    "search_web": (
        "Search the web and return the top results.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1},
                "max_results": {"type": "integer", "minimum": 1, "maximum": 10},
                "recency_days": {"type": "integer", "minimum": 1},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    ),
    "get_stock_quote": (
        "Latest quote for a listed ticker symbol.",
        {
            "type": "object",
            "properties": {
                "ticker": {"type": "string", "pattern": "^[A-Z0-9.]{1,9}$"},
                "exchange": {"type": "string", "enum": ["NASDAQ", "NYSE", "KRX", "SSE", "TSE"]},
            },
            "required": ["ticker"],
            "additionalProperties": False,
        },
    ),
    "convert_currency": (
        "Convert an amount between two ISO 4217 currencies.",
        {
            "type": "object",
            "properties": {
                "amount": {"type": "number", "exclusiveMinimum": 0},
                "from_currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "to_currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
            },
            "required": ["amount", "from_currency", "to_currency"],
            "additionalProperties": False,
        },
    ),
    "search_flights": (
        "Search scheduled flights for one date.",
        {
            "type": "object",
            "properties": {
                "origin": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "destination": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
                "cabin": {"type": "string", "enum": ["economy", "premium", "business"]},
            },
            "required": ["origin", "destination", "date"],
            "additionalProperties": False,
        },
    ),
    "run_sql": (
        "Run a read-only SQL query against the analytics warehouse.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1},
                "timeout_s": {"type": "integer", "minimum": 1, "maximum": 120},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    ),
    "check_drug_interaction": (
        "Look up known interactions between two drugs.",
        {
            "type": "object",
            "properties": {
                "drug_a": {"type": "string", "minLength": 2},
                "drug_b": {"type": "string", "minLength": 2},
            },
            "required": ["drug_a", "drug_b"],
            "additionalProperties": False,
        },
    ),
    "get_leave_balance": (
        "Remaining paid leave for an employee.",
        {
            "type": "object",
            "properties": {
                "employee_id": {"type": "string", "pattern": "^E\\d{5}$"},
                "year": {"type": "integer", "minimum": 2020, "maximum": 2030},
            },
            "required": ["employee_id"],
            "additionalProperties": False,
        },
    ),
    "create_event": (
        "Create a calendar event.",
        {
            "type": "object",
            "properties": {
                "title": {"type": "string", "minLength": 1},
                "start": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$"},
                "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 480},
                "attendees": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["title", "start", "duration_minutes"],
            "additionalProperties": False,
        },
    ),
    "find_recipes": (
        "Find recipes that use the given ingredients.",
        {
            "type": "object",
            "properties": {
                "ingredients": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "max_minutes": {"type": "integer", "minimum": 5},
                "diet": {"type": "string", "enum": ["none", "vegetarian", "vegan", "halal"]},
            },
            "required": ["ingredients"],
            "additionalProperties": False,
        },
    ),
    "lookup_statute": (
        "Fetch the text of a statute article.",
        {
            "type": "object",
            "properties": {
                "jurisdiction": {"type": "string", "enum": ["KR", "CN", "US-CA", "JP", "EU"]},
                "law": {"type": "string", "minLength": 1},
                "article": {"type": "string", "minLength": 1},
            },
            "required": ["jurisdiction", "law", "article"],
            "additionalProperties": False,
        },
    ),
    "get_order_status": (
        "Shipping status of a customer order.",
        {
            "type": "object",
            "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]{2}-\\d{6}$"}},
            "required": ["order_id"],
            "additionalProperties": False,
        },
    ),
    "read_file": (
        "Read a file from the repository workspace.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string", "minLength": 1},
                "start_line": {"type": "integer", "minimum": 1},
                "end_line": {"type": "integer", "minimum": 1},
            },
            "required": ["path"],
            "additionalProperties": False,
        },
    ),
    "calculate": (
        "Evaluate an arithmetic expression exactly.",
        {
            "type": "object",
            "properties": {"expression": {"type": "string", "minLength": 1}},
            "required": ["expression"],
            "additionalProperties": False,
        },
    ),
}


def _spec(name: str) -> tuple[str, dict[str, Any]]:
    try:
        desc, schema = TOOLS[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}; known: {', '.join(sorted(TOOLS))}") from None
    return desc, copy.deepcopy(schema)


def chat_tools(*names: str) -> list[dict[str, Any]]:
    out = []
    for name in names:
        desc, schema = _spec(name)
        out.append(
            {
                "type": "function",
                "function": {"name": name, "description": desc, "parameters": schema},
            }
        )
    return out


def responses_tools(*names: str) -> list[dict[str, Any]]:
    out = []
    for name in names:
        desc, schema = _spec(name)
        out.append(
            {
                "type": "function",
                "name": name,
                "description": desc,
                "parameters": schema,
                "strict": False,
            }
        )
    return out


def messages_tools(*names: str) -> list[dict[str, Any]]:
    out = []
    for name in names:
        desc, schema = _spec(name)
        out.append({"name": name, "description": desc, "input_schema": schema})
    return out


SCHEMAS: dict[str, dict[str, Any]] = {
    "invoice": {
        "type": "object",
        "properties": {
            "vendor": {"type": "string"},
            "invoice_number": {"type": "string"},
            "total": {"type": "number"},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "due_date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
        "required": ["vendor", "invoice_number", "total", "currency", "due_date"],
        "additionalProperties": False,
    },
    "sentiment": {
        "type": "object",
        "properties": {
            "label": {"type": "string", "enum": ["positive", "neutral", "negative"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "required": ["label", "confidence"],
        "additionalProperties": False,
    },
    "recipe": {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "servings": {"type": "integer", "minimum": 1},
            "ingredients": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "steps": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        },
        "required": ["title", "servings", "ingredients", "steps"],
        "additionalProperties": False,
    },
    "meeting": {
        "type": "object",
        "properties": {
            "decisions": {"type": "array", "items": {"type": "string"}},
            "action_items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"owner": {"type": "string"}, "task": {"type": "string"}},
                    "required": ["owner", "task"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["decisions", "action_items"],
        "additionalProperties": False,
    },
    "address": {
        "type": "object",
        "properties": {
            "country": {"type": "string"},
            "region": {"type": "string"},
            "city": {"type": "string"},
            "street": {"type": "string"},
            "postal_code": {"type": "string"},
        },
        "required": ["country", "city", "street", "postal_code"],
        "additionalProperties": False,
    },
    "math_answer": {
        "type": "object",
        "properties": {"answer": {"type": "number"}, "unit": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": False,
    },
    "triage": {
        "type": "object",
        "properties": {
            "urgency": {"type": "string", "enum": ["emergency", "urgent", "routine"]},
            "department": {"type": "string"},
            "reason": {"type": "string"},
        },
        "required": ["urgency", "department", "reason"],
        "additionalProperties": False,
    },
    "clause": {
        "type": "object",
        "properties": {
            "clause_type": {
                "type": "string",
                "enum": ["termination", "liability", "confidentiality", "payment", "other"],
            },
            "risk": {"type": "string", "enum": ["low", "medium", "high"]},
            "summary": {"type": "string"},
        },
        "required": ["clause_type", "risk", "summary"],
        "additionalProperties": False,
    },
    "ticket": {
        "type": "object",
        "properties": {
            "category": {
                "type": "string",
                "enum": ["billing", "bug", "account", "feature_request"],
            },
            "priority": {"type": "integer", "minimum": 1, "maximum": 4},
            "title": {"type": "string", "maxLength": 80},
        },
        "required": ["category", "priority", "title"],
        "additionalProperties": False,
    },
    "translation": {
        "type": "object",
        "properties": {
            "source_lang": {"type": "string"},
            "target_lang": {"type": "string"},
            "text": {"type": "string"},
        },
        "required": ["source_lang", "target_lang", "text"],
        "additionalProperties": False,
    },
    "itinerary": {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "day": {"type": "integer", "minimum": 1},
                        "plan": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    },
                    "required": ["day", "plan"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["city", "days"],
        "additionalProperties": False,
    },
}


def schema(name: str) -> dict[str, Any]:
    try:
        return copy.deepcopy(SCHEMAS[name])
    except KeyError:
        raise KeyError(f"unknown schema {name!r}; known: {', '.join(sorted(SCHEMAS))}") from None
