"""What a move costs when the client's process is not the one running the room.

    python3 -m tests.bench.bench_relay [--moves 3000] [--rooms 1 20]

Two room managers in this process (A and B, as two server processes would be) on one
Redis, each with its own store connections and bus. Rooms of four human seats and one
spectator are made on A. In "local" every attachment is on A; in "relayed" the spectator
is on A (so A keeps the room) and the seats are attached through B (relayed over Redis
pub/sub); in "handed" everything is attached through B, so the first attach moves the
room to B (handover) and the moves are local there. Moves go round-robin over the rooms,
each awaited before the next in its room, all rooms at once. Prints moves/s, mean and
p99 latency from move() to its answer (the view carrying the ack already delivered), and
process CPU per move (A's and B's work together). Uses REDIS_URL if set (a
redis+cluster:// one too: sharded pub/sub), else starts its own redis-server.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from typing import Any

from server.rooms.actor.clock import RealClock
from server.rooms.manager import Attached, Attachment, RoomManager
from server.store.cluster_bus import redis_bus
from server.store.redis_store import RedisStore
from tests.bench.bench_load import next_move
from tests.bench.bench_store import redis_server


class Seat:
    """One seat's attachment and the latest message it was sent."""

    def __init__(self) -> None:
        self.att: Attached | None = None
        self.message: dict[str, Any] | None = None
        self.seq = 0

    def listen(self, message: dict[str, Any]) -> None:
        """The listener: keep the message for the next move."""
        if message["t"] == "view":
            self.message = message


async def manager(url: str, prefix: str, name: str) -> RoomManager:
    """A started manager with its own store and bus, like one server process."""
    store = RedisStore(url, prefix=prefix)
    await store.start()
    made = RoomManager(store, RealClock(), instance_id=name, bus=redis_bus(url, prefix=prefix))
    await made.start()
    return made


async def open_room(a: RoomManager, b: RoomManager, n: int, mode: str) -> list[Seat]:
    """A started Usunoro room of four humans made on A, attached as `mode` says."""
    code, _, host = await a.create_room("usunoro", {}, ["host", "open", "open", "open"], seed=n)
    tokens = [host] + [(await a.take_seat(code, s, f"p{s}"))[1] for s in (1, 2, 3)]
    await a.start_match(code, host)
    via = a if mode == "local" else b
    if mode != "handed":
        await a.attach(code, [], Seat().listen)
    seats = []
    for token in tokens:
        made = Seat()
        made.att = await via.attach(code, [token], made.listen)
        made.att.shown()
        seats.append(made)
    if mode == "handed":
        await b.attach(code, [], Seat().listen)
    # Make sure each mode measures what it says: relayed moves, or local ones.
    assert all(isinstance(seat.att, Attachment) == (mode != "relayed") for seat in seats)
    return seats


async def play(room: list[Seat], moves: int, latencies: list[float]) -> None:
    """Make `moves` moves in one room, one after another, timing each."""
    done = 0
    while done < moves:
        seat_no = random.randrange(4)
        seat = room[seat_no]
        action = next_move(seat.message, seat_no)
        if action is None or seat.att is None:
            await asyncio.sleep(0)
            continue
        seat.seq += 1
        started = time.perf_counter()
        await seat.att.move(seat_no, seat.seq, action)
        latencies.append(time.perf_counter() - started)
        done += 1


async def bench(url: str, mode: str, rooms_n: int, moves: int) -> str:
    """One run: figures for `moves` moves over `rooms_n` rooms."""
    prefix = f"bench{uuid.uuid4().hex[:8]}:"
    a, b = await manager(url, prefix, "a"), await manager(url, prefix, "b")
    rooms = [await open_room(a, b, n, mode) for n in range(rooms_n)]
    per_room = moves // rooms_n
    await asyncio.gather(*(play(room, 20, []) for room in rooms))  # warm up
    latencies: list[float] = []
    cpu, began = time.process_time(), time.perf_counter()
    await asyncio.gather(*(play(room, per_room, latencies) for room in rooms))
    spent, cpu = time.perf_counter() - began, time.process_time() - cpu
    for made in (b, a):
        await made.aclose()
        assert made.relay is not None
        await made.relay.bus.aclose()
        await made.store.aclose()
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(latencies) / spent:7.0f} moves/s  mean {statistics.mean(latencies) * 1e3:6.2f} ms"
        f"  p99 {p99 * 1e3:6.2f} ms  CPU {cpu / len(latencies) * 1e6:6.0f} us/move"
    )


async def main(args: argparse.Namespace) -> None:
    """Local, relayed and handed over, for each room count."""
    random.seed(1)
    with redis_server() as url:
        for rooms_n in args.rooms:
            for mode in ("local", "relayed", "handed"):
                figures = await bench(url, mode, rooms_n, args.moves)
                print(f"{rooms_n:4d} rooms, {mode:7s} {figures}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 20])
    asyncio.run(main(parser.parse_args()))
