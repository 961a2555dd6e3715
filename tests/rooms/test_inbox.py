"""The room's input queue: order, the consumer told of every put, and join."""

from __future__ import annotations

import asyncio

from server.rooms.actor.inbox import Inbox


def test_items_come_out_in_the_order_they_went_in() -> None:
    inbox: Inbox[int] = Inbox(lambda: None)
    for item in (3, 1, 2):
        inbox.put(item)
    assert inbox.peek() == 3
    assert [inbox.take(), inbox.take(), inbox.take()] == [3, 1, 2]
    assert inbox.take() is None and inbox.peek() is None


def test_every_put_wakes_the_consumer_after_the_item_is_in() -> None:
    inbox: Inbox[str] = Inbox(lambda: seen.append(inbox.peek()))
    seen: list[str | None] = []
    inbox.put("move")
    inbox.put("tick")
    assert seen == ["move", "move"]


async def test_join_waits_until_every_item_is_done() -> None:
    inbox: Inbox[int] = Inbox(lambda: None)
    await asyncio.wait_for(inbox.join(), 1)  # nothing put: returns at once
    inbox.put(1)
    inbox.put(2)
    joined = asyncio.create_task(inbox.join())
    inbox.take()
    inbox.done()
    await asyncio.sleep(0)
    assert not joined.done()  # one item still unfinished
    inbox.take()
    inbox.done()
    await asyncio.wait_for(joined, 1)
