"""Wall-clock time for rooms, real or virtual, so room tests run without sleeping.

Rooms derive game time from this clock (game time runs only while a room runs). A clock
tells the time in milliseconds and calls a callback at a given time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable


class TimerHandle:
    """A scheduled callback; `cancel()` stops it from firing."""

    __slots__ = ("cancelled", "_inner")

    def __init__(self, inner: asyncio.TimerHandle | None = None) -> None:
        self.cancelled = False
        self._inner = inner

    def cancel(self) -> None:
        """Do not fire (no effect if it already fired)."""
        self.cancelled = True
        if self._inner is not None:
            self._inner.cancel()


class Clock:
    """The clock interface rooms are given."""

    def now(self) -> float:
        """Current time in milliseconds (monotonic)."""
        raise NotImplementedError

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> TimerHandle:
        """Call `callback()` once `now() >= when_ms`."""
        raise NotImplementedError


class RealClock(Clock):
    """An event loop's monotonic clock: `loop`'s, else the running loop's at each call.

    Give the loop when the clock lives as long as it (the server does): finding the
    running loop costs a getpid() system call, and rooms read the clock several times
    per move.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop

    def now(self) -> float:
        return (self._loop or asyncio.get_running_loop()).time() * 1000.0

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> TimerHandle:
        loop = self._loop or asyncio.get_running_loop()
        return TimerHandle(loop.call_at(when_ms / 1000.0, callback))


class VirtualClock(Clock):
    """Time moves only when a test says so; timers fire in time order, ties in call order."""

    def __init__(self, start_ms: float = 0.0) -> None:
        self._now = start_ms
        self.timers_set = 0  # for tests that count the timers rooms set
        self._heap: list[tuple[float, int, TimerHandle, Callable[[], None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> TimerHandle:
        handle = TimerHandle()
        self.timers_set += 1
        heapq.heappush(self._heap, (when_ms, next(self._counter), handle, callback))
        return handle

    def next_due(self) -> float | None:
        """Time of the earliest pending timer, if any."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def advance(self, ms: float, settle: Callable[[], Awaitable[None]] | None = None) -> None:
        """Move time forward by `ms`, firing due timers one by one.

        After each firing (and once at the start) `settle()` is awaited, so whatever the
        callback started (a room handling a timer input) finishes at that instant.
        """
        target = self._now + ms
        if settle is not None:
            await settle()
        while True:
            due = self.next_due()
            if due is None or due > target:
                break
            _, _, handle, callback = heapq.heappop(self._heap)
            self._now = max(self._now, due)
            callback()
            if settle is not None:
                await settle()
        self._now = target
