"""HTTP routes of a room's match history: the list with standings, a match's file,
pages of replay steps for the browser's replay viewer and a match's review, with their
OpenAPI descriptions and schemas (the match file's own JSON Schema among them). See
PROTOCOL.md.

A player proves their seat with `Authorization: Bearer TOKEN` (never in the path or the
query string, which proxies log); without it the caller is a spectator.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.rooms.errors import RoomError
from server.rooms.history.match_file import SCHEMA_PATH as MATCH_SCHEMA_PATH
from server.web.http_io import spend, translated
from server.web.openapi import (
    CODE_PARAMETER,
    COMMON_ERRORS,
    Described,
    Schema,
    error_answer,
    json_answer,
    path_parameter,
    ref,
)

MAX_NUMBER_DIGITS = 6


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise RoomError("bad_token", "send a seat token as 'Authorization: Bearer TOKEN'")
    return token.strip()


def _number(text: str, name: str) -> int:
    if not text.isdigit() or len(text) > MAX_NUMBER_DIGITS:
        raise RoomError("bad_request", f"{name} must be a whole number")
    return int(text)


async def list_matches(request: Request) -> Response:
    """The room's finished matches (number, dates, seats, places, winners, scores) and
    the standings across its play-again series."""
    spend(request, "lookups")
    return JSONResponse(
        await request.app.state.services.archive.listing(request.path_params["code"])
    )


async def match_file(request: Request) -> Response:
    """Match n's file: the full file for a player of the room, the spectator file else."""
    spend(request, "lookups")
    code = request.path_params["code"]
    number = _number(request.path_params["n"], "the match number")
    data = await request.app.state.services.archive.match_file(code, number, _bearer(request))
    filename = f"zashiki-{code.upper()[:6]}-match-{number}.json"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if "download" not in request.query_params:
        headers = {}
    return JSONResponse(data, headers=headers)


async def match_steps(request: Request) -> Response:
    """A page of replay steps from one perspective (?seat=N|open|spectator, ?from, ?count)."""
    spend(request, "lookups")
    code = request.path_params["code"]
    number = _number(request.path_params["n"], "the match number")
    query = request.query_params
    start = _number(query.get("from", "0"), "from")
    count = _number(query.get("count", "50"), "count")
    archive = request.app.state.services.archive
    steps = await archive.steps(code, number, _bearer(request), query.get("seat"), start, count)
    return JSONResponse(steps)


async def match_review(request: Request) -> Response:
    """Match n's review (感想戦): the Hard CPU's opinion on every human move, as the
    perspective asked for (?seat=N|open|spectator) may see it. Made once (queued when
    the match ended, or when first asked); while it is made, 202 with how far it is."""
    spend(request, "lookups")
    code = request.path_params["code"]
    number = _number(request.path_params["n"], "the match number")
    archive = request.app.state.services.archive
    asked = request.query_params.get("seat")
    answer = await archive.review(code, number, _bearer(request), asked, wait=False)
    if answer.get("status") == "preparing":
        return JSONResponse(answer, status_code=202, headers={"Retry-After": "1"})
    return JSONResponse(answer)


def match_file_schema() -> Schema:
    """The match file's own JSON Schema (server/rooms/history/match.schema.json), as a component."""
    schema = json.loads(MATCH_SCHEMA_PATH.read_text(encoding="utf-8"))
    schema.pop("$schema", None)
    schema.pop("$id", None)
    return schema


MATCH_NUMBER_PARAMETER = path_parameter(
    "n", "The match's number in the room's play-again series (from 1).", "^[0-9]{1,6}$", "1"
)
BEARER_PARAMETER: Schema = {
    "name": "Authorization",
    "in": "header",
    "required": False,
    "description": "`Bearer TOKEN` with a seat token of the room: the caller is a player. "
    "Without it, a spectator (the spectator view only).",
    "schema": {"type": "string"},
}
PERSPECTIVE_PARAMETER: Schema = {
    "name": "seat",
    "in": "query",
    "required": False,
    "description": "a seat number, open or spectator (default); anyone without a seat gets "
    "the spectator view",
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
                        "events": {"type": "array", "items": {"type": "object"}},
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
    "ReviewProgress": {
        "type": "object",
        "description": "A review not made yet: it is being made (or waits for the one "
        "under way). Ask again (Retry-After) for the review.",
        "required": ["status", "match", "done", "total"],
        "additionalProperties": False,
        "properties": {
            "status": {"const": "preparing"},
            "match": {"type": "integer"},
            "done": {"type": "integer", "minimum": 0, "description": "moves marked so far"},
            "total": {"type": "integer", "minimum": 0, "description": "moves to mark"},
        },
    },
    "MatchReview": {
        "type": "object",
        "description": "The Hard CPU's opinion on every human move of a finished match "
        "(server/rooms/history/review.py). A mark's cpu, card and why are given only for "
        "the seat asked for (all with every hand open); a spectator gets no size either.",
        "required": ["version", "match", "marks", "players", "seats"],
        "properties": {
            "version": {"type": "integer"},
            "match": {"type": "integer"},
            "seats": {"type": "array"},
            "marks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["step", "seat", "agree"],
                    "properties": {
                        "step": {"type": "integer", "description": "the replay step of the move"},
                        "seat": {"type": "integer"},
                        "agree": {
                            "type": ["boolean", "null"],
                            "description": "null: the CPU would make no move then",
                        },
                        "cpu": {"type": "object", "description": "the CPU's move"},
                        "card": {"description": "the card the CPU's move names, or null"},
                        "why": {
                            "type": "object",
                            "required": ["en", "ja"],
                            "properties": {"en": {"type": "string"}, "ja": {"type": "string"}},
                        },
                        "size": {
                            "type": "number",
                            "description": "share of the CPU's asks that did not choose the "
                            "player's move",
                        },
                    },
                },
            },
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "moves", "agreed", "rate", "largest"],
                    "properties": {
                        "seat": {"type": "integer"},
                        "moves": {"type": "integer"},
                        "agreed": {"type": "integer"},
                        "rate": {"type": ["number", "null"]},
                        "largest": {"type": "array", "items": {"type": "integer"}},
                    },
                },
            },
        },
    },
}


routes = [
    Described(
        "/api/rooms/{code}/matches",
        translated(list_matches),
        {
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
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/matches/{n}",
        translated(match_file),
        {
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
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/matches/{n}/steps",
        translated(match_steps),
        {
            "get": {
                "operationId": "getMatchSteps",
                "summary": "A page of replay steps from a seat, with every hand open, or as a "
                "spectator",
                "parameters": [
                    CODE_PARAMETER,
                    MATCH_NUMBER_PARAMETER,
                    BEARER_PARAMETER,
                    PERSPECTIVE_PARAMETER,
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
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/matches/{n}/review",
        translated(match_review),
        {
            "get": {
                "operationId": "getMatchReview",
                "summary": "Match n's review: the Hard CPU's move beside every human move, "
                "each player's agreement rate and largest differences",
                "parameters": [
                    CODE_PARAMETER,
                    MATCH_NUMBER_PARAMETER,
                    BEARER_PARAMETER,
                    PERSPECTIVE_PARAMETER,
                ],
                "responses": {
                    "200": json_answer(
                        "the review as this perspective sees it", ref("MatchReview")
                    ),
                    "202": json_answer(
                        "not made yet: how far its making is (ask again after Retry-After)",
                        ref("ReviewProgress"),
                    ),
                    **MATCH_ERRORS,
                    "400": error_answer("bad_seat"),
                },
            }
        },
        SCHEMAS,
    ),
]
