"""Shirokuro Jong rules: one test per spec item and ruling of RULINGS section 6.

Spec items are test_itemNN_..., rulings test_sNN_...; yaku are in
test_shirokuro_jong_yaku.py and hidden information in test_shirokuro_jong_views.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games.contract import IllegalAction
from server.games.shirokuro_jong import GAME
from server.games.shirokuro_jong.hands import parse_values, waits
from tests.games.shirokuro_jong_support import (
    close_window,
    pass_all,
    play,
    table,
    texts,
    values,
)

DISCARD0 = {"type": "discard", "index": 0}
PASS = {"type": "pass"}
# An Oya hand no other test hand below can claim from when it discards its first card.
JUNK8 = "W6/B1 B6 B6 W1 W1 B2 B4 W6"
# A discarder whose first card shows W3 or B1, and hands that claim it.
DISC = "W3/B1 B6 B6 W6 W6 B2 B2 W4"
RON_W3 = "W1 W2 W4 W4 W4 B5 B5"
RON_B1 = "B2 B3 W5 W5 W5 B4 B4"
PON_W3 = "W3 W3 B5 W1 B4 W5 B1"


def random_match(seats: int, seed: int, options: dict[str, Any] | None = None) -> list[Any]:
    """Every event of one uniformly random match."""
    state = GAME.new(seats, options or {}, seed)
    rng = random.Random(seed)
    events: list[Any] = []
    while GAME.outcome(state) is None:
        legal = {s: a for s in range(seats) if (a := GAME.actions(state, s))}
        if not legal:  # every seat answered: the window closes after its minimum
            events += close_window(state)
            continue
        seat = rng.choice(sorted(legal))
        events += GAME.apply(state, seat, rng.choice(legal[seat]), 0)
    return events


# -- setup -------------------------------------------------------------------------------
def test_item01_two_or_three_players_on_the_thirty_card_deck() -> None:
    with pytest.raises(IllegalAction):
        GAME.new(4, {}, 0)
    for seats in (2, 3):
        state = GAME.new(seats, {}, 1)
        ids = [h >> 1 for hand in state.hands for h in hand] + state.pile + [state.dora]
        assert sorted(ids) == list(range(30))


@pytest.mark.parametrize(("seats", "oyas"), [(2, [0, 1, 0, 1]), (3, [0, 2, 1, 0, 2, 1])])
def test_item02_rounds_and_the_oya_passes_to_the_right(seats: int, oyas: list[int]) -> None:
    dealt = [e for e in random_match(seats, 3) if e["type"] == "dealt"]
    assert [0] + [e["oya"] for e in dealt] == oyas  # new() dealt the first round


def test_item02_the_round_over_screen_shows_the_round_just_finished() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"])
    assert GAME.view(state, 0)["round"] == 1
    play(state, (0, {"type": "tsumo"}))
    assert state.phase == "round_over" and GAME.view(state, 0)["round"] == 1
    play(state, (0, {"type": "next"}), (1, {"type": "next"}))
    assert GAME.view(state, None)["round"] == 2


@pytest.mark.parametrize("seats", [2, 3])
def test_item02_each_result_is_shown_under_its_own_round_number(seats: int) -> None:
    state = GAME.new(seats, {"rotation": False, "claim_timeout_ms": 0}, 11)
    rng = random.Random(11)
    shown = []  # the round number over each result, in order
    while GAME.outcome(state) is None:
        legal = {s: a for s in range(seats) if (a := GAME.actions(state, s))}
        was = state.phase
        if legal:
            seat = rng.choice(sorted(legal))
            GAME.apply(state, seat, rng.choice(legal[seat]), 0)
        else:  # every seat answered: the window closes after its minimum
            close_window(state)
        if was != state.phase and state.phase in ("round_over", "match_over"):
            shown.append(GAME.view(state, None)["round"])
    assert shown == list(range(1, 2 * seats + 1))


def test_item02_a_renchan_repeat_keeps_its_round_number() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"], options={"renchan": True})
    play(state, (0, {"type": "tsumo"}), (0, {"type": "next"}), (1, {"type": "next"}))
    assert state.hand_no == 2 and GAME.view(state, None)["round"] == 1


def test_item02_a_match_saved_without_its_round_number_still_loads() -> None:
    state = GAME.new(2, {}, 3)
    data = GAME.dump(state)
    del data["round"]  # as saved before the field was kept
    assert GAME.view(GAME.load(data), 0) == GAME.view(state, 0)


def test_item02_the_round_over_screen_shows_the_oya_of_the_round_just_finished() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"])
    play(state, (0, {"type": "tsumo"}))
    assert state.phase == "round_over" and GAME.view(state, None)["oya"] == 0
    events = play(state, (0, {"type": "next"}), (1, {"type": "next"}))
    assert events[0]["oya"] == 1 and GAME.view(state, None)["oya"] == 1


@pytest.mark.parametrize("seats", [2, 3])
def test_item02_each_result_is_shown_under_its_own_oya(seats: int) -> None:
    state = GAME.new(seats, {"rotation": False, "claim_timeout_ms": 0}, 5)
    rng = random.Random(5)
    dealt, shown = [0], []  # the Oya of each deal (new() dealt the first), over each result
    while GAME.outcome(state) is None:
        legal = {s: a for s in range(seats) if (a := GAME.actions(state, s))}
        was = state.phase
        if legal:
            seat = rng.choice(sorted(legal))
            events = GAME.apply(state, seat, rng.choice(legal[seat]), 0)
        else:  # every seat answered: the window closes after its minimum
            events = close_window(state)
        dealt += [e["oya"] for e in events if e["type"] == "dealt"]
        if was != state.phase and state.phase in ("round_over", "match_over"):
            shown.append(GAME.view(state, None)["oya"])
    assert shown == dealt == [-r % seats for r in range(2 * seats)]


def test_item02_a_match_saved_with_the_next_oya_over_a_result_deals_it_once() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5", "W1"])
    play(state, (0, {"type": "tsumo"}))
    data = GAME.dump(state)
    data["oya"] = 2  # as saved when the Oya passed on at the end of the round
    loaded = GAME.load(data)
    events = play(loaded, *((s, {"type": "next"}) for s in range(3)))
    assert events[0]["oya"] == 2 and loaded.round == 2


def test_item03_turn_passes_counterclockwise() -> None:
    state = table([JUNK8, "W2 W3 W4 B3 B3 B3 W5", "B1 B1 W2 W2 W4 W4 B2"])
    events = play(state, (0, DISCARD0))
    events += pass_all(state)
    assert {"type": "drew", "seat": 2, "pile": len(state.pile)} in events


@pytest.mark.parametrize(("seats", "sizes", "pile"), [(2, [8, 7], 14), (3, [8, 7, 7], 7)])
def test_item04_oya_deals_eight_others_seven_and_a_dora(
    seats: int, sizes: list[int], pile: int
) -> None:
    view = GAME.view(GAME.new(seats, {}, 5), 0)
    assert view["hand_sizes"] == sizes
    assert view["pile"] == pile
    assert view["dora"] not in view["hand"]


def test_item05_rotation_flips_every_card_once_everyone_has_chosen() -> None:
    state = GAME.new(2, {"rotation": True}, 2)
    before = texts(state, 0).split()
    assert GAME.actions(state, 0) == [
        {"type": "rotate", "flip": False},
        {"type": "rotate", "flip": True},
    ]
    play(state, (0, {"type": "rotate", "flip": True}))
    assert texts(state, 0).split() == before
    play(state, (1, {"type": "rotate", "flip": False}))
    assert texts(state, 0).split() == [t[3:] + "/" + t[:2] for t in before]


def test_item06_oya_first_turn_counts_as_drawn() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"])
    kinds = {a["type"] for a in GAME.actions(state, 0)}
    assert kinds == {"discard", "tsumo"}
    assert state.pile and GAME.view(state, 0)["hand_sizes"] == [8, 7]


def test_item07_draw_then_insert_anywhere_either_way_up() -> None:
    state = table([JUNK8, "W2 W3 W4 B3 B3 B3 W5"])
    play(state, (0, DISCARD0))
    pass_all(state)
    acts = GAME.actions(state, 1)
    assert len(acts) == 16 and {a["type"] for a in acts} == {"insert"}
    play(state, (1, {"type": "insert", "index": 3, "up": "B"}))
    assert texts(state, 1).split()[3][0] == "B"
    assert {a["type"] for a in GAME.actions(state, 1)} == {"discard"}


def test_item07_worked_example_insert_white2_black5_between_black4_and_black6() -> None:
    state = table([JUNK8, "B4 B6 W1 W1 W3 W3 W5"], pile=["W2/B5"])
    play(state, (0, DISCARD0))
    pass_all(state)
    play(state, (1, {"type": "insert", "index": 1, "up": "B"}))
    assert texts(state, 1).split()[:3][1] == "B5/W2"
    assert values(state, 1).startswith("B4 B5 B6")


def test_item08_two_mentsu_and_an_atama_win() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"])
    assert {"type": "tsumo"} in GAME.actions(state, 0)


def test_item08_blocks_must_be_adjacent_cards() -> None:
    state = table(["W1 W2 B4 W3 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"])
    assert {"type": "tsumo"} not in GAME.actions(state, 0)


def test_item08_an_exposed_meld_counts_as_one_mentsu() -> None:
    state = table(["W1 W2 W3 W5 W5", "W2 W3 W4 B3 B3 B3 W5"], melds={0: ["B4 B4 B4"]})
    assert {"type": "tsumo"} in GAME.actions(state, 0)


def test_item08_four_adjacent_pairs_win_as_suutoitsu() -> None:
    state = table(["W1 W1 B2 B2 W6 W6 B4 B4", "W2 W3 W4 B3 B3 B3 W5"])
    assert {"type": "tsumo"} in GAME.actions(state, 0)


# -- claims ------------------------------------------------------------------------------
def test_item09_ron_for_any_other_player() -> None:
    state = table([DISC, RON_W3, JUNK8[6:]])
    play(state, (0, DISCARD0))
    assert {"type": "ron"} in GAME.actions(state, 1)  # seat 1 is not the next player
    assert GAME.actions(state, 2) == []  # S13: the server passed for it


def test_item09_pon_for_any_other_player() -> None:
    state = table([DISC, PON_W3, JUNK8[6:]])
    play(state, (0, DISCARD0))
    assert GAME.actions(state, 1) == [PASS, {"type": "pon", "index": 0}]


def test_item09_chii_only_for_the_next_player() -> None:
    hand = "W4 W5 B2 W1 B4 B6 W6"
    state = table([DISC, hand, hand])
    play(state, (0, DISCARD0))
    assert GAME.actions(state, 1) == []  # S13: the server passed for it
    assert GAME.actions(state, 2) == [PASS, {"type": "chii", "index": 0}]


def test_item09_ron_beats_pon() -> None:
    state = table([DISC, RON_W3, "W3 W3 B5 W1 B4 W5"])
    play(state, (0, DISCARD0), (2, {"type": "pon", "index": 0}), (1, {"type": "ron"}))
    assert [w["seat"] for w in state.result["winners"]] == [1]


def test_item09_pon_beats_chii() -> None:
    state = table([DISC, PON_W3, "W4 W5 B1 B1 W2"])
    play(state, (0, DISCARD0), (2, {"type": "chii", "index": 0}))
    play(state, (1, {"type": "pon", "index": 0}))
    assert state.turn == 1 and len(state.melds[1]) == 1 and not state.melds[2]


def test_item09_double_ron_both_score() -> None:
    state = table([DISC, RON_W3, RON_B1])
    state.draws = [1, 1, 1]
    play(state, (0, DISCARD0), (1, {"type": "ron"}), (2, {"type": "ron"}))
    assert sorted(w["seat"] for w in state.result["winners"]) == [1, 2]
    points = {w["seat"]: w["points"] for w in state.result["winners"]}
    assert state.scores == [0, points[1], points[2]] and points[1] > 0


def test_item10_pon_exposes_three_cards_and_skips_the_draw() -> None:
    state = table([DISC, PON_W3])
    pile = len(state.pile)
    play(state, (0, DISCARD0), (1, {"type": "pon", "index": 0}))
    view = GAME.view(state, 0)
    assert len(view["melds"][1][0]) == 3
    assert all(t.startswith("W3") for t in view["melds"][1][0])
    assert view["pile"] == pile and view["hand_sizes"][1] == 5
    assert {a["type"] for a in GAME.actions(state, 1)} == {"discard"}


def test_item10_no_tsumo_straight_after_a_call() -> None:
    # After the Pon the hand is complete (W3 W3 W3, B4 B4 B4, W5 W5), yet the caller must
    # discard: it has not drawn.
    state = table([DISC, "W3 W3 B4 B4 B4 W5 W5"])
    play(state, (0, DISCARD0), (1, {"type": "pon", "index": 0}))
    assert GAME.actions(state, 1) == [{"type": "discard", "index": i} for i in range(5)]


def test_item10_play_continues_from_the_caller() -> None:
    state = table([DISC, PON_W3, "W6 B4 W1 B2 W5"])
    play(state, (0, DISCARD0), (2, PASS), (1, {"type": "pon", "index": 0}))
    events = play(state, (1, {"type": "discard", "index": 0}))
    events += pass_all(state)
    assert events[-1]["type"] == "drew" and events[-1]["seat"] == 0


def test_item11_tsumo_only_after_drawing_and_inserting() -> None:
    state = table([JUNK8, "W2 W3 W4 B3 B3 B3 W5"], pile=["W5"])
    play(state, (0, DISCARD0))
    pass_all(state)
    assert {"type": "tsumo"} not in GAME.actions(state, 1)
    trial = GAME.copy(state)
    play(trial, (1, {"type": "insert", "index": 0, "up": "W"}))
    assert {"type": "tsumo"} not in GAME.actions(trial, 1)
    play(state, (1, {"type": "insert", "index": 7, "up": "W"}))
    assert {"type": "tsumo"} in GAME.actions(state, 1)


def test_item12_drawn_round_gives_one_point_to_each_tenpai_player() -> None:
    state = table(
        ["W6/B1 B6 B2 W1 W3 B4 B5 W5", "W2 W3 W4 B3 B3 B3 W5"],
        pile=["W1/B6"],
        fill_pile=False,
    )
    play(state, (0, DISCARD0))
    pass_all(state)
    play(state, (1, {"type": "insert", "index": 7, "up": "B"}))
    play(state, (1, {"type": "discard", "index": 7}))  # seat 0 has no claim: passed
    assert state.result["kind"] == "drawn"
    assert state.result["deltas"] == [0, 1]
    assert [t["seat"] for t in state.result["tenpai"]] == [1]


def test_item14_no_payments_and_no_renchan_by_default() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"])
    play(state, (0, {"type": "tsumo"}))
    assert state.scores[1] == 0 and state.scores[0] > 0
    play(state, (0, {"type": "next"}), (1, {"type": "next"}))
    assert state.oya == 1 and GAME.view(state, 0)["round"] == 2


def test_item15_equal_totals_share_first_place() -> None:
    state = GAME.new(3, {}, 0)
    state.phase, state.scores = "match_over", [5, 9, 9]
    assert GAME.outcome(state) == {"places": [3, 1, 1], "scores": [5, 9, 9]}


def test_item16_two_yaku_minimum_refuses_a_one_yaku_win() -> None:
    hand = "W1 W2 W3 B4 B4 B4 W5 W5"
    state = table([hand, "W2 W3 W4 B3 B3 B3 W5"], oya=1, turn=0, options={"min_yaku": 2})
    state.draws = [2, 2]  # Tsumo is the only yaku: no Chiihou
    assert {"type": "tsumo"} not in GAME.actions(state, 0)
    state.options["min_yaku"] = 0
    assert {"type": "tsumo"} in GAME.actions(state, 0)


def test_item16_payments_the_ron_discarder_pays() -> None:
    state = table([DISC, RON_W3], options={"payments": True})
    state.draws = [1, 1]
    play(state, (0, DISCARD0), (1, {"type": "ron"}))
    points = state.result["winners"][0]["points"]
    assert points > 0 and state.scores == [-points, points]


def test_item16_payments_every_other_player_pays_a_tsumo() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2", "W3"], options={"payments": True})
    play(state, (0, {"type": "tsumo"}))
    points = state.scores[0]
    assert state.scores == [points, -points, -points]


def test_item16_renchan_the_winning_oya_deals_again() -> None:
    state = table(["W1 W2 W3 B4 B4 B4 W5 W5", "W2 W3 W4 B3 B3 B3 W5"], options={"renchan": True})
    play(state, (0, {"type": "tsumo"}), (0, {"type": "next"}), (1, {"type": "next"}))
    assert state.oya == 0 and state.hand_no == 2 and state.round_no == 0


def test_item16_renchan_only_after_the_oya_wins() -> None:
    renchan = {"renchan": True}
    # Another seat wins: the Oya passes on.
    state = table(["W5/B1 B6 B6 W1 W1 B2 B4 W6", "W2 W3 W4 B3 B3 B3 W5"], options=renchan)
    play(state, (0, DISCARD0), (1, {"type": "ron"}), (0, {"type": "next"}), (1, {"type": "next"}))
    assert (state.oya, state.round_no) == (1, 1)
    # A drawn round with the Oya tenpai: it passes on too.
    state = table(
        ["B6/W1 W2 W3 W4 B3 B3 B3 W5", "W6 W6 B1 B2 B4 W1 B5"],
        pile=["W6/B2"],
        fill_pile=False,
        options=renchan,
    )
    play(state, (0, DISCARD0), (1, {"type": "insert", "index": 7, "up": "W"}))
    play(state, (1, {"type": "discard", "index": 7}))
    assert state.result["kind"] == "drawn" and state.result["deltas"] == [1, 0]
    play(state, (0, {"type": "next"}), (1, {"type": "next"}))
    assert (state.oya, state.round_no) == (1, 1)


def test_claim_timeout_option_passes_seats_that_did_not_answer() -> None:
    state = table([DISC, PON_W3], options={"claim_timeout_ms": 5000})
    GAME.apply(state, 0, DISCARD0, 1000)
    assert GAME.deadline(state) == 6000
    assert GAME.expire(state, 5999) == []
    events = GAME.expire(state, 6000)
    assert events[-1]["type"] == "drew" and GAME.deadline(state) is None


# -- rulings -----------------------------------------------------------------------------
def test_s01_deck_composition_b_is_a_room_option() -> None:
    state = GAME.new(2, {"deck": "B"}, 4)
    for text in GAME.view(state, 0)["hand"]:
        assert int(text[1]) + int(text[4]) == 7
    assert GAME.resolve_options({})["deck"] == "A"


def test_s03_shuntsu_may_run_down_but_never_out_of_order() -> None:
    down = table(["W3 W2 W1 B6 B5 B4 W5 W5", "W2"])
    mixed = table(["W2 W1 W3 B6 B5 B4 W5 W5", "W2"])
    assert {"type": "tsumo"} in GAME.actions(down, 0)
    assert {"type": "tsumo"} not in GAME.actions(mixed, 0)


def test_s04_the_nearest_pon_claimant_in_turn_order_wins() -> None:
    state = table(["W3/B5 B6 B6 W6 W6 B2 B2 W4", "W3 W3 B1 W1", "B5 B5 B1 W1"])
    play(state, (0, DISCARD0), (1, {"type": "pon", "index": 0}), (2, {"type": "pon", "index": 0}))
    assert state.turn == 2 and not state.melds[1]
    assert all(t.startswith("B5") for t in GAME.view(state, 2)["melds"][2][0])


def test_s04_hand_cards_are_not_turned_but_the_discard_may_be() -> None:
    turned = table(["W3/B4 B6 B6 W6 W6 B2 B2 W4", "W3/B2 B1/W3 W1 W1 B5 W5 B4"])
    GAME.apply(turned, 0, DISCARD0, 0)
    assert GAME.actions(turned, 1) == []  # S13: no claim, so the server passed for it
    assert turned.answers[1] == PASS
    flipped = table(["W4/B3 B6 B6 W6 W6 B2 B2 W4", "B3 B3 W1 W1 B5 W5 B4"])
    play(flipped, (0, DISCARD0))
    assert {"type": "pon", "index": 0} in GAME.actions(flipped, 1)


def test_s05_only_ron_on_the_final_discard() -> None:
    state = table([DISC, PON_W3], fill_pile=False)
    GAME.apply(state, 0, DISCARD0, 0)
    assert GAME.actions(state, 1) == []  # S13: no claim, so the server passed for it
    assert state.answers[1] == PASS


def test_s10_tenpai_counts_a_value_with_no_card_left() -> None:
    state = table(["W3 W3 W3 B6 B6 B2 W4 W4", "W1 W2 B4 B4 B4 W5 W5"], pile=["W3", "W3"])
    state.discards[0] = [state.pile.pop(), state.pile.pop()]  # all five W3 are now seen
    assert parse_values("W3")[0] in waits(state.hand_values(1), state.exposed(1))


def test_s11_no_furiten_ron_on_a_value_you_discarded() -> None:
    state = table([DISC, RON_W3])
    state.discards[1] = [state.hands[0][0] >> 1]  # seat 1 once threw this very value
    play(state, (0, DISCARD0))
    assert {"type": "ron"} in GAME.actions(state, 1)


def test_s12_no_claim_on_your_own_discard() -> None:
    state = table(["W3/B1 W3 W3 W6 W6 B2 B2 W4", "W2"])
    play(state, (0, DISCARD0))
    assert GAME.actions(state, 0) == []


def test_s12_no_claim_on_the_dora_indicator() -> None:
    state = table(["W6/B1 B6 B6 W1 W1 B2 B4 W6", RON_W3], dora="W3/B5")
    assert GAME.actions(state, 1) == []
