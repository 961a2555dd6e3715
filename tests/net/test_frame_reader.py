"""The websocket frame reader's direct path (frames handed over by a synchronous callback,
`DIRECT_RECEIVE`), without a network: answers keep the frames' order however the room's
answers come back, and reading pauses while `READ_AHEAD` frames wait for the room.

The room is a stand-in whose answers the test settles by hand; the real room and a real
server are behind the same path in test_fuzz.py and the rest of tests/net.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from server.rooms.errors import RoomError
from server.store import codec
from server.web.limits import Limits
from server.web.metrics import Metrics
from server.web.ws import FrameReader, Outbox
from server.web.ws_protocol import READ_AHEAD
from tests.net.test_outbox import FakeSocket


class FakeAttachment:
    """Holds seat 0; each move's answer is a future the test settles."""

    code = "ROOM01"
    seats = (0,)

    def __init__(self) -> None:
        self.moves: list[asyncio.Future[dict[str, Any]]] = []

    def move(self, seat: int, seq: int, action: dict[str, Any]) -> asyncio.Future[Any]:
        self.moves.append(asyncio.get_running_loop().create_future())
        return self.moves[-1]


def reader() -> tuple[FrameReader, FakeAttachment, FakeSocket, list[bool]]:
    socket = FakeSocket(direct=True)
    fake: Any = socket
    outbox = Outbox(fake, 64)
    outbox.start(b"welcome")
    attachment = FakeAttachment()
    services: Any = SimpleNamespace(limits=Limits(), metrics=Metrics())
    frame_reader = FrameReader(services, attachment, outbox)  # type: ignore[arg-type]
    holds: list[bool] = []
    frame_reader._hold = holds.append
    return frame_reader, attachment, socket, holds


def move(seq: int) -> bytes:
    return codec.pack({"t": "move", "seat": 0, "seq": seq, "action": {"type": "mark"}})


def sent(socket: FakeSocket) -> list[tuple[Any, ...]]:
    """What went out after the welcome, as (t, seq or code)."""
    out = []
    for data in socket.sent[1:]:
        frame = codec.unpack(data)
        out.append((frame["t"], frame.get("seq", frame.get("code"))))
    return out


async def test_answers_keep_the_order_of_the_frames() -> None:
    frame_reader, attachment, socket, _ = reader()
    frame_reader.on_frame(move(1))
    frame_reader.on_frame(codec.pack({"t": "ping"}))
    frame_reader.on_frame(b"\xc1")  # not msgpack: refused at once, answered in turn
    frame_reader.on_frame(move(2))
    assert sent(socket) == [], "nothing may overtake the first move's answer"
    attachment.moves[1].set_result({"version": 3})  # the room answers out of order
    await asyncio.sleep(0)
    assert sent(socket) == []
    attachment.moves[0].set_result({"version": 2})
    await asyncio.sleep(0)
    assert sent(socket) == [("ack", 1), ("pong", None), ("error", "bad_frame"), ("ack", 2)]
    frame_reader.on_frame(codec.pack({"t": "ping"}))  # nothing waiting: answered at once
    assert sent(socket)[-1] == ("pong", None)


async def test_a_move_the_room_refuses_gets_its_error_with_its_seat_and_seq() -> None:
    frame_reader, attachment, socket, _ = reader()
    frame_reader.on_frame(move(7))
    attachment.moves[0].set_exception(RoomError("illegal_action", "not now"))
    await asyncio.sleep(0)
    (data,) = socket.sent[1:]
    assert codec.unpack(data) == {
        "t": "error",
        "code": "illegal_action",
        "message": "not now",
        "seat": 0,
        "seq": 7,
    }


async def test_reading_pauses_while_read_ahead_frames_wait_for_the_room() -> None:
    frame_reader, attachment, _, holds = reader()
    for seq in range(1, READ_AHEAD):
        frame_reader.on_frame(move(seq))
    assert holds == []
    frame_reader.on_frame(move(READ_AHEAD))
    assert holds == [True]
    attachment.moves[0].set_result({"version": 2})
    await asyncio.sleep(0)
    assert holds == [True, False]
    for future in attachment.moves[1:]:
        future.set_result({"version": 2})
    await asyncio.sleep(0)
    assert holds == [True, False], "reading is resumed once, not again per answer"
