"""Behaviour only the Redis backend has: script cache loss, connection failures."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from server.store import codec
from server.store.group_commit import redis_key
from server.store.redis_store import RedisStore
from server.store.store import RoomExists, StoreError


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


async def test_closing_waits_for_the_saves_in_flight(redis_url: str) -> None:
    store = RedisStore(redis_url, prefix="t-close:")
    await store.start()
    await store.delete("R")
    await store.create("R", b"v1")
    pending = asyncio.ensure_future(store.save("R", 2, b"v2", [{"n": 1}]))
    await asyncio.sleep(0)  # the save is queued; its batch is not answered yet
    await asyncio.wait_for(store.aclose(), 5)
    assert pending.done() and pending.exception() is None
    reader = RedisStore(redis_url, prefix="t-close:")
    loaded = await reader.load("R")
    await reader.aclose()
    assert loaded is not None and (loaded.version, loaded.blob) == (2, b"v2")


async def test_saves_made_while_a_batch_is_in_flight_go_in_the_next(redis_url: str) -> None:
    # Group commit keeps one batch in flight: a room's next save, made before the
    # first one is answered, must wait for it and then land on its own version.
    store = RedisStore(redis_url, prefix="t-chain:")
    await store.start()
    await store.delete("R")
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2")  # the save connection is open from here on
    first = asyncio.ensure_future(store.save("R", 3, b"v3"))
    await asyncio.sleep(0)  # the first batch is on its way
    second = asyncio.ensure_future(store.save("R", 4, b"v4"))
    # A lost batch, or a flusher that never rests, fails here instead of hanging.
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    await asyncio.wait_for(store.aclose(), 5)
    reader = RedisStore(redis_url, prefix="t-chain:")
    loaded = await reader.load("R")
    await reader.aclose()
    assert loaded is not None and (loaded.version, loaded.blob) == (4, b"v4")


# The save script of releases before deltas, which read and write the version as "v".
SAVE_BEFORE_DELTAS = """
if tonumber(redis.call('HGET', KEYS[1], 'v')) ~= tonumber(ARGV[1]) - 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'b', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
for i = 4, #ARGV do redis.call('XADD', KEYS[2], '*', 'e', ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""


async def test_rooms_of_both_formats_load_and_an_older_release_cannot_misread_one(
    redis_url: str,
) -> None:
    store = RedisStore(redis_url, prefix="t-format:")
    await store.start()
    await store.delete("R")
    admin = aioredis.Redis.from_url(redis_url)
    key, log_key = "t-format:room:R", "t-format:log:R"
    # A room last saved by a release before deltas (and before hash tags) loads, and its
    # next save converts it.
    await admin.hset(key, mapping={"v": 3, "b": b"old"})
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob) == (3, b"old")
    key, log_key = redis_key("t-format:", "room", "R"), redis_key("t-format:", "log", "R")
    await store.save("R", 4, b"new")
    await store.save("R", 5, b"d5", delta=True)
    assert sorted(await admin.hkeys(key)) == [b"b", b"d5", b"ver"]
    # That release, during a rolling upgrade, reads "v" and "b": it finds no room (rather
    # than blob "new" without the delta), and its save is refused as stale.
    assert await admin.hmget(key, ["v", "b"]) == [None, b"new"]
    older_save = admin.register_script(SAVE_BEFORE_DELTAS)
    assert await older_save(keys=[key, log_key], args=[6, b"older", 60_000]) == 0
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob, loaded.deltas) == (
        5,
        b"new",
        (b"d5",),
    )
    await admin.aclose()
    await store.delete("R")
    await store.aclose()


async def test_a_room_saved_under_the_old_key_names_plays_on_after_the_upgrade(
    redis_url: str,
) -> None:
    store = RedisStore(redis_url, prefix="t-names:")
    await store.start()
    await store.delete("R")
    admin = aioredis.Redis.from_url(redis_url)
    # What the release before hash tags left: room, log and chat under plain names.
    await admin.hset("t-names:room:R", mapping={"ver": 4, "b": b"full", "d4": b"delta"})
    await admin.pexpire("t-names:room:R", 60_000)
    await admin.xadd("t-names:log:R", {"e": codec.pack({"n": 1})})
    await admin.rpush("t-names:chat:R", codec.pack({"said": "hi"}))
    # Its code is taken: a new room cannot be made over it.
    with pytest.raises(RoomExists):
        await store.create("R", b"other")
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob, loaded.deltas) == (
        4,
        b"full",
        (b"delta",),
    )
    assert await store.read_log("R") == [{"n": 1}]
    assert await store.chat("R") == [{"said": "hi"}]
    assert 0 < (await store.expires_in_ms("R") or 0) <= 60_000  # its expiry kept
    await store.save("R", 5, b"d5", [{"n": 2}], delta=True)
    assert await admin.exists("t-names:room:R", "t-names:log:R", "t-names:chat:R") == 0
    # A room saved under the new names is never overwritten by an old one.
    await admin.hset("t-names:room:R", mapping={"ver": 1, "b": b"stale"})
    loaded = await store.load("R")
    assert loaded is not None and loaded.version == 5
    await store.delete("R")
    assert await admin.exists("t-names:room:R") == 0
    await admin.aclose()
    await store.aclose()
