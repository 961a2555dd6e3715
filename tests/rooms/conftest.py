"""Room test fixtures: a manager on a virtual clock over a real Redis store."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest

from server.rooms.actor.clock import VirtualClock
from server.rooms.manager import RoomManager
from server.store.redis_store import RedisStore
from tests.rooms.helpers import Env


@contextlib.asynccontextmanager
async def started_env(redis_url: str) -> AsyncIterator[Env]:
    """A started manager ("a") on a virtual clock, saving to the Redis at `redis_url`
    under a fresh prefix."""
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:12]}:")
    await store.start()
    clock = VirtualClock()
    manager = RoomManager(store, clock, instance_id="a")
    await manager.start()
    made = Env(store, clock, manager)
    yield made
    await made.close()
    await store.aclose()


@pytest.fixture
async def env(redis_url: str) -> AsyncIterator[Env]:
    """A started manager ("a") on a virtual clock, saving to Redis under a fresh prefix."""
    async with started_env(redis_url) as made:
        yield made
