"""Progress on stderr for long work (replay, simulate, demo waits, export, train).

On a terminal: a rich bar. Piped or redirected (a log, ``2>&1 | tee``), a redrawn bar
degrades into cut-off fragments, so ``PlainProgress`` prints plain lines instead: one per
task every ``PLAIN_EVERY_S`` seconds while it moves, and its last state when it finishes
(or the work ends).
Both are a rich ``Progress``, so callers use one API.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

PLAIN_EVERY_S = 5.0  # seconds between two plain lines of one task


def progress_bar(eta: bool = False) -> Progress:
    """A bar with done/total and elapsed time; ``eta`` adds the estimated time left.
    Plain periodic lines when stderr is not a terminal."""
    console = Console(stderr=True)
    if not console.is_terminal:
        return PlainProgress(console=console, eta=eta)
    columns: list[ProgressColumn | str] = [
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
    ]
    if eta:
        columns += [TextColumn("eta"), TimeRemainingColumn()]
    return Progress(*columns, console=console, transient=False)


def _clock(seconds: float | None) -> str:
    whole = round(seconds or 0)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class PlainProgress(Progress):
    """A ``Progress`` that draws nothing and prints whole lines: ``description: done/total
    (pct), elapsed[, eta]``, at most every ``every`` seconds per task, and at the end."""

    def __init__(
        self,
        console: Console,
        eta: bool = False,
        every: float = PLAIN_EVERY_S,
        get_time: Any = None,
    ) -> None:
        super().__init__(console=console, disable=True, get_time=get_time)
        self.eta, self.every = eta, every
        self._said: dict[TaskID, tuple[float, str]] = {}  # task -> (when, what) last printed

    def line(self, task_id: TaskID) -> str:
        task = self._tasks[task_id]
        done = int(task.completed)
        shown = f"{task.description}: {done}"
        if task.total is not None:
            shown += f"/{int(task.total)} ({task.percentage:.0f}%)"
        taken = task.finished_time if task.finished else task.elapsed
        shown += f", {_clock(taken)} elapsed"
        if self.eta and task.time_remaining is not None and not task.finished:
            shown += f", eta {_clock(task.time_remaining)}"
        return shown

    def _say(self, task_id: TaskID, final: bool = False) -> None:
        task = self._tasks.get(task_id)
        if task is None or not task.visible:
            return
        now = self.get_time()
        when, what = self._said.get(
            task_id, (now if task.start_time is None else task.start_time, "")
        )
        shown = self.line(task_id)
        if (final or task.finished) and shown.split(", ")[0] == what.split(", ")[0]:
            return  # nothing moved since the last line (a finished task is said once)
        if final or task.finished or now - when >= self.every:
            self._said[task_id] = (now, shown)
            self.console.print(shown, markup=False, highlight=False, soft_wrap=True)

    def update(self, task_id: TaskID, **kwargs: Any) -> None:  # type: ignore[override]
        super().update(task_id, **kwargs)
        self._say(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._say(task_id)

    def stop(self) -> None:
        for task_id in list(self._tasks):
            self._say(task_id, final=True)
        super().stop()
