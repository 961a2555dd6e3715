"""Stopping a server while its Redis is down (issue 46, finding 5): every room is stopped,
the store gets a bounded wait, the rooms it did not take are named in the log, and the
process exits cleanly instead of failing at the first room."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

from client.lib import Client
from tests.conftest import RedisProcess
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.test_hardening import hello

ROOMS = 3


async def test_shutdown_during_an_outage_stops_every_room_and_exits(
    own_redis: RedisProcess, tmp_path: Path
) -> None:
    server = ServerProcess(own_redis.url, tmp_path / "server.log")
    server.start()
    try:
        client = Client(server.url)
        codes, conns = [], []
        for _ in range(ROOMS):
            # CPUs at three seats keep moving, so saves are under way when Redis goes.
            host = await client.create_room(
                "usunoro", seats=["host", "cpu", "cpu", "cpu"], options={"length": "short"}
            )
            # A raw connection (no reconnecting once the server is gone) keeps game time on.
            conns.append(await hello(server, host.code, [host.token]))
            await client.start(host.code, host.token)
            codes.append(host.code)
        own_redis.stop()
        await asyncio.sleep(1.5)  # saves fail and are retried meanwhile
        began = time.monotonic()
        code = server.stop(signal.SIGTERM)
        took = time.monotonic() - began
    finally:
        for conn in conns:
            await conn.close()
        server.stop(signal.SIGKILL)
    log = server.output()
    print(f"\nshutdown during a Redis outage took {took:.1f} s")
    assert code in CLEAN_EXIT, log[-3000:]
    assert "Application shutdown failed" not in log and "Traceback" not in log, log[-3000:]
    stopped = log[log.index("room " + codes[0]) :]
    for room in codes:
        assert room in stopped, (room, stopped[-3000:])  # each stopped, or named unsaved
    assert "store closed" in stopped, stopped[-3000:]
