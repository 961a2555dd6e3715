"""The room's input queue: order, a sleeping reader woken by a put, and join."""

from __future__ import annotations

import asyncio

from server.rooms.inbox import Inbox


async def test_items_come_out_in_the_order_they_went_in() -> None:
    inbox: Inbox[int] = Inbox()
    for item in (3, 1, 2):
        inbox.put(item)
    assert [await inbox.get(), inbox.take(), await inbox.get()] == [3, 1, 2]
    assert inbox.take() is None


async def test_a_reader_waiting_on_an_empty_inbox_gets_the_next_item() -> None:
    inbox: Inbox[str] = Inbox()
    reader = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    assert not reader.done()
    inbox.put("move")
    assert await asyncio.wait_for(reader, 1) == "move"


async def test_a_cancelled_reader_leaves_the_inbox_usable() -> None:
    inbox: Inbox[str] = Inbox()
    reader = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    reader.cancel()
    await asyncio.gather(reader, return_exceptions=True)
    inbox.put("tick")
    assert await asyncio.wait_for(inbox.get(), 1) == "tick"


async def test_join_waits_until_every_item_is_done() -> None:
    inbox: Inbox[int] = Inbox()
    await asyncio.wait_for(inbox.join(), 1)  # nothing put: returns at once
    inbox.put(1)
    inbox.put(2)
    joined = asyncio.create_task(inbox.join())
    await inbox.get()
    inbox.done()
    await asyncio.sleep(0)
    assert not joined.done()  # one item still unfinished
    await inbox.get()
    inbox.done()
    await asyncio.wait_for(joined, 1)
