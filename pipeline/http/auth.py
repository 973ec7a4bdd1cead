"""Who may use the HTTP servers (the worker's dashboard, /metrics, /ingest, /v1/traces, and
the standalone otlp-receiver): loopback by default, a bearer token beyond.

Two more rules, for browsers:

- the ``Host`` header must name the bound address, a loopback name (when bound to
  loopback) or a name given with ``--web-allowed-host``: a page on a domain that resolves
  to 127.0.0.1 (DNS rebinding) gets 421, not the dashboard;
- a token travels in the ``Authorization`` header; the query string (which ends up in logs
  and history) is accepted only where a browser cannot set a header: GET of the page and
  of its EventSource stream. A token given twice is refused (400).

Reads and writes may hold separate tokens (issue 36): with a write token set
(``$LEAKLINE_WEB_WRITE_TOKEN``), the write routes (``WRITE_PATHS``: ``/ingest``,
``/v1/traces``) take only it, and the read token (the dashboard's, ``$LEAKLINE_WEB_TOKEN``)
only reads; either one at the other's door gets 403. Without it, one token does both, as
before. The write token does not read: it sits in every gateway's and exporter's
configuration, far more places than the dashboard's, and the dashboard shows stored text.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web

from leakline.pipeline.core.errors import LeaklineError

ENV_WEB_TOKEN = "LEAKLINE_WEB_TOKEN"
ENV_WEB_WRITE_TOKEN = "LEAKLINE_WEB_WRITE_TOKEN"
MIN_TOKEN_CHARS = 16
# Probes answer without the token: orchestrators poll them, and they tell nothing but
# "alive" / "ready" and the worker id.
PROBE_PATHS = frozenset({"/healthz", "/readyz"})
# GETs a browser makes without a way to add a header: opening the page, and EventSource
QUERY_TOKEN_PATHS = frozenset({"/dashboard", "/dashboard/api/events"})
# pages opened by a link (``/event/<id>``): a query token opens the page, not its data
QUERY_TOKEN_PREFIXES = ("/event/",)
# routes that produce events; with a write token set, only it opens them
WRITE_PATHS = frozenset({"/ingest", "/v1/traces"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_tokens(token: str | None, write_token: str | None = None) -> None:
    """Refuse a guessable token, and a write token that is the read token."""
    for name, value in (("web token", token), ("web write token", write_token)):
        if value is not None and len(value) < MIN_TOKEN_CHARS:
            raise LeaklineError(
                f"the {name} is too short ({len(value)} characters, at least {MIN_TOKEN_CHARS})",
                hint='generate one: python3 -c "import secrets; print(secrets.token_urlsafe(32))"',
            )
    if (
        token is not None
        and write_token is not None
        and hmac.compare_digest(token.encode(), write_token.encode())
    ):
        raise LeaklineError(
            "the web write token is the same as the web token: it would separate nothing",
            hint=f"give ${ENV_WEB_WRITE_TOKEN} a token of its own, or leave it unset",
        )


def check_exposure(
    host: str, token: str | None, write_token: str | None = None, *, reads: bool = True
) -> None:
    """Refuse to serve beyond loopback without a token (and with a guessable one).

    ``reads``: the server has read routes (the worker), so the read token is what guards
    them; a server of write routes only (``otlp-receiver``) is guarded by either token."""
    check_tokens(token, write_token)
    guard = token if reads else (write_token or token)
    if not is_loopback(host) and not guard:
        flags = "--web-token/--token" if reads else "--token/--write-token"
        raise LeaklineError(
            f"refusing to serve HTTP on {host} without a token",
            hint=f"set ${ENV_WEB_TOKEN} (or the {flags} flag), or bind to 127.0.0.1",
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


def _unauthorized() -> web.Response:
    return web.json_response(
        {"error": "a bearer token is required"},
        status=401,
        headers={"WWW-Authenticate": 'Bearer realm="leakline"'},
    )


def _wrong_door(write_route: bool) -> web.Response:
    """403 for a valid token at the other kind of route: it names the one to use."""
    if write_route:
        error = (
            "the read token cannot write: this route takes the write token "
            f"(${ENV_WEB_WRITE_TOKEN})"
        )
    else:
        error = f"the write token cannot read: this route takes the read token (${ENV_WEB_TOKEN})"
    return web.json_response({"error": error}, status=403)


def _matches(given: bytes, expected: bytes | None) -> bool:
    return expected is not None and hmac.compare_digest(given, expected)


def token_middleware(
    token: str | None, write_token: str | None = None
) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The bearer check: ``token`` for every route, or, with ``write_token``, ``token``
    for reads (none on reads when it is None: loopback only, see ``check_exposure``)
    and ``write_token`` alone for ``WRITE_PATHS``."""
    read = token.encode() if token else None
    write = write_token.encode() if write_token else None

    @web.middleware
    async def require_token(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path in PROBE_PATHS:
            return await handler(request)
        write_route = write is not None and request.path in WRITE_PATHS
        expected, other = (write, read) if write_route else (read, write)
        if expected is None:  # a read route without a read token: open, as without any
            return await handler(request)
        try:
            given = presented_token(request)
        except DuplicateToken as exc:
            return web.json_response({"error": str(exc)}, status=400)
        if given is None:
            return _unauthorized()
        raw = given.encode()
        if _matches(raw, expected):
            return await handler(request)
        if _matches(raw, other):
            return _wrong_door(write_route)
        return _unauthorized()

    return require_token
