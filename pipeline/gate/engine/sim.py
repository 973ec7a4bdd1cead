"""``leakline engine-sim``: an OpenAI/Anthropic-compatible TEST DOUBLE of an LLM engine.

It runs no model. Each response is a deterministic function of the request and a
failure-mode profile (``leakline.pipeline.gate.engine.profiles``), served over real HTTP and real
SSE so the official ``openai`` and ``anthropic`` SDKs talk to it as to vLLM.
Used by ``leakline gate`` tests and the demo.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from leakline.pipeline.core.command import non_negative, register, run_standalone
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.procinfo import parent_death_signal
from leakline.pipeline.gate.engine.profiles import (
    BY_NAME,
    DEFAULT_PROFILE,
    MODEL_PREFIX,
    PROFILE_HEADER,
    PROFILES,
    get_profile,
)

DESCRIPTION = f"""\
TEST DOUBLE - not a model. Fakes an LLM engine's failure modes over HTTP.

engine-sim answers /v1/chat/completions, /v1/responses, /v1/messages (Anthropic) and
/v1/models like an OpenAI-compatible engine (vLLM, SGLang), streaming real SSE, but it
runs no model: every answer is a fixed function of the request (it echoes a topic from
the last user message) and of a failure-mode profile. Use it to test gateways,
`leakline gate` and the leak detectors, never to serve users.

It honours stream, stop / stop_sequences, tools / tool_choice, response_format /
text.format / output_config.format and max_tokens / max_output_tokens.

Profile per request: header `{PROFILE_HEADER}: NAME`, or model `{MODEL_PREFIX}NAME`;
otherwise --profile. Response headers: x-leakline-engine, x-leakline-engine-version,
x-leakline-profile.

profiles:
""" + "\n".join(f"  {p.name:<17} {p.summary}" for p in PROFILES)


# ------------------------------------------------------------------ CLI


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0..65535, got {text}")
    return value


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default: 127.0.0.1)")
    p.add_argument(
        "--port", type=_port, default=8000, help="port; 0 picks a free one (default: 8000)"
    )
    p.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        metavar="NAME",
        help=f"default failure-mode profile: {', '.join(BY_NAME)} (default: {DEFAULT_PROFILE})",
    )
    p.add_argument(
        "--delay",
        type=non_negative,
        default=0.0,
        metavar="SECONDS",
        help="wait this long before answering each request, like a busy engine (default: 0)",
    )
    p.set_defaults(func=cmd_engine_sim)


def add_parser(subparsers: Any) -> None:
    """Register ``engine-sim`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "engine-sim",
        "TEST DOUBLE of an OpenAI-compatible engine that fakes its failure modes",
        DESCRIPTION,
        _configure,
    )


def cmd_engine_sim(args: argparse.Namespace) -> int:
    import asyncio

    from leakline.pipeline.gate.engine.server import serve

    profile = get_profile(args.profile)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.host, args.port, profile, args.delay))
    return 0


def spawn_engine_sim(
    profile: str = DEFAULT_PROFILE,
    *,
    log_path: Path | None = None,
    timeout_s: float = 60.0,
    delay_s: float = 0.0,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``leakline engine-sim --port 0`` as a process; returns it and its base URL
    (``http://127.0.0.1:PORT/v1``) once it listens. Stop it with ``leakline.pipeline.demo.stop_process``."""
    cmd = [
        sys.executable,
        "-m",
        "leakline.pipeline.cli",
        "engine-sim",
        "--port",
        "0",
        "--profile",
        profile,
        "--delay",
        str(delay_s),
    ]
    log = log_path.open("ab") if log_path else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=log,
            start_new_session=True,
            preexec_fn=parent_death_signal(),  # ends if its starter is killed (-9)
        )
    finally:
        if log_path:
            log.close()  # type: ignore[union-attr]
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout_s
    line = b""
    while time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            break
    match = re.search(rb"(http://\S+/v1)", line)
    if not match:
        proc.kill()
        proc.wait()
        raise LeaklineError(
            f"engine-sim did not start within {timeout_s:.0f}s (printed {line!r})",
            hint=f"run `{' '.join(cmd[2:])}` by hand to see why",
        )
    return proc, match.group(1).decode()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.gate.engine.sim``: the same command without the ``leakline`` entry point."""
    return run_standalone("engine-sim", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
