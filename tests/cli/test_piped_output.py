"""Output read by a script (issue 32, defect 11): piped or redirected, tables print every
value whole, and progress prints plain lines on stderr instead of a redrawn bar."""

from __future__ import annotations

import io
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from leakline_testkit import leakline
from rich.console import Console

from leakline.detectors import run_detectors
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

MODELS = (
    "moonshotai/Kimi-K2-Thinking-Instruct-2509-preview",
    "mistralai/Magistral-Small-2509-with-a-long-suffix",
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B-experimental",
)
BAR_GLYPHS = ("━", "…", "\r", "\x1b[")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("piped")
    init_store(data_dir)
    rows = RowBuilder("w", 0.0)
    now = datetime(2026, 11, 1, tzinfo=UTC)
    for i in range(30):
        content = "<think>hm</think>Yes." if i % 3 == 0 else "Yes."
        event = {
            "event_id": f"e{i}",
            "api": "chat.completions",
            "request": {},
            "response": {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]},
            "engine": {"name": "vllm", "version": f"0.{30 + i % 2}.0-rc{i % 2}-nightly"},
            "model": {"name": MODELS[i % 3]},
        }
        x = normalise(event)
        rows.add(event, x, run_detectors(x), Origin("gateway.events", 0, i), now)
    ParquetSink(data_dir).write(rows.table())
    return data_dir


def _piped_env() -> dict[str, str]:
    """The environment of a pipe: no $COLUMNS asking for a width."""
    return {k: v for k, v in os.environ.items() if k != "COLUMNS"}


def test_rates_piped_prints_every_value_whole(store: Path) -> None:
    by = "engine.name,engine.version,model.name"
    done = leakline("rates", "--data-dir", str(store), "--by", by, env=_piped_env())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sum("0.31.0-rc1-nightly" in line for line in lines) >= 3, done.stdout
    for value in MODELS:
        # whole, on one line: every line showing its end shows all of it (no folded part)
        shown = [line for line in lines if value[-8:] in line]
        assert len(shown) >= 2 and all(value in line for line in shown), done.stdout
    # a terminal's width ($COLUMNS) still fits the table, folding long values
    narrow = leakline(
        "rates", "--data-dir", str(store), "--by", by, env={**_piped_env(), "COLUMNS": "80"}
    )
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    assert not any(model in narrow.stdout for model in MODELS)


def test_compare_piped_prints_every_value_whole(store: Path) -> None:
    a, b = (f"model.name={m}" for m in MODELS[:2])
    done = leakline("compare", a, b, "--data-dir", str(store), env=_piped_env())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("A: ") and MODELS[0] in line for line in lines), done.stdout
    assert any(line.startswith("B: ") and MODELS[1] in line for line in lines), done.stdout


def test_export_piped_prints_plain_progress_lines(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    done = leakline("export", "--data-dir", str(store), "--out", str(out), env=_piped_env())
    assert done.returncode == 0, done.stderr
    assert not any(glyph in done.stderr for glyph in BAR_GLYPHS), done.stderr
    assert "reading the store: " in done.stderr
    written = [line for line in done.stderr.splitlines() if line.startswith("writing samples: ")]
    assert len(written) == 1 and "(100%)" in written[0], done.stderr


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_progress_prints_a_line_every_few_seconds_and_at_the_end() -> None:
    from leakline.pipeline.core.progress import PlainProgress

    clock, err = Clock(), io.StringIO()
    bar = PlainProgress(Console(file=err), eta=True, every=5.0, get_time=clock)
    with bar:
        task = bar.add_task("sending a-very-long-description → gateway.events", total=1000)
        for _ in range(100):  # 100 steps of 10 over 20 s: lines at 5, 10, 15 s and the end
            clock.now += 0.2
            bar.advance(task, 10)
        quiet = bar.add_task("waiting", total=None)
        bar.update(quiet, completed=3)  # moved, but under 5 s: said once, at the end
    lines = err.getvalue().splitlines()
    assert len(lines) == 5, lines
    assert lines[0].startswith("sending a-very-long-description → gateway.events: 250/1000 (25%)")
    assert ", eta 0:00:1" in lines[0]  # 750 left at about 50 a second
    assert lines[3].startswith("sending a-very-long-description → gateway.events: 1000/1000 (100%)")
    assert lines[3].endswith("0:00:20 elapsed")  # finished: no eta
    assert lines[4].startswith("waiting: 3, ")
