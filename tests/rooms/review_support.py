"""Finished matches with two human seats, for the review's tests (tests/rooms/test_review.py,
tests/browser/test_review_browser.py), and the agreement rates recomputed from a match
file alone (the engine and `advise`, not the review's code)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from server.bots.advice import advise, hint_seed
from server.games import registry
from tests.rooms.finished import offline_env
from tests.rooms.helpers import Env
from tests.rooms.history_support import Recorder

GAMES = {"kokuto_rum": 3, "shirokuro_jong": 3, "junocos": 3, "utsuke": 2}
HUMANS = (0, 1)


async def finished_room(
    env: Env, game_id: str, seed: int, matches: int = 1
) -> tuple[str, list[str]]:
    """A room of `game_id` whose first `matches` matches seats 0 and 1 (one random player
    holding both) played out against CPUs; (code, the two seat tokens)."""
    n = GAMES[game_id]
    seats = ["host", "open"] + ["cpu"] * (n - 2)
    code, _, host = await env.manager.create_room(game_id, {}, seats, "easy", seed=seed)
    tokens = [host, (await env.manager.take_seat(code, 1, "Ben"))[1]]
    await env.join(code, tokens, Recorder(seed))
    for _ in range(matches):
        await env.manager.start_match(code, tokens[0])
        await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
    return code, tokens


def recomputed_rates(data: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Per human seat (agreed, moves with an opinion), from a full match file: its inputs
    fed to the engine one by one, the CPU asked before each human move."""
    game = registry.get(data["game"])
    seed = int(data["seed"])
    state = game.new(len(data["seats"]), data["options"], seed, cpu_seats=data["cpu"])
    humans = [s for s, info in enumerate(data["seats"]) if info["kind"] == "human"]
    counts = {s: (0, 0) for s in humans}
    for index, entry in enumerate(data["inputs"]):
        if entry["k"] == "x":
            game.expire(state, entry["t"])
            continue
        seat = entry["s"]
        if not entry.get("cpu") and seat in humans:
            advice = advise(game, state, seat, hint_seed(seed, seat, index))
            if advice is not None:
                agreed, moves = counts[seat]
                counts[seat] = (agreed + (advice.action == entry["a"]), moves + 1)
        apply = game.apply_cpu if entry.get("cpu") else game.apply
        apply(state, seat, entry["a"], entry["t"])
    return counts


def finished_room_sync(
    redis_url: str, game_id: str, seed: int, matches: int = 1
) -> tuple[str, list[str]]:
    """`finished_room` in the Redis a test server uses, played here and let go (as
    tests/rooms/finished.py does), for synchronous tests; on a thread of its own."""

    async def make() -> tuple[str, list[str]]:
        async with offline_env(redis_url) as env:
            return await finished_room(env, game_id, seed, matches)

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, make()).result(timeout=120)
