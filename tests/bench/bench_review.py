"""Review (感想戦) figures per game (not a test).

    python -m tests.bench.bench_review [--game ID] [--seed 7] [--latency]

Plays one match of each game in a room on the in-process store (seat 2 a scripted human
making random legal moves, easy CPUs elsewhere, virtual clock;
tests/rooms/history_support.py), then makes its review once (`review.analyse`, what the
server's review worker process runs when a match ends or a review is first asked) and
prints: the human
moves marked, how many the CPU differed on (each asked three more times), the CPU
seconds the making took, per marked move, and the review's packed size in the store.

With --latency (the game's match, Hachinin Meri by default): the seconds from the match's
end to its review kept in the store, queued by the room's own end-of-match call and made
in the worker process as the server does (the worker's start included); then a move's
wall-clock latency in other rooms (bench_move_path's rooms of four humans) while no
review is made, while one is made in a thread, and while one is made in the worker
process (started before), alternating, `--rounds` times.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from typing import Any

from server.games import registry
from server.rooms.actor.clock import VirtualClock
from server.rooms.history import review
from server.rooms.history.archive import Archive, review_key
from server.rooms.history.matches import MatchRecord, finished_matches
from server.rooms.history.review_worker import ProcessWorker, ThreadWorker, Worker
from server.rooms.manager import RoomManager
from server.store import codec
from server.store.memory_store import MemoryStore
from tests.bench.bench_move_path import Seat, open_room, pick_move
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, room_with_recorder


def bench_env() -> Env:
    """Rooms on the in-process store and a virtual clock."""
    store, clock = MemoryStore(), VirtualClock()
    return Env(store, clock, RoomManager(store, clock, instance_id="bench"))


async def play_match(env: Env, game_id: str, seed: int) -> tuple[str, MatchRecord]:
    """Start `env`'s manager and play one match of `game_id` to its end in a room with
    its recorder (tests/rooms/history_support.py); the room's code and the match."""
    await env.manager.start()
    code, token, _ = await room_with_recorder(env, game_id, seed)
    await env.manager.start_match(code, token)
    await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
    await env.manager.settled()
    (match,) = finished_matches(await env.store.read_log(code))
    return code, match


async def measure(game_id: str, seed: int) -> str:
    """One match of `game_id` played, then its review made: the figures' line."""
    env = bench_env()
    try:
        _, match = await play_match(env, game_id, seed)
    finally:
        await env.close()
    began = time.process_time()
    made = review.analyse(registry.get(game_id), match)
    spent = time.process_time() - began
    marked = len(made["marks"])
    differ = sum(1 for m in made["marks"] if m["agree"] is False)
    return (
        f"{game_id:15} inputs {len(match.entries):4}  marked {marked:3}  differ {differ:3}  "
        f"made in {spent:5.2f} s CPU ({spent / max(1, marked) * 1000:5.1f} ms a move)  "
        f"stored {len(codec.pack(made)):6} B"
    )


async def time_to_ready(game_id: str, seed: int) -> MatchRecord:
    """Play a match with the archive told of its end, as the server is; print the seconds
    from that end to its review in the store. Returns the match."""
    env = bench_env()
    archive = Archive(env.store, registry.get, ProcessWorker())
    ended: list[float] = []

    def match_over(code: str, number: int) -> None:
        ended.append(time.perf_counter())
        archive.match_over(code, number)

    env.manager.on_match_over = match_over
    try:
        code, match = await play_match(env, game_id, seed)
        while await env.store.review(code, review_key(match)) is None:
            await asyncio.sleep(0.01)
        ready = time.perf_counter() - ended[0]
        print(
            f"{game_id}: review kept {ready:.2f} s after the match ended "
            f"({review.to_mark(match)} moves marked, worker process started with it)",
            flush=True,
        )
    finally:
        await archive.aclose()
        await env.close()
    return match


async def moves(rooms: list[list[Seat]], count: int) -> list[float]:
    """Wall-clock seconds of each of `count` moves, round-robin over the rooms."""
    taken: list[float] = []
    while len(taken) < count:
        for room in rooms:
            picked = pick_move(room)
            if picked is None:
                continue
            att, seat_no, seq, action = picked
            began = time.perf_counter()
            await att.move(seat_no, seq, action)
            taken.append(time.perf_counter() - began)
        await asyncio.sleep(0)  # the loop's other work (a worker's progress) between rounds
    return taken


async def latency(game_id: str, match: MatchRecord, rounds: int, count: int) -> None:
    """A move's latency in other rooms with no review, one in a thread, one in the worker."""
    random.seed(1)
    manager = RoomManager(MemoryStore(), VirtualClock(), instance_id="bench-moves")
    await manager.start()
    rooms = [await open_room(manager, i, True) for i in range(10)]
    await moves(rooms, count // 4)  # warm up
    process = ProcessWorker()
    await process.analyse(registry.get(game_id), match, lambda d, t: None)  # started, warm
    workers: dict[str, Worker | None] = {"none": None, "thread": ThreadWorker(), "process": process}
    game = registry.get(game_id)
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in workers}
    try:
        for _ in range(rounds):
            for name, worker in workers.items():
                making: Any = None
                if worker is not None:
                    making = asyncio.ensure_future(worker.analyse(game, match, lambda d, t: None))
                    await asyncio.sleep(0.2)  # under way (the worker started)
                taken = sorted(await moves(rooms, count))
                if making is not None:
                    busy = not making.done()
                    await making
                    assert busy, "the review ended before the moves did: ask fewer moves"
                mean, p99 = statistics.mean(taken), taken[int(len(taken) * 0.99)]
                figures[name].append((mean, p99))
                print(
                    f"  review {name:8} a move {mean * 1e6:7.0f} µs mean, "
                    f"{p99 * 1e6:7.0f} µs p99 ({count} moves)",
                    flush=True,
                )
        for name, runs in figures.items():
            print(
                f"{name:8} median of {rounds}: {statistics.median(m for m, _ in runs) * 1e6:7.0f}"
                f" µs mean, {statistics.median(p for _, p in runs) * 1e6:7.0f} µs p99",
                flush=True,
            )
    finally:
        await process.aclose()
        await manager.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--latency", action="store_true", help="time to ready; move latency")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=2000)
    args = parser.parse_args()
    if args.latency:
        game_id = args.game or "hachinin_meri"
        match = asyncio.run(time_to_ready(game_id, args.seed))
        asyncio.run(latency(game_id, match, args.rounds, args.moves))
        return
    for game_id in [args.game] if args.game else GAMES:
        print(asyncio.run(measure(game_id, args.seed)), flush=True)


if __name__ == "__main__":
    main()
