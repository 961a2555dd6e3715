"""Usunoro rulings U1-U14 (RULINGS.md section 1) where the engine is concerned.

The CPU side of U3 and the uniform delays of U10 are in tests/bots/test_usunoro_bot.py.
"""

from __future__ import annotations

import random

import pytest

from server.games import cards
from server.games.contract import IllegalAction
from server.games.usunoro import GAME

MIXED = [
    ["S1", "H1", "C1", "S2"],
    ["D1", "H2", "C2", "D2"],
    ["S3", "H3", "C3", "S4"],
    ["D3", "H4", "C4", "D4"],
]
NO_TIMERS = {"mark_timeout_ms": 0, "idle_void_ms": 0}


def fresh(hands: list[list[str]] | None = None, seed: int = 1, **options: object) -> dict:
    """A new match, optionally with the given hands dealt instead."""
    state = GAME.new(4, GAME.resolve_options(options), seed)
    if hands is not None:
        state["hands"] = [sorted(h, key=cards.sort_key) for h in hands]
    return state


def mark(state: dict, seat: int, card: str, now: int = 0) -> list[dict]:
    return GAME.apply(state, seat, {"type": "mark", "card": card}, now)


def grab(state: dict, seat: int, now: int = 0) -> list[dict]:
    return GAME.apply(state, seat, {"type": "grab"}, now)


def test_u1_reversed_direction_passes_to_the_previous_seat() -> None:
    state = fresh(MIXED, direction="previous")
    for seat, card in enumerate(["S2", "D1", "S4", "D3"]):
        mark(state, seat, card)
    assert "D1" in state["hands"][0] and "S2" in state["hands"][3]
    assert GAME.view(state, 0)["direction"] == "previous"


def test_u1_direction_defaults_to_the_next_seat() -> None:
    assert GAME.resolve_options({})["direction"] == "next"


def test_u2_marking_timeout_marks_unmarked_seats_by_the_cpu_rule() -> None:
    state = fresh(MIXED, mark_timeout_ms=5000, idle_void_ms=0)
    mark(state, 0, "S1", now=100)
    assert GAME.deadline(state) == 5000
    events = GAME.expire(state, 5000)
    assert events[0] == {"type": "auto_marked", "seats": [1, 2, 3]}
    # Seat 0 kept its own choice; seat 1 (three 2s) gave D1, seat 3 (three 4s) gave D3.
    assert state["sent"][0] == "S1"
    assert (state["sent"][1], state["sent"][3]) == ("D1", "D3")
    assert state["exchanges"] == 1 and GAME.deadline(state) == 10000


def test_u2_marking_timeout_of_zero_is_off() -> None:
    state = fresh(MIXED, **NO_TIMERS)
    assert GAME.deadline(state) is None
    assert GAME.expire(state, 10**9) == []


def test_u3_a_human_with_a_matching_hand_may_still_mark() -> None:
    hands = [list(h) for h in MIXED]
    hands[0], hands[1] = ["S1", "H1", "C1", "D1"], ["S2", "H2", "C2", "D2"]
    state = fresh(hands)
    assert {"type": "mark", "card": "S1"} in GAME.actions(state, 0)
    for seat, card in enumerate(["S1", "D2", "S4", "D3"]):
        mark(state, seat, card)
    assert state["hands"][0] == ["H1", "C1", "D1", "D3"]


def test_u4_grab_checks_hand_after_committed_exchange() -> None:
    hands = [
        ["S1", "H1", "C1", "S2"],
        ["S4", "H2", "C2", "D2"],
        ["S3", "H3", "C3", "D3"],
        ["D1", "H4", "C4", "D4"],
    ]
    state = fresh(hands)
    # Seat 2 matched before the exchange but gives S3 away; seat 0 completes its aces.
    for seat, card in enumerate(["S2", "S4", "S3", "D1"]):
        mark(state, seat, card)
    assert state["hands"][0] == ["S1", "H1", "C1", "D1"]
    assert grab(state, 2)[0] == {"type": "early_grab", "seat": 2}


def test_u4_a_grab_after_the_exchange_completes_a_hand_is_legal() -> None:
    state = fresh(MIXED)
    for seat, card in enumerate(["S2", "D1", "S4", "D3"]):
        mark(state, seat, card)
    assert state["hands"][3] == ["S4", "H4", "C4", "D4"]
    assert grab(state, 3) == [{"type": "first_grab", "seat": 3}]


def test_u5_an_early_grab_handled_first_ends_the_round_before_a_legal_one() -> None:
    hands = [list(h) for h in MIXED]
    hands[3] = ["S4", "H4", "C4", "D4"]
    state = fresh(hands)
    grab(state, 0)
    with pytest.raises(IllegalAction):
        grab(state, 3)
    assert state["penalties"] == [1, 0, 0, 0]


def test_u5_after_a_legal_first_grab_every_later_grab_is_a_follow_up() -> None:
    hands = [list(h) for h in MIXED]
    hands[3] = ["S4", "H4", "C4", "D4"]
    state = fresh(hands)
    grab(state, 3)
    assert grab(state, 0) == [{"type": "grab", "seat": 0}]
    assert state["penalties"] == [0, 0, 0, 0]


def test_u6_the_void_timer_starts_at_the_legal_first_grab() -> None:
    state = fresh([["S1", "H1", "C1", "D1"], *MIXED[1:]], **NO_TIMERS)
    assert GAME.deadline(state) is None
    grab(state, 0, now=42_000)
    assert GAME.deadline(state) == 50_000


def test_u7_an_idle_passing_round_is_void_without_penalty() -> None:
    state = fresh(MIXED, mark_timeout_ms=0, idle_void_ms=60_000)
    mark(state, 1, "D1", now=1000)
    assert GAME.deadline(state) == 61_000
    assert GAME.expire(state, 61_000) == [{"type": "void", "reason": "idle"}]
    assert state["penalties"] == [0, 0, 0, 0]
    assert GAME.actions(state, 0) == [{"type": "next"}]


def test_u8_matching_hands_from_the_deal_first_grab_handled_is_the_legal_one() -> None:
    state = fresh([["S1", "H1", "C1", "D1"], ["S2", "H2", "C2", "D2"], *MIXED[2:]])
    assert grab(state, 1) == [{"type": "first_grab", "seat": 1}]
    assert grab(state, 0) == [{"type": "grab", "seat": 0}]


def test_u9_loser_is_last_others_by_fewest_penalties_ties_shared() -> None:
    state = fresh(MIXED)
    state["penalties"] = [2, 4, 0, 2]
    result = GAME.outcome(state)
    assert result is not None
    assert result["places"] == [2, 4, 1, 2] and result["loser"] == 1


def test_u9_no_outcome_before_a_seat_reaches_the_limit() -> None:
    state = fresh(MIXED)
    state["penalties"] = [3, 3, 3, 3]
    assert GAME.outcome(state) is None


def test_u10_the_tie_order_is_kept_in_the_state_and_shown_to_every_seat() -> None:
    state = fresh(seed=11)
    order = state["tie_order"]
    assert [GAME.view(state, s)["tie_order"] for s in [0, 1, 2, 3, None]] == [order] * 5
    assert GAME.tie_order(GAME.load(GAME.dump(state))) == order


def test_u11_rule_timers_run_on_game_time_only() -> None:
    state = fresh([["S1", "H1", "C1", "D1"], *MIXED[1:]], **NO_TIMERS)
    grab(state, 0, now=1000)
    # The room paused for a long real-time while; game time advanced only to 8999.
    assert GAME.expire(state, 8999) == []
    assert grab(state, 1, now=8999) == [{"type": "grab", "seat": 1}]
    assert GAME.deadline(state) == 9000


def test_u11_the_marking_clock_restarts_with_each_new_hand() -> None:
    state = fresh(MIXED, mark_timeout_ms=30_000, idle_void_ms=0)
    for seat, card in enumerate(["S2", "D1", "S4", "D3"]):
        mark(state, seat, card, now=7000)
    assert GAME.deadline(state) == 37_000


def test_u12_open_hands_are_public_and_other_hands_stay_hidden() -> None:
    state = fresh(MIXED, open_hands=[0, 1])
    mark(state, 0, "S2")
    for seat in [2, 3, None]:
        view = GAME.view(state, seat)
        assert view["hands"][0] == MIXED[0]
        assert view["hands"][1] == sorted(MIXED[1], key=cards.sort_key)
    assert GAME.view(state, 2)["hands"][3] is None
    assert GAME.view(state, 0)["hands"][2] is None


def test_u14_an_open_hands_mark_is_seen_by_its_own_seat_alone() -> None:
    state = fresh(MIXED, open_hands=[0, 1])
    move = {"type": "mark", "card": "S2"}
    events = GAME.apply(state, 0, move, 0)
    own = GAME.view(state, 0)
    assert own["mark"] == own["marks"][0] == "S2"
    others = [1, 2, 3, None]  # the other open (human) seat, the CPUs, a spectator
    patches = GAME.view_patches(state, others, [(0, move)], events)
    assert patches is not None
    for seat in others:
        for view in (GAME.view(state, seat), GAME.views(state, others)[seat], patches[seat]):
            assert view["marks"][0] is None, f"seat {seat} sees seat 0's mark"
        assert GAME.view(state, seat)["marked"][0] and GAME.view(state, seat)["hands"][0]


def test_u14_a_world_sampled_for_the_other_open_seat_redraws_the_mark() -> None:
    state = fresh(MIXED, open_hands=[0, 1])
    mark(state, 0, "S2")
    worlds = [GAME.shuffle_unseen(state, 1, random.Random(n)) for n in range(20)]
    assert all(w["hands"][0] == state["hands"][0] for w in worlds)
    assert {w["marks"][0] for w in worlds} == set(state["hands"][0])


def test_u12_open_hands_must_name_distinct_seats() -> None:
    for bad in ([0, 0], [4], ["0"], 1):
        with pytest.raises(IllegalAction):
            GAME.resolve_options({"open_hands": bad})


def test_u13_automatic_marks_do_not_hold_off_the_idle_void() -> None:
    # Seats 1-3 are CPUs; the default marking timeout auto-marks the idle human seat 0.
    state = GAME.new(4, GAME.resolve_options({}), 3, cpu_seats=[1, 2, 3])
    idle_ms = state["options"]["idle_void_ms"]
    now, events = 0, []
    while state["phase"] == "passing":
        for seat in (1, 2, 3):
            if state["marks"][seat] is None:
                card = next(a for a in GAME.actions(state, seat) if a["type"] == "mark")
                events += GAME.apply(state, seat, card, now + 400)
        due = GAME.deadline(state)
        assert due is not None
        now = due
        events += GAME.expire(state, now)
    assert {"type": "void", "reason": "idle"} in events
    assert now == idle_ms and state["exchanges"] < 10


def test_u13_a_human_mark_restarts_the_idle_void() -> None:
    state = GAME.new(4, GAME.resolve_options({"mark_timeout_ms": 0}), 3, cpu_seats=[1, 2, 3])
    card = next(a for a in GAME.actions(state, 0) if a["type"] == "mark")
    GAME.apply(state, 0, card, 5000)
    assert GAME.deadline(state) == 5000 + state["options"]["idle_void_ms"]
    assert GAME.view(state, 0)["idle_deadline"] == 5000 + state["options"]["idle_void_ms"]


def test_u13_the_marking_timeout_is_in_every_view_as_a_game_time_deadline() -> None:
    state = fresh(MIXED, mark_timeout_ms=30_000, idle_void_ms=0)
    assert [GAME.view(state, s)["mark_deadline"] for s in (0, 1, None)] == [30_000] * 3
    for seat, card in enumerate(["S2", "D1", "S4", "D3"]):
        mark(state, seat, card, now=7000)
    assert GAME.view(state, 2)["mark_deadline"] == 37_000
    grab(state, 0, now=8000)  # an early grab ends the round: no timer runs
    assert GAME.view(state, 2)["mark_deadline"] is None


def test_u13_open_hands_refuses_cpu_seats() -> None:
    options = GAME.resolve_options({"open_hands": [0, 2]})
    with pytest.raises(IllegalAction) as refused:
        GAME.new(4, options, 1, cpu_seats=[1, 2, 3])
    assert refused.value.code == "bad_option"
    with pytest.raises(IllegalAction):
        GAME.check_options(options, 4, [2])
    GAME.new(4, GAME.resolve_options({"open_hands": [0, 1]}), 1, cpu_seats=[2, 3])
