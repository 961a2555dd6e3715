"""An idle days room is saved and unloaded like any idle room (its lease given up), once
the due index holds its next wake; the due sweep loads it again in time for a seat whose
time runs out, and the CPU plays for that seat on time. A days room with a client attached
stays loaded.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from server.rooms.live import DAYS_UNLOAD_AFTER_MS
from server.rooms.seats.timebank import HOUR
from server.store.redis_store import RedisStore
from tests.rooms.clocked import DUE_SWEEP_MS, LONG_LEASE_MS, clocked_env, clocked_room, late_moves
from tests.rooms.helpers import Env
from tests.rooms.test_due_rooms import RUNS_OUT_MS, listed


@pytest.fixture(params=["redis", "cluster"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    """A started manager ("a") on a virtual clock, over a real Redis or a Redis Cluster."""
    url = request.getfixturevalue(f"{request.param}_url")
    async with clocked_env(RedisStore(url, prefix=f"t{uuid.uuid4().hex[:12]}:")) as made:
        yield made


async def test_an_idle_days_room_is_unloaded_and_woken_on_time(env: Env) -> None:
    idle, _, player = await clocked_room(env, "days", "12h+1d")
    watched, _, _ = await clocked_room(env, "days", "12h+1d")
    assert player.att is not None
    player.att.detach()
    started_ms = env.clock.now()
    # Housekeeping comes every third of a (long) lease: the room goes at the first one
    # after it was idle for the setting's time.
    await env.run(DAYS_UNLOAD_AFTER_MS + LONG_LEASE_MS / 3 + 1)
    assert env.manager.live_codes() == [watched]  # the one with a client stays
    assert await env.store.lease_holder(idle) is None
    assert await listed(env.store, idle)
    assert late_moves(await env.store.read_log(idle)) == []
    # Its seat 0 runs out RUNS_OUT_MS after the start: a sweep loads it, the CPU plays.
    await env.run(started_ms + RUNS_OUT_MS - 2 * DUE_SWEEP_MS - env.clock.now())
    assert idle not in env.manager.live_codes()
    assert late_moves(await env.store.read_log(idle)) == []
    await env.run(4 * DUE_SWEEP_MS)
    late = late_moves(await env.store.read_log(idle))
    assert len(late) == 1 and late[0]["cpu"] is True
    assert await env.store.lease_holder(idle) == env.manager.instance_id
    # Idle again, it is unloaded again, listed by seat 0's fresh allowance.
    await env.run(HOUR + LONG_LEASE_MS / 3)
    assert idle not in env.manager.live_codes()
    assert await listed(env.store, idle)
