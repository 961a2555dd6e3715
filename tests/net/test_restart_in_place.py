"""A server killed with SIGKILL and started again in place (the same port, so the same
default node id, on the same Redis, default options) serves its rooms again at once: it
takes back its own leases instead of waiting them out (issue 46, finding 7).

Measured, not asserted on time: from each SIGKILL to the first acknowledged move in each
room (a move sent right after the kill, which the client resends once it reconnects).
The figures print; the test asserts only that every move is acknowledged, each once.
"""

from __future__ import annotations

import asyncio
import signal
import statistics
import time
from pathlib import Path

from client.lib import Client, Connection
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.drive import view_where

ROOMS = 4
RESTARTS = 5


async def legal_move(conn: Connection, version: int) -> tuple[int, dict]:  # type: ignore[type-arg]
    """A seat of `conn` with a legal move in a view of `version` or later, and that move."""
    view = await view_where(conn, lambda v: v["version"] >= version and any(v["legal"].values()))
    seat, legal = next((s, moves) for s, moves in view["legal"].items() if moves)
    return seat, legal[0]


async def acked(conn: Connection, seat: int, move: dict, since: float) -> tuple[float, int]:  # type: ignore[type-arg]
    """Seconds from `since` until `move` is acknowledged, and the version it made."""
    answer = await conn.move(move, seat=seat)
    return time.monotonic() - since, answer["version"]


async def test_a_restart_in_place_serves_the_rooms_again_at_once(
    redis_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(redis_url, tmp_path / "server.log")
    server.start()
    client = Client(server.url)
    conns: list[Connection] = []
    for _ in range(ROOMS):
        host = await client.create_room("kokuto_rum", seats=["host", "open"])
        guest = await client.take_seat(host.code)
        conns.append(await client.connect(host.code, [host.token, guest.token]))
        await client.start(host.code, host.token)
    versions = [0] * ROOMS
    waits: list[float] = []
    try:
        for _ in range(RESTARTS):
            moves = [await legal_move(conn, v) for conn, v in zip(conns, versions, strict=True)]
            server.stop(signal.SIGKILL)
            killed = time.monotonic()
            server.start()
            sent = (acked(c, s, m, killed) for c, (s, m) in zip(conns, moves, strict=True))
            done = await asyncio.wait_for(asyncio.gather(*sent), 60)
            waits += [wait for wait, _ in done]
            versions = [version for _, version in done]
    finally:
        for conn in conns:
            await conn.close()
        assert server.stop() in CLEAN_EXIT, server.output()
    waits.sort()
    print(
        f"\nrestart in place (default options, {RESTARTS} SIGKILLs x {ROOMS} rooms): first"
        f" acknowledged move after p50 {statistics.median(waits):.2f} s,"
        f" max {waits[-1]:.2f} s (the server's own start included)"
    )
    assert len(waits) == ROOMS * RESTARTS
