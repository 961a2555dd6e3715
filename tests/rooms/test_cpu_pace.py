"""The room's CPU pace: a quick room's CPUs plan the same moves as a relaxed room's, due
sooner in game time, in every game; Usunoro's grab reaction windows (rules, spec item 15)
are the same at either pace; the host sets it in the lobby only; it is saved with the
room, and a room saved before the setting existed plays relaxed."""

from __future__ import annotations

from typing import Any

import pytest

from server.bots.usunoro import POLICY
from server.games import registry
from server.games.usunoro import GAME, TIMING, is_matching
from server.rooms.actor import dumps
from server.rooms.actor.core import RoomCore, RoomSettings
from server.rooms.actor.cpus import QUICK_FLOOR_MS
from server.rooms.errors import RoomError
from server.rooms.seats.seat import Seat
from tests.rooms.helpers import Env

GRAB = {"type": "grab"}


async def started_plans(env: Env, game_id: str, pace: str) -> dict[int, tuple[Any, int | None]]:
    """Each CPU seat's plan (move, due game time) just after the start of a room of
    `game_id` (seed 5, the host at the last seat, CPUs elsewhere) at `pace`."""
    seats = ["cpu"] * (registry.get(game_id).max_seats - 1) + ["host"]
    code, _, token = await env.manager.create_room(
        game_id, {}, seats, "normal", seed=5, cpu_pace=pace
    )
    await env.manager.start_match(code, token)
    await env.manager.settled()
    core = env.manager.live.rooms[code].core
    # Nobody watches, so game time has not run: every plan was made at the same time.
    assert core.now(env.clock.now()) == 0
    return {s: (p.action, p.due) for s, p in core.pending.items() if p.due is not None}


@pytest.mark.parametrize("game_id", sorted(registry.games()))
async def test_a_quick_rooms_cpus_plan_the_same_moves_sooner(env: Env, game_id: str) -> None:
    relaxed = await started_plans(env, game_id, "relaxed")
    quick = await started_plans(env, game_id, "quick")
    assert relaxed, "no CPU has a move at the start: the comparison would say nothing"
    assert quick.keys() == relaxed.keys()
    for seat, (action, due) in relaxed.items():
        assert due is not None
        assert quick[seat][0] == action
        assert quick[seat][1] == min(due, max(QUICK_FLOOR_MS, due // 4)), (seat, due, quick)
        assert quick[seat][1] < due


def matching_deal() -> int:
    """A seed whose first deal gives seat 1 (a CPU) a matching hand and nobody else one."""
    for seed in range(1, 20_000):
        hands = GAME.new(4, GAME.resolve_options({}), seed)["hands"]
        if is_matching(hands[1]) and not any(is_matching(h) for h in hands[2:] + hands[:1]):
            return seed
    raise AssertionError("no such deal")


def usunoro_core(seed: int, pace: str) -> RoomCore:
    """A playing Usunoro core at `pace` (fixed seed: no series key): seat 0 a human host
    ("tok"), seats 1-3 normal CPUs; game time running from wall time 0."""
    settings = RoomSettings("usunoro", GAME.resolve_options({}), seed, 0, cpu_pace=pace)
    seats = [Seat("human", "Hana", "tok")] + [Seat("cpu") for _ in range(3)]
    core = RoomCore(settings, seats, GAME, POLICY)
    core.start("tok", 0.0)
    core.set_running(True, 0.0)
    return core


def test_usunoro_grab_windows_are_kept_and_only_marks_come_sooner() -> None:
    seed = matching_deal()
    relaxed, quick = usunoro_core(seed, "relaxed"), usunoro_core(seed, "quick")
    first_grab, follow_up = TIMING["normal"]["first_grab"], TIMING["normal"]["follow_up"]
    # Seat 1 matches from the deal: its first grab is due at the same time at either
    # pace, inside the rules' window; the other CPUs' marks come sooner in the quick room.
    grab = relaxed.pending[1].due
    assert relaxed.pending[1].action == quick.pending[1].action == GRAB
    assert grab is not None and first_grab[0] <= grab <= first_grab[1]
    assert quick.pending[1].due == grab
    for seat in (2, 3):
        mark, quick_mark = relaxed.pending[seat].due, quick.pending[seat].due
        assert mark is not None and quick_mark is not None and quick_mark < mark
        assert quick.pending[seat].action == relaxed.pending[seat].action
    # The grab fires; the race is on: the others' follow-up grabs are the same at either
    # pace, inside the rules' window from the first grab.
    for core in (relaxed, quick):
        core.fire_due(grab)
        assert core.state["phase"] == "race"
    for seat in (2, 3):
        due = relaxed.pending[seat].due
        assert relaxed.pending[seat].action == quick.pending[seat].action == GRAB
        assert due is not None and follow_up[0] <= due - grab <= follow_up[1]
        assert quick.pending[seat].due == due


async def test_the_host_sets_the_pace_in_the_lobby_and_it_is_saved(env: Env) -> None:
    code, (host_token, friend_token) = await env.usunoro(humans=2)
    friend = await env.join(code, [friend_token])
    assert friend.last["room"]["cpu_pace"] == "relaxed"
    assert (await env.manager.room_summary(code))["cpu_pace"] == "relaxed"
    with pytest.raises(RoomError, match="not_host"):
        await env.manager.set_cpu_pace(code, friend_token, "quick")
    with pytest.raises(RoomError, match="bad_option"):
        await env.manager.set_cpu_pace(code, host_token, "hasty")
    await env.manager.set_cpu_pace(code, host_token, "quick")
    await env.manager.settled()
    assert (await env.manager.room_summary(code))["cpu_pace"] == "quick"
    assert friend.last["room"]["cpu_pace"] == "quick"
    saved = await env.saved(code)
    assert saved["settings"]["cpu_pace"] == "quick"
    await env.manager.start_match(code, host_token)
    with pytest.raises(RoomError, match="already_started"):
        await env.manager.set_cpu_pace(code, host_token, "relaxed")
    with pytest.raises(RoomError, match="bad_option"):
        await env.manager.create_room("usunoro", {}, ["host"] + ["cpu"] * 3, cpu_pace="hasty")
    # A room saved before the setting existed loads relaxed.
    del saved["settings"]["cpu_pace"]
    core = dumps.load(saved, 1, GAME, POLICY)
    assert core.settings.cpu_pace == "relaxed"
    assert core.summary()["cpu_pace"] == "relaxed"
