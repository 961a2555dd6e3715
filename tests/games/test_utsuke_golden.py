"""Golden transcript: one whole seeded Utsuke match (3 players) replayed move by move.

Regenerate after an intended rules change with
    ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_utsuke_golden.py
and review the diff.
"""

from __future__ import annotations

from server.games.utsuke import GAME
from tests.games.golden import golden, seeded_match


def test_golden_match_replays_identically() -> None:
    got = seeded_match(GAME, 3, 7)
    assert got == golden("utsuke_3p_seed7.json", lambda: got, layout="lines")
