"""The process's queue of reviews to make, one at a time.

A review (review.py) is queued when a match run here ends (`add`), so it is usually
kept in the store before anyone asks, and when someone asks for one not made yet
(`ask`: to the front, so an asker waits for at most the review under way). One job at a
time is made, by the archive's `make` (in the worker process: review_worker.py); while
it is, `Job.done` and `Job.total` say how far it is. The queue lives in this process
only: a restart or a room's handover loses what was still waiting, and the review is
then made when first asked (the archive's on-demand path). At most `MOST_WAITING` wait:
past that the oldest nobody asked for is dropped (made on demand if ever wanted).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from server.logs import one_line
from server.rooms.errors import RoomError

log = logging.getLogger(__name__)

MOST_WAITING = 200
STOPPING = "this server is stopping; ask again"
IDLE_S = 120.0
"""With nothing to make for this long, the worker lets go of its process."""


@dataclass
class Job:
    """One review to make: room `code`'s match `number`, and how far its making is."""

    code: str
    number: int
    done: int = 0  # moves marked so far
    total: int | None = None  # moves to mark, once the making began
    asked: bool = False  # someone waits for it (never dropped)
    result: asyncio.Future[dict[str, Any]] = field(default_factory=lambda: _future())

    def progress(self, done: int, total: int) -> None:
        """The worker's report: `done` of `total` moves marked."""
        self.done, self.total = done, total


Make = Callable[[Job], Awaitable[dict[str, Any]]]


class ReviewQueue:
    """Jobs waiting in order, the one under way, and the task making them."""

    def __init__(self, make: Make, idle: Callable[[], Awaitable[None]]) -> None:
        self.make = make
        self.idle = idle  # called after IDLE_S without a job
        self.waiting: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self.current: Job | None = None
        # Figures for /metrics (and tests): jobs made (or found made in the store),
        # failed, and dropped from the waiting line past MOST_WAITING.
        self.made = 0
        self.failed = 0
        self.dropped = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def add(self, code: str, number: int) -> None:
        """Queue room `code`'s match `number` at the back (a match just ended)."""
        if not self._closed and self.find(code, number) is None:
            self.waiting[(code, number)] = Job(code, number)
            self._bound()
            self._start()

    def ask(self, code: str, number: int) -> Job:
        """The job of a review someone waits for, queued first if not under way (its
        result fails with server_shutdown once the queue is closed)."""
        job = self.find(code, number) or Job(code, number)
        job.asked = True
        if self._closed:
            job.result.set_exception(RoomError("server_shutdown", STOPPING))
        elif job is not self.current:
            self.waiting[(code, number)] = job
            self.waiting.move_to_end((code, number), last=False)
            self._start()
        return job

    def find(self, code: str, number: int) -> Job | None:
        """The job of that review, waiting or under way, if any."""
        current = self.current
        if current is not None and (current.code, current.number) == (code, number):
            return current
        return self.waiting.get((code, number))

    def _bound(self) -> None:
        while len(self.waiting) > MOST_WAITING:
            oldest = next((k for k, j in self.waiting.items() if not j.asked), None)
            if oldest is None:
                return
            self.waiting.pop(oldest).result.cancel()
            self.dropped += 1

    def _start(self) -> None:
        self._wake.set()
        if self._task is None and not self._closed:
            self._task = asyncio.create_task(self._run(), name="review-queue")

    async def _run(self) -> None:
        """Make the waiting reviews, first to last, one at a time."""
        while True:
            if not self.waiting:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), IDLE_S)
                except TimeoutError:
                    await self.idle()
                    continue
            _, job = self.waiting.popitem(last=False)
            self.current = job
            try:
                made = await self.make(job)
            except Exception as exc:  # noqa: BLE001 - the asker gets it; the queue goes on
                self.failed += 1
                # One bounded line: an asker only polls again, so this is where it shows.
                log.warning(
                    "review of %s match %d failed: %s",
                    job.code,
                    job.number,
                    one_line(exc),
                    extra={"room": job.code, "event": "review_failed"},
                )
                job.result.set_exception(exc)
            else:
                self.made += 1
                job.result.set_result(made)
            finally:
                self.current = None

    def stats(self) -> dict[str, int]:
        """The queue's figures: jobs waiting and under way now; made, failed and dropped
        since the process started."""
        return {
            "queued": len(self.waiting),
            "running": int(self.current is not None),
            "made": self.made,
            "failed": self.failed,
            "dropped": self.dropped,
        }

    async def aclose(self) -> None:
        """Stop making reviews (the one under way and those waiting are given up)."""
        self._closed = True
        for job in [*self.waiting.values(), *filter(None, [self.current])]:
            if not job.result.done():
                job.result.set_exception(RoomError("server_shutdown", STOPPING))
        self.waiting.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def _future() -> asyncio.Future[dict[str, Any]]:
    """A job's result; its failure marked seen, so one nobody awaited logs nothing."""
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    future.add_done_callback(lambda f: f.cancelled() or f.exception())
    return future
