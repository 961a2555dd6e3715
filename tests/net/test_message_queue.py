"""The protocol's list-backed message queue: what uvicorn's protocol needs of asyncio.Queue."""

from __future__ import annotations

import asyncio

import pytest

from server.web.ws_protocol import MessageQueue


async def test_items_come_out_in_order_and_get_waits_for_the_next() -> None:
    queue = MessageQueue()
    queue.put_nowait({"type": "websocket.connect"})
    queue.put_nowait({"type": "websocket.receive", "bytes": b"a"})
    assert (queue.qsize(), queue.empty()) == (2, False)
    assert (await queue.get())["type"] == "websocket.connect"
    assert queue.get_nowait()["bytes"] == b"a"
    waiting = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    queue.put_nowait({"type": "websocket.disconnect", "code": 1000})
    assert (await asyncio.wait_for(waiting, 1))["code"] == 1000
    assert queue.empty()
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()


async def test_a_cancelled_get_leaves_the_queue_usable() -> None:
    queue = MessageQueue()
    waiting = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    queue.put_nowait({"type": "websocket.disconnect", "code": 1006})
    assert (await asyncio.wait_for(queue.get(), 1))["code"] == 1006
