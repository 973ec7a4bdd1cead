"""The docs: the generated reference covers the CLI, the README stays short, the site builds.

The generators live in ``docs/hooks.py`` (MkDocs runs them at build time); these tests
import that file and check its output against the code, walking the parsers themselves
rather than trusting the generator's own walk.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from leakline.pipeline.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SETUP_COMMANDS = ("python3 dev.py demo", "python3 dev.py test")


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hooks() -> ModuleType:
    return _load("leakline_docs_hooks", ROOT / "docs" / "hooks.py")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return {
        name: sub
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name, sub in action.choices.items()
    }


def _every_option(parser: argparse.ArgumentParser) -> set[str]:
    found = {o for a in parser._actions if a.help != argparse.SUPPRESS for o in a.option_strings}
    for sub in _subparsers(parser).values():
        found |= _every_option(sub)
    return found


def test_every_command_and_option_has_its_reference_page(hooks: ModuleType) -> None:
    pages = hooks.command_pages()
    commands = _subparsers(build_parser())
    assert commands, "build_parser() has no subcommands"
    missing = []
    for name, parser in commands.items():
        page = pages.get(f"reference/cli/{name}.md")
        if page is None:
            missing.append(f"no page for `leakline {name}`")
            continue
        for action in _subparsers(parser):
            if f"## leakline {name} {action}" not in page:
                missing.append(f"`leakline {name} {action}` has no section")
        for option in sorted(_every_option(parser)):
            # options are listed as inline code, with their metavar when they take a value
            if not re.search(rf"`{re.escape(option)}[ `]", page):
                missing.append(f"`leakline {name} {option}` is not on its page")
    assert not missing, "\n".join(missing)
    assert set(pages) == {f"reference/cli/{name}.md" for name in commands}


def test_the_nav_lists_every_command_page(hooks: ModuleType) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    hooks.on_config(config)
    listed = set(re.findall(r"reference/cli/[\w-]+\.md", repr(config["nav"])))
    assert listed == {"reference/cli/index.md", *hooks.command_pages()}


def test_the_commands_table_links_every_command(hooks: ModuleType) -> None:
    table = hooks.commands_table()
    for name in _subparsers(build_parser()):
        assert f"[`leakline {name}`]({name}.md)" in table


def test_readme_is_short_and_shows_the_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move detail to docs/"
    for command in SETUP_COMMANDS:
        assert any(line.startswith(command + " ") or line == command for line in lines), command
    # CI runs the test command the README shows
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 dev.py test" in ci.splitlines()


def test_readme_links_point_at_files() -> None:
    text = README.read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)#\s]+)", text) if "://" not in t]
    assert targets
    assert [t for t in targets if not (ROOT / t).exists()] == []


def test_glossary_names_exist_in_the_code(hooks: ModuleType) -> None:
    assert hooks.glossary_problems() == []


def test_event_field_table_covers_the_schema(hooks: ModuleType) -> None:
    import json

    schema = json.loads((ROOT / "pipeline" / "schemas" / "gateway_event.v1.json").read_text())
    table = hooks.event_fields()
    for name in schema["properties"]:
        assert f"| `{name}` |" in table
    assert "| `chat_template.name` |" in table


def test_every_store_view_is_described(hooks: ModuleType) -> None:
    described = hooks.describe_views()
    assert set(described) == set(hooks.VIEWS)
    assert ("template_name", "VARCHAR") in described["samples"]


def test_every_marker_in_the_docs_is_known(hooks: ModuleType) -> None:
    for page in (ROOT / "docs").rglob("*.md"):
        for name, arg in hooks.MARKER.findall(page.read_text(encoding="utf-8")):
            if name == "include":
                assert (ROOT / arg).is_file(), f"{page}: include of a missing {arg}"
            else:
                assert name in hooks.GENERATORS, f"{page}: unknown marker {name}"


def test_architecture_import_table_matches_the_layer_test() -> None:
    layers = _load("leakline_test_layers", ROOT / "tests" / "architecture" / "test_layers.py")
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    documented: dict[str, set[str]] = {}
    for package, may in re.findall(r"^\| `([\w.]+)` \| .* \| ([^|]*) \|$", text, re.M):
        documented[package] = set(re.findall(r"`([\w.]+)`", may))
    expected = dict(layers.ALLOWED)
    # the CLI row summarises its long list
    cli = expected.pop("pipeline.cli")
    assert "pipeline.cli" in documented
    assert cli == {p for p in expected if p.startswith("pipeline.")} | {"models.cli"}
    documented.pop("pipeline.cli")
    assert documented == expected


@pytest.mark.slow
def test_the_site_builds_strict(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "-f",
            str(ROOT / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (site / "reference" / "cli" / "gate" / "index.html").is_file()
    views = (site / "reference" / "views" / "index.html").read_text(encoding="utf-8")
    assert "leak_rates" in views and "template_name" in views


def test_flags_on_the_configuration_page_exist() -> None:
    text = (ROOT / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8")
    known = _every_option(build_parser())
    named = set(re.findall(r"`(--[a-z][\w-]*)", text))
    assert named, "no flags found on the configuration page"
    assert sorted(named - known) == []
