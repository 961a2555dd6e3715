"""Hachinin Meri: pack, orders, deal, declaration and hidden information (RULINGS §2)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games.contract import IllegalAction
from server.games.hachinin_meri import GAME
from server.games.hachinin_meri.cards import DECK, ORDERS, RANKS, SUITS, sort_key
from server.games.hachinin_meri.rules import team_of
from server.games.rng import Rng

PASS = {"type": "pass"}
DECLARE = {"type": "declare"}


# -- helpers (also used by the other hachinin_meri test modules) ---------------------
def at_play(
    hands: list[list[str]],
    okie: str = "I5",
    dealer: int = 7,
    recipient: int | None = None,
    declared: bool = True,
    trick: int = 2,
    monchi: bool = False,
    leader: int = 0,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A state in trick play with the given hands (seat order), as if dealt so."""
    state = GAME.new(8, GAME.resolve_options(options), 0)
    state.update(
        phase="play",
        dealer=dealer,
        trump=okie[0],
        okie=okie,
        talon=["G9", "G8"],
        hands=[sorted(h, key=sort_key) for h in hands],
        answers=[],
        asking=None,
        recipient=dealer if recipient is None else recipient,
        declared=declared,
        discard="K9",
        dead_public=trick > 1,
        played_trump=[False] * 8,
        monchi=monchi,
        trick=trick,
        leader=leader,
        turn=leader,
        table=[],
        tricks=[],
        deal_score=[0, 0],
    )
    return state


def play(state: dict[str, Any], *cards: str) -> list[dict[str, Any]]:
    """Play `cards` in turn order; returns all events."""
    events = []
    for card in cards:
        events += GAME.apply(state, state["turn"], {"type": "play", "card": card}, 0)
    return events


def legal(state: dict[str, Any], seat: int | None = None) -> set[str]:
    """The cards `seat` (default: the seat to play) may play."""
    seat = state["turn"] if seat is None else seat
    return {a["card"] for a in GAME.actions(state, seat)}


def with_robai_at(seat: int, seed_from: int = 0) -> dict[str, Any]:
    """A fresh match (first seed from `seed_from`) whose native Robai is dealt to `seat`."""
    for seed in range(seed_from, seed_from + 5000):
        state = GAME.new(8, {}, seed)
        if state["phase"] == "declare" and ORDERS[state["trump"]].robai in state["hands"][seat]:
            return state
    raise AssertionError("no such deal")


def answer_all_pass(state: dict[str, Any]) -> None:
    """Every seat passes, in the order asked."""
    while state["phase"] == "declare":
        GAME.apply(state, state["asking"], PASS, 0)


# -- spec 1-7: seats, pack, match, deal, orders ---------------------------------------
def test_s1_partners_sit_at_alternate_seats() -> None:
    assert [team_of(s) for s in range(8)] == [0, 1, 0, 1, 0, 1, 0, 1]


def test_s2_pack_has_75_cards_in_five_suits_of_fifteen_ranks() -> None:
    assert len(DECK) == len(set(DECK)) == 75
    assert len(SUITS) == 5 and len(RANKS) == 15


def test_s3_match_is_eight_deals_with_dealer_moving_left_and_scores_carried() -> None:
    state = GAME.new(8, {}, 3)
    dealers = [state["dealer"]]
    driver = random.Random(3)
    while GAME.outcome(state) is None:
        seat = next(s for s in range(8) if GAME.actions(state, s))
        for event in GAME.apply(state, seat, driver.choice(GAME.actions(state, seat)), 0):
            if event["type"] == "deal":
                dealers.append(event["dealer"])
    assert len(state["history"]) == 8
    assert dealers == [(dealers[0] + k) % 8 for k in range(8)]
    assert state["scores"] == [
        sum(h[0] for h in state["history"]),
        sum(h[1] for h in state["history"]),
    ]


def test_s3_higher_total_wins_the_match() -> None:
    state = GAME.new(8, {}, 0)
    state.update(phase="over", scores=[40, 32])
    assert GAME.outcome(state)["places"] == [1, 2, 1, 2, 1, 2, 1, 2]


def test_s3_equal_totals_are_a_draw() -> None:
    state = GAME.new(8, {}, 0)
    state.update(phase="over", scores=[36, 36])
    result = GAME.outcome(state)
    assert result["places"] == [1] * 8 and result["winner"] is None


def test_s4_deal_gives_three_batches_of_three_from_dealers_left() -> None:
    rng = Rng.from_seed(11)
    dealer = rng.randrange(8)
    deck = list(DECK)
    rng.shuffle(deck)
    state = GAME.new(8, {}, 11)
    first = (dealer + 1) % 8
    assert set(deck[0:3]) <= set(state["hands"][first])
    assert set(deck[24:27]) <= set(state["hands"][first])
    assert set(deck[21:24]) <= set(state["hands"][dealer])
    assert all(len(h) == 9 for h in state["hands"]) or state["phase"] == "discard"


def test_s4_okie_is_first_talon_card_and_sets_trump() -> None:
    rng = Rng.from_seed(5)
    rng.randrange(8)
    deck = list(DECK)
    rng.shuffle(deck)
    state = GAME.new(8, {}, 5)
    assert state["okie"] == deck[72] and state["trump"] == deck[72][0]
    assert state["talon"] == deck[73:75]


def test_s5_pao_robai_is_always_a_trump() -> None:
    assert all(ORDERS[t].is_trump("PRo") for t in SUITS)
    assert [len(ORDERS[t].trumps) for t in SUITS] == [15, 16, 16, 16, 16]


def test_s6_trump_order_with_a_long_suit() -> None:
    order = ORDERS["I"]
    ranked = sorted(order.trumps, key=order.trump_power, reverse=True)
    assert ranked == ["ISu", "IUn", "ISo", "PRo", "IRo", "IRe", "IKa"] + [
        f"I{n}" for n in range(9, 0, -1)
    ]


def test_s6_trump_order_with_a_round_suit() -> None:
    order = ORDERS["O"]
    ranked = sorted(order.trumps, key=order.trump_power, reverse=True)
    assert ranked[:7] == ["OSu", "OUn", "OSo", "PRo", "ORo", "ORe", "OKa"]
    assert ranked[7:] == [f"O{n}" for n in range(1, 10)]


def test_s6_pao_trump_has_one_robai_below_sota() -> None:
    order = ORDERS["P"]
    ranked = sorted(order.trumps, key=order.trump_power, reverse=True)
    assert ranked[:6] == ["PSu", "PUn", "PSo", "PRo", "PRe", "PKa"]


def _plain(suit: str) -> list[str]:
    order = ORDERS["K" if suit != "K" else "O"]
    cards = [c for c in DECK if c[0] == suit and not order.is_trump(c)]
    return sorted(cards, key=order.plain_power, reverse=True)


def test_s7_pao_plain_order_has_no_robai() -> None:
    assert _plain("P") == ["PSu", "PUn", "PRe", "PKa", "PSo"] + [f"P{n}" for n in range(9, 0, -1)]


def test_s7_isu_plain_order_puts_robai_between_two_and_one() -> None:
    assert _plain("I")[-3:] == ["I2", "IRo", "I1"]


def test_s7_round_plain_order_runs_robai_then_one_to_nine() -> None:
    assert _plain("G") == ["GSu", "GUn", "GRe", "GKa", "GSo", "GRo"] + [
        f"G{n}" for n in range(1, 10)
    ]


def test_s7_only_the_led_plain_suit_can_win() -> None:
    order = ORDERS["I"]
    assert order.winner(["K5", "GSu", "OSu", "K6"], "K") == 0


# -- spec 8-9: declaration, the recipient ----------------------------------------------
def test_s8_seats_answer_in_order_from_dealers_left() -> None:
    state = GAME.new(8, {}, 1)
    asked = []
    while state["phase"] == "declare":
        asked.append(state["asking"])
        GAME.apply(state, state["asking"], PASS, 0)
    dealer = state["dealer"]
    assert asked == [(dealer + k) % 8 for k in range(1, 9)]


def test_s8_only_the_robai_holder_is_offered_declare() -> None:
    state = with_robai_at(3)
    while state["asking"] != 3:
        assert GAME.actions(state, state["asking"]) == [PASS]
        GAME.apply(state, state["asking"], PASS, 0)
    assert DECLARE in GAME.actions(state, 3)


def test_s8_declaring_takes_the_okie_and_ends_the_round() -> None:
    state = with_robai_at(3)
    while state["asking"] != 3:
        GAME.apply(state, state["asking"], PASS, 0)
    GAME.apply(state, 3, DECLARE, 0)
    assert state["phase"] == "discard" and state["recipient"] == 3
    assert state["declared"] is True and state["okie"] in state["hands"][3]
    assert len(state["hands"][3]) == 10


def test_s8_when_everyone_passes_the_dealer_takes_the_okie_undeclared() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    assert state["recipient"] == state["dealer"] and state["declared"] is False
    assert state["okie"] in state["hands"][state["dealer"]]


def test_s9_recipient_discards_only_a_nontrump() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    order = ORDERS[state["trump"]]
    cards = [a["card"] for a in GAME.actions(state, state["recipient"])]
    assert cards and not any(order.is_trump(c) for c in cards)


def test_s9_recipient_leads_trick_one_with_a_nontrump() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    seat = state["recipient"]
    GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    order = ORDERS[state["trump"]]
    assert state["turn"] == seat and not any(order.is_trump(c) for c in legal(state))


def test_s9_discard_and_talon_turn_up_with_the_opening_lead() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    seat = state["recipient"]
    GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    assert GAME.view(state, (seat + 1) % 8)["dead"] is None
    events = GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    dead = [state["discard"], *state["talon"]]
    assert {"type": "dead", "cards": dead} in events
    assert GAME.view(state, None)["dead"] == dead


# -- hidden information ---------------------------------------------------------------
def test_hidden_a_seat_sees_its_own_hand_and_not_its_partners() -> None:
    state = GAME.new(8, {}, 2)
    view = GAME.view(state, 0)
    assert view["hand"] == state["hands"][0]
    assert not any(c in repr(view) for c in state["hands"][2])


def test_hidden_a_spectator_sees_no_hand() -> None:
    state = GAME.new(8, {}, 2)
    view = repr(GAME.view(state, None))
    assert not any(c in view for h in state["hands"] for c in h if c != state["okie"])


def test_hidden_the_discard_is_seen_by_the_recipient_only_before_the_lead() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    seat = state["recipient"]
    GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    assert GAME.view(state, seat)["discard"] == state["discard"]
    assert GAME.view(state, (seat + 2) % 8)["discard"] is None


def test_hidden_a_passing_robai_holder_looks_like_every_other_seat() -> None:
    state = with_robai_at(3)
    events = []
    while state["phase"] == "declare":
        events += GAME.apply(state, state["asking"], PASS, 0)
    assert {e["seat"]: e for e in events if e["type"] == "answer"}[3] == {
        "type": "answer",
        "seat": 3,
        "answer": "pass",
    }
    private = ("seat", "team", "hand")
    holder = {k: v for k, v in GAME.view(state, 3).items() if k not in private}
    other = {k: v for k, v in GAME.view(state, 5).items() if k not in private}
    assert holder == other


def test_hidden_prompt_order_does_not_depend_on_who_holds_the_robai() -> None:
    orders = []
    for holder in (2, 5):
        state = with_robai_at(holder)
        dealer = state["dealer"]
        asked = []
        while state["phase"] == "declare":
            asked.append((state["asking"] - dealer) % 8)
            GAME.apply(state, state["asking"], PASS, 0)
        orders.append(asked)
    assert orders[0] == orders[1] == [1, 2, 3, 4, 5, 6, 7, 0]


def test_hidden_sampled_worlds_keep_the_okie_with_its_recipient() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    seat = state["recipient"]
    for k in range(20):
        world = GAME.shuffle_unseen(state, (seat + 1) % 8, random.Random(k))
        assert state["okie"] in world["hands"][seat]


def test_hidden_sampled_worlds_keep_a_declared_robai_with_the_declarer() -> None:
    state = with_robai_at(4)
    while state["asking"] != 4:
        GAME.apply(state, state["asking"], PASS, 0)
    GAME.apply(state, 4, DECLARE, 0)
    robai = ORDERS[state["trump"]].robai
    for k in range(20):
        assert robai in GAME.shuffle_unseen(state, 1, random.Random(k))["hands"][4]


def test_hidden_sampled_worlds_keep_face_down_cards_trumps() -> None:
    hands = [["K1", "K2"], ["ISu", "K3"], ["K4", "K5"], ["IUn", "K6"]] + [
        [f"G{2 * i + 1}", f"G{2 * i + 2}"] for i in range(4)
    ]
    state = at_play(hands, trick=7)
    play(state, "K1", "ISu", "K4", "IUn")
    for k in range(20):
        world = GAME.shuffle_unseen(state, 0, random.Random(k))
        assert all(ORDERS["I"].is_trump(c) for _, c, down in world["table"] if down)


def test_hidden_sampled_worlds_put_the_okie_face_down_when_no_other_trump_is_unseen() -> None:
    hands = [["K1", "K2"], ["I5", "K3"], ["K4", "K5"], ["K6", "K7"]] + [
        [f"G{2 * i + 1}", f"G{2 * i + 2}"] for i in range(4)
    ]
    state = at_play(hands, okie="I5", recipient=1, trick=7)
    play(state, "K1", "I5")
    for k in range(20):
        world = GAME.shuffle_unseen(state, 0, random.Random(k))
        assert world["table"][1][1] == "I5"


def test_hidden_sampled_worlds_keep_public_voids() -> None:
    hands = [["K1", "K2"], ["O1", "O3"], ["K4", "K5"], ["O2", "K6"]] + [
        [f"G{2 * i + 1}", f"G{2 * i + 2}"] for i in range(4)
    ]
    state = at_play(hands, trick=7, monchi=True)
    play(state, "K1", "O1")  # seat 1 could not follow Koppu: it has none left
    for k in range(20):
        world = GAME.shuffle_unseen(state, 0, random.Random(k))
        assert not any(c[0] == "K" for c in world["hands"][1])


def mid_deal(seed: int, trick: int) -> dict[str, Any]:
    """A seeded match driven by random legal moves until trick `trick` of deal 1 starts."""
    state = GAME.new(8, {}, seed)
    driver = random.Random(seed)
    while not (state["phase"] == "play" and state["trick"] == trick and not state["table"]):
        seat = next(s for s in range(8) if GAME.actions(state, s))
        GAME.apply(state, seat, driver.choice(GAME.actions(state, seat)), 0)
    return state


def finish_deal(state: dict[str, Any]) -> None:
    """Every seat plays its first legal card until the next deal has been dealt."""
    deal = state["deal"]
    while state["deal"] == deal:
        GAME.apply(state, state["turn"], GAME.actions(state, state["turn"])[0], 0)


def test_hidden_a_sampled_world_does_not_foretell_the_next_deal() -> None:
    state = mid_deal(3, 8)
    world = GAME.shuffle_unseen(state, state["turn"], random.Random(5))
    assert world["rng"] != state["rng"]
    finish_deal(state)
    finish_deal(world)
    assert world["okie"] != state["okie"] or world["hands"] != state["hands"]


def test_hidden_sampled_worlds_depend_on_the_view_and_the_sampling_seed_only() -> None:
    state = mid_deal(5, 4)
    seat = state["turn"]
    other = GAME.shuffle_unseen(state, seat, random.Random(1))
    other["rng"] = state["rng"] ^ 1  # another hidden truth, generator included
    assert other["hands"] != state["hands"] and GAME.view(other, seat) == GAME.view(state, seat)
    a = GAME.shuffle_unseen(state, seat, random.Random(9))
    b = GAME.shuffle_unseen(other, seat, random.Random(9))
    assert a == b


# -- rulings on the deal and the declaration ------------------------------------------
def test_h1_tenka_is_the_pao_robai() -> None:
    order = ORDERS["G"]
    assert order.trump_power("GSo") > order.trump_power("PRo") > order.trump_power("GRo")


def test_h2_sun_beats_un() -> None:
    assert ORDERS["K"].trump_power("KSu") > ORDERS["K"].trump_power("KUn")


def test_h3_play_passes_to_the_next_seat() -> None:
    hands = [[f"K{n}"] for n in range(1, 9)]
    state = at_play(hands, trick=8, leader=6)
    play(state, "K7")
    assert state["turn"] == 7
    play(state, "K8")
    assert state["turn"] == 0


def test_h4_the_round_stops_at_a_declaration() -> None:
    state = with_robai_at(4)
    while state["asking"] != 4:
        GAME.apply(state, state["asking"], PASS, 0)
    GAME.apply(state, 4, DECLARE, 0)
    assert state["asking"] is None and all(not GAME.actions(state, s) for s in range(8) if s != 4)


def test_h4_a_dealer_holding_the_robai_may_declare() -> None:
    for seed in range(5000):
        state = GAME.new(8, {}, seed)
        dealer = state["dealer"]
        if state["phase"] == "declare" and ORDERS[state["trump"]].robai in state["hands"][dealer]:
            break
    while state["asking"] != dealer:
        GAME.apply(state, state["asking"], PASS, 0)
    GAME.apply(state, dealer, DECLARE, 0)
    assert state["recipient"] == dealer and state["declared"] is True


def test_h5_an_okie_that_is_the_robai_goes_to_the_dealer_as_declared() -> None:
    seed = next(s for s in range(5000) if GAME.new(8, {}, s)["okie"][1:] == "Ro")
    state = GAME.new(8, {}, seed)
    assert state["phase"] == "discard" and state["recipient"] == state["dealer"]
    assert state["declared"] is True and state["answers"] == []


def test_h6_recipient_with_only_trumps_may_discard_a_trump_but_not_the_okie() -> None:
    state = GAME.new(8, {}, 1)
    answer_all_pass(state)
    seat = state["recipient"]
    trumps = sorted(ORDERS[state["trump"]].trumps - {state["okie"]}, key=sort_key)[:9]
    state["hands"][seat] = sorted([*trumps, state["okie"]], key=sort_key)
    assert {a["card"] for a in GAME.actions(state, seat)} == set(trumps)


def test_h6_a_forced_trump_lead_on_trick_one_is_a_meri() -> None:
    hands = [["I1"], ["I2"]] + [[f"K{n}"] for n in range(1, 7)]
    state = at_play(hands, trick=1, leader=0)
    assert legal(state) == {"I1"}
    play(state, "I1")
    assert state["monchi"] is True and legal(state) == {"I2"}


def test_h15_the_deal_is_a_plain_seeded_shuffle() -> None:
    assert GAME.new(8, {}, 9) == GAME.new(8, {}, 9)
    assert GAME.new(8, {}, 9)["hands"] != GAME.new(8, {}, 10)["hands"]


def test_h13_concealed_robai_bonus_is_a_listed_option() -> None:
    described = {o["name"]: o for o in GAME.describe()["options"]}
    assert described["concealed_robai_bonus"]["default"] == "robai_pairs"
    assert "every_pair" in described["concealed_robai_bonus"]["choices"]


# -- H17: the declaration timeout ------------------------------------------------------
def test_h17_a_silent_seat_passes_when_the_declaration_timeout_expires() -> None:
    state = with_robai_at(3)
    assert GAME.resolve_options({})["declare_timeout_ms"] == 20_000
    asked = state["asking"]
    assert GAME.deadline(state) == 20_000
    assert GAME.expire(state, 19_999) == []
    events = GAME.expire(state, 20_000)
    assert events == [{"type": "answer", "seat": asked, "answer": "pass"}]
    # The same timeout for every seat, from the moment it is asked.
    assert GAME.deadline(state) == 40_000
    GAME.apply(state, state["asking"], PASS, 25_000)
    assert GAME.deadline(state) == 45_000
    assert GAME.view(state, 0)["declare_deadline"] == 45_000


def test_h17_expiry_passes_even_for_the_robai_holder() -> None:
    state = with_robai_at(3)
    events = GAME.expire(state, 8 * 20_000)
    assert [e["seat"] for e in events if e["type"] == "answer"][-1] == state["dealer"]
    assert all(e["answer"] == "pass" for e in events if e["type"] == "answer")
    assert state["phase"] == "discard" and state["declared"] is False
    assert GAME.deadline(state) is None and GAME.view(state, 3)["declare_deadline"] is None


def test_h17_the_declaration_timeout_option_has_a_documented_range() -> None:
    assert GAME.resolve_options({"declare_timeout_ms": 0})["declare_timeout_ms"] == 0
    state = GAME.new(8, GAME.resolve_options({"declare_timeout_ms": 0}), 1)
    assert GAME.deadline(state) is None
    for bad in (4999, 120_001, -1, "20000", 20000.0, True):
        with pytest.raises(IllegalAction):
            GAME.resolve_options({"declare_timeout_ms": bad})
    described = {o["name"]: o for o in GAME.describe()["options"]}
    assert "5000 to 120000" in described["declare_timeout_ms"]["description"]
