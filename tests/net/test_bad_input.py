"""Bad input over the websocket: each gets its error code, nothing changes, all stays up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client.lib import Client, Seat
from server.store import codec
from server.web.frames import Close
from server.web.limits import Limits
from tests.net.conftest import ServerProcess
from tests.net.drive import humans_only_room

LIMITS = Limits()


@dataclass
class Session:
    """A raw socket holding the host seat of a four-human room, past its first view."""

    ws: ClientConnection
    seats: list[Seat]
    view: dict[str, Any]

    async def next(self, kind: str) -> dict[str, Any]:
        """The next frame of type `kind` (views in between are skipped)."""
        while True:
            frame = codec.unpack(await self.ws.recv())
            if frame["t"] == kind:
                return frame

    async def alive(self) -> bool:
        """True if the connection still answers a ping."""
        await self.ws.send(codec.pack({"t": "ping"}))
        return (await self.next("pong")) == {"t": "pong"}


def ws_url(server: ServerProcess, code: str) -> str:
    return f"ws://127.0.0.1:{server.port}/ws?room={code}"


async def hello(server: ServerProcess, code: str, tokens: list[str]) -> ClientConnection:
    ws = await connect(ws_url(server, code), compression=None, max_size=None)
    await ws.send(codec.pack({"t": "hello", "tokens": tokens}))
    return ws


@pytest.fixture
async def session(server: ServerProcess, client: Client) -> AsyncIterator[Session]:
    seats = await humans_only_room(client)
    ws = await hello(server, seats[0].code, [seats[0].token])
    assert codec.unpack(await ws.recv())["t"] == "welcome"
    view = codec.unpack(await ws.recv())
    yield Session(ws, seats, view)
    await ws.close()


async def version(client: Client, session: Session) -> int:
    return (await client.room(session.seats[0].code))["version"]


def move(seat: int, action: dict[str, Any], seq: int = 1) -> bytes:
    return codec.pack({"t": "move", "seat": seat, "seq": seq, "action": action})


BAD_FRAMES = {
    "garbage_bytes": (b"\xc1\xff\x00garbage", "bad_frame"),
    "text_frame": ("hello there", "bad_frame"),
    "msgpack_list": (codec.pack([1, 2, 3]), "bad_frame"),
    "unknown_type": (codec.pack({"t": "teleport"}), "bad_frame"),
    "move_with_text_seat": (codec.pack({"t": "move", "seat": "0", "seq": 1}), "bad_frame"),
    "move_without_action": (codec.pack({"t": "move", "seat": 0, "seq": 1}), "bad_frame"),
    "oversized_frame": (codec.pack({"t": "ping", "pad": "x" * 10_000}), "too_large"),
    "illegal_move": (move(0, {"type": "mark", "card": "Z9"}), "illegal_action"),
    "move_for_another_seat": (move(1, {"type": "grab"}), "not_your_seat"),
}


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
async def test_bad_frame_gets_its_error_code_and_changes_nothing(
    name: str, session: Session, client: Client
) -> None:
    payload, code = BAD_FRAMES[name]
    before = await version(client, session)
    await session.ws.send(payload)
    error = await session.next("error")
    assert error["code"] == code and error["message"]
    assert await session.alive()
    assert await version(client, session) == before


async def test_flood_of_frames_is_rate_limited_and_the_connection_survives(
    session: Session,
) -> None:
    flood = LIMITS.frame_burst * 3
    for _ in range(flood):
        await session.ws.send(codec.pack({"t": "ping"}))
    answers = [codec.unpack(await session.ws.recv()) for _ in range(flood)]
    limited = [a for a in answers if a["t"] == "error"]
    assert limited and all(a["code"] == "rate_limited" for a in limited)
    assert len(limited) < flood


async def test_a_flood_of_malformed_frames_is_rate_limited_too(session: Session) -> None:
    # Unparsable frames cost the server as much as any; they must not be free to send.
    flood = LIMITS.frame_burst * 3
    for _ in range(flood):
        await session.ws.send(b"\xc1")
    errors = [await session.next("error") for _ in range(flood)]
    assert {e["code"] for e in errors} == {"bad_frame", "rate_limited"}
    await asyncio.sleep(0.2)  # a few tokens come back at 20 a second
    assert await session.alive()


async def test_a_rate_limited_move_is_refused_by_its_seat_and_seq(session: Session) -> None:
    # A client must learn which of its moves were refused, whatever refused them.
    seat, flood = session.seats[0].seat, LIMITS.frame_burst * 2
    for seq in range(1, flood + 1):
        move = {"t": "move", "seat": seat, "seq": seq, "action": {"type": "no such move"}}
        await session.ws.send(codec.pack(move))
    errors = [await session.next("error") for _ in range(flood)]
    assert {e["code"] for e in errors} == {"illegal_action", "rate_limited"}
    assert [(e["seat"], e["seq"]) for e in errors] == [(seat, n) for n in range(1, flood + 1)]


async def test_frame_past_the_transport_cap_closes_only_that_connection(
    server: ServerProcess, session: Session
) -> None:
    other = await hello(server, session.seats[1].code, [session.seats[1].token])
    await other.send(b"x" * (LIMITS.transport_max_frame + 1))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await other.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.TOO_BIG
    assert await session.alive()


async def test_wrong_token_is_refused_with_bad_token(
    server: ServerProcess, session: Session
) -> None:
    ws = await hello(server, session.seats[0].code, ["not-a-token"])
    assert codec.unpack(await ws.recv())["code"] == "bad_token"
    with pytest.raises(ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.BAD_TOKEN


async def test_unknown_room_is_refused_with_room_not_found(server: ServerProcess) -> None:
    ws = await hello(server, "ZZZZZZ", [])
    assert codec.unpack(await ws.recv())["code"] == "room_not_found"
    with pytest.raises(ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.ROOM_NOT_FOUND


async def test_first_frame_other_than_hello_is_refused(
    server: ServerProcess, session: Session
) -> None:
    ws = await connect(ws_url(server, session.seats[0].code), compression=None)
    await ws.send(codec.pack({"t": "ping"}))
    assert codec.unpack(await ws.recv())["code"] == "bad_frame"
    with pytest.raises(ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.BAD_HELLO


async def test_a_hello_whose_patches_is_not_a_bool_is_refused(
    server: ServerProcess, session: Session
) -> None:
    ws = await connect(ws_url(server, session.seats[0].code), compression=None)
    tokens = [session.seats[0].token]
    await ws.send(codec.pack({"t": "hello", "tokens": tokens, "patches": "yes" * 1000}))
    refusal = codec.unpack(await ws.recv())
    assert refusal["code"] == "bad_frame" and "yes" not in refusal["message"]
    with pytest.raises(ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.BAD_HELLO


async def test_connection_past_the_room_cap_is_refused(
    server: ServerProcess, session: Session
) -> None:
    code = session.seats[0].code
    # The session's own connection holds a seat: spectators have a cap of their own.
    spectators = [await hello(server, code, []) for _ in range(LIMITS.spectators_per_room)]
    for ws in spectators:
        assert codec.unpack(await ws.recv())["t"] == "welcome"
    extra = await hello(server, code, [])
    assert codec.unpack(await extra.recv())["code"] == "too_many_connections"
    with pytest.raises(ConnectionClosed) as closed:
        await extra.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.TOO_MANY_CONNECTIONS
    for ws in spectators:
        await ws.close()
    assert await session.alive()


async def test_frames_sent_along_with_the_hello_are_answered_in_order(
    server: ServerProcess, client: Client
) -> None:
    # They reach the server before the connection is attached to its room: they wait,
    # and are then read in order with whatever follows (text frames included).
    seats = await humans_only_room(client)
    ws = await hello(server, seats[0].code, [seats[0].token])
    for frame in (codec.pack({"t": "ping"}), "hello there", codec.pack({"t": "ping", "n": 2})):
        await ws.send(frame)
    kinds = [codec.unpack(await ws.recv())["t"] for _ in range(5)]
    assert kinds == ["welcome", "view", "pong", "error", "pong"]
    await ws.send("hello again")  # a text frame read straight away, once attached
    assert codec.unpack(await ws.recv())["code"] == "bad_frame"
    await ws.close()
