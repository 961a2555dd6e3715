"""Play whole matches between CPU policies on virtual game time, with no room and no I/O.

Used by the bot-strength script and by bot tests. Each seat has a policy and a
difficulty; every seat with legal moves is asked for a decision, decisions fire in
due-time order (ties by seat order), and a fired move is re-checked against the seat's
legal moves at that moment, as the room does.
"""

from __future__ import annotations

import random
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.games.contract import Game
from server.games.rng import Rng

MAX_STEPS = 50_000


def situation(
    game: Game, state: Any, seat: int, difficulty: str, rng: Rng, world_rng: random.Random | Rng
) -> Situation:
    """What `seat` may know now, as a policy sees it; worlds are sampled with `world_rng`
    (the room passes `rng` itself)."""
    return Situation(
        game=game,
        seat=seat,
        view=game.view(state, seat),
        legal=game.actions(state, seat),
        difficulty=difficulty,
        rng=rng,
        sample_world=lambda: game.shuffle_unseen(state, seat, world_rng),
    )


def play_match(
    game: Game,
    seats: int,
    policies: list[Policy],
    difficulties: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    auto: tuple[str, ...] = ("next",),
) -> dict[str, Any]:
    """One match; returns the game's outcome.

    Moves whose type is in `auto` (such as Usunoro's "next round") are made at once by
    the lowest seat offering them when no policy wants to move, as a human would.
    """
    state = game.new(seats, game.resolve_options(options), seed)
    rngs = [Rng.from_seed(seed * 31 + s + 1) for s in range(seats)]
    world_rng = random.Random(seed)
    now = 0
    for _ in range(MAX_STEPS):
        result = game.outcome(state)
        if result is not None:
            return result
        pending: list[tuple[int, int, Decision]] = []
        for s in range(seats):
            if not game.actions(state, s):
                continue
            sit = situation(game, state, s, difficulties[s], rngs[s], world_rng)
            decision = policies[s].decide(sit)
            if decision is not None and decision.action.get("type") not in auto:
                pending.append((now + max(0, decision.delay_ms), s, decision))
        due = game.deadline(state)
        if pending:
            at, s, decision = min(pending, key=lambda p: (p[0], p[1]))
            if due is not None and due <= at:
                now = due
                game.expire(state, now)
                continue
            now = at
            if decision.action in game.actions(state, s):
                game.apply(state, s, decision.action, now)
            continue
        if due is not None:
            now = max(now, due)
            game.expire(state, now)
            continue
        for s in range(seats):
            autos = [a for a in game.actions(state, s) if a.get("type") in auto]
            if autos:
                game.apply(state, s, autos[0], now)
                break
        else:
            raise RuntimeError("no policy moves, no timer runs, and the match is not over")
    raise RuntimeError(f"match did not end within {MAX_STEPS} steps")
