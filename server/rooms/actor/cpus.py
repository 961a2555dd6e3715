"""The CPUs' plans in a room: what each CPU-played seat (a CPU, or a CPU covering an away
human) will do and at which game time, and in which order moves due together go.

The rules core (core.py) asks `decide` whenever a seat's legal moves change and keeps the
answer as a `Pending` plan; a dump carries each plan's due time, so a reload waits exactly
what was left. The seat clocks (turns.py) ask it too, for the one move of a seat whose time
ran out. Each seat draws from its own random stream (`rngs`, keyed per match by seeds.py).

The room's CPU pace (the host's `cpu_pace` setting) scales the policy's delay: "relaxed"
keeps it, "quick" cuts it to a quarter (never under QUICK_FLOOR_MS, so each move is still
seen happening). A delay the rules set (`Decision.paced` False: Usunoro's grab reaction
times) is kept at every pace. The draws are the same at every pace, so CPUs stay
deterministic from the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.bots.contract import Policy, Situation
from server.games.contract import Action, Game
from server.games.rng import Rng
from server.rooms.errors import RoomError

# The host's choices of CPU pace; the first is a room's default.
CPU_PACES = ("relaxed", "quick")
# A quick room's CPUs wait a quarter of their delay, but at least this long (game ms).
QUICK_SHARE = 4
QUICK_FLOOR_MS = 150


@dataclass
class Pending:
    """A CPU seat's plan: `action` at game time `due` (None: nothing to do), decided on `basis`."""

    action: Action | None
    due: int | None
    basis: list[Action]


def decide(
    game: Game,
    state: Any,
    policy: Policy,
    difficulty: str,
    rngs: list[int],
    seat: int,
    legal: list[Action],
    t: int,
    pace: str,
) -> Pending:
    """`policy`'s plan for `seat` at game time `t`, given its `legal` moves, its delay at
    the room's CPU `pace`; the seat's random stream in `rngs` moves on by what the
    decision drew."""
    if not legal:
        return Pending(None, None, legal)
    rng = Rng(rngs[seat])
    situation = Situation(
        game=game,
        seat=seat,
        view=game.view(state, seat),
        legal=legal,
        difficulty=difficulty,
        rng=rng,
        sample_world=lambda: game.shuffle_unseen(state, seat, rng),
    )
    decision = policy.decide(situation)
    rngs[seat] = rng.state
    if decision is None:
        return Pending(None, None, legal)
    delay = max(0, int(decision.delay_ms))
    if pace == "quick" and decision.paced:
        delay = min(delay, max(QUICK_FLOOR_MS, delay // QUICK_SHARE))
    return Pending(decision.action, t + delay, legal)


def check_pace(pace: object) -> None:
    """Refuse a CPU pace that is not one of CPU_PACES (bad_option)."""
    if pace not in CPU_PACES:
        raise RoomError("bad_option", f"cpu_pace must be one of {list(CPU_PACES)}")


def tie_rank(game: Game, state: Any) -> dict[int, int]:
    """Seat -> rank for CPU moves due together: the engine's `tie_order` if it has one
    (a method, or a public "tie_order" in the spectator view), else seat order."""
    order = getattr(game, "tie_order", None)
    seats = order(state) if callable(order) else game.view(state, None).get("tie_order") or []
    return {seat: i for i, seat in enumerate(seats)}
