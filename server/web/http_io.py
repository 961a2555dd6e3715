"""What every HTTP route module shares: a request's JSON body read within its limits and
its fields checked, per-client rate limits, and errors answered as JSON
({"code", "message"}) with the HTTP status of their code.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from server.rooms.errors import RoomError
from server.store.store import StoreError
from server.web.frames import bounded, nested_at_most

MAX_BODY = 16 * 1024
MAX_DEPTH = 16  # lists and objects in a body nest at most this deep

# HTTP status for each RoomError code; anything else is a 400.
STATUS = {
    "room_not_found": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "match_not_found": 404,
    "bad_token": 403,
    "not_host": 403,
    "not_your_seat": 403,
    "no_spectators": 403,
    "too_large": 413,
    "rate_limited": 429,
    "room_full": 409,
    "already_started": 409,
    "room_closed": 409,
    "not_started": 409,
    "match_over": 409,
    "room_elsewhere": 503,
    "room_unavailable": 503,
    "room_moved": 503,
    "server_shutdown": 503,
    "internal": 500,
    "store_error": 503,
}
STORE_DOWN = "the room store cannot be reached right now; try again shortly"
log = logging.getLogger("zashiki")


def failure(code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The JSON error answer: {"code", "message"}, with the code's HTTP status."""
    answer = {"code": code, "message": bounded(message)}
    return JSONResponse(answer, STATUS.get(code, 400), headers)


class RateLimited(RoomError):
    """Over a per-client rate limit: answered 429 with Retry-After (whole seconds)."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__("rate_limited", f"too many requests; retry in {retry_after_s} s")
        self.retry_after_s = retry_after_s


def client_key(scope_client: tuple[str, int] | None) -> str:
    """The address a client's limits are kept under (uvicorn has already taken it from
    X-Forwarded-For when the proxy is trusted: see deploy/README.md)."""
    return scope_client[0] if scope_client else "-"


def spend(request: Request | WebSocket, kind: str, cost: int = 1) -> None:
    """Spend `cost` `kind` actions of the client's rate limit; RateLimited when over it."""
    limiter = request.app.state.services.rate_limiters.get(kind)
    if limiter is None:
        return
    wait = limiter.retry_after_s(client_key(request.client), time.monotonic(), cost)
    if wait is not None:
        raise RateLimited(wait)


async def read_limited(request: Request) -> bytes:
    """The raw body, refused with too_large as soon as it passes MAX_BODY (a chunked
    body without Content-Length is never read whole first)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise RoomError("too_large", f"request bodies are limited to {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RoomError("too_large", f"request bodies are limited to {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object (empty when there is no body); RoomError if malformed."""
    raw = await read_limited(request)
    if not raw:
        return {}
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to parse
        data = None
    if data is None or not nested_at_most(data, MAX_DEPTH):
        raise RoomError("bad_request", f"the body must be JSON nested at most {MAX_DEPTH} deep")
    if not isinstance(data, dict):
        raise RoomError("bad_request", "the body must be a JSON object")
    return data


def field(data: dict[str, Any], name: str, kind: type, default: Any = ...) -> Any:
    """One typed field of a request body; RoomError('bad_request') if missing or mistyped."""
    if name not in data:
        if default is ...:
            raise RoomError("bad_request", f"missing field {name!r}")
        return default
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RoomError("bad_request", f"field {name!r} must be {kind.__name__}")
    return value


Handler = Callable[[Request], Awaitable[Response]]


def translated(handler: Handler) -> Handler:
    """Wrap a handler so RoomErrors become JSON error answers."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RateLimited as exc:
            return failure(exc.code, exc.message, {"Retry-After": str(exc.retry_after_s)})
        except RoomError as exc:
            return failure(exc.code, exc.message)
        except StoreError as exc:
            log.warning("%s %s: the store failed: %s", request.method, request.url.path, exc)
            return failure("store_error", STORE_DOWN)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (unknown path, wrong method) in the API's JSON shape."""
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
    message = {
        "not_found": "no such path",
        "method_not_allowed": "that method is not allowed here",
    }.get(code, "bad request")
    return JSONResponse({"code": code, "message": message}, exc.status_code, exc.headers)


async def server_error(request: Request, exc: Exception) -> Response:
    """A bug: logged whole, answered with a JSON 500 that tells nothing of the inside."""
    return JSONResponse({"code": "internal", "message": "internal error"}, 500)


exception_handlers = {HTTPException: http_error, Exception: server_error}
