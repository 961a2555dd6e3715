"""The HTTP API (JSON): games, rooms, seats, start; the probes and /metrics.

Handlers only translate: they check the request's shape, call the room manager and turn
its answers and RoomErrors into JSON. See PROTOCOL.md for every route.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.websockets import WebSocket

from server.games import registry
from server.rooms.errors import RoomError
from server.rooms.seats.seat import normalize_code
from server.store.store import StoreError
from server.web.frames import bounded, nested_at_most
from server.web.game_info import game_info

MAX_BODY = 16 * 1024
# GET /api/rooms answers at most this many rooms a page (and this many by default).
PAGE_MAX = 100
PAGE_DEFAULT = 50
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


# The create-room option `cover_after_s`: how long a human may be away before a CPU
# plays for them (live play: a minute), or "wait" (the table waits for them).
COVER_DEFAULT_S = 60
COVER_MAX_S = 24 * 3600


def cover_after_ms(data: dict[str, Any]) -> int | None:
    """The create-room body's `cover_after_s` as milliseconds; None for "wait"."""
    value = data.get("cover_after_s", COVER_DEFAULT_S)
    if value == "wait":
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= COVER_MAX_S:
        raise RoomError(
            "bad_option", f'cover_after_s must be "wait" or whole seconds from 1 to {COVER_MAX_S}'
        )
    return value * 1000


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


async def list_games(request: Request) -> Response:
    """Every game with its seat counts, options, summary, typical length and rules pages."""
    games = [{**g.describe(), **game_info(g.id)} for g in registry.games().values()]
    return JSONResponse({"games": games})


async def create_room(request: Request) -> Response:
    """Create a room; the caller becomes its host and gets the host seat's token."""
    data = await body(request)
    spend(request, "rooms")
    game_id = field(data, "game", str)
    if game_id not in registry.games():
        raise RoomError("bad_game", f"no game called {game_id!r}")
    # By default the host sits at seat 0 and every other seat waits for a friend (a
    # still-open seat becomes a CPU when the match starts).
    default = ["host"] + ["open"] * (registry.get(game_id).max_seats - 1)
    seats = field(data, "seats", list, default)
    if not all(isinstance(kind, str) for kind in seats):
        raise RoomError("bad_request", 'field "seats" must list "host", "open" or "cpu"')
    code, seat, token = await request.app.state.services.manager.create_room(
        game_id,
        field(data, "options", dict, None),
        seats,
        difficulty=field(data, "difficulty", str, "normal"),
        public=field(data, "public", bool, False),
        name=field(data, "name", str, ""),
        host_name=field(data, "host_name", str, ""),
        cover_after_ms=cover_after_ms(data),
        spectators=field(data, "spectators", bool, True),
    )
    return JSONResponse({"code": code, "seat": seat, "token": token}, 201)


async def public_rooms(request: Request) -> Response:
    """Public rooms with a seat still open, a page at a time in code order.

    `?limit=N` (1 to PAGE_MAX) rooms after `?after=CODE`; `next` is the cursor for the
    next page (the last code of this one), null on the last page.
    """
    spend(request, "lookups")
    query = request.query_params
    limit_text = query.get("limit", str(PAGE_DEFAULT))
    if not limit_text.isdigit() or not 1 <= int(limit_text) <= PAGE_MAX:
        raise RoomError("bad_request", f"limit must be a whole number from 1 to {PAGE_MAX}")
    limit = int(limit_text)
    after = query.get("after", "")
    if len(after) > 16:
        raise RoomError("bad_request", "after must be a room code from a previous page")
    after = after.upper()
    rooms = await request.app.state.services.manager.public_rooms()
    rest = [r for r in rooms if r["code"] > after]
    page = rest[:limit]
    more = len(rest) > limit
    return JSONResponse({"rooms": page, "next": page[-1]["code"] if more else None})


async def rooms(request: Request) -> Response:
    """POST creates a room, GET lists public ones: one route, so that a wrong method's 405
    names both in its Allow header."""
    return await (create_room if request.method == "POST" else public_rooms)(request)


async def room_summary(request: Request) -> Response:
    """A room's public summary."""
    spend(request, "lookups")
    code = request.path_params["code"]
    return JSONResponse(await request.app.state.services.manager.room_summary(code))


async def take_seat(request: Request) -> Response:
    """Take an open seat (a given one, or the lowest) and get its token."""
    data = await body(request)
    spend(request, "seats")
    code = normalize_code(request.path_params["code"])
    seat, token = await request.app.state.services.manager.take_seat(
        code, field(data, "seat", int, None), field(data, "name", str, "")
    )
    return JSONResponse({"code": code, "seat": seat, "token": token}, 201)


async def start_match(request: Request) -> Response:
    """Start the match (host token); open seats become CPUs.

    On a room whose match is over it starts the next one with the same seats ("play
    again"). Refused with not_host (403) for another token and already_started (409)
    while a match is being played.
    """
    data = await body(request)
    code = request.path_params["code"]
    manager = request.app.state.services.manager
    await manager.start_match(code, field(data, "token", str))
    return JSONResponse(await manager.room_summary(code))


async def store_answers(request: Request) -> bool:
    """Whether the store answers a ping."""
    try:
        return bool(await request.app.state.services.store.ping())
    except Exception:  # any failure to reach the store is "unhealthy", never a 500
        return False


async def healthz(request: Request) -> Response:
    """200 when the store answers, 503 when it does not."""
    ok = await store_answers(request)
    return JSONResponse({"ok": ok}, 200 if ok else 503)


async def livez(request: Request) -> Response:
    """200 while the process answers at all (a liveness probe: a Redis outage must not
    restart every server)."""
    return JSONResponse({"ok": True})


async def readyz(request: Request) -> Response:
    """200 when the store answers and the process is not draining (a readiness probe:
    send it new clients); else 503, saying which."""
    draining = request.app.state.services.draining
    store = await store_answers(request)
    ok = store and not draining
    return JSONResponse({"ok": ok, "store": store, "draining": draining}, 200 if ok else 503)


async def metrics(request: Request) -> Response:
    """Prometheus text: rooms live, connections, moves, move and save latency."""
    services = request.app.state.services
    text = services.metrics.render(time.monotonic(), services.manager.stats())
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4")


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

routes = [
    Route("/api/games", translated(list_games), methods=["GET"]),
    Route("/api/rooms", translated(rooms), methods=["GET", "POST"]),
    Route("/api/rooms/{code}", translated(room_summary), methods=["GET"]),
    Route("/api/rooms/{code}/seats", translated(take_seat), methods=["POST"]),
    Route("/api/rooms/{code}/start", translated(start_match), methods=["POST"]),
    Route("/healthz", healthz, methods=["GET"]),
    Route("/livez", livez, methods=["GET"]),
    Route("/readyz", readyz, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
]
