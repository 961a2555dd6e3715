"""Finished matches of every game, played in real rooms, with what one seat saw live.

A room of each game gets one human seat, seat 2 (the host), and CPUs everywhere else.
The human is a `Recorder`: it keeps every view the room sent it and plays a random legal
move (from its own seeded generator) on each view that offers one, so a match ends in a
few seconds of virtual time and the same seed plays the same match.
"""

from __future__ import annotations

import random
from typing import Any

from server.games import registry
from tests.rooms.helpers import Env, Player

HUMAN = 2
SEATS = {"usunoro": 4, "hachinin_meri": 8, "junocos": 3, "kokuto_rum": 3, "shirokuro_jong": 3}
OPTIONS: dict[str, dict[str, Any]] = {"usunoro": {"length": "short"}}
GAMES = sorted(registry.games())


class Recorder(Player):
    """Seat 2's client: records each view message per match, moves at random."""

    def __init__(self, seed: int) -> None:
        super().__init__(grabs=True)
        self.rng = random.Random(seed)
        self.seen: dict[int, list[dict[str, Any]]] = {}

    def listen(self, message: dict[str, Any]) -> None:
        super().listen(message)
        if message["t"] == "view" and message["view"] is not None:
            self.seen.setdefault(message["room"]["match"], []).append(message["view"])

    def choose(self, seat: int) -> dict[str, Any] | None:
        if self.last["room"]["game"] == "usunoro":
            return super().choose(seat)  # a random grab would lose the short match at once
        legal = self.last.get("legal", {}).get(seat, [])
        return self.rng.choice(legal) if legal else None


async def room_with_recorder(env: Env, game_id: str, seed: int) -> tuple[str, str, Recorder]:
    """A room of `game_id` with the recorder at seat 2 (the host); (code, token, recorder)."""
    n = SEATS.get(game_id, 3)
    seats = ["cpu"] * n
    seats[HUMAN] = "host"
    code, _, token = await env.manager.create_room(
        game_id, OPTIONS.get(game_id, {}), seats, "easy", seed=seed, host_name="Hana"
    )
    recorder = Recorder(seed)
    await env.join(code, [token], recorder)
    return code, token, recorder


async def play_matches(
    env: Env, game_id: str, seed: int, matches: int
) -> tuple[str, str, Recorder]:
    """`matches` matches of one room, the next one started by play again after each;
    (code, host token, recorder)."""
    code, token, recorder = await room_with_recorder(env, game_id, seed)
    for _ in range(matches):
        await env.manager.start_match(code, token)
        await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
    return code, token, recorder
