"""The asking end of a relay counts a link's messages against each reply exactly.

The owner sends a link's views, then the reply to a request, over one ordered bus; one
read from the bus may hand the asker the views, the reply and later views all at once.
Only a view missing before the reply is a loss. The bus is played by hand here (its
sends are recorded, its deliveries made in one synchronous burst, as one read makes
them): the exact interleaving under test cannot be had from a real Redis on demand.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.rooms.errors import RoomError
from server.rooms.relay.asker import Asker


class Wire:
    """Records what the asker sends; answers every send with one listener."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def send(self, to: str, message: dict[str, Any]) -> asyncio.Future[int]:
        self.sent.append((to, dict(message)))
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        future.set_result(1)
        return future


def view(link: int, n: int) -> dict[str, Any]:
    return {"k": "view", "f": "a", "l": link, "n": n, "m": {"t": "view", "version": n}}


async def test_views_counted_after_the_reply_in_the_same_read_are_not_a_loss() -> None:
    wire = Wire()
    asker = Asker(wire.send, timeout_s=5.0)
    got: list[dict[str, Any]] = []
    attaching = asyncio.create_task(asker.attach("a", "ROOM01", ["h"], got.append, False))
    await asyncio.sleep(0)
    request = wire.sent[-1][1]
    link = request["l"]
    # One read: the first view, the attach reply (n=1), then two later views.
    asker.handlers["view"](view(link, 1))
    reply = {"k": "re", "f": "a", "r": request["r"], "ok": {"seats": [0], "seqs": {}}, "n": 1}
    asker.handlers["re"](reply)
    asker.handlers["view"](view(link, 2))
    asker.handlers["view"](view(link, 3))
    attached = await attaching
    assert attached.attached and not attached.detached
    assert [m["t"] for m in got] == ["view", "view", "view"]
    # A move whose reply also comes ahead of later views of the same read.
    moving = asyncio.create_task(attached.move(0, 1, {"type": "grab"}))
    await asyncio.sleep(0)
    request = wire.sent[-1][1]
    asker.handlers["view"](view(link, 4))
    asker.handlers["re"]({"k": "re", "f": "a", "r": request["r"], "ok": {"seq": 1}, "n": 4})
    asker.handlers["view"](view(link, 5))
    assert (await moving)["seq"] == 1
    assert not attached.detached and all(m["t"] == "view" for m in got)


async def test_a_view_missing_before_the_reply_is_still_a_loss() -> None:
    wire = Wire()
    asker = Asker(wire.send, timeout_s=5.0)
    got: list[dict[str, Any]] = []
    attaching = asyncio.create_task(asker.attach("a", "ROOM01", ["h"], got.append, False))
    await asyncio.sleep(0)
    request = wire.sent[-1][1]
    attached_reply = {"k": "re", "f": "a", "r": request["r"], "ok": {"seats": [0], "seqs": {}}}
    asker.handlers["re"]({**attached_reply, "n": 1})  # view 1 never came
    with pytest.raises(RoomError) as refused:
        await attaching
    assert refused.value.code == "room_elsewhere"
