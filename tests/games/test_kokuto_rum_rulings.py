"""Kokuto Rum rules: one test per hidden-information point (hi_...) and ruling (k1..k10)."""

from __future__ import annotations

import json
import random

import pytest

from server.games import shirokuro_deck as sd
from server.games.contract import IllegalAction
from server.games.kokuto_rum import GAME, scoring
from server.games.kokuto_rum.state import tables
from tests.conformance import check_match
from tests.games.kokuto_rum_support import (
    CARD_RE,
    OPTS,
    do,
    drawn_texts,
    fresh,
    held,
    position,
    round_end,
    take_turn,
    values,
)

# -- hidden information -----------------------------------------------------------------


def test_hi_own_hand_shows_order_and_orientation() -> None:
    state = position([["B6/W1", "W3/B2", "B4/W5"], ["W1/B3"]])
    view = GAME.view(state, 0)
    assert view["hand"] == ["B6/W1", "W3/B2", "B4/W5"] and view["seat"] == 0


def test_hi_other_hands_are_hidden_and_their_sizes_public() -> None:
    state = position([["B6/W1", "W3/B2"], ["W1/B3", "W4/B2", "W5/B6"]])
    view = GAME.view(state, 0)
    assert view["hand_sizes"] == [2, 3]
    assert not {"W1/B3", "W4/B2", "W5/B6"} & set(CARD_RE.findall(json.dumps(view)))


def test_hi_a_card_drawn_from_the_pile_is_hidden_from_others() -> None:
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W4/B6"])
    events = do(state, 0, {"type": "draw", "from": "pile"})
    assert "card" not in events[0]
    assert GAME.view(state, 0)["drawn"] == "W4/B6"
    other = GAME.view(state, 1)
    assert other["drawn"] is None and other["drawn_from"] == "pile"
    assert "W4/B6" not in json.dumps(other) and "B6/W4" not in json.dumps(other)


def test_hi_a_card_taken_from_the_discard_pile_is_public_while_held() -> None:
    state = position([["W1/B2"], ["W1/B3"]], discards=["W4/B6"])
    take_turn(state, 0, "discard", pos=0, discard_pos=1)
    assert GAME.view(state, 1)["known"] == [["W4/B6"], []]
    assert GAME.view(state, 1)["log"][-3] == {
        "type": "draw",
        "seat": 0,
        "from": "discard",
        "card": "W4/B6",
    }


def test_hi_discard_history_pile_count_and_vp_are_public() -> None:
    state = position([["W1/B2", "W3/B4"], ["W1/B3", "W6/B4"]], discards=["W4/B6"], vp=[3, 7])
    take_turn(state, 0, "pile", pos=0, discard_pos=0)
    spectator = GAME.view(state, None)
    assert spectator["discards"][0] == "W4/B6" and len(spectator["discards"]) == 2
    assert spectator["pile_count"] == len(state.pile) and spectator["vp"] == [3, 7]
    assert spectator["hand"] is None and spectator["seat"] is None


def test_hi_the_pile_order_never_shows_in_a_view() -> None:
    state = fresh(2, seed=11)
    pile = {tables("A").card_text[c] for c in state.pile}
    for seat in (0, 1, None):
        assert not pile & set(CARD_RE.findall(json.dumps(GAME.view(state, seat))))


def test_hi_views_do_not_change_when_unseen_cards_are_redealt() -> None:
    for options in ({}, {"physical_fidelity": True}, {"deck": "B"}):
        state = fresh(3, seed=5, **options)
        take_turn(state, state.turn, "discard", pos=2, discard_pos=5)
        do(state, state.turn, {"type": "draw", "from": "pile"})
        for seat in (0, 1, 2, None):
            for seed in range(5):
                world = GAME.shuffle_unseen(state, seat, random.Random(seed))
                assert GAME.view(world, seat) == GAME.view(state, seat)


def test_hi_shuffle_unseen_redeals_the_pile_and_other_hands() -> None:
    state = fresh(2, seed=5)
    worlds = [GAME.shuffle_unseen(state, 0, random.Random(seed)) for seed in range(10)]
    assert all(w.hands[0] == state.hands[0] for w in worlds)
    assert len({tuple(w.hands[1]) for w in worlds}) == 10
    assert len({tuple(w.pile) for w in worlds}) == 10


def test_hi_shuffle_unseen_keeps_known_cards_in_their_holders_hand() -> None:
    state = position([["W1/B2", "W3/B4"], ["W1/B3", "W6/B4"]], discards=["W4/B6"])
    take_turn(state, 0, "discard", pos=1, discard_pos=0)
    for seed in range(10):
        world = GAME.shuffle_unseen(state, 1, random.Random(seed))
        assert held("W4/B6") // 2 in [h // 2 for h in world.hands[0]]


def test_hi_physical_fidelity_shows_positions_but_not_orientations() -> None:
    opts = {"physical_fidelity": True}
    state = position([["W1/B2", "W3/B4"], ["W1/B3"]], discards=["W4/B6"], options=opts)
    do(state, 0, {"type": "draw", "from": "discard"})
    events = do(state, 0, {"type": "insert", "pos": 1, "card": "B6/W4"})
    assert events[0]["pos"] == 1
    assert GAME.view(state, 1)["known"][0] == [None, "W4/B6", None]
    assert "B6/W4" not in json.dumps(GAME.view(state, 1))


def test_hi_physical_fidelity_shows_where_a_discard_was_taken_from() -> None:
    opts = {"physical_fidelity": True}
    state = position([["W1/B2", "W3/B4"], ["W1/B3"]], discards=["W4/B6"], options=opts)
    do(state, 0, {"type": "draw", "from": "discard"})
    do(state, 0, {"type": "insert", "pos": 1, "card": "B6/W4"})
    events = do(state, 0, {"type": "discard", "pos": 2, "card": "W3/B4", "knock": False})
    assert events[0] == {"type": "discard", "seat": 0, "card": "W3/B4", "pos": 2}
    assert GAME.view(state, 1)["log"][-1] == events[0]
    assert GAME.view(state, 1)["known"][0] == [None, "W4/B6"]
    plain = position([["W1/B2", "W3/B4"], ["W1/B3"]], discards=["W4/B6"])
    take_turn(plain, 0, "discard", pos=1, discard_pos=2)
    assert "pos" not in plain.log[-1]


def test_hi_without_fidelity_positions_stay_hidden() -> None:
    state = position([["W1/B2", "W3/B4"], ["W1/B3"]], discards=["W4/B6"])
    do(state, 0, {"type": "draw", "from": "discard"})
    events = do(state, 0, {"type": "insert", "pos": 1, "card": "B6/W4"})
    assert "pos" not in events[0] and GAME.view(state, 1)["known"][0] == ["W4/B6"]


@pytest.mark.parametrize("seats", [2, 3])
def test_hi_physical_fidelity_matches_conform_to_the_schema(seats: int) -> None:
    # Slots of unknown cards are null, and insert and discard events carry `pos`.
    check_match(GAME, seats, {"physical_fidelity": True}, seed=3)


def test_hi_round_end_reveals_every_hand() -> None:
    state = fresh(3, seed=2)
    hands = None
    seat = state.turn
    do(state, seat, {"type": "draw", "from": "pile"})
    do(state, seat, {"type": "insert", "pos": 0, "card": drawn_texts(state)[1]})
    hands = [[tables("A").held_text[h] for h in hand] for hand in state.hands]
    do(state, seat, {"type": "knock"})
    assert GAME.view(state, None)["last_round"]["hands"] == hands


def test_hi_errors_never_name_a_card() -> None:
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W4/B6"])
    do(state, 0, {"type": "draw", "from": "pile"})
    tries = [
        (0, {"type": "insert", "pos": 0, "card": "W5/B1"}),
        (0, {"type": "insert", "pos": 9, "card": "W4/B6"}),
        (0, {"type": "discard", "pos": 0, "card": "W1/B2", "knock": False}),
        (1, {"type": "draw", "from": "pile"}),
    ]
    for seat, action in tries:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, seat, action, 0)
        assert not CARD_RE.search(str(err.value))


# -- rulings ----------------------------------------------------------------------------


def test_k1_deck_composition_a_is_the_default_and_b_an_option() -> None:
    assert OPTS["deck"] == "A"
    state = GAME.new(2, GAME.resolve_options({"deck": "B"}), 0)
    cards = [h // 2 for hand in state.hands for h in hand] + state.pile + state.discards
    assert {sum(sd.deck("B")[c]) for c in cards} == {7}


def test_k2_rotation_flips_orientations_and_keeps_the_order() -> None:
    state = GAME.new(2, OPTS, 8)
    before = GAME.view(state, 0)["hand"]
    do(state, 0, {"type": "rotate", "flip": True})
    do(state, 1, {"type": "rotate", "flip": True})
    after = GAME.view(state, 0)["hand"]
    assert after == [t[3:] + "/" + t[:2] for t in before]


def test_k3_discarding_the_card_taken_from_the_discards_is_allowed_by_default() -> None:
    state = position([["W1/B2"], ["W1/B3"]], discards=["W4/B6"])
    do(state, 0, {"type": "draw", "from": "discard"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W4/B6"})
    do(state, 0, {"type": "discard", "pos": 0, "card": "W4/B6", "knock": False})
    assert GAME.view(state, 1)["discards"] == ["W4/B6"]


def test_k3_option_forbids_discarding_the_card_taken_from_the_discards() -> None:
    opts = {"discard_taken_card": False}
    state = position([["W1/B2"], ["W1/B3"]], discards=["W4/B6"], options=opts)
    do(state, 0, {"type": "draw", "from": "discard"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W4/B6"})
    assert {a.get("pos") for a in GAME.actions(state, 0) if a["type"] == "discard"} == {1}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "discard", "pos": 0, "card": "W4/B6", "knock": False}, 0)
    assert err.value.code == "taken_card"


def test_k3_option_still_allows_discarding_a_card_drawn_from_the_pile() -> None:
    opts = {"discard_taken_card": False}
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W4/B6"], options=opts)
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W4/B6"})
    do(state, 0, {"type": "discard", "pos": 0, "card": "W4/B6", "knock": False})
    assert state.hands[0] == [held("W1/B2")]


def test_k4_option_forces_a_discard_before_knocking() -> None:
    opts = {"knock_before_discard": False}
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W4/B6"], options=opts)
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W4/B6"})
    assert {"type": "knock"} not in GAME.actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "knock"}, 0)
    assert err.value.code == "discard_first"
    events = do(state, 0, {"type": "discard", "pos": 0, "card": "W4/B6", "knock": True})
    assert round_end(events)["knocker"] == 0


def test_k5_the_best_partition_is_used() -> None:
    # run W1-W2-W3 would leave W3 W3 (6); the set W3 W3 W3 leaves W1 W2 (3)
    assert scoring.score(values("W1 W2 W3 W3 W3")) == 3
    assert scoring.best_melds(values("B2 B3 B4 B4 B4"))[0] == 5


def test_k5_long_runs_and_sets_of_four_or_five_are_melds() -> None:
    assert scoring.score(values("B1 B2 B3 B4 B5 B6")) == 0
    assert scoring.score(values("W5 W5 W5 W5 W5 B1")) == 1


def test_k5_run_numbers_must_be_strictly_monotonic() -> None:
    assert scoring.score(values("W2 W4 W3")) == 9
    assert scoring.score(values("W2 W3 W2")) == 7
    assert scoring.score(values("W2 W3 W3 W4")) == 12


def test_k6_tied_lowest_non_knockers_each_gain_the_underknock() -> None:
    assert scoring.knock_gains([9, 4, 4], 0) == [0, 10, 10]


def test_k7_the_difference_is_taken_to_the_lowest_other_score() -> None:
    assert scoring.knock_gains([2, 9, 5], 0) == [3, 0, 0]


def test_k8_kokuto_tied_with_another_zero_still_scores_5() -> None:
    assert scoring.knock_gains([0, 0, 6], 0) == [5, 0, 0]


def test_k9_a_player_may_knock_at_any_score() -> None:
    hand = ["W6/B1", "B6/W2", "W5/B3", "B5/W4", "W6/B4", "B6/W3", "W5/B2", "B5/W1"]
    state = position([hand, ["W1/B3"]], pile=["W4/B6"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "B6/W4"})
    end = round_end(do(state, 0, {"type": "knock"}))
    assert end["scores"] == [50, 1] and end["gains"] == [0, 54]


def test_k9_there_are_no_layoffs_onto_the_knockers_melds() -> None:
    state = position([["W1/B2", "W2/B3", "W3/B4"], ["W4/B5"]], pile=["W5/B6"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 3, "card": "W5/B6"})
    end = round_end(do(state, 0, {"type": "discard", "pos": 3, "card": "W5/B6", "knock": True}))
    assert end["scores"] == [0, 4] and end["gains"] == [9, 0]


def test_k10_first_discard_hidden_until_rotation_chosen() -> None:
    state = GAME.new(3, OPTS, 4)
    first = tables("A").card_text[state.pile[-1]]  # the pile's top: turned up next
    for seat in (0, 1, 2, None):
        view = GAME.view(state, seat)
        assert view["discards"] == [] and first not in json.dumps(view)
    events = do(state, 0, {"type": "rotate", "flip": True})
    events += do(state, 1, {"type": "rotate", "flip": False})
    assert GAME.view(state, None)["discards"] == [] and first not in json.dumps(events)
    events = do(state, 2, {"type": "rotate", "flip": False})
    assert [e["type"] for e in events] == ["rotation_chosen", "first_discard", "play_starts"]
    assert events[1] == {"type": "first_discard", "card": first}
    assert GAME.view(state, 1)["discards"] == [first] and GAME.view(state, 1)["pile_count"] == 5


def test_k10_sampled_worlds_do_not_know_the_first_discard() -> None:
    state = GAME.new(2, OPTS, 4)
    turned = set()
    for seed in range(12):
        world = GAME.shuffle_unseen(state, 0, random.Random(seed))
        for s in range(2):
            if world.flips[s] is None:
                do(world, s, {"type": "rotate", "flip": False})
        turned.add(world.discards[0])
    assert len(turned) > 1  # the real first discard is one unseen card among many


def test_k10_a_match_saved_before_k10_turns_its_first_discard_up_after_the_choices() -> None:
    state = GAME.new(2, OPTS, 4)
    first = state.pile[-1]
    old = GAME.dump(state)  # as saved before K10: turned up at the deal
    old["pile"], old["discards"] = old["pile"][:-1], [first]
    old["log"][0] = {**old["log"][0], "discard": tables("A").card_text[first]}
    loaded = GAME.load(old)
    assert GAME.view(loaded, 0) == GAME.view(state, 0)
    played = GAME.load({**old, "phase": "draw", "flips": [False, False], "log": old["log"]})
    assert [e["type"] for e in GAME.view(played, 0)["log"]] == ["deal", "first_discard"]


def test_options_named_by_the_rulings_are_real_options_with_defaults() -> None:
    assert OPTS == {
        "deck": "A",
        "first_dealer": "random",
        "discard_taken_card": True,
        "knock_before_discard": True,
        "physical_fidelity": False,
    }
    assert {o["name"] for o in GAME.describe()["options"]} == set(OPTS)
