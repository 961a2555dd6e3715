"""server/web/asyncapi.yaml describes the websocket: every frame of a real match of every
game (players and a spectator) matches its message's payload schema, game parts included,
checked by a generic JSON Schema validator (the game's parts chosen by `room.game`)."""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from websockets.asyncio.client import connect

from client.lib import Client, Connection, ZashikiError
from server.bots.contract import Situation
from server.bots.registry import policy_for
from server.games import registry
from server.games.rng import Rng
from server.store import codec
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.drive import play_all

WEB = Path(__file__).resolve().parents[2] / "server" / "web"
ASYNCAPI = WEB / "asyncapi.yaml"


def document() -> dict[str, Any]:
    """The AsyncAPI document."""
    return yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))


def parsed(path: Path) -> Any:
    """A JSON (or the YAML) file, parsed."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@functools.cache
def retrieve(uri: str) -> Any:
    """Schema files referred to from the document (./schemas/*.json), by file URI."""
    path = Path(uri.removeprefix("file://"))
    assert path.resolve().is_relative_to(WEB), uri
    return parsed(path)


@functools.cache
def payload_validator(message: str) -> Any:
    """A validator for one message's payload, its refs resolved from the files (the
    Rust jsonschema-rs, a generic Draft 2020-12 validator: thousands of frames a
    second where the pure-Python one checks tens)."""
    schema = {"$ref": f"{ASYNCAPI.as_uri()}#/components/messages/{message}/payload"}
    return jsonschema_rs.Draft202012Validator(schema, retriever=retrieve)


def test_the_document_is_asyncapi_3_and_every_message_has_a_payload() -> None:
    doc = document()
    assert doc["asyncapi"].startswith("3.")
    sent = {ref["$ref"].rpartition("/")[2] for ref in doc["operations"]["sendToServer"]["messages"]}
    received = {
        ref["$ref"].rpartition("/")[2] for ref in doc["operations"]["receiveFromServer"]["messages"]
    }
    assert sent == {"hello", "move", "shown", "visible", "pause", "resume", "vacation", "ping"} | {
        "chat",
        "react",
        "mute",
        "deal_text",
        "hint",
        "review_open",
        "review_step",
        "review_close",
    }
    assert received == {
        "welcome",
        "view",
        "ack",
        "error",
        "pong",
        "closed",
        "chat",
        "react",
        "hint",
        "review_state",
    }
    for name in sent | received:
        payload_validator(name).is_valid({"t": name})  # every $ref resolves


def check(frame: dict[str, Any]) -> None:
    """Assert a frame matches the payload of the message its `t` names (as JSON, which
    the document describes: seat-number keys become strings)."""
    as_json = json.loads(json.dumps(frame))
    error = next(iter(payload_validator(frame["t"]).iter_errors(as_json)), None)
    assert error is None, f"{frame['t']} at /{'/'.join(map(str, error.instance_path))}: {error}"


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
        "usunoro",
        seats=["host", "open", "cpu", "cpu"],
        options={"length": "short"},
        cpu_pace="quick",  # the frames are the point, not the CPUs' pace
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
        {"t": "hint", "seat": 0},
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
    assert {"welcome", "view", "pong", "chat", "react", "hint"} <= kinds
    assert any(f["t"] == "view" and "outcome" in f for f in frames)
    for frame in frames:
        check(frame)


# Games whose first seat plays as the normal CPU would rather than at random: random
# Shirokuro Jong almost never wins, so every round ran to the end of the pile, 65 claim
# windows of at least a second each (S13). With one seat playing to win most rounds end
# in a Ron or Tsumo (their results checked too) and the match takes half as long; the
# other seat still moves at random.
PLAYED_TO_WIN = {"shirokuro_jong"}


def not_sampled() -> Any:
    """A CPU deciding on a client's view has no hidden cards to deal a world from."""
    raise AssertionError("the normal CPU asked for a sampled world")


def pick(conn: Connection, seat: Any, legal: list[Any], rng: random.Random) -> Any:
    """A move for `seat`: the normal CPU's for the first seat of PLAYED_TO_WIN games
    (deciding on the view this connection has, the first seat's), else at random."""
    message = conn.view
    assert message is not None
    game_id = message["room"]["game"]
    if game_id in PLAYED_TO_WIN and int(seat) == conn.seats[0]:
        situation = Situation(
            game=registry.get(game_id),
            seat=int(seat),
            view=message["view"],
            legal=legal,
            difficulty="normal",
            rng=Rng(rng.getrandbits(32)),
            sample_world=not_sampled,
        )
        decision = policy_for(game_id).decide(situation)
        if decision is not None:
            return decision.action
    return rng.choice(legal)


async def play_randomly(conn: Connection, rng: random.Random) -> None:
    """Play every seat `conn` holds with random legal moves (PLAYED_TO_WIN: the first
    seat as the normal CPU) until the match is over."""
    async for message in conn.views():
        message = conn.view or message
        # Shown at once, so that game time runs without waiting out the 1.5 s cap.
        await conn.send({"t": "shown", "version": message["version"]})
        if message["room"]["status"] == "over":
            return
        for seat, legal in message["legal"].items():
            if legal:
                try:
                    await conn.move(pick(conn, seat, legal, rng), seat=seat)
                except ZashikiError as exc:  # a race lost to a timer or the other seat
                    if exc.code not in ("illegal_action", "match_over"):
                        raise


async def watch_whole(url: str, code: str) -> list[bytes]:
    """A spectator that asks for whole views (no patches): every frame until the end."""
    ws_url = url.replace("http", "ws", 1) + f"/ws?room={code}"
    frames: list[bytes] = []
    async with connect(ws_url, compression=None, max_size=None, max_queue=None) as ws:
        await ws.send(codec.pack({"t": "hello", "tokens": []}))
        async for raw in ws:
            frames.append(bytes(raw))  # type: ignore[arg-type]
            frame = codec.unpack(raw)
            if frame["t"] == "view" and frame["room"]["status"] == "over":
                return frames
    return frames


OPTIONS = {"usunoro": {"length": "short"}}


@pytest.fixture(scope="module")
def fast_server(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server whose connections may send 500 frames a second (random players move as
    fast as the answers come; the frame rate limit is not what these tests check)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZASHIKI_FRAME_RATE", "500/1000")
        proc = ServerProcess(redis_url, tmp_path_factory.mktemp("fast") / "server.log")
        proc.start()
    yield proc
    assert proc.stop() in CLEAN_EXIT, proc.output()


async def match_frames(server: ServerProcess, game_id: str) -> list[dict[str, Any]]:
    """Every frame of one real match of `game_id`: humans at every seat (two to a
    connection) moving at random (see PLAYED_TO_WIN), and a spectator of whole views."""
    client = Client(server.url)
    n = registry.get(game_id).min_seats
    host = await client.create_room(
        game_id, seats=["host"] + ["open"] * (n - 1), options=OPTIONS.get(game_id, {})
    )
    seats = [host] + [await client.take_seat(host.code) for _ in range(n - 1)]
    conns = [
        await client.connect(host.code, [s.token for s in seats[i : i + 2]], record=True)
        for i in range(0, n, 2)
    ]
    spectator = asyncio.create_task(watch_whole(server.url, host.code))
    await client.start(host.code, host.token)
    rng = random.Random(46)
    try:
        await asyncio.wait_for(asyncio.gather(*(play_randomly(conn, rng) for conn in conns)), 150)
        whole = await asyncio.wait_for(spectator, 20)
    finally:
        for conn in conns:
            await conn.close()
    frames = [codec.unpack(raw) for conn in conns for raw in conn.raw or []]
    return frames + [codec.unpack(raw) for raw in whole]


async def test_every_frame_of_a_real_match_of_every_game_validates(
    fast_server: ServerProcess,
) -> None:
    """A match of every game at once (Shirokuro Jong's takes longest: every discard is
    open to claims for a second), each frame checked against the document."""
    games = sorted(registry.games())
    played = await asyncio.gather(*(match_frames(fast_server, game_id) for game_id in games))
    for game_id, frames in zip(games, played, strict=True):
        assert any(f["t"] == "view" and "outcome" in f for f in frames), game_id
        assert sum(1 for f in frames if f["t"] == "view" and "view" in f) > 10, game_id
        for frame in frames:
            check(frame)
        print(f"\n{game_id}: {len(frames)} frames valid")
