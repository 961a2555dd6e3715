"""Kokuto Rum rules: one test per RULINGS section 5 spec item (s1..s12), plus the rules
text's worked examples. Hidden information and rulings: test_kokuto_rum_rulings.py."""

from __future__ import annotations

import pytest

from server.games.contract import IllegalAction
from server.games.kokuto_rum import GAME, scoring
from tests.games.kokuto_rum_support import (
    OPTS,
    do,
    drawn_texts,
    finish_round_by_knock,
    fresh,
    held,
    pile_out_round,
    position,
    round_end,
    take_turn,
    values,
)

# -- spec items -------------------------------------------------------------------------


def test_s1_two_or_three_players() -> None:
    for seats in (1, 4):
        with pytest.raises(IllegalAction):
            GAME.new(seats, OPTS, 0)
    assert (GAME.min_seats, GAME.max_seats) == (2, 3)


def test_s2_deal_gives_eight_each_and_a_13_card_pile_with_two_players() -> None:
    state = fresh(2, seed=3)  # the first discard is turned up after the rotation (K10)
    assert [len(h) for h in state.hands] == [8, 8]
    assert (len(state.pile), len(state.discards)) == (13, 1)


def test_s2_deal_gives_a_5_card_pile_with_three_players() -> None:
    state = fresh(3, seed=3)
    assert [len(h) for h in state.hands] == [8, 8, 8]
    assert (len(state.pile), len(state.discards)) == (5, 1)


def test_s2_deal_uses_each_of_the_30_cards_once() -> None:
    state = fresh(3, seed=9)
    cards = [h // 2 for hand in state.hands for h in hand] + state.pile + state.discards
    assert sorted(cards) == list(range(30))


def test_s2_first_dealer_option_sets_the_dealer() -> None:
    state = GAME.new(3, GAME.resolve_options({"first_dealer": 2}), 0)
    assert state.dealer == 2


def test_s2_first_dealer_must_be_a_seat() -> None:
    with pytest.raises(IllegalAction):
        GAME.new(2, GAME.resolve_options({"first_dealer": 2}), 0)


def test_s2_dealer_rotates_each_round() -> None:
    state = fresh(3, first_dealer=1)
    finish_round_by_knock(state)
    assert (state.round, state.dealer) == (2, 2)


def test_s3_rotation_flips_every_card_of_the_seats_that_choose_it() -> None:
    state = GAME.new(2, OPTS, 4)
    before = [list(h) for h in state.hands]
    do(state, 0, {"type": "rotate", "flip": True})
    do(state, 1, {"type": "rotate", "flip": False})
    assert state.hands[0] == [h ^ 1 for h in before[0]]
    assert state.hands[1] == before[1]


def test_s3_rotation_choice_is_secret() -> None:
    state = GAME.new(2, OPTS, 4)
    events = do(state, 0, {"type": "rotate", "flip": True})
    assert all("flip" not in e for e in events)
    assert GAME.view(state, 0)["rotation"] is True
    other = GAME.view(state, 1)
    assert other["rotation"] is None and other["rotation_chosen"] == [True, False]


def test_s3_play_waits_for_every_rotation_choice() -> None:
    state = GAME.new(2, GAME.resolve_options({"first_dealer": 1}), 4)
    do(state, 0, {"type": "rotate", "flip": False})
    assert GAME.actions(state, 0) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "draw", "from": "pile"}, 0)
    assert err.value.code == "wrong_phase"


def test_s4_start_player_is_left_of_the_dealer_and_play_goes_clockwise() -> None:
    state = fresh(3, first_dealer=2)
    assert state.turn == 0
    seen = []
    for _ in range(3):
        seen.append(state.turn)
        take_turn(state, state.turn)
    assert seen == [0, 1, 2] and state.turn == 0


def test_s5_draw_from_the_discard_pile_takes_its_top_card() -> None:
    state = position([["W1/B2"] * 1, ["W1/B3"]], discards=["W5/B1", "W4/B6"])
    events = do(state, 0, {"type": "draw", "from": "discard"})
    assert events[0]["card"] == "W4/B6"
    assert drawn_texts(state) == ["W4/B6", "B6/W4"] and len(state.discards) == 1


def test_s5_draw_from_the_pile_takes_its_top_card() -> None:
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W4/B6"])
    do(state, 0, {"type": "draw", "from": "pile"})
    assert drawn_texts(state) == ["W4/B6", "B6/W4"] and len(state.pile) == 1


def test_s5_insert_anywhere_either_way_up() -> None:
    state = position([["W1/B2", "W1/B3"], ["W1/B4"]], pile=["W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    inserts = GAME.actions(state, 0)
    assert {(a["pos"], a["card"]) for a in inserts} == {
        (p, t) for p in range(3) for t in ("W2/B5", "B5/W2")
    }
    do(state, 0, {"type": "insert", "pos": 1, "card": "B5/W2"})
    assert GAME.view(state, 0)["hand"] == ["W1/B2", "B5/W2", "W1/B3"]


def test_s5_rules_text_insert_example_black_5_between_black_4_and_black_6() -> None:
    state = position([["B4/W1", "B6/W1", "W3/B1"], ["W1/B2"]], pile=["W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 1, "card": "B5/W2"})
    assert GAME.view(state, 0)["hand"][:3] == ["B4/W1", "B5/W2", "B6/W1"]


def test_s5_insert_refuses_another_cards_text() -> None:
    state = position([["W1/B2"], ["W1/B3"]], pile=["W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "insert", "pos": 0, "card": "W2/B6"}, 0)
    assert err.value.code == "wrong_card"


def test_s5_discard_may_be_the_card_just_drawn() -> None:
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W2/B5"})
    events = do(state, 0, {"type": "discard", "pos": 0, "card": "W2/B5", "knock": False})
    assert events[0]["card"] == "W2/B5" and state.discards[-1] == held("W2/B5") // 2


def test_s5_discard_passes_the_turn_clockwise() -> None:
    state = position([["W1/B2"], ["W1/B3"], ["W1/B4"]], turn=2)
    take_turn(state, 2)
    assert (state.turn, state.phase) == (0, "draw")


def test_s5_discard_orientation_does_not_matter() -> None:
    state = position([["W1/B2"], ["W1/B3"]], pile=["W5/B1", "W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "B5/W2"})
    do(state, 0, {"type": "discard", "pos": 0, "card": "B5/W2", "knock": False})
    assert GAME.view(state, 1)["discards"][-1] == "W2/B5"


def test_s6_knock_before_discarding_scores_the_nine_card_hand() -> None:
    hand = ["W2/B1", "W2/B3", "W2/B4", "W1/B5", "B2/W3", "B3/W4", "B4/W5", "B1/W6"]
    state = position([hand, ["W6/B5"] * 1], pile=["W5/B1", "W1/B4"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 8, "card": "W1/B4"})
    end = round_end(do(state, 0, {"type": "knock"}))
    assert len(end["hands"][0]) == 9 and end["scores"][0] == 3


def test_s6_knock_after_discarding_scores_the_eight_card_hand() -> None:
    hand = ["W2/B1", "W2/B3", "W2/B4", "W1/B5", "B2/W3", "B3/W4", "B4/W5", "B1/W6"]
    state = position([hand, ["W6/B5"]], pile=["W5/B1", "W1/B4"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 8, "card": "W1/B4"})
    end = round_end(do(state, 0, {"type": "discard", "pos": 8, "card": "W1/B4", "knock": True}))
    assert len(end["hands"][0]) == 8 and end["scores"][0] == 2 and end["knocker"] == 0


def test_s6_knock_is_offered_only_after_drawing_and_inserting() -> None:
    state = position([["W1/B2"], ["W1/B3"]])
    assert {"type": "knock"} not in GAME.actions(state, 0)
    do(state, 0, {"type": "draw", "from": "pile"})
    assert {"type": "knock"} not in GAME.actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "knock"}, 0)
    do(state, 0, {"type": "insert", "pos": 0, "card": drawn_texts(state)[0]})
    assert {"type": "knock"} in GAME.actions(state, 0)


def test_s6_knock_ends_the_round_at_once() -> None:
    state = fresh(2, first_dealer=0)
    events = finish_round_by_knock(state)
    assert [e["type"] for e in events] == ["round_end", "deal"]
    assert (state.round, state.phase) == (2, "rotate")


def test_s7_the_drawer_of_the_last_card_finishes_the_turn_then_the_round_ends() -> None:
    state = position([["W1/B2", "W3/B4"], ["W1/B3", "W6/B4"]], pile=["W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    assert state.pile == [] and state.phase == "insert"
    do(state, 0, {"type": "insert", "pos": 0, "card": "W2/B5"})
    events = do(state, 0, {"type": "discard", "pos": 0, "card": "W2/B5", "knock": False})
    end = round_end(events)
    assert end["reason"] == "pile_out" and end["knocker"] is None


def test_s7_knocking_on_the_last_card_is_scored_as_a_knock() -> None:
    state = position([["W1/B2", "W3/B4"], ["W1/B3", "W6/B4"]], pile=["W2/B5"])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W2/B5"})
    end = round_end(do(state, 0, {"type": "discard", "pos": 0, "card": "W2/B5", "knock": True}))
    assert end["reason"] == "knock" and end["knocker"] == 0


def test_s8_rules_text_worked_example_scores_2() -> None:
    assert scoring.best_melds(values("W2 W2 W2 W1 B2 B3 B4 B1")) == (2, [(0, 3), (4, 7)])


def test_s8_sets_of_three_four_and_five_score_zero() -> None:
    for n in (3, 4, 5):
        assert scoring.score(values(" ".join(["B4"] * n))) == 0
    assert scoring.score(values("B4 B4")) == 8


def test_s8_runs_go_up_or_down() -> None:
    assert scoring.score(values("W1 W2 W3")) == 0
    assert scoring.score(values("W6 W5 W4 W3")) == 0


def test_s8_runs_do_not_wrap_from_6_to_1() -> None:
    assert scoring.score(values("W5 W6 W1")) == 12


def test_s8_melds_need_adjacent_cards() -> None:
    assert scoring.score(values("W2 W2 B1 W2")) == 7
    assert scoring.score(values("W1 W2 B6 W3")) == 12


def test_s8_melds_need_one_colour() -> None:
    assert scoring.score(values("W1 B2 W3")) == 6
    assert scoring.score(values("W2 B2 W2")) == 6


def test_s8_only_the_upright_number_counts() -> None:
    hand = ["B6/W1", "B5/W2", "B4/W3", "W6/B1"]
    state = position([hand, ["W1/B3"]], pile=["W2/B6"])
    assert GAME.view(state, 0)["score"] == 6


def test_s9_kokuto_gains_the_lowest_other_score_plus_5() -> None:
    assert scoring.knock_gains([0, 7, 4], 0) == [9, 0, 0]


def test_s9_knocker_who_wins_gains_the_difference() -> None:
    assert scoring.knock_gains([6, 3, 9], 1) == [0, 3, 0]


def test_s9_a_tie_with_the_knocker_is_no_underknock_and_worth_0() -> None:
    assert scoring.knock_gains([5, 5], 0) == [0, 0]


def test_s9_rules_text_underknock_example_vermouth_gains_10() -> None:
    assert scoring.knock_gains([10, 5, 8], 0) == [0, 10, 0]


def test_s9_knock_vp_are_added_through_the_engine() -> None:
    hand = ["W2/B1", "W2/B3", "W2/B4", "W1/B5", "B2/W3", "B3/W4", "B4/W5", "B1/W6"]
    state = position([hand, ["W6/B5", "W5/B2"]], pile=["W5/B1", "W1/B4"], vp=[4, 1])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 8, "card": "W1/B4"})
    do(state, 0, {"type": "discard", "pos": 8, "card": "W1/B4", "knock": True})
    assert state.vp == [4 + 11 - 2, 1] and state.last_round["gains"] == [9, 0]


def test_s10_pile_out_gives_5_to_every_lowest_score() -> None:
    assert scoring.pile_out_gains([3, 3, 8]) == [5, 5, 0]
    state = position([["W1/B2", "W3/B4"], ["W1/B3", "W6/B4"]], pile=["W2/B5"], vp=[2, 2])
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W2/B5"})
    do(state, 0, {"type": "discard", "pos": 0, "card": "W2/B5", "knock": False})
    assert state.last_round["scores"] == [4, 7] and state.vp == [7, 2]


def test_s11_the_game_ends_when_someone_reaches_30() -> None:
    state = pile_out_round([25, 3], [["W1/B2"], ["W3/B4"]])
    assert state.phase == "over" and GAME.outcome(state)["places"] == [1, 2]
    assert all(GAME.actions(state, s) == [] for s in range(2))


def test_s11_the_highest_total_among_those_at_30_wins() -> None:
    state = pile_out_round([27, 29, 0], [["W1/B2"], ["W1/B3"], ["W3/B4"]])
    assert state.vp == [32, 34, 0]
    assert GAME.outcome(state)["places"] == [2, 1, 3]


def test_s11_equal_totals_share_the_win() -> None:
    state = pile_out_round([27, 27, 0], [["W1/B2"], ["W1/B3"], ["W3/B4"]])
    outcome = GAME.outcome(state)
    assert outcome["places"] == [1, 1, 3] and outcome["winners"] == [0, 1]


def test_s12_below_30_a_new_round_is_dealt_by_the_next_dealer() -> None:
    state = pile_out_round([0, 0], [["W1/B2"], ["W3/B4"]])
    assert GAME.outcome(state) is None
    assert (state.round, state.phase) == (2, "rotate")
    # 13 once the first discard is turned up after the rotation choices (K10)
    assert [len(h) for h in state.hands] == [8, 8] and len(state.pile) == 14
