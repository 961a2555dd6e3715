"""HTTP route of first matches ("Learn by playing"): `POST /api/learn/{game}` makes a
room with the game's fixed first deal (server/rooms/first_match.py), the caller at the
learner's seat and CPUs elsewhere, and starts its match. Rate-limited as room creation.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.rooms.first_match import FIRST_DEALS, create_first_match
from server.web.http_io import body, field, spend, translated
from server.web.openapi import (
    COMMON_ERRORS,
    Described,
    Schema,
    error_answer,
    json_answer,
    json_body,
    ref,
)
from server.web.rooms_api import SCHEMAS as ROOM_SCHEMAS


async def learn(request: Request) -> Response:
    """Make the game's first-match room, started; the caller holds the learner's seat."""
    data = await body(request)
    spend(request, "rooms")
    code, seat, token = await create_first_match(
        request.app.state.services.manager,
        request.path_params["game"],
        field(data, "name", str, ""),
    )
    return JSONResponse({"code": code, "seat": seat, "token": token}, 201)


SCHEMAS: dict[str, Schema] = {
    "SeatGrant": ROOM_SCHEMAS["SeatGrant"],
    "FirstMatch": {
        "type": "object",
        "properties": {"name": {"type": "string", "description": "the learner's name"}},
    },
}

routes = [
    Described(
        "/api/learn/{game}",
        translated(learn),
        {
            "post": {
                "operationId": "createFirstMatch",
                "summary": "Start a first match: the game's fixed deal against Easy CPUs, "
                "the caller at seat 0 (a private room, hints on, its match started)",
                "parameters": [
                    {
                        "name": "game",
                        "in": "path",
                        "required": True,
                        "description": "a game id from /api/games",
                        "schema": {"enum": sorted(FIRST_DEALS)},
                    }
                ],
                "requestBody": json_body(ref("FirstMatch"), {"name": "Aiko"}),
                "responses": {
                    "201": json_answer("the learner's seat and token", ref("SeatGrant")),
                    **COMMON_ERRORS,
                    "400": error_answer("bad_request or bad_game"),
                },
            }
        },
        SCHEMAS,
    ),
]
