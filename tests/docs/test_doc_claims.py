"""What the README and the guides claim, checked without running them (fast).

``test_commands_run.py`` runs every ``leakline`` line; these catch what it cannot see: a
line that calls a program the install does not provide, figures in the README that the
pages it links to contradict, and a help text that states another default than the one
the command uses.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import sys
from pathlib import Path
from types import ModuleType

import pytest

from leakline.pipeline.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDES = [README, *sorted((ROOT / "docs" / "guide").glob("*.md"))]
FENCE = re.compile(r"^\s*```(\w*)\s*$")

# what a line in a bash block may start with, and where it comes from: the README's install
# (leakline, the venv's Python and pip, the extras' tools) or any shell
PROVIDED = {
    "leakline": "the install",
    "python3": "the prerequisite (Python 3.11)",
    "python3.11": "the prerequisite",
    "python": "the venv",
    "pip": "the venv",
    "jupyter": "the `notebooks` extra (nbclient)",
    ".": "shell",
    "cd": "shell",
    "echo": "shell",
    "export": "shell",
    "curl": "any system",
    "grep": "any system",
}


def _bash_lines(path: Path) -> list[tuple[int, str]]:
    lines, in_bash, pending, start = [], False, "", 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(raw)
        if fence:
            in_bash = not in_bash and fence.group(1) == "bash"
            continue
        if in_bash:
            start = start if pending else number
            if raw.rstrip().endswith("\\"):
                pending += raw.rstrip()[:-1] + " "
                continue
            lines.append((start, pending + raw.strip()))
            pending = ""
    return lines


def _programs(line: str) -> list[str]:
    """The program of each simple command on ``line`` (after VAR=value assignments)."""
    line = re.sub(r"\$\(.*\)", "VALUE", line)  # a substitution's inside is not a command here
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    programs, expect_program = [], True
    for token in lexer:
        if token in {"&&", "||", ";", "|", "&"}:
            expect_program = True
        elif expect_program and not re.match(r"^[A-Z_]+=", token):
            programs.append(token.removeprefix(".venv/bin/"))
            expect_program = False
    return programs


def test_every_line_in_the_guides_runs_a_program_the_install_provides() -> None:
    unknown = [
        f"{path.relative_to(ROOT)}:{number}: `{program}` in `{line}`"
        for path in GUIDES
        for number, line in _bash_lines(path)
        for program in _programs(line)
        if program not in PROVIDED
    ]
    assert not unknown, "not installed by the README's install:\n" + "\n".join(unknown)


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start : following if following >= 0 else len(text)]


FIGURE = re.compile(r"\d+(?:[.,]\d+)*(?:\s*[–-]\s*\d+(?:[.,]\d+)*)?\s*(?:k/s|%|/s)?")


def test_the_readme_states_no_figure_its_known_limits_pages_contradict() -> None:
    section = _section(README.read_text(encoding="utf-8"), "## Known limits")
    linked = [ROOT / t for t in re.findall(r"\]\(([^)#\s]+)", section)]
    assert ROOT / "docs/operations/known-limits.md" in linked
    assert ROOT / "benchmarks/README.md" in linked
    sources = " ".join(p.read_text(encoding="utf-8") for p in linked)
    # a figure the README states must be one its sources state, word for word
    prose = re.sub(r"\]\([^)]*\)", "]", section)  # not the link targets
    stated = [f.strip() for f in FIGURE.findall(prose) if f.strip()]
    assert [f for f in stated if f not in sources] == []


def _load_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("leakline_docs_hooks", ROOT / "docs/hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["leakline_docs_hooks"] = module
    spec.loader.exec_module(module)
    return module


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser(only=name)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise AssertionError(name)


@pytest.fixture
def demo_default(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder ``leakline demo`` writes when given no --data-dir (run up to the call)."""
    from leakline.pipeline import demo

    used: list[Path] = []
    monkeypatch.setattr(demo, "run_demo", lambda **kw: used.append(kw["data_dir"]) or 0)
    monkeypatch.delenv("LEAKLINE_DATA_DIR", raising=False)
    args = build_parser(only="demo").parse_args(["demo"])
    assert args.func(args) == 0 and len(used) == 1
    return Path(used[0])


def test_demo_help_states_the_data_dir_it_writes(demo_default: Path) -> None:
    data_dir = next(a for a in _subparser("demo")._actions if "--data-dir" in a.option_strings)
    assert data_dir.help and f"./{demo_default}" in data_dir.help
    assert "leakline-data" not in data_dir.help and "LEAKLINE_DATA_DIR" not in data_dir.help


def test_the_generated_demo_reference_states_the_same_default(demo_default: Path) -> None:
    page = _load_hooks().command_pages()["reference/cli/demo.md"]
    line = next(line for line in page.splitlines() if line.startswith("| `--data-dir"))
    assert f"./{demo_default}" in line and "leakline-data" not in line
