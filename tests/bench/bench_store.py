"""Save and load figures for a Usunoro room against a real Redis (not a test).

    python -m tests.bench.bench_store [--saves 3000] [--rooms 100 500] [--seconds 3]

Prints: saves/s and mean/p99 save latency for one room saving back to back (single),
for many rooms saving at once (grouped: group commit batches them, with MULTI/EXEC and
with a plain pipeline), load-from-store time (fetch, and fetch + rebuild the room), and
whole room moves (queue, engine, save, four views) per second with their latency. Uses
REDIS_URL if set, else starts its own redis-server like the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from server.rooms.actor.clock import RealClock
from server.rooms.actor.room import Room
from server.rooms.errors import RoomError
from server.rooms.manager import RoomManager
from server.store import codec
from server.store.redis_store import RedisStore
from tests.conftest import free_port, redis_server_binary, wait_for_port


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """REDIS_URL, or a private redis-server for the length of the run."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    binary = redis_server_binary()
    assert binary, "no redis-server found"
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        args = [binary, "--port", str(port), "--dir", workdir, "--save", "", "--appendonly", "no"]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        try:
            wait_for_port(port, proc)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait()


def figures(latencies: list[float], seconds: float) -> str:
    """saves/s, mean and p99 latency in ms."""
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(latencies) / seconds:9.0f} saves/s  mean {statistics.mean(latencies) * 1e3:6.2f} ms"
        f"  p99 {p99 * 1e3:6.2f} ms"
    )


async def sample_room(url: str) -> tuple[bytes, dict[str, Any]]:
    """The blob of a Usunoro room a few seconds into a match, and one log entry."""
    store = RedisStore(url, prefix=f"bench{uuid.uuid4().hex[:6]}:")
    await store.start()
    manager = RoomManager(store, RealClock(), instance_id="bench")
    code, _, token = await manager.create_room("usunoro", {}, ["host", "cpu", "cpu", "cpu"])
    att = await manager.attach(code, [token], lambda message: None)
    await manager.start_match(code, token)
    await att.move(0, 1, {"type": "grab"})  # an early grab: the round is over, state full
    stored = await store.load(code)
    await manager.aclose()
    await store.aclose()
    assert stored is not None
    return stored.blob, {"k": "m", "s": 0, "a": {"type": "mark", "card": "S1"}, "t": 1234}


async def bench_single(url: str, blob: bytes, entry: dict[str, Any], saves: int) -> str:
    store = RedisStore(url, prefix=f"bench{uuid.uuid4().hex[:6]}:")
    await store.start()
    await store.create("ONE", blob)
    latencies = []
    began = time.perf_counter()
    for version in range(2, saves + 2):
        t0 = time.perf_counter()
        await store.save("ONE", version, blob, [entry])
        latencies.append(time.perf_counter() - t0)
    spent = time.perf_counter() - began
    await store.aclose()
    return figures(latencies, spent)


async def bench_grouped(
    url: str, blob: bytes, entry: dict[str, Any], rooms: int, seconds: float, transaction: bool
) -> str:
    store = RedisStore(url, prefix=f"bench{uuid.uuid4().hex[:6]}:", transaction=transaction)
    await store.start()
    codes = [f"R{i}" for i in range(rooms)]
    for code in codes:
        await store.create(code, blob)
    latencies, spent = await saving(store.save, codes, blob, entry, seconds)
    await store.aclose()
    return figures(latencies, spent)


async def saving(
    save: Callable[..., Awaitable[None]],
    codes: list[str],
    blob: bytes,
    entry: dict[str, Any],
    seconds: float,
) -> tuple[list[float], float]:
    """Each room of `codes` (created at version 1) saving `blob` and `entry` back to back
    for `seconds` through `save(code, version, blob, log)`: every save's latency, and the
    time it all took."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def room(code: str) -> None:
        version = 1
        while time.perf_counter() < stop:
            version += 1
            t0 = time.perf_counter()
            await save(code, version, blob, [entry])
            latencies.append(time.perf_counter() - t0)

    began = time.perf_counter()
    await asyncio.gather(*(room(c) for c in codes))
    return latencies, time.perf_counter() - began


async def bench_load(url: str, blob: bytes, count: int) -> str:
    store = RedisStore(url, prefix=f"bench{uuid.uuid4().hex[:6]}:")
    await store.start()
    await store.create("LOAD", blob)
    manager = RoomManager(store, RealClock(), instance_id="bench")
    deps = manager.room_deps("usunoro")
    fetch, rebuild = [], []
    for _ in range(count):
        t0 = time.perf_counter()
        stored = await store.load("LOAD")
        t1 = time.perf_counter()
        assert stored is not None
        Room.from_stored(stored, deps)
        t2 = time.perf_counter()
        fetch.append(t1 - t0)
        rebuild.append(t2 - t0)
    await store.aclose()
    return (
        f"fetch mean {statistics.mean(fetch) * 1e3:.3f} ms; fetch + rebuild room mean "
        f"{statistics.mean(rebuild) * 1e3:.3f} ms (blob {len(blob)} bytes)"
    )


async def bench_room_moves(url: str, rooms: int, seconds: float) -> str:
    """Four humans per room, each on its own connection, marking cards as fast as acked.

    Every move goes through the room's queue, the engine, a save and four views.
    """
    store = RedisStore(url, prefix=f"bench{uuid.uuid4().hex[:6]}:")
    await store.start()
    manager = RoomManager(store, RealClock(), instance_id="bench")
    players = []
    for _ in range(rooms):
        code, _, host = await manager.create_room("usunoro", {}, ["host", "open", "open", "open"])
        tokens = [host] + [(await manager.take_seat(code, None, ""))[1] for _ in range(3)]
        for seat, token in enumerate(tokens):
            views: list[dict[str, Any]] = []
            players.append((seat, await manager.attach(code, [token], views.append), views))
        await manager.start_match(code, host)
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def play(seat: int, att: Any, views: list[dict[str, Any]]) -> None:
        seq = 0
        while time.perf_counter() < stop:
            marks = [a for a in views[-1]["legal"].get(seat, []) if a["type"] == "mark"]
            if not marks:
                await asyncio.sleep(0.01)
                continue
            seq += 1
            t0 = time.perf_counter()
            try:
                await att.move(seat, seq, marks[0])
            except RoomError:
                continue  # the view was a step behind (an exchange ran meanwhile)
            latencies.append(time.perf_counter() - t0)

    began = time.perf_counter()
    await asyncio.gather(*(play(*p) for p in players))
    spent = time.perf_counter() - began
    await manager.aclose()
    await store.aclose()
    return figures(latencies, spent).replace("saves/s", "moves/s")


async def main(args: argparse.Namespace) -> None:
    with redis_server() as url:
        blob, entry = await sample_room(url)
        print(f"Usunoro room blob: {len(blob)} bytes ({len(codec.pack(entry))}-byte log entry)")
        print(f"single room, back to back      {await bench_single(url, blob, entry, args.saves)}")
        for rooms in args.rooms:
            for transaction in (True, False):
                kind = "MULTI/EXEC" if transaction else "pipeline  "
                got = await bench_grouped(url, blob, entry, rooms, args.seconds, transaction)
                print(f"grouped, {rooms:4d} rooms, {kind} {got}")
        print(f"load from store: {await bench_load(url, blob, 500)}")
        for rooms in args.rooms:
            got = await bench_room_moves(url, rooms, args.seconds)
            print(f"room moves, {rooms:4d} rooms          {got}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--saves", type=int, default=3000)
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop")
    options = parser.parse_args()
    if options.uvloop:
        import uvloop

        uvloop.install()
    asyncio.run(main(options))
