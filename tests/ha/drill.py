"""What the failover drills share (Sentinel, Cluster): two real server processes, rooms of
four humans played through them as fast as acknowledged, and the count of acknowledged
moves missing from the rooms' logs afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from client.lib import Client, Connection, ZashikiError
from server.store.redis_store import RedisStore
from tests.bench.bench_load import next_move
from tests.net.conftest import ServerProcess

Acked = list[tuple[int, dict[str, Any]]]


@contextlib.asynccontextmanager
async def bounded(what: str, seconds: float) -> AsyncIterator[None]:
    """Fail naming `what` if it takes longer than `seconds` (instead of hanging)."""
    try:
        async with asyncio.timeout(seconds):
            yield
    except TimeoutError:
        raise AssertionError(f"{what} took over {seconds} s") from None


@contextlib.contextmanager
def two_servers(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Processes A and B on the Redis at `url`, with a short lease and `replica` durability
    (DRILL_DURABILITY=primary shows what the drills catch: acknowledged moves lost)."""
    monkeypatch.setenv("ZASHIKI_LEASE_MS", "3000")
    monkeypatch.setenv("ZASHIKI_DURABILITY", os.environ.get("DRILL_DURABILITY", "replica"))
    a = ServerProcess(url, tmp_path / "a.log")
    b = ServerProcess(url, tmp_path / "b.log")
    a.start()
    try:
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


async def player(
    conn: Connection, acked: Acked, stamps: list[float], refused: list[str], stop: asyncio.Event
) -> None:
    """Play every seat of `conn` for as long as it runs: each acknowledged move (seat,
    action) and its time are kept; a refusal (the store failing over) is counted and the move chosen
    afresh from the next view, as a client would."""
    # Stopped by `stop`, not by cancelling: in Python 3.11 wait_for can swallow a
    # cancellation that comes as the move is answered.
    while not stop.is_set():
        moved = False
        for seat in conn.seats:
            move = next_move(conn.view, seat)
            if move is None:
                continue
            try:
                ack = await asyncio.wait_for(conn.move(move, seat=seat), 20)
            except ZashikiError as exc:
                refused.append(exc.code)
                await asyncio.sleep(0.2)
                continue
            except (TimeoutError, ConnectionError):
                refused.append("no answer")
                continue
            assert ack["seat"] == seat
            acked.append((seat, move))
            stamps.append(time.monotonic())
            moved = True
        if not moved:
            await asyncio.sleep(0.02)


def moves_missing(acked: Acked, log: Acked) -> int:
    """How many of the moves acknowledged are not in `log`: each seat's acknowledged
    moves must be found in its logged moves, in order."""
    missing = 0
    for seat in {s for s, _ in acked}:
        logged = iter(a for s, a in log if s == seat)
        for _, action in (m for m in acked if m[0] == seat):
            if not any(a == action for a in logged):
                missing += 1
                logged = iter(a for s, a in log if s == seat)  # go on from a fresh start
    return missing


async def humans_room(client: Client) -> tuple[str, list[str]]:
    """A started Usunoro room of four humans; its code and the seats' tokens."""
    host = await client.create_room("usunoro", seats=["host", "open", "open", "open"])
    tokens = [host.token] + [(await client.take_seat(host.code)).token for _ in range(3)]
    await client.start(host.code, host.token)
    return host.code, tokens


class Load:
    """`count` rooms made alternately on A and B, each played through the other process
    (two connections a room: a connection holds at most two seats), every connection's
    acknowledged moves and their times kept."""

    def __init__(self) -> None:
        self.rooms: list[tuple[str, list[str]]] = []
        self.conns: list[Connection] = []
        self.acked: list[Acked] = []
        self.stamps: list[list[float]] = []
        self.refused: list[str] = []
        self._stop = asyncio.Event()
        self._players: list[asyncio.Task[None]] = []

    async def start(self, servers: tuple[ServerProcess, ServerProcess], count: int) -> None:
        """Make the rooms and start playing every seat."""
        a, b = servers
        async with bounded("making the rooms", 30):
            self.rooms = [await humans_room(Client((a, b)[i % 2].url)) for i in range(count)]
            self.conns = [
                await Client((b, a)[i % 2].url).connect(code, tokens[half : half + 2])
                for i, (code, tokens) in enumerate(self.rooms)
                for half in (0, 2)
            ]
        self.acked = [[] for _ in self.conns]
        self.stamps = [[] for _ in self.conns]
        self._players = [
            asyncio.create_task(player(c, self.acked[i], self.stamps[i], self.refused, self._stop))
            for i, c in enumerate(self.conns)
        ]

    async def every_room_plays(self, moves: int = 5, timeout: float = 20) -> None:
        """Until every connection has `moves` acknowledged."""
        deadline = time.monotonic() + timeout
        while not all(len(s) >= moves for s in self.stamps):
            assert time.monotonic() < deadline, (
                f"not every room plays: {[len(s) for s in self.stamps]} {self.refused} "
                f"{[c.view and c.view['legal'] for c in self.conns]} "
                f"{[c.seats for c in self.conns]}"
            )
            await asyncio.sleep(0.05)

    async def all_back(self, since: float, bound: float) -> bool:
        """Wait (at most until `since + bound`) for every connection to have a move
        acknowledged after `since`; whether they all did."""

        def back() -> bool:
            return all(s and s[-1] > since for s in self.stamps)

        while not back() and time.monotonic() < since + bound:
            await asyncio.sleep(0.05)
        return back()

    def moves(self) -> int:
        """Moves acknowledged so far."""
        return sum(len(s) for s in self.stamps)

    async def stop(self) -> None:
        """Stop playing and close every connection."""
        self._stop.set()
        async with bounded("closing the connections", 60):
            await asyncio.gather(*self._players, return_exceptions=True)
            for conn in self.conns:
                await conn.close()

    async def lost(self, url: str) -> int:
        """How many acknowledged moves the rooms' logs in the Redis at `url` miss."""
        lost = 0
        reader = RedisStore(url, durability="primary")
        async with bounded("reading the logs", 30):
            await reader.start()
            for i, (code, _) in enumerate(self.rooms):
                log = [(e["s"], e["a"]) for e in await reader.read_log(code) if e["k"] == "m"]
                lost += moves_missing(self.acked[2 * i] + self.acked[2 * i + 1], log)
            await reader.aclose()
        return lost
