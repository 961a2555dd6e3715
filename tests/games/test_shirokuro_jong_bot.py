"""The Shirokuro Jong CPU player: legal, sensible moves from its own view only."""

from __future__ import annotations

import random

import pytest

from server.bots.contract import Situation
from server.bots.registry import policy_for
from server.games.rng import Rng
from server.games.shirokuro_jong import GAME
from server.games.shirokuro_jong.state import JongState
from tests.bench.bot_arena import play_match
from tests.bench.bot_arena import situation as arena_situation
from tests.games.shirokuro_jong_support import pass_all, play, table

POLICY = policy_for("shirokuro_jong")
JUNK8 = "W6/B1 B6 B6 W1 W1 B2 B4 W6"  # the Oya's hand: it cannot win


def situation(state: JongState, seat: int, difficulty: str) -> Situation:
    """What the policy sees at `seat` now."""
    return arena_situation(GAME, state, seat, difficulty, Rng(1), random.Random(0))


def test_bot_is_the_registered_policy_for_the_game() -> None:
    assert POLICY.game_id == "shirokuro_jong"


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_bot_takes_a_ron_when_offered(difficulty: str) -> None:
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W1 W2 W4 W4 W4 B5 B5"])
    play(state, (0, {"type": "discard", "index": 0}))
    decision = POLICY.decide(situation(state, 1, difficulty))
    assert decision is not None and decision.action == {"type": "ron"}


def test_bot_inserts_the_drawn_card_where_it_wins() -> None:
    state = table(["W6/B1 B6 B6 W1 W1 B2 B4 W6", "W2 W3 W4 B3 B3 B3 W5"], pile=["W5"])
    play(state, (0, {"type": "discard", "index": 0}))
    pass_all(state)
    decision = POLICY.decide(situation(state, 1, "normal"))
    assert decision is not None
    play(state, (1, decision.action))
    assert {"type": "tsumo"} in GAME.actions(state, 1)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
@pytest.mark.parametrize(
    ("hand", "drawn", "insert", "points"),
    [
        # B5 at index 2 wins with Dora (B5 B4 B3, B2 B2 B2, W2 W2): 3 points; W2 at index
        # 0 wins too (W2 W2 W2, B4 B3 B2, B2 B2) but for 2.
        ("W2 W2 B4 B3 B2 B2 B2", "W2/B5", {"index": 2, "up": "B"}, 3),
        # W3 at index 2 wins as Toitoi for 6; B5 at index 4 as Suutoitsu for 14.
        ("W4 W4 W3 W3 B5 B5 B5", "W3/B5", {"index": 4, "up": "B"}, 14),
    ],
)
def test_defect8_cpu_declares_the_highest_scoring_winning_insertion(
    difficulty: str, hand: str, drawn: str, insert: dict[str, object], points: int
) -> None:
    state = table([JUNK8, hand], pile=[drawn])
    state.draws[1] = 2  # not its first draw: no Chiihou
    play(state, (0, {"type": "discard", "index": 0}))
    pass_all(state)
    assert (state.phase, state.turn) == ("insert", 1)
    decision = POLICY.decide(situation(state, 1, difficulty))
    assert decision is not None and decision.action == {"type": "insert", **insert}
    play(state, (1, decision.action))
    decision = POLICY.decide(situation(state, 1, difficulty))
    assert decision is not None and decision.action == {"type": "tsumo"}
    play(state, (1, decision.action))
    assert state.result["winners"][0]["points"] == points


def test_bot_discards_the_card_that_breaks_nothing() -> None:
    state = table(["W1 W2 B6 W3 B4 B4 B4 W5", "W2"], turn=0)
    state.can_tsumo = False
    decision = POLICY.decide(situation(state, 0, "normal"))
    assert decision is not None and decision.action == {"type": "discard", "index": 2}


def test_bot_hard_discard_is_legal() -> None:
    state = GAME.new(2, {"rotation": False}, 5)
    decision = POLICY.decide(situation(state, 0, "hard"))
    assert decision is not None and decision.action in GAME.actions(state, 0)


def test_bot_delay_looks_human() -> None:
    state = GAME.new(2, {"rotation": False}, 5)
    decision = POLICY.decide(situation(state, 0, "normal"))
    assert decision is not None and 500 <= decision.delay_ms <= 1500


@pytest.mark.parametrize("difficulty", ["easy", "normal"])
def test_bot_plays_whole_matches_with_legal_moves(difficulty: str) -> None:
    result = play_match(GAME, 3, [POLICY] * 3, [difficulty] * 3, seed=11)
    assert sorted(result["places"])[0] == 1
