"""Hachinin Meri CPU player: legal, team-aware, and blind to what its seat cannot see."""

from __future__ import annotations

import random
import time
from typing import Any

from server.bots.contract import Decision
from server.bots.hachinin_meri import POLICY
from server.bots.registry import policy_for
from server.games.hachinin_meri import GAME
from server.games.rng import Rng
from tests.bench.bot_arena import situation
from tests.games.test_hachinin_meri import at_play, mid_deal, play, with_robai_at

JUNK = [["G1", "G2"], ["G3", "G4"], ["G5", "G6"], ["G7", "G8"]]


def decide(state: dict[str, Any], seat: int, difficulty: str = "normal", seed: int = 1) -> Decision:
    """The policy's decision for `seat`, with seeded generators."""
    sit = situation(GAME, state, seat, difficulty, Rng(seed), random.Random(seed))
    decision = POLICY.decide(sit)
    assert decision is not None and decision.action in sit.legal
    return decision


def test_bot_is_registered_for_the_game() -> None:
    assert policy_for("hachinin_meri") is POLICY


def test_bot_delay_is_the_same_whether_it_could_declare_or_not() -> None:
    state = with_robai_at(3)
    while state["asking"] != 3:
        GAME.apply(state, state["asking"], {"type": "pass"}, 0)
    holder = decide(state, 3, seed=9)
    state["hands"][3], state["hands"][4] = state["hands"][4], state["hands"][3]
    other = decide(state, 3, seed=9)
    assert holder.delay_ms == other.delay_ms and 500 <= holder.delay_ms <= 1500


def test_bot_declares_a_strong_okie_against_an_opposing_dealer() -> None:
    state = with_robai_at(3)
    state.update(okie=state["trump"] + "Su", dealer=2, asking=3)
    assert decide(state, 3).action == {"type": "declare"}


def test_bot_conceals_its_robai_when_its_own_team_deals() -> None:
    state = with_robai_at(3)
    state.update(okie=state["trump"] + "Su", dealer=1, asking=3)
    assert decide(state, 3).action == {"type": "pass"}


def test_bot_takes_a_plain_trick_with_its_cheapest_sure_trump() -> None:
    hands = [["K1", "K2"], ["ISu", "IUn", "K3"], ["K4", "K7"], ["K5", "K6"], *JUNK]
    state = at_play(hands)
    play(state, "K1")
    assert decide(state, 1).action["card"] == "IUn"


def test_bot_does_not_trump_over_a_partner_when_no_opponent_is_left() -> None:
    hands = [["K1", "K2"], ["K3", "K8"], ["K4", "K7"], ["K5", "K6"], ["G1", "G2"]]
    hands += [["I3", "G9"], ["G5", "G6"], ["ISu", "O1"]]
    state = at_play(hands)
    play(state, "K1", "K3", "K4", "K5", "G1", "I3", "G5")
    assert decide(state, 7).action["card"] == "O1"


def test_bot_plays_low_under_a_partners_unbeatable_meri() -> None:
    hands = [["ISu", "K2"], ["I1", "K3"], ["I9", "I2", "K4"], *JUNK, ["K5", "K6"]]
    state = at_play(hands)
    play(state, "ISu", "I1")
    assert decide(state, 2).action["card"] == "I2"


def test_bot_hard_decision_ignores_cards_its_seat_cannot_see() -> None:
    state = GAME.new(8, {}, 4)
    driver = random.Random(4)
    while not (state["phase"] == "play" and state["trick"] == 6):
        seat = next(s for s in range(8) if GAME.actions(state, s))
        GAME.apply(state, seat, driver.choice(GAME.actions(state, seat)), 0)
    seat = state["turn"]
    other = GAME.shuffle_unseen(state, seat, random.Random(99))
    assert GAME.view(other, seat) == GAME.view(state, seat)
    assert decide(state, seat, "hard", seed=3) == decide(other, seat, "hard", seed=3)


def no_clock(monkeypatch: Any) -> None:
    """Make every clock a policy might read raise."""

    def refuse(*_: Any) -> float:
        raise AssertionError("a CPU player read the clock")

    for name in ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time"):
        monkeypatch.setattr(time, name, refuse)


def test_bot_hard_decides_from_the_seed_and_the_view_alone_without_a_clock(
    monkeypatch: Any,
) -> None:
    state = mid_deal(6, 2)
    seat = state["turn"]
    assert len(GAME.actions(state, seat)) > 1
    no_clock(monkeypatch)
    assert decide(state, seat, "hard", seed=4) == decide(state, seat, "hard", seed=4)


def test_bot_plays_only_legal_moves_through_a_whole_match_at_every_level() -> None:
    state = GAME.new(8, {}, 12)
    levels = ["easy", "normal", "easy", "normal", "easy", "normal", "easy", "normal"]
    rngs = [Rng(s) for s in range(8)]
    while GAME.outcome(state) is None:
        seat = next(s for s in range(8) if GAME.actions(state, s))
        sit = situation(GAME, state, seat, levels[seat], rngs[seat], random.Random(seat))
        decision = POLICY.decide(sit)
        assert decision is not None and decision.action in sit.legal
        GAME.apply(state, seat, decision.action, 0)
    assert len(state["history"]) == 8
