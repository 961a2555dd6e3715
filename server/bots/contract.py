"""The CPU player contract.

A policy sees exactly what a human in its seat would see: the seat's view and legal
moves, plus possible worlds drawn with the game's `shuffle_unseen` (which re-deals every
card the seat cannot see, so a sampled world carries no hidden truth). It answers with a
move and a delay in game-time milliseconds; the room schedules the move and checks it
again when it fires.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.games.contract import Action, Game, View
from server.games.rng import Rng


@dataclass(frozen=True)
class Decision:
    """A move and how long (game ms) to wait before making it.

    `why` is one plain sentence saying why that move, {"en": ..., "ja": ...}, when the
    policy gives one (the hint and the review show it). `paced` False marks a delay the
    rules set (a reaction time), which the room's CPU pace leaves alone (actor/cpus.py).
    """

    action: Action
    delay_ms: int
    why: dict[str, str] | None = None
    paced: bool = True


@dataclass
class Situation:
    """What a CPU seat may know when it decides.

    `sample_world()` returns a full game state consistent with `view`: the real state with
    everything this seat cannot see re-dealt at random. Use it with `game` for search.
    """

    game: Game
    seat: int
    view: View
    legal: list[Action]
    difficulty: str
    rng: Rng
    sample_world: Callable[[], Any]


class Policy:
    """Base class: one per game (or the uniform-random fallback)."""

    game_id: str = ""

    def decide(self, situation: Situation) -> Decision | None:
        """The move to make, or None to make none now."""
        raise NotImplementedError
