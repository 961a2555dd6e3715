"""A room's input queue: one consumer (the room), any number of writers.

The part of `asyncio.Queue` a room uses, without its cost on the move path. Nobody
sleeps on it: every put calls the consumer's `wake`, and the room, unless it is busy
with a batch already, schedules its next one. An input costs a deque append and a
call, not a future and a task switch (see room.py).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

Item = TypeVar("Item")


class Inbox(Generic[Item]):
    """FIFO of inputs for one consumer; `join()` waits until every item is `done()`."""

    __slots__ = ("_items", "_wake", "_unfinished", "_joiners")

    def __init__(self, wake: Callable[[], None]) -> None:
        self._items: deque[Item] = deque()
        self._wake = wake
        self._unfinished = 0
        self._joiners: list[asyncio.Future[None]] = []

    def put(self, item: Item) -> None:
        """Add `item` and tell the consumer."""
        self._items.append(item)
        self._unfinished += 1
        self._wake()

    def peek(self) -> Item | None:
        """The oldest item, left in place, or None when nothing waits."""
        return self._items[0] if self._items else None

    def take(self) -> Item | None:
        """The oldest item now, or None when nothing waits."""
        return self._items.popleft() if self._items else None

    def done(self) -> None:
        """One item taken is handled."""
        self._unfinished -= 1
        if self._unfinished == 0:
            joiners, self._joiners = self._joiners, []
            for joiner in joiners:
                if not joiner.done():
                    joiner.set_result(None)

    async def join(self) -> None:
        """Wait until every item put so far is handled."""
        if self._unfinished:
            joiner = asyncio.get_running_loop().create_future()
            self._joiners.append(joiner)
            await joiner
