"""Each game's first match (server/rooms/first_match.py) still brings its coach's moments.

The deals are fixed seeds chosen for their moments (tests/rooms/first_deals.py); a change
to an engine, a CPU policy or the room that loses one fails here, naming the game and
what came up instead, so the deal is chosen again (first_deals.py's search) rather than
the coach silently skipping a lesson.
"""

from __future__ import annotations

import pytest

from server.games import registry
from server.rooms.first_match import FIRST_DEALS
from tests.rooms.first_deals import play_first_round


def test_every_game_has_a_first_match() -> None:
    """The lobby offers "Learn by playing" for every game."""
    assert set(FIRST_DEALS) == set(registry.games())


@pytest.mark.parametrize("game_id", sorted(FIRST_DEALS))
def test_the_first_round_brings_the_moments_in_order(game_id: str) -> None:
    """Following the hints, the learner meets every moment of the deal, in the table's
    order, and the first round ends."""
    deal = FIRST_DEALS[game_id]
    played = play_first_round(game_id, deal)
    assert played.finished, f"{game_id}: the first round did not end"
    assert tuple(played.moments) == deal.moments, (
        f"{game_id} seed {deal.seed} now brings {played.moments}, not {deal.moments}: "
        f"choose the deal again (python -m tests.rooms.first_deals {game_id})"
    )
