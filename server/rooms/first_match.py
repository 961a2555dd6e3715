"""First matches ("Learn by playing"): one fixed deal per game against CPUs, in a real room.

Each game has one committed deal (`FIRST_DEALS`): the seats (the learner at seat 0, CPUs
elsewhere), the shortest sensible options (one round where the game has a choice, no
rule timer hurrying someone who reads the coach), Easy CPUs and a fixed seed. The seed
was chosen by `tests/rooms/first_deals.py` (run it as a script to search again), which
plays the deal on the real engine and room core with the learner following the hints,
so that the moments the coach explains (`moments`) come up in the first round; its test
fails when an engine or policy change loses one of them.

The room is an ordinary one (private, no spectators, hints on) whose match starts at
once; the browser's coach (client/web/coach.js) knows it by the room code it created.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.rooms.errors import RoomError
from server.rooms.manager import RoomManager


@dataclass(frozen=True)
class FirstDeal:
    """One game's first match: seats ("host" is the learner), options, seed, and the
    moments of the first round its coach explains, in the order they come up."""

    seats: tuple[str, ...]
    seed: int
    moments: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    difficulty: str = "easy"


# The learner's seat in every first match.
LEARNER = 0

FIRST_DEALS: dict[str, FirstDeal] = {
    # Short: the first penalty ends the match; no marking clock, no idle void.
    "usunoro": FirstDeal(
        ("host", "cpu", "cpu", "cpu"),
        seed=21,
        moments=("pass", "grab"),
        options={"length": "short", "mark_timeout_ms": 0, "idle_void_ms": 0},
    ),
    "utsuke": FirstDeal(("host", "cpu", "cpu"), seed=4, moments=("guess", "play")),
    "junocos": FirstDeal(("host", "cpu", "cpu"), seed=9, moments=("declare", "play")),
    # The learner holds the native Robai: the declaration is theirs to make.
    "hachinin_meri": FirstDeal(
        ("host",) + ("cpu",) * 7,
        seed=6,
        moments=("declare", "discard", "play"),
        options={"declare_timeout_ms": 0},
    ),
    "kokuto_rum": FirstDeal(
        ("host", "cpu"), seed=46, moments=("rotate", "draw", "insert", "knock")
    ),
    # The claim window waits for the learner (0: no timeout; the 1 s minimum stays, S13).
    "shirokuro_jong": FirstDeal(
        ("host", "cpu"),
        seed=24,
        moments=("rotate", "discard", "claim", "insert", "win"),
        options={"claim_timeout_ms": 0},
    ),
}


async def create_first_match(
    manager: RoomManager, game_id: str, name: str = ""
) -> tuple[str, int, str]:
    """Make `game_id`'s first-match room and start its match; returns (code, the
    learner's seat, its token). RoomError bad_game for a game without one."""
    deal = FIRST_DEALS.get(game_id)
    if deal is None:
        raise RoomError("bad_game", f"no first match for a game called {game_id!r}")
    code, seat, token = await manager.create_room(
        game_id,
        deal.options,
        list(deal.seats),
        deal.difficulty,
        host_name=name,
        spectators=False,
        seed=deal.seed,
    )
    await manager.start_match(code, token)
    return code, seat, token
