"""Review (感想戦) figures per game (not a test).

    python -m tests.bench.bench_review [--game ID] [--seed 7]

Plays one match of each game in a room on the in-process store (seat 2 a scripted human
making random legal moves, easy CPUs elsewhere, virtual clock;
tests/rooms/history_support.py), then makes its review once (`review.analyse`, what the
archive runs in a worker thread when a review is first asked) and prints: the human
moves marked, how many the CPU differed on (each asked three more times), the CPU
seconds the making took, per marked move, and the review's packed size in the store.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from server.games import registry
from server.rooms.actor.clock import VirtualClock
from server.rooms.history import review
from server.rooms.history.matches import finished_matches
from server.rooms.manager import RoomManager
from server.store import codec
from server.store.memory_store import MemoryStore
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, room_with_recorder


async def measure(game_id: str, seed: int) -> str:
    store, clock = MemoryStore(), VirtualClock()
    env = Env(store, clock, RoomManager(store, clock, instance_id="bench"))
    try:
        await env.manager.start()
        code, token, _ = await room_with_recorder(env, game_id, seed)
        await env.manager.start_match(code, token)
        await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
        await env.manager.settled()
        (match,) = finished_matches(await store.read_log(code))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for game_id in [args.game] if args.game else GAMES:
        print(asyncio.run(measure(game_id, args.seed)), flush=True)


if __name__ == "__main__":
    main()
