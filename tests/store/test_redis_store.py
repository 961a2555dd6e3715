"""Behaviour only the Redis backend has: script cache loss, connection failures."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from server.store.redis_store import RedisStore
from server.store.store import StoreError


async def test_save_survives_redis_losing_its_script_cache(redis_url: str) -> None:
    store = RedisStore(redis_url, prefix="t-noscript:")
    await store.start()
    await store.delete("R")
    await store.create("R", b"v1")
    admin = aioredis.Redis.from_url(redis_url)
    await admin.script_flush()
    await admin.aclose()
    await store.save("R", 2, b"v2", [{"n": 1}])
    loaded = await store.load("R")
    await store.aclose()
    assert loaded is not None and loaded.version == 2


async def test_unreachable_redis_fails_the_save_and_ping() -> None:
    store = RedisStore("redis://127.0.0.1:1/0", prefix="t-down:")
    assert not await store.ping()
    # The store's own error, whatever the backend: callers need not know Redis.
    with pytest.raises(StoreError):
        await store.save("R", 2, b"x")
    with pytest.raises(StoreError):
        await store.load("R")
    await store.aclose()
