"""MkDocs hooks: the reference pages that are generated from the code, so they cannot drift.

``mkdocs.yml`` names this file under ``hooks:``. At build time it

- writes one page per command (``reference/cli/<command>.md``, actions of a command such
  as ``families import`` as sections) from ``leakline.pipeline.cli.build_parser()``: usage,
  description, every option with its help and default; ``on_config`` lists them in the
  nav under the "Commands" entry (``reference/cli/index.md``);
- replaces ``<!-- leakline:NAME -->`` markers in hand-written pages with generated text:
  ``event-fields`` (from ``pipeline/schemas/gateway_event.v1.json``), ``labels`` (the body of
  ``detectors/LABELS.md``), ``views`` (``DESCRIBE`` of every view of a throwaway store made
  by ``leakline.pipeline.store.database.init_store``), ``glossary`` (the table below, each
  name checked against the code), ``commands`` (the table of commands), ``metrics`` (the
  Prometheus metrics a worker registers), ``group-fields`` (what ``rates --by`` accepts),
  ``engine-profiles`` (``leakline engine-sim``'s profiles) and ``include:PATH`` (a
  repository file, e.g. ``ARCHITECTURE.md``);
- logs a warning, which fails ``mkdocs build --strict``, for an unknown marker, a view
  without a description in ``VIEWS``, or a glossary name the code no longer has. (A
  column without a line in ``COLUMNS`` is listed with an empty meaning.)

The generators are plain functions; ``tests/docs`` imports this file to check them.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "pipeline" / "schemas" / "gateway_event.v1.json"
LABELS_MD = ROOT / "detectors" / "LABELS.md"
CLI_DIR = "reference/cli"
COMMANDS_NAV = f"{CLI_DIR}/index.md"  # the nav entry that on_config expands
MARKER = re.compile(r"<!--\s*leakline:([\w-]+)(?::([^\s>]+))?\s*-->")

log = logging.getLogger("mkdocs.hooks.leakline")


# --------------------------------------------------------------------------- markdown


def md(text: str) -> str:
    """Plain text (help strings, descriptions) made safe inside Markdown and table cells."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = re.sub(r"([\\`*_|\[\]])", r"\\\1", text)
    return " ".join(text.split())


def code(text: str) -> str:
    """Inline code that may itself hold backticks or pipes (table cells)."""
    text = str(text).replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- commands


@contextmanager
def fixed_width(columns: int = 100) -> Iterator[None]:
    """argparse wraps usage at the terminal width: fix it, so pages do not depend on the shell."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


def build_parser() -> argparse.ArgumentParser:
    from leakline.pipeline.cli import build_parser as build

    return build()


def subcommands(parser: argparse.ArgumentParser) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """Every subcommand in the order ``leakline --help`` lists them: name -> (help, parser)."""
    found: dict[str, tuple[str, argparse.ArgumentParser]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                found[name] = (helps.get(name, ""), sub)
    return found


def _prose(text: str, raw: bool) -> str:
    """A description or epilog: rewrapped prose, or kept as written when the parser
    prints it raw (RawDescriptionHelpFormatter)."""
    if not text.strip():
        return ""
    if raw:
        return "```text\n" + text.strip("\n") + "\n```"
    return "\n\n".join(md(part) for part in re.split(r"\n\s*\n", text.strip()))


def _default(action: argparse.Action) -> str:
    if action.nargs == 0:  # a flag: store_true, store_const, help, version
        return "flag"
    if action.default in (None, argparse.SUPPRESS) or action.default == []:
        return "required" if action.required else ""
    return code(action.default)


def _names(action: argparse.Action) -> str:
    if action.option_strings:
        metavar = ""
        if action.nargs != 0:
            formatter = argparse.HelpFormatter("leakline")
            metavar = " " + formatter._format_args(action, action.dest.upper())
        return "<br>".join(code(o + metavar) for o in action.option_strings)
    return code(str(action.metavar or action.dest))


def _help(action: argparse.Action, prog: str) -> str:
    """The help with ``%(default)s`` expanded, without the "(default: …)" that the parser's
    formatter may append: the page has a default column."""
    if not action.help:
        return ""
    return argparse.HelpFormatter(prog)._expand_help(action)


def option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string a parser accepts, its actions' included (what the page must list)."""
    found = {o for a in parser._actions if a.help != argparse.SUPPRESS for o in a.option_strings}
    for _, sub in subcommands(parser).values():
        found |= option_strings(sub)
    return found


def _parser_body(parser: argparse.ArgumentParser, level: int) -> list[str]:
    """Usage, description, one option table per argument group, notes; headings at ``level``."""
    kind = parser.formatter_class
    raw = isinstance(kind, type) and issubclass(kind, argparse.RawDescriptionHelpFormatter)
    out = [
        "```text\n" + parser.format_usage().strip() + "\n```",
        "",
        _prose(parser.description or "", raw),
    ]
    hashes = "#" * level
    for group in parser._action_groups:
        actions = [
            a
            for a in group._group_actions
            if a.help != argparse.SUPPRESS and not isinstance(a, argparse._SubParsersAction)
        ]
        if not actions:
            continue
        rows = [[_names(a), md(_help(a, parser.prog)), _default(a)] for a in actions]
        out += ["", f"{hashes} {md(group.title or 'options').capitalize()}", ""]
        if group.description:
            out += [md(group.description), ""]
        out.append(table(["option", "what", "default"], rows))
    exclusive = [
        " | ".join(a.option_strings[0] for a in g._group_actions if a.option_strings)
        for g in parser._mutually_exclusive_groups
    ]
    if exclusive:
        out += ["", "Mutually exclusive: " + "; ".join(code(e) for e in exclusive) + "."]
    if parser.epilog:
        out += ["", f"{hashes} Notes", "", _prose(parser.epilog, raw)]
    return out


def command_page(name: str, summary: str, parser: argparse.ArgumentParser) -> str:
    out = [
        f"# leakline {name}",
        "",
        "<!-- generated from leakline.pipeline.cli.build_parser() by docs/hooks.py: "
        "edit the command's help in its add_parser, not this page -->",
        "",
        md(summary),
        "",
        *_parser_body(parser, 2),
    ]
    # a command with actions of its own (``leakline families import``): one section each
    for action_name, (action_summary, sub) in subcommands(parser).items():
        out += ["", f"## leakline {name} {action_name}", "", md(action_summary), ""]
        out += _parser_body(sub, 3)
    return "\n".join(out).rstrip() + "\n"


def commands_table() -> str:
    """The table of commands on ``reference/cli/index.md`` (a hand-written page)."""
    with fixed_width():
        commands = subcommands(build_parser())
    rows = [[f"[`leakline {n}`]({n}.md)", md(summary)] for n, (summary, _) in commands.items()]
    return table(["command", "what"], rows)


def command_pages() -> dict[str, str]:
    """src path (under docs/) -> Markdown, one page per subcommand."""
    with fixed_width():
        commands = subcommands(build_parser())
        pages = {}
        for name, (summary, parser) in commands.items():
            pages[f"{CLI_DIR}/{name}.md"] = command_page(name, summary, parser)
    return pages


# --------------------------------------------------------------------------- event contract


def _schema_type(node: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    if "enum" in node:
        return " \\| ".join(code(json.dumps(v)) for v in node["enum"])
    kind = node.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    return " or ".join(kinds)


def _fields(
    props: dict[str, Any], defs: dict[str, Any], prefix: str = ""
) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, node in props.items():
        yield prefix + name, node
        target = defs[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else node
        if target.get("type") == "object" and "properties" in target:
            yield from _fields(target["properties"], defs, f"{prefix}{name}.")


# what a field means where the schema has no description (the schema's own text wins)
FIELD_NOTES: dict[str, str] = {
    "api": "Which API the exchange used; decides how `request` and `response`/`chunks` are read.",
    "stream": "The response was streamed (then `chunks` holds it).",
    "engine": "What served the model.",
    "engine.name": "vllm, sglang, openai, anthropic, ...",
    "engine.version": "The engine's version; the first thing rates are split by.",
    "model": "The model that answered.",
    "model.name": "Served model name (filled from the response's `model` when not set).",
    "model.revision": "Model revision or commit.",
    "chat_template": "The chat template the engine applied.",
    "chat_template.name": "Template name.",
    "chat_template.hash": "Template content hash.",
    "parsers": "The engine's parser flags, when known.",
    "parsers.reasoning": "`--reasoning-parser` value (e.g. `qwen3`, `deepseek_r1`).",
    "parsers.tool_call": "`--tool-call-parser` value (e.g. `hermes`).",
    "gateway": "The gateway that produced the event.",
    "gateway.name": "Gateway name (`litellm`, `leakline-gate`, ...).",
    "gateway.version": "Gateway version.",
    "client": "How the client renders the response.",
    "client.reasoning_field": "The field the client reads reasoning from.",
    "client.renders_phases": "The client shows Responses `commentary` text (needed for "
    "`commentary_rendered`).",
    "remediation": "What the gateway did about a leak, if anything.",
    "remediation.action": "strip, rescue, regenerate or fallback.",
    "remediation.attempts": "Retries spent.",
    "remediation.extra_tokens": "Tokens the remediation cost.",
    "remediation.outcome": "How it ended.",
}


def event_fields() -> str:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    one_of = {r for alt in schema.get("oneOf", []) for r in alt.get("required", [])}
    stored = {term.event: term.column for term in GLOSSARY if term.event and not term.event_shown}
    stored.update(
        {f"remediation.{k}": f"remediation_{k}" for k in ("attempts", "extra_tokens", "outcome")}
    )
    rows = []
    for path, node in _fields(schema["properties"], defs):
        if path in required:
            need = "required"
        elif path in one_of:
            need = "exactly one of " + " / ".join(code(r) for r in sorted(one_of))
        else:
            need = ""
        about = md(node["description"]) if "description" in node else FIELD_NOTES.get(path, "")
        column = stored.get(path) or (path if path in ("event_id", "ts", "api", "stream") else "")
        rows.append(
            [
                code(path),
                _schema_type(node, defs),
                need,
                md_inline(about),
                code(column) if column else "",
            ]
        )
    return "\n".join(
        [
            f"*Generated from `pipeline/schemas/gateway_event.v1.json` ({md(schema['title'])}).*",
            "",
            md(schema.get("description", "")),
            "",
            table(["field", "type", "required", "meaning", "stored as"], rows),
        ]
    )


# --------------------------------------------------------------------------- labels


def labels() -> str:
    text = LABELS_MD.read_text(encoding="utf-8")
    body = text.split("\n", 1)[1] if text.startswith("# ") else text
    return f"*Included from `detectors/LABELS.md`, the contract the detectors follow.*\n\n{body.strip()}"


# --------------------------------------------------------------------------- views

# what each DuckDB view is for; a view missing here fails the strict build
VIEWS: dict[str, str] = {
    "samples": "One row per exchange, deduplicated by `event_id`: `samples_compacted` plus "
    "`samples_fresh`. Every rate view reads this.",
    "samples_all": "Every stored row, duplicates included (redeliveries, replays).",
    "samples_compacted": "The compact files only (unique by `event_id` across the store).",
    "samples_parts": "The part files as the workers wrote them.",
    "samples_fresh": "The part files, deduplicated among themselves and without the events "
    "already compacted.",
    "samples_files": "The Parquet files right now (a query can notice a compaction that ran "
    "meanwhile).",
    "samples_reviewed": "`samples` plus the newest review per event: `effective_labels` "
    "(reviewed labels where a review exists, else the machine `labels`), `label_source` "
    "(`machine` or `reviewed`), `reviewer`, `reviewed_at`, `review_note`.",
    "reviews_all": "Every review decision (append-only, `DATA_DIR/reviews/part-*.parquet`).",
    "reviews_latest": "The newest review per `event_id`.",
    "leak_rates": "Per engine name, engine version and model: total, leaking, rate and one "
    "count column per label.",
    "label_rates": "Per engine, engine version, model and label: leaking, total, rate.",
    "detector_rates": "Per engine, engine version and detector (id, version, label): the "
    "events it fired on.",
    "tool_schema_accuracy": "K2VV's schema accuracy: schema-valid tool-call responses over "
    "responses that finished with `tool_calls`.",
    "remediation_ratios": "What gateways reported doing (strip / rescue / regenerate / "
    "fallback / none) per engine version: events, extra tokens, share.",
}

# what a column means, wherever it appears (samples and the views built on it)
COLUMNS: dict[str, str] = {
    "event_id": "the event's id; every view counts it once",
    "ts": "the event's `ts` (ingestion time when it had none)",
    "ingested_at": "when the worker processed it",
    "api": "`chat.completions`, `responses` or `messages`",
    "stream": "the exchange was streamed",
    "engine_name": "`engine.name`",
    "engine_version": "`engine.version`",
    "model_name": "`model.name`",
    "model_revision": "`model.revision`",
    "template_name": "`chat_template.name`",
    "template_hash": "`chat_template.hash`",
    "reasoning_parser": "`parsers.reasoning`",
    "tool_call_parser": "`parsers.tool_call`",
    "gateway_name": "`gateway.name`",
    "gateway_version": "`gateway.version`",
    "has_stop": "the request set `stop` (`rates --by stop`)",
    "structured": "the request asked for structured output",
    "has_tools": "the request declared tools (`rates --by tools`)",
    "finish_reason": "normalised finish reason",
    "request_key": "the same request streamed or not, with or without stop",
    "reasoning_field": "where the engine put reasoning",
    "client_reasoning_field": "where the client reads reasoning (`client.reasoning_field`)",
    "renders_phases": "`client.renders_phases`",
    "chunk_count": "stream chunks received",
    "first_leak_chunk": "stream chunk holding the first leaking byte",
    "tool_call_finish": "finished with `tool_calls`",
    "tool_calls_schema_valid": "every structured tool call was valid against its schema",
    "leaking": "at least one label",
    "labels": "the machine labels",
    "sources": "the tiers that found them (`rule`, `heuristic`, `classifier`)",
    "n_findings": "number of findings",
    "findings": "JSON list of findings (label, detector, span, evidence, layer, remediation)",
    "suggested_remediation": "remediations the findings suggest",
    "layers": "layers the findings point at",
    "detector_versions": "JSON object: detector id -> version",
    "classifier_version": "the classifier model that ran (also on clean rows)",
    "remediation_action": "`remediation.action` as the gateway reported it",
    "remediation_outcome": "`remediation.outcome`",
    "remediation_attempts": "`remediation.attempts`",
    "remediation_extra_tokens": "`remediation.extra_tokens`",
    "text_stored": "the row keeps its text (every leaking row, a sample of clean ones)",
    "visible_text": "the user-visible text, redacted",
    "reasoning_text": "the reasoning text, redacted",
    "src_topic": "source topic",
    "src_partition": "source partition",
    "src_offset": "source offset",
    "worker_id": "the worker that stored the row",
    "schema_version": "version of the stored row schema",
    "event_json": "the whole event, redacted (text-stored rows only; regression cases replay it)",
    "day": "hive partition `day=YYYY-MM-DD` (`rates --by day`)",
    "total": "exchanges in the group",
    "rate": "leaking / total",
    "label": "a label name",
    "events": "distinct events",
    "detector_id": "the finding's detector",
    "detector_version": "its version",
    "tool_call_finishes": "responses that finished with `tool_calls`",
    "schema_valid": "of those, schema-valid",
    "schema_accuracy": "schema_valid / tool_call_finishes",
    "action": "remediation action (`none` when the gateway reported nothing)",
    "extra_tokens": "tokens the remediation spent",
    "share": "events / all events of the version",
    "file": "a Parquet file path",
    "effective_labels": "reviewed labels where reviewed, else `labels`",
    "label_source": "`machine` or `reviewed`",
    "reviewer": "who reviewed",
    "reviewed_at": "when",
    "review_note": "the reviewer's note",
    "review_id": "the review's id",
    "previous_labels": "labels before this review",
    "machine_labels": "the detectors' labels",
    "note": "the reviewer's note",
    "rate_low": "lower bound of the rate's 95 % Wilson interval",
    "rate_high": "upper bound of the rate's 95 % Wilson interval",
    "thinking": "the request's thinking switch: on, off or default",
    "reasoning_effort": "the request's reasoning effort",
    "thinking_budget": "the request's thinking token budget",
    "include_reasoning": "the request asked for reasoning in the response",
    "tool_choice": "auto, none, required, named, default or no_tools",
    "tools_strict": "strict tool schemas: all, some, none or no_tools",
    "response_format_type": "text, json_object or json_schema",
    "response_format_strict": "the JSON schema was requested strict",
    "temperature_bucket": "the request's temperature, bucketed",
    "reasoning_slots": "in-schema reasoning slots of a structured answer, JSON {path: value}, "
    "redacted",
}
ROWS_PY = ROOT / "pipeline" / "events" / "rows.py"


def _schema_comments() -> dict[str, str]:
    """Trailing comments on SAMPLE_SCHEMA's fields: the meaning of a column not in COLUMNS."""
    found = {}
    pattern = re.compile(r'^\s*\(\s*"(\w+)",\s*pa\.[^#\n]*#\s*(.+)$', re.M)
    for name, comment in pattern.findall(ROWS_PY.read_text(encoding="utf-8")):
        found[name] = comment.strip()
    return found


def describe_views() -> dict[str, list[tuple[str, str]]]:
    """view -> [(column, type)], from a throwaway store made by the project's own code."""
    from leakline.detectors.labels import ALL_LABELS
    from leakline.pipeline.store.database import init_store, read_only

    with tempfile.TemporaryDirectory(prefix="leakline-docs-") as tmp:
        data_dir = Path(tmp)
        init_store(data_dir)
        with read_only(data_dir) as con:
            names = [
                r[0]
                for r in con.execute(
                    "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_name"
                ).fetchall()
            ]
            views = {
                v: [(c[0], c[1]) for c in con.execute(f'DESCRIBE "{v}"').fetchall()] for v in names
            }
    for label in ALL_LABELS:
        COLUMNS.setdefault(str(label), f"rows labelled `{label}`")
    for name, comment in _schema_comments().items():
        COLUMNS.setdefault(name, comment)
    return views


def views() -> str:
    described = describe_views()
    order = [v for v in VIEWS if v in described] + sorted(set(described) - set(VIEWS))
    out = [
        "*Generated at build time: `DESCRIBE` of every view of a fresh store created by "
        "`leakline.pipeline.store.database.init_store`.*",
        "",
        table(["view", "what"], [[f"[`{v}`](#{v})", md_inline(VIEWS.get(v, ""))] for v in order]),
    ]
    for view in order:
        if view not in VIEWS:
            log.warning("docs: the DuckDB view %r has no description in docs/hooks.py VIEWS", view)
        rows = [[code(c), code(t), md_inline(COLUMNS.get(c, ""))] for c, t in described[view]]
        out += [
            "",
            f"## {view}",
            "",
            md_inline(VIEWS.get(view, "")),
            "",
            table(["column", "type", "meaning"], rows),
        ]
    missing = sorted(set(VIEWS) - set(described))
    if missing:
        log.warning(
            "docs: VIEWS in docs/hooks.py describes views the store no longer has: %s", missing
        )
    return "\n".join(out)


def md_inline(text: str) -> str:
    """Hand-written text with `code` spans: only pipes need escaping inside a table."""
    return text.replace("|", "\\|")


# --------------------------------------------------------------------------- group fields


def group_fields() -> str:
    """The names ``rates --by`` (and every FIELD=VALUE filter) accepts, and what they read."""
    from leakline.pipeline.query.filters import field_column
    from leakline.pipeline.store.database import GROUP_FIELDS

    rows = [[code(name), code(column)] for name, column in GROUP_FIELDS.items()]
    # any event tag: tags.KEY reads the stored tags JSON
    rows.append([code("tags.KEY"), code(str(field_column("tags.KEY", GROUP_FIELDS)))])
    return table(["field", "stored column (or SQL over one)"], rows)


# --------------------------------------------------------------------------- metrics

# more than the metric's help string says, where a reader needs it
METRIC_NOTES: dict[str, str] = {
    "leakline_leaks_total": "`label` is one of the label names",
    "leakline_dead_letters_total": "`reason`: `not_json`, `not_object`, `schema`, `too_large`, "
    "`internal` or `other` (`leakline dlq` shows the details)",
    "leakline_consumer_lag": "read at scrape time",
    "leakline_sink_flush_seconds": "one Parquet write per batch",
    "leakline_model_info": "reported by the batch processes at start and with every batch, "
    "so it follows `train` and `leakline models promote|rollback`",
    "leakline_model_reload_failures_total": "alert `LeaklineModelReloadFailing`",
    "leakline_version_regression": "computed at scrape time from the live table; the "
    "dashboard flags the same versions",
}


def worker_metrics() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(exposed name, type, label names, help) of every metric a worker registers."""
    from prometheus_client.metrics import MetricWrapperBase

    from leakline.pipeline.live.metrics import WorkerMetrics

    found: list[tuple[str, str, tuple[str, ...], str]] = []
    for metric in vars(WorkerMetrics()).values():
        if isinstance(metric, MetricWrapperBase):
            kind = str(metric._type)
            name = str(metric._name) + ("_total" if kind == "counter" else "")
            labels = tuple(str(label) for label in metric._labelnames)
            found.append((name, kind, labels, str(metric._documentation)))
    return found


def metrics() -> str:
    rows = [
        [
            code(name),
            kind,
            ", ".join(code(label) for label in labels) or "—",
            md(doc) + (f"; {md_inline(METRIC_NOTES[name])}" if name in METRIC_NOTES else ""),
        ]
        for name, kind, labels, doc in worker_metrics()
    ]
    return "*Generated from `leakline.pipeline.live.metrics.WorkerMetrics`.*\n\n" + table(
        ["metric", "type", "labels", "what"], rows
    )


# --------------------------------------------------------------------------- glossary

# One row per thing that has several names. Each name is checked against the code by
# glossary_problems(); "" = that place has no name for it.


@dataclass(frozen=True)
class Term:
    what: str
    event: str  # field path in the gateway event (schema)
    by: str  # `rates --by` / `--version FIELD=` name (GROUP_FIELDS)
    flags: tuple[str, ...]  # "command --flag"
    column: str  # SQL column (SAMPLE_SCHEMA); EventMeta uses the same field names
    prometheus: str  # Prometheus label
    env: str = ""  # environment variable of the producer library / LiteLLM callback
    header: str = ""  # response header the producer reads
    event_shown: str = ""  # how the event column reads, when it is derived from a field


GLOSSARY: tuple[Term, ...] = (
    Term("engine name", "engine.name", "engine.name",
         ("gate --engine-name", "diagnose --engine"), "engine_name", "engine",
         "LEAKLINE_ENGINE", "x-leakline-engine"),
    Term("engine version", "engine.version", "engine.version",
         ("gate --engine-version", "diagnose --version"), "engine_version", "engine_version",
         "LEAKLINE_ENGINE_VERSION", "x-leakline-engine-version"),
    Term("model name", "model.name", "model.name",
         ("tail --model", "diagnose --model", "gate --model"), "model_name", "model",
         "LEAKLINE_MODEL", "x-leakline-model"),
    Term("model revision", "model.revision", "model.revision", ("gate --model-revision",),
         "model_revision", "", "LEAKLINE_MODEL_REVISION", "x-leakline-model-revision"),
    Term("chat template name", "chat_template.name", "chat_template.name",
         ("gate --template-name",), "template_name", "",
         "LEAKLINE_CHAT_TEMPLATE", "x-leakline-chat-template"),
    Term("chat template hash", "chat_template.hash", "chat_template.hash",
         ("gate --template-hash",), "template_hash", "",
         "LEAKLINE_CHAT_TEMPLATE_HASH", "x-leakline-chat-template-hash"),
    Term("reasoning parser", "parsers.reasoning", "parsers.reasoning",
         ("gate --reasoning-parser",), "reasoning_parser", "reasoning_parser",
         "LEAKLINE_REASONING_PARSER", "x-leakline-reasoning-parser"),
    Term("tool-call parser", "parsers.tool_call", "parsers.tool_call",
         ("gate --tool-call-parser",), "tool_call_parser", "tool_call_parser",
         "LEAKLINE_TOOL_CALL_PARSER", "x-leakline-tool-call-parser"),
    Term("gateway name", "gateway.name", "gateway.name", (), "gateway_name", "",
         "LEAKLINE_GATEWAY"),
    Term("gateway version", "gateway.version", "gateway.version", (), "gateway_version", "",
         "LEAKLINE_GATEWAY_VERSION"),
    Term("API", "api", "api", ("export --api", "rates --api"), "api", ""),
    Term("streamed", "stream", "stream", ("export --stream", "export --no-stream"), "stream", ""),
    Term("request sets `stop`", "request", "stop", (), "has_stop", "",
         event_shown="request.stop"),
    Term("request declares tools", "request", "tools", (), "has_tools", "",
         event_shown="request.tools"),
    Term("structured output requested", "request", "structured", (), "structured", "",
         event_shown="request.response_format / text.format"),
    Term("finish reason", "response", "finish_reason", (), "finish_reason", "",
         event_shown="response / chunks: finish_reason"),
    Term("day", "ts", "day", (), "day", "", event_shown="ts (its UTC date)"),
    Term("where the client reads reasoning", "client.reasoning_field", "", (),
         "client_reasoning_field", "", "LEAKLINE_CLIENT_REASONING_FIELD"),
    Term("client renders Responses phases", "client.renders_phases", "", (),
         "renders_phases", ""),
    Term("remediation the gateway applied", "remediation.action", "", (),
         "remediation_action", ""),
    Term("leak label", "", "", ("tail --label", "export --label", "review --label"),
         "labels", "label"),
    Term("detector tier", "", "", ("export --source",), "sources", ""),
    Term("dead-letter reason (kind)", "", "", (), "", "reason"),
)  # fmt: skip


def glossary_problems() -> list[str]:
    """Every glossary name the code does not have (empty when the glossary is true)."""
    from leakline.client.metadata import ENV_FIELDS, HEADER_FIELDS
    from leakline.pipeline.events.rows import SAMPLE_SCHEMA
    from leakline.pipeline.store.database import GROUP_FIELDS

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    event_paths = {p for p, _ in _fields(schema["properties"], schema.get("$defs", {}))}
    commands = subcommands(build_parser())
    columns = set(SAMPLE_SCHEMA.names) | {"day"}
    prometheus = {label for _, _, labels, _ in worker_metrics() for label in labels}
    problems = []
    for row in GLOSSARY:
        what = row.what
        if row.event and row.event not in event_paths:
            problems.append(f"{what}: event field {row.event} is not in the schema")
        if row.by and row.by not in GROUP_FIELDS:
            problems.append(f"{what}: `rates --by {row.by}` is not a GROUP_FIELDS name")
        if row.by and row.column and GROUP_FIELDS.get(row.by) != row.column:
            problems.append(f"{what}: --by {row.by} maps to {GROUP_FIELDS.get(row.by)}")
        for flag in row.flags:
            command, option = flag.split()
            if command not in commands or option not in option_strings(commands[command][1]):
                problems.append(f"{what}: `leakline {flag}` does not exist")
        if row.column and row.column not in columns:
            problems.append(f"{what}: column {row.column} is not in SAMPLE_SCHEMA")
        if row.prometheus and row.prometheus not in prometheus:
            problems.append(f"{what}: Prometheus label {row.prometheus} does not exist")
        if row.env and ENV_FIELDS.get(row.env) != _meta_field(row):
            problems.append(f"{what}: {row.env} is not the variable for {row.column}")
        if row.header and HEADER_FIELDS.get(row.header) != _meta_field(row):
            problems.append(f"{what}: header {row.header} is not the one for {row.column}")
    return problems


def _meta_field(row: Term) -> str:
    # EventMeta fields are named like the stored columns
    return row.column


def glossary() -> str:
    for problem in glossary_problems():
        log.warning("docs: glossary in docs/hooks.py: %s", problem)
    rows = []
    for row in GLOSSARY:
        flags = []
        if row.by:
            flags.append(code(f"--by {row.by}"))
        flags += [code(f) for f in row.flags]
        env = " / ".join(code(v) for v in (row.env, row.header) if v)
        rows.append(
            [
                md_inline(row.what),
                code(row.event_shown or row.event) if row.event else "",
                "<br>".join(flags),
                code(row.column) if row.column else "",
                code(row.prometheus) if row.prometheus else "",
                env,
            ]
        )
    return table(
        ["thing", "event field", "CLI", "SQL column", "Prometheus label", "env / header"], rows
    )


# --------------------------------------------------------------------------- mkdocs hooks


def engine_profiles() -> str:
    from leakline.pipeline.gate.engine.profiles import profile_table_markdown

    return profile_table_markdown()


GENERATORS = {
    "commands": commands_table,
    "metrics": metrics,
    "engine-profiles": engine_profiles,
    "group-fields": group_fields,
    "event-fields": event_fields,
    "labels": labels,
    "views": views,
    "glossary": glossary,
}


def include(path: str) -> str:
    target = (ROOT / path).resolve()
    if ROOT not in target.parents or not target.is_file():
        log.warning("docs: include of %r: no such file in the repository", path)
        return ""
    text = target.read_text(encoding="utf-8")
    return text.split("\n", 1)[1].strip() if text.startswith("# ") else text


def expand(markdown: str, where: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name, arg = match.group(1), match.group(2)
        if name == "include" and arg:
            return include(arg)
        if name in GENERATORS and not arg:
            return GENERATORS[name]()
        log.warning("docs: %s: unknown marker %r", where, match.group(0))
        return ""

    return MARKER.sub(replace, markdown)


_PAGES: dict[str, str] = {}


def on_config(config: Any) -> Any:
    _PAGES.clear()
    _PAGES.update(command_pages())
    commands = [{f"leakline {Path(src).stem}": src} for src in _PAGES]

    def walk(items: list[Any]) -> None:
        for i, item in enumerate(items):
            if isinstance(item, dict):
                for title, value in item.items():
                    if value == COMMANDS_NAV:
                        items[i] = {title: [COMMANDS_NAV, *commands]}
                    elif isinstance(value, list):
                        walk(value)

    walk(config["nav"] or [])
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for src, content in _PAGES.items():
        files.append(File.generated(config, src, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return expand(markdown, page.file.src_uri)
