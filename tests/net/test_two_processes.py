"""Two real server processes on one Redis: either one serves any room's clients.

A room moves to the process its clients connect through, unless someone is connected
where it runs; the first test keeps a spectator connected to A so that A keeps it.
"""

from __future__ import annotations

import asyncio
import signal
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from client.lib import Client, Connection
from server.store import codec
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.drive import MATCH_TIMEOUT_S, play

# A dead process's rooms are taken over that soon. Renewed every third of it, a lease
# still outlasts a two-second stall of a busy CI machine (at 1.5 s one lapsed once).
LEASE_MS = 3000


def metric(server: ServerProcess, name: str) -> int:
    """One figure of the process's /metrics (`name` with its labels, if any)."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(name + " "):
                return int(float(line.split()[1]))
    raise AssertionError(f"no {name} in /metrics")


def rooms_live(server: ServerProcess) -> int:
    """How many rooms the process runs itself."""
    return metric(server, "zashiki_rooms_live")


def where_live(a: ServerProcess, b: ServerProcess) -> tuple[int, int]:
    """How many rooms A and B each run."""
    return rooms_live(a), rooms_live(b)


def logs(*servers: ServerProcess) -> str:
    """The processes' logs, for a failure's message."""
    return "\n".join(f"-- {s.url}:\n{s.output()}" for s in servers)


def relay_figures(server: ServerProcess) -> tuple[int, ...]:
    """Links relayed out and served in; rooms handed over, and handed to it."""
    return tuple(
        metric(server, name)
        for name in (
            "zashiki_relay_links_out",
            "zashiki_relay_links_in",
            'zashiki_room_handovers_total{way="given"}',
            'zashiki_room_handovers_total{way="taken"}',
        )
    )


async def spectate(server: ServerProcess, code: str) -> ClientConnection:
    """A bare spectator socket (one that never reconnects), welcomed by `server`."""
    ws = await connect(server.url.replace("http", "ws", 1) + f"/ws?room={code}")
    await ws.send(codec.pack({"t": "hello", "tokens": []}))
    assert codec.unpack(await ws.recv())["t"] == "welcome"
    return ws


@pytest.fixture(params=["redis", "sentinel", "cluster"])
def servers(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Processes A and B, both with a short room lease, on one Redis, on Sentinel or on a
    Redis Cluster."""
    redis_url = request.getfixturevalue(f"{request.param}_url")
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


async def latest_where(conn: Connection, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Wait until the newest view passes `test` (without taking views from the player)."""
    async with asyncio.timeout(MATCH_TIMEOUT_S):
        while conn.view is None or not test(conn.view):
            await asyncio.sleep(0.01)
    return conn.view


async def test_a_room_run_by_a_is_played_through_b_and_survives_a_dying(
    servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = servers
    host = await Client(a.url).create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    through_b = Client(b.url)
    friend = await through_b.take_seat(host.code)
    await through_b.start(host.code, host.token)
    assert where_live(a, b) == (1, 0), logs(a, b)
    watcher = await spectate(a, host.code)  # A keeps the room while someone is there
    conns = [await through_b.connect(host.code, [s.token], record=True) for s in (host, friend)]
    assert relay_figures(a)[1] == 2 and relay_figures(b)[0] == 2
    players = [asyncio.create_task(play(conn)) for conn in conns]
    try:
        # Moves relayed through B to the room A runs, until a round is well under way...
        first = await latest_where(conns[1], lambda m: m["room"]["status"] == "playing")
        before = await latest_where(
            conns[1],
            lambda m: m["version"] >= first["version"] + 4 and m["view"]["phase"] == "passing",
        )
        assert where_live(a, b) == (1, 0), logs(a, b)
        a.stop(signal.SIGKILL)  # ...then A dies mid-round, its lease left to lapse
        round_no = before["view"]["round"]
        # B takes the room over and the round is played to its end.
        last = await latest_where(
            conns[1],
            lambda m: m["view"]["round"] > round_no or m["view"]["phase"] in ("done", "void"),
        )
    finally:
        for task in players:
            task.cancel()
        outcomes = await asyncio.gather(*players, return_exceptions=True)
        for conn in conns:
            await conn.close()
        watcher.transport.abort()
    # Both players played on through the failover: no move was refused for it.
    assert [o for o in outcomes if isinstance(o, Exception)] == []
    assert all(conn.reconnects >= 1 for conn in conns)
    assert rooms_live(b) == 1
    assert last["version"] > before["version"]
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
    assert b.stop() in CLEAN_EXIT, b.output()


async def test_a_room_created_on_a_moves_to_b_when_its_client_connects_through_b(
    servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = servers
    host = await Client(a.url).create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    await Client(a.url).start(host.code, host.token)
    assert where_live(a, b) == (1, 0), logs(a, b)
    conn = await Client(b.url).connect(host.code, [host.token])
    player = asyncio.create_task(play(conn))
    try:
        first = await latest_where(conn, lambda m: True)
        last = await latest_where(conn, lambda m: m["version"] >= first["version"] + 6)
    finally:
        player.cancel()
        outcome = (await asyncio.gather(player, return_exceptions=True))[0]
        await conn.close()
    assert not isinstance(outcome, Exception)  # played on (cancelled here, or done)
    # B runs the room and serves the client itself: nothing relayed, no reconnect.
    assert where_live(a, b) == (0, 1), logs(a, b)
    assert relay_figures(a) == (0, 0, 1, 0) and relay_figures(b) == (0, 0, 0, 1)
    assert conn.reconnects == 0 and conn.errors == []
    assert last["room"]["status"] in ("playing", "over")
