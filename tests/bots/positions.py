"""Seeded mid-round positions of every game, for the hint tests and the hint benchmark."""

from __future__ import annotations

import random
from typing import Any

from server.games.contract import Game

# The seat count each game is played with here.
SEATS = {
    "hachinin_meri": 8,
    "junocos": 4,
    "kokuto_rum": 2,
    "shirokuro_jong": 3,
    "usunoro": 4,
    "utsuke": 4,
}


def mid_round(game: Game, seats: int, seed: int, most: int = 40) -> tuple[Any, list[int]]:
    """A position after 3 to `most` random legal moves from a seeded deal (timers fired
    when nobody may move), and the seats with a move to make there."""
    picker = random.Random(seed)
    state = game.new(seats, game.resolve_options({}), seed)
    now = 0
    for _ in range(picker.randint(3, most)):
        if game.outcome(state) is not None:
            break
        movers = [s for s in range(seats) if game.actions(state, s)]
        if not movers:
            due = game.deadline(state)
            if due is None:
                break
            now = max(now, due)
            game.expire(state, now)
            continue
        seat = picker.choice(movers)
        now += 500
        game.apply(state, seat, picker.choice(game.actions(state, seat)), now)
    return state, [s for s in range(seats) if game.actions(state, s)]
