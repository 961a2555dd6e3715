"""A Redis outage, played for real: Redis is stopped and started again by the test.

While the store is down nothing is acknowledged or shown unsaved; once it is back, rooms
go on by themselves (nobody has to send a frame to wake them).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.rooms.actor.clock import VirtualClock
from server.rooms.errors import RoomError
from server.rooms.manager import Attached, RoomManager
from server.store.redis_store import RedisStore
from tests.conftest import RedisProcess


@pytest.fixture
async def outage_manager(own_redis: RedisProcess) -> AsyncIterator[RoomManager]:
    store = RedisStore(own_redis.url, prefix=f"t{uuid.uuid4().hex[:12]}:")
    await store.start()
    manager = RoomManager(store, VirtualClock(), instance_id="a")
    await manager.start()
    yield manager
    await manager.aclose()
    await store.aclose()


async def advance(manager: RoomManager, ms: float) -> None:
    """Let `ms` of virtual time pass; a save that never returns fails the test."""
    clock = manager.clock
    assert isinstance(clock, VirtualClock)
    await asyncio.wait_for(clock.advance(ms, settle=manager.settled), 30)


async def junocos_started(
    manager: RoomManager,
) -> tuple[str, int, Attached, list[dict[str, Any]]]:
    """A Junocos match of the host and three CPUs, started, with the host's board shown:
    (code, host seat, its attachment, the views it was sent)."""
    code, host, token = await manager.create_room("junocos", {}, ["host", "cpu", "cpu", "cpu"])
    views: list[dict[str, Any]] = []
    att = await manager.attach(code, [token], views.append)
    att.shown()
    await manager.start_match(code, token)
    return code, host, att, views


async def test_a_room_waiting_on_a_cpu_moves_again_after_a_store_outage(
    own_redis: RedisProcess, outage_manager: RoomManager
) -> None:
    manager = outage_manager
    code, host, att, views = await junocos_started(manager)
    seq = 0
    # Play the host's turns until a CPU is the one to move.
    for _ in range(200):
        await advance(manager, 50)
        last = views[-1]
        att.shown(last["version"])
        legal = last["legal"].get(host, [])
        if last["room"]["status"] == "playing" and not legal and last["room"]["running"]:
            break
        if legal:
            seq += 1
            await att.move(host, seq, legal[0])
    else:
        pytest.fail("no CPU turn came")
    before = views[-1]["version"]
    own_redis.stop()
    await advance(manager, 6000)  # the CPU's move is made, and its save fails
    assert views[-1]["version"] == before  # nothing unsaved was shown
    own_redis.start()
    await advance(manager, 30_000)  # no client sends anything
    assert views[-1]["version"] > before
    stored = await manager.store.load(code)
    assert stored is not None and stored.version == views[-1]["version"]


async def test_a_move_during_an_outage_is_refused_with_store_error_and_no_detail(
    own_redis: RedisProcess, outage_manager: RoomManager
) -> None:
    manager = outage_manager
    code, host, token = await manager.create_room("junocos", {}, ["host", "cpu", "cpu", "cpu"])
    views: list[dict[str, Any]] = []
    att = await manager.attach(code, [token], views.append)
    own_redis.stop()
    with pytest.raises(RoomError) as refused:
        await manager.start_match(code, token)
    assert refused.value.code == "store_error"
    assert "Redis" not in refused.value.message and "Errno" not in refused.value.message
    own_redis.start()
    await manager.start_match(code, token)
    await advance(manager, 100)
    assert views[-1]["room"]["status"] == "playing"
    att.detach()


async def test_moves_saved_together_all_fail_with_the_save_and_a_refusal_keeps_its_reason(
    own_redis: RedisProcess, outage_manager: RoomManager
) -> None:
    manager = outage_manager
    code, host, att, views = await junocos_started(manager)
    for _ in range(200):  # until it is the host's turn
        await advance(manager, 50)
        att.shown(views[-1]["version"])
        if views[-1]["legal"].get(host):
            break
    else:
        pytest.fail("the host's turn never came")
    before = views[-1]
    own_redis.stop()
    legal, illegal = before["legal"][host][0], {"type": "pick", "card": "nothing"}
    answers = await asyncio.gather(
        att.move(host, 1, legal), att.move(host, 2, illegal), return_exceptions=True
    )
    assert [getattr(a, "code", a) for a in answers] == ["store_error", "illegal_action"]
    assert views[-1]["version"] == before["version"]  # nothing unsaved was shown
    own_redis.start()
    stored = await manager.store.load(code)
    assert stored is not None and stored.version == before["version"]
    att.detach()
