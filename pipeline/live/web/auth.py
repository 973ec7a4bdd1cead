"""Who may read the dashboard and /metrics: loopback by default, a bearer token beyond."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable

from aiohttp import web

from leakline.pipeline.core.errors import LeaklineError

ENV_WEB_TOKEN = "LEAKLINE_WEB_TOKEN"
MIN_TOKEN_CHARS = 16
# Probes answer without the token: orchestrators poll them, and they tell nothing but
# "alive" / "ready" and the worker id.
PROBE_PATHS = frozenset({"/healthz", "/readyz"})


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a token (and with a guessable one)."""
    if token is not None and len(token) < MIN_TOKEN_CHARS:
        raise LeaklineError(
            f"the web token is too short ({len(token)} characters, at least {MIN_TOKEN_CHARS})",
            hint='generate one: python3 -c "import secrets; print(secrets.token_urlsafe(32))"',
        )
    if not is_loopback(host) and not token:
        raise LeaklineError(
            f"refusing to serve the dashboard and /metrics on {host} without a token",
            hint=f"set ${ENV_WEB_TOKEN} (or --web-token), or bind to 127.0.0.1 with --web-host",
        )


def presented_token(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    # the browser page and EventSource cannot set headers
    return request.query.get("token")


def token_middleware(token: str) -> Callable[..., Awaitable[web.StreamResponse]]:
    expected = token.encode()

    @web.middleware
    async def require_token(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path in PROBE_PATHS:
            return await handler(request)
        given = presented_token(request)
        if given is None or not hmac.compare_digest(given.encode(), expected):
            return web.json_response(
                {"error": "a bearer token is required"},
                status=401,
                headers={"WWW-Authenticate": 'Bearer realm="leakline"'},
            )
        return await handler(request)

    return require_token
