"""The OpenAPI document's match history: its routes (matches_api.py) and their schemas,
the match file's own JSON Schema among them."""

from __future__ import annotations

import json

from server.rooms.history.match_file import SCHEMA_PATH as MATCH_SCHEMA_PATH
from server.web.openapi_parts import (
    CODE_PARAMETER,
    COMMON_ERRORS,
    Schema,
    error_answer,
    json_answer,
    path_parameter,
    ref,
)


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
MATCH_ERRORS: Schema = {
    "403": error_answer("bad_token: the bearer token holds no seat of this room"),
    "404": error_answer("room_not_found or match_not_found"),
    **COMMON_ERRORS,
}


MATCH_SCHEMAS: dict[str, Schema] = {
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
}

MATCH_PATHS: dict[str, Schema] = {
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
}
