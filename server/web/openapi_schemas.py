"""The OpenAPI document's component schemas for games, rooms and seats, health and
errors (the match history's are in openapi_matches.py)."""

from __future__ import annotations

from server.games import registry
from server.web.api import COVER_DEFAULT_S, COVER_MAX_S
from server.web.openapi_parts import Schema, ref

# The highest seat number any game has (a room's own seat count may be lower).
MAX_SEAT = max(game.max_seats for game in registry.games().values()) - 1

SCHEMAS: dict[str, Schema] = {
    "Health": {
        "type": "object",
        "required": ["ok"],
        "properties": {"ok": {"type": "boolean"}},
    },
    "Readiness": {
        "type": "object",
        "required": ["ok", "store", "draining"],
        "properties": {
            "ok": {"type": "boolean"},
            "store": {"type": "boolean", "description": "the store answers"},
            "draining": {"type": "boolean", "description": "the process is stopping"},
        },
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
            "cover_after_s": {
                "oneOf": [
                    {"type": "integer", "minimum": 1, "maximum": COVER_MAX_S},
                    {"const": "wait"},
                ],
                "description": f"seconds a player may be away before a CPU plays for them "
                f'(default {COVER_DEFAULT_S}), or "wait": the table waits',
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
                    "error": {"const": "not_your_seat"},
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
