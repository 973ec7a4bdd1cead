"""Every ``leakline`` command in the README and the user guides runs, against a demo store.

The commands are read from the ``bash`` code blocks of ``README.md`` and
``docs/guide/*.md`` as written, and run in document order (later lines use what earlier
ones wrote: ``export`` before ``train`` and ``gate``). ``leakline demo`` is run once per
session, as the README runs it; each document then starts from a copy of that store in
``./leakline-data`` of its own working folder. A command passes when it exits as the
document says (0, or the ``echo $?   # N`` line after it) and prints something, and a
rate table does not say that nothing matched.

What a document names but a test cannot reach is replaced by an explicit table below
(``PLACEHOLDERS``, ``ENDPOINT``); what cannot run to completion is in ``NOT_RUN`` with
the reason, and is still parsed by the real parser, so its flags cannot drift.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from leakline.pipeline.cli import build_parser
from leakline.pipeline.demo import stop_process
from leakline.pipeline.gate.engine.sim import spawn_engine_sim

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
LEAKLINE = [sys.executable, "-m", "leakline.pipeline.cli"]
STORE = "leakline-data"  # every document's working folder holds the demo store here

# names a document uses for "your data directory", all pointing at the demo store
PLACEHOLDERS = {"DATA": STORE, "/var/lib/leakline": STORE}
# an engine the document only names (vllm-prod, vllm-candidate, the engine-sim port): the
# engine-sim the document starts, else one this test starts (profile good)
ENDPOINT = re.compile(r"^http://[\w.-]+:8000/v1$")

# subcommands that do not run to completion here, and why (kept short; each is tested
# elsewhere on real processes)
NOT_RUN = {
    "demo": "run once per session by the `demo` fixture, as the README runs it; with "
    "--keep-running it is a service (tests/e2e/test_demo.py)",
    "worker": "a service that runs until stopped, on the gateway's Kafka (tests/e2e, tests/web)",
    "tail": "follows Kafka until Ctrl-C (tests/tail)",
}
# what a rate table prints when nothing matched: a command that "works" but shows nothing
SHOWS_NOTHING = ("no stored events match",)

FENCE = re.compile(r"^\s*```(\w*)\s*$")
EXIT_NOTE = re.compile(r"^echo \$\?\s*#\s*(\d+)")
SEPARATORS = {"&&", ";", "||", "|"}


@dataclass
class DocCommand:
    where: str  # file:line, for messages
    written: str  # the command as the document writes it (joined lines)
    argv: list[str]  # after "leakline"
    env: dict[str, str] = field(default_factory=dict)
    background: bool = False
    stdout_file: str | None = None
    expect: int = 0

    @property
    def command(self) -> str:
        return self.argv[0] if self.argv else ""


def _logical_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line) inside ``bash`` blocks, continuations joined."""
    in_bash, pending, start = False, "", 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(raw)
        if fence:
            in_bash = not in_bash and fence.group(1) == "bash"
            continue
        if not in_bash:
            continue
        line = raw.strip()
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield start, pending + line
        pending = ""


def _segments(tokens: list[str]) -> Iterator[tuple[list[str], str]]:
    """Simple commands and the operator after each (``&`` = background)."""
    current: list[str] = []
    for token in tokens:
        if token in SEPARATORS or token == "&":
            yield current, token
            current = []
        else:
            current.append(token)
    if current:
        yield current, ""


def _without_substitutions(line: str) -> str:
    """``$(...)`` (nested parentheses too) replaced by a word: a value the shell computes."""
    out, depth = [], 0
    i = 0
    while i < len(line):
        if line.startswith("$(", i) and depth == 0:
            out.append("VALUE")
            depth, i = 1, i + 2
            continue
        if depth:
            depth += {"(": 1, ")": -1}.get(line[i], 0)
        else:
            out.append(line[i])
        i += 1
    return "".join(out)


def doc_commands(path: Path) -> list[DocCommand]:
    found: list[DocCommand] = []
    for number, line in _logical_lines(path):
        note = EXIT_NOTE.match(line)
        if note and found:
            found[-1].expect = int(note.group(1))
            continue
        lexer = shlex.shlex(_without_substitutions(line), posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        for words, operator in _segments(list(lexer)):
            env = {}
            while words and re.match(r"^[A-Z_]+=", words[0]):
                name, _, value = words.pop(0).partition("=")
                env[name] = value
            if not words or Path(words[0]).name != "leakline":
                continue
            argv, stdout_file = words[1:], None
            if ">" in argv:
                at = argv.index(">")
                argv, stdout_file = argv[:at], argv[at + 1]
            found.append(
                DocCommand(
                    where=f"{path.relative_to(ROOT)}:{number}",
                    written=line,
                    argv=argv,
                    env=env,
                    background=operator == "&",
                    stdout_file=stdout_file,
                )
            )
    return found


def _substituted(argv: list[str], endpoint: str | None) -> list[str]:
    out = []
    for token in argv:
        for name, value in PLACEHOLDERS.items():
            if token == name or token.startswith(name + "/"):
                token = value + token[len(name) :]
        if endpoint and ENDPOINT.match(token):
            token = endpoint
        out.append(token)
    return out


def _parses(argv: list[str]) -> str | None:
    """None when the real parser accepts ``argv``; else what it said."""
    try:
        build_parser(only=argv[0]).parse_args(argv)
    except SystemExit as exc:
        return f"the parser refused it (exit {exc.code})"
    return None


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEAKLINE_")}
    return {**env, "COLUMNS": "160", **extra}


# ------------------------------------------------------------------ the demo store


@dataclass(frozen=True)
class Demo:
    store: Path
    stdout: str


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """``leakline demo`` as the README runs it (its default size), once per session."""
    home = tmp_path_factory.mktemp("demo")
    done = subprocess.run(
        [*LEAKLINE, "demo", "--data-dir", STORE],
        cwd=home,
        env=_env({}),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "leak rates" in done.stdout, done.stdout[-3000:]
    return Demo(home / STORE, done.stdout)


def _workspace(demo_store: Path, tmp_path: Path) -> Path:
    shutil.copytree(demo_store, tmp_path / STORE, ignore=shutil.ignore_patterns("faust", "*.log"))
    return tmp_path


def _start_engine_sim(cmd: DocCommand, cwd: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The document's own ``engine-sim ... &``, on a free port (``--port 0``): its URL is
    its first line; the rest of its output is drained so it never blocks on a full pipe."""
    argv = list(cmd.argv)
    if "--port" in argv:
        argv[argv.index("--port") + 1] = "0"
    proc = subprocess.Popen(
        [*LEAKLINE, *argv],
        cwd=cwd,
        env=_env(cmd.env),
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)  # it prints its URL once it listens
    line = proc.stdout.readline().decode() if ready else ""
    url = re.search(r"http://\S+/v1", line)
    if url is None:
        stop_process(proc)
        raise AssertionError(f"{cmd.where}: engine-sim printed no URL: {line!r}")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc, url.group()


def _wrote_its_out_file(argv: list[str], cwd: Path) -> bool:
    """A command told to write ``--out FILE`` may print nothing, if the file has content."""
    if "--out" not in argv[:-1]:
        return False
    out = cwd / argv[argv.index("--out") + 1]
    return out.is_file() and out.stat().st_size > 0


def _check(cmd: DocCommand, cwd: Path, endpoint: str | None) -> str | None:
    """What is wrong with running ``cmd`` (None: nothing)."""
    argv = _substituted(cmd.argv, endpoint)
    done = subprocess.run(
        [*LEAKLINE, *argv],
        cwd=cwd,
        env=_env(cmd.env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    shown = done.stdout
    if cmd.stdout_file:
        (cwd / cmd.stdout_file).write_text(done.stdout, encoding="utf-8")
    tail = f"\n--- stdout\n{done.stdout[-1500:]}\n--- stderr\n{done.stderr[-1500:]}"
    if done.returncode != cmd.expect:
        return f"exit {done.returncode}, the document expects {cmd.expect}{tail}"
    if not shown.strip() and not _wrote_its_out_file(argv, cwd):
        return f"printed nothing{tail}"
    nothing = [p for p in SHOWS_NOTHING if p in shown]
    if nothing:
        return f"shows nothing: {nothing[0]!r}{tail}"
    return None


def run_document(path: Path, cwd: Path) -> list[str]:
    problems: list[str] = []
    commands = doc_commands(path)
    sims: list[subprocess.Popen[bytes]] = []
    endpoint: str | None = None
    try:
        for cmd in commands:
            label = f"{cmd.where}: `{cmd.written}`"
            if cmd.command in NOT_RUN:
                if "..." not in cmd.argv:  # a line that elides flags cannot be parsed
                    refused = _parses(_substituted(cmd.argv, endpoint))
                    if refused:
                        problems.append(f"{label}: {refused}")
                continue
            if cmd.background:
                assert cmd.command == "engine-sim", f"{label}: no rule to run this in background"
                proc, endpoint = _start_engine_sim(cmd, cwd)
                sims.append(proc)
                continue
            if endpoint is None and any(ENDPOINT.match(a) for a in cmd.argv):
                proc, endpoint = spawn_engine_sim("good", log_path=cwd / "engine-sim.log")
                sims.append(proc)
            problem = _check(cmd, cwd, endpoint)
            if problem:
                problems.append(f"{label}: {problem}")
    finally:
        for proc in sims:
            stop_process(proc)
    return problems


# ------------------------------------------------------------------ tests

RUNNABLE = [p for p in DOCS if any(c.command not in NOT_RUN for c in doc_commands(p))]


@pytest.mark.parametrize("doc", RUNNABLE, ids=[str(p.relative_to(ROOT)) for p in RUNNABLE])
def test_every_command_in_the_document_runs_on_the_demo_store(
    doc: Path, demo: Demo, tmp_path: Path
) -> None:
    problems = run_document(doc, _workspace(demo.store, tmp_path))
    assert not problems, "\n\n".join(problems)


def test_the_commands_the_demo_suggests_run(demo: Demo, tmp_path: Path) -> None:
    """The demo ends with commands to try next (from `try:` on): each runs as printed,
    with nothing but the install (no duckdb binary)."""
    tail = demo.stdout[demo.stdout.index("try:") :].removeprefix("try:")
    suggested = [line.strip() for line in tail.splitlines() if line.strip()]
    assert suggested
    for line in suggested:
        assert line.startswith("leakline "), f"the demo suggests {line!r}"
        done = subprocess.run(
            [*LEAKLINE, *shlex.split(line)[1:]],
            cwd=tmp_path,
            env=_env({}),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0 and done.stdout.strip(), (line, done.stderr[-2000:])
