"""``leakline families`` end to end (a new process, as a user runs it), and the commands and
the worker that merge DATA_DIR/families.json with the built-in table."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import orjson
import pytest
from leakline_testkit import leakline

from leakline.detectors import families as fam
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.families import files as ff
from leakline.pipeline.worker.offload import BatchConfig, InlineProcessor

FIXTURES = Path(__file__).parent / "fixtures"
TOKEN = "<|acme_sep|>"  # only the imported ChatML-like family has it


def env_for(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "LEAKLINE_DATA_DIR": str(data_dir)}


def import_acme(data_dir: Path, *extra: str):
    return leakline(
        "families",
        "import",
        "--tokenizer-config",
        str(FIXTURES / "prefill_tokenizer_config.json"),
        "--chat-template",
        str(FIXTURES / "prefill_think.jinja"),
        "--name",
        "acme",
        "--model-pattern",
        "acme-chat",
        *extra,
        env=env_for(data_dir),
    )


def event(text: str, model: str = "acme-chat-7b", event_id: str = "e1") -> dict:
    return {
        "event_id": event_id,
        "api": "chat.completions",
        "request": {"model": model, "messages": [{"role": "user", "content": "hi"}]},
        "response": {
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ]
        },
        "model": {"name": model},
    }


def findings_with(result: dict, token: str) -> list[dict]:
    return [f for f in result["findings"] if f.get("details", {}).get("token") == token]


# --------------------------------------------------------------------------- import / list / show


def test_import_prints_what_it_found_and_writes_the_file(tmp_path):
    done = import_acme(tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "reasoning: <think> ... </think>" in out
    assert "start prefilled: yes" in out
    assert TOKEN in out
    assert "tool-call markup: hermes" in out
    path = tmp_path / "families.json"
    assert f"written to {path}" in out
    doc = json.loads(path.read_text())
    (row,) = doc["families"]
    assert row["name"] == "acme" and row["start_prefilled"] is True
    assert row["model_patterns"] == ["acme-chat"]
    assert TOKEN in row["boundary_tokens"]


def test_import_twice_needs_replace(tmp_path):
    assert import_acme(tmp_path).returncode == 0
    again = import_acme(tmp_path)
    assert again.returncode == 2
    assert "imported before" in again.stderr and "--replace" in again.stderr
    assert "Traceback" not in again.stderr
    assert import_acme(tmp_path, "--replace").returncode == 0
    assert len(json.loads((tmp_path / "families.json").read_text())["families"]) == 1


def test_a_builtin_name_is_refused_with_a_hint(tmp_path):
    done = leakline(
        "families",
        "import",
        "--tokenizer-config",
        str(FIXTURES / "chatml_think_tokenizer_config.json"),
        "--name",
        "qwen3",
        env=env_for(tmp_path),
    )
    assert done.returncode == 2
    assert "built-in family" in done.stderr and "hint:" in done.stderr
    assert not (tmp_path / "families.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ["--tokenizer-config", "not_json_tokenizer_config.json"], "is not JSON", id="not_json"
        ),
        pytest.param(
            ["--tokenizer-config", "no_added_tokens_tokenizer_config.json"],
            "no added tokens",
            id="no_added_tokens",
        ),
        pytest.param(
            [
                "--tokenizer-config",
                "chatml_think_tokenizer_config.json",
                "--chat-template",
                "malformed.jinja",
            ],
            "does not parse",
            id="template_not_parseable",
        ),
    ],
)
def test_bad_input_is_exit_2_with_a_hint_and_writes_nothing(tmp_path, args, message):
    args = [a if a.startswith("--") else str(FIXTURES / a) for a in args]
    done = leakline("families", "import", *args, "--name", "bad", env=env_for(tmp_path))
    assert done.returncode == 2
    assert message in done.stderr
    assert "hint:" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_list_and_show(tmp_path):
    assert import_acme(tmp_path).returncode == 0
    listed = leakline("families", "list", env=env_for(tmp_path))
    assert listed.returncode == 0
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert "imported" in lines["acme"] and "built-in" in lines["qwen3"]
    shown = leakline("families", "show", "acme", env=env_for(tmp_path))
    assert shown.returncode == 0
    doc = json.loads(shown.stdout)
    assert doc["source"] == "imported" and doc["tool_call_markup"] == ["hermes"]
    missing = leakline("families", "show", "nope", env=env_for(tmp_path))
    assert missing.returncode == 2 and "known families:" in missing.stderr


def test_check_says_what_a_text_triggers_and_why(tmp_path):
    assert import_acme(tmp_path).returncode == 0
    done = leakline(
        "families",
        "check",
        f"Paris is the capital.{TOKEN}",
        "--model",
        "acme-chat-7b",
        "--format",
        "json",
        env=env_for(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert "boundary_token" in doc["labels"]
    hit = [f for f in doc["findings"] if f["token"] == TOKEN]
    assert hit and hit[0]["family"] == "acme" and hit[0]["detector"] == "boundary_tokens"
    table = leakline("families", "check", "Paris is the capital.", env=env_for(tmp_path))
    assert table.returncode == 0 and "clean" in table.stdout


def test_check_with_a_declared_tool_shows_the_markup(tmp_path):
    done = leakline(
        "families",
        "check",
        '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
        "--tool",
        "get_weather",
        env=env_for(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    assert "tool_call_as_text" in done.stdout and "syntax=mistral" in done.stdout


# --------------------------------------------------------------------------- who uses the file


def test_detect_picks_up_the_imported_family(tmp_path):
    line = orjson.dumps(event(f"The answer is 4.{TOKEN}")) + b"\n"
    before = leakline("detect", "-", stdin=line, env=env_for(tmp_path))
    assert before.returncode == 0, before.stderr
    (result,) = [json.loads(x) for x in before.stdout.splitlines()]
    # unknown to the built-in table: no finding names the acme family
    assert all(f.get("details", {}).get("family") != "acme" for f in result["findings"])

    assert import_acme(tmp_path).returncode == 0
    after = leakline("detect", "-", stdin=line, env=env_for(tmp_path))
    assert after.returncode == 0, after.stderr
    (result,) = [json.loads(x) for x in after.stdout.splitlines()]
    hits = findings_with(result, TOKEN)
    assert [f["label"] for f in hits] == ["boundary_token"]
    assert hits[0]["details"]["family"] == "acme"
    assert "boundary_token" in result["labels"]


def test_detect_with_a_broken_families_file_is_a_clear_error(tmp_path):
    (tmp_path / "families.json").write_text("{broken")
    done = leakline("detect", "-", stdin=orjson.dumps(event("hi")) + b"\n", env=env_for(tmp_path))
    assert done.returncode == 2
    assert "families.json is not JSON" in done.stderr and "Traceback" not in done.stderr


def _batch_config(tmp_path: Path, worker_id: str) -> BatchConfig:
    """A worker's batch config that follows DATA_DIR/families.json (looked at before every batch)."""
    return BatchConfig(
        worker_id=worker_id,
        clean_text_rate=1.0,
        max_event_bytes=1 << 20,
        redaction="raw",
        models_dir=None,
        classifier_check_s=0.0,
        classifier_threshold=None,
        families_file=ff.families_path(tmp_path),
    )


def test_the_inline_worker_reloads_the_file_without_a_restart(tmp_path):
    """The worker's batch processor follows DATA_DIR/families.json between batches."""
    config = _batch_config(tmp_path, "w-fam")

    def batch(i: int):
        value = orjson.dumps(event(f"Four.{TOKEN}", event_id=f"e{i}"))
        record = ff_record(value, i)
        return asyncio.run(processor.process([record]))

    processor = InlineProcessor(config)
    try:
        first = batch(1)
        assert import_acme(tmp_path).returncode == 0
        second = batch(2)
    finally:
        processor.close()
        fam.set_extra_families(())
    assert "acme" not in _families_in(first)
    assert "acme" in _families_in(second)


def ff_record(value: bytes, offset: int):
    from leakline.pipeline.events.process import RawRecord

    return RawRecord(b"k", value, Origin("gateway.events", 0, offset))


def _families_in(result) -> set[str]:
    """Every family named by the findings stored for the batch's rows."""
    names: set[str] = set()
    for row in result.rows.table().to_pylist():
        for finding in orjson.loads(row.get("findings") or "[]"):
            family = (finding.get("details") or {}).get("family")
            if family:
                names.add(family)
    return names


@pytest.mark.slow
def test_a_batch_child_process_reloads_the_file_too(tmp_path):
    """Batch children (spawned) each follow the families file on their own."""
    from leakline.pipeline.worker.offload import ChildProcessor

    config = _batch_config(tmp_path, "w-fam-child")
    processor = ChildProcessor(config, 1)

    async def run():
        await processor.start()
        first = await processor.process(
            [ff_record(orjson.dumps(event(f"Four.{TOKEN}", event_id="c1")), 1)]
        )
        assert import_acme(tmp_path).returncode == 0
        second = await processor.process(
            [ff_record(orjson.dumps(event(f"Four.{TOKEN}", event_id="c2")), 2)]
        )
        return first, second

    try:
        first, second = asyncio.run(run())
    finally:
        processor.close()
    assert "acme" not in _families_in(first)
    assert "acme" in _families_in(second)


# --------------------------------------------------------------------------- a custom reasoning pair

LEAK = "The user wants a sum. 2+2=4.<|/deliberate|>It is 4."  # prefilled: only the end shows


def import_deliberate(data_dir: Path):
    return leakline(
        "families",
        "import",
        "--tokenizer-config",
        str(FIXTURES / "deliberate_tokenizer_config.json"),
        "--name",
        "deliberate",
        env=env_for(data_dir),
    )


def test_a_custom_pair_is_imported_shown_listed_and_checked(tmp_path):
    done = import_deliberate(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "reasoning: <|deliberate|> ... <|/deliberate|> (start prefilled: yes" in done.stdout
    assert "<|deliberate|>: prefilled by the generation prompt" in done.stdout
    assert "<|/deliberate|>: split on and stripped from history" in done.stdout

    shown = json.loads(leakline("families", "show", "deliberate", env=env_for(tmp_path)).stdout)
    assert shown["reasoning_start"] == ["<|deliberate|>"] and shown["start_prefilled"] is True
    listed = leakline("families", "list", env=env_for(tmp_path)).stdout
    assert "<|deliberate|>…<|/deliberate|> (prefilled)" in listed

    check = leakline(
        "families",
        "check",
        LEAK,
        "--model",
        "deliberate-7b",
        "--format",
        "json",
        env=env_for(tmp_path),
    )
    assert check.returncode == 0, check.stderr
    doc = json.loads(check.stdout)
    assert "reasoning_leak" in doc["labels"]
    assert any(f["family"] == "deliberate" for f in doc["findings"])


def test_the_inline_worker_picks_up_a_custom_pair_without_a_restart(tmp_path):
    config = _batch_config(tmp_path, "w-fam-pair")
    processor = InlineProcessor(config)

    def batch(i: int):
        value = orjson.dumps(event(LEAK, model="deliberate-7b", event_id=f"p{i}"))
        return asyncio.run(processor.process([ff_record(value, i)]))

    try:
        first = batch(1)
        assert import_deliberate(tmp_path).returncode == 0
        second = batch(2)
    finally:
        processor.close()
        fam.set_extra_families(())
    assert "deliberate" not in _families_in(first)
    assert "deliberate" in _families_in(second)
