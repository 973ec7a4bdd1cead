"""Log records that never carry an event: payload arguments summarised, text redacted.

Debug logging of the Kafka client and Faust formats what they send and yield ("Sending
(key=... value=...)" is a whole raw event on the ingest side, and a raw dead letter on the
worker's). A log line is read, shipped and kept by people and systems that never see the
store, so at every level:

- an argument that is a payload (bytes, a dict, a list) is replaced by its size;
- a text argument over 200 characters is a payload too (an event as JSON): its length;
- any other non-scalar argument is shown as its text, redacted and cut;
- the message and an attached traceback are redacted and capped.

It is installed as the record factory (``install``): records are only made for enabled
levels, so it costs nothing at the default level beyond the few lines a worker logs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from leakline.pipeline.events.redact import Redactor

__all__ = ["MESSAGE_MAX_CHARS", "TEMPLATE", "install", "safe_arg", "safe_record"]

MESSAGE_MAX_CHARS = 2000
TRACEBACK_MAX_CHARS = 8000
ARG_MAX_CHARS = 200
_SCALARS = (int, float, bool, type(None))
_REDACTOR = Redactor.default()
_FORMATTER = logging.Formatter()
_SAFE = "leakline_safe"  # set on a record once made safe
TEMPLATE = "leakline_template"  # the message before formatting: what repeats are keyed on


class _Summary(str):
    """What stands for a payload: printed the same by %s and %r."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def safe_arg(value: Any) -> Any:
    """A log argument as it may be printed: scalars as they are, payloads as their size."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, str):
        if len(value) <= ARG_MAX_CHARS:
            return value  # the whole message is redacted once formatted
        return _Summary(f"<{len(value)} chars>")  # a long text is a payload (event JSON)
    if isinstance(value, bytes | bytearray | memoryview):
        return _Summary(f"<{len(value)} bytes>")
    if isinstance(value, dict | list | tuple | set) and not hasattr(value, "_fields"):
        return _Summary(f"<{type(value).__name__} of {len(value)}>")
    try:
        text = str(value)
    except Exception:  # a hostile __str__: the type is enough
        return _Summary(f"<{type(value).__name__}>")
    return _cut(_REDACTOR.redact_text(_cut(text, 4 * ARG_MAX_CHARS)), ARG_MAX_CHARS)


def safe_record(record: logging.LogRecord) -> logging.LogRecord:
    """``record`` with its message formatted safely and its traceback redacted, in place."""
    if getattr(record, _SAFE, False):
        return record
    args = record.args
    setattr(record, TEMPLATE, record.msg)
    if args:
        if isinstance(args, dict) and "%(" in str(record.msg):
            args = {k: safe_arg(v) for k, v in args.items()}
        elif isinstance(args, dict):  # log("%r", a_dict): logging made the dict the args
            args = (safe_arg(args),)
        else:
            args = tuple(safe_arg(a) for a in args)
    try:
        message = str(record.msg) % args if args else str(record.msg)
    except Exception:  # a bad format string: keep the parts, safely
        message = f"{record.msg!s} {args!r}"
    record.msg = _cut(
        _REDACTOR.redact_text(_cut(message, 4 * MESSAGE_MAX_CHARS)), MESSAGE_MAX_CHARS
    )
    # empty, not None: mode's formatter maps over the args (None became (None,) and
    # broke "%" formatting of the already formatted message)
    record.args = ()
    if record.exc_info and not record.exc_text:
        trace = _FORMATTER.formatException(record.exc_info)
        record.exc_text = _cut(
            _REDACTOR.redact_text(trace[-4 * TRACEBACK_MAX_CHARS :]), TRACEBACK_MAX_CHARS
        )
    setattr(record, _SAFE, True)
    return record


_installed: Callable[..., logging.LogRecord] | None = None


def install() -> None:
    """Make every log record of this process safe when it is created (idempotent)."""
    global _installed
    current = logging.getLogRecordFactory()
    if _installed is not None and current is _installed:
        return
    make = current

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return safe_record(make(*args, **kwargs))

    _installed = factory
    logging.setLogRecordFactory(factory)
