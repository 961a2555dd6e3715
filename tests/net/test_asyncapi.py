"""server/web/asyncapi.yaml describes the websocket: every frame of a real match (two
players and a spectator) matches its message's payload schema, game parts included."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from client.lib import Client
from server.store import codec
from tests.net.drive import play_all

WEB = Path(__file__).resolve().parents[2] / "server" / "web"
ASYNCAPI = WEB / "asyncapi.yaml"


def document() -> dict[str, Any]:
    """The AsyncAPI document."""
    return yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))


def retrieve(uri: str) -> Resource:
    """Schema files referred to from the document (./schemas/*.json), by file URI."""
    path = Path(uri.removeprefix("file://"))
    assert path.resolve().is_relative_to(WEB), uri
    return Resource.from_contents(parsed(path), default_specification=DRAFT202012)


def parsed(path: Path) -> Any:
    """A JSON (or the YAML) file, parsed."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@functools.cache
def payload_validator(message: str) -> Draft202012Validator:
    """A validator for one message's payload, its refs resolved from the files."""
    base = ASYNCAPI.as_uri()
    registry: Registry = Registry(retrieve=retrieve)  # type: ignore[call-arg]
    schema = {"$ref": f"{base}#/components/messages/{message}/payload"}
    return Draft202012Validator(schema, registry=registry)


def test_the_document_is_asyncapi_3_and_every_message_has_a_payload() -> None:
    doc = document()
    assert doc["asyncapi"].startswith("3.")
    sent = {ref["$ref"].rpartition("/")[2] for ref in doc["operations"]["sendToServer"]["messages"]}
    received = {
        ref["$ref"].rpartition("/")[2] for ref in doc["operations"]["receiveFromServer"]["messages"]
    }
    assert sent == {"hello", "move", "shown", "visible", "pause", "resume", "ping"} | {
        "chat",
        "react",
        "mute",
        "deal_text",
    }
    assert received == {"welcome", "view", "ack", "error", "pong", "closed", "chat", "react"}
    for name in sent | received:
        payload_validator(name).is_valid({"t": name})  # every $ref resolves


def check(frame: dict[str, Any]) -> None:
    """Assert a frame matches the payload of the message its `t` names."""
    error = best_match(payload_validator(frame["t"]).iter_errors(frame))
    assert error is None, f"{frame['t']} at /{'/'.join(map(str, error.absolute_path))}: {error}"


def test_a_frame_off_the_description_is_caught() -> None:
    check({"t": "hello", "tokens": []})
    move = {"t": "move", "seat": 0, "seq": 1, "action": {"type": "mark", "card": "S1"}}
    check(move)
    try:
        check({**move, "action": {"type": "mark", "card": "Q7"}})
    except AssertionError:
        return
    raise AssertionError("an action with no game's card encoding was accepted")


async def test_every_frame_of_a_real_match_matches_the_description(client: Client) -> None:
    host = await client.create_room(
        "usunoro", seats=["host", "open", "cpu", "cpu"], options={"length": "short"}
    )
    friend = await client.take_seat(host.code)
    await client.start(host.code, host.token)
    a = await client.connect(host.code, [host.token], record=True)
    b = await client.connect(host.code, [friend.token], record=True)
    spectator = await client.connect(host.code, [], record=True)
    talk = [
        {"t": "chat", "text": "good luck <3"},
        {"t": "react", "reaction": "gg"},
        {"t": "mute", "spectators": True, "muted": True},
    ]
    for frame in talk:
        check(frame)
    async with a, b, spectator:
        await a.send({"t": "ping"})
        for frame in talk:
            await a.send(frame)
        await play_all(a, b)
    frames = [codec.unpack(raw) for conn in (a, b, spectator) for raw in conn.raw or []]
    kinds = {frame["t"] for frame in frames}
    assert {"welcome", "view", "pong", "chat", "react"} <= kinds
    assert any(f["t"] == "view" and "outcome" in f for f in frames)
    for frame in frames:
        check(frame)
