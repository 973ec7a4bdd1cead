"""``leakline families``: import a model family from its own files, list, show, and check.

Only the parsers and thin runners; the work is in ``family_files``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from leakline.pipeline.core.command import HelpFormatter, add_command, add_data_dir
from leakline.pipeline.core.errors import LeaklineError

DESCRIPTION = """\
The model families leakline knows: the built-in table plus the rows imported into
DATA_DIR/families.json. `detect`, `gate`, `diagnose` and the worker merge the imported
rows with the built-in table (a running worker picks a changed file up without a restart).

  leakline families import --tokenizer-config tokenizer_config.json --name my_model
  leakline families list
  leakline families show qwen3
  leakline families check 'Hello<|im_end|>' --model my-org/my-model"""

IMPORT_DESCRIPTION = """\
Read a model's own files and write one reviewed family row to DATA_DIR/families.json:
  - the added tokens (tokenizer_config.json added_tokens_decoder; --tokenizer adds
    tokenizer.json's added_tokens): every special token, and the non-special ones the
    chat template writes (they decode as text, like Qwen3's <think>), become the row's
    tokens; markup words such as <tool_response> only count for this family;
  - the chat template (--chat-template, else chat_template in tokenizer_config.json):
    the reasoning delimiters are the markers it treats as such, whatever they are
    called: the one its generation prompt ends with past the assistant header
    (prefilled), the ones it writes around a message's reasoning or as an empty block
    when thinking is off, and the ones it splits history on and drops what came before
    (content.split('</think>')[-1]); with jinja2 installed it is rendered in a sandbox
    on a short conversation, else judged from its text. The tool-call tags it writes are
    matched against the known tool-call syntaxes.
Prints what was found, and how, and where it was written. Bad files write nothing (exit 2)."""


def add_families(subparsers: Any) -> None:
    """Register ``families`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "families",
        _no_action,
        "import a model family from its tokenizer files; list, show, check",
        DESCRIPTION,
    )
    sub = p.add_subparsers(dest="families_command", metavar="ACTION")

    imp = sub.add_parser(
        "import",
        help="import a family from tokenizer_config.json (+ tokenizer.json, chat template)",
        description=IMPORT_DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    imp.set_defaults(func=cmd_import)
    imp.add_argument("--tokenizer-config", required=True, type=Path, metavar="FILE")
    imp.add_argument("--tokenizer", type=Path, metavar="FILE", help="tokenizer.json")
    imp.add_argument(
        "--chat-template",
        type=Path,
        metavar="FILE",
        help="chat template file (default: chat_template in the tokenizer config)",
    )
    imp.add_argument("--name", required=True, help="the family's name (a new one)")
    imp.add_argument(
        "--model-pattern",
        action="append",
        default=[],
        metavar="P",
        help="lower-case substring of model names of this family; repeatable (default: the name)",
    )
    imp.add_argument(
        "--parser-name",
        action="append",
        default=[],
        metavar="P",
        help="engine parser flag value that means this family; repeatable",
    )
    imp.add_argument("--replace", action="store_true", help="overwrite an imported family")
    imp.add_argument(
        "--dry-run", action="store_true", help="print what would be written, write nothing"
    )
    add_data_dir(imp)

    lst = sub.add_parser(
        "list", help="every family: built-in and imported", formatter_class=HelpFormatter
    )
    lst.set_defaults(func=cmd_list)
    add_data_dir(lst)

    show = sub.add_parser("show", help="one family's row as JSON", formatter_class=HelpFormatter)
    show.set_defaults(func=cmd_show)
    show.add_argument("name")
    add_data_dir(show)

    check = sub.add_parser(
        "check",
        help="what a visible text would trigger, and why",
        description="Run the detectors on a synthetic exchange whose visible content is TEXT "
        "and list the findings: label, detector, token, tool-call syntax, family, evidence.",
        formatter_class=HelpFormatter,
    )
    check.set_defaults(func=cmd_check)
    check.add_argument("text", metavar="TEXT", help="the visible text; - reads stdin")
    check.add_argument("--model", help="model name (names the family by its patterns)")
    check.add_argument("--reasoning-parser", metavar="P", help="engine reasoning parser")
    check.add_argument("--tool-parser", metavar="P", help="engine tool-call parser")
    check.add_argument(
        "--tool",
        action="append",
        default=[],
        metavar="NAME",
        help="declare a tool (no schema), so tool calls in the text count; repeatable",
    )
    check.add_argument("--format", default="table", choices=["table", "json"])
    add_data_dir(check)
    _add_suggest_accept(sub)


def _add_suggest_accept(sub: Any) -> None:
    """``families suggest`` / ``families accept``: the fleet learner's suggestions."""
    sug = sub.add_parser(
        "suggest",
        help="marker shapes the workers learned from the fleet (never labels)",
        description="List the marker shapes the workers' fleet learner suggests: shapes one "
        "version group writes and nobody asked for, with counts, the rate's interval, first "
        "seen, redacted examples and the family row `accept` would write. A suggestion is "
        "never a label: nothing is labelled until it is accepted.",
        formatter_class=HelpFormatter,
    )
    sug.set_defaults(func=cmd_suggest)
    sug.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="F=V",
        help="filter: model, engine, engine_version, template_hash, status, kind, id, worker "
        "(= exact, ~ substring); repeatable",
    )
    sug.add_argument("--format", default="table", choices=["table", "json"])
    add_data_dir(sug)
    acc = sub.add_parser(
        "accept",
        help="write a suggestion's family row (running workers reload it)",
        description="Write the family row of suggestion ID to DATA_DIR/families.json, as "
        "`families import` does; running workers pick it up without a restart.",
        formatter_class=HelpFormatter,
    )
    acc.set_defaults(func=cmd_accept)
    acc.add_argument("id", metavar="ID")
    add_data_dir(acc)


def cmd_suggest(args: argparse.Namespace) -> int:
    from leakline.pipeline.families import marker_suggestions as sg

    items = [s for s in sg.read_all(_data_dir(args)) if sg.matches(s, args.where)]
    sys.stdout.write(sg.render(items, args.format))
    return 0


def cmd_accept(args: argparse.Namespace) -> int:
    from leakline.pipeline.families import marker_suggestions as sg

    row, path = sg.accept(_data_dir(args), args.id)
    sys.stdout.write(f"family {row['name']} written to {path}; review it before use\n")
    return 0


def _no_action(args: argparse.Namespace) -> int:
    raise LeaklineError(
        "families needs an action",
        hint="leakline families {import,list,show,check,suggest,accept} --help",
    )


def _data_dir(args: argparse.Namespace) -> Path:
    from leakline.pipeline.core.config import from_env

    return from_env(data_dir=args.data_dir).data_dir


def cmd_import(args: argparse.Namespace) -> int:
    from leakline.detectors.families import family_to_dict
    from leakline.pipeline.families import files as ff

    path = ff.families_path(_data_dir(args))
    found = ff.import_family(
        args.tokenizer_config,
        name=args.name,
        tokenizer=args.tokenizer,
        chat_template=args.chat_template,
        model_patterns=args.model_pattern,
        parser_names=args.parser_name,
    )
    rows = ff.merge(ff.read_families(path), found.row, replace=args.replace)
    row = found.row
    out = sys.stdout
    out.write(f"family {row.name}\n")
    out.write(f"  special tokens read: {len(found.special_tokens)}")
    if found.skipped_tokens:
        out.write(f" ({len(found.skipped_tokens)} left out: reserved or plain words)")
    out.write("\n")
    out.write(f"  chat template: {found.template_source or 'none'}\n")
    if row.reasoning_start:
        prefill = "yes, the generation prompt ends with it" if row.start_prefilled else "no"
        out.write(f"  reasoning: {' '.join(row.reasoning_start)} ... {' '.join(row.reasoning_end)}")
        out.write(f" (start prefilled: {prefill})\n")
        for literal, how in found.reasoning_found_by.items():
            out.write(f"    {literal}: {'; '.join(how)}\n")
    else:
        out.write("  reasoning: no delimiters found\n")
    if found.written_plain_tokens:
        out.write(
            "  non-special tokens the template writes: "
            + " ".join(found.written_plain_tokens)
            + "\n"
        )
    out.write(f"  boundary tokens: {' '.join(row.boundary_tokens) or 'none'}\n")
    if row.contextual_tokens:
        out.write(f"  contextual tokens: {' '.join(row.contextual_tokens)}\n")
    out.write(
        "  tool-call markup: "
        + (", ".join(m.name for m in row.tool_call_markup) or "none recognised")
        + "\n"
    )
    if found.tool_tags and not found.unknown_tool_tags:
        out.write(f"  tool-call markup tokens (not boundary tokens): {' '.join(found.tool_tags)}\n")
    if found.unknown_tool_tags:
        out.write(
            "  tool-call tags with no known syntax (not rescued; add a ToolMarkup row): "
            + " ".join(found.unknown_tool_tags)
            + "\n"
        )
    out.write(f"  model patterns: {' '.join(row.model_patterns)}\n")
    out.write(f"  parser names: {' '.join(row.parser_names) or 'none'}\n")
    for note in found.notes:
        out.write(f"  note: {note}\n")
    if args.dry_run:
        import orjson

        out.write(orjson.dumps(family_to_dict(row), option=orjson.OPT_INDENT_2).decode() + "\n")
        out.write("dry run: nothing written\n")
        return 0
    ff.write_families(path, rows)
    out.write(f"written to {path} ({len(rows)} imported families); review it before use\n")
    return 0


def _all_rows(args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    from leakline.detectors.families import FAMILIES
    from leakline.pipeline.families import files as ff

    imported = ff.read_families(ff.families_path(_data_dir(args)))
    builtin = [row for row in FAMILIES if row.name not in {r.name for r in imported}]
    return builtin, imported


def cmd_list(args: argparse.Namespace) -> int:
    builtin, imported = _all_rows(args)
    out = sys.stdout
    out.write(f"{'family':<18} {'source':<9} {'reasoning':<30} parsers\n")
    for source, rows in (("built-in", builtin), ("imported", imported)):
        for row in rows:
            reasoning = (
                f"{row.reasoning_start[0]}…{row.reasoning_end[0]}" if row.reasoning_start else "-"
            )
            if row.start_prefilled:
                reasoning += " (prefilled)"
            parsers = ", ".join(row.parser_names) or "-"
            out.write(f"{row.name:<18} {source:<9} {reasoning:<30} {parsers}\n")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    import orjson

    from leakline.detectors.families import family_to_dict

    builtin, imported = _all_rows(args)
    for source, rows in (("imported", imported), ("built-in", builtin)):
        for row in rows:
            if row.name == args.name:
                doc = {"source": source, **family_to_dict(row)}
                sys.stdout.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n")
                return 0
    known = ", ".join(sorted(r.name for r in (*builtin, *imported)))
    raise LeaklineError(f"unknown family {args.name!r}", hint=f"known families: {known}")


def cmd_check(args: argparse.Namespace) -> int:
    import orjson

    from leakline.detectors import run_detectors
    from leakline.pipeline.events.normalise import normalise
    from leakline.pipeline.families import files as ff

    text = sys.stdin.read() if args.text == "-" else args.text
    ff.activate_data_dir(_data_dir(args))
    request: dict[str, Any] = {
        "model": args.model or "unknown",
        "messages": [{"role": "user", "content": "leakline families check"}],
    }
    if args.tool:
        request["tools"] = [
            {"type": "function", "function": {"name": t, "parameters": {"type": "object"}}}
            for t in args.tool
        ]
    event: dict[str, Any] = {
        "event_id": "families-check",
        "api": "chat.completions",
        "request": request,
        "response": {
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ]
        },
        "model": {"name": args.model} if args.model else {},
        "parsers": {"reasoning": args.reasoning_parser, "tool_call": args.tool_parser},
    }
    verdict = run_detectors(normalise(event))
    rows = []
    for f in verdict.findings:
        details = f.details or {}
        rows.append(
            {
                "label": str(f.label),
                "detector": f.detector_id,
                "token": details.get("token") or "",
                "syntax": details.get("syntax") or "",
                "family": details.get("family") or "",
                "evidence": f.evidence,
            }
        )
    if args.format == "json":
        sys.stdout.write(orjson.dumps({"labels": list(verdict.labels), "findings": rows}).decode())
        sys.stdout.write("\n")
        return 0
    if not rows:
        sys.stdout.write("clean: no finding\n")
        return 0
    from leakline.pipeline.core.term import safe

    for r in rows:  # tokens and evidence quote the text under test: printable lines only
        family = f" family={r['family']}" if r["family"] else ""
        token = f" token={r['token']!r}" if r["token"] else ""
        syntax = f" syntax={r['syntax']}" if r["syntax"] else ""
        sys.stdout.write(safe(f"{r['label']:<18} {r['detector']:<18}{token}{syntax}{family}"))
        sys.stdout.write(f"\n    evidence: {safe(r['evidence'])}\n")
    return 0
