"""``leakline gate``: replay the regression set against a candidate engine and block
the upgrade when its leak rates regress.

1. read the regression cases (contract 1, ``leakline.pipeline.gate.cases``)
2. send every case in every stream x stop x structured (x tools) combination with the
   official SDK (``leakline.pipeline.gate.replay``), tagged with the candidate's versions
3. validate each reply as a gateway event v1, run the detectors and store the rows
   (``process_batch`` -> ``ParquetSink`` -> ``init_store``) from a ``gate-<run id>`` topic,
   so they are ``source = 'gate'`` rows: ``rates --include-gate`` shows them
4. compare per-label and overall leak rates with the baseline (the same cases replayed
   against a stored version, or a rate file): a regression is above ``--tolerance`` and
   significant at ``--alpha``; print the matrix, write the JSON report

Exit status: 0 pass, 1 regression (or failed requests), 2 misuse, 130 Ctrl-C. Rates, baselines and
the rate file format: ``leakline.pipeline.gate.rates``; the matrix and report: ``leakline.pipeline.gate.report``.
"""

from __future__ import annotations

import argparse
import ipaddress
import queue
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson

from leakline import __version__
from leakline.client.event import build_event
from leakline.pipeline.core.command import positive_int, register, run_standalone
from leakline.pipeline.core.config import DEFAULT_DATA_DIR, ENV_DATA_DIR, from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.gate.rates import (
    BASELINE_SOURCES,
    RATES_FORMAT,
    Baseline,
    Outcome,
    baseline_from_file,
    baseline_from_store,
    compare,
    parse_version_spec,
    rates_of,
)
from leakline.pipeline.gate.replay import Replayer, ReplayError, Tags, require_sdk
from leakline.pipeline.gate.report import REPORT_FORMAT, matrix, render, write_json
from leakline.pipeline.query.filters import Where, add_filter_args, where_from_args

if TYPE_CHECKING:  # jsonschema and the SDKs load only when the command runs
    from leakline.pipeline.gate.cases import Case
SIM_HINT = "is the engine running? for a local test double: `leakline engine-sim --port 8000`"

DESCRIPTION = """\
Replay the regression set's prompts against a candidate engine and fail on a leak-rate
regression, so a deployment can be blocked in CI.

Each case (DIR/cases/*.json, written by `leakline export --regression DIR`) is sent in
every combination of streaming / non-streaming x with / without stop x with / without
structured output (json_schema), plus with tools where the case had tools, through the
official openai SDK (chat.completions; --responses: client.responses.create) or the
official anthropic SDK (--messages). Replies are labeled by the detectors and stored in
--data-dir tagged with the candidate versions (see `leakline rates --by engine.version`).

Before the first request the plan is printed (cases x combinations = requests), with a
--max-cases suggestion above 2,000 requests; the first request is sent alone and timed,
and the expected run time printed (the other requests at --concurrency, each as long as
the first); the progress bar's ETA then refines it. --max-cases N replays N cases, stratified by label set and
origin version (--seed picks another N); --where/--since/--until pick cases by their
origin (the fields of `rates --by`; times by the case's first_seen).

The baseline is a stored version (--baseline-version engine.version=V1, any `rates --by`
fields, comma-separated) or a rate file (--baseline-rates FILE, written by --write-rates:
{"format": "leakline.rates/1", "overall": r, "labels": {label: r}, "total": n}). A stored
baseline is the earlier gate replies of the same cases and combinations (run the gate
once against V1 first); --baseline-from production compares with all production traffic
at V1 instead, a different population. A label or the overall rate regresses when
candidate > baseline + tolerance AND the rise is significant at --alpha (the one-sided
two-proportion z-test of `leakline compare`; against a rate file without "total", an
exact binomial test against its rate).

Gate replies are stored with source=gate: `rates`, `compare` and `diagnose` leave them
out unless --include-gate (or --where source=gate).

Ctrl-C stops the run within about a second: queued requests are cancelled, the report
(--report) is written marked "incomplete": true, nothing is stored, exit status 130.

exit status: 0 pass, 1 regression or failed requests, 2 misuse (with a hint), 130
interrupted.
"""

# ------------------------------------------------------------------ replay


@dataclass(frozen=True)
class GateConfig:
    regression: Path
    endpoint: str
    model: str
    api: str
    data_dir: Path
    tags: Tags
    tolerance: float
    api_key: str
    concurrency: int
    timeout_s: float
    baseline_version: str | None = None
    baseline_rates: Path | None = None
    report: Path | None = None
    write_rates: Path | None = None
    alpha: float = 0.05
    baseline_from: str = "gate"  # "gate": the same cases replayed earlier; "production"
    where: Where | None = None  # which cases, by their origin (--where/--since/--until)
    max_cases: int | None = None
    seed: int = 0


@dataclass
class Replayed:
    """What ``_replay`` sent: every planned outcome, the events that came back, and
    whether Ctrl-C stopped the run (then ``done`` holds only the requests that finished)."""

    planned: list[Outcome]
    done: list[Outcome]
    events: list[dict[str, Any]]
    interrupted: bool = False


def plan_jobs(
    config: GateConfig, cases: list[Case], run_id: str
) -> list[tuple[Outcome, dict[str, Any]]]:
    from leakline.pipeline.gate.cases import build_request, combos_for

    jobs = []
    for case in cases:
        for combo in combos_for(case):
            body = build_request(case, combo, config.api, config.model)
            event_id = f"gate-{run_id}-{case.case_id[:40]}-{combo.slug}"
            jobs.append((Outcome(case.case_id, combo, event_id), body))
    return jobs


# above this many requests the plan suggests --max-cases (2,000 = 250 cases of 8 variants:
# minutes against a local engine, a stratified sample that still covers every label set)
LARGE_PLAN = 2000


def plan_text(config: GateConfig, cases: int, of: int, requests: int) -> str:
    per_case = "8 each, 16 with tools"
    chosen = f"{cases} cases" if cases == of else f"{cases} of {of} cases"
    how = []
    if config.where is not None and (
        config.where.pairs or config.where.since or config.where.until
    ):
        how.append(f"where {config.where.describe()}")
    if config.max_cases is not None and cases < of:
        how.append(f"--max-cases {config.max_cases}, stratified by label set and version")
    text = (
        f"gate plan: {chosen}{' (' + '; '.join(how) + ')' if how else ''} x combinations "
        f"({per_case}) = {requests:,} requests to {config.endpoint}, "
        f"{config.concurrency} in flight"
    )
    if requests > LARGE_PLAN:
        fits = max(1, LARGE_PLAN * cases // requests)
        text += (
            f"\ngate plan: more than {LARGE_PLAN:,} requests; --max-cases {fits} replays a "
            f"sample stratified by label set and version (about {LARGE_PLAN:,} requests)"
        )
    return text


def duration_text(seconds: float) -> str:
    """``42 s``, ``7 min``, ``3 h 05 min``: an estimate, so no false precision."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def estimate_text(requests: int, concurrency: int, probe_s: float) -> str:
    """The expected run time: the rest of the requests in waves of ``concurrency``, each
    as long as the first request (sent alone; it includes the connection set-up, so the
    estimate errs long). The progress bar's ETA refines it from the measured rate."""
    rest = requests - 1
    total = probe_s + -(-rest // concurrency) * probe_s
    return (
        f"gate estimate: about {duration_text(total)} for {requests:,} requests (the first "
        f"took {probe_s:.1f} s; the other {rest:,} at {concurrency} in flight, assuming "
        "each takes as long)"
    )


def _replay(config: GateConfig, jobs: list[tuple[Outcome, dict[str, Any]]]) -> Replayed:
    """Send every variant from ``config.concurrency`` daemon threads.

    Ctrl-C in the main thread cancels the queued requests at once (in-flight ones are
    abandoned: daemon threads never hold up the exit) and returns what finished.
    """
    from leakline.pipeline.core.progress import progress_bar
    from leakline.pipeline.events.contract import ContractError, validate_event

    replayer = Replayer(config.api, config.endpoint, config.api_key, config.timeout_s)
    events: dict[str, dict[str, Any]] = {}

    def run(outcome: Outcome, body: dict[str, Any]) -> None:
        response, chunks = replayer.send(body)
        event = build_event(
            event_id=outcome.event_id,
            api=config.api,
            request=body,
            response=response,
            chunks=chunks,
            meta=config.tags,
            stream=body.get("stream") is True,
        )
        try:
            validate_event(event)
        except ContractError as exc:
            outcome.error = f"reply is not a valid gateway event: {exc.reason}"
            return
        events[outcome.event_id] = event

    planned = [o for o, _ in jobs]
    done: list[Outcome] = []
    cancel = threading.Event()
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    finished: queue.SimpleQueue[int] = queue.SimpleQueue()
    fatal: list[BaseException] = []

    def worker() -> None:
        while not cancel.is_set():
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            outcome, body = jobs[i]
            try:
                run(outcome, body)
            except ReplayError as exc:
                outcome.error = str(exc)
            except BaseException as exc:  # misuse (the SDK refused a request): stop the run
                fatal.append(exc)
                cancel.set()
            finished.put(i)

    interrupted = False
    first, body = jobs[0]
    started = time.monotonic()
    try:  # one request alone first: an unreachable endpoint is misuse, not N failures
        run(first, body)
    except ReplayError as exc:
        if exc.connection:
            raise LeaklineError(str(exc), hint=SIM_HINT) from None
        first.error = str(exc)
    except KeyboardInterrupt:
        return Replayed(planned, [], [], interrupted=True)
    done.append(first)
    probe_s = time.monotonic() - started
    print(estimate_text(len(jobs), config.concurrency, probe_s), file=sys.stderr, flush=True)
    with progress_bar(eta=True) as progress:
        task = progress.add_task(f"gate {config.api} -> {config.endpoint}", total=len(jobs))
        progress.advance(task)
        try:
            for i in range(1, len(jobs)):
                todo.put(i)
            for _ in range(min(config.concurrency, len(jobs) - 1)):
                threading.Thread(target=worker, name="gate-replay", daemon=True).start()
            while len(done) < len(jobs) and not fatal:
                try:
                    i = finished.get(timeout=0.2)
                except queue.Empty:
                    continue
                done.append(jobs[i][0])
                progress.advance(task)
        except KeyboardInterrupt:
            interrupted = True
            cancel.set()
        if fatal:
            raise fatal[0]
    return Replayed(
        planned, done, [events[o.event_id] for o in done if o.event_id in events], interrupted
    )


def _detect_and_store(
    config: GateConfig,
    run_id: str,
    outcomes: list[Outcome],
    events: list[dict[str, Any]],
    store: bool = True,
) -> list[Path]:
    """Label with the worker's own batch function and store the rows like a worker does
    (not for an interrupted run: a partial run must not become a baseline)."""
    from leakline.pipeline.events.origin import Origin
    from leakline.pipeline.events.process import RawRecord, process_batch
    from leakline.pipeline.store.database import init_store
    from leakline.pipeline.store.sink import ParquetSink

    topic = f"gate-{run_id}"  # names the Parquet file: one per gate run
    records = [
        RawRecord(e["event_id"].encode(), orjson.dumps(e), Origin(topic, 0, offset))
        for offset, e in enumerate(events)
    ]
    result = process_batch(
        records,
        worker_id=f"gate-{run_id}",
        clean_text_rate=1.0,  # a gate run is small and its clean replies are worth reading
        max_event_bytes=16 * 1024 * 1024,
    )
    columns = result.rows.columns
    verdicts = dict(zip(columns["event_id"], columns["labels"], strict=True))
    rejected = {d.key.decode() if d.key else "": d.reason for d in result.dead_letters}
    for outcome in outcomes:
        if outcome.error:
            continue
        if outcome.event_id in verdicts:
            outcome.labels = tuple(sorted(verdicts[outcome.event_id]))
        else:
            outcome.error = rejected.get(outcome.event_id, "event was not processed")
    if not store:
        return []
    written = ParquetSink(config.data_dir).write(result.rows.table())
    init_store(config.data_dir)
    return written


def run_gate(config: GateConfig) -> tuple[int, dict[str, Any]]:
    """Run the gate; returns (exit status, report). Exit 130 when Ctrl-C stopped it."""
    from leakline.pipeline.gate.cases import load_cases, select_cases

    require_sdk(config.api)  # before reading cases or the store: nothing to do without it
    # the detectors load now, not after a Ctrl-C, which must stop the run within a second
    import leakline.pipeline.events.process  # noqa: F401

    every = load_cases(config.regression)
    cases = select_cases(every, config.where, config.max_cases, config.seed)
    if not cases:
        raise LeaklineError(
            f"no regression case matches {config.where.describe() if config.where else ''}",
            hint="the fields are those of the cases' origin (engine.version, model.name, ...)",
        )
    if config.baseline_version is None and config.baseline_rates is None and not config.write_rates:
        raise LeaklineError(
            "no baseline to compare with",
            hint="pass --baseline-version engine.version=V1 or --baseline-rates FILE "
            "(or only --write-rates FILE to record a first baseline)",
        )
    run_id = uuid.uuid4().hex[:12]
    jobs = plan_jobs(config, cases, run_id)
    # the baseline is read before the candidate rows are stored, so they never mix
    baseline: Baseline | None = None
    if config.baseline_version is not None:
        mine = config.tags.group_values()
        spec = parse_version_spec(config.baseline_version)
        if all(mine.get(name) == value for name, value in spec):
            raise LeaklineError(
                f"the baseline {config.baseline_version} is the candidate itself",
                hint="give the candidate its own --engine-version, or compare with the "
                "version it replaces",
            )
        plan = {(o.case_id[:40], o.combo.slug) for o, _ in jobs}
        baseline = baseline_from_store(
            config.data_dir, config.baseline_version, config.baseline_from, plan
        )
        if baseline.coverage and baseline.coverage[0] < baseline.coverage[1]:
            print(
                f"leakline gate: the baseline has {baseline.coverage[0]} of the "
                f"{baseline.coverage[1]} planned case combinations; rates compare those it has "
                "with all of this run (gate the baseline with the same cases for a like-for-like "
                "comparison)",
                file=sys.stderr,
            )
    elif config.baseline_rates is not None:
        baseline = baseline_from_file(config.baseline_rates)

    print(plan_text(config, len(cases), len(every), len(jobs)), file=sys.stderr, flush=True)
    started = datetime.now(UTC)
    replayed = _replay(config, jobs)
    outcomes, events = replayed.done, replayed.events
    if not events and not replayed.interrupted:
        # nothing at all came back: a wrong URL, model or mode, not a regression
        raise LeaklineError(
            f"all {len(outcomes)} requests to {config.endpoint} failed; first: {outcomes[0].error}",
            hint="check --endpoint (the base URL ending in /v1), --model, and "
            "--responses/--messages for what the endpoint speaks",
        )
    written = _detect_and_store(config, run_id, outcomes, events, store=not replayed.interrupted)
    candidate = rates_of(outcomes)
    comparison = (
        compare(candidate, baseline.rates, config.tolerance, config.alpha) if baseline else []
    )
    regressed = [row["label"] for row in comparison if row["regressed"]]
    from leakline.pipeline.gate.triggering import gate_triggering  # K2VV: called a tool?

    triggering = gate_triggering(config, outcomes, events)
    if triggering["comparison"]["regressed"]:
        regressed.append(triggering["comparison"]["label"])
    failures = [
        {"case_id": o.case_id, **o.combo.as_dict(), "error": o.error} for o in outcomes if o.error
    ]
    passed = not replayed.interrupted and not regressed and not failures and candidate.total > 0
    if replayed.interrupted:
        summary = (
            f"gate INTERRUPTED after {len(outcomes)} of {len(jobs)} requests: the report is "
            "incomplete, no verdict, nothing stored"
        )
    elif regressed:
        summary = "gate FAILED: leak rate regressed for " + ", ".join(regressed)
    elif failures:
        summary = f"gate FAILED: {len(failures)} of {len(outcomes)} requests failed"
    elif baseline is None:
        summary = f"gate recorded rates of {candidate.total} replies (no baseline to compare)"
    else:
        summary = (
            f"gate PASSED: no label above baseline + {config.tolerance:.1%} "
            f"with significance at alpha {config.alpha}"
        )
    tags = config.tags.event_fields()
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "leakline_version": __version__,
        "run_id": run_id,
        "started_at": started.isoformat().replace("+00:00", "Z"),
        "incomplete": replayed.interrupted,
        "passed": passed,
        "summary": summary,
        "endpoint": config.endpoint,
        "api": config.api,
        "model": config.model,
        "candidate": {k: tags[k] for k in ("engine", "model", "chat_template", "parsers")},
        "baseline": (
            {
                "source": baseline.source,
                "spec": baseline.spec,
                **baseline.rates.to_json(),
                **(
                    {"coverage": dict(zip(("matched", "planned"), baseline.coverage, strict=True))}
                    if baseline.coverage
                    else {}
                ),
            }
            if baseline
            else None
        ),
        "tolerance": config.tolerance,
        "alpha": config.alpha,
        "cases": len(cases),
        "cases_available": len(every),
        "planned_requests": len(jobs),
        "requests": len(outcomes),
        "errors": len(failures),
        "candidate_rates": candidate.to_json(),
        "comparison": comparison,
        "regressed_labels": regressed,
        "triggering": triggering,
        "matrix": matrix(outcomes),
        "leaking": [
            {
                "case_id": o.case_id,
                **o.combo.as_dict(),
                "event_id": o.event_id,
                "labels": list(o.labels),
            }
            for o in outcomes
            if o.labels
        ][:200],
        "failures": failures[:200],
        "stored_files": [str(p) for p in written],
    }
    if config.write_rates and not replayed.interrupted:
        write_json(
            config.write_rates,
            {
                "format": RATES_FORMAT,
                "overall": candidate.overall,
                "labels": candidate.to_json()["labels"],
                "total": candidate.total,
                "triggering": {
                    k: triggering[k] for k in ("f1_recorded", "decisions")
                },  # a later run's trigger baseline
                "source": {
                    "run_id": run_id,
                    "endpoint": config.endpoint,
                    "api": config.api,
                    **report["candidate"],
                },
            },
        )
    if config.report:
        write_json(config.report, report)
    if replayed.interrupted:
        return 130, report
    return (0 if passed else 1), report


# ------------------------------------------------------------------ CLI


def _tolerance(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--regression",
        metavar="DIR",
        type=Path,
        required=True,
        help="regression case directory (contract 1: manifest.json + cases/)",
    )
    p.add_argument(
        "--endpoint",
        metavar="URL",
        required=True,
        help="base URL of the candidate, e.g. http://127.0.0.1:8000/v1",
    )
    p.add_argument("--model", metavar="NAME", required=True, help="served model name to request")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--responses",
        dest="api",
        action="store_const",
        const="responses",
        help="use the Responses API (client.responses.create)",
    )
    mode.add_argument(
        "--messages",
        dest="api",
        action="store_const",
        const="messages",
        help="use the Anthropic Messages API (anthropic SDK)",
    )
    p.set_defaults(api="chat.completions")
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        type=Path,
        help=f"store for the labeled replies (default: ${ENV_DATA_DIR} or {DEFAULT_DATA_DIR})",
    )
    tags = p.add_argument_group("candidate versions (stored on every reply)")
    tags.add_argument("--engine-name", required=True, help="e.g. vllm")
    tags.add_argument("--engine-version", required=True, help="e.g. 0.32.0")
    tags.add_argument("--model-revision")
    tags.add_argument("--template-name")
    tags.add_argument("--template-hash")
    tags.add_argument("--reasoning-parser")
    tags.add_argument("--tool-call-parser")
    base = p.add_argument_group("baseline (one of)").add_mutually_exclusive_group()
    base.add_argument(
        "--baseline-version",
        metavar="FIELD=VALUE[,...]",
        help="a stored version, e.g. engine.version=0.31.0 (fields as in `rates --by`)",
    )
    base.add_argument(
        "--baseline-rates",
        metavar="FILE",
        type=Path,
        help='a rate file: {"overall": r, "labels": {label: r}}',
    )
    p.add_argument(
        "--baseline-from",
        choices=BASELINE_SOURCES,
        default="gate",
        help="with --baseline-version: earlier gate replies of the same cases and "
        "combinations (gate, the default), or all production traffic at that version "
        "(production: other prompts, a different population)",
    )
    p.add_argument(
        "--tolerance",
        type=_tolerance,
        default=0.02,
        help="allowed rise of a rate over the baseline (default: 0.02)",
    )
    p.add_argument(
        "--alpha",
        type=_tolerance,
        default=0.05,
        help="a rise regresses only when also significant at this level, by the test of "
        "`leakline compare` (one-sided); 1 = tolerance only (default: 0.05)",
    )
    sel = p.add_argument_group("which cases (default: all)")
    add_filter_args(sel, what="cases (by their origin; times by first_seen)")
    sel.add_argument(
        "--max-cases",
        type=positive_int,
        metavar="N",
        help="replay at most N cases, stratified by label set and origin version",
    )
    sel.add_argument(
        "--seed", type=int, default=0, help="which N cases --max-cases picks (default: 0)"
    )
    p.add_argument("--report", metavar="FILE", type=Path, help="write the JSON report here")
    p.add_argument(
        "--write-rates",
        metavar="FILE",
        type=Path,
        help="write this run's rates as a rate file (a baseline for later runs)",
    )
    p.add_argument(
        "--api-key",
        default=None,
        help="API key (default: $OPENAI_API_KEY / $ANTHROPIC_API_KEY, else a dummy)",
    )
    p.add_argument(
        "--allow-plain-http",
        action="store_true",
        help="send the API key over plain http to a host other than loopback (refused by "
        "default: anyone on the path reads the key)",
    )
    p.add_argument(
        "--concurrency", type=positive_int, default=4, help="requests in flight (default: 4)"
    )
    p.add_argument(
        "--timeout", type=float, default=120.0, help="seconds per request (default: 120)"
    )
    p.set_defaults(func=cmd_gate)


def add_parser(subparsers: Any) -> None:
    """Register ``gate`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "gate",
        "replay the regression set against a candidate engine; exit 1 on a leak regression",
        DESCRIPTION,
        _configure,
    )


DUMMY_KEY = "leakline-gate"


def _loopback(host: str) -> bool:
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(endpoint: str, sends_key: bool, allow_plain_http: bool = False) -> None:
    """Refuse an endpoint that is not http(s), and plain http to a host beyond loopback
    when a real API key would go with every request (unless ``--allow-plain-http``)."""
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LeaklineError(
            f"--endpoint must be an http(s) URL with a host, got {endpoint!r}",
            hint="e.g. https://engine.internal/v1 or http://127.0.0.1:8000/v1",
        )
    plain = parts.scheme == "http" and sends_key and not allow_plain_http
    if plain and not _loopback(parts.hostname):
        raise LeaklineError(
            f"refusing to send the API key over plain http to {parts.hostname}",
            hint="use an https:// endpoint, or pass --allow-plain-http if the network "
            "path is trusted (the key is readable by anyone on it)",
        )


def cmd_gate(args: argparse.Namespace) -> int:
    import os

    env_key = "ANTHROPIC_API_KEY" if args.api == "messages" else "OPENAI_API_KEY"
    api_key = args.api_key or os.environ.get(env_key) or DUMMY_KEY
    check_endpoint(args.endpoint, api_key != DUMMY_KEY, args.allow_plain_http)
    config = GateConfig(
        regression=args.regression,
        endpoint=args.endpoint,
        model=args.model,
        api=args.api,
        data_dir=from_env(data_dir=args.data_dir).data_dir,
        tags=Tags(
            engine_name=args.engine_name,
            engine_version=args.engine_version,
            model_name=args.model,
            model_revision=args.model_revision,
            template_name=args.template_name,
            template_hash=args.template_hash,
            reasoning_parser=args.reasoning_parser,
            tool_call_parser=args.tool_call_parser,
        ),
        tolerance=args.tolerance,
        api_key=api_key,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        baseline_version=args.baseline_version,
        baseline_rates=args.baseline_rates,
        report=args.report,
        write_rates=args.write_rates,
        alpha=args.alpha,
        baseline_from=args.baseline_from,
        where=where_from_args(args),
        max_cases=args.max_cases,
        seed=args.seed,
    )
    from leakline.pipeline.families.files import activate_data_dir

    activate_data_dir(config.data_dir)  # imported families join the built-in table
    status, report = run_gate(config)
    sys.stdout.write(render(report))
    if status == 130:
        print(
            "interrupted: partial report" + (f" in {config.report}" if config.report else ""),
            file=sys.stderr,
        )
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.gate.run``: the same command without the ``leakline`` entry point."""
    return run_standalone("gate", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
