"""What one event may cost the detectors: a cap on the text they read, and a time budget.

Every detector is linear in its text (``benchmarks/detector_scaling.py`` shows it), but
markup-dense text still costs up to ~1 µs a character in the call rules, so a
multi-megabyte reply of repeated ``<tool_call>`` would hold its batch for seconds. Two
bounds keep one event from holding the others (issue 36):

- the detectors read at most ``MAX_CHARS`` of each text (its head: a leak sits where the
  reply starts or at its first broken frame far more often than megabytes in);
- above ``TIMED_CHARS`` of text, ``run_detectors`` reads the clock before each detector
  and skips the rest once ``BUDGET_SECONDS`` are spent.

Either bound marks the verdict (``Verdict.cut``), and the row keeps it in
``detection_cut``: the event is stored and counted, and a reader can tell that some
checks did not see all of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from leakline.detectors.exchange import Exchange

MAX_CHARS: Final = 262_144
BUDGET_SECONDS: Final = 0.25
# Below this much text no event comes near the budget (the slowest shapes cost ~1 µs a
# character per detector), so ordinary events never read the clock.
TIMED_CHARS: Final = 32_768

CUT_CHARS: Final = "chars"  # a text was longer than MAX_CHARS: the detectors read its head
CUT_BUDGET: Final = "budget"  # the time budget ran out: these detectors were skipped


def text_size(exchange: Exchange) -> int:
    """Characters of model and prompt text the detectors may read in ``exchange``."""
    return (
        len(exchange.visible_text)
        + len(exchange.reasoning_text)
        + len(exchange.commentary_text)
        + len(exchange.prompt_text)
    )


def capped(exchange: Exchange) -> Exchange | None:
    """A copy of ``exchange`` with every text cut to its first ``MAX_CHARS`` characters;
    None when none is longer (the common case: no copy)."""
    texts = (
        exchange.visible_text,
        exchange.reasoning_text,
        exchange.commentary_text,
        exchange.prompt_text,
    )
    if all(len(t) <= MAX_CHARS for t in texts):
        return None
    visible, reasoning, commentary, prompt = (t[:MAX_CHARS] for t in texts)
    return replace(
        exchange,
        visible_text=visible,
        reasoning_text=reasoning,
        commentary_text=commentary,
        prompt_text=prompt,
    )


def budget_note(skipped: list[str]) -> str:
    """The ``cut`` entry for detectors skipped on time: ``budget:id,id``."""
    return f"{CUT_BUDGET}:{','.join(skipped)}"
