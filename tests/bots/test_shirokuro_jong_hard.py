"""Shirokuro Jong's Hard CPU: the choices that make it stronger than Normal.

Positions are built from held-card texts, so which cards are unseen (and so each wait's
outs) is fixed. Strength itself is measured by tests/bench/bench_levels.py.
"""

from __future__ import annotations

import random

import pytest

from server.bots.contract import Situation
from server.bots.shirokuro_jong import POLICY
from server.bots.shirokuro_jong.hard import wait_mask
from server.bots.shirokuro_jong.shape import unseen_supply
from server.games.rng import Rng
from server.games.shirokuro_jong import GAME
from server.games.shirokuro_jong.hands import value_code, waits
from server.games.shirokuro_jong.state import JongState
from tests.bench.bot_arena import play_match
from tests.bench.bot_arena import situation as arena_situation
from tests.games.shirokuro_jong_support import play, table


def situation(state: JongState, seat: int, difficulty: str) -> Situation:
    """What the policy sees at `seat` now."""
    return arena_situation(GAME, state, seat, difficulty, Rng(1), random.Random(0))


def chosen(state: JongState, seat: int, difficulty: str) -> dict:
    """The move the policy makes at `seat` now."""
    decision = POLICY.decide(situation(state, seat, difficulty))
    assert decision is not None
    return decision.action


def test_wait_mask_finds_the_engines_waits() -> None:
    rng = random.Random(5)
    tenpai = 0
    for _ in range(4000):
        need_m = rng.choice((0, 1, 2, 2))
        # Few distinct values, so that many hands are tenpai.
        pool = rng.sample(range(12), 4)
        vals = [rng.choice(pool) for _ in range(3 * need_m + 1)]
        exposed = [("k", 0)] * (2 - need_m)
        expected = waits(vals, exposed)
        assert [v for v in range(12) if wait_mask(vals, need_m) >> v & 1] == expected, vals
        tenpai += bool(expected)
    assert tenpai > 500  # the comparison covered plenty of tenpai hands


def chii_position() -> JongState:
    """Seat 0 discards W4/B1; seat 1 (next) holds W2 W3 and B4 B4 B5 B6 around a B1."""
    state = table(["W4/B1 B6 B6 W6 W6 B2 B2 W1", "W2 W3 B1 B4 B4 B5 B6"])
    play(state, (0, {"type": "discard", "index": 0}))
    return state


def test_hard_calls_chii_that_makes_it_tenpai() -> None:
    # Chii on W4 exposes W2 W3 W4; discarding B1 then leaves B4 B4 B5 B6, waiting on B4.
    assert chosen(chii_position(), 1, "hard") == {"type": "chii", "index": 0}


def test_normal_passes_on_the_same_chii() -> None:
    # Normal compares the concealed part only, so the exposed meld looks like a loss.
    assert chosen(chii_position(), 1, "normal") == {"type": "pass"}


def test_hard_passes_on_a_call_that_gains_nothing() -> None:
    # Seat 1 is tenpai on W1/W4 (B6 B6, W2 W3, B4 B4 B4). Pon of B6 leaves the same
    # waits and gives up this turn's draw, which could win.
    state = table(["B6/W5 W5 W5 W6 W6 B2 B2 B1", "B6 B6 W2 W3 B4 B4 B4"])
    play(state, (0, {"type": "discard", "index": 0}))
    assert GAME.actions(state, 1)[:2] == [{"type": "pass"}, {"type": "pon", "index": 0}]
    assert chosen(state, 1, "hard") == {"type": "pass"}


def test_hard_keeps_the_wait_that_scores_more() -> None:
    # W1 W2 W3 B2 B3 B4 are complete; keep W5 (wait W5) or B6 (wait B6). The indicator
    # W5/B3 makes W5 and B3 Dora: winning on W5 scores 4 points (Oya, three Dora), on
    # B6 only 2, though B6 has more unseen cards. Hard keeps W5 and discards B6.
    hand = "W1/B2 W2/B3 W3/B4 B2/W4 B3/W6 B4/W2 W5/B1 B6/W1"
    state = table([hand, "W4 W4 B1 B1 W6 B5 B5"], dora="W5/B3")
    state.can_tsumo = False
    supply = unseen_supply(GAME.view(state, 0))
    assert supply[value_code("W", 5)] == 3 and supply[value_code("B", 6)] == 4
    assert chosen(state, 0, "hard") == {"type": "discard", "index": 7}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hard_decides_from_its_view_alone(seed: int) -> None:
    # The same view must give the same move whatever the hidden cards are.
    state = GAME.new(3, {"rotation": False}, seed)
    play(state, (0, {"type": "discard", "index": 0}))
    for s in list(state.pending):
        play(state, (s, {"type": "pass"}))
    seat = state.turn
    world = GAME.shuffle_unseen(state, seat, random.Random(seed))
    assert GAME.view(world, seat) == GAME.view(state, seat)
    assert chosen(world, seat, "hard") == chosen(state, seat, "hard")


@pytest.mark.parametrize("seats", [2, 3])
def test_hard_plays_whole_matches_with_legal_moves(seats: int) -> None:
    result = play_match(GAME, seats, [POLICY] * seats, ["hard"] * seats, seed=11)
    assert sorted(result["places"])[0] == 1
