"""Untrusted strings on the operator's terminal: shown as text, never as markup or escapes.

Event ids, tags, version strings, dead-letter reasons and model text come from clients.
Printed raw they can crash a rich view (``[/]`` is closing markup), drive the terminal
(ESC/CSI/OSC sequences: clipboard writes with OSC 52, the window title, clear screen) or
forge lines in plain output (a newline in an event id). Every CLI view that prints event
data passes it through here first:

- ``safe`` for a value shown on one line (a table cell, a ``key=value`` field): every C0
  control character including tab and newline, DEL, every C1 control character, and the
  Unicode characters that reorder or break what is shown (bidirectional overrides and
  isolates, line/paragraph separators) become visible stand-ins.
- ``safe_block`` for multi-line text (a reply shown in ``review``): the same, but newline
  and tab are kept, since they only lay the text out; a carriage return is not kept, since
  it moves the cursor back over what was already printed.
- ``text`` wraps ``safe`` in a ``rich.text.Text``, which rich never parses as markup.
- ``quoted``/``field`` quote values for plain, line-oriented output.

Why tab goes on one line: in a cell or a field it is a separator (``review --list`` is
tab-separated, ``cut -f`` splits on it), so a tab in an event id would shift the columns a
script reads; in a block of text it is only indentation.

Tables are fitted to where they go (``output_width``, ``natural_width``): on a terminal to
its columns, wrapping long cells; piped or redirected, at their natural width, so that a
script reading the output gets every value whole (a model name is never folded mid-word).

Not on the hot path: only what a view prints passes through here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # rich is imported when a view renders, not when a CLI module loads
    from rich.console import RenderableType
    from rich.text import Text

UNBOUNDED = 1 << 15  # columns to measure in: wider than any table a command prints

NEWLINE_MARK = "⏎"  # what a line break inside a one-line value looks like
REPLACEMENT = "\ufffd"  # C1 controls and layout-changing format characters

# the characters that reorder or break a displayed line without being visible themselves
_LAYOUT = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
_ONE_LINE = re.compile(f"\r\n|[\x00-\x1f\x7f-\x9f{_LAYOUT}]")
_BLOCK = re.compile(f"\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f{_LAYOUT}]")
_BARE = re.compile(r'[^\s"=\\]*')  # a field value that needs no quotes (empty too)


def _stand_in(match: re.Match[str]) -> str:
    char = match.group()
    if char in ("\n", "\r\n"):  # only one-line values get here with a newline
        return NEWLINE_MARK
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # Control Pictures: ␛ for ESC, ␉ for tab, ␍ for CR
    if code == 0x7F:
        return "\u2421"  # ␡
    return REPLACEMENT


def safe(value: object) -> str:
    """``value`` as one printable line: control and layout characters replaced."""
    text = value if isinstance(value, str) else str(value)
    if text.isascii() and text.isprintable():  # the common case: nothing to replace
        return text
    return _ONE_LINE.sub(_stand_in, text)


def safe_block(value: object) -> str:
    """``value`` as printable lines: like ``safe``, but newlines and tabs are kept."""
    text = value if isinstance(value, str) else str(value)
    return _BLOCK.sub(_block_stand_in, text)


def _block_stand_in(match: re.Match[str]) -> str:
    return "\n" if match.group() == "\r\n" else _stand_in(match)


def text(value: object, style: str = "") -> Text:
    """A rich ``Text`` of ``safe(value)``: printed as is, never read as markup."""
    from rich.text import Text

    return Text(safe(value), style=style)


def block_text(value: object, style: str = "") -> Text:
    from rich.text import Text

    return Text(safe_block(value), style=style)


def quoted(value: object) -> str:
    """``safe(value)`` in double quotes (JSON string syntax), for plain output."""
    return json.dumps(safe(value), ensure_ascii=False)


def field(value: object) -> str:
    """A ``key=value`` value: bare when it is one plain word, else quoted, so that a space
    or ``=`` in event data cannot forge another field."""
    shown = safe(value)
    return shown if _BARE.fullmatch(shown) else json.dumps(shown, ensure_ascii=False)


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def output_width(stream: TextIO | None = None) -> int | None:
    """The columns to fit a table to: ``$COLUMNS`` when set (the user asked for a width),
    else the terminal's when ``stream`` (default stdout) is one; None when it is piped or
    redirected, where a table takes its natural width (``natural_width``)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if is_terminal(stream or sys.stdout):
        return shutil.get_terminal_size().columns
    return None


def layout_width(*renderables: RenderableType, width: int | None = None) -> int:
    """The columns to print ``renderables`` in: ``width`` when given, else ``output_width``;
    piped or redirected, their natural width, with every table at its own (not expanded:
    an expanded table shares the width out by ratio and folds a long value), so that no
    value is wrapped or cut."""
    fitted = width or output_width()
    if fitted:
        return fitted
    from rich.console import Console
    from rich.table import Table

    for item in renderables:
        if isinstance(item, Table):
            item.expand = False
    console = Console(width=UNBOUNDED)
    widths = [1]
    for item in renderables:
        widths.append(console.measure(item).maximum)
        title = getattr(item, "title", None)
        if title:
            widths.append(console.measure(title).maximum)
    return max(widths)
