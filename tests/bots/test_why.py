"""Every Hard CPU decision says why (issue 45): one plain sentence in English and Japanese.

Seeded matches with every seat at Hard, up to a number of decisions each: each decision
carries `why` in both languages, built from what the policy computed (card names as the
tables say them, no raw key), and the sentence is the same for the same view and seed.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from server.bots.advice import advise
from server.bots.registry import policy_for
from server.games import registry
from server.games.rng import Rng
from tests.bench.bot_arena import situation
from tests.games.test_helpers import JAPANESE, SEATS

DECISIONS = 150  # per match: enough to reach each kind of decision of every game
RAW = re.compile(r"[{}]|\b[a-z]+_[a-z_]+\b|\bNone\b|'")


def hard_decisions(game_id: str, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(decision, its situation's view) of every Hard decision of a seeded match."""
    game = registry.get(game_id)
    seats = SEATS[game_id]
    state = game.new(seats, game.resolve_options({}), seed)
    policy = policy_for(game_id)
    rngs = [Rng.from_seed(seed * 31 + s) for s in range(seats)]
    worlds = random.Random(seed)
    made: list[tuple[Any, dict[str, Any]]] = []
    now = 0
    while len(made) < DECISIONS and game.outcome(state) is None:
        pending = []
        for s in range(seats):
            if game.actions(state, s):
                sit = situation(game, state, s, "hard", rngs[s], worlds)
                decision = policy.decide(sit)
                if decision is not None:
                    made.append((decision, sit.view))
                    pending.append((decision.delay_ms, s, decision))
        legal = [(s, d) for _, s, d in sorted(pending) if d.action in game.actions(state, s)]
        due = game.deadline(state)
        if legal and (due is None or due > now + min(p[0] for p in pending)):
            s, decision = legal[0]
            now += max(1, decision.delay_ms)
            game.apply(state, s, decision.action, now)
        elif due is not None:
            now = max(now, due)
            game.expire(state, now)
        else:
            break
    return made


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_every_hard_decision_says_why_in_both_languages(game_id: str) -> None:
    kinds = set()
    for seed in (1, 2):
        made = hard_decisions(game_id, seed)
        assert len(made) >= 20
        for decision, view in made:
            why = decision.why
            assert why is not None, (decision.action, view.get("phase"))
            assert set(why) == {"en", "ja"}, why
            for lang in ("en", "ja"):
                assert why[lang].strip() and not RAW.search(why[lang].replace("'s ", "s ")), why
            assert why["en"].endswith(".") and why["ja"].endswith("。"), why
            assert JAPANESE.search(why["ja"]), why
            kinds.add(decision.action["type"])
    assert len(kinds) >= 2  # the matches reach more than one kind of decision


def test_the_sentence_names_the_move() -> None:
    """A played card is named in the sentence as the table names it."""
    named = 0
    for decision, _ in hard_decisions("utsuke", 3):
        if decision.action["type"] == "play" and "only card" not in decision.why["en"]:
            card = decision.action["card"]
            colour = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}
            assert f"the {colour[card[0]]} {card[1:]} " in decision.why["en"], decision
            named += 1
    assert named > 5


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_why_depends_on_the_view_and_seed_alone(game_id: str) -> None:
    """The hint's sentence is the same when the cards the seat cannot see are re-dealt."""
    game = registry.get(game_id)
    seats = SEATS[game_id]
    state = game.new(seats, game.resolve_options({}), 4)
    policy = policy_for(game_id)
    rng = Rng.from_seed(4)
    compared = 0
    now = 0
    for step in range(60):
        movers = [s for s in range(seats) if game.actions(state, s)]
        due = game.deadline(state)
        if not movers and due is not None:
            now = max(now, due)
            game.expire(state, now)
            continue
        if not movers or game.outcome(state) is not None:
            break
        seat = movers[step % len(movers)]
        if step % 6 == 0:
            world = game.shuffle_unseen(state, seat, random.Random(step))
            first, again = advise(game, state, seat, step), advise(game, world, seat, step)
            assert first is not None and first == again
            compared += 1
        decision = policy.decide(situation(game, state, seat, "normal", rng, random.Random(1)))
        legal = game.actions(state, seat)
        action = decision.action if decision and decision.action in legal else legal[0]
        now += 1000
        game.apply(state, seat, action, now)
    assert compared >= 3
