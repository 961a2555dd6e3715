"""/metrics as a Prometheus user reads it: HELP and TYPE for every series, the process
figures (CPU, memory, file descriptors, start time) of the live server, and the review
queue's figures before and after a review is made."""

from __future__ import annotations

import time

import httpx

from tests.net.conftest import ServerProcess
from tests.net.test_review_ws import made
from tests.rooms.finished import finished_usunoro_room

PROCESS = (
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
    "process_virtual_memory_bytes",
    "process_open_fds",
    "process_max_fds",
    "process_start_time_seconds",
)


def test_every_series_has_help_and_type_and_the_process_figures_are_there(
    server: ServerProcess,
) -> None:
    text = httpx.get(server.url + "/metrics").text
    lines = text.splitlines()
    helped = {ln.split()[2] for ln in lines if ln.startswith("# HELP ")}
    typed = [ln.split()[2] for ln in lines if ln.startswith("# TYPE ")]
    assert typed and set(typed) <= helped, set(typed) - helped
    values = {ln.split()[0]: float(ln.split()[1]) for ln in lines if ln.startswith("process_")}
    assert set(values) == set(PROCESS)
    assert values["process_cpu_seconds_total"] > 0
    assert values["process_resident_memory_bytes"] > 10 * 2**20  # a Python server's RSS
    assert values["process_virtual_memory_bytes"] >= values["process_resident_memory_bytes"]
    assert 3 <= values["process_open_fds"] <= values["process_max_fds"]
    assert server.proc is not None
    # It started before this test and at most as long ago as the test module's server.
    assert time.time() - 600 < values["process_start_time_seconds"] < time.time()


REVIEWS = (
    "zashiki_reviews_queued",
    "zashiki_reviews_running",
    "zashiki_reviews_made_total",
    "zashiki_reviews_failed_total",
    "zashiki_reviews_dropped_total",
    "zashiki_review_worker_alive",
)


def review_figures(server: ServerProcess) -> dict[str, float]:
    """The review queue's series as /metrics shows them now."""
    lines = httpx.get(server.url + "/metrics").text.splitlines()
    return {ln.split()[0]: float(ln.split()[1]) for ln in lines if ln.startswith(REVIEWS)}


async def test_the_review_queue_figures_count_a_review_made_by_the_worker(
    server: ServerProcess, redis_url: str
) -> None:
    before = review_figures(server)
    assert set(before) == set(REVIEWS)
    assert before["zashiki_reviews_queued"] == before["zashiki_reviews_running"] == 0
    assert before["zashiki_review_worker_alive"] == 0  # started at the first review
    # A match played elsewhere: its review is made here when first asked.
    code, (aki, _) = await finished_usunoro_room(redis_url, humans=2, seed=43)
    assert (await made(server.port, code, aki, "0"))[-1][0] == 200
    after = review_figures(server)
    assert after["zashiki_reviews_made_total"] == before["zashiki_reviews_made_total"] + 1
    assert after["zashiki_reviews_queued"] == after["zashiki_reviews_running"] == 0
    assert after["zashiki_reviews_failed_total"] == before["zashiki_reviews_failed_total"]
    assert after["zashiki_reviews_dropped_total"] == before["zashiki_reviews_dropped_total"]
    # Made in the worker process, which stays for the next review until 120 s idle.
    assert after["zashiki_review_worker_alive"] == 1
