"""Match history figures per game against a real Redis (not a test).

    python -m tests.bench.bench_replay [--game ID] [--seed 7]

Plays one match of each game in a real room (seat 2 a scripted human, easy CPUs
elsewhere, virtual clock; tests/rooms/history_support.py) and prints:
- the bytes the match added to the room in Redis (MEMORY USAGE of the room's log stream
  after the match minus before it), with its log entries;
- replay CPU per step: a first pass from the deal through one seat's eyes, a page of 50
  from the middle once checkpoints exist (what the viewer asks for), every hand open;
- the CPU of building the full match file (one whole rebuild) and its JSON size, and the
  same for the spectator file.
Uses REDIS_URL if set, else starts its own redis-server like the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid

import redis.asyncio as aioredis

from server.games import registry
from server.rooms.actor.clock import VirtualClock
from server.rooms.history.match_file import export_full, export_spectator
from server.rooms.history.matches import Replayer, finished_matches
from server.rooms.manager import RoomManager
from server.store.redis_store import RedisStore
from tests.bench.bench_store import redis_server
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, HUMAN, room_with_recorder


def cpu_per_step(run, steps: int) -> float:  # type: ignore[no-untyped-def]
    """µs of process CPU per step for `run()`."""
    began = time.process_time()
    run()
    return (time.process_time() - began) / max(1, steps) * 1e6


async def measure(url: str, game_id: str, seed: int) -> str:
    prefix = f"bench{uuid.uuid4().hex[:8]}:"
    store = RedisStore(url, prefix=prefix)
    await store.start()
    raw = aioredis.from_url(url)
    clock = VirtualClock()
    env = Env(store, clock, RoomManager(store, clock, instance_id="bench"))
    try:
        await env.manager.start()
        code, token, _ = await room_with_recorder(env, game_id, seed)
        key = f"{prefix}log:{code}"
        before = await raw.memory_usage(key) or 0
        await env.manager.start_match(code, token)
        await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
        await env.manager.settled()
        added = (await raw.memory_usage(key, samples=0) or 0) - before
        (match,) = finished_matches(await store.read_log(code))
    finally:
        await env.close()
        await store.aclose()
        await raw.aclose()
    game = registry.get(game_id)
    replayer = Replayer(game, match)
    n = replayer.steps

    first = cpu_per_step(lambda: replayer.page(0, n, HUMAN, budget_s=60.0), n)
    middle = max(0, n // 2 - 25)
    page = cpu_per_step(lambda: replayer.page(middle, 50, HUMAN, budget_s=60.0), min(50, n))
    opened = cpu_per_step(lambda: replayer.page(0, n, "open", budget_s=60.0), n)
    began = time.process_time()
    full = export_full(game, code, match, Replayer(game, match))
    full_ms = (time.process_time() - began) * 1e3
    began = time.process_time()
    spectator = export_spectator(game, code, match, Replayer(game, match))
    spectator_ms = (time.process_time() - began) * 1e3
    return (
        f"{game_id:15} {n:5} steps  Redis +{added / 1024:6.1f} KB ({n + 1} log entries)"
        f"  µs/step: first pass {first:6.0f}, page {page:6.0f}, all open {opened:6.0f}"
        f"  full file {full_ms:5.0f} ms {len(json.dumps(full)) / 1024:6.1f} KB"
        f"  spectator file {spectator_ms:5.0f} ms {len(json.dumps(spectator)) / 1024:7.1f} KB"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, help="one game (default: all)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with redis_server() as url:
        for game_id in [args.game] if args.game else GAMES:
            print(await measure(url, game_id, args.seed), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
