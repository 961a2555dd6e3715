"""Finished matches of every game, played in real rooms, with what one seat saw live.

A room of each game gets one human seat, seat 2 (the host), and CPUs everywhere else.
The human is a `Recorder`: it keeps every view the room sent it and plays a random legal
move (from its own seeded generator) on each view that offers one, so a match ends in a
few seconds of virtual time and the same seed plays the same match.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from server.games import registry
from server.rooms.history.matches import Replayer, finished_matches
from server.store import codec
from server.store.redis_store import RedisStore
from tests.rooms.finished import offline_env
from tests.rooms.helpers import Env, Player

HUMAN = 2
SEATS = {"usunoro": 4, "hachinin_meri": 8, "junocos": 3, "kokuto_rum": 3, "shirokuro_jong": 3}
OPTIONS: dict[str, dict[str, Any]] = {"usunoro": {"length": "short"}}
GAMES = sorted(registry.games())


# Events the room adds itself (a new match, a pause, a seat's change of hands).
ROOM_EVENTS = {"match_started", "paused", "resumed", "seat_left", "seat_handed"}


class Recorder(Player):
    """Seat 2's client: records each view message per match, moves at random."""

    def __init__(self, seed: int) -> None:
        super().__init__(grabs=True)
        self.rng = random.Random(seed)
        self.seen: dict[int, list[dict[str, Any]]] = {}
        self.events: dict[int, list[dict[str, Any]]] = {}  # the game's, not the room's

    def listen(self, message: dict[str, Any]) -> None:
        super().listen(message)
        if message["t"] == "view" and message["view"] is not None:
            match = message["room"]["match"]
            self.seen.setdefault(match, []).append(message["view"])
            game = [e for e in message["events"] if e["type"] not in ROOM_EVENTS]
            self.events.setdefault(match, []).extend(game)

    def choose(self, seat: int) -> dict[str, Any] | None:
        if self.last["room"]["game"] == "usunoro":
            return super().choose(seat)  # a random grab would lose the short match at once
        legal = self.last.get("legal", {}).get(seat, [])
        return self.rng.choice(legal) if legal else None


async def room_with_recorder(
    env: Env, game_id: str, seed: int, host_name: str = "Hana"
) -> tuple[str, str, Recorder]:
    """A room of `game_id` with the recorder at seat 2 (the host); (code, token, recorder)."""
    n = SEATS.get(game_id, 3)
    seats = ["cpu"] * n
    seats[HUMAN] = "host"
    code, _, token = await env.manager.create_room(
        game_id, OPTIONS.get(game_id, {}), seats, "easy", seed=seed, host_name=host_name
    )
    recorder = Recorder(seed)
    await env.join(code, [token], recorder)
    return code, token, recorder


async def play_matches(
    env: Env, game_id: str, seed: int, matches: int, host_name: str = "Hana"
) -> tuple[str, str, Recorder]:
    """`matches` matches of one room, the next one started by play again after each;
    (code, host token, recorder)."""
    code, token, recorder = await room_with_recorder(env, game_id, seed, host_name)
    for _ in range(matches):
        await env.manager.start_match(code, token)
        await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
    return code, token, recorder


def finished_room_sync(
    redis_url: str, game_id: str, seed: int, host_name: str = "Hana"
) -> tuple[str, str]:
    """A room of `game_id` whose first match is over, in the Redis a test server uses
    (played on a virtual clock here, then let go, as tests/rooms/finished.py does), for
    synchronous tests; (code, seat 2's token). The work runs on a thread of its own."""

    async def make() -> tuple[str, str]:
        async with offline_env(redis_url) as env:
            code, token, _ = await play_matches(env, game_id, seed, 1, host_name)
        return code, token

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, make()).result(timeout=120)


def replay_steps_sync(redis_url: str, code: str, number: int = 1) -> list[dict[str, Any]]:
    """Every step of a finished match of a room in that Redis, with every seat's view."""

    async def read() -> list[dict[str, Any]]:
        store = RedisStore(redis_url)
        await store.start()
        try:
            log = await store.read_log(code)
            stored = await store.load(code)
        finally:
            await store.aclose()
        assert stored is not None
        game = registry.get(codec.unpack(stored.blob)["settings"]["game_id"])
        match = next(m for m in finished_matches(log) if m.number == number)
        replayer = Replayer(game, match)
        return [replayer.step(i, state, "open") for i, state in replayer.states(0)]

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, read()).result(timeout=60)
