"""``leakline detect``: the detectors over a JSONL file, offline (no Kafka, no store).

Only the parser and a thin runner; the work is in ``offline``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from leakline.pipeline.core.command import (
    add_command,
    open_input,
    positive_int,
)


def add_detect(subparsers: Any) -> None:
    """Register ``detect`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "detect",
        cmd_detect,
        "label gateway events from JSONL (offline, no Kafka)",
        "Read gateway events v1 as JSONL and write one JSON line per input line:\n"
        '  {"event_id": ..., "labels": [...], "findings": [...]}\n'
        'An invalid line gets {"event_id": <id or null>, "error": "<reason>"}; processing goes on.\n'
        "A summary goes to stderr. Exit status 0 when the input was read.",
    )
    p.add_argument(
        "file", nargs="?", default="-", metavar="FILE|-", help="JSONL input; - for stdin"
    )
    p.add_argument(
        "--max-event-bytes",
        type=positive_int,
        default=4 * 1024 * 1024,
        help="reject events larger than this",
    )


def cmd_detect(args: argparse.Namespace) -> int:
    from leakline.pipeline.core.config import from_env
    from leakline.pipeline.detect.offline import detect_stream
    from leakline.pipeline.families.files import activate_data_dir

    # imported families (DATA_DIR/families.json) join the built-in table, as in the worker
    activate_data_dir(from_env().data_dir)
    with open_input(args.file) as source:
        summary = detect_stream(source, sys.stdout, max_event_bytes=args.max_event_bytes)
    print(summary.render(), file=sys.stderr)
    return 0
