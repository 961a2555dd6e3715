"""The Junocos CPU player: legal, view-only, aims at its bet, drafts with intent."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from server.bots.contract import Situation
from server.bots.junocos import POLICY
from server.bots.random_policy import RandomPolicy
from server.bots.registry import policy_for
from server.games.junocos import GAME
from server.games.rng import Rng
from tests.bench.bot_arena import play_match, situation


def fresh(seats: int = 4, seed: int = 1) -> dict[str, Any]:
    return GAME.new(seats, GAME.resolve_options({}), seed)


def in_play(trump: str, hands: list[list[str]], opens: list[list[str]], won: list[int]) -> Any:
    state = fresh(len(hands))
    state.update(
        phase="play",
        row=[],
        trump=trump,
        hands=hands,
        open=opens,
        won=won,
        leader=0,
        turn=0,
        trick=[],
    )
    return state


def decide(state: dict[str, Any], seat: int, difficulty: str = "normal") -> dict[str, Any]:
    sit = situation(GAME, state, seat, difficulty, Rng(5), random.Random(5))
    decision = POLICY.decide(sit)
    assert decision is not None
    return decision.action


def test_policy_is_registered_for_junocos() -> None:
    assert policy_for("junocos") is POLICY


@pytest.mark.parametrize("difficulty", ["easy", "normal"])
def test_whole_match_against_random_players_ends(difficulty: str) -> None:
    policies = [POLICY, RandomPolicy(), POLICY, RandomPolicy()]
    result = play_match(GAME, 4, policies, [difficulty] * 4, seed=3)
    assert len(result["places"]) == 4


def test_hard_moves_are_legal_in_draft_and_play() -> None:
    state = fresh(3, seed=2)
    for _ in range(20):
        seat = state["turn"]
        action = decide(state, seat, "hard")
        assert action in GAME.actions(state, seat)
        GAME.apply(state, seat, action, 0)


def test_delay_looks_human() -> None:
    state = fresh(4)
    sit = situation(GAME, state, 0, "normal", Rng(1), random.Random(1))
    decision = POLICY.decide(sit)
    assert decision is not None and 500 <= decision.delay_ms <= 1500


def test_no_decision_without_legal_moves() -> None:
    state = fresh(4)
    sit = situation(GAME, state, 1, "hard", Rng(1), random.Random(1))
    assert POLICY.decide(sit) is None


def test_decision_depends_only_on_the_view() -> None:
    state = fresh(4, seed=9)
    for _ in range(20):
        GAME.apply(state, state["turn"], GAME.actions(state, state["turn"])[0], 0)
    seat = state["turn"]
    other = GAME.shuffle_unseen(state, seat, random.Random(1))
    assert other["hands"] != state["hands"]
    assert decide(state, seat) == decide(other, seat)


def test_ducks_once_the_bet_is_reached() -> None:
    # seat 1 has 2 tricks and its locked declaration is G2: it must not take another
    state = in_play("B4", [["R1"], ["R6", "R0"], ["R5", "G1"]], [["Y2"], ["G2"], ["G3"]], [0, 2, 0])
    GAME.apply(state, 0, {"type": "play", "card": "R1", "from": "hand"}, 0)
    assert decide(state, 1) == {"type": "play", "card": "R0", "from": "hand"}


def test_wins_while_below_the_bet() -> None:
    state = in_play("B4", [["R1"], ["R6", "R0"], ["R5", "G1"]], [["Y2"], ["G2"], ["G3"]], [0, 1, 0])
    GAME.apply(state, 0, {"type": "play", "card": "R1", "from": "hand"}, 0)
    assert decide(state, 1) == {"type": "play", "card": "R6", "from": "hand"}


def test_keeps_the_open_card_that_shows_its_goal() -> None:
    # no tricks yet and weak cards: it aims at zero and keeps the R0 as its declaration
    state = in_play(
        "B4",
        [["G1", "Y2"], ["G2", "G3"], ["G5", "Y6"]],
        [["R0", "Y1"], ["R1"], ["R2"]],
        [0, 0, 0],
    )
    action = decide(state, 0)
    assert action != {"type": "play", "card": "R0", "from": "open"}


def test_draft_prefers_a_new_open_number_to_a_repeat() -> None:
    state = fresh(4, seed=4)
    state.update(row=["Y3", "G4", "R5", "B6"], open=[["R3"], [], [], []], picks=[[0, "R3"]])
    assert decide(state, 0) == {"type": "pick", "card": "G4"}


def test_draft_pick_changes_with_the_open_cards_held() -> None:
    state = fresh(4, seed=4)
    state.update(row=["Y3", "G4", "R5", "B6"], open=[["R4"], [], [], []], picks=[[0, "R4"]])
    assert decide(state, 0) == {"type": "pick", "card": "Y3"}


def test_normal_beats_random_over_a_few_matches() -> None:
    policies: list[Any] = [POLICY, RandomPolicy(), RandomPolicy(), RandomPolicy()]
    wins = sum(
        play_match(GAME, 4, policies, ["normal"] * 4, seed=seed)["places"][0] == 1
        for seed in range(12)
    )
    assert wins >= 6  # random would take about 3 of 12


def test_situation_type_is_the_contracts() -> None:
    sit = situation(GAME, fresh(4), 0, "easy", Rng(1), random.Random(1))
    assert isinstance(sit, Situation) and sit.legal


def test_hard_decides_from_seed_and_view_alone_without_a_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Defect 9: a wall-clock budget gave busy machines other moves; the budget is in steps.
    def no_clock() -> float:
        raise AssertionError("a CPU decision read the clock")

    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, no_clock)
    state = fresh(4, seed=8)
    for _ in range(6):  # six picks into the draft; later three tricks into the round
        GAME.apply(state, state["turn"], GAME.actions(state, state["turn"])[-1], 0)
    for phase in ("draft", "play"):
        while state["phase"] != phase or (phase == "play" and len(state["tricks"]) < 3):
            GAME.apply(state, state["turn"], GAME.actions(state, state["turn"])[0], 0)
        first, again = (decide(state, state["turn"], "hard") for _ in range(2))
        assert first == again and first in GAME.actions(state, state["turn"])


def test_hard_plays_from_sampled_worlds() -> None:
    state = fresh(4, seed=6)
    calls = []

    def sample() -> Any:
        calls.append(1)
        return GAME.shuffle_unseen(state, 0, random.Random(len(calls)))

    sit = Situation(GAME, 0, GAME.view(state, 0), GAME.actions(state, 0), "hard", Rng(1), sample)
    decision = POLICY.decide(sit)
    assert decision is not None and decision.action in sit.legal
    assert calls


def test_hard_decides_from_the_view_not_from_where_the_hidden_cards_are() -> None:
    # Issue 47's repro: 13 random moves, then seat 1 decides; swapping seats 0 and 2's
    # hands leaves seat 1's view as it was, so neither its worlds nor its move may change.
    state = GAME.new(4, GAME.resolve_options({}), 2)
    driver = random.Random(2)
    for _ in range(13):
        GAME.apply(state, state["turn"], driver.choice(GAME.actions(state, state["turn"])), 0)
    swapped = GAME.copy(state)
    swapped["hands"][0], swapped["hands"][2] = state["hands"][2], state["hands"][0]
    assert state["turn"] == 1 and GAME.view(swapped, 1) == GAME.view(state, 1)
    worlds = [GAME.dump(GAME.shuffle_unseen(s, 1, random.Random(5))) for s in (state, swapped)]
    assert worlds[0] == worlds[1]

    def hard(st: dict[str, Any]) -> dict[str, Any]:
        rng = Rng.from_seed(0)  # one generator for the policy and its worlds, as in a room
        sit = Situation(
            GAME,
            1,
            GAME.view(st, 1),
            GAME.actions(st, 1),
            "hard",
            rng,
            lambda: GAME.shuffle_unseen(st, 1, rng),
        )
        decision = POLICY.decide(sit)
        assert decision is not None
        return decision.action

    assert hard(swapped) == hard(state)
