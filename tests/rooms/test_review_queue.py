"""The review queue (server/rooms/history/review_queue.py): reviews made one at a time, an
ask before those only queued, at most MOST_WAITING waiting, none after the close, the
worker let go when idle; a match that ends in a live room has its review kept without
anyone asking; a worker process that dies mid-review leaves it to a thread
(review_worker.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.games import registry
from server.rooms.errors import RoomError
from server.rooms.history import review, review_queue
from server.rooms.history.archive import Archive, review_key
from server.rooms.history.matches import finished_matches
from server.rooms.history.review_queue import Job, ReviewQueue
from server.rooms.history.review_worker import ProcessWorker
from tests.rooms.helpers import Env, Player
from tests.rooms.review_support import finished_room


class Maker:
    """A queue's `make` that holds each job until the test lets it end."""

    def __init__(self) -> None:
        self.started: list[tuple[str, int]] = []
        self.running = 0
        self.most_running = 0
        self.release: dict[tuple[str, int], asyncio.Event] = {}

    async def make(self, job: Job) -> dict[str, Any]:
        key = (job.code, job.number)
        self.started.append(key)
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        job.progress(1, 3)
        await self.release.setdefault(key, asyncio.Event()).wait()
        self.running -= 1
        return {"match": job.number}

    def end(self, code: str, number: int) -> None:
        self.release.setdefault((code, number), asyncio.Event()).set()


async def idle() -> None:
    """The worker's let-go: nothing to do here."""


async def until(test: Any) -> None:
    """Let the queue's task run until `test()` holds."""
    while not test():
        await asyncio.sleep(0)


async def test_one_at_a_time_and_an_ask_goes_before_the_queued() -> None:
    maker = Maker()
    queue = ReviewQueue(maker.make, idle)
    for number in (1, 2, 3):
        queue.add("AAAA", number)
    await until(lambda: maker.started == [("AAAA", 1)])
    job = queue.ask("AAAA", 3)  # asked: made next, before match 2
    assert job is queue.find("AAAA", 3) and not job.result.done()
    assert queue.find("AAAA", 1) is queue.current and queue.current.done == 1
    maker.end("AAAA", 1)
    await until(lambda: len(maker.started) == 2)
    assert maker.started[1] == ("AAAA", 3)
    maker.end("AAAA", 3)
    assert await job.result == {"match": 3}
    maker.end("AAAA", 2)
    await until(lambda: queue.made == 3)
    assert maker.most_running == 1 and queue.find("AAAA", 2) is None
    await queue.aclose()


async def test_the_oldest_unasked_is_dropped_past_the_bound_and_none_made_after_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(review_queue, "MOST_WAITING", 2)
    maker = Maker()
    queue = ReviewQueue(maker.make, idle)
    queue.add("AAAA", 1)
    await until(lambda: maker.started == [("AAAA", 1)])  # under way: not waiting
    queue.ask("AAAA", 2)
    queue.add("AAAA", 3)
    queue.add("AAAA", 4)  # three waiting: the oldest nobody asked for (3) goes
    assert list(queue.waiting) == [("AAAA", 2), ("AAAA", 4)]
    await queue.aclose()
    with pytest.raises(RoomError, match="server_shutdown"):
        await queue.ask("AAAA", 5).result
    queue.add("AAAA", 6)
    assert maker.started == [("AAAA", 1)] and not queue.waiting


async def test_a_match_that_ends_in_a_live_room_has_its_review_kept_unasked(env: Env) -> None:
    archive = Archive(env.store, registry.get)
    env.manager.on_match_over = archive.match_over
    code, tokens = await env.usunoro(humans=2, seed=9, options={"length": "short"})
    await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.play_out(code)
    (match,) = finished_matches(await env.store.read_log(code))

    async def kept_review() -> dict[str, Any]:
        while (kept := await env.store.review(code, review_key(match))) is None:
            await asyncio.sleep(0.01)  # the queue's worker thread makes it
        return kept

    kept = await asyncio.wait_for(kept_review(), 60)  # a bound for a broken queue only
    answer = await archive.review(code, 1, tokens[0], "0", wait=False)
    assert "status" not in answer and answer["players"] == kept["players"]
    await archive.aclose()


async def test_the_worker_lets_go_when_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_queue, "IDLE_S", 0.01)
    maker, let_go = Maker(), asyncio.Event()

    async def idle() -> None:
        let_go.set()

    queue = ReviewQueue(maker.make, idle)
    queue.add("AAAA", 1)
    maker.end("AAAA", 1)
    await asyncio.wait_for(let_go.wait(), 60)
    await queue.aclose()


async def test_a_worker_process_that_dies_mid_review_leaves_it_to_a_thread(env: Env) -> None:
    code, _ = await finished_room(env, "kokuto_rum", seed=5)
    (match,) = finished_matches(await env.store.read_log(code))
    game = registry.get("kokuto_rum")
    worker = ProcessWorker()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        if not seen and worker._proc is not None:
            worker._proc.kill()  # the worker's first report: it dies at once
        seen.append(done)

    made = await worker.analyse(game, match, progress)
    assert worker.started == 1 and made == review.analyse(game, match)
    assert seen[-1] == len(made["marks"])
    await worker.aclose()
