"""The OpenAPI document's building blocks: references, answers and bodies, and the
parameters and errors many routes share (openapi.py puts the document together)."""

from __future__ import annotations

from typing import Any

JSON = "application/json"
CODE_PATTERN = "^[A-Za-z0-9]{1,16}$"

Schema = dict[str, Any]


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

# Answers any route may give: the store is down, the server is stopping, the room's
# process is unreachable (503), or the body is not what the route takes.
COMMON_ERRORS: Schema = {
    "400": error_answer("bad_request: malformed JSON or a field of the wrong type"),
    "413": error_answer("too_large: a body over 16 KB"),
    "429": error_answer("rate_limited: over a per-client limit; see the Retry-After header"),
    "503": error_answer("room_elsewhere, room_moved, server_shutdown or store_error: retry"),
}
