"""A room's input queue: one reader (the room's task), any number of writers.

The part of `asyncio.Queue` a room uses, without its cost on the move path: a
`Queue.get` looks its loop up, makes a future and wraps it in a try per input, and the
unfinished-task count goes through an `Event`. Here an input waiting is a deque append,
and the reader sleeps on one bare future only when nothing waits.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

Item = TypeVar("Item")


class Inbox(Generic[Item]):
    """FIFO of inputs for one reader; `join()` waits until every item is `done()`."""

    __slots__ = ("_items", "_getter", "_unfinished", "_joiners", "_loop")

    def __init__(self) -> None:
        self._items: deque[Item] = deque()
        self._getter: asyncio.Future[None] | None = None
        self._unfinished = 0
        self._joiners: list[asyncio.Future[None]] = []
        # The reader's loop, kept: `asyncio.get_running_loop()` makes a getpid system
        # call in Python 3.11, and the reader sleeps here after nearly every input.
        self._loop: asyncio.AbstractEventLoop | None = None

    def put(self, item: Item) -> None:
        """Add `item`; wakes the reader if it sleeps."""
        self._items.append(item)
        self._unfinished += 1
        getter = self._getter
        if getter is not None:
            self._getter = None
            if not getter.done():
                getter.set_result(None)

    async def get(self) -> Item:
        """The oldest item, once there is one (one reader at a time)."""
        items = self._items
        while not items:
            loop = self._loop
            if loop is None or not loop.is_running():
                loop = self._loop = asyncio.get_running_loop()
            getter = self._getter = loop.create_future()
            try:
                await getter
            finally:
                if self._getter is getter:
                    self._getter = None
        return items.popleft()

    def peek(self) -> Item | None:
        """The oldest item, left in place, or None when nothing waits."""
        return self._items[0] if self._items else None

    def take(self) -> Item | None:
        """The oldest item now, or None when nothing waits."""
        return self._items.popleft() if self._items else None

    def done(self) -> None:
        """One item taken by `get` or `take` is handled."""
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
