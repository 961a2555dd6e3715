"""Seat clocks in rooms (issue 44): live and days banks run out, the CPU makes that one
move, the seat stays its player's; vacations; banks kept across a restart from Redis.

Kokuto Rum with a human at seat 0 and a CPU at seat 1: the deal opens with both seats
choosing their rotation at once (a simultaneous phase), then turns.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.rooms.actor.clock import VirtualClock
from server.rooms.seats.timebank import (
    DAY,
    DAYS_ROOM_TTL_MS,
    HOUR,
    ClockRules,
    TimeBanks,
)
from server.store.redis_store import RedisStore
from tests.rooms.clocked import DUE_SWEEP_MS, clocked_env, clocked_manager, clocked_room, late_moves
from tests.rooms.helpers import Env, Player


@pytest.fixture
async def env(redis_url: str) -> AsyncIterator[Env]:
    """A started manager on a virtual clock whose wall time follows it, over Redis."""
    async with clocked_env(RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:12]}:")) as made:
        yield made


def seat_clock(player: Player, seat: int = 0) -> dict[str, Any]:
    """The seat's clock as the player's latest view shows it."""
    return player.last["room"]["clock"]["seats"][seat]


def left_now(env: Env, code: str, seat: int = 0) -> tuple[float, float]:
    """(allowance, bank) the seat has left now, from the live room's state."""
    dump = env.manager.inspect(code)
    assert dump is not None and dump["banks"] is not None
    rules = ClockRules.load(dump["settings"]["clock"])
    assert rules is not None
    t = env.manager.wall() * 1000.0 if rules.wall else dump["game_ms"]
    return TimeBanks.load(rules, dump["banks"]).left(seat, t)


async def run_out_and_take_back(env: Env, code: str, player: Player, total_ms: int) -> None:
    """Run seat 0's allowance and bank out; check the CPU made exactly that one move, the
    seat is still the player's, and the player's next move counts."""
    await env.run(total_ms - 1)
    assert late_moves(await env.store.read_log(code)) == []
    assert left_now(env, code) == (0.0, 1.0)
    await env.run(2)
    log = await env.store.read_log(code)
    assert len(late_moves(log)) == 1
    assert late_moves(log)[0]["cpu"] is True
    events = [e for m in player.messages if m["t"] == "view" for e in m["events"]]
    assert {"type": "time_out", "seat": 0} in events
    seats = player.last["seats"]
    assert seats[0]["kind"] == "human" and not seats[0]["covered"]
    assert seat_clock(player)["bank_ms"] == 0
    # The CPU at seat 1 plays on until seat 0 has a move again; the player makes it.
    for _ in range(200):
        if player.last.get("legal", {}).get(0):
            break
        await env.run(100)
    legal = player.last["legal"][0]
    assert legal and seat_clock(player)["running"]
    result = await player.move(0, legal[0])
    assert result["ok"]
    log = await env.store.read_log(code)
    assert log[-1]["s"] == 0 and not log[-1].get("cpu")
    assert len(late_moves(log)) == 1


async def test_a_live_bank_runs_out_and_the_cpu_makes_that_one_move(env: Env) -> None:
    code, _, player = await clocked_room(env, "live", "10+60")
    clock = player.last["room"]["clock"]
    assert (clock["mode"], clock["move_ms"], clock["bank_ms"]) == ("live", 10_000, 60_000)
    await run_out_and_take_back(env, code, player, 70_000)


async def test_a_days_bank_runs_out_with_nobody_at_the_table(env: Env) -> None:
    code, token, player = await clocked_room(env, "days", "12h+1d")
    assert seat_clock(player)["running"]
    assert player.att is not None
    player.att.detach()
    await env.run(36 * HOUR - 1)
    assert late_moves(await env.store.read_log(code)) == []
    # Unloaded while idle, the room is loaded again by the next due sweep, which plays
    # for the absent seat.
    await env.run(2 * DUE_SWEEP_MS)
    assert len(late_moves(await env.store.read_log(code))) == 1
    back = await env.join(code, [token], Player(plays=False))
    await env.run(0)
    assert back.last["seats"][0]["kind"] == "human"
    await run_out_check_next_move(env, code, back)


async def run_out_check_next_move(env: Env, code: str, player: Player) -> None:
    """After a time-out: the player's next move is theirs, not the CPU's."""
    for _ in range(200):
        if player.last.get("legal", {}).get(0):
            break
        await env.run(100)
    legal = player.last["legal"][0]
    await player.move(0, legal[0])
    log = await env.store.read_log(code)
    assert log[-1]["s"] == 0 and not log[-1].get("cpu") and len(late_moves(log)) == 1


async def test_a_vacation_stops_the_clock_until_it_is_used_up(env: Env) -> None:
    code, _, player = await clocked_room(env, "days", "12h+1d", vacation_days=2)
    assert player.att is not None
    await env.run(HOUR)
    await player.att.vacation(0, True)
    await env.run(0)
    frozen = seat_clock(player)
    assert frozen["vacation"] and not frozen["running"]
    assert frozen["move_ms"] == 11 * HOUR
    await env.run(DAY)
    assert left_now(env, code) == (11 * HOUR, DAY)  # nothing spent on vacation
    await player.att.vacation(0, False)
    await env.run(0)
    back = seat_clock(player)
    assert back["running"] and back["vacation_ms"] == DAY
    # A second vacation ends by itself when the match's allowance is used up.
    await player.att.vacation(0, True)
    await env.run(DAY + 1)
    after = seat_clock(player)
    assert not after["vacation"] and after["vacation_ms"] == 0 and after["running"]
    assert left_now(env, code) == (11 * HOUR - 1, DAY)
    with pytest.raises(Exception, match="no_vacation"):
        await player.att.vacation(0, True)
    assert late_moves(await env.store.read_log(code)) == []


async def test_a_live_room_has_no_vacation(env: Env) -> None:
    _, _, player = await clocked_room(env, "live", "5+20")
    assert player.att is not None
    with pytest.raises(Exception, match="no_vacation"):
        await player.att.vacation(0, True)


@pytest.mark.parametrize("mode, preset", [("live", "10+60"), ("days", "12h+1d")])
async def test_a_restart_from_redis_keeps_every_bank_to_the_second(
    env: Env, mode: str, preset: str
) -> None:
    code, token, player = await clocked_room(env, mode, preset)
    spent = 23_456 if mode == "live" else 13 * HOUR + 7_000
    await env.run(spent)
    before = left_now(env, code)
    assert player.att is not None
    player.att.detach()
    await env.run(0)
    await env.manager.aclose()
    # Another process takes the room from the store, its own clock far from the first's;
    # a days clock counts the wall time the restart took, a live one does not.
    gone_ms = 5 * 60_000
    first_wall = env.manager.wall()
    clock = VirtualClock(start_ms=9_000_000.0)
    env.clock = clock
    offset = first_wall + gone_ms / 1000.0 - clock.now() / 1000.0
    env.manager = clocked_manager(env.store, clock, "b", lambda: offset + clock.now() / 1000.0)
    env.managers.append(env.manager)
    await env.manager.start()
    again = await env.join(code, [token], Player(plays=False))
    await env.run(0)
    after = left_now(env, code)
    if mode == "live":
        assert after == before
    else:
        assert before[0] == 0 and after == (0, before[1] - gone_ms)  # the bank runs
    assert seat_clock(again)["running"] or mode == "live"


async def test_a_days_room_is_kept_longer_than_others(env: Env) -> None:
    days, _, _ = await clocked_room(env, "days", "1d+3d")
    live, _, _ = await clocked_room(env, "live", "10+60")
    await env.run(1)
    kept = await env.store.expires_in_ms(days)
    assert kept is not None and kept > DAYS_ROOM_TTL_MS - 60_000
    usual = await env.store.expires_in_ms(live)
    assert usual is not None and usual <= env.store.idle_ttl_ms < DAYS_ROOM_TTL_MS
