"""The HTTP API described as OpenAPI 3.1, served at GET /openapi.json.

The document is written by hand, next to the routes it describes (api.py and the modules
app.py mounts), in small parts: openapi_parts.py (building blocks), openapi_schemas.py
(components), openapi_paths.py (room, seat and service routes) and openapi_matches.py
(match history). Whoever adds or changes a route adds or changes its entry there.
tests/net/test_openapi.py fails when a route the app serves is not described (or a
described one is not served), or when the document changes without its golden copy
(`python3 -m server.web.openapi > tests/net/openapi.golden.json`), and runs schemathesis
against a live server, so the answers must match these schemas too.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.web.openapi_matches import MATCH_PATHS, MATCH_SCHEMAS
from server.web.openapi_parts import Schema
from server.web.openapi_paths import ROOM_PATHS, SERVICE_PATHS
from server.web.openapi_schemas import SCHEMAS


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
        "paths": {**ROOM_PATHS, **MATCH_PATHS, **SERVICE_PATHS},
        "components": {"schemas": {**MATCH_SCHEMAS, **SCHEMAS}},
    }


async def openapi_json(request: Request) -> Response:
    """The OpenAPI document."""
    return JSONResponse(document())


def golden() -> str:
    """The document as its golden copy keeps it: indented JSON, keys in document order."""
    return json.dumps(document(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(golden(), end="")
