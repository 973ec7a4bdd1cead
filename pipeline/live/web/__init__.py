"""The live dashboard and /metrics, served by the worker's Faust web server (aiohttp)."""

from __future__ import annotations

from typing import Any

from leakline.pipeline.http.auth import (
    ENV_WEB_TOKEN,
    allowed_hosts,
    check_exposure,
    host_middleware,
    is_loopback,
    token_middleware,
)
from leakline.pipeline.live.web.views import LiveState, install


def attach(
    faust_app: Any,
    state: LiveState,
    token: str | None,
    hosts: frozenset[str] | None = None,
    *,
    write_token: str | None = None,
) -> None:
    """Routes, the Host check (``hosts``, see ``auth.allowed_hosts``) and (with a token)
    the auth middleware, before the web server starts. ``write_token``: see
    ``web_auth.token_middleware`` (the write routes take only it).

    The middlewares guard every route on the server, Faust's own pages included.
    """
    web_app = faust_app.web.web_app
    if hosts is not None:
        web_app.middlewares.append(host_middleware(hosts))
    if token or write_token:
        web_app.middlewares.append(token_middleware(token, write_token))
    install(web_app, state)


__all__ = [
    "ENV_WEB_TOKEN",
    "LiveState",
    "allowed_hosts",
    "attach",
    "check_exposure",
    "is_loopback",
]
