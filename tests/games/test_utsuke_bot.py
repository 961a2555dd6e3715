"""The Utsuke CPU player: legal, human-paced, view-only, and steering the Lord's count."""

from __future__ import annotations

import random
import time

import pytest

from server.bots.utsuke import POLICY, easy_guess
from server.games.rng import Rng
from server.games.utsuke import GAME, UtsukeState
from server.games.utsuke.cards import CARDS, sort_cards
from tests.bench.bot_arena import play_match, situation
from tests.games.utsuke_support import guess_all, rigged


def decide(state: UtsukeState, seat: int, difficulty: str = "normal", seed: int = 0) -> dict:
    sit = situation(GAME, state, seat, difficulty, Rng(seed), random.Random(seed))
    decision = POLICY.decide(sit)
    assert decision is not None
    return decision.action


@pytest.mark.parametrize("difficulty", ["easy", "normal"])
def test_cpu_plays_whole_matches_with_legal_moves(difficulty: str) -> None:
    result = play_match(GAME, 3, [POLICY] * 3, [difficulty] * 3, seed=5)
    assert sorted(result["places"])[0] == 1


def test_hard_cpu_moves_are_legal_through_a_round() -> None:
    state = GAME.new(4, GAME.resolve_options({}), 2)
    for seat in range(4):
        GAME.apply(state, seat, decide(state, seat, "hard", seat), 0)
    while state.round == 1:
        seat = state.turn()
        action = decide(state, seat, "hard", len(state.history))
        assert action in GAME.actions(state, seat)
        GAME.apply(state, seat, action, 0)


def test_cpu_delay_looks_human() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    for seed in range(20):
        sit = situation(GAME, state, 0, "normal", Rng(seed), random.Random(seed))
        assert 500 <= POLICY.decide(sit).delay_ms <= 1500


def test_cpu_has_no_move_when_it_is_not_its_turn() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    guess_all(state, [1])
    sit = situation(GAME, state, 0, "hard", Rng(0), random.Random(0))
    assert POLICY.decide(sit) is None


def test_cpu_play_depends_only_on_its_view() -> None:
    state = GAME.new(4, GAME.resolve_options({}), 3)
    guess_all(state, [2, 2, 2, 2])
    seat = state.turn()
    world = GAME.shuffle_unseen(state, seat, random.Random(9))
    assert world.hands != state.hands
    assert decide(state, seat) == decide(world, seat)


def hidden_cards_dealt_another_way(state: UtsukeState, seat: int) -> UtsukeState:
    """The same match as `seat` sees it, the other players' cards dealt among them in
    another order (hand sizes kept)."""
    other = GAME.copy(state)
    hidden = [p for p in range(state.seats) if p != seat]
    pool = sorted(c for p in hidden for c in state.hands[p])
    for p in hidden:
        size = len(state.hands[p])
        other.hands[p], pool = sort_cards(pool[:size]), pool[size:]
    assert GAME.view(other, seat) == GAME.view(state, seat)
    assert other.hands != state.hands
    return other


def test_hard_decides_from_the_view_alone_whatever_the_order_of_the_hidden_cards() -> None:
    for seed in range(4):
        state = GAME.new(4, GAME.resolve_options({}), seed)
        other = hidden_cards_dealt_another_way(state, 0)
        assert decide(state, 0, "hard", seed) == decide(other, 0, "hard", seed)
        guess_all(state, [2, 2, 2, 2])
        seat = state.turn()
        other = hidden_cards_dealt_another_way(state, seat)
        assert len(GAME.actions(state, seat)) > 1
        assert decide(state, seat, "hard", seed) == decide(other, seat, "hard", seed)


def test_hard_decides_from_the_seed_and_the_view_alone_without_a_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*_: object) -> float:
        raise AssertionError("a CPU player read the clock")

    for name in ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time"):
        monkeypatch.setattr(time, name, refuse)
    state = GAME.new(3, GAME.resolve_options({}), 4)
    assert decide(state, 0, "hard", 1) == decide(state, 0, "hard", 1)
    guess_all(state, [3, 3, 3])
    seat = state.turn()
    assert len(GAME.actions(state, seat)) > 1
    assert decide(state, seat, "hard", 1) == decide(state, seat, "hard", 1)


def steering_state(guess: int, lord_tricks: int, my_tricks: int) -> UtsukeState:
    """The Lord leads G5 (trump B); seat 0 holds G2 and G9 and has guessed `guess`."""
    state = rigged([["G2", "G9"], ["Y1", "Y2"], ["Y3", "Y4"]], ["G5", "B4"])
    guess_all(state, [guess, 0, 0])
    state.tricks[3], state.tricks[0] = lord_tricks, my_tricks
    return state


def test_cpu_lets_the_lord_win_while_he_needs_tricks_for_its_guess() -> None:
    assert decide(steering_state(1, 0, 0), 0) == {"type": "play", "card": "G2"}


def test_cpu_takes_the_trick_from_the_lord_once_he_has_enough_and_it_is_safe() -> None:
    assert decide(steering_state(1, 1, 0), 0) == {"type": "play", "card": "G9"}


def test_cpu_avoids_uchikubi_rather_than_stop_the_lord() -> None:
    assert decide(steering_state(1, 1, 1), 0) == {"type": "play", "card": "G2"}


def lord_deal(lord: list[str]) -> UtsukeState:
    """Five players; the Lord holds `lord` and the rest of the deck is dealt in order."""
    rest = [c for c in CARDS if c not in lord]
    state = GAME.new(5, GAME.resolve_options({"lord_seat": 0}), 0)
    state.hands = [sort_cards(rest[i * 10 : (i + 1) * 10]) for i in range(5)] + [list(lord)]
    state.chip = lord[-1]
    return state


def test_cpu_guesses_higher_for_a_strong_lord_than_for_a_weak_one() -> None:
    strong = lord_deal(["R12", "Y12", "G12", "P12", "B7", "B8", "B9", "B10", "B11", "B12"])
    weak = lord_deal(["R1", "Y1", "G1", "P1", "R2", "Y2", "G2", "P2", "B1", "B2"])
    for difficulty in ("normal", "hard"):
        assert decide(strong, 0, difficulty)["value"] > decide(weak, 0, difficulty)["value"]


def test_easy_guess_stays_within_0_to_15() -> None:
    view = GAME.view(GAME.new(2, GAME.resolve_options({}), 1), 0)
    guesses = {easy_guess(view, random.Random(i)) for i in range(30)}
    assert guesses <= set(range(16))
