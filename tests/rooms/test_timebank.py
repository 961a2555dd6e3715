"""The seat clock model (server/rooms/seats/timebank.py): allowance, bank, vacation,
the create-room options."""

from __future__ import annotations

import pytest

from server.rooms.seats.timebank import (
    DAY,
    HOUR,
    ClockOptionError,
    ClockRules,
    TimeBanks,
    presets,
    rules_from_options,
)

LIVE = ClockRules("live", 10_000, 60_000)
DAYS = ClockRules("days", DAY, 3 * DAY, 2 * DAY)


def test_the_allowance_goes_first_then_the_bank_and_each_move_gets_a_fresh_allowance() -> None:
    banks = TimeBanks(LIVE, 2)
    banks.start(0, 1000)
    assert banks.running(0) and not banks.running(1)
    assert banks.left(0, 9000) == (2000, 60_000)
    assert banks.left(0, 15_000) == (0, 56_000)
    banks.stop(0, 15_000)
    assert banks.left(0, 99_000) == (0, 56_000)  # stopped: nothing runs
    banks.start(0, 100_000)
    assert banks.left(0, 100_000) == (10_000, 56_000)
    assert banks.runs_out(0) == 100_000 + 10_000 + 56_000


def test_a_seat_whose_time_ran_out_has_the_allowance_alone_from_then_on() -> None:
    banks = TimeBanks(LIVE, 1)
    banks.start(0, 0)
    at = banks.runs_out(0)
    assert at == 70_000
    banks.ran_out(0, at)
    assert not banks.running(0) and banks.runs_out(0) is None
    banks.start(0, at)
    assert banks.runs_out(0) == at + 10_000


def test_a_vacation_freezes_the_clock_and_is_used_up_in_wall_time() -> None:
    banks = TimeBanks(DAYS, 1)
    banks.start(0, 0)
    assert banks.vacation_start(0, 2 * HOUR)
    assert not banks.running(0) and banks.runs_out(0) is None
    assert banks.vacation_ends(0) == 2 * HOUR + 2 * DAY
    assert banks.left(0, DAY) == (DAY - 2 * HOUR, 3 * DAY)
    assert banks.vacation_end(0, 2 * HOUR + DAY)
    assert banks.vacation_left(0, 0) == DAY
    assert banks.left(0, 2 * HOUR + DAY + HOUR) == (DAY - 3 * HOUR, 3 * DAY)
    assert not banks.vacation_end(0, 0)  # not away


def test_no_vacation_in_a_live_room_nor_twice_at_once() -> None:
    assert not TimeBanks(LIVE, 1).vacation_start(0, 0)
    banks = TimeBanks(DAYS, 1)
    assert banks.vacation_start(0, 0) and not banks.vacation_start(0, 1)


def test_banks_survive_a_dump_and_load_exactly() -> None:
    banks = TimeBanks(DAYS, 3)
    banks.start(1, 5.5)
    banks.vacation_start(2, 7)
    again = TimeBanks.load(DAYS, banks.dump())
    assert again.dump() == banks.dump()
    assert again.public(HOUR) == banks.public(HOUR)


def test_the_create_room_options() -> None:
    assert rules_from_options("usunoro", None) is None
    assert rules_from_options("usunoro", "relaxed") is None
    assert rules_from_options("usunoro", "live") == ClockRules("live", 10_000, 60_000)
    assert rules_from_options("shirokuro_jong", "live") == ClockRules("live", 5_000, 20_000)
    assert rules_from_options("usunoro", "days", "2d+7d", 3) == ClockRules(
        "days", 2 * DAY, 7 * DAY, 3 * DAY
    )
    assert rules_from_options("usunoro", "days").vacation_ms == 7 * DAY  # type: ignore[union-attr]
    for bad in (
        ("blitz",),
        ("live", "1d+3d"),
        ("live", None, 2),
        ("days", "10+60"),
        ("days", None, 31),
        ("days", None, True),
        ("relaxed", "10+60"),
        ("live", ["10+60"]),
    ):
        with pytest.raises(ClockOptionError) as caught:
            rules_from_options("usunoro", *bad)
        assert "blitz" not in str(caught.value)  # no client text echoed


def test_presets_name_each_game_default() -> None:
    listed = presets("shirokuro_jong")
    assert listed["default"] == "relaxed" and listed["live"]["default"] == "5+20"
    ids = {p["id"] for p in listed["days"]["presets"]}
    assert listed["days"]["default"] in ids
