"""The per-connection outbox, without a network: order, welcome first, slow clients cut off."""

from __future__ import annotations

import asyncio
from typing import Any

from server.web.frames import Close
from server.web.ws import Outbox


class FakeSocket:
    """Records what the outbox sends and how it closes."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.closed_with: int | None = None

    async def send_bytes(self, data: bytes) -> None:
        self.sent.append(data)

    async def close(self, code: int) -> None:
        self.closed_with = code


def outbox(limit: int = 8) -> tuple[Outbox, FakeSocket]:
    socket = FakeSocket()
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


async def test_room_closed_message_is_sent_then_the_socket_closes() -> None:
    box, socket = outbox()
    box.start(b"welcome")
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
