"""A server told to stop (SIGTERM) drains: it stops every room it runs with its lease
given up, so another process on the same Redis serves them at once. The lease here lasts
ten minutes, so only the drain can explain a room served again within seconds (the
refusals and the clients told: tests/rooms/test_drain.py)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.lib import Client, Connection
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.players import choose

LEASE_MS = 600_000


@pytest.fixture
def servers(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Processes A and B on one Redis, with a lease no test waits out."""
    monkeypatch.setenv("ZASHIKI_LEASE_MS", str(LEASE_MS))
    pair = (
        ServerProcess(redis_url, tmp_path / "a.log"),
        ServerProcess(redis_url, tmp_path / "b.log"),
    )
    try:
        for proc in pair:
            proc.start()
        yield pair
    finally:
        for proc in pair:
            if proc.alive():
                proc.stop()


async def next_version(conn: Connection, after: int) -> int:
    """Play the connection's seat until a view past version `after` arrives."""
    async for message in conn.views():
        await conn.send({"t": "shown", "version": message["version"]})
        if message["version"] > after:
            return int(message["version"])
        move = choose(message["view"], message["legal"].get(conn.seats[0], []))
        if move is not None:
            await conn.move(move)
    raise ConnectionError("closed")


async def test_a_stopping_server_hands_its_rooms_to_another_at_once(
    servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = servers
    on_a = Client(a.url)
    host = await on_a.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    await on_a.start(host.code, host.token)
    async with await on_a.connect(host.code, [host.token]) as conn:
        seen = await asyncio.wait_for(next_version(conn, 0), 30)
    assert a.proc is not None
    a.proc.send_signal(signal.SIGTERM)
    assert await asyncio.to_thread(a.proc.wait, 30) in CLEAN_EXIT, a.output()
    # A is gone; through B the room plays on, without its lease lapsing.
    async with await Client(b.url).connect(host.code, [host.token]) as again:
        later = await asyncio.wait_for(next_version(again, seen), 10)
    assert later > seen
    assert "drained: 1 rooms" in a.output() and "taken over" in b.output()
