"""HTTP routes for what players and hosts do with seats: leave, take back from the CPU,
rename, the host's re-issue and hand-over, and "your rooms", with their OpenAPI
descriptions. See PROTOCOL.md.

Tokens travel only in request bodies (never in a path or query string, which proxies
and servers log).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.rooms.errors import RoomError
from server.rooms.seats.seat import normalize_code
from server.rooms.seats.your_rooms import MAX_ENTRIES
from server.web.http_io import body, field, spend, translated
from server.web.openapi import (
    CODE_PARAMETER,
    COMMON_ERRORS,
    EXAMPLE_TOKEN,
    SEAT_PARAMETER,
    Described,
    Schema,
    error_answer,
    json_answer,
    json_body,
    ref,
)


def _seat(request: Request) -> int:
    raw = request.path_params["seat"]
    if not raw.isdigit() or len(raw) > 3:
        raise RoomError("bad_seat", "no such seat")
    return int(raw)


async def _summary(request: Request, code: str) -> Response:
    return JSONResponse(await request.app.state.services.manager.room_summary(code))


async def leave_seat(request: Request) -> Response:
    """Leave one's seat (open again in the lobby, a CPU's in a match); the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    await request.app.state.services.manager.leave_seat(code, field(data, "token", str))
    return await _summary(request, code)


async def take_back(request: Request) -> Response:
    """Play one's seat again after a CPU covered it; the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    await request.app.state.services.manager.take_back_seat(code, field(data, "token", str))
    return await _summary(request, code)


async def rename(request: Request) -> Response:
    """Change the display name at one's seat; the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    manager = request.app.state.services.manager
    await manager.rename_seat(code, field(data, "token", str), field(data, "name", str))
    return await _summary(request, code)


async def reissue(request: Request) -> Response:
    """The host makes a new token for a human seat; the old one stops working."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    seat = _seat(request)
    manager = request.app.state.services.manager
    token = await manager.reissue_seat(code, field(data, "token", str), seat)
    return JSONResponse({"code": code, "seat": seat, "token": token})


async def hand_to_cpu(request: Request) -> Response:
    """The host has a CPU play a human seat now; the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    manager = request.app.state.services.manager
    await manager.hand_to_cpu(code, field(data, "token", str), _seat(request))
    return await _summary(request, code)


async def your_rooms(request: Request) -> Response:
    """Each held seat's room, as far as that seat may know it; a lookup per room asked."""
    data = await body(request)
    held = field(data, "seats", list)
    if len(held) > MAX_ENTRIES:
        raise RoomError("bad_request", f"ask about at most {MAX_ENTRIES} seats at once")
    pairs = []
    for entry in held:
        if not isinstance(entry, dict):
            raise RoomError("bad_request", 'each of "seats" must be {"code", "token"}')
        code, token = field(entry, "code", str), field(entry, "token", str)
        if len(code) > 16 or len(token) > 64:
            raise RoomError("bad_request", "a room code or token is far too long")
        pairs.append((code, token))
    # A lookup per room asked, as GET /api/rooms/{code} would spend (a room is read with
    # its journal, about as dear as loading it).
    spend(request, "lookups", len({normalize_code(code) for code, _ in pairs}))
    rooms = await request.app.state.services.manager.your_rooms(pairs)
    return JSONResponse({"rooms": rooms})


SCHEMAS: dict[str, Schema] = {
    "SeatToken": {
        "type": "object",
        "required": ["token"],
        "properties": {"token": {"type": "string", "description": "the seat's own token"}},
    },
    "Rename": {
        "type": "object",
        "required": ["token", "name"],
        "properties": {"token": {"type": "string"}, "name": {"type": "string"}},
    },
    "YourRoomsAsk": {
        "type": "object",
        "required": ["seats"],
        "properties": {
            "seats": {
                "type": "array",
                "maxItems": 20,
                "items": {
                    "type": "object",
                    "required": ["code", "token"],
                    "properties": {
                        "code": {"type": "string", "maxLength": 16},
                        "token": {"type": "string", "maxLength": 64},
                    },
                },
            }
        },
    },
    "YourRoom": {
        "oneOf": [
            {
                "type": "object",
                "required": ["code", "error"],
                "properties": {
                    "code": {"type": "string"},
                    "error": {
                        "enum": ["not_your_seat", "room_unavailable"],
                        "description": "not_your_seat: no such room, or no seat of this"
                        " token in it (drop the token); room_unavailable: the room's save"
                        " cannot be opened right now (keep the token)",
                    },
                },
                "additionalProperties": False,
            },
            {
                "type": "object",
                "required": ["code", "seat", "game", "name", "status", "match", "host"],
                "properties": {
                    "code": {"type": "string"},
                    "seat": {"type": "integer", "minimum": 0},
                    "game": {"type": "string"},
                    "name": {"type": "string"},
                    "status": {"enum": ["lobby", "playing", "over", "closed"]},
                    "match": {"type": "integer", "minimum": 1},
                    "host": {"type": "integer", "minimum": 0},
                    "your_turn": {"type": "boolean"},
                    "turn": {"type": ["integer", "null"]},
                    "seats": {"type": "array", "items": ref("SeatSummary")},
                    "last_activity": {"type": "number"},
                    "to_move": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0},
                        "description": "every seat with a move to make",
                    },
                    "clock": {
                        "anyOf": [
                            {"type": "null"},
                            {
                                "allOf": [ref("ClockRules")],
                                "properties": {
                                    "seats": {
                                        "type": ["array", "null"],
                                        "items": ref("SeatClock"),
                                    }
                                },
                            },
                        ],
                        "description": "the room's clock and each seat's (null: relaxed)",
                    },
                    "last_events": {
                        "type": "array",
                        "items": {"type": "object"},
                        "description": "the public events of the last move, to say in words",
                    },
                },
            },
        ]
    },
}


def seat_call(
    operation: str,
    summary: str,
    request: Schema,
    answer: Schema | None = None,
    seat: bool = False,
    example: Schema | None = None,
) -> Schema:
    """A POST on a room's seat with a token in the body: by default
    answered with the room's summary."""
    return {
        "post": {
            "operationId": operation,
            "summary": summary,
            "parameters": [CODE_PARAMETER, SEAT_PARAMETER] if seat else [CODE_PARAMETER],
            "requestBody": json_body(request, example or {"token": EXAMPLE_TOKEN}, True),
            "responses": {
                "200": answer or json_answer("the room's summary", ref("RoomSummary")),
                "403": error_answer("bad_token or not_host"),
                "404": error_answer("room_not_found"),
                "409": error_answer("the seat or the room is not in a state for this"),
                **COMMON_ERRORS,
                "400": error_answer("bad_request or bad_seat"),
            },
        }
    }


routes = [
    Described(
        "/api/rooms/{code}/leave",
        translated(leave_seat),
        seat_call(
            "leaveSeat",
            "Leave one's seat: open again in the lobby, a CPU's during a match",
            ref("SeatToken"),
        ),
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/back",
        translated(take_back),
        seat_call("takeSeatBack", "Play one's seat again after a CPU covered it", ref("SeatToken")),
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/name",
        translated(rename),
        seat_call(
            "renameSeat",
            "Change the display name at one's seat",
            ref("Rename"),
            example={"token": EXAMPLE_TOKEN, "name": "Aiko"},
        ),
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/seats/{seat}/reissue",
        translated(reissue),
        seat_call(
            "reissueSeat",
            "The host makes a new token for a human seat; the old one stops working",
            ref("HostToken"),
            answer=json_answer("the seat's new token", ref("SeatGrant")),
            seat=True,
        ),
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/seats/{seat}/cpu",
        translated(hand_to_cpu),
        seat_call(
            "handSeatToCpu", "The host has a CPU play a human seat now", ref("HostToken"), seat=True
        ),
        SCHEMAS,
    ),
    Described(
        "/api/your-rooms",
        translated(your_rooms),
        {
            "post": {
                "operationId": "yourRooms",
                "summary": "For each held seat, its room's state as that seat may know it",
                "requestBody": json_body(
                    ref("YourRoomsAsk"),
                    {"seats": [{"code": "K7QH2M", "token": EXAMPLE_TOKEN}]},
                    required=True,
                ),
                "responses": {
                    "200": json_answer(
                        "one entry per seat asked about, in order",
                        {
                            "type": "object",
                            "required": ["rooms"],
                            "properties": {"rooms": {"type": "array", "items": ref("YourRoom")}},
                        },
                    ),
                    **COMMON_ERRORS,
                },
            }
        },
        SCHEMAS,
    ),
]
