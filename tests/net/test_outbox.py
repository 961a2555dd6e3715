"""The per-connection outbox, without a network: order, welcome first, slow clients cut off,
and the direct send path (the transport's synchronous writer) used only when it keeps order."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.web.frames import Close
from server.web.ws import Outbox
from server.web.ws_protocol import DIRECT_SEND


class FakeSocket:
    """Records what the outbox sends and how it closes; `direct` offers the transport's
    synchronous writer (`DIRECT_SEND`), which takes frames while `writable`."""

    def __init__(self, direct: bool = False) -> None:
        self.sent: list[bytes] = []
        self.written: list[bytes] = []  # frames that went by the direct path
        self.closed_with: int | None = None
        self.writable = True
        self.scope: dict[str, Any] = {"extensions": {}}
        if direct:
            self.scope["extensions"][DIRECT_SEND] = self.write_now

    def write_now(self, data: bytes) -> bool:
        if not self.writable:
            return False
        self.sent.append(data)
        self.written.append(data)
        return True

    async def send_bytes(self, data: bytes) -> None:
        while not self.writable:  # the transport's back-pressure, as uvicorn's send waits
            await asyncio.sleep(0)
        self.sent.append(data)

    async def close(self, code: int) -> None:
        self.closed_with = code


def outbox(limit: int = 8, direct: bool = False) -> tuple[Outbox, FakeSocket]:
    socket = FakeSocket(direct)
    fake: Any = socket
    return Outbox(fake, limit), socket


async def test_welcome_goes_out_before_frames_queued_while_attaching() -> None:
    box, socket = outbox()
    box.push(b"view")
    box.start(b"welcome")
    box.push(b"ack")
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert socket.sent == [b"welcome", b"view", b"ack"]
    await box.aclose()


async def test_client_too_far_behind_is_closed_with_too_slow() -> None:
    box, socket = outbox(limit=2)
    for frame in (b"1", b"2", b"3"):
        box.push(frame)
    box.start(b"welcome")
    await asyncio.sleep(0)
    assert socket.sent == [b"welcome"] and socket.closed_with == Close.TOO_SLOW


@pytest.mark.parametrize("direct", [False, True], ids=["writer", "direct"])
async def test_room_closed_message_is_sent_then_the_socket_closes(direct: bool) -> None:
    box, socket = outbox(direct=direct)
    box.start(b"welcome")
    await asyncio.sleep(0)
    box.push_view({"t": "closed", "code": "server_shutdown", "message": "bye"})
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert len(socket.sent) == 2 and socket.closed_with == Close.SERVICE_RESTART


async def test_an_ack_carried_by_a_view_is_claimed_once() -> None:
    box, _ = outbox()
    box.push_view({"t": "view", "ack": {"seat": 2, "seq": 5, "version": 9}})
    ack = {"t": "ack", "seat": 2, "seq": 5, "version": 9}
    assert box.carried(ack)
    assert not box.carried(ack)  # a resend of the same move gets its own ack frame


async def test_an_ack_for_another_move_is_not_carried() -> None:
    box, _ = outbox()
    box.push_view({"t": "view", "ack": {"seat": 2, "seq": 5, "version": 9}})
    assert not box.carried({"t": "ack", "seat": 2, "seq": 6, "version": 10})


async def test_frames_go_straight_to_the_transport_from_the_welcome_on() -> None:
    box, socket = outbox(direct=True)
    box.push(b"view 1")  # queued while attaching: behind the welcome
    assert socket.sent == []
    box.start(b"welcome")
    box.push(b"view 2")
    assert socket.written == [b"welcome", b"view 1", b"view 2"]
    assert box.task is None  # no writer task while the transport takes every frame
    await box.aclose()


async def test_under_back_pressure_frames_queue_and_keep_their_order() -> None:
    box, socket = outbox(direct=True)
    box.start(b"welcome")
    socket.writable = False
    box.push(b"view 1")
    await asyncio.sleep(0)  # a writer task now waits for the transport with view 1
    assert box.task is not None
    socket.writable = True
    box.push(b"view 2")  # must not overtake the frame in flight
    box.push(b"view 3")
    for _ in range(4):
        await asyncio.sleep(0)
    assert socket.sent == [b"welcome", b"view 1", b"view 2", b"view 3"]
    assert socket.written == [b"welcome"]
    box.push(b"view 4")
    assert socket.written == [b"welcome", b"view 4"]
    await box.aclose()


async def test_goodbye_closes_after_a_last_frame_sent_directly() -> None:
    box, socket = outbox(direct=True)
    box.start(b"welcome")
    await asyncio.sleep(0)
    await asyncio.wait_for(box.goodbye("server_shutdown", "restarting"), 1)
    assert len(socket.sent) == 2 and socket.closed_with == Close.SERVICE_RESTART
