"""HTTP route of the games on offer: each game's seats, options, summary, typical length
and How-to-play pages (GET /api/games), with its OpenAPI description."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.games import registry
from server.rooms.seats import timebank
from server.web.game_info import game_info
from server.web.http_io import translated
from server.web.openapi import COMMON_ERRORS, Described, Schema, json_answer, ref

SCHEMAS: dict[str, Schema] = {
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
            "clock",
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
            "clock": ref("ClockChoices"),
        },
    },
    "ClockChoices": {
        "type": "object",
        "description": "the create-room clock fields' choices for this game",
        "required": ["modes", "default", "live", "days"],
        "properties": {
            "modes": {"type": "array", "items": {"enum": list(timebank.MODES)}},
            "default": {"const": "relaxed"},
            "live": {
                "type": "object",
                "required": ["presets", "default"],
                "properties": {
                    "presets": {"type": "array", "items": ref("ClockPreset")},
                    "default": {"type": "string"},
                },
            },
            "days": {
                "type": "object",
                "required": ["presets", "default", "vacation_days"],
                "properties": {
                    "presets": {"type": "array", "items": ref("ClockPreset")},
                    "default": {"type": "string"},
                    "vacation_days": {
                        "type": "object",
                        "required": ["default", "max"],
                        "properties": {
                            "default": {"type": "integer"},
                            "max": {"type": "integer"},
                        },
                    },
                },
            },
        },
    },
    "ClockPreset": {
        "type": "object",
        "required": ["id", "move_ms", "bank_ms"],
        "properties": {
            "id": {"type": "string", "description": "the create-room field clock_preset"},
            "move_ms": {"type": "integer", "description": "each move's allowance"},
            "bank_ms": {"type": "integer", "description": "the bank each seat starts with"},
        },
    },
}


async def list_games(request: Request) -> Response:
    """Every game with its seat counts, options, summary, typical length and rules pages."""
    games = [
        {**g.describe(), **game_info(g.id), "clock": timebank.presets(g.id)}
        for g in registry.games().values()
    ]
    return JSONResponse({"games": games})


routes = [
    Described(
        "/api/games",
        translated(list_games),
        {
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
        SCHEMAS,
    ),
]
