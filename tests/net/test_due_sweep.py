"""A days room no process runs is taken up by a real server on its own (rooms/due.py):
after every server stopped, a fresh `zashiki serve` on the same Redis loads the room when
its due time comes, with nobody connecting, logs it at INFO (the code, never a token),
and the room writes its next due time again.

The test cannot wait a day for a seat clock: it makes the room due now in Redis, as the
passing of time would (the virtual-clock tests in tests/rooms/test_due_rooms.py see the
CPU play the timed-out move).
"""

from __future__ import annotations

import time
from pathlib import Path

import redis

from client.lib import Client
from tests.conftest import RedisProcess
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.test_two_processes import rooms_live

DUE_KEY = "zk:due"  # the server's default prefix, on a Redis only this test uses
SWEEP_WAIT_S = 30  # sweeps come every ~5 s (2.5-7.5 s, jittered)


async def test_a_fresh_server_takes_up_a_due_days_room_with_nobody_connecting(
    own_redis: RedisProcess, tmp_path: Path
) -> None:
    first = ServerProcess(own_redis.url, tmp_path / "first.log")
    first.start()
    client = Client(first.url)
    host = await client.create_room(
        "kokuto_rum", seats=["host", "cpu"], clock="days", clock_preset="12h+1d"
    )
    await client.start(host.code, host.token)
    db = redis.Redis.from_url(own_redis.url)
    runs_out_ms = time.time() * 1000 + 36 * 3_600_000
    deadline = time.monotonic() + 10
    while (at := db.zscore(DUE_KEY, host.code)) is None or at < runs_out_ms - 60_000:
        assert time.monotonic() < deadline, f"never listed by its clock: {at}"
        time.sleep(0.1)
    assert first.stop() in CLEAN_EXIT, first.output()
    assert db.get(f"zk:lease:{{{host.code}}}") is None  # no process runs it

    fresh = ServerProcess(own_redis.url, tmp_path / "fresh.log")
    fresh.start()
    time.sleep(8)  # sweeps come and go: the room is not due, so not loaded
    assert rooms_live(fresh) == 0
    db.zadd(DUE_KEY, {host.code: 1})  # its time has come
    deadline = time.monotonic() + SWEEP_WAIT_S
    while rooms_live(fresh) != 1:
        assert time.monotonic() < deadline, fresh.output()
        time.sleep(0.2)
    assert f"room {host.code} woken by the due sweep" in fresh.output()
    assert host.token not in fresh.output()
    # Ticked, the room wrote its real next time back (seat 0's clock), put off no more.
    deadline = time.monotonic() + 10
    while (at := db.zscore(DUE_KEY, host.code)) is None or at < runs_out_ms - 60_000:
        assert time.monotonic() < deadline, f"its next time not written back: {at}"
        time.sleep(0.1)
    assert fresh.stop() in CLEAN_EXIT, fresh.output()
    db.close()
