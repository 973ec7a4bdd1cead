"""Stable label names. The CLI, the store and exported samples use exactly these strings.

Renaming a label is a breaking change; adding one is not.
"""

from __future__ import annotations

from enum import StrEnum


class Label(StrEnum):
    REASONING_LEAK = "reasoning_leak"
    BOUNDARY_TOKEN = "boundary_token"
    TOOL_CALL_AS_TEXT = "tool_call_as_text"
    TOOL_ARGS_INVALID = "tool_args_invalid"
    PREAMBLE = "preamble"
    STRUCTURED_INVALID = "structured_invalid"
    TRUNCATED = "truncated"
    FINAL_IN_REASONING = "final_in_reasoning"
    COMMENTARY_RENDERED = "commentary_rendered"
    MIXED_CHUNK = "mixed_chunk"
    REASONING_SLOT = "reasoning_slot"
    HISTORY_MISMATCH = "history_mismatch"
    # turn-level failures (issue 34)
    STALLED_TURN = "stalled_turn"
    RUNAWAY_TURN = "runaway_turn"
    EMPTY_RESPONSE = "empty_response"


ALL_LABELS: tuple[str, ...] = tuple(label.value for label in Label)


class Layer(StrEnum):
    """The layer of the serving stack a finding points at."""

    MODEL = "model"
    TEMPLATE = "template"
    PARSER = "parser"
    API = "api"
    CLIENT = "client"


class Remediation(StrEnum):
    """What a gateway could do about a finding."""

    STRIP = "strip"
    RESCUE = "rescue"
    REGENERATE = "regenerate"
    FALLBACK = "fallback"


class Source(StrEnum):
    """Which detector tier produced a finding; rates can be split by it."""

    RULE = "rule"
    HEURISTIC = "heuristic"
    CLASSIFIER = "classifier"
    REVIEWED = "reviewed"
