"""Junocos rules: one test per spec item and ruling of RULINGS section 4 (s1..s15, J1..J8)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from server.games.contract import IllegalAction
from server.games.junocos import GAME, card_class, deck, round_points, strength, suit_of
from tests.conformance import check_match


def fresh(seats: int = 4, seed: int = 1, **options: Any) -> dict[str, Any]:
    return GAME.new(seats, GAME.resolve_options(options), seed)


def in_play(
    trump: str,
    hands: list[list[str]],
    opens: list[list[str]],
    leader: int = 0,
    **options: Any,
) -> dict[str, Any]:
    """A trick-phase state with the given cards (counts need not be a real deal)."""
    state = fresh(len(hands), **options)
    state.update(
        phase="play",
        row=[],
        trump=trump,
        hands=[list(h) for h in hands],
        open=[list(o) for o in opens],
        leader=leader,
        turn=leader,
        trick=[],
    )
    return state


def play(state: dict[str, Any], seat: int, card: str, source: str = "hand") -> list[Any]:
    return GAME.apply(state, seat, {"type": "play", "card": card, "from": source}, 0)


def draft_all(state: dict[str, Any]) -> list[Any]:
    events: list[Any] = []
    while state["phase"] == "draft":
        seat = state["turn"]
        events += GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    return events


def playable_cards(state: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    return [(a["card"], a["from"]) for a in GAME.actions(state, seat)]


# -- deck and setup ------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 5])
def test_s1_only_three_or_four_players(seats: int) -> None:
    with pytest.raises(IllegalAction):
        fresh(seats)


def test_s2_j1_three_player_deck_is_forty_cards_with_two_sevens() -> None:
    counts = Counter(deck(3))
    assert len(deck(3)) == 40
    for colour in "RYGB":
        assert [counts[colour + v] for v in "01234567S"] == [1, 1, 1, 1, 1, 1, 1, 2, 1]


def test_s2_j1_four_player_deck_is_fifty_six_cards() -> None:
    counts = Counter(deck(4))
    assert len(deck(4)) == 56
    for colour in "RYGB":
        assert [counts[colour + v] for v in "0123456S"] == [1, 2, 2, 2, 2, 2, 2, 1]
        assert counts[colour + "7"] == 0


@pytest.mark.parametrize(("seats", "rounds"), [(3, 6), (4, 8)])
def test_s3_marker_goes_round_twice(seats: int, rounds: int) -> None:
    state = fresh(seats)
    while state["phase"] != "over":
        seat = state["turn"]
        GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    assert [h["start"] for h in state["history"]] == [r % seats for r in range(rounds)]
    assert GAME.outcome(state) is not None


@pytest.mark.parametrize(("seats", "size"), [(3, 13), (4, 17)])
def test_s4_face_up_row_holds_only_numbered_cards(seats: int, size: int) -> None:
    for seed in range(30):
        row = fresh(seats, seed)["row"]
        assert len(row) == size
        assert all(card[1] != "S" for card in row)


def test_s4_set_aside_skips_go_back_into_the_deal() -> None:
    skips_dealt = 0
    for seed in range(30):
        state = fresh(4, seed)
        unseen = [c for h in state["hands"] for c in h] + state["leftover"]
        skips_dealt += sum(c[1] == "S" for c in unseen)
        assert sum(c[1] == "S" for c in unseen) == 4
    assert skips_dealt == 120


@pytest.mark.parametrize(("seats", "leftover"), [(3, 0), (4, 3)])
def test_s5_nine_cards_each_and_public_leftovers(seats: int, leftover: int) -> None:
    state = fresh(seats)
    assert [len(h) for h in state["hands"]] == [9] * seats
    assert len(state["leftover"]) == leftover
    assert GAME.view(state, None)["leftover"] == state["leftover"]
    everything = state["row"] + state["leftover"] + [c for h in state["hands"] for c in h]
    assert Counter(everything) == Counter(deck(seats))


def test_s6_draft_goes_clockwise_from_the_start_player() -> None:
    state = fresh(4, seed=3)
    state["round"] = 2
    GAME._deal(state)  # round 2: seat 2 holds the marker
    draft_all(state)
    assert [seat for seat, _ in state["picks"]] == [(2 + i) % 4 for i in range(16)]


def test_s6_last_row_card_is_the_trump_indicator_and_leads_off() -> None:
    state = fresh(3, seed=5)
    row = list(state["row"])
    events = draft_all(state)
    picked = Counter(card for _, card in state["picks"])
    assert Counter(row) - picked == Counter([state["trump"]])
    assert events[-1] == {"type": "trump", "card": state["trump"]}
    assert state["phase"] == "play" and state["turn"] == state["start"]
    assert all(len(o) == 4 for o in state["open"])


def test_s7_thirteen_cards_twelve_tricks_one_declaration_left() -> None:
    state = fresh(4, seed=2)
    draft_all(state)
    assert all(len(h) + len(o) == 13 for h, o in zip(state["hands"], state["open"], strict=True))
    while len(state["tricks"]) < 11:
        seat = state["turn"]
        GAME.apply(state, seat, GAME.actions(state, seat)[-1], 0)
    for _ in range(4):
        seat = state["turn"]
        GAME.apply(state, seat, GAME.actions(state, seat)[-1], 0)
    summary = state["history"][0]
    assert sum(summary["won"]) == 12
    assert all(len(d) == 2 for d in summary["declarations"])


# -- card classes --------------------------------------------------------------------


def test_s8_card_classes_from_the_indicator() -> None:
    assert card_class("B4", "B4") == "super"
    assert card_class("R4", "B4") == "trump_number"
    assert card_class("B0", "B4") == "trump_suit"
    assert card_class("BS", "B4") == "trump_suit"
    assert card_class("R5", "B4") == "plain"


def test_s9_j3_trump_number_cards_count_as_trump() -> None:
    assert suit_of("R4", "B4", printed=False) == "T"
    assert suit_of("B7", "B4", printed=False) == "T"
    assert suit_of("G4", "B4", printed=False) == "T"
    assert suit_of("G5", "B4", printed=False) == "G"


def test_j3_trump_number_card_cannot_follow_its_printed_colour() -> None:
    state = in_play("B4", [["R6"], ["R4", "G1"], ["Y1"]], [["B0"], ["G0"], ["Y0"]])
    play(state, 0, "R6")
    assert playable_cards(state, 1) == [("R4", "hand"), ("G1", "hand")]


def test_j3_leading_a_trump_number_card_is_a_trump_lead() -> None:
    state = in_play("B4", [["R4"], ["R1", "B2"], ["Y1"]], [["B0"], ["G0"], ["Y0"]])
    play(state, 0, "R4")
    assert playable_cards(state, 1) == [("B2", "hand")]


def test_j3_option_printed_colour_makes_trump_number_follow_its_colour() -> None:
    state = in_play(
        "B4",
        [["R6"], ["R4", "G1"], ["Y1"]],
        [["B0"], ["G0"], ["Y0"]],
        trump_number_suit="printed",
    )
    play(state, 0, "R6")
    assert playable_cards(state, 1) == [("R4", "hand")]
    play(state, 1, "R4")
    play(state, 2, "Y1")
    assert state["last_trick"]["winner"] == 1


# -- trick play ----------------------------------------------------------------------


def test_s10_last_open_card_is_never_playable() -> None:
    state = in_play("B4", [["R1"], ["R2"], ["R3"]], [["G5"], ["G6"], ["G7"]])
    assert playable_cards(state, 0) == [("R1", "hand")]
    with pytest.raises(IllegalAction) as refused:
        play(state, 0, "G5", "open")
    assert refused.value.code == "declaration"


def test_s10_open_cards_are_playable_while_two_remain() -> None:
    state = in_play("B4", [["R1"], ["R2"], ["R3"]], [["G5", "Y2"], ["G6"], ["G7"]])
    assert playable_cards(state, 0) == [("R1", "hand"), ("Y2", "open"), ("G5", "open")]


def test_s11_leader_plays_anything_playable() -> None:
    state = in_play("B4", [["R1", "G3", "B0"], ["R2"], ["R3"]], [["Y1", "Y5"], ["G6"], ["G7"]])
    assert len(GAME.actions(state, 0)) == 5


def test_s11_following_counts_hand_and_playable_open_cards() -> None:
    state = in_play("B4", [["R6"], ["G1", "Y1"], ["Y2"]], [["B0"], ["R2", "R3"], ["Y0"]])
    play(state, 0, "R6")
    assert playable_cards(state, 1) == [("R2", "open"), ("R3", "open")]
    with pytest.raises(IllegalAction) as refused:
        play(state, 1, "G1")
    assert refused.value.code == "must_follow"


def test_s11_the_declaration_does_not_force_a_follow() -> None:
    state = in_play("B4", [["R6"], ["G1", "Y1"], ["Y2"]], [["B0"], ["R2"], ["Y0"]])
    play(state, 0, "R6")
    assert playable_cards(state, 1) == [("Y1", "hand"), ("G1", "hand")]


def test_s11_a_void_player_may_play_any_playable_card() -> None:
    state = in_play("B4", [["R6"], ["G1", "B1"], ["Y2"]], [["B0"], ["Y3", "Y5"], ["Y0"]])
    play(state, 0, "R6")
    assert len(GAME.actions(state, 1)) == 4


def test_s12_strength_order_high_to_low() -> None:
    order = ["B4", "R4", "B7", "B0", "BS", "R6", "R0", "RS"]
    powers = [strength(card, "B4", "R") for card in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert strength("G6", "B4", "R") == strength("Y6", "B4", "R") == 0


def test_s12_off_suit_card_never_wins() -> None:
    state = in_play("B4", [["R0"], ["G6"], ["Y6"]], [["B0"], ["G0"], ["Y0"]])
    for seat, card in enumerate(["R0", "G6", "Y6"]):
        play(state, seat, card)
    assert state["last_trick"]["winner"] == 0


def test_s12_trump_suit_skip_beats_the_led_suit() -> None:
    state = in_play("B4", [["R6"], ["BS"], ["R5"]], [["B0"], ["G0"], ["Y0"]])
    for seat, card in enumerate(["R6", "BS", "R5"]):
        play(state, seat, card)
    assert state["last_trick"]["winner"] == 1


def test_s12_j5_later_of_equal_trump_number_cards_wins() -> None:
    state = in_play("B4", [["R4"], ["G4"], ["Y4"]], [["B0"], ["G0"], ["Y0"]])
    for seat, card in enumerate(["R4", "G4", "Y4"]):
        play(state, seat, card)
    assert state["last_trick"]["winner"] == 2


def test_s12_j5_later_of_two_equal_sevens_wins() -> None:
    state = in_play("B4", [["G7"], ["G7"], ["G1"]], [["B0"], ["G0"], ["Y0"]], leader=0)
    for seat, card in enumerate(["G7", "G7", "G1"]):
        play(state, seat, card)
    assert state["last_trick"]["winner"] == 1


def test_s13_trick_winner_takes_the_trick_and_leads_next() -> None:
    state = in_play("B4", [["R1", "R2"], ["R6", "G1"], ["R3", "G2"]], [["B0"], ["G0"], ["Y0"]])
    for seat, card in enumerate(["R1", "R6", "R3"]):
        events = play(state, seat, card)
    assert events[-1] == {"type": "trick", "winner": 1, "count": 1}
    assert state["won"] == [0, 1, 0] and state["turn"] == 1 and state["leader"] == 1


def test_s14_round_score_is_tricks_plus_five_on_the_declaration() -> None:
    assert round_points(3, "R3", zero_stacks=True) == 8
    assert round_points(3, "R4", zero_stacks=True) == 3
    assert round_points(0, "R2", zero_stacks=True) == 10


def test_s14_scores_go_to_totals_at_round_end() -> None:
    state = in_play("B4", [["R1"], ["R6"], ["R3"]], [["Y1"], ["G1"], ["Y0"]])
    state["tricks"] = [{"leader": 0, "cards": [], "winner": 0}] * 11
    state["won"] = [0, 0, 11]
    for seat, card in enumerate(["R1", "R6", "R3"]):
        events = play(state, seat, card)
    assert events[-1]["points"] == [10, 6, 11]
    assert state["scores"] == [10, 6, 11] and state["round"] == 1


def test_j2_seven_is_the_top_trump_suit_number() -> None:
    assert strength("B7", "B4", "R") > strength("B6", "B4", "R")
    assert strength("R7", "B4", "R") > strength("R6", "B4", "R")


def test_j4_trump_colour_skip_is_the_weakest_trump_and_never_super() -> None:
    assert card_class("BS", "B4") == "trump_suit"
    assert strength("BS", "B4", "R") < strength("B0", "B4", "R")
    assert strength("BS", "B4", "R") > strength("R7", "B4", "R")


def test_j4_every_declaration_carries_a_number() -> None:
    state = fresh(4, seed=4)
    draft_all(state)
    assert all(card[1] != "S" for o in state["open"] for card in o)


def test_j6_zero_tricks_on_a_zero_declaration_scores_fifteen() -> None:
    assert round_points(0, "G0", zero_stacks=True) == 15


def test_j6_option_replace_gives_ten_only() -> None:
    assert round_points(0, "G0", zero_stacks=False) == 10
    assert GAME.resolve_options({})["zero_trick_bonus"] == "stack"


@pytest.mark.parametrize(("bonus", "nil_points"), [("stack", 15), ("replace", 10)])
def test_j6_zero_trick_bonus_option_reaches_the_round_score(bonus: str, nil_points: int) -> None:
    # seat 0 declared 0 and takes no trick: 10, plus the exact bonus only with "stack"
    state = in_play(
        "B4", [["R1"], ["R6"], ["R3"]], [["Y0"], ["G1"], ["Y1"]], zero_trick_bonus=bonus
    )
    state["tricks"] = [{"leader": 0, "cards": [], "winner": 2}] * 11
    state["won"] = [0, 0, 11]
    for seat, card in enumerate(["R1", "R6", "R3"]):
        events = play(state, seat, card)
    assert events[-1]["points"] == [nil_points, 6, 11]
    assert state["scores"] == [nil_points, 6, 11]


def test_s15_j7_highest_total_wins_and_ties_share() -> None:
    state = fresh(4)
    state.update(phase="over", scores=[20, 31, 31, 5])
    assert GAME.outcome(state) == {"scores": [20, 31, 31, 5], "places": [3, 1, 1, 4]}


def test_j8_the_deal_is_a_seeded_uniform_shuffle() -> None:
    assert fresh(4, seed=11) == fresh(4, seed=11)
    assert fresh(4, seed=11)["row"] != fresh(4, seed=12)["row"]


# -- hidden information and options ---------------------------------------------------------


def test_hidden_view_shows_own_hand_and_only_sizes_of_others() -> None:
    state = fresh(4)
    view = GAME.view(state, 2)
    assert view["seat"] == 2 and view["hand"] == state["hands"][2]
    assert view["hand_sizes"] == [9, 9, 9, 9]
    assert "hands" not in view and "rng" not in view
    assert GAME.view(state, None)["hand"] is None


def test_hidden_shuffle_unseen_keeps_shown_voids() -> None:
    state = in_play(
        "B4",
        [["R6", "R1"], ["G1", "G2", "Y3"], ["R2", "Y1", "G3"]],
        [["B0"], ["G0"], ["Y0"]],
    )
    play(state, 0, "R6")
    play(state, 1, "G1")  # seat 1 shows it holds no red
    for seed in range(20):
        world = GAME.shuffle_unseen(state, 2, random.Random(seed))
        assert "R1" in world["hands"][0]
        assert GAME.view(world, 2) == GAME.view(state, 2)


@pytest.mark.parametrize(
    "options",
    [
        {"no_such_option": 1},  # unknown key
        {"zero_trick_bonus": "double"},  # not among the choices
        {"trump_number_suit": True},  # wrong type
        {"zero_trick_bonus": None},
    ],
)
def test_new_refuses_unknown_options_and_bad_values(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.new(3, options, 1)
    assert refused.value.code == "bad_option"


def test_new_fills_in_the_defaults_of_options_not_given() -> None:
    assert GAME.new(3, {}, 1)["options"] == GAME.resolve_options({})


def test_options_are_listed_with_their_defaults() -> None:
    described = {o["name"]: o for o in GAME.describe()["options"]}
    assert described["trump_number_suit"]["default"] == "trump"
    assert described["zero_trick_bonus"]["choices"] == ["stack", "replace"]


@pytest.mark.parametrize(
    "options", [{"trump_number_suit": "printed"}, {"zero_trick_bonus": "replace"}]
)
def test_conformance_with_each_alternative_option(options: dict[str, str]) -> None:
    check_match(GAME, 3, options, 7)


def test_refused_move_leaves_the_state_untouched() -> None:
    state = in_play("B4", [["R6"], ["G1", "R2"], ["Y2"]], [["B0"], ["G0"], ["Y0"]])
    play(state, 0, "R6")
    before = GAME.dump(state)
    with pytest.raises(IllegalAction):
        play(state, 1, "G1")
    assert GAME.dump(state) == before
