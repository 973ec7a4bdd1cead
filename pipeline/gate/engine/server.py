"""The HTTP side of ``leakline engine-sim`` (aiohttp): routes, SSE framing, profile choice.

Kept apart from the CLI so ``leakline --help`` does not import aiohttp.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from typing import Any

import orjson
from aiohttp import web

from leakline import __version__
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.gate.engine.gen import RequestView, generate, read_request
from leakline.pipeline.gate.engine.profiles import (
    BY_NAME,
    MODEL_PREFIX,
    PROFILE_HEADER,
    PROFILES,
    Profile,
    get_profile,
)
from leakline.pipeline.gate.engine.wire import (
    StreamEvent,
    chat_body,
    chat_events,
    messages_body,
    messages_events,
    responses_body,
    responses_events,
)

ENGINE_NAME = "leakline-engine-sim"


# ------------------------------------------------------------------ HTTP


def _profile_for(request: web.Request, body: dict[str, Any], default: Profile) -> Profile:
    name = request.headers.get(PROFILE_HEADER)
    if name:
        return get_profile(name)
    model = body.get("model")
    if isinstance(model, str) and model.startswith(MODEL_PREFIX):
        candidate = model[len(MODEL_PREFIX) :]
        if candidate in BY_NAME:
            return BY_NAME[candidate]
    return default


def _headers(profile: Profile) -> dict[str, str]:
    return {
        "x-leakline-engine": ENGINE_NAME,
        "x-leakline-engine-version": __version__,
        "x-leakline-profile": profile.name,
    }


def _error(api: str, status: int, message: str) -> web.Response:
    if api == "messages":
        payload: dict[str, Any] = {
            "type": "error",
            "error": {"type": "invalid_request_error", "message": message},
        }
    else:
        payload = {"error": {"message": message, "type": "invalid_request_error", "code": None}}
    return web.json_response(payload, status=status)


async def _sse(
    request: web.Request, headers: dict[str, str], events: Iterator[StreamEvent], done: bool
) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={**headers, "Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
    )
    await response.prepare(request)
    for name, payload in events:
        head = f"event: {name}\n".encode() if name else b""
        await response.write(head + b"data: " + orjson.dumps(payload) + b"\n\n")
    if done:
        await response.write(b"data: [DONE]\n\n")
    await response.write_eof()
    return response


def _handler(api: str) -> Any:
    async def handle(request: web.Request) -> web.StreamResponse:
        default: Profile = request.app["profile"]
        try:
            body = orjson.loads(await request.read())
        except orjson.JSONDecodeError as exc:
            return _error(api, 400, f"request body is not JSON: {exc}")
        if not isinstance(body, dict):
            return _error(api, 400, "request body must be a JSON object")
        try:
            profile = _profile_for(request, body, default)
        except LeaklineError as exc:
            return _error(api, 400, f"{exc} ({exc.hint})")
        delay = request.app.get("delay_s", 0.0)
        if delay:  # a slow engine, for ETA and cancellation tests
            await asyncio.sleep(delay)
        view: RequestView = read_request(api, body)
        gen = generate(view, profile)
        headers = _headers(profile)
        if api == "chat.completions":
            if view.stream:
                return await _sse(request, headers, chat_events(view, gen), done=True)
            return web.json_response(chat_body(view, gen), headers=headers)
        if api == "responses":
            if view.stream:
                return await _sse(request, headers, responses_events(view, gen, body), done=False)
            return web.json_response(responses_body(view, gen, body), headers=headers)
        if view.stream:
            return await _sse(request, headers, messages_events(view, gen), done=False)
        return web.json_response(messages_body(view, gen), headers=headers)

    return handle


async def _models(request: web.Request) -> web.Response:
    default: Profile = request.app["profile"]
    data = [{"id": default.name, "object": "model", "created": 0, "owned_by": ENGINE_NAME}]
    data += [
        {"id": f"{MODEL_PREFIX}{p.name}", "object": "model", "created": 0, "owned_by": ENGINE_NAME}
        for p in PROFILES
    ]
    return web.json_response({"object": "list", "data": data}, headers=_headers(default))


async def _health(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "profile": request.app["profile"].name})


def build_app(profile: Profile, delay_s: float = 0.0) -> web.Application:
    app = web.Application(client_max_size=16 * 1024 * 1024)
    app["profile"] = profile
    app["delay_s"] = delay_s
    app.router.add_post("/v1/chat/completions", _handler("chat.completions"))
    app.router.add_post("/v1/responses", _handler("responses"))
    app.router.add_post("/v1/messages", _handler("messages"))
    app.router.add_get("/v1/models", _models)
    app.router.add_get("/health", _health)
    return app


async def serve(host: str, port: int, profile: Profile, delay_s: float = 0.0) -> None:
    """Serve until SIGINT/SIGTERM. Prints the bound URL (useful with --port 0)."""
    runner = web.AppRunner(build_app(profile, delay_s), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise LeaklineError(
            f"cannot listen on {host}:{port}: {exc.strerror}",
            hint="pick another --port, or --port 0 for a free one",
        ) from None
    bound = runner.addresses[0][1]
    print(
        f"engine-sim (TEST DOUBLE, profile {profile.name}) listening on http://{host}:{bound}/v1",
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
