"""The OpenAPI document's paths for games, rooms and seats (api.py, seats_api.py) and
the service routes (health, metrics, the browser client, the document itself); the match
history's are in openapi_matches.py."""

from __future__ import annotations

from server.web.openapi_parts import (
    CODE_PARAMETER,
    COMMON_ERRORS,
    EXAMPLE_TOKEN,
    SEAT_PARAMETER,
    Schema,
    error_answer,
    json_answer,
    json_body,
    ref,
)


def seat_call(
    operation: str,
    summary: str,
    request: Schema,
    answer: Schema | None = None,
    seat: bool = False,
    example: Schema | None = None,
) -> Schema:
    """A POST on a room's seat with a token in the body (seats_api.py): by default
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


ROOM_PATHS: dict[str, Schema] = {
    "/api/games": {
        "get": {
            "operationId": "listGames",
            "summary": "Every game with its seat counts and options",
            "responses": {
                "200": json_answer(
                    "the games",
                    {
                        "type": "object",
                        "required": ["games"],
                        "properties": {"games": {"type": "array", "items": ref("Game")}},
                    },
                ),
                **COMMON_ERRORS,
            },
        }
    },
    "/api/rooms": {
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
    "/api/rooms/{code}": {
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
    "/api/rooms/{code}/seats": {
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
    "/api/rooms/{code}/start": {
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
    "/api/rooms/{code}/leave": seat_call(
        "leaveSeat",
        "Leave one's seat: open again in the lobby, a CPU's during a match",
        ref("SeatToken"),
    ),
    "/api/rooms/{code}/back": seat_call(
        "takeSeatBack", "Play one's seat again after a CPU covered it", ref("SeatToken")
    ),
    "/api/rooms/{code}/name": seat_call(
        "renameSeat",
        "Change the display name at one's seat",
        ref("Rename"),
        example={"token": EXAMPLE_TOKEN, "name": "Aiko"},
    ),
    "/api/rooms/{code}/seats/{seat}/reissue": seat_call(
        "reissueSeat",
        "The host makes a new token for a human seat; the old one stops working",
        ref("HostToken"),
        answer=json_answer("the seat's new token", ref("SeatGrant")),
        seat=True,
    ),
    "/api/rooms/{code}/seats/{seat}/cpu": seat_call(
        "handSeatToCpu", "The host has a CPU play a human seat now", ref("HostToken"), seat=True
    ),
    "/api/your-rooms": {
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
}

SERVICE_PATHS: dict[str, Schema] = {
    "/healthz": {
        "get": {
            "operationId": "health",
            "summary": "Whether the store answers",
            "responses": {
                "200": json_answer("the store answers", ref("Health")),
                "503": json_answer("the store does not answer", ref("Health")),
            },
        }
    },
    "/livez": {
        "get": {
            "operationId": "liveness",
            "summary": "Whether the process answers (a liveness probe; the store is not asked)",
            "responses": {"200": json_answer("the process answers", ref("Health"))},
        }
    },
    "/readyz": {
        "get": {
            "operationId": "readiness",
            "summary": "Whether to send this process clients: the store answers and it is "
            "not draining (stopping)",
            "responses": {
                "200": json_answer("ready", ref("Readiness")),
                "503": json_answer("the store does not answer, or draining", ref("Readiness")),
            },
        }
    },
    "/metrics": {
        "get": {
            "operationId": "metrics",
            "summary": "Prometheus text format (PROTOCOL.md lists the series)",
            "responses": {
                "200": {
                    "description": "the figures",
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                }
            },
        }
    },
    "/": {
        "get": {
            "operationId": "browserClient",
            "summary": "The browser client (static files from client/web/, when present)",
            "responses": {
                "200": {"description": "the page", "content": {"text/html": {"schema": {}}}},
                "404": {"description": "no browser client in this installation"},
            },
        }
    },
    "/openapi.json": {
        "get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {
                "200": json_answer("OpenAPI 3.1", {"type": "object", "required": ["openapi"]})
            },
        }
    },
}
