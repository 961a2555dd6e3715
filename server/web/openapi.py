"""The HTTP API described as OpenAPI 3.1, served at GET /openapi.json.

Nothing here lists the routes: each route module declares its routes as `Described`,
the route and its operations in one place (the methods served are the operations
described), with the component schemas its operations refer to, and `document`
assembles the app's routes into the document (app.py, once per app). What many routes
share is here: references, answers and bodies, the room code and seat parameters, the
errors any route may give. tests/net/test_openapi.py fails when a route the app serves
is not described, or when the document changes without its golden copy
(`python3 -m tests.net.test_openapi > tests/net/openapi.golden.json`), and runs
schemathesis against a live server, so the answers must match these schemas too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

JSON = "application/json"
CODE_PATTERN = "^[A-Za-z0-9]{1,16}$"
EXAMPLE_TOKEN = "q0v3hX2b9TQeYc1vB6d7Zg"

Schema = dict[str, Any]


class Described(Route):
    """A route with its OpenAPI operations by method ("get", "post"): it serves exactly
    the methods it describes. `schemas` are the component schemas they refer to (a
    module's own, shared by its routes; another module's are referred to by name)."""

    def __init__(
        self,
        path: str,
        endpoint: Callable[..., Any],
        operations: dict[str, Schema],
        schemas: dict[str, Schema] | None = None,
    ) -> None:
        super().__init__(path, endpoint, methods=[method.upper() for method in operations])
        self.operations = operations
        self.schemas = schemas or {}


def document(routes: Iterable[BaseRoute]) -> Schema:
    """The whole OpenAPI 3.1 document of `routes` (the app's, in order): the described
    ones, and anything else with `operations` (the browser client's mount)."""
    paths: dict[str, Schema] = {}
    schemas: dict[str, Schema] = {"Error": ERROR}
    for route in routes:
        operations = getattr(route, "operations", None)
        if operations is None:
            continue  # the websocket: PROTOCOL.md and asyncapi.yaml describe it
        # A mount at / keeps its path as "".
        paths[getattr(route, "path", "") or "/"] = operations
        for name, schema in getattr(route, "schemas", {}).items():
            assert schemas.setdefault(name, schema) is schema, f"two schemas named {name}"
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Zashiki HTTP API",
            "version": "1",
            "description": "Rooms, seats and starting matches; play goes over the websocket "
            "/ws. server/web/PROTOCOL.md is the prose reference.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }


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


def path_parameter(name: str, description: str, pattern: str, example: str) -> Schema:
    """A required path parameter: a string matching `pattern`."""
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", "pattern": pattern},
        "example": example,
    }


CODE_PARAMETER = path_parameter(
    "code", "The room code (six characters; any case is accepted).", CODE_PATTERN, "K7QH2M"
)
SEAT_PARAMETER = path_parameter("seat", "A seat number.", "^[0-9]{1,3}$", "1")

ERROR: Schema = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {
        "code": {"type": "string", "description": "stable, for programs"},
        "message": {"type": "string", "description": "for people"},
    },
}
# Answers any route may give: the store is down, the server is stopping, the room's
# process is unreachable (503), or the body is not what the route takes.
COMMON_ERRORS: Schema = {
    "400": error_answer("bad_request: malformed JSON or a field of the wrong type"),
    "413": error_answer("too_large: a body over 16 KB"),
    "429": error_answer("rate_limited: over a per-client limit; see the Retry-After header"),
    "503": error_answer(
        "room_elsewhere, room_moved, server_shutdown, store_error or room_unavailable: retry"
    ),
}


async def openapi_json(request: Request) -> Response:
    """The OpenAPI document (assembled once, when the app was made)."""
    return JSONResponse(request.app.state.openapi)


routes = [
    Described(
        "/openapi.json",
        openapi_json,
        {
            "get": {
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                    "200": json_answer("OpenAPI 3.1", {"type": "object", "required": ["openapi"]})
                },
            }
        },
    )
]
