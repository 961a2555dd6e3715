"""Usunoro spec items 1-17 and "Hidden information" (RULINGS.md section 1), one test each."""

from __future__ import annotations

import random

import pytest

from server.games import cards
from server.games.contract import IllegalAction
from server.games.rng import Rng
from server.games.usunoro import GAME, TIMING, is_matching, suggested_pass
from server.store import codec
from tests.conformance import conforms

MIXED = [
    ["S1", "H1", "C1", "S2"],
    ["D1", "H2", "C2", "D2"],
    ["S3", "H3", "C3", "S4"],
    ["D3", "H4", "C4", "D4"],
]
ALL_MATCH = [[f"{s}{r}" for s in "SHCD"] for r in range(1, 5)]


def fresh(hands: list[list[str]] | None = None, seed: int = 1, **options: object) -> dict:
    """A new match, optionally with the given hands dealt instead."""
    state = GAME.new(4, GAME.resolve_options(options), seed)
    if hands is not None:
        state["hands"] = [sorted(h, key=cards.sort_key) for h in hands]
    return state


def mark_all(state: dict, picks: list[str], now: int = 0) -> list[dict]:
    """Every seat marks its card; returns the events of the fourth (the exchange)."""
    events: list[dict] = []
    for seat, card in enumerate(picks):
        events = GAME.apply(state, seat, {"type": "mark", "card": card}, now)
    return events


def grab(state: dict, seat: int, now: int = 0) -> list[dict]:
    return GAME.apply(state, seat, {"type": "grab"}, now)


def test_spec1_exactly_four_seats() -> None:
    assert (GAME.min_seats, GAME.max_seats) == (4, 4)
    with pytest.raises(IllegalAction):
        GAME.new(3, GAME.resolve_options({}), 0)


def test_spec2_deck_is_the_sixteen_cards_of_ranks_one_to_four() -> None:
    for seed in range(20):
        state = fresh(seed=seed)
        dealt = sorted(c for h in state["hands"] for c in h)
        assert dealt == sorted(cards.deck(4))


def test_spec3_three_tokens() -> None:
    assert GAME.view(fresh(), 0)["tokens_left"] == 3


def test_spec4_every_hand_holds_four_cards_after_exchanges() -> None:
    state = fresh(seed=3)
    rng = Rng(9)
    for _ in range(10):
        mark_all(state, [suggested_pass(h, rng) for h in state["hands"]])
        assert [len(h) for h in state["hands"]] == [4, 4, 4, 4]
        assert sorted(c for h in state["hands"] for c in h) == sorted(cards.deck(4))


def test_spec5_matching_hand_is_four_cards_of_one_rank() -> None:
    assert is_matching(["S3", "H3", "C3", "D3"])
    assert not is_matching(["S1", "S2", "S3", "S4"])
    assert not is_matching(["S3", "H3", "C3", "D4"])


def test_spec6_round_runs_passing_then_race_then_done() -> None:
    state = fresh(ALL_MATCH)
    assert state["phase"] == "passing"
    grab(state, 2)
    assert state["phase"] == "race"
    grab(state, 0)
    grab(state, 3)
    assert state["phase"] == "done"


def test_spec7_a_mark_can_be_changed_and_cancelled_before_the_exchange() -> None:
    state = fresh(MIXED)
    GAME.apply(state, 0, {"type": "mark", "card": "S1"}, 0)
    GAME.apply(state, 0, {"type": "mark", "card": "S2"}, 0)
    assert GAME.view(state, 0)["mark"] == "S2"
    GAME.apply(state, 0, {"type": "unmark"}, 0)
    assert GAME.view(state, 0)["mark"] is None
    assert {"type": "unmark"} not in GAME.actions(state, 0)


def test_spec7_only_a_card_of_ones_own_hand_can_be_marked() -> None:
    state = fresh(MIXED)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "mark", "card": "D4"}, 0)
    assert refused.value.code == "not_in_hand"


def test_spec8_exchange_gives_each_seat_the_previous_seats_mark() -> None:
    state = fresh(MIXED)
    events = mark_all(state, ["S2", "D1", "S4", "D3"])
    assert {"type": "exchange", "count": 1} in events
    assert state["hands"][0] == ["S1", "H1", "C1", "D3"]
    assert state["hands"][1] == ["S2", "H2", "C2", "D2"]
    assert state["hands"][2] == ["D1", "S3", "H3", "C3"]
    assert state["hands"][3] == ["S4", "H4", "C4", "D4"]


def test_spec8_a_received_card_is_not_passed_on_in_the_same_exchange() -> None:
    state = fresh(MIXED)
    mark_all(state, ["S1", "D1", "S3", "D3"])
    # Seat 1 received S1 and sent D1; nothing travels two seats in one exchange.
    assert "S1" in state["hands"][1] and "D1" in state["hands"][2]
    assert "S1" not in state["hands"][2]


def test_spec9_the_hundredth_exchange_voids_the_round_without_penalty() -> None:
    state = fresh(MIXED)
    state["exchanges"] = 99
    events = mark_all(state, ["S2", "D1", "S4", "D3"])
    assert {"type": "void", "reason": "exchange_cap"} in events
    assert state["phase"] == "void" and state["penalties"] == [0, 0, 0, 0]


def test_spec10a_legal_first_grab_takes_a_token_starts_race_and_drops_marks() -> None:
    state = fresh(ALL_MATCH)
    GAME.apply(state, 3, {"type": "mark", "card": "S4"}, 0)
    assert grab(state, 1) == [{"type": "first_grab", "seat": 1}]
    view = GAME.view(state, 3)
    assert view["phase"] == "race" and view["taken"] == [1] and view["tokens_left"] == 2
    assert view["marked"] == [False] * 4 and view["mark"] is None
    assert all(a["type"] == "grab" for a in GAME.actions(state, 3))


def test_spec10b_early_grab_penalises_only_the_grabber_and_ends_the_round() -> None:
    state = fresh(MIXED)
    events = grab(state, 2)
    assert events[0] == {"type": "early_grab", "seat": 2}
    assert state["phase"] == "done" and state["penalties"] == [0, 0, 1, 0]


def test_spec10c_in_the_race_any_hand_may_take_a_token() -> None:
    state = fresh(MIXED)
    state["hands"][0] = ["S2", "H2", "C2", "D2"]
    state["hands"][1] = ["D1", "H1", "C1", "S1"]
    grab(state, 0)
    assert grab(state, 3) == [{"type": "grab", "seat": 3}]
    assert state["taken"] == [0, 3]


def test_spec10d_a_token_holder_pressing_again_changes_nothing() -> None:
    state = fresh(ALL_MATCH)
    grab(state, 0)
    before = codec.pack(GAME.dump(state))
    assert GAME.actions(state, 0) == []
    with pytest.raises(IllegalAction) as refused:
        grab(state, 0)
    assert refused.value.code == "already_taken"
    assert codec.pack(GAME.dump(state)) == before


def test_spec11_the_seat_left_without_a_token_is_penalised() -> None:
    state = fresh(ALL_MATCH)
    grab(state, 1)
    grab(state, 3)
    events = grab(state, 0)
    assert {"type": "round_over", "penalised": 2, "reason": "no_token"} in events
    assert state["penalties"] == [0, 0, 1, 0]


def test_spec12_an_unfinished_race_is_void_after_eight_seconds() -> None:
    state = fresh(ALL_MATCH)
    grab(state, 0, now=500)
    assert GAME.deadline(state) == 8500
    assert GAME.expire(state, 8499) == []
    assert GAME.expire(state, 8500) == [{"type": "void", "reason": "race_timeout"}]
    assert state["phase"] == "void" and state["penalties"] == [0, 0, 0, 0]


def test_a_void_round_s_events_and_views_are_the_schema_s() -> None:
    # The seeded matches of the conformance suite never void a round: each way here.
    capped = fresh(MIXED)
    capped["exchanges"] = 99
    raced = fresh(ALL_MATCH)
    grab(raced, 0, now=500)
    idle = fresh(MIXED, mark_timeout_ms=0, idle_void_ms=60_000)
    voided = {
        "exchange_cap": (capped, mark_all(capped, ["S2", "D1", "S4", "D3"])),
        "race_timeout": (raced, GAME.expire(raced, 8500)),
        "idle": (idle, GAME.expire(idle, 60_000)),
    }
    for reason, (state, events) in voided.items():
        assert {"type": "void", "reason": reason} in events
        for event in events:
            conforms(GAME, "event", event)
        for seat in (0, 1, 2, 3, None):
            conforms(GAME, "view", GAME.view(state, seat))


def test_spec13_each_deal_draws_a_tie_order_of_the_four_seats() -> None:
    state = fresh(MIXED)
    orders = []
    for round_no in range(8):
        order = GAME.view(state, None)["tie_order"]
        assert sorted(order) == [0, 1, 2, 3]
        orders.append(tuple(order))
        state["hands"] = [list(h) for h in MIXED]
        grab(state, round_no % 4)
        GAME.apply(state, 0, {"type": "next"}, 0)
    assert len(set(orders)) > 1


def test_spec14_cpu_pass_keeps_the_rank_held_most() -> None:
    rng = Rng(5)
    for _ in range(50):
        assert suggested_pass(["S3", "H3", "C3", "D1"], rng) == "D1"
        assert suggested_pass(["S2", "H2", "C1", "D4"], rng) in ("C1", "D4")


def test_spec14_cpu_pass_breaks_tied_plans_at_random() -> None:
    rng = Rng(6)
    passed = {suggested_pass(["S1", "H1", "C2", "D2"], rng) for _ in range(200)}
    assert passed == {"S1", "H1", "C2", "D2"}


def test_spec15_timing_table_is_the_rules_texts_and_public() -> None:
    assert TIMING == {
        "easy": {"first_grab": [650, 1050], "follow_up": [550, 1000]},
        "normal": {"first_grab": [590, 990], "follow_up": [490, 940]},
        "hard": {"first_grab": [540, 940], "follow_up": [440, 880]},
    }
    assert GAME.view(fresh(), None)["timing"] == TIMING


def test_spec16_short_match_ends_after_one_penalty() -> None:
    state = fresh(MIXED, length="short")
    events = grab(state, 1)
    assert events[-1] == {"type": "match_over", "places": [1, 4, 1, 1]}
    assert all(GAME.actions(state, s) == [] for s in range(4))


def test_spec16_standard_match_deals_again_until_four_penalties() -> None:
    state = fresh(MIXED)
    for round_no in range(1, 5):
        assert GAME.outcome(state) is None
        state["hands"][0] = ["S1", "S2", "S3", "S4"]
        grab(state, 0)
        if round_no < 4:
            GAME.apply(state, 3, {"type": "next"}, 0)
    assert GAME.outcome(state) is not None and state["penalties"][0] == 4


def test_spec16_a_new_round_starts_only_with_next() -> None:
    state = fresh(MIXED)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "next"}, 0)
    grab(state, 0)
    assert GAME.deadline(state) is None and state["phase"] == "done"
    events = GAME.apply(state, 2, {"type": "next"}, 100)
    assert events == [{"type": "deal", "round": 2}, {"type": "hand_shown"}]
    assert state["phase"] == "passing"


def test_spec17_a_mid_round_dump_reloads_into_the_same_game_and_packs_small() -> None:
    state = fresh(seed=4)
    GAME.apply(state, 1, {"type": "mark", "card": state["hands"][1][0]}, 10)
    data = codec.pack(GAME.dump(state))
    assert len(data) < 1024
    again = GAME.load(codec.unpack(data))
    for seat in [0, 1, 2, 3, None]:
        assert GAME.view(again, seat) == GAME.view(state, seat)
    assert GAME.deadline(again) == GAME.deadline(state)


def test_hidden_a_seat_sees_its_own_hand_and_no_other() -> None:
    view = GAME.view(fresh(MIXED), 1)
    assert view["hand"] == ["D1", "H2", "C2", "D2"]
    assert view["hands"] == [None, view["hand"], None, None]


def test_hidden_other_marks_show_only_that_a_card_is_marked() -> None:
    state = fresh(MIXED)
    GAME.apply(state, 2, {"type": "mark", "card": "S4"}, 0)
    view = GAME.view(state, 0)
    assert view["marked"] == [False, False, True, False]
    assert "S4" not in repr(view)


def test_hidden_a_seat_sees_the_card_it_last_sent_and_received() -> None:
    state = fresh(MIXED)
    mark_all(state, ["S2", "D1", "S4", "D3"])
    view = GAME.view(state, 1)
    assert (view["last_sent"], view["last_received"]) == ("D1", "S2")


def test_hidden_all_hands_are_revealed_when_the_round_ends() -> None:
    state = fresh(MIXED)
    grab(state, 0)
    assert GAME.view(state, None)["hands"] == state["hands"]


def test_hidden_a_spectator_sees_no_hand_during_the_round() -> None:
    view = GAME.view(fresh(MIXED), None)
    assert view["hand"] is None and view["hands"] == [None] * 4


def test_hidden_a_sampled_world_depends_on_the_view_alone() -> None:
    # Issue 47: swapping two hidden hands leaves seat 0's view, so its world must stay.
    state = GAME.new(4, GAME.resolve_options({}), 1)
    swapped = GAME.copy(state)
    swapped["hands"][1], swapped["hands"][2] = state["hands"][2], state["hands"][1]
    assert GAME.view(swapped, 0) == GAME.view(state, 0)
    worlds = [GAME.dump(GAME.shuffle_unseen(s, 0, random.Random(5))) for s in (state, swapped)]
    assert worlds[0] == worlds[1]


def test_hidden_a_refusal_never_names_a_card() -> None:
    state = fresh(MIXED)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "mark", "card": "D4"}, 0)
    assert not any(c in str(refused.value) for c in cards.deck(4))
