"""Helpers for tests of the bus and of what runs over it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import redis.asyncio as aioredis

from server.store.bus import RedisBus


async def until(check: Callable[[], bool]) -> None:
    """Wait for messages in flight (bounded: fails after about five seconds)."""
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the condition never came true")


async def cut_subscriber(bus: RedisBus, redis_url: str) -> None:
    """Have Redis drop the bus's subscriber connection, as a network failure would."""
    transport = bus._subscriber._protocol.transport  # type: ignore[union-attr]
    host, port = transport.get_extra_info("sockname")[:2]
    admin = aioredis.Redis.from_url(redis_url)
    try:
        assert await admin.client_kill(f"{host}:{port}")
    finally:
        await admin.aclose()
