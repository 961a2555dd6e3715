"""Two real server processes on one Redis: either one serves any room's clients."""

from __future__ import annotations

import asyncio
import signal
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.lib import Client
from server.store import codec
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.drive import MATCH_TIMEOUT_S, play, view_where

SHORT = {"length": "short"}
LEASE_MS = 1500  # a dead process's rooms are taken over that soon


def rooms_live(server: ServerProcess) -> int:
    """How many rooms the process runs itself, from its /metrics."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith("zashiki_rooms_live "):
                return int(float(line.split()[1]))
    raise AssertionError("no zashiki_rooms_live in /metrics")


@pytest.fixture
def servers(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Processes A and B, both with a short room lease."""
    monkeypatch.setenv("ZASHIKI_LEASE_MS", str(LEASE_MS))
    a = ServerProcess(redis_url, tmp_path / "a.log")
    b = ServerProcess(redis_url, tmp_path / "b.log")
    a.start()
    try:
        b.start()
        yield a, b
    finally:
        a.stop()
        if b.proc is not None:
            b.stop()


async def test_a_room_run_by_a_is_played_through_b_and_survives_a_dying(
    servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = servers
    host = await Client(a.url).create_room(
        "usunoro", seats=["host", "open", "cpu", "cpu"], options=SHORT
    )
    through_b = Client(b.url)
    friend = await through_b.take_seat(host.code)
    await through_b.start(host.code, host.token)
    assert (rooms_live(a), rooms_live(b)) == (1, 0)
    conns = [await through_b.connect(host.code, [s.token], record=True) for s in (host, friend)]
    players = [asyncio.create_task(play(conn)) for conn in conns]
    try:
        # Some moves relayed through B to the room A runs...
        start = await view_where(conns[1], lambda m: m["view"]["phase"] == "passing")
        before = await view_where(conns[1], lambda m: m["version"] >= start["version"] + 4)
        assert before["view"]["phase"] == "passing", "the round ended too soon to test"
        assert (rooms_live(a), rooms_live(b)) == (1, 0)
        a.stop(signal.SIGKILL)  # ...then A dies mid-round, its lease left to lapse
        lasts = await asyncio.wait_for(asyncio.gather(*players), MATCH_TIMEOUT_S)
    finally:
        for task in players:
            task.cancel()
        for conn in conns:
            await conn.close()
    assert all(conn.reconnects >= 1 for conn in conns)
    assert rooms_live(b) == 1
    assert [last["room"]["status"] for last in lasts] == ["over", "over"]
    assert lasts[0]["version"] > before["version"]
    places = lasts[0]["outcome"]["places"]
    assert sorted(places)[0] == 1 and len(places) == 4
    summary = await through_b.room(host.code)
    assert summary["status"] == "over"
    assert b.stop() in CLEAN_EXIT, b.output()
    # Every view a client saw had been saved: B went on from there, nothing lost.
    for conn in conns:
        frames = [codec.unpack(raw) for raw in conn.raw or []]
        welcomes = [i for i, frame in enumerate(frames) if frame["t"] == "welcome"]
        assert len(welcomes) >= 2
        seen = [f for f in frames[: welcomes[-1]] if f["t"] == "view"][-1]
        resumed = frames[welcomes[-1] + 1]
        assert resumed["t"] == "view" and resumed["version"] >= seen["version"]
        if resumed["version"] == seen["version"]:
            assert resumed["view"] == seen["view"]
