"""A golden transcript of one whole seeded Kokuto Rum match.

The match is driven by a seeded chooser over the legal moves; every move, its events,
seat 0's view after each round and the outcome must match the stored file. It was
regenerated for RULINGS K10 (2026-12-01): the same moves and cards, but the first discard
is turned up by a `first_discard` event after the rotation choices (the `deal` event no
longer names it, and the views in the next round's rotation show an empty discard pile
and the card still on the pile). Regenerate after a deliberate rules change with:

    ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_kokuto_rum_golden.py
"""

from __future__ import annotations

import json
import random
from typing import Any

from server.games.kokuto_rum import GAME
from tests.games.golden import golden, seeded_moves

SEATS, SEED = 3, 7


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A seeded chooser that knocks rarely, so rounds last a while and reach the pile-out."""
    quiet = [a for a in legal if not (a["type"] == "knock" or a.get("knock"))]
    if quiet and rng.random() < 0.9:
        return rng.choice(quiet)
    return rng.choice(legal)


def transcript() -> dict[str, Any]:
    """Play the seeded match and record it."""
    state = GAME.new(SEATS, GAME.resolve_options({}), SEED)
    moves: list[Any] = []
    round_views: list[Any] = []
    for seat, action, events in seeded_moves(GAME, state, SEATS, SEED, choose):
        moves.append([seat, action, events])
        if any(e["type"] == "round_end" for e in events):
            round_views.append(GAME.view(state, 0))
    return {
        "seats": SEATS,
        "seed": SEED,
        "moves": moves,
        "round_views_seat0": round_views,
        "outcome": GAME.outcome(state),
    }


def test_golden_match_replays_exactly() -> None:
    got = json.loads(json.dumps(transcript()))
    assert got == golden("kokuto_rum_3p_seed7.json", lambda: got)
