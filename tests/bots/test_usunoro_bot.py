"""Usunoro's CPU player: reaction windows per difficulty, U3, and view-only decisions."""

from __future__ import annotations

import random
from statistics import mean
from typing import Any

import pytest

from server.bots.contract import Decision, Situation
from server.bots.registry import policy_for
from server.bots.usunoro import POLICY
from server.games import cards
from server.games.contract import DIFFICULTIES
from server.games.rng import Rng
from server.games.usunoro import GAME, TIMING

MIXED = [
    ["S1", "H1", "C1", "S2"],
    ["D1", "H2", "C2", "D2"],
    ["S3", "H3", "C3", "S4"],
    ["D3", "H4", "C4", "D4"],
]
DRAWS = 2000


class Untouchable:
    """Stands in for the game and the world sampler: any use fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the policy reached past the view ({name})")

    def __call__(self) -> Any:
        raise AssertionError("the policy sampled a world")


def fresh(hands: list[list[str]]) -> dict:
    state = GAME.new(4, GAME.resolve_options({}), 1)
    state["hands"] = [sorted(h, key=cards.sort_key) for h in hands]
    return state


def decide(state: dict, seat: int, difficulty: str = "normal", seed: int = 0) -> Decision | None:
    """The policy's decision for `seat`, given only what that seat may see."""
    situation = Situation(
        game=Untouchable(),  # type: ignore[arg-type]
        seat=seat,
        view=GAME.view(state, seat),
        legal=GAME.actions(state, seat),
        difficulty=difficulty,
        rng=Rng(seed),
        sample_world=Untouchable(),
    )
    return POLICY.decide(situation)


def delays(state: dict, seat: int, difficulty: str) -> list[int]:
    out = []
    for seed in range(DRAWS):
        decision = decide(state, seat, difficulty, seed)
        assert decision is not None and decision.action == {"type": "grab"}
        out.append(decision.delay_ms)
    return out


def assert_uniform_in(window: list[int], drawn: list[int]) -> None:
    """Inside the window, reaching both ends, centred: what a uniform draw gives."""
    low, high = window
    width = high - low
    assert low <= min(drawn) and max(drawn) <= high
    assert min(drawn) < low + width * 0.02 and max(drawn) > high - width * 0.02
    assert abs(mean(drawn) - (low + high) / 2) < width * 0.03
    lower_half = sum(d < (low + high) / 2 for d in drawn) / len(drawn)
    assert 0.45 < lower_half < 0.55


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_first_grab_delays_fall_uniformly_in_the_difficultys_window(difficulty: str) -> None:
    state = fresh([["S1", "H1", "C1", "D1"], *MIXED[1:]])
    assert_uniform_in(TIMING[difficulty]["first_grab"], delays(state, 0, difficulty))


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_follow_up_delays_fall_uniformly_in_the_difficultys_window(difficulty: str) -> None:
    state = fresh([["S1", "H1", "C1", "D1"], *MIXED[1:]])
    GAME.apply(state, 0, {"type": "grab"}, 0)
    assert_uniform_in(TIMING[difficulty]["follow_up"], delays(state, 2, difficulty))


def test_u3_cpu_with_a_matching_hand_grabs_instead_of_marking() -> None:
    state = fresh([["S1", "H1", "C1", "D1"], *MIXED[1:]])
    decision = decide(state, 0)
    assert decision is not None and decision.action == {"type": "grab"}


def test_cpu_marks_a_card_outside_the_rank_it_holds_most() -> None:
    state = fresh(MIXED)
    for seed in range(50):
        decision = decide(state, 1, seed=seed)
        assert decision is not None and decision.action == {"type": "mark", "card": "D1"}


def test_cpu_without_a_matching_hand_never_grabs_while_passing() -> None:
    state = fresh(MIXED)
    for seat in range(4):
        decision = decide(state, seat)
        assert decision is not None and decision.action["type"] == "mark"


def test_cpu_keeps_its_mark_once_made() -> None:
    state = fresh(MIXED)
    GAME.apply(state, 2, {"type": "mark", "card": "S4"}, 0)
    assert decide(state, 2) is None


def test_cpu_holding_a_token_waits() -> None:
    state = fresh([["S1", "H1", "C1", "D1"], *MIXED[1:]])
    GAME.apply(state, 0, {"type": "grab"}, 0)
    assert decide(state, 0) is None


def test_cpu_never_presses_next() -> None:
    state = fresh(MIXED)
    GAME.apply(state, 0, {"type": "grab"}, 0)
    assert all(decide(state, seat) is None for seat in range(4))


def test_cpu_decides_the_same_whatever_the_hidden_hands() -> None:
    state = fresh(MIXED)
    shuffler = random.Random(3)
    for _ in range(20):
        world = GAME.shuffle_unseen(state, 1, shuffler)
        assert decide(world, 1, seed=7) == decide(state, 1, seed=7)


def test_registry_finds_the_usunoro_policy() -> None:
    assert policy_for("usunoro") is POLICY
