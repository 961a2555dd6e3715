"""The review worker process runs as many steps lower in priority than the server as
`serve --review-nice` says (review_worker.py), so an operator can keep moves first or give
reviews an equal share; the review it makes is the same."""

from __future__ import annotations

import os

import pytest

from server.games import registry
from server.rooms.history import review
from server.rooms.history.matches import finished_matches
from server.rooms.history.review_worker import NICE, ProcessWorker
from tests.rooms.helpers import Env
from tests.rooms.review_support import finished_room


@pytest.mark.parametrize("nice", [None, 0, 3])
async def test_the_worker_runs_the_given_steps_below_the_server(env: Env, nice: int | None) -> None:
    code, _ = await finished_room(env, "kokuto_rum", seed=5)
    (match,) = finished_matches(await env.store.read_log(code))
    game = registry.get("kokuto_rum")
    worker = ProcessWorker() if nice is None else ProcessWorker(nice)
    try:
        made = await worker.analyse(game, match, lambda done, total: None)
        assert worker.pid is not None, "the process made it and stays for the next review"
        below = os.getpriority(os.PRIO_PROCESS, worker.pid) - os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        await worker.aclose()
    # Priorities stop at 19: a suite run under `nice` sees the worker's capped there.
    base = os.getpriority(os.PRIO_PROCESS, 0)
    assert below == min(19, base + (NICE if nice is None else nice)) - base
    assert made == review.analyse(game, match)
