"""What an operator reads when a review fails in the worker process (review_worker.py):
each failure one bounded line in the server's logging (text or JSON alike), never a
traceback, whatever the size of the exception's message; the queue counts it as failed
(review_queue.py), and a worker ended by an uncaught exception says why in one line
before its review is made in a thread."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from server.games import registry
from server.logs import LINE_MAX, JsonFormatter, TextFormatter
from server.rooms.history import review
from server.rooms.history.matches import finished_matches
from server.rooms.history.review_queue import Job, ReviewQueue
from server.rooms.history.review_worker import ProcessWorker, ReviewFailed
from tests.rooms.helpers import Env
from tests.rooms.review_support import finished_room

# An exception message of many lines and much data (what a game's state could put there).
HUGE = "a line of the state\n" * 5_000


def explode(message: str) -> None:
    """Raises; what unpickling a `Poisoned` game calls (in the worker process)."""
    raise ValueError(message)


class Failing:
    """A game whose every use fails with HUGE (in the worker as here)."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(HUGE)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Failing, ())


class Poisoned:
    """The real game here; in the worker its unpickling ends the process."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (explode, (HUGE,))


def assert_one_bounded_line_each(records: list[logging.LogRecord]) -> None:
    """Every record is one line within the bound in both log formats, no traceback."""
    assert records
    for record in records:
        assert record.exc_info is None
        for formatter in (TextFormatter(), JsonFormatter()):
            line = formatter.format(record)
            # The message's bound, and what the line adds (time, context, JSON escapes).
            assert "\n" not in line and len(line) < 3 * LINE_MAX, line[:500]


async def test_a_review_failing_in_the_worker_is_one_line_and_counted_failed(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    code, _ = await finished_room(env, "kokuto_rum", seed=5)
    (match,) = finished_matches(await env.store.read_log(code))
    worker = ProcessWorker()

    async def make(job: Job) -> dict[str, Any]:
        return await worker.analyse(Failing(), match, job.progress)  # type: ignore[arg-type]

    async def idle() -> None:
        """Nothing to let go."""

    queue = ReviewQueue(make, idle)
    caplog.set_level(logging.WARNING)
    job = queue.ask(code, 1)
    with pytest.raises(ReviewFailed) as failed:
        await job.result
    assert str(failed.value).startswith("RuntimeError: a line of the state\\n")
    assert "\n" not in str(failed.value)
    assert queue.stats() == {"queued": 0, "running": 0, "made": 0, "failed": 1, "dropped": 0}
    # The process is well: it stays for the next review, nothing on its stderr.
    assert worker.alive and worker.started == 1
    await worker.aclose()
    await queue.aclose()
    records = [r for r in caplog.records if r.name.startswith("server.")]
    assert [r.getMessage()[:30] for r in records] == [f"review of {code} match 1 failed"[:30]]
    assert records[0].room == code and records[0].event == "review_failed"  # type: ignore[attr-defined]
    assert_one_bounded_line_each(records)


async def test_a_worker_ended_by_an_uncaught_exception_says_why_in_one_line(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    code, _ = await finished_room(env, "kokuto_rum", seed=5)
    (match,) = finished_matches(await env.store.read_log(code))
    game = registry.get("kokuto_rum")
    worker = ProcessWorker()
    caplog.set_level(logging.WARNING)
    made = await worker.analyse(Poisoned(game), match, lambda done, total: None)  # type: ignore[arg-type]
    assert made == review.analyse(game, match)  # made in a thread instead
    assert not worker.alive
    records = [r for r in caplog.records if r.name.startswith("server.")]
    said = [r.getMessage() for r in records]
    assert any("worker ended by ValueError: a line of the state\\n" in m for m in said), said
    assert any("process ended (exit code 1)" in m for m in said), said
    assert len(records) == 2, said  # the worker's line, the fallback's line
    assert_one_bounded_line_each(records)
