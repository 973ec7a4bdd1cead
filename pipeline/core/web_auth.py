"""Who may use the HTTP servers (the worker's dashboard, /metrics, /ingest, /v1/traces, and
the standalone otlp-receiver): loopback by default, a bearer token beyond.

Two more rules, for browsers:

- the ``Host`` header must name the bound address, a loopback name (when bound to
  loopback) or a name given with ``--web-allowed-host``: a page on a domain that resolves
  to 127.0.0.1 (DNS rebinding) gets 421, not the dashboard;
- a token travels in the ``Authorization`` header; the query string (which ends up in logs
  and history) is accepted only where a browser cannot set a header: GET of the page and
  of its EventSource stream. A token given twice is refused (400).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web

from leakline.pipeline.core.errors import LeaklineError

ENV_WEB_TOKEN = "LEAKLINE_WEB_TOKEN"
MIN_TOKEN_CHARS = 16
# Probes answer without the token: orchestrators poll them, and they tell nothing but
# "alive" / "ready" and the worker id.
PROBE_PATHS = frozenset({"/healthz", "/readyz"})
# GETs a browser makes without a way to add a header: opening the page, and EventSource
QUERY_TOKEN_PATHS = frozenset({"/dashboard", "/dashboard/api/events"})
# pages opened by a link (``/event/<id>``): a query token opens the page, not its data
QUERY_TOKEN_PREFIXES = ("/event/",)
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})


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
            f"refusing to serve HTTP on {host} without a token",
            hint=f"set ${ENV_WEB_TOKEN} (or the --web-token/--token flag), or bind to 127.0.0.1",
        )


class DuplicateToken(ValueError):
    """A token in more than one place (two headers, two query values, or both)."""


def presented_token(request: web.Request) -> str | None:
    """The bearer token of ``request``; a query token only on ``QUERY_TOKEN_PATHS`` GETs.

    Raises DuplicateToken when it is given more than once."""
    headers = request.headers.getall("Authorization", [])
    queries = request.query.getall("token", [])
    if len(headers) + len(queries) > 1:
        raise DuplicateToken("the token was given more than once")
    if headers:
        header = headers[0]
        return header[7:].strip() if header[:7].lower() == "bearer " else None
    if (
        queries
        and request.method == "GET"
        and (request.path in QUERY_TOKEN_PATHS or request.path.startswith(QUERY_TOKEN_PREFIXES))
    ):
        return queries[0]  # the browser page and EventSource cannot set headers
    return None


def allowed_hosts(bind_host: str, names: Iterable[str] = ()) -> frozenset[str] | None:
    """Host names the server answers to; None (any) for a wildcard bind without names,
    which needs a token anyway (``check_exposure``)."""
    bind = bind_host.strip().strip("[]").lower()
    extra = {n.strip().strip("[]").lower() for n in names if n.strip()}
    if bind in WILDCARD_HOSTS:
        return frozenset(extra | LOOPBACK_NAMES) if extra else None
    loopback = LOOPBACK_NAMES if is_loopback(bind) else frozenset()
    return frozenset({bind} | extra | loopback)


def host_name(header: str) -> str:
    """``Host`` without its port: ``[::1]:6066`` -> ``::1``, ``Name:80`` -> ``name``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


def host_middleware(allowed: frozenset[str]) -> Callable[..., Awaitable[web.StreamResponse]]:
    @web.middleware
    async def require_host(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        host = request.headers.get("Host")
        foreign = host is not None and host_name(host) not in allowed
        if foreign and request.path not in PROBE_PATHS:
            return web.json_response(
                {
                    "error": f"this server does not answer to Host {host!r}",
                    "hint": "use the address it is bound to, or start it with "
                    "--web-allowed-host NAME",
                },
                status=421,
            )
        return await handler(request)

    return require_host


def token_middleware(token: str) -> Callable[..., Awaitable[web.StreamResponse]]:
    expected = token.encode()

    @web.middleware
    async def require_token(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path in PROBE_PATHS:
            return await handler(request)
        try:
            given = presented_token(request)
        except DuplicateToken as exc:
            return web.json_response({"error": str(exc)}, status=400)
        if given is None or not hmac.compare_digest(given.encode(), expected):
            return web.json_response(
                {"error": "a bearer token is required"},
                status=401,
                headers={"WWW-Authenticate": 'Bearer realm="leakline"'},
            )
        return await handler(request)

    return require_token
