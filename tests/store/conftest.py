"""Store fixtures: every store test runs against each backend: memory, Redis, Redis
found through Sentinel (durability "replica"), and a Redis Cluster of three shards
(durability "replica": each save waits for its shard's replica)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from server.store.memory_store import MemoryStore
from server.store.redis_store import RedisStore
from server.store.store import IDLE_TTL_MS, Store


class Backend:
    """Makes stores of one kind and lets wall time pass for them."""

    def __init__(self, kind: str, redis_url: str) -> None:
        self.kind = kind
        self.redis_url = redis_url
        self.wall = 1_000_000.0
        self.prefix = f"t{uuid.uuid4().hex[:12]}:"
        self.made: list[Store] = []

    async def make(self, idle_ttl_ms: int = IDLE_TTL_MS) -> Store:
        """A fresh, started store; all stores of one test share their data."""
        store: Store
        if self.kind == "memory":
            if self.made:
                return self.made[0]
            store = MemoryStore(idle_ttl_ms=idle_ttl_ms, wall_ms=lambda: self.wall)
        else:
            store = RedisStore(
                self.redis_url,
                prefix=self.prefix,
                idle_ttl_ms=idle_ttl_ms,
                durability="replica" if self.kind == "cluster" else None,
            )
        await store.start()
        self.made.append(store)
        return store

    async def pass_time(self, ms: float) -> None:
        """Let `ms` of wall time pass (Redis expiry runs on real time)."""
        if self.kind == "memory":
            self.wall += ms
        else:
            await asyncio.sleep(ms / 1000)


@pytest.fixture(params=["memory", "redis", "sentinel", "cluster"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """One backend per run of each test."""
    url = "" if request.param == "memory" else request.getfixturevalue(f"{request.param}_url")
    made = Backend(request.param, url)
    yield made
    for store in made.made:
        await store.aclose()


@pytest.fixture
async def store(backend: Backend) -> Store:
    """A started store with the default idle expiry."""
    return await backend.make()
