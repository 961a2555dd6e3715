"""JSON Schemas (draft 2020-12) of what the websocket carries for each game: the view,
the actions, the events, the outcome (`GAME_ID.json`), and the card encodings
(`cards.json`). asyncapi.yaml beside PROTOCOL.md refers to them; the conformance suite
validates every view, legal action, event and outcome of its seeded matches against them.

>>> validator("usunoro", "action").is_valid({"type": "mark", "card": "S1"})
True
>>> validator("usunoro", "action").is_valid({"type": "mark", "card": "X9"})
False
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PARTS = ("view", "action", "event", "outcome")


def load(name: str) -> dict[str, Any]:
    """One schema file of this directory, parsed."""
    return json.loads((HERE / name).read_text(encoding="utf-8"))


@functools.cache
def bundled(game_id: str, part: str) -> dict[str, Any]:
    """One part (view, action, event, outcome) of a game's schema as a self-contained
    document: the game's file with the card encoding from cards.json copied in."""
    doc = load(f"{game_id}.json")
    card = doc["$defs"]["card"]["$ref"].rpartition("/")[2]
    doc["$defs"]["card"] = load("cards.json")["$defs"][card]
    del doc["$id"]
    return {**doc, "$ref": f"#/$defs/{part}"}


@functools.cache
def validator(game_id: str, part: str) -> Any:
    """A jsonschema validator for one part of a game (clear errors; slow on big views)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(bundled(game_id, part))


@functools.cache
def fast_validator(game_id: str, part: str) -> Any:
    """The same schema compiled by jsonschema-rs: hundreds of times quicker, for checking
    every view of many matches; `validator` then explains a failure."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(bundled(game_id, part))
