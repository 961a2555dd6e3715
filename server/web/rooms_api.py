"""HTTP routes of rooms: create one, list the public ones, a room's summary, take a seat,
start the match; with their OpenAPI descriptions and the schemas of rooms and seats.

Handlers only translate: they check the request's shape, call the room manager and turn
its answers and RoomErrors into JSON. See PROTOCOL.md for every route.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.games import registry
from server.rooms.actor.cpus import CPU_PACES
from server.rooms.errors import RoomError
from server.rooms.seats import timebank
from server.rooms.seats.seat import normalize_code
from server.web.http_io import body, field, spend, translated
from server.web.openapi import (
    CODE_PARAMETER,
    COMMON_ERRORS,
    EXAMPLE_TOKEN,
    Described,
    Schema,
    error_answer,
    json_answer,
    json_body,
    ref,
)

# What the CPU pace means, for the schemas.
PACE_WORDS = (
    "how quickly CPUs move: relaxed (a human-looking 0.5-2.5 s) or quick (a quarter of "
    "that, at least 0.15 s); rule-set reaction times such as Usunoro's grabs are kept"
)

# GET /api/rooms answers at most this many rooms a page (and this many by default).
PAGE_MAX = 100
PAGE_DEFAULT = 50

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


def clock_rules(data: dict[str, Any], game_id: str) -> dict[str, Any] | None:
    """The create-room body's `clock`, `clock_preset` and `vacation_days` as the room's
    clock rules (None: relaxed)."""
    for name in ("clock", "clock_preset", "vacation_days"):
        if name in data and data[name] is None:
            raise RoomError("bad_option", f"{name} may be left out, not null")
    try:
        rules = timebank.rules_from_options(
            game_id, data.get("clock"), data.get("clock_preset"), data.get("vacation_days")
        )
    except timebank.ClockOptionError as exc:
        raise RoomError("bad_option", str(exc)) from None
    return None if rules is None else rules.dump()


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
        clock=clock_rules(data, game_id),
        hints=field(data, "hints", bool, True),
        cpu_pace=field(data, "cpu_pace", str, "relaxed"),
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


async def set_hints(request: Request) -> Response:
    """The host turns hints on or off in the waiting room (host token); the summary.

    Refused with not_host (403) for another token and already_started (409) once the
    first match has started.
    """
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    manager = request.app.state.services.manager
    await manager.set_hints(code, field(data, "token", str), field(data, "hints", bool))
    return JSONResponse(await manager.room_summary(code))


async def set_cpu_pace(request: Request) -> Response:
    """The host sets how quickly CPUs move in the waiting room (host token); the summary.

    Refused with bad_option (400) for a pace not in CPU_PACES, not_host (403) for
    another token and already_started (409) once the first match has started.
    """
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    manager = request.app.state.services.manager
    await manager.set_cpu_pace(code, field(data, "token", str), field(data, "cpu_pace", str))
    return JSONResponse(await manager.room_summary(code))


# The highest seat number any game has (a room's own seat count may be lower).
MAX_SEAT = max(game.max_seats for game in registry.games().values()) - 1

SCHEMAS: dict[str, Schema] = {
    "SeatSummary": {
        "type": "object",
        "required": ["kind", "name", "covered"],
        "properties": {
            "kind": {"enum": ["human", "cpu", "open"]},
            "name": {"type": "string"},
            "covered": {"type": "boolean", "description": "a CPU plays for an absent human"},
        },
    },
    "RoomSummary": {
        "type": "object",
        "required": [
            "code",
            "game",
            "name",
            "public",
            "host",
            "difficulty",
            "options",
            "status",
            "match",
            "version",
            "seats",
            "open_seats",
            "cover_after_ms",
        ],
        "properties": {
            "code": {"type": "string"},
            "game": {"type": "string"},
            "name": {"type": "string"},
            "public": {"type": "boolean"},
            "host": {"type": "integer", "minimum": 0, "description": "the host's seat"},
            "difficulty": {"enum": ["easy", "normal", "hard"]},
            "options": {"type": "object", "description": "the game's options by name"},
            "status": {"enum": ["lobby", "playing", "over", "closed"]},
            "match": {"type": "integer", "minimum": 1},
            "version": {"type": "integer", "minimum": 0},
            "seats": {"type": "array", "items": ref("SeatSummary")},
            "open_seats": {"type": "integer", "minimum": 0},
            "cover_after_ms": {
                "type": ["integer", "null"],
                "description": "a CPU covers an absent human after this; null: never",
            },
            "spectators": {
                "type": "boolean",
                "description": "whether connections without a seat token may watch",
            },
            "hints": {
                "type": "boolean",
                "description": "whether seats may ask for hints and see helpers",
            },
            "cpu_pace": {"enum": list(CPU_PACES), "description": PACE_WORDS},
            "clock": ref("ClockRules"),
        },
    },
    "ClockRules": {
        "type": ["object", "null"],
        "description": "the room's seat clocks; null: relaxed (no clock)",
        "required": ["mode", "move_ms", "bank_ms", "vacation_ms"],
        "properties": {
            "mode": {"enum": ["live", "days"]},
            "move_ms": {"type": "integer"},
            "bank_ms": {"type": "integer"},
            "vacation_ms": {"type": "integer", "description": "per seat and match (days)"},
        },
    },
    "SeatClock": {
        "type": "object",
        "required": ["move_ms", "bank_ms", "running", "vacation", "vacation_ms"],
        "properties": {
            "move_ms": {"type": "integer", "description": "allowance left"},
            "bank_ms": {"type": "integer", "description": "bank left"},
            "running": {"type": "boolean"},
            "vacation": {"type": "boolean", "description": "on vacation: the clock stops"},
            "vacation_ms": {"type": "integer", "description": "vacation left this match"},
        },
    },
    "SeatGrant": {
        "type": "object",
        "required": ["code", "seat", "token"],
        "properties": {
            "code": {"type": "string"},
            "seat": {"type": "integer", "minimum": 0},
            "token": {"type": "string", "description": "the seat's secret; keep it"},
        },
    },
    "CreateRoom": {
        "type": "object",
        "required": ["game"],
        "properties": {
            "game": {"type": "string", "description": "a game id from /api/games"},
            "seats": {
                "type": "array",
                "items": {"enum": ["host", "open", "cpu"]},
                "description": "one per seat; exactly one host",
            },
            "options": {"type": "object"},
            "difficulty": {"enum": ["easy", "normal", "hard"]},
            "public": {"type": "boolean"},
            "name": {"type": "string"},
            "host_name": {"type": "string"},
            "spectators": {"type": "boolean", "description": "default true: anyone may watch"},
            "hints": {
                "type": "boolean",
                "description": "default true: seats may ask for hints and see helpers",
            },
            "cpu_pace": {
                "enum": list(CPU_PACES),
                "description": f"default {CPU_PACES[0]}; {PACE_WORDS}",
            },
            "cover_after_s": {
                "oneOf": [
                    {"type": "integer", "minimum": 1, "maximum": COVER_MAX_S},
                    {"const": "wait"},
                ],
                "description": f"seconds a player may be away before a CPU plays for them "
                f'(default {COVER_DEFAULT_S}), or "wait": the table waits',
            },
            "clock": {"enum": list(timebank.MODES), "description": "default relaxed"},
            "clock_preset": {
                "type": "string",
                "description": "one of the game's presets for the mode (/api/games clock)",
            },
            "vacation_days": {
                "type": "integer",
                "minimum": 0,
                "maximum": timebank.VACATION_MAX_DAYS,
                "description": "days clocks: vacation per seat and match "
                f"(default {timebank.VACATION_DEFAULT_DAYS})",
            },
        },
    },
    "TakeSeat": {
        "type": "object",
        "properties": {
            "seat": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_SEAT,
                "description": "default: the lowest open seat",
            },
            "name": {"type": "string"},
        },
    },
    "SetHints": {
        "type": "object",
        "required": ["token", "hints"],
        "properties": {
            "token": {"type": "string", "description": "the host seat's token"},
            "hints": {"type": "boolean", "description": "hints on (true) or off"},
        },
    },
    "SetCpuPace": {
        "type": "object",
        "required": ["token", "cpu_pace"],
        "properties": {
            "token": {"type": "string", "description": "the host seat's token"},
            "cpu_pace": {"enum": list(CPU_PACES), "description": PACE_WORDS},
        },
    },
    "HostToken": {
        "type": "object",
        "required": ["token"],
        "properties": {"token": {"type": "string", "description": "the host seat's token"}},
    },
}

routes = [
    Described(
        "/api/rooms",
        translated(rooms),
        {
            "post": {
                "operationId": "createRoom",
                "summary": "Create a room; the caller is its host and gets the host seat's token",
                "requestBody": json_body(
                    ref("CreateRoom"),
                    {"game": "usunoro", "seats": ["host", "open", "cpu", "cpu"]},
                ),
                "responses": {
                    "201": json_answer("the host's seat and token", ref("SeatGrant")),
                    **COMMON_ERRORS,
                    "400": error_answer("bad_request, bad_game, bad_option or bad_seat"),
                },
            },
            "get": {
                "operationId": "listPublicRooms",
                "summary": "Public rooms still waiting for players, a page at a time in code order",
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "description": "rooms per page (default 50)",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                    },
                    {
                        "name": "after",
                        "in": "query",
                        "description": "the previous page's `next`",
                        "schema": {"type": "string", "maxLength": 16},
                    },
                ],
                "responses": {
                    "200": json_answer(
                        "the rooms",
                        {
                            "type": "object",
                            "required": ["rooms", "next"],
                            "properties": {
                                "rooms": {"type": "array", "items": ref("RoomSummary")},
                                "next": {
                                    "type": ["string", "null"],
                                    "description": "`after` for the next page; null: the last",
                                },
                            },
                        },
                    ),
                    **COMMON_ERRORS,
                },
            },
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}",
        translated(room_summary),
        {
            "get": {
                "operationId": "getRoom",
                "summary": "A room's public summary",
                "parameters": [CODE_PARAMETER],
                "responses": {
                    "200": json_answer("the summary", ref("RoomSummary")),
                    "404": error_answer("room_not_found"),
                    **COMMON_ERRORS,
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/seats",
        translated(take_seat),
        {
            "post": {
                "operationId": "takeSeat",
                "summary": "Take an open seat (the one given, or the lowest) and get its token",
                "parameters": [CODE_PARAMETER],
                "requestBody": json_body(ref("TakeSeat"), {"name": "Aiko"}),
                "responses": {
                    "201": json_answer("the seat and its token", ref("SeatGrant")),
                    "404": error_answer("room_not_found"),
                    "409": error_answer("room_full or already_started"),
                    **COMMON_ERRORS,
                    "400": error_answer("bad_request or bad_seat"),
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/start",
        translated(start_match),
        {
            "post": {
                "operationId": "startMatch",
                "summary": "Start the match, or the next one on a finished room (host token)",
                "parameters": [CODE_PARAMETER],
                "requestBody": json_body(ref("HostToken"), {"token": EXAMPLE_TOKEN}, required=True),
                "responses": {
                    "200": json_answer("the summary; open seats are now CPUs", ref("RoomSummary")),
                    "403": error_answer("bad_token or not_host"),
                    "404": error_answer("room_not_found"),
                    "409": error_answer("already_started"),
                    **COMMON_ERRORS,
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/hints",
        translated(set_hints),
        {
            "post": {
                "operationId": "setHints",
                "summary": "Turn hints on or off in the waiting room (host token)",
                "parameters": [CODE_PARAMETER],
                "requestBody": json_body(
                    ref("SetHints"), {"token": EXAMPLE_TOKEN, "hints": False}, required=True
                ),
                "responses": {
                    "200": json_answer("the summary", ref("RoomSummary")),
                    "403": error_answer("bad_token or not_host"),
                    "404": error_answer("room_not_found"),
                    "409": error_answer("already_started"),
                    **COMMON_ERRORS,
                    "400": error_answer("bad_request"),
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/cpu-pace",
        translated(set_cpu_pace),
        {
            "post": {
                "operationId": "setCpuPace",
                "summary": "Set how quickly CPUs move, in the waiting room (host token)",
                "parameters": [CODE_PARAMETER],
                "requestBody": json_body(
                    ref("SetCpuPace"), {"token": EXAMPLE_TOKEN, "cpu_pace": "quick"}, required=True
                ),
                "responses": {
                    "200": json_answer("the summary", ref("RoomSummary")),
                    "403": error_answer("bad_token or not_host"),
                    "404": error_answer("room_not_found"),
                    "409": error_answer("already_started"),
                    **COMMON_ERRORS,
                    "400": error_answer("bad_request or bad_option"),
                },
            }
        },
        SCHEMAS,
    ),
]
