"""Kokuto Rum CPU player: legal, human-paced, blind to hidden cards, and sensible."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.bots.contract import Situation
from server.bots.kokuto_rum import POLICY
from server.games.contract import DIFFICULTIES
from server.games.kokuto_rum import GAME
from server.games.rng import Rng
from tests.bench.bot_arena import play_match
from tests.bench.bot_arena import situation as arena_situation
from tests.games.test_kokuto_rum import do, drawn_texts, fresh, position


def situation(state: Any, seat: int, difficulty: str, seed: int = 0) -> Situation:
    """What `seat` may know, with seeded world sampling."""
    return arena_situation(GAME, state, seat, difficulty, Rng(seed), random.Random(seed))


def test_policy_is_the_kokuto_rum_policy() -> None:
    assert POLICY.game_id == "kokuto_rum"


def test_every_difficulty_plays_a_whole_match_with_legal_moves() -> None:
    result = play_match(GAME, 3, [POLICY] * 3, list(DIFFICULTIES), seed=3)
    assert sorted(result["places"])[0] == 1


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_moves_are_legal_and_paced_like_a_human(difficulty: str) -> None:
    state = fresh(2, seed=4)
    for _ in range(12):
        seat = state.turn
        decision = POLICY.decide(situation(state, seat, difficulty))
        assert decision is not None and decision.action in GAME.actions(state, seat)
        assert 500 <= decision.delay_ms <= 1500
        GAME.apply(state, seat, decision.action, 0)
        if state.phase == "rotate":
            break


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_decisions_depend_only_on_what_the_seat_may_see(difficulty: str) -> None:
    state = fresh(3, seed=6)
    do(state, state.turn, {"type": "draw", "from": "pile"})
    seat = state.turn
    do(state, seat, {"type": "insert", "pos": 0, "card": drawn_texts(state)[0]})
    for seed in range(3):
        world = GAME.shuffle_unseen(state, seat, random.Random(100 + seed))
        real = POLICY.decide(situation(state, seat, difficulty, seed))
        other = POLICY.decide(situation(world, seat, difficulty, seed))
        assert real == other


def test_shuffle_unseen_draws_the_same_world_whatever_the_hidden_truth() -> None:
    state = fresh(3, seed=6)
    world = GAME.shuffle_unseen(state, 1, random.Random(1))
    a = GAME.shuffle_unseen(state, 1, random.Random(9))
    b = GAME.shuffle_unseen(world, 1, random.Random(9))
    assert GAME.dump(a) == GAME.dump(b)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_knocks_with_a_kokuto_hand(difficulty: str) -> None:
    hand = ["W1/B2", "W2/B3", "W3/B4", "B5/W1", "B5/W2", "B5/W3", "W6/B1", "W6/B2"]
    state = position([hand, ["W1/B3", "W4/B6"]], pile=["W5/B1", "W6/B3"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 8, "card": "W6/B3"})
    decision = POLICY.decide(situation(state, 0, difficulty))
    assert decision is not None
    assert decision.action == {"type": "knock"}


@pytest.mark.parametrize("difficulty", ["normal", "hard"])
def test_takes_a_discard_that_completes_a_set(difficulty: str) -> None:
    hand = ["W4/B1", "W4/B2", "B6/W1", "W1/B5", "B3/W2", "W5/B2", "B1/W3", "W2/B6"]
    state = position([hand, ["W1/B3", "W3/B6"]], discards=["W4/B3"])
    decision = POLICY.decide(situation(state, 0, difficulty))
    assert decision is not None and decision.action == {"type": "draw", "from": "discard"}
