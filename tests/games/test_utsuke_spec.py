"""Utsuke spec items 1-16 and the hidden-information rules of RULINGS section 3."""

from __future__ import annotations

import random

import pytest

from server.games.contract import IllegalAction
from server.games.utsuke import GAME
from server.games.utsuke.cards import CARDS, colour
from server.games.utsuke.deal import deal_with_voids
from server.games.utsuke.scoring import judge_guesses, standings
from server.store import codec
from tests.games.utsuke_support import chip_deal, guess_all, play, play_out, played, rigged


def test_s1_two_to_five_players_only() -> None:
    for seats in (2, 3, 4, 5):
        GAME.new(seats, GAME.resolve_options({}), 0)
    for seats in (1, 6):
        with pytest.raises(IllegalAction):
            GAME.new(seats, GAME.resolve_options({}), 0)


def test_s1_prince_plays_only_at_two_players() -> None:
    assert GAME.view(GAME.new(2, GAME.resolve_options({}), 0), 0)["prince"]
    assert GAME.view(GAME.new(3, GAME.resolve_options({}), 0), 0)["prince"] is None


def test_s2_deck_is_sixty_unique_cards_of_five_colours_numbered_1_to_12() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 5)
    dealt = [c for hand in state.hands for c in hand]
    assert sorted(dealt) == sorted(CARDS) and len(set(dealt)) == 60
    assert {colour(c) for c in dealt} == set("RYGBP")
    assert {int(c[1:]) for c in dealt} == set(range(1, 13))


def test_s3_guesses_run_from_0_to_15() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    assert [a["value"] for a in GAME.actions(state, 0)] == list(range(16))
    for bad in (-1, 16, True, "3", 2.0):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, {"type": "guess", "value": bad}, 0)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_s4_lord_sits_between_two_players_at_three_to_five(seats: int) -> None:
    view = GAME.view(GAME.new(seats, GAME.resolve_options({"lord_seat": 1}), 0), None)
    assert view["table"] == [0, "lord", *range(1, seats)]


def test_s4_two_players_sit_player_lord_player_prince() -> None:
    view = GAME.view(GAME.new(2, GAME.resolve_options({"lord_seat": 1}), 0), None)
    assert view["table"] == [0, "lord", 1, "prince"]


@pytest.mark.parametrize(("seats", "size"), [(2, 15), (3, 15), (4, 12), (5, 10)])
def test_s5_whole_deck_is_dealt_evenly_npcs_included(seats: int, size: int) -> None:
    state = GAME.new(seats, GAME.resolve_options({}), 3)
    assert [len(h) for h in state.hands] == [size] * (60 // size)


def test_s6_npc_hands_lie_open_in_dealt_order_with_chip_on_lords_rightmost() -> None:
    state = GAME.new(2, GAME.resolve_options({}), 4)
    view = GAME.view(state, None)
    assert view["lord"] == state.hands[2] and view["prince"] == state.hands[3]
    assert view["chip"] == state.hands[2][-1]
    assert view["trump"] == colour(state.hands[2][-1])


def test_s7_no_card_is_played_before_every_guess_is_in() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    guess_all(state, [1, 2])
    assert state.phase == "guess"
    assert all(GAME.actions(state, s) == [] for s in (0, 1))
    assert GAME.view(state, 0)["trick"] == []


def test_s7_each_player_guesses_once_per_round() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    guess_all(state, [1])
    with pytest.raises(IllegalAction, match="already_guessed"):
        GAME.apply(state, 0, {"type": "guess", "value": 2}, 0)


def test_s8_lord_leads_trick_one_as_soon_as_the_guesses_are_in() -> None:
    state = rigged([["R1"], ["R2"], ["R3"]], ["Y5", "B4"], lord_seat=1)
    events = guess_all(state, [0, 0, 0])
    assert played(events) == [["lord", "Y5"]]
    assert GAME.view(state, 0)["turn"] == 1


def test_s8_a_player_holding_the_led_colour_must_follow_it() -> None:
    state = rigged([["R1", "G9"], ["Y1", "Y2"], ["Y3", "Y4"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    assert GAME.actions(state, 0) == [{"type": "play", "card": "G9"}]
    with pytest.raises(IllegalAction, match="must_follow"):
        play(state, 0, "R1")


def test_s8_following_need_not_play_higher() -> None:
    state = rigged([["G1", "G9"], ["Y1", "Y2"], ["Y3", "Y4"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    assert {"type": "play", "card": "G1"} in GAME.actions(state, 0)


def test_s8_a_player_without_the_led_colour_may_play_any_card() -> None:
    state = rigged([["R1", "Y9", "B2"], ["Y1", "Y2", "Y5"], ["Y3", "Y4", "Y6"]], ["G5", "B4", "P1"])
    guess_all(state, [0, 0, 0])
    assert [a["card"] for a in GAME.actions(state, 0)] == ["R1", "Y9", "B2"]


def test_s9_npc_leads_its_leftmost_card_on_trick_one() -> None:
    state = rigged([["R1"], ["R2"], ["R3"]], ["P7", "Y5", "B4"])
    assert played(guess_all(state, [0, 0, 0])) == [["lord", "P7"]]


def test_s9_npc_following_plays_its_highest_card_of_the_led_colour() -> None:
    # Seat 0 takes trick 1 with Y12 and leads R5; the Lord holds R3 and R11.
    state = rigged(
        [["Y12", "R5", "P5", "P6"], ["G1", "G2", "G5", "G7"], ["G3", "G4", "G6", "G8"]],
        ["Y1", "R11", "R3", "B2"],
    )
    guess_all(state, [0, 0, 0])
    for seat, card in ((0, "Y12"), (1, "G1"), (2, "G3"), (0, "R5"), (1, "G2")):
        play(state, seat, card)
    assert played(play(state, 2, "G4"))[1] == ["lord", "R11"]


def test_s9_npc_following_without_the_led_colour_plays_its_leftmost_card() -> None:
    state = rigged(
        [["Y12", "R5", "R6"], ["G1", "G2", "G5"], ["G3", "G4", "G6"]], ["Y1", "P3", "B9"]
    )
    guess_all(state, [0, 0, 0])
    for seat, card in ((0, "Y12"), (1, "G1"), (2, "G3"), (0, "R5"), (1, "G2")):
        play(state, seat, card)
    assert played(play(state, 2, "G4"))[1] == ["lord", "P3"]


def test_s9_npc_leading_a_later_trick_plays_its_rightmost_card() -> None:
    state = chip_deal()
    assert played(play(state, 2, "R4")) == [[2, "R4"], ["lord", "B9"]]


def test_s10_highest_trump_takes_the_trick() -> None:
    # Trump is B (chip on B4): seat 1 and seat 2 trump, seat 2 higher.
    state = rigged([["G1", "R1"], ["B2", "R2"], ["B8", "R3"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    play(state, 0, "G1")
    play(state, 1, "B2")
    events = play(state, 2, "B8")
    assert [e["winner"] for e in events if e["type"] == "trick"] == [2]


def test_s10_without_trumps_the_highest_card_of_the_led_colour_wins() -> None:
    state = rigged([["G1", "R1"], ["G11", "R2"], ["P12", "R3"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    play(state, 0, "G1")
    play(state, 1, "G11")
    events = play(state, 2, "P12")
    assert [e["winner"] for e in events if e["type"] == "trick"] == [1]


def test_s10_trick_winner_leads_the_next_trick() -> None:
    state = rigged([["G1", "R1"], ["G11", "R2"], ["P12", "R3"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    for seat, card in ((0, "G1"), (1, "G11"), (2, "P12")):
        play(state, seat, card)
    view = GAME.view(state, None)
    assert view["leader"] == 1 and view["turn"] == 1 and view["tricks"] == [0, 1, 0]


def test_s11_trump_stays_for_the_trick_when_the_chip_card_is_played() -> None:
    # After B9 leaves the Lord's hand its rightmost card is Y7, yet trump stays B for the
    # trick, so seat 0's Y12 does not win it.
    state = chip_deal()
    play(state, 2, "R4")
    assert GAME.view(state, None)["trump"] == "B"
    play(state, 0, "Y12")
    play(state, 1, "G2")
    events = play(state, 2, "R5")
    assert [e for e in events if e["type"] == "trick"][0] == {
        "type": "trick",
        "winner": "lord",
        "trump": "B",
    }


def test_s11_chip_moves_to_the_lords_rightmost_remaining_card_after_each_trick() -> None:
    state = chip_deal()
    play(state, 2, "R4")
    play(state, 0, "Y12")
    play(state, 1, "G2")
    events = play(state, 2, "R5")  # the Lord takes trick 2 and leads its last card, Y7
    assert played(events)[-1] == ["lord", "Y7"]
    view = GAME.view(state, None)
    assert view["lord"] == [] and view["chip"] == "Y7" and view["trump"] == "Y"


def test_s12_round_ends_when_every_hand_is_empty() -> None:
    state = GAME.new(4, GAME.resolve_options({}), 2)
    guess_all(state, [3, 3, 3, 3])
    events = play_out(state)
    assert sum(e["type"] == "trick" for e in events) == 12
    judged = [e for e in events if e["type"] == "judged"]
    assert len(judged) == 1 and judged[0]["lord_tricks"] + sum(judged[0]["tricks"]) == 12


def test_s13_an_exact_guess_gains_two_homare_and_blocks_the_closest_award() -> None:
    assert judge_guesses([5, 4, 6, 5], 5) == [2, 0, 0, 2]


def test_s13_rules_example_lord_five_guesses_four_six_six() -> None:
    # Rules text: the Lord takes 5; A guessed 4, B and C guessed 6: B and C gain 1.
    assert judge_guesses([4, 6, 6], 5) == [0, 1, 1]


def test_s13_closest_guess_gains_one_homare() -> None:
    assert judge_guesses([0, 3, 9], 5) == [0, 1, 0]


def test_s13_judging_adds_homare_at_the_end_of_a_round() -> None:
    state = rigged([["R1"], ["G1"], ["P1"]], ["Y1"])  # the Lord takes the only trick
    guess_all(state, [1, 0, 2])
    play_out(state)
    assert state.homare == [2, 0, 0] and state.last_round["lord_tricks"] == 1


def test_s14_taking_more_tricks_than_the_lord_gains_an_uchikubi() -> None:
    # Seat 1 trumps trick 1 and wins trick 2 over the Lord's B9: 2 > 0 for seat 1 only.
    state = rigged([["G1", "R1"], ["B2", "B10"], ["P1", "P2"]], ["G5", "B9"])
    guess_all(state, [0, 0, 0])
    for seat, card in ((0, "G1"), (1, "B2"), (2, "P1"), (1, "B10"), (2, "P2")):
        play(state, seat, card)
    play_out(state)
    assert state.last_round["uchikubi"] == [0, 1, 0] and state.uchikubi == [0, 1, 0]


def test_s14_equal_tricks_to_the_lord_are_safe() -> None:
    state = rigged([["R1"], ["G1"], ["P1"]], ["Y1"])
    guess_all(state, [0, 0, 0])
    play_out(state)
    assert state.last_round["tricks"] == [0, 0, 0] and state.uchikubi == [0, 0, 0]


def test_s15_three_homare_wins_and_several_share_the_win() -> None:
    result = standings([3, 4, 1], [0, 1, 0], "ranked")
    assert result is not None and result["places"] == [1, 1, 3] and result["winners"] == [0, 1]


def test_s15_second_uchikubi_executes_and_a_winner_who_is_executed_loses() -> None:
    result = standings([3, 3, 0], [2, 0, 0], "ranked")
    assert result is not None and result["losers"] == [0] and result["winners"] == [1]
    assert result["places"] == [3, 1, 2]


def test_s15_nobody_won_or_lost_means_the_match_goes_on() -> None:
    assert standings([2, 2, 1], [1, 1, 1], "ranked") is None


def test_s15_match_ends_at_judging_with_a_win() -> None:
    state = rigged([["R1"], ["G1"], ["P1"]], ["Y1"])
    state.homare = [1, 0, 0]
    guess_all(state, [1, 5, 5])
    events = play_out(state)
    assert events[-1] == {"type": "game_over", "places": [1, 2, 2]}
    assert GAME.outcome(state)["winners"] == [0]
    assert all(GAME.actions(state, s) == [] for s in range(3))


def test_s16_lord_moves_one_place_clockwise_each_round() -> None:
    state = rigged([["R1"], ["G1"], ["P1"]], ["Y1"], lord_seat=1)
    assert GAME.view(state, None)["table"] == [0, "lord", 1, 2]
    guess_all(state, [0, 0, 0])
    play_out(state)
    assert state.round == 2 and GAME.view(state, None)["table"] == [0, 1, "lord", 2]


def test_s16_two_players_lord_and_prince_swap_each_round() -> None:
    state = GAME.new(2, GAME.resolve_options({"lord_seat": 1}), 8)
    assert GAME.view(state, None)["table"] == [0, "lord", 1, "prince"]
    guess_all(state, [4, 4])
    play_out(state)
    assert GAME.view(state, None)["table"] == [0, "prince", 1, "lord"]


def test_s16_next_round_is_dealt_afresh_and_the_lord_leads_again() -> None:
    state = GAME.new(5, GAME.resolve_options({}), 6)
    guess_all(state, [2] * 5)
    play_out(state)
    assert state.round == 2 and state.phase == "guess"
    assert [len(h) for h in state.hands] == [10] * 6
    leftmost = state.hands[5][0]
    assert played(guess_all(state, [2] * 5)) == [["lord", leftmost]]


def test_hidden_other_guesses_show_only_whether_committed() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    guess_all(state, [7, 3])
    view = GAME.view(state, 1)
    assert view["guess"] == 3 and view["guessed"] == [True, True, False]
    other = GAME.copy(state)
    other.guesses[0] = 12
    assert GAME.view(other, 1) == view
    assert GAME.view(state, None)["guess"] is None


def test_hidden_guesses_are_revealed_at_judging() -> None:
    state = rigged([["R1"], ["G1"], ["P1"]], ["Y1"])
    guess_all(state, [7, 3, 0])
    events = play_out(state)
    judged = [e for e in events if e["type"] == "judged"][0]
    assert judged["guesses"] == [7, 3, 0]
    assert GAME.view(state, 2)["last_round"]["guesses"] == [7, 3, 0]


def strings(value: object) -> set[str]:
    """Every string anywhere inside plain data."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def test_hidden_each_seat_sees_its_own_hand_only_and_spectators_none() -> None:
    state = GAME.new(4, GAME.resolve_options({}), 0)
    assert GAME.view(state, 2)["hand"] == state.hands[2]
    assert GAME.view(state, None)["hand"] is None
    assert GAME.view(state, 2)["hand_sizes"] == [12, 12, 12, 12]
    shown = strings(GAME.view(state, 2))
    assert not shown & set(state.hands[0]) and not strings(GAME.view(state, None)) & set(
        state.hands[2]
    )


def test_hidden_shuffle_unseen_keeps_own_hand_npc_rows_and_shown_voids() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 11)
    guess_all(state, [2, 2, 2])
    rng = random.Random(0)
    while len(state.history) < 6:
        seat = state.turn()
        GAME.apply(state, seat, rng.choice(GAME.actions(state, seat)), 0)
    voids = state.voids()
    for i in range(20):
        world = GAME.shuffle_unseen(state, 0, random.Random(i))
        assert world.hands[0] == state.hands[0] and world.hands[3] == state.hands[3]
        for p in (1, 2):
            assert not {colour(c) for c in world.hands[p]} & voids[p]


def test_hidden_a_sampled_world_does_not_foretell_the_next_round() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 12)
    guess_all(state, [2, 2, 2])
    world = GAME.shuffle_unseen(state, 0, random.Random(5))
    assert world.rng != state.rng
    play_out(state)
    play_out(world)
    assert state.round == world.round == 2 and world.hands != state.hands


def test_hidden_sampled_worlds_depend_on_the_view_and_the_sampling_seed_only() -> None:
    state = GAME.new(4, GAME.resolve_options({}), 13)
    guess_all(state, [1, 2, 3, 4])
    other = GAME.copy(state)
    hidden = sorted(c for p in (1, 2, 3) for c in state.hands[p])  # the same cards, dealt
    other.hands[1:4] = [hidden[0:12], hidden[12:24], hidden[24:36]]  # another way round
    other.rng = state.rng ^ 1
    assert GAME.view(other, 0) == GAME.view(state, 0)
    a = GAME.shuffle_unseen(state, 0, random.Random(9))
    b = GAME.shuffle_unseen(other, 0, random.Random(9))
    assert GAME.dump(a) == GAME.dump(b)


def test_refused_move_leaves_the_state_untouched() -> None:
    state = rigged([["R1", "G9"], ["Y1", "Y2"], ["Y3", "Y4"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    before = codec.pack(GAME.dump(state))
    for seat, card in ((0, "R1"), (1, "Y1"), (0, "P5")):
        with pytest.raises(IllegalAction):
            play(state, seat, card)
    assert codec.pack(GAME.dump(state)) == before


def test_hidden_void_aware_deal_never_breaks_tight_constraints() -> None:
    # Three hands of 4: one may hold only R, one only R or G; every deal must still fit.
    pool = ["R1", "R2", "R3", "R4", "R5", "R6", "G1", "G2", "G3", "B1", "B2", "B3"]
    voids = [set("YGBP"), set("YBP"), set()]
    for seed in range(50):
        hands = deal_with_voids(pool, [4, 4, 4], voids, random.Random(seed))
        assert sorted(c for h in hands for c in h) == sorted(pool)
        assert [len(h) for h in hands] == [4, 4, 4]
        assert {colour(c) for c in hands[0]} == {"R"}
        assert {colour(c) for c in hands[1]} <= {"R", "G"}
