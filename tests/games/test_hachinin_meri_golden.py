"""Hachinin Meri: one whole seeded match replayed against its golden transcript.

Regenerate after a deliberate rules change with
``ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_hachinin_meri_golden.py``
and review the diff.
"""

from __future__ import annotations

from typing import Any

from server.games.hachinin_meri import GAME
from tests.games.golden import golden, seeded_moves

SEED = 7


def transcript(seed: int) -> dict[str, Any]:
    """A match where a seeded driver picks among the legal moves of the seat to move."""
    state = GAME.new(8, {}, seed)
    steps = [list(move) for move in seeded_moves(GAME, state, 8, seed)]
    return {"seed": seed, "steps": steps, "outcome": GAME.outcome(state)}


def test_golden_match_replays_exactly() -> None:
    played = transcript(SEED)
    stored = golden("hachinin_meri_seed7.json", lambda: played, layout="lines")
    assert played["outcome"] == stored["outcome"]
    for i, (got, want) in enumerate(zip(played["steps"], stored["steps"], strict=True)):
        assert got == want, f"step {i} differs"
