"""The HTTP API described as OpenAPI 3.1, served at GET /openapi.json.

The document is written here by hand, next to the routes it describes (api.py and the
modules app.py mounts): whoever adds or changes a route adds or changes its entry in
`PATHS`. tests/net/test_openapi.py fails when a route the app serves is not described
(or a described one is not served), or when the document changes without its golden copy
(`python3 -m server.web.openapi > tests/net/openapi.golden.json`), and runs schemathesis
against a live server, so the answers must match these schemas too.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.games import registry
from server.rooms.match_file import SCHEMA_PATH as MATCH_SCHEMA_PATH

JSON = "application/json"
CODE_PATTERN = "^[A-Za-z0-9]{1,16}$"

Schema = dict[str, Any]
# The highest seat number any game has (a room's own seat count may be lower).
MAX_SEAT = max(game.max_seats for game in registry.games().values()) - 1


def ref(name: str) -> Schema:
    """A reference to one of the document's component schemas."""
    return {"$ref": f"#/components/schemas/{name}"}


def json_answer(description: str, schema: Schema) -> Schema:
    """A response with a JSON body."""
    return {"description": description, "content": {JSON: {"schema": schema}}}


def error_answer(description: str) -> Schema:
    """An error response: the body is always {"code", "message"}."""
    return json_answer(description, ref("Error"))


def json_body(schema: Schema, example: Schema, required: bool = False) -> Schema:
    """A JSON request body with one fixed example (schemathesis sends it too)."""
    return {"required": required, "content": {JSON: {"schema": schema, "example": example}}}


EXAMPLE_TOKEN = "q0v3hX2b9TQeYc1vB6d7Zg"
CODE_PARAMETER: Schema = {
    "name": "code",
    "in": "path",
    "required": True,
    "description": "The room code (six characters; any case is accepted).",
    "schema": {"type": "string", "pattern": CODE_PATTERN},
    "example": "K7QH2M",
}

SEAT_PARAMETER: Schema = {
    "name": "seat",
    "in": "path",
    "required": True,
    "description": "A seat number.",
    "schema": {"type": "string", "pattern": "^[0-9]{1,3}$"},
    "example": "1",
}

# Answers any route may give: the store is down, the server is stopping, the room's
# process is unreachable (503), or the body is not what the route takes.
COMMON_ERRORS: Schema = {
    "400": error_answer("bad_request: malformed JSON or a field of the wrong type"),
    "413": error_answer("too_large: a body over 16 KB"),
    "429": error_answer("rate_limited: over a per-client limit; see the Retry-After header"),
    "503": error_answer("room_elsewhere, room_moved, server_shutdown or store_error: retry"),
}


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


def match_file_schema() -> Schema:
    """The match file's own JSON Schema (server/rooms/match.schema.json), as a component."""
    schema = json.loads(MATCH_SCHEMA_PATH.read_text(encoding="utf-8"))
    schema.pop("$schema", None)
    schema.pop("$id", None)
    return schema


MATCH_NUMBER_PARAMETER: Schema = {
    "name": "n",
    "in": "path",
    "required": True,
    "description": "The match's number in the room's play-again series (from 1).",
    "schema": {"type": "string", "pattern": "^[0-9]{1,6}$"},
    "example": "1",
}
BEARER_PARAMETER: Schema = {
    "name": "Authorization",
    "in": "header",
    "required": False,
    "description": "`Bearer TOKEN` with a seat token of the room: the caller is a player. "
    "Without it, a spectator (the spectator view only).",
    "schema": {"type": "string"},
}
MATCH_ERRORS: Schema = {
    "403": error_answer("bad_token: the bearer token holds no seat of this room"),
    "404": error_answer("room_not_found or match_not_found"),
    **COMMON_ERRORS,
}


SCHEMAS: dict[str, Schema] = {
    "MatchSummary": {
        "type": "object",
        "required": ["match", "started", "ended", "seats", "places", "winners", "scores", "steps"],
        "properties": {
            "match": {"type": "integer", "minimum": 1},
            "started": {"type": ["number", "null"], "description": "Unix seconds"},
            "ended": {"type": ["number", "null"], "description": "Unix seconds"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["kind", "name"],
                    "properties": {"kind": {"type": "string"}, "name": {"type": "string"}},
                },
            },
            "places": {"type": "array", "items": {"type": "integer"}},
            "winners": {"type": "array", "items": {"type": "integer"}},
            "scores": {"type": ["array", "null"]},
            "steps": {"type": "integer", "minimum": 1},
        },
    },
    "MatchList": {
        "type": "object",
        "required": ["code", "game", "matches", "standings"],
        "properties": {
            "code": {"type": "string"},
            "game": {"type": "string"},
            "matches": {"type": "array", "items": ref("MatchSummary")},
            "standings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "name", "played", "wins", "mean_place"],
                    "properties": {
                        "seat": {"type": "integer"},
                        "name": {"type": "string"},
                        "played": {"type": "integer"},
                        "wins": {"type": "integer"},
                        "mean_place": {"type": ["number", "null"]},
                    },
                },
            },
        },
    },
    "MatchFile": match_file_schema(),
    "MatchSteps": {
        "type": "object",
        "required": ["match", "steps_total", "perspective", "seats", "steps", "next"],
        "properties": {
            "match": {"type": "integer"},
            "steps_total": {"type": "integer"},
            "perspective": {
                "description": 'a seat number, "open", or null (the spectator view)',
                "oneOf": [{"type": "integer"}, {"const": "open"}, {"type": "null"}],
            },
            "seats": {"type": "array"},
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["step", "kind", "t", "round", "trick"],
                    "properties": {
                        "step": {"type": "integer"},
                        "kind": {"enum": ["deal", "move", "timer"]},
                        "t": {"type": "integer"},
                        "seat": {"type": "integer"},
                        "action": {"type": "object"},
                        "view": {"type": "object"},
                        "views": {"type": "object"},
                        "legal": {"type": ["array", "object"]},
                        "outcome": {"type": ["object", "null"]},
                    },
                },
            },
            "next": {"type": ["integer", "null"]},
        },
    },
    "Health": {
        "type": "object",
        "required": ["ok"],
        "properties": {"ok": {"type": "boolean"}},
    },
    "Error": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"type": "string", "description": "stable, for programs"},
            "message": {"type": "string", "description": "for people"},
        },
    },
    "Option": {
        "type": "object",
        "required": ["name", "default", "choices", "description", "per_seat"],
        "properties": {
            "name": {"type": "string"},
            "default": {},
            "choices": {"type": "array"},
            "description": {"type": "string"},
            "per_seat": {
                "type": "boolean",
                "description": "int choices are seat numbers, allowed below the seat count",
            },
            "minimum": {"type": "integer", "description": "a whole-number option's least"},
            "maximum": {"type": "integer", "description": "a whole-number option's most"},
        },
    },
    "Game": {
        "type": "object",
        "required": [
            "id",
            "title",
            "min_seats",
            "max_seats",
            "options",
            "summary",
            "typical_minutes",
            "rules",
        ],
        "properties": {
            "id": {"type": "string"},
            "title": {"type": "string"},
            "min_seats": {"type": "integer", "minimum": 1},
            "max_seats": {"type": "integer", "minimum": 1},
            "options": {"type": "array", "items": ref("Option")},
            "summary": {
                "type": "object",
                "description": "one line about the game per language code",
                "additionalProperties": {"type": "string"},
            },
            "typical_minutes": {
                "description": "how long a match with the default options usually takes",
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["min", "max"],
                        "properties": {
                            "min": {"type": "integer", "minimum": 0},
                            "max": {"type": "integer", "minimum": 0},
                        },
                    },
                    {"type": "null"},
                ],
            },
            "rules": {
                "type": "object",
                "description": "the How-to-play page's path per language code "
                "(glossary entries are anchors #g-<term>)",
                "additionalProperties": {"type": "string", "pattern": "^/rules/"},
            },
        },
    },
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
            "status": {"enum": ["lobby", "playing", "over"]},
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
                    "error": {"enum": ["room_not_found", "bad_token"]},
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
                    "status": {"enum": ["lobby", "playing", "over"]},
                    "match": {"type": "integer", "minimum": 1},
                    "host": {"type": "integer", "minimum": 0},
                    "your_turn": {"type": "boolean"},
                    "turn": {"type": ["integer", "null"]},
                    "seats": {"type": "array", "items": ref("SeatSummary")},
                    "last_activity": {"type": "number"},
                },
            },
        ]
    },
    "HostToken": {
        "type": "object",
        "required": ["token"],
        "properties": {"token": {"type": "string", "description": "the host seat's token"}},
    },
}

PATHS: dict[str, Schema] = {
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
    "/api/rooms/{code}/matches": {
        "get": {
            "operationId": "listMatches",
            "summary": "The room's finished matches and the standings across the series",
            "parameters": [CODE_PARAMETER],
            "responses": {
                "200": json_answer("oldest match first", ref("MatchList")),
                "404": error_answer("room_not_found"),
                **COMMON_ERRORS,
            },
        }
    },
    "/api/rooms/{code}/matches/{n}": {
        "get": {
            "operationId": "getMatchFile",
            "summary": "Match n's file: full (seed and inputs) for a player, spectator views "
            "for anyone else",
            "parameters": [
                CODE_PARAMETER,
                MATCH_NUMBER_PARAMETER,
                BEARER_PARAMETER,
                {
                    "name": "download",
                    "in": "query",
                    "required": False,
                    "description": "present: answered as an attachment to save",
                    "schema": {"type": "string"},
                },
            ],
            "responses": {
                "200": json_answer("the match file (format zashiki-match 1)", ref("MatchFile")),
                **MATCH_ERRORS,
            },
        }
    },
    "/api/rooms/{code}/matches/{n}/steps": {
        "get": {
            "operationId": "getMatchSteps",
            "summary": "A page of replay steps from a seat, with every hand open, or as a "
            "spectator",
            "parameters": [
                CODE_PARAMETER,
                MATCH_NUMBER_PARAMETER,
                BEARER_PARAMETER,
                {
                    "name": "seat",
                    "in": "query",
                    "required": False,
                    "description": "a seat number, open or spectator (default); anyone "
                    "without a seat gets the spectator view",
                    "schema": {"type": "string"},
                },
                {
                    "name": "from",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "pattern": "^[0-9]{1,6}$"},
                },
                {
                    "name": "count",
                    "in": "query",
                    "required": False,
                    "description": "at most 100; a page also stops after 20 ms of CPU",
                    "schema": {"type": "string", "pattern": "^[0-9]{1,6}$"},
                },
            ],
            "responses": {
                "200": json_answer("the steps and where to go on", ref("MatchSteps")),
                **MATCH_ERRORS,
                "400": error_answer("bad_request or bad_seat"),
            },
        }
    },
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


def document() -> Schema:
    """The whole OpenAPI 3.1 document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Zashiki HTTP API",
            "version": "1",
            "description": "Rooms, seats and starting matches; play goes over the websocket "
            "/ws. server/web/PROTOCOL.md is the prose reference.",
        },
        "paths": PATHS,
        "components": {"schemas": SCHEMAS},
    }


async def openapi_json(request: Request) -> Response:
    """The OpenAPI document."""
    return JSONResponse(document())


def golden() -> str:
    """The document as its golden copy keeps it: indented JSON, keys in document order."""
    return json.dumps(document(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(golden(), end="")
