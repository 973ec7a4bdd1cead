"""Limits every leakline HTTP server applies per connection: a connection cap, and
header, idle and body timeouts. Used by the worker's web server (Faust's aiohttp) and by
the standalone ``otlp-receiver``.

- header timeout: a connection must deliver its first request head within
  ``header_timeout_s`` of opening, else it gets 408 and is closed (slow headers);
- idle timeout: aiohttp's keep-alive timeout, ``idle_timeout_s`` after an answer (and,
  from aiohttp 3.10 on, after opening) without a next request head;
- connection cap: at ``max_connections`` open connections a new one first evicts the
  oldest connection still waiting for its head; with none to evict it gets 503 and is
  closed. A slow-headers client therefore cannot lock out the probes;
- body timeout and the bytes/items in flight across requests: the body readers of
  ``/ingest`` and ``/v1/traces`` (``leakline.pipeline.ingest.bounds``).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from leakline.pipeline.core.errors import LeaklineError

MIB = 1024 * 1024


@dataclass(frozen=True)
class ServerLimits:
    header_timeout_s: float = 10.0
    idle_timeout_s: float = 15.0
    body_timeout_s: float = 60.0  # a whole /ingest or /v1/traces body (32 MiB: >= 0.5 MiB/s)
    max_connections: int = 256
    # bodies of /ingest and /v1/traces held at once (read, parsed or being sent), and the
    # events they hold: over either, a request gets 503 with Retry-After
    max_inflight_bytes: int = 96 * MIB
    max_inflight_items: int = 150_000

    def __post_init__(self) -> None:
        for name in ("header_timeout_s", "idle_timeout_s", "body_timeout_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be above 0")
        for name in ("max_connections", "max_inflight_bytes", "max_inflight_items"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")


def add_limit_args(p: argparse.ArgumentParser | Any) -> None:
    """``--web-max-connections`` and the timeouts, for every command that serves HTTP."""
    d = ServerLimits()
    p.add_argument(
        "--web-max-connections",
        type=int,
        metavar="N",
        help=f"open connections at most; over it, connections still sending their request "
        f"head are closed first (default: {d.max_connections})",
    )
    p.add_argument(
        "--web-header-timeout",
        type=float,
        metavar="SECONDS",
        help=f"time to send a request head (default: {d.header_timeout_s:g})",
    )
    p.add_argument(
        "--web-idle-timeout",
        type=float,
        metavar="SECONDS",
        help=f"keep-alive time between requests (default: {d.idle_timeout_s:g})",
    )
    p.add_argument(
        "--web-body-timeout",
        type=float,
        metavar="SECONDS",
        help=f"time to send a whole /ingest or /v1/traces body (default: {d.body_timeout_s:g})",
    )
    p.add_argument(
        "--web-max-inflight-mib",
        type=float,
        metavar="MIB",
        help="/ingest and /v1/traces bodies held at once, across requests; over it: 503 "
        f"with Retry-After (default: {d.max_inflight_bytes // MIB})",
    )


def limits_from_args(args: argparse.Namespace) -> ServerLimits:
    """``ServerLimits`` from ``add_limit_args`` flags (unset flags keep the defaults)."""
    given: dict[str, Any] = {
        "max_connections": args.web_max_connections,
        "header_timeout_s": args.web_header_timeout,
        "idle_timeout_s": args.web_idle_timeout,
        "body_timeout_s": args.web_body_timeout,
    }
    if args.web_max_inflight_mib is not None:
        given["max_inflight_bytes"] = int(args.web_max_inflight_mib * MIB)
    try:
        return ServerLimits(**{k: v for k, v in given.items() if v is not None})
    except ValueError as exc:
        raise LeaklineError(f"web limits: {exc}", hint="see leakline worker --help") from None
