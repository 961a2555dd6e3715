"""A room whose first match is already over, prepared in a Redis a test server uses.

End-to-end and browser tests of "play again" need a finished match; playing one in real
time takes seconds. Here the room is played to its end on a virtual clock by this
process's own manager, which then gives up the room's lease, so a server process loads it
from Redis when a client asks for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

from server.rooms.actor.clock import VirtualClock
from server.rooms.manager import RoomManager
from server.store.redis_store import RedisStore
from tests.rooms.helpers import Env, Player


@contextlib.asynccontextmanager
async def offline_env(redis_url: str) -> AsyncIterator[Env]:
    """A manager of this process on a virtual clock over that Redis; on leaving it gives
    every room's lease up, so a server process loads them when clients ask."""
    store = RedisStore(redis_url)
    await store.start()
    clock = VirtualClock()
    env = Env(store, clock, RoomManager(store, clock, instance_id=f"offline-{os.getpid()}"))
    try:
        await env.manager.start()
        yield env
    finally:
        await env.close()
        await store.aclose()


async def finished_usunoro_room(
    redis_url: str, humans: int = 2, seed: int = 1
) -> tuple[str, list[str]]:
    """A short Usunoro room with `humans` human seats (0.., the rest CPUs) whose first match
    one grabbing player holding every human seat played out; returns (code, seat tokens)."""
    async with offline_env(redis_url) as env:
        code, tokens = await env.usunoro(humans=humans, seed=seed, options={"length": "short"})
        await env.join(code, tokens, Player(grabs=True))
        await env.manager.start_match(code, tokens[0])
        await env.play_out(code)
    return code, tokens


def finished_usunoro_room_sync(
    redis_url: str, humans: int = 2, seed: int = 1
) -> tuple[str, list[str]]:
    """`finished_usunoro_room` for synchronous tests (Playwright's sync API holds this
    thread's event loop, so the work runs on a thread of its own)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        work = pool.submit(asyncio.run, finished_usunoro_room(redis_url, humans, seed))
        return work.result(timeout=60)
