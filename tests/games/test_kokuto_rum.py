"""Kokuto Rum rules: one test per RULINGS section 5 spec item (s1..s12), hidden-information
point (hi_...) and ruling (k1..k9), plus the rules text's worked examples."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from server.games import shirokuro_deck as sd
from server.games.contract import IllegalAction
from server.games.kokuto_rum import GAME, scoring
from server.games.kokuto_rum.state import DRAW, State, tables


def held(text: str, composition: str = "A", used: set[int] | None = None) -> int:
    """The held int of a held-card text, skipping card ids already in `used`."""
    t = tables(composition)
    for h, ht in enumerate(t.held_text):
        if ht == text and (used is None or h // 2 not in used):
            if used is not None:
                used.add(h // 2)
            return h
    raise ValueError(f"no free card {text!r}")


def position(
    hands: list[list[str]],
    *,
    discards: list[str] | None = None,
    pile: list[str] | None = None,
    turn: int = 0,
    options: dict[str, Any] | None = None,
    vp: list[int] | None = None,
) -> State:
    """A state in the draw phase with these hands (held texts) and piles (card texts).

    Without `discards` the discard pile holds one unnamed card; without `pile` every
    card not named forms the pile, else unnamed cards are left out of play.
    """
    opts = GAME.resolve_options(options)
    state = GAME.new(len(hands), opts, 0)
    used: set[int] = set()
    state.hands = [[held(t, opts["deck"], used) for t in hand] for hand in hands]
    state.known = [[False] * len(h) for h in hands]
    if discards is None:
        state.discards = [next(c for c in range(29, -1, -1) if c not in used)]
        used.add(state.discards[0])
    else:
        state.discards = [held(t, opts["deck"], used) // 2 for t in discards]
    if pile is None:
        rest = [c for c in range(30) if c not in used]
        state.pile = rest
    else:
        state.pile = [held(t, opts["deck"], used) // 2 for t in pile]
    state.phase = DRAW
    state.flips = [False] * len(hands)
    state.turn = turn
    if vp is not None:
        state.vp = list(vp)
    return state


def do(state: State, seat: int, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply the moves in order for `seat`; returns all their events."""
    events: list[dict[str, Any]] = []
    for action in actions:
        events.extend(GAME.apply(state, seat, action, 0))
    return events


def take_turn(
    state: State, seat: int, source: str = "pile", pos: int = 0, discard_pos: int = 0
) -> list[dict[str, Any]]:
    """Draw, insert white-up at `pos`, discard the card at `discard_pos` (no knock)."""
    events = do(state, seat, {"type": "draw", "from": source})
    events += do(state, seat, {"type": "insert", "pos": pos, "card": drawn_texts(state)[0]})
    card = tables(state.options["deck"]).held_text[state.hands[seat][discard_pos]]
    events += do(state, seat, {"type": "discard", "pos": discard_pos, "card": card, "knock": False})
    return events


def drawn_texts(state: State) -> list[str]:
    """The two held texts the drawn card can be inserted as."""
    assert state.drawn is not None
    texts = tables(state.options["deck"]).held_text
    return [texts[state.drawn * 2], texts[state.drawn * 2 + 1]]


# -- spec items -------------------------------------------------------------------------

OPTS = GAME.resolve_options({})
CARD_RE = re.compile(r"[WB][1-6]/[WB][1-6]")


def fresh(seats: int = 2, seed: int = 0, **options: Any) -> State:
    """A new match with every seat having declined to rotate (play has started)."""
    state = GAME.new(seats, GAME.resolve_options(options), seed)
    for s in range(seats):
        do(state, s, {"type": "rotate", "flip": False})
    return state


def finish_round_by_knock(state: State) -> list[dict[str, Any]]:
    """The seat to move draws from the pile, inserts at 0 and knocks before discarding."""
    seat = state.turn
    do(state, seat, {"type": "draw", "from": "pile"})
    do(state, seat, {"type": "insert", "pos": 0, "card": drawn_texts(state)[0]})
    return do(state, seat, {"type": "knock"})


def round_end(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The round_end event among `events`."""
    return next(e for e in events if e["type"] == "round_end")


def test_s1_two_or_three_players() -> None:
    for seats in (1, 4):
        with pytest.raises(IllegalAction):
            GAME.new(seats, OPTS, 0)
    assert (GAME.min_seats, GAME.max_seats) == (2, 3)


def test_s2_deal_gives_eight_each_and_a_13_card_pile_with_two_players() -> None:
    state = GAME.new(2, OPTS, 3)
    assert [len(h) for h in state.hands] == [8, 8]
    assert (len(state.pile), len(state.discards)) == (13, 1)


def test_s2_deal_gives_a_5_card_pile_with_three_players() -> None:
    state = GAME.new(3, OPTS, 3)
    assert [len(h) for h in state.hands] == [8, 8, 8]
    assert (len(state.pile), len(state.discards)) == (5, 1)


def test_s2_deal_uses_each_of_the_30_cards_once() -> None:
    state = GAME.new(3, OPTS, 9)
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


def values(texts: str) -> list[tuple[str, int]]:
    """Values from a space-separated value text list such as "W2 W2 B3"."""
    return [(t[0], int(t[1])) for t in texts.split()]


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


def pile_out_round(vp: list[int], hands: list[list[str]]) -> State:
    """Seat 0 draws the last pile card and discards it; the round ends by pile-out."""
    state = position(hands, pile=["W2/B5"], vp=vp)
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W2/B5"})
    do(state, 0, {"type": "discard", "pos": 0, "card": "W2/B5", "knock": False})
    return state


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
    assert [len(h) for h in state.hands] == [8, 8] and len(state.pile) == 13


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


def test_hi_without_fidelity_positions_stay_hidden() -> None:
    state = position([["W1/B2", "W3/B4"], ["W1/B3"]], discards=["W4/B6"])
    do(state, 0, {"type": "draw", "from": "discard"})
    events = do(state, 0, {"type": "insert", "pos": 1, "card": "B6/W4"})
    assert "pos" not in events[0] and GAME.view(state, 1)["known"][0] == ["W4/B6"]


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


def test_options_named_by_the_rulings_are_real_options_with_defaults() -> None:
    assert OPTS == {
        "deck": "A",
        "first_dealer": "random",
        "discard_taken_card": True,
        "knock_before_discard": True,
        "physical_fidelity": False,
    }
    assert {o["name"] for o in GAME.describe()["options"]} == set(OPTS)
