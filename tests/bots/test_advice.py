"""Hints (`server.bots.advice`): per game, on seeded mid-round positions, the advice is a
legal move, is the Hard policy's decision from that seat's view and the seed, and stays
the same when the cards the seat cannot see are dealt again."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.bots.advice import GENERIC_WHY, Advice, advise, hint_seed
from server.bots.contract import Decision, Policy, Situation
from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import Game
from server.games.rng import Rng
from server.store import codec
from tests.bots.positions import SEATS, mid_round

POSITIONS = 4


def hard_decision(game: Game, state: Any, seat: int, seed: int) -> Decision | None:
    """The Hard policy's own decision, asked the way the room asks a CPU seat."""
    rng = Rng(seed)
    situation = Situation(
        game=game,
        seat=seat,
        view=game.view(state, seat),
        legal=game.actions(state, seat),
        difficulty="hard",
        rng=rng,
        sample_world=lambda: game.shuffle_unseen(state, seat, rng),
    )
    return policy_for(game.id).decide(situation)


def cases() -> list[tuple[str, int]]:
    return [(game_id, seed) for game_id in sorted(SEATS) for seed in range(POSITIONS)]


def position(game: Game, seats: int, index: int) -> tuple[Any, list[int]]:
    """The `index`-th seeded mid-round position where some seat has a move."""
    found = 0
    for seed in range(1000, 1100):
        state, movers = mid_round(game, seats, seed)
        if movers:
            if found == index:
                return state, movers
            found += 1
    raise AssertionError("no position with a move to make")


@pytest.mark.parametrize(("game_id", "seed"), cases())
def test_advice_is_the_hard_move_from_the_view_alone(game_id: str, seed: int) -> None:
    game = registry.get(game_id)
    state, movers = position(game, SEATS[game_id], seed)
    before = codec.pack(game.dump(state))
    for seat in movers:
        hint = hint_seed(seed, seat, 7)
        advice = advise(game, state, seat, hint)
        assert codec.pack(game.dump(state)) == before, "advise changed the state"
        decision = hard_decision(game, state, seat, hint)
        if decision is None:
            assert advice is None
            continue
        assert isinstance(advice, Advice)
        assert advice.action == decision.action
        assert advice.action in game.actions(state, seat)
        assert set(advice.why) == {"en", "ja"} and all(advice.why.values())
        # Every card this seat cannot see dealt again, twice: the view is unchanged and
        # so is the advice.
        for redeal in range(2):
            other = game.shuffle_unseen(state, seat, random.Random(seed * 10 + redeal))
            assert game.view(other, seat) == game.view(state, seat)
            assert advise(game, other, seat, hint) == advice


def test_no_decision_means_no_advice() -> None:
    game = registry.get("hachinin_meri")
    state, movers = position(game, 8, 0)
    idle = next(s for s in range(8) if s not in movers)
    assert advise(game, state, idle, 1) is None


class Says(Policy):
    """A policy that plays the first legal move, with or without a reason."""

    def __init__(self, why: dict[str, str] | None) -> None:
        self.why = why

    def decide(self, situation: Situation) -> Decision | None:
        return Decision(situation.legal[0], 0, self.why)


def test_the_policy_reason_or_a_generic_one(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.get("kokuto_rum")
    state = game.new(2, game.resolve_options({}), 3)
    seat = next(s for s in range(2) if game.actions(state, s))
    own = {"en": "Because.", "ja": "だから。"}
    monkeypatch.setattr("server.bots.advice.policy_for", lambda _id: Says(own))
    assert advise(game, state, seat, 1) == Advice(game.actions(state, seat)[0], own)
    monkeypatch.setattr("server.bots.advice.policy_for", lambda _id: Says(None))
    assert advise(game, state, seat, 1).why == GENERIC_WHY


def test_hint_seed_depends_on_each_part() -> None:
    seeds = {hint_seed(a, b, c) for a in (1, 2) for b in (0, 1) for c in (5, 6)}
    assert len(seeds) == 8
    assert all(0 <= s < 1 << 64 for s in seeds)
