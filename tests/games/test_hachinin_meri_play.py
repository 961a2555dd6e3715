"""Hachinin Meri: trick play, face-down trumps, trick nine and scoring (RULINGS §2)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games.hachinin_meri import GAME
from tests.games.test_hachinin_meri import at_play, legal, play

JUNK = [["K5", "K6"], ["G1", "G2"], ["G3", "G4"], ["G5", "G6"], ["G7", "G8"]]


def one_trick(first: str, second: str, third: str, **kw: Any) -> dict[str, Any]:
    """Trick 2 (trump Isu): seat 0 leads `first`, seats 1 and 2 play the next two cards,
    the rest play plain junk. Returns the finished trick record."""
    hands = [[first, "K2"], [second, "K3"], [third, "K4"], *JUNK]
    state = at_play(hands, **kw)
    play(state, first, second, third, "K5", "G1", "G3", "G5", "G7")
    return state


def last_trick(cards: list[str], **kw: Any) -> dict[str, Any]:
    """Trick 8 of plain Pao cards, then trick 9 with `cards` (seat order); dealer is 7."""
    hands = [[f"P{s + 1}", cards[s]] for s in range(8)]
    state = at_play(hands, trick=8, **kw)
    play(state, *[f"P{s + 1}" for s in range(8)])
    return state


# -- spec 10-17 -------------------------------------------------------------------------
def test_s10_a_trick_takes_eight_cards_and_its_winner_leads_the_next() -> None:
    hands = [["K1", "K2"], ["K3", "K4"], ["K7", "K6"], ["KSu", "K8"], *JUNK[1:4], ["O1", "O2"]]
    state = at_play(hands)
    play(state, "K1", "K3", "K7", "KSu", "G1", "G3", "G5")
    assert len(state["table"]) == 7 and state["turn"] == 7
    play(state, "O1")
    assert state["table"] == [] and state["tricks"][-1]["winner"] == 3
    assert state["turn"] == state["leader"] == 3 and state["trick"] == 3


def test_s11_any_card_is_legal_before_the_first_meri() -> None:
    hands = [["K1", "K2"], ["K3", "O4", "I2"], *JUNK, ["O1", "O2"]]
    state = at_play(hands)
    play(state, "K1")
    assert legal(state) == {"K3", "O4", "I2"}


def test_s11_trick_one_may_not_be_led_with_a_trump() -> None:
    hands = [["I1", "K1"], *JUNK, ["O1", "O2"], ["O3", "O4"]]
    assert legal(at_play(hands, trick=1)) == {"K1"}
    assert legal(at_play(hands, trick=2)) == {"I1", "K1"}


def test_s12_a_meri_must_be_followed_with_a_trump() -> None:
    state = at_play([["I1", "K1"], ["I2", "K3"], *JUNK, ["O1", "O2"]])
    play(state, "I1")
    assert legal(state) == {"I2"}


def test_s12_tenka_must_be_played_to_a_meri() -> None:
    state = at_play([["I1", "K1"], ["PRo", "K3"], *JUNK, ["O1", "O2"]])
    play(state, "I1")
    assert legal(state) == {"PRo"}


def test_s12_a_seat_without_trumps_plays_anything_to_a_meri() -> None:
    state = at_play([["I1", "K1"], ["O5", "K3"], *JUNK, ["O1", "O2"]])
    play(state, "I1")
    assert legal(state) == {"O5", "K3"}


def test_s12_trumps_in_a_meri_are_face_up() -> None:
    state = at_play([["I1", "K1"], ["I2", "K3"], *JUNK, ["O1", "O2"]])
    play(state, "I1", "I2")
    assert GAME.view(state, 5)["table"][1] == {"seat": 1, "card": "I2", "face_down": False}


def test_s13_monchi_plain_lead_allows_the_led_suit_or_a_trump() -> None:
    state = at_play([["K1", "K2"], ["K3", "I2", "O4"], *JUNK, ["O1", "O2"]], monchi=True)
    play(state, "K1")
    assert legal(state) == {"K3", "I2"}


def test_s13_monchi_seat_void_of_the_led_suit_plays_anything() -> None:
    state = at_play([["K1", "K2"], ["O3", "I2", "O4"], *JUNK, ["O1", "O2"]], monchi=True)
    play(state, "K1")
    assert legal(state) == {"O3", "I2", "O4"}


def test_s14_a_trump_on_a_plain_lead_is_face_down_until_the_eighth_card() -> None:
    state = at_play([["K1", "K2"], ["I2", "K3"], ["K4", "K7"], *JUNK])
    events = play(state, "K1", "I2")
    assert events[-1] == {"type": "play", "seat": 1, "card": None, "face_down": True}
    assert GAME.view(state, 2)["table"][1] == {"seat": 1, "card": None, "face_down": True}
    assert GAME.view(state, None)["table"][1]["card"] is None
    events = play(state, "K4", "K5", "G1", "G3", "G5", "G7")
    assert events[-1]["type"] == "trick" and events[-1]["cards"][1] == "I2"
    assert GAME.view(state, 2)["tricks"][-1]["cards"][1] == "I2"


def test_s14_a_seat_sees_its_own_face_down_trump() -> None:
    state = at_play([["K1", "K2"], ["I2", "K3"], ["K4", "K7"], *JUNK])
    play(state, "K1", "I2")
    assert GAME.view(state, 1)["table"][1] == {"seat": 1, "card": "I2", "face_down": True}


def test_s15_the_highest_trump_wins() -> None:
    state = one_trick("KSu", "I2", "I9")
    assert state["tricks"][-1]["winner"] == 2


def test_s15_without_trumps_the_highest_card_of_the_led_suit_wins() -> None:
    state = one_trick("K7", "GSu", "K3")  # round suit: 3 beats 7; Guru cannot win
    assert state["tricks"][-1]["winner"] == 2


def test_s16_trick_nine_plays_itself_once_each_seat_has_one_card() -> None:
    state = last_trick(["K1", "K2", "K3", "K4", "O1", "O2", "O3", "O4"])
    assert len(state["history"]) == 1 and state["previous"]["last_trick"]["number"] == 9
    assert state["phase"] in ("declare", "discard") and state["deal"] == 1


def test_s16_trick_nine_without_trumps_takes_the_dealers_suit() -> None:
    state = last_trick(["KSu", "G9", "O1", "G1", "K2", "OSu", "G8", "G5"])
    assert state["previous"]["last_trick"]["winner"] == 3


def test_s16_trick_nine_trumps_still_win() -> None:
    state = last_trick(["KSu", "G9", "O1", "G1", "I3", "OSu", "G8", "G5"])
    assert state["previous"]["last_trick"]["winner"] == 4


def test_s17_each_trick_scores_one_for_the_winning_team() -> None:
    state = one_trick("K7", "K9", "K3")
    assert state["deal_score"] == [1, 0]


# -- spec 18-19: combinations ------------------------------------------------------------
@pytest.mark.parametrize(
    ("okie", "winning", "opposing"),
    [
        ("I5", "ISu", "IUn"),
        ("I5", "IUn", "ISo"),
        ("I5", "ISo", "IRo"),
        ("I5", "IRo", "IRe"),
        ("I5", "I2", "I1"),
        ("O5", "O8", "O9"),
    ],
)
def test_s18_each_pair_transfers_two(okie: str, winning: str, opposing: str) -> None:
    state = one_trick("K1", opposing, winning, okie=okie)
    assert state["tricks"][-1]["combo"] == {"pair": [winning, opposing], "value": 2}
    assert state["deal_score"] == [3, -2]


def test_s18_no_combination_when_the_opponents_played_no_trump() -> None:
    state = one_trick("K1", "O3", "ISu")
    assert state["tricks"][-1]["combo"] is None and state["deal_score"] == [1, 0]


def test_s18_the_opposing_trump_is_the_opponents_strongest() -> None:
    hands = [["K1", "K2"], ["I1", "K3"], ["ISu", "K4"], ["IUn", "K8"], *JUNK[1:4], ["O1", "O2"]]
    state = at_play(hands)
    play(state, "K1", "I1", "ISu", "IUn", "G1", "G3", "G5", "O1")
    assert state["tricks"][-1]["combo"] == {"pair": ["ISu", "IUn"], "value": 2}


def test_s18_a_partners_trump_is_not_the_opposing_trump() -> None:
    hands = [["K1", "K2"], ["ISo", "K3"], ["ISu", "K4"], ["K5", "K8"], ["IUn", "G2"], *JUNK[2:]]
    state = at_play(hands)
    play(state, "K1", "ISo", "ISu", "K5", "IUn", "G3", "G5", "G7")
    assert state["tricks"][-1]["combo"] is None


def test_s18_a_trick_nine_combination_transfers_five() -> None:
    state = last_trick(["K1", "IUn", "ISu", "K4", "O1", "O2", "O3", "O4"])
    assert state["previous"]["last_trick"]["combo"] == {"pair": ["ISu", "IUn"], "value": 5}


def test_s18_an_undeclared_robai_in_the_pair_transfers_five() -> None:
    assert one_trick("K1", "IRo", "ISo", declared=False)["deal_score"] == [6, -5]
    assert one_trick("K1", "IRe", "IRo", declared=False)["deal_score"] == [6, -5]


def test_s18_an_undeclared_robai_does_not_raise_other_pairs() -> None:
    assert one_trick("K1", "IUn", "ISu", declared=False)["deal_score"] == [3, -2]


def test_s18_the_two_five_point_conditions_do_not_stack() -> None:
    state = last_trick(["K1", "IRo", "ISo", "K4", "O1", "O2", "O3", "O4"], declared=False)
    assert state["previous"]["last_trick"]["combo"]["value"] == 5


def test_s19_deal_scores_sum_to_nine_over_many_seeded_deals() -> None:
    totals = []
    for seed in range(12):
        state = GAME.new(8, {}, seed)
        driver = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = next(s for s in range(8) if GAME.actions(state, s))
            GAME.apply(state, seat, driver.choice(GAME.actions(state, seat)), 0)
        totals += [a + b for a, b in state["history"]]
    assert len(totals) == 96 and set(totals) == {9}


# -- rulings on play and scoring -------------------------------------------------------
def test_h7_monchi_allows_a_trump_while_holding_the_led_suit() -> None:
    state = at_play([["K1", "K2"], ["K3", "I2"], *JUNK, ["O1", "O2"]], monchi=True)
    play(state, "K1")
    assert "I2" in legal(state)


def test_h8_trumps_on_plain_leads_stay_face_down_during_monchi() -> None:
    state = at_play([["K1", "K2"], ["K3", "I2"], *JUNK, ["O1", "O2"]], monchi=True)
    play(state, "K1", "I2")
    assert GAME.view(state, 0)["table"][1]["card"] is None


def test_h9_monchi_starts_with_the_first_meri_trick_and_lasts_the_deal() -> None:
    hands = [["I1", "K1", "K2"], ["K3", "I2", "O4"], ["I3", "K4", "K7"]]
    hands += [["K5", "K6", "O5"], ["G1", "G2", "O6"], ["G3", "G4", "O7"]]
    hands += [["G5", "G6", "O8"], ["G7", "G8", "O9"]]
    state = at_play(hands)
    assert state["monchi"] is False
    play(state, "I1")
    assert legal(state) == {"I2"}  # Meri rules hold on the Meri trick itself
    play(state, "I2", "I3", "K5", "G1", "G3", "G5", "G7")
    assert state["monchi"] is True and state["turn"] == 2
    play(state, "K4")
    assert legal(state) == {"K6"}


def test_h9_monchi_ends_with_the_deal() -> None:
    state = last_trick(["K1", "K2", "K3", "K4", "O1", "O2", "O3", "O4"], monchi=True)
    assert state["monchi"] is False


def test_h10_a_sun_only_hand_may_keep_its_sun_back_in_a_meri() -> None:
    state = at_play([["I1", "K1"], ["ISu", "K3"], *JUNK, ["O1", "O2"]])
    play(state, "I1")
    assert legal(state) == {"ISu", "K3"}


def test_h10_no_sun_exception_once_another_trump_was_played() -> None:
    state = at_play([["I1", "K1"], ["ISu", "K3"], *JUNK, ["O1", "O2"]])
    state["played_trump"][1] = True
    play(state, "I1")
    assert legal(state) == {"ISu"}


def test_h10_a_trump_the_engine_saw_played_ends_the_sun_exception() -> None:
    hands = [["IUn", "I1", "K1"], ["ISu", "I2", "K3"], ["K4", "K5", "K6"], ["K7", "K8", "KSu"]]
    hands += [["G1", "G2", "G3"], ["G4", "G5", "G6"], ["O1", "O2", "O3"], ["O4", "O5", "O6"]]
    state = at_play(hands)
    play(state, "IUn")
    assert legal(state) == {"ISu", "I2"}
    play(state, "I2", "K4", "K7", "G1", "G4", "O1", "O4")
    play(state, "I1")  # seat 0 won and leads again; seat 1 now holds only the Sun
    assert legal(state, 1) == {"ISu"}


def test_h10_the_okie_counts_in_the_initial_hand() -> None:
    state = at_play([["I1", "K1"], ["ISu", "I5", "K3"], *JUNK, ["O1", "O2"]], recipient=1)
    play(state, "I1")
    assert legal(state) == {"ISu", "I5"}


def test_h11_a_meri_trick_never_scores_a_combination() -> None:
    state = one_trick("I1", "IUn", "ISu")
    assert state["tricks"][-1]["meri"] is True and state["tricks"][-1]["combo"] is None
    assert state["deal_score"] == [1, 0]


def test_h11_trick_nine_scores_combinations_when_the_dealers_card_is_a_trump() -> None:
    state = last_trick(["ISu", "IUn", "K3", "K4", "O1", "O2", "O3", "I3"])  # dealer: seat 7
    trick = state["previous"]["last_trick"]
    assert trick["cards"][0] == "I3" and trick["meri"] is False
    assert trick["combo"] == {"pair": ["ISu", "IUn"], "value": 5}
    assert state["previous"]["deal_score"] == [1 + 5, 1 - 5]  # trick 8 went to seat 7


def test_h11_trick_one_scores_combinations() -> None:
    state = one_trick("K1", "IUn", "ISu", trick=1)
    assert state["tricks"][-1]["combo"] == {"pair": ["ISu", "IUn"], "value": 2}


def test_h12_tenka_never_counts_as_robai_in_combinations() -> None:
    assert one_trick("K1", "PRo", "ISo")["tricks"][-1]["combo"] is None
    assert one_trick("K1", "IRo", "PRo")["tricks"][-1]["combo"] is None
    assert one_trick("K1", "IRe", "PRo")["tricks"][-1]["combo"] is None


def test_h12_the_pao_robai_counts_when_pao_is_trump() -> None:
    assert one_trick("K1", "PRo", "PSo", okie="P5")["tricks"][-1]["combo"]["value"] == 2
    assert one_trick("K1", "PRe", "PRo", okie="P5")["tricks"][-1]["combo"]["value"] == 2


def test_h13_every_pair_option_makes_any_pair_five_while_the_robai_is_hidden() -> None:
    options = {"concealed_robai_bonus": "every_pair"}
    assert one_trick("K1", "IUn", "ISu", declared=False, options=options)["deal_score"] == [6, -5]
    assert one_trick("K1", "IUn", "ISu", declared=True, options=options)["deal_score"] == [3, -2]


def test_h14_a_transfer_adds_to_the_winners_and_takes_from_the_losers() -> None:
    state = one_trick("K1", "ISo", "IUn")
    assert state["deal_score"] == [1 + 2, -2] and sum(state["deal_score"]) == 1


def test_h16_the_follow_duty_does_not_depend_on_a_declaration() -> None:
    hands = [["K1", "K2"], ["K3", "O4"], *JUNK, ["O1", "O2"]]
    state = at_play(hands, monchi=True, declared=False)
    play(state, "K1")
    assert legal(state) == {"K3"}


def test_h17_every_pair_gives_no_bonus_when_the_native_robai_is_a_dead_talon_card() -> None:
    options = {"concealed_robai_bonus": "every_pair"}
    hands = [["K1", "K2"], ["IUn", "K3"], ["ISu", "K4"], *JUNK]
    state = at_play(hands, declared=False, options=options)
    state["talon"] = ["IRo", "G8"]  # the native Robai of Isu, face up since the lead
    play(state, "K1", "IUn", "ISu", "K5", "G1", "G3", "G5", "G7")
    assert state["tricks"][-1]["combo"] == {"pair": ["ISu", "IUn"], "value": 2}
    assert state["deal_score"] == [3, -2]


def test_h13_every_pair_with_the_robai_out_of_play_as_the_discard_scores_two() -> None:
    options = {"concealed_robai_bonus": "every_pair"}
    hands = [["K1", "K2"], ["IUn", "K3"], ["ISu", "K4"], *JUNK]
    state = at_play(hands, declared=False, options=options)
    state["discard"] = "IRo"
    play(state, "K1", "IUn", "ISu", "K5", "G1", "G3", "G5", "G7")
    assert state["deal_score"] == [3, -2]
