"""Days rooms act on time by themselves (rooms/due.py, actor/due_mark.py): a room whose
seat clock runs out while no process runs it is loaded by a process's due sweep, and the
CPU plays for the seat with nobody connecting; the index forgets rooms that close or are
gone; two processes sweeping at once run the room once.

Kokuto Rum with a human at seat 0 who never moves and a CPU at seat 1, on the days clock
12h+1d (seat 0 runs out 36 h after the match starts), on the memory store, on Redis and
on a Redis Cluster.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.rooms.actor.clock import VirtualClock
from server.rooms.manager import RoomManager
from server.rooms.seats.timebank import HOUR
from server.store.memory_store import MemoryStore
from server.store.redis_store import RedisStore
from server.store.store import Store
from tests.rooms.clocked import (
    DUE_SWEEP_MS,
    EPOCH_S,
    LONG_LEASE_MS,
    clocked_env,
    clocked_manager,
    clocked_room,
    late_moves,
)
from tests.rooms.helpers import Env, Player

RUNS_OUT_MS = 36 * HOUR
SWEEP_MS = DUE_SWEEP_MS  # sweeps ten virtual minutes apart: days pass in few round trips
# A dead process's lease, in real time: 36 virtual hours of sweeps take some 70 ms here,
# and were seen to outlast 300 ms on a loaded machine.
DYING_LEASE_MS = 3_000


@pytest.fixture(params=["memory", "redis", "cluster"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    """A started manager ("a") on a virtual clock whose wall time follows it, over the
    memory store, a real Redis, or a Redis Cluster (the index on one shard, each room on
    its own)."""
    store: Store
    if request.param == "memory":
        store = MemoryStore()
    else:
        url = request.getfixturevalue(f"{request.param}_url")
        store = RedisStore(url, prefix=f"t{uuid.uuid4().hex[:12]}:")
    async with clocked_env(store) as made:
        yield made


class Offers:
    """A notifier that keeps what it is offered ("your move" pushes to be)."""

    def __init__(self) -> None:
        self.offered: list[tuple[str, int, str]] = []

    def offer(self, code: str, seat: int, token_hash: str, facts: dict[str, Any]) -> None:
        self.offered.append((code, seat, facts["kind"]))

    def withdraw(self, code: str, seat: int) -> None:
        pass


def another_process(
    store: Store, clock: VirtualClock, instance_id: str, notifier: Offers | None = None
) -> RoomManager:
    """A process's manager whose sweeps come every SWEEP_MS (on average), its wall time
    following the virtual clock."""
    return clocked_manager(store, clock, instance_id, notifier=notifier)


async def due_at(store: Store, code: str) -> float | None:
    """When the room is due as the index holds it (read where the store keeps it)."""
    if isinstance(store, MemoryStore):
        return store._due.get(code)
    assert isinstance(store, RedisStore)
    return await store._redis.zscore(store.prefix + "due", code)


async def listed(store: Store, code: str) -> bool:
    """Whether the room is in the due index."""
    return await due_at(store, code) is not None


async def left_alone(env: Env) -> tuple[str, str]:
    """A days room whose seat 0 runs out at RUNS_OUT_MS, saved, and then no process
    running it (every process stopped)."""
    code, token, player = await clocked_room(env, "days", "12h+1d")
    assert player.att is not None
    player.att.detach()
    await env.run(10_000)  # the CPU chose its rotation: only seat 0's clock is left
    await env.manager.aclose()
    assert await env.store.lease_holder(code) is None
    return code, token


async def test_a_fresh_process_plays_the_timed_out_move_with_nobody_connecting(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    code, token = await left_alone(env)
    # Listed by when seat 0's clock runs out (Unix ms).
    at = await due_at(env.store, code)
    assert at is not None and abs(at - (EPOCH_S * 1000 + RUNS_OUT_MS)) <= 1000
    offers = Offers()
    fresh = another_process(env.store, env.clock, "b", offers)
    env.managers.append(fresh)
    await fresh.start()
    caplog.set_level(logging.INFO)
    await env.clock.advance(RUNS_OUT_MS - SWEEP_MS * 2, settle=fresh.settled)
    assert fresh.live_codes() == []  # not due yet: not loaded
    assert late_moves(await env.store.read_log(code)) == []
    assert offers.offered == []
    await env.clock.advance(SWEEP_MS * 4, settle=fresh.settled)
    assert fresh.live_codes() == [code]
    assert await env.store.lease_holder(code) == "b"
    late = late_moves(await env.store.read_log(code))
    assert len(late) == 1 and late[0]["cpu"] is True
    woken = [r for r in caplog.records if getattr(r, "event", None) == "woken"]
    assert [r.getMessage() for r in woken] == [f"room {code} woken by the due sweep"]
    assert all(token not in r.getMessage() for r in caplog.records)
    # The CPU played on for seat 1 until seat 0 had a move again: "your move" to its player.
    assert offers.offered[-1] == (code, 0, "move")
    # Running again, the room lists its next time: seat 0's fresh 12 h allowance.
    await fresh.settled()
    at = await due_at(env.store, code)
    assert at is not None and at > EPOCH_S * 1000 + RUNS_OUT_MS


async def test_a_closed_room_leaves_the_index(env: Env) -> None:
    code, token, player = await clocked_room(env, "days", "12h+1d")
    await env.run(0)
    assert await listed(env.store, code)
    assert player.att is not None
    player.att.detach()
    await env.manager.leave_seat(code, token)  # the last human leaves: the room closes
    await env.run(0)
    assert (await env.manager.room_summary(code))["status"] == "closed"
    assert not await listed(env.store, code)


async def test_a_room_gone_from_the_store_leaves_the_index(env: Env) -> None:
    code, _ = await left_alone(env)
    await env.store.delete(code)
    assert not await listed(env.store, code)
    await env.store.set_due(code, 1)  # as if it had expired, its line left behind
    sweeper = another_process(env.store, env.clock, "b")
    env.managers.append(sweeper)
    assert await sweeper.due.sweep() == []
    assert not await listed(env.store, code)


async def test_rooms_without_a_days_clock_are_never_listed(env: Env) -> None:
    code, _, _ = await clocked_room(env, "live", "10+60")
    relaxed, _, token = await env.manager.create_room("kokuto_rum", None, ["host", "cpu"], seed=3)
    await env.join(relaxed, [token], Player(plays=False))
    await env.manager.start_match(relaxed, token)
    await env.run(HOUR)
    assert not await listed(env.store, code)
    assert not await listed(env.store, relaxed)
    # A line left by an expired days room whose code was made afresh goes at its sweep.
    await env.store.set_due(relaxed, 1)
    await env.manager.due.sweep()
    assert not await listed(env.store, relaxed)


async def test_two_processes_sweeping_at_once_run_the_room_once(env: Env) -> None:
    code, _ = await left_alone(env)
    b = another_process(env.store, env.clock, "b")
    c = another_process(env.store, env.clock, "c")
    env.managers += [b, c]  # not started: only the sweeps below run
    await env.clock.advance(RUNS_OUT_MS + 1)
    woken = await asyncio.gather(b.due.sweep(), c.due.sweep())
    assert sorted(woken) == [[], [code]]
    await b.settled()
    await c.settled()
    assert sorted([b.live_codes(), c.live_codes()]) == [[], [code]]
    assert len(late_moves(await env.store.read_log(code))) == 1
    # Again, after the claim's put-off passed: the other process leaves it to its holder.
    runner, other = (b, c) if b.live_codes() else (c, b)
    await env.store.set_due(code, 1)
    assert await other.due.sweep() == []
    assert other.live_codes() == [] and runner.live_codes() == [code]
    assert await env.store.lease_holder(code) == runner.instance_id


async def lease_lapsed(store: Store, code: str) -> None:
    """Wait (real time, as the store counts it) until nobody holds the room's lease."""
    for _ in range(int(DYING_LEASE_MS / 50) * 10):
        if await store.lease_holder(code) is None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the lease of {code} never lapsed")


async def test_a_room_whose_process_died_is_taken_up_once_its_lease_lapses(env: Env) -> None:
    store, clock = env.store, env.clock
    env.manager.due.stop()  # the fixture's process stays out of it
    # Its lease lasts DYING_LEASE_MS of real time (the store counts real time): far more
    # than the virtual days below take to pass on a loaded machine, so the lease still
    # holds at the first sweep, and waited out after.
    wall = env.manager.wall
    dying = RoomManager(
        store, clock, instance_id="dying", lease_ms=DYING_LEASE_MS, wall=wall, due_sweep_ms=SWEEP_MS
    )
    await dying.start()
    env.manager = dying
    code, _, player = await clocked_room(env, "days", "12h+1d")
    assert player.att is not None
    player.att.detach()
    await env.run(10_000)
    # The process dies: nothing more runs there, nothing is given up.
    dying.due.stop()
    dying.live.closed = True
    for room in dying.live.rooms.values():
        room.halt()
    dying.live.rooms.clear()
    assert await store.lease_holder(code) == "dying"
    fresh = another_process(store, clock, "b")
    env.managers.append(fresh)
    await fresh.start()
    await clock.advance(RUNS_OUT_MS, settle=fresh.settled)
    # Due, but held by a lease that has not lapsed yet: put off, not run twice.
    assert await store.lease_holder(code) == "dying"
    assert await fresh.due.sweep() == [] and fresh.live_codes() == []
    await lease_lapsed(store, code)
    await clock.advance(LONG_LEASE_MS + SWEEP_MS * 2, settle=fresh.settled)
    assert fresh.live_codes() == [code]
    assert len(late_moves(await store.read_log(code))) == 1
