"""Event data never controls the operator's terminal (issue 36, finding 6).

A real store holds events whose id, tags, engine version, reply and evidence carry rich
markup (``[/]`` crashed the rich views), terminal escape sequences (OSC 52 clipboard
write, window title, clear screen, a C1 CSI), a bidirectional override, and a newline
that would forge a line. The real commands run in a new process on it; their output must
hold none of the raw control characters, show the values as visible text, and keep one
row per event.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from leakline_testkit import leakline, verdict

from leakline.detectors import Finding, Layer, Remediation, Source, Verdict
from leakline.pipeline.core.term import field, quoted, safe, safe_block
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: write "rm -rf ~" to the clipboard
TITLE = "\x1b]0;owned\x1b\\"  # OSC 0 with an ST terminator: the window title
CLEAR = "\x1b[2J\x1b[H"  # clear the screen, cursor home
C1_CSI = "\x9b31m"  # the one-byte CSI of C1
BIDI = "\u202e"  # right-to-left override
MARKUP = "[/][bold red]x[/bold red][link=http://evil]y[/link]"
FORGED = "\nleak forged-id engine.name=vllm"

HOSTILE_ID = f"ev{MARKUP}{CLIPBOARD}{FORGED}"
HOSTILE_TAG = f"acme{MARKUP}{TITLE}{BIDI}"
# versions, model and parser names are mapped to `redacted` unless they look like one at
# normalise (pipeline/events/normalise.py): the id, tags, text and evidence stay free-form
HOSTILE_EVIDENCE = f"stray {MARKUP}{CLEAR}{C1_CSI}"
HOSTILE_TEXT = f"Sure.{CLIPBOARD}{CLEAR} [/] done{FORGED}"

# raw control characters that must never reach the terminal (tab and newline are checked
# per command: they lay out the output itself)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
NOW = datetime.now(UTC)


def _event(event_id: str, version: str, tenant: str, text: str) -> dict:
    return {
        "event_id": event_id,
        "ts": (NOW - timedelta(minutes=5)).isoformat().replace("+00:00", "Z"),
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {"choices": [{"message": {"content": text}, "finish_reason": "stop"}]},
        "engine": {"name": "vllm", "version": version},
        "model": {"name": "Qwen/Qwen3-8B"},
        "tags": {"tenant": tenant},
    }


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("hostile-store")
    init_store(data_dir)
    rows = RowBuilder("t", clean_text_rate=1.0)
    events = [
        (_event(HOSTILE_ID, "0.31.0", HOSTILE_TAG, HOSTILE_TEXT), ["preamble"]),
        (_event("plain-1", "0.32.0", "globex", "Sure, here it is."), ["preamble"]),
        *((_event(f"ok-{i}", "0.32.0", "globex", f"answer {i}"), []) for i in range(6)),
        *((_event(f"h-{i}", "0.31.0", HOSTILE_TAG, f"answer {i}"), []) for i in range(3)),
    ]
    for offset, (event, labels) in enumerate(events):
        found = verdict(event["event_id"], labels)
        if event["event_id"] == HOSTILE_ID:  # evidence quotes the reply
            finding = Finding(
                "preamble",
                "test_detector",
                "1",
                Source.RULE,
                Layer.MODEL,
                Remediation.STRIP,
                1.0,
                HOSTILE_EVIDENCE,
                (0, 5),
            )
            found = Verdict(HOSTILE_ID, ("preamble",), (finding,), {"test_detector": "1"})
        rows.add(event, normalise(event), found, Origin("gateway.events", 0, offset), NOW)
    ParquetSink(data_dir).write(rows.table())
    init_store(data_dir)
    return data_dir


def _clean(output: str, keep_layout: bool = True) -> None:
    """No raw control character; no markup error; no traceback."""
    assert not RAW.search(output), repr(RAW.search(output))
    assert "MarkupError" not in output and "Traceback" not in output, output[-2000:]


WIDE = {**os.environ, "COLUMNS": "400"}  # one table row per line


def _run(*args: str) -> tuple[str, str]:
    done = leakline(*args, env=WIDE)
    _clean(done.stdout)
    _clean(done.stderr)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def test_rates_by_a_hostile_tag_and_version(store: Path) -> None:
    out, _ = _run(
        "rates", "--data-dir", str(store), "--by", "tags.tenant,engine.version", "--since", "1d"
    )
    # the values are shown as visible text, markup included
    rows = [line for line in out.splitlines() if "│" in line]
    hostile = [r for r in rows if safe(HOSTILE_TAG) in r and "0.31.0" in r]
    assert len(hostile) == 2, out  # the rates row and the label-rates row
    assert any("globex" in r and "0.32.0" in r for r in rows)


def test_compare_by_a_hostile_tag(store: Path) -> None:
    out, _ = _run(
        "compare",
        "--data-dir",
        str(store),
        "--by",
        "tags.tenant",
        "engine.version=0.31.0",
        "engine.version=0.32.0",
    )
    assert any(safe(HOSTILE_TAG) in line for line in out.splitlines()), out


def test_review_list_keeps_one_row_per_sample(store: Path) -> None:
    out, _ = _run("review", "--data-dir", str(store), "--list", "--limit", "100")
    rows = out.splitlines()
    ids = [row.split("\t")[0] for row in rows]
    assert len(rows) == 11 and all(row.count("\t") == 3 for row in rows), rows
    assert safe(HOSTILE_ID) in ids and "plain-1" in ids
    assert not any(row.startswith("leak forged") for row in rows)


def test_review_shows_a_hostile_sample_as_text(store: Path) -> None:
    done = leakline(
        "review",
        "--data-dir",
        str(store),
        "--where",
        "engine.version=0.31.0",
        stdin=b"q\n",
        env=WIDE,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    _clean(done.stdout)
    _clean(done.stderr)
    assert safe(HOSTILE_ID) in done.stdout.replace("─", "").replace("\n", "")
    assert "⟦Sure.⟧␛]52;c;cm0gLXJmIH4=␇␛[2J␛[H [/] done" in done.stdout  # span marked
    assert safe(HOSTILE_EVIDENCE) in done.stdout


def test_diagnose_shows_versions_as_one_line_each(store: Path) -> None:
    out, _ = _run("diagnose", "--data-dir", str(store), "--since", "1d")
    headers = [line for line in out.splitlines() if line.startswith("== engine")]
    assert len(headers) == 2, out


# ------------------------------------------------------------------ the helper itself


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;aGk=\x07", "␛]52;c;aGk=␇"),
        ("a\nb\r\nc\rd", "a⏎b⏎c␍d"),
        ("tab\there", "tab␉here"),
        ("\x9b2J\x85\x7f", "\ufffd2J\ufffd␡"),
        ("left\u202eright\u2066", "left\ufffdright\ufffd"),
        ("[/] [bold]kept as text[/bold]", "[/] [bold]kept as text[/bold]"),
        ("한국어 テキスト 🙂\u3000x", "한국어 テキスト 🙂\u3000x"),  # printable: untouched
    ],
)
def test_safe_replaces_control_and_layout_characters(raw: str, shown: str) -> None:
    assert safe(raw) == shown


def test_block_keeps_newlines_and_tabs_but_not_carriage_returns() -> None:
    assert safe_block("a\n\tb\r\nc\rd\x1b[2J") == "a\n\tb\nc␍d␛[2J"


def test_plain_fields_cannot_add_a_field_or_a_line() -> None:
    assert field("0.31.0") == "0.31.0" and field("") == ""
    assert field("0.31.0 fix=none") == '"0.31.0 fix=none"'
    assert quoted('id"\nleak x') == '"id\\"⏎leak x"'
