"""``leakline export`` on a real store: filters, dedupe, clean ratio, caps, determinism."""

from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest
from export_store import START, store_events

from leakline.pipeline.cli import main
from leakline.pipeline.curation.export import (
    ExportFilter,
    ExportOptions,
    normalise_text,
    run_export,
    version_key,
)
from leakline.pipeline.simulate.traffic_model import simulate

CONTRACT_KEYS = {
    "event_id",
    "ts",
    "api",
    "stream",
    "engine",
    "model",
    "chat_template",
    "parsers",
    "gateway",
    "labels",
    "machine_labels",
    "label_source",
    "sources",
    "text",
    "reasoning_text",
    "lang",
}


def export(store: Path, out: Path, flt: ExportFilter | None = None, **opts: Any) -> dict:
    result = run_export(
        store, out, flt or ExportFilter(), ExportOptions(**opts), show_progress=False
    )
    assert result.samples is not None
    return result.samples


def lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "samples.jsonl").read_text("utf-8").splitlines()]


def key_of(line: dict[str, Any]) -> str:
    v = line
    return "|".join(
        [
            v["engine"]["name"],
            v["engine"]["version"],
            v["model"]["name"],
            v["chat_template"]["name"],
            v["parsers"]["reasoning"],
            v["parsers"]["tool_call"],
        ]
    )


def test_same_export_twice_gives_the_same_bytes_and_hash(sim_store: Path, tmp_path: Path) -> None:
    first = export(sim_store, tmp_path / "a")
    second = export(sim_store, tmp_path / "b")
    a = (tmp_path / "a" / "samples.jsonl").read_bytes()
    assert a == (tmp_path / "b" / "samples.jsonl").read_bytes()
    assert first["content_hash"] == second["content_hash"]
    assert first["content_hash"] == "sha256:" + hashlib.sha256(a).hexdigest()
    assert first["counts"] == second["counts"]
    assert len(a.splitlines()) > 100


def test_lines_follow_contract_2_and_parquet_matches(sim_store: Path, tmp_path: Path) -> None:
    export(sim_store, tmp_path)
    got = lines(tmp_path)
    for line in got:
        assert set(line) == CONTRACT_KEYS
        assert line["labels"] == sorted(line["labels"])
        assert line["lang"] in ("en", "ko", "zh", "ja", "other")
    assert {line["lang"] for line in got} >= {"en", "ko", "zh"}
    assert [line["ts"] for line in got] == sorted(line["ts"] for line in got)
    table = pq.read_table(tmp_path / "samples.parquet")
    assert table.num_rows == len(got)
    assert table.column("event_id").to_pylist() == [line["event_id"] for line in got]
    assert table.column("labels").to_pylist() == [line["labels"] for line in got]
    assert table.column("engine").to_pylist()[0] == got[0]["engine"]


def test_manifest_counts_versions_and_filter(sim_store: Path, tmp_path: Path) -> None:
    flt = ExportFilter(api="chat.completions")
    manifest = export(sim_store, tmp_path, flt, clean_ratio=0.25, per_version_cap=40)
    got = lines(tmp_path)
    by_label = Counter(label for line in got for label in line["labels"])
    counts = manifest["counts"]
    assert counts["total"] == len(got)
    assert counts["clean"] == sum(1 for line in got if not line["labels"])
    assert counts["by_label"] == dict(by_label)
    assert counts["by_version"] == dict(Counter(key_of(line) for line in got))
    assert manifest["filter"]["api"] == "chat.completions"
    assert manifest["filter"]["clean_ratio"] == 0.25
    assert manifest["filter"]["per_version_cap"] == 40
    assert manifest["format"] == "leakline.export/1"
    engines = {(v["engine"]["name"], v["engine"]["version"]) for v in manifest["versions"]}
    assert engines == {(line["engine"]["name"], line["engine"]["version"]) for line in got}
    on_disk = json.loads((tmp_path / "manifest.json").read_text())
    assert on_disk["content_hash"] == manifest["content_hash"]


@pytest.fixture(scope="module")
def unfiltered(sim_store: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("unfiltered")
    export(sim_store, out, clean_ratio=0.0, per_version_cap=None)
    return lines(out)


@pytest.mark.parametrize(
    ("flt", "check"),
    [
        pytest.param(
            ExportFilter(since=START + timedelta(hours=8)),
            lambda ln: ln["ts"] >= "2026-11-01T08:00:00",
            id="since",
        ),
        pytest.param(
            ExportFilter(until=START + timedelta(hours=8)),
            lambda ln: ln["ts"] < "2026-11-01T08:00:00",
            id="until",
        ),
        pytest.param(
            ExportFilter(labels=("preamble",)), lambda ln: "preamble" in ln["labels"], id="label"
        ),
        pytest.param(
            ExportFilter(versions=(("engine.version", "0.31.0"),)),
            lambda ln: ln["engine"]["version"] == "0.31.0",
            id="engine-version",
        ),
        pytest.param(
            ExportFilter(versions=(("engine.name", "vllm"), ("parsers.tool_call", "hermes"))),
            lambda ln: ln["engine"]["name"] == "vllm" and ln["parsers"]["tool_call"] == "hermes",
            id="two-fields",
        ),
        pytest.param(ExportFilter(api="messages"), lambda ln: ln["api"] == "messages", id="api"),
        pytest.param(ExportFilter(stream=True), lambda ln: ln["stream"], id="stream"),
        pytest.param(ExportFilter(stream=False), lambda ln: not ln["stream"], id="no-stream"),
        pytest.param(
            ExportFilter(sources=("rule",)), lambda ln: "rule" in ln["sources"], id="source"
        ),
    ],
)
def test_each_filter_excludes_rows(
    sim_store: Path, tmp_path: Path, unfiltered: list[dict[str, Any]], flt: ExportFilter, check: Any
) -> None:
    everything = unfiltered
    export(sim_store, tmp_path / "f", flt, clean_ratio=0.0, per_version_cap=None)
    got = lines(tmp_path / "f")
    assert got, "the filter should keep something"
    assert all(check(line) for line in got)
    assert len(got) < len(everything)
    # nothing the filter allows was lost (a text whose earliest copy was filtered out may
    # now be represented by a later copy, so the filtered set can hold a few more)
    assert {ln["event_id"] for ln in everything if check(ln)} <= {ln["event_id"] for ln in got}


DIGITS_SHIFTED = str.maketrans("0123456789", "1234567890")


def test_dedupe_by_normalised_text_keeps_the_earliest(tmp_path: Path) -> None:
    base = next(
        s.event
        for s in simulate(200, seed=2, start=START)
        if "preamble" in s.expected_labels
        and "response" in s.event
        and s.event["api"] == "chat.completions"
    )
    message = base["response"]["choices"][0]["message"]
    twins = []
    for i, (text, minutes) in enumerate(
        [
            (message["content"], 10),
            # the same text once digits are masked and whitespace collapsed, and earlier
            (message["content"].replace(". ", ".  \n").translate(DIGITS_SHIFTED) + " ", 5),
            (message["content"] + " more", 20),  # another text
        ]
    ):
        event = copy.deepcopy(base)
        event["event_id"] = f"twin-{i}"
        event["ts"] = (START + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")
        event["response"]["choices"][0]["message"]["content"] = text
        twins.append(event)
    store = store_events(tmp_path / "store", twins)
    manifest = export(store, tmp_path / "out", clean_ratio=0.0)
    got = lines(tmp_path / "out")
    assert sorted(line["event_id"] for line in got) == ["twin-1", "twin-2"]
    assert manifest["selection"]["duplicates_dropped"] == 1
    assert normalise_text(" A  b 12\n") == normalise_text("a B 7")


def test_clean_ratio_is_the_share_of_clean_negatives(sim_store: Path, tmp_path: Path) -> None:
    for ratio in (0.0, 0.2, 0.3, 0.6):
        out = tmp_path / str(ratio)
        manifest = export(sim_store, out, clean_ratio=ratio, per_version_cap=None)
        got = lines(out)
        clean = sum(1 for line in got if not line["labels"])
        leaking = len(got) - clean
        wanted = int(leaking * ratio / (1 - ratio) + 0.5)
        available = manifest["selection"]["clean_available"]
        assert clean == min(wanted, available)
        assert manifest["counts"]["clean"] == clean
        # too few stored clean texts for the ratio: said so, not silently
        assert bool(manifest["warnings"]) == (wanted > available)
    assert ratio == 0.6 and manifest["warnings"]


def test_per_version_cap_limits_every_version(sim_store: Path, tmp_path: Path) -> None:
    export(sim_store, tmp_path / "all", clean_ratio=0.0, per_version_cap=None)
    everything = Counter(key_of(line) for line in lines(tmp_path / "all"))
    assert max(everything.values()) > 6
    manifest = export(sim_store, tmp_path / "cap", clean_ratio=0.2, per_version_cap=6)
    got = lines(tmp_path / "cap")
    leaking = Counter(key_of(line) for line in got if line["labels"])
    clean = Counter(key_of(line) for line in got if not line["labels"])
    assert max(leaking.values()) == 6 and max(clean.values()) <= 6
    assert set(leaking) == set(everything)  # every version keeps a voice
    assert manifest["selection"]["leaking_capped"] > 0
    # the cap alternates between label sets: a version's rarest set survives it
    for version, n in everything.items():
        if n > 6:
            kept = {tuple(line["labels"]) for line in got if key_of(line) == version}
            assert len([x for x in kept if x]) >= min(2, n)


def test_version_key_is_the_contract_3_key() -> None:
    row = {
        "engine_name": "vllm",
        "engine_version": "0.31.0",
        "model_name": "m",
        "template_name": None,
        "reasoning_parser": "qwen3",
        "tool_call_parser": "hermes",
    }
    assert version_key(row) == "vllm|0.31.0|m|unknown|qwen3|hermes"


def test_injection_in_filter_values_is_inert(store_copy: Path, tmp_path: Path) -> None:
    hostile = "0.31.0' OR '1'='1"
    manifest = export(
        store_copy, tmp_path / "a", ExportFilter(versions=(("engine.version", hostile),))
    )
    assert manifest["counts"]["total"] == 0
    drop = "x'); DROP VIEW samples; --"
    export(store_copy, tmp_path / "b", ExportFilter(versions=(("model.name", drop),)))
    code = main(
        [
            "export",
            "--data-dir",
            str(store_copy),
            "--out",
            str(tmp_path / "c"),
            "--version",
            "engine.version; DROP VIEW samples=1",
            "--quiet",
        ]
    )
    assert code == 2
    with duckdb.connect(str(store_copy / "leakline.duckdb"), read_only=True) as con:
        con.execute("SET file_search_path = ?", [str(store_copy)])  # views read relative paths
        row = con.execute("SELECT count(*) FROM samples").fetchone()
        assert row is not None and row[0] > 1000
        assert con.execute("SELECT count(*) FROM samples_reviewed").fetchone() == row


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        pytest.param(["--label", "bogus"], "labels are:", id="unknown-label"),
        pytest.param(["--since", "yesterday"], "RFC 3339", id="bad-time"),
        pytest.param(["--version", "engine.colour=red"], "FIELD one of", id="bad-field"),
    ],
)
def test_cli_misuse_exits_2_with_a_hint(
    sim_store: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    needle: str,
) -> None:
    code = main(["export", "--data-dir", str(sim_store), "--out", str(tmp_path), *argv])
    err = capsys.readouterr().err
    assert code == 2
    assert "hint:" in err and needle in err
    assert not (tmp_path / "samples.jsonl").exists()


def test_cli_without_store_or_target_exits_2(
    tmp_path: Path, sim_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--data-dir", str(tmp_path / "none"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no leakline store" in err and "leakline demo" in err
    assert "reading the store" not in err  # no progress bar for a store that is not there
    assert main(["export", "--data-dir", str(sim_store)]) == 2
    assert "--out DIR" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(
            ["export", "--data-dir", str(sim_store), "--out", str(tmp_path), "--clean-ratio", "1.5"]
        )
    assert exc.value.code == 2


def test_cli_export_prints_the_hash_and_a_progress_bar(
    sim_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "export",
            "--data-dir",
            str(sim_store),
            "--out",
            str(tmp_path),
            "--label",
            "preamble",
            "--no-stream",
            "--per-version-cap",
            "3",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["content_hash"] in captured.out
    assert "reading the store" in captured.err
    assert manifest["filter"]["labels"] == ["preamble"] and manifest["filter"]["stream"] is False
    assert all(not line["stream"] for line in lines(tmp_path))


def test_reviewed_labels_override_machine_labels(store_copy: Path, tmp_path: Path) -> None:
    export(store_copy, tmp_path / "before", clean_ratio=0.0, per_version_cap=None)
    before = {line["event_id"]: line for line in lines(tmp_path / "before")}
    leaking = [e for e, line in before.items() if "preamble" in line["labels"]]
    to_clean, to_relabel = leaking[0], leaking[1]
    code = main(
        [
            "review",
            "--data-dir",
            str(store_copy),
            "--set",
            f"{to_clean}=",
            "--set",
            f"{to_relabel}=reasoning_leak,truncated",
            "--reviewer",
            "ana",
        ]
    )
    assert code == 0
    export(store_copy, tmp_path / "after", clean_ratio=0.5, per_version_cap=None)
    after = {line["event_id"]: line for line in lines(tmp_path / "after")}
    assert after[to_relabel]["labels"] == ["reasoning_leak", "truncated"]
    assert after[to_relabel]["machine_labels"] == before[to_relabel]["labels"]
    assert after[to_relabel]["label_source"] == "reviewed"
    assert "reviewed" in after[to_relabel]["sources"]
    # the one reviewed clean is a clean negative now, whichever cleans the ratio picked
    export(store_copy, tmp_path / "rev", ExportFilter(sources=("reviewed",)), clean_ratio=0.5)
    reviewed = {line["event_id"]: line for line in lines(tmp_path / "rev")}
    assert set(reviewed) == {to_clean, to_relabel}
    assert reviewed[to_clean]["labels"] == [] and reviewed[to_clean]["machine_labels"]
    # a label filter follows the effective labels
    export(store_copy, tmp_path / "pre", ExportFilter(labels=("preamble",)), clean_ratio=0.0)
    assert to_clean not in {line["event_id"] for line in lines(tmp_path / "pre")}
    assert to_relabel not in {line["event_id"] for line in lines(tmp_path / "pre")}


def test_export_before_any_review_or_event_json_column(tmp_path: Path) -> None:
    """A store from before reviews existed (no views for them, no reviews dir) still exports."""
    store = tmp_path / "old"
    events = [s.event for s in simulate(60, seed=9, start=START)]
    store_events(store, events)
    with duckdb.connect(str(store / "leakline.duckdb")) as con:
        for view in ("samples_reviewed", "reviews_latest", "reviews_all"):
            con.execute(f"DROP VIEW {view}")
    for part in (store / "reviews").glob("*.parquet"):
        part.unlink()
    manifest = export(store, tmp_path / "out", clean_ratio=0.0)
    assert manifest["counts"]["total"] > 0
    assert manifest["counts"]["by_label_source"] == {"machine": manifest["counts"]["total"]}
    assert datetime.fromisoformat(manifest["created_at"].replace("Z", "+00:00")) <= datetime.now(
        UTC
    )


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Let me check the forecast first.", "en"),
        ("먼저 관련 정보를 확인해 보겠습니다.", "ko"),
        ("我先确认一下细节。", "zh"),
        ("まず詳細を確認します。", "ja"),
        ("", "other"),
        ("1234 + 5678", "other"),
    ],
)
def test_lang_is_guessed_from_the_script(text: str, lang: str) -> None:
    from leakline.pipeline.events.lang import guess_lang

    assert guess_lang(text) == lang
