"""The Redis store (redis-py asyncio), with group commit.

Keys, under a prefix (default "zk:"): `room:{code}` a hash {v: version, b: blob};
`log:{code}` a stream of packed log entries; `lease:{code}` the owner's id with a TTL;
`public` a hash code -> packed summary; `chat:{code}` a list of the room's last packed
chat messages. Room and log expire `idle_ttl_ms` after the last save, the chat as long
after its last message.

A save is one Lua script (compare-and-set of the version, then the blob, the XADDs and
the expiry), so it is atomic on its own. Saves from all rooms that changed in one
event-loop iteration are sent together in one pipelined round trip (group commit; in
MULTI/EXEC when there are several) over a dedicated lean connection (resp.py), with one
batch in flight at a time; each caller still awaits its own result. The per-round-trip
client cost dominates a save, so one batch for many rooms, and a cheap round trip, are
the main levers on throughput. Everything else goes through redis-py.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from server.store import codec
from server.store.resp import Command, RespConnection
from server.store.store import (
    IDLE_TTL_MS,
    RoomExists,
    StaleVersion,
    Store,
    StoredRoom,
    StoreError,
)

_SAVE = """
if tonumber(redis.call('HGET', KEYS[1], 'v')) ~= tonumber(ARGV[1]) - 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'b', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
for i = 4, #ARGV do redis.call('XADD', KEYS[2], '*', 'e', ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'v', 1, 'b', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
_ACQUIRE = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  else table.insert(lost, i) end
end
return lost
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""

_Pending = tuple[str, int, bytes, list[bytes], "asyncio.Future[None]"]
_P = ParamSpec("_P")
_R = TypeVar("_R")


def _outage_is_store_error(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R]]:
    """Turn Redis being unreachable (or failing) into StoreError, the store's own error."""

    @functools.wraps(method)
    async def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await method(*args, **kwargs)
        except (RedisError, OSError) as exc:
            raise StoreError(f"Redis: {exc}") from exc

    return run


def _fail(batch: list[_Pending], exc: Exception) -> None:
    """Every save of `batch` fails with the store's own error."""
    if isinstance(exc, RedisError | OSError | hiredis.ReplyError):
        exc = StoreError(f"Redis: {exc}")
    for *_, future in batch:
        if not future.done():
            future.set_exception(exc)


def _settle(batch: list[_Pending], results: list[Any]) -> None:
    """Each save's answer: done, refused by its version (StaleVersion), or failed."""
    for (code, *_, future), result in zip(batch, results, strict=True):
        if future.done():
            continue
        if isinstance(result, Exception):
            future.set_exception(StoreError(f"Redis: {result}"))
        elif result != 1:
            future.set_exception(StaleVersion(code))
        else:
            future.set_result(None)


def _results(replies: list[Any], wrapped: bool) -> list[Any]:
    """The save scripts' replies in one batch's replies (EXEC's list when wrapped); raises
    the error EXEC answered instead (e.g. a command was malformed)."""
    results = replies[-1] if wrapped else replies
    if isinstance(results, Exception):
        raise results
    return results


def _no_script(reply: Any) -> bool:
    """True for Redis's answer to an EVALSHA of a script it does not have cached."""
    return isinstance(reply, Exception) and str(reply).startswith("NOSCRIPT")


class RedisStore(Store):
    """Rooms in Redis. `url` like redis://127.0.0.1:6379/0; `prefix` separates tenants/tests.

    `max_connections` bounds a BlockingConnectionPool (callers wait for a connection
    rather than fail). `transaction=False` sends batches of several saves as a plain
    pipeline (each script is atomic anyway) instead of MULTI/EXEC; a batch of one save
    is always sent bare.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "zk:",
        idle_ttl_ms: int = IDLE_TTL_MS,
        max_connections: int = 16,
        transaction: bool = True,
    ) -> None:
        # After a Redis restart the pooled connections are dead: a command finding one so
        # is sent once more on a fresh connection instead of failing.
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=10,
            retry=Retry(NoBackoff(), 1),
            retry_on_error=[RedisConnectionError],
        )
        self._redis = aioredis.Redis.from_pool(pool)
        self.prefix = prefix
        self.idle_ttl_ms = idle_ttl_ms
        self.transaction = transaction
        self._save = self._redis.register_script(_SAVE)
        self._create = self._redis.register_script(_CREATE)
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._renew = self._redis.register_script(_RENEW)
        self._release = self._redis.register_script(_RELEASE)
        # Saves go over their own lean connection: redis-py's pipeline costs ~125 µs of
        # CPU per round trip, more than the rest of a move (see resp.py).
        self._saves = RespConnection(url)
        self._batch: list[_Pending] = []
        self._busy = False  # a batch is being sent or is scheduled to be
        self._idle: asyncio.Future[None] | None = None  # aclose waits on it
        # The loop saves run on, kept: asking asyncio for it makes a getpid system call
        # in Python 3.11 (0.28 µs here against 0.04 for `is_running`), once per save.
        self._loop: asyncio.AbstractEventLoop | None = None

    def _key(self, kind: str, code: str) -> str:
        return f"{self.prefix}{kind}:{code}"

    async def start(self) -> None:
        await self._redis.script_load(_SAVE)

    async def aclose(self) -> None:
        if self._busy:
            self._idle = asyncio.get_running_loop().create_future()
            await self._idle
        await self._saves.aclose()
        await self._redis.aclose()

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False

    # -- rooms ---------------------------------------------------------------------
    @_outage_is_store_error
    async def create(self, code: str, blob: bytes) -> None:
        keys = [self._key(kind, code) for kind in ("room", "log", "chat")]
        if not await self._create(keys=keys, args=[blob, self.idle_ttl_ms]):
            raise RoomExists(code)

    @_outage_is_store_error
    async def load(self, code: str) -> StoredRoom | None:
        version, blob = await self._redis.hmget(self._key("room", code), ["v", "b"])
        if version is None or blob is None:
            return None
        return StoredRoom(code, int(version), bytes(blob))

    def save(
        self, code: str, version: int, blob: bytes, log: list[dict[str, Any]] | None = None
    ) -> asyncio.Future[None]:
        """As `Store.save`, group-committed: the future is done once the batch this save
        joined has its reply. No task per save: a callback sends the batch, and each
        reply sends the saves that came meanwhile."""
        loop = self._loop
        if loop is None or not loop.is_running():  # the first save, or a new loop (tests)
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._batch.append((code, version, blob, [codec.pack(e) for e in log or ()], future))
        if not self._busy:
            self._busy = True
            loop.call_soon(self._send_batch)  # the saves of this loop iteration join it
        return future

    def _send_batch(self) -> None:
        """Send what waits as one round trip; with nothing waiting the flusher rests."""
        batch, self._batch = self._batch, []
        if not batch:
            self._busy = False
            if self._idle is not None and not self._idle.done():
                self._idle.set_result(None)
            return
        commands, wrapped = self._commands(batch)
        # The replies are handled as soon as they are read: no future, no extra turn of
        # the loop before the rooms hear that their saves are done.
        if not self._saves.submit(commands, functools.partial(self._landed, batch, wrapped)):
            # No connection yet, or it was lost: the awaited path opens one.
            self._then_send(self._flush(batch))

    def _then_send(self, flush: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(flush)
        task.add_done_callback(lambda _: self._send_batch())

    def _landed(self, batch: list[_Pending], wrapped: bool, replies: list[Any] | Exception) -> None:
        """A batch's replies (or the error that lost them): settle each save, then send
        the next batch."""
        try:
            if isinstance(replies, Exception):
                raise replies
            results = _results(replies, wrapped)
        except Exception as exc:
            _fail(batch, exc)
        else:
            if any(_no_script(r) for r in results):
                # Redis lost its script cache (a restart): load it and send the batch again.
                self._then_send(self._reload_and_flush(batch))
                return
            _settle(batch, results)
        self._send_batch()

    def _commands(self, batch: list[_Pending]) -> tuple[list[Command], bool]:
        """The batch's commands, and whether they are wrapped in MULTI/EXEC."""
        ttl, sha = self.idle_ttl_ms, self._save.sha
        commands: list[Command] = [
            ("EVALSHA", sha, 2, self._key("room", code), self._key("log", code), version, blob)
            + (ttl, *entries)
            for code, version, blob, entries, _ in batch
        ]
        # One room's save is one script, atomic by itself: MULTI/EXEC would only add two
        # commands and two replies to the round trip.
        wrapped = self.transaction and len(commands) > 1
        if wrapped:
            commands = [("MULTI",), *commands, ("EXEC",)]
        return commands, wrapped

    async def _flush(self, batch: list[_Pending], retry: bool = True) -> None:
        """Send one batch awaiting its replies (opening the connection if need be)."""
        commands, wrapped = self._commands(batch)
        try:
            results = _results(await self._saves.execute(commands), wrapped)
        except Exception as exc:
            _fail(batch, exc)
            return
        if retry and any(_no_script(r) for r in results):
            await self._reload_and_flush(batch)
            return
        _settle(batch, results)

    async def _reload_and_flush(self, batch: list[_Pending]) -> None:
        try:
            await self._redis.script_load(_SAVE)
        except Exception as exc:  # every caller must hear of it, or it waits forever
            _fail(batch, exc)
            return
        await self._flush(batch, retry=False)

    @_outage_is_store_error
    async def read_log(self, code: str) -> list[dict[str, Any]]:
        entries = await self._redis.xrange(self._key("log", code))
        return [codec.unpack(fields[b"e"]) for _, fields in entries]

    @_outage_is_store_error
    async def trim_log(self, code: str, keep: int) -> None:
        await self._redis.xtrim(self._key("log", code), maxlen=max(0, keep), approximate=False)

    @_outage_is_store_error
    async def log_length(self, code: str) -> int:
        return int(await self._redis.xlen(self._key("log", code)))

    @_outage_is_store_error
    async def expires_in_ms(self, code: str) -> int | None:
        ttl = await self._redis.pttl(self._key("room", code))
        return None if ttl < 0 else int(ttl)

    @_outage_is_store_error
    async def delete(self, code: str) -> None:
        keys = [self._key(kind, code) for kind in ("room", "log", "chat", "lease")]
        await self._redis.delete(*keys)
        await self._redis.hdel(self.prefix + "public", code)

    # -- chat ------------------------------------------------------------------------
    async def add_chat(self, code: str, entry: dict[str, Any], keep: int) -> None:
        key = self._key("chat", code)
        pipe = self._redis.pipeline(transaction=True)
        pipe.rpush(key, codec.pack(entry))
        pipe.ltrim(key, -keep, -1)
        pipe.pexpire(key, self.idle_ttl_ms)
        await pipe.execute()

    async def chat(self, code: str) -> list[dict[str, Any]]:
        return [codec.unpack(e) for e in await self._redis.lrange(self._key("chat", code), 0, -1)]

    # -- public room list ------------------------------------------------------------
    @_outage_is_store_error
    async def set_public(self, code: str, summary: dict[str, Any] | None) -> None:
        if summary is None:
            await self._redis.hdel(self.prefix + "public", code)
        else:
            await self._redis.hset(self.prefix + "public", code, codec.pack(summary))

    @_outage_is_store_error
    async def public_rooms(self) -> list[dict[str, Any]]:
        listed = await self._redis.hgetall(self.prefix + "public")
        codes = sorted(c.decode() for c in listed)
        if not codes:
            return []
        pipe = self._redis.pipeline(transaction=False)
        for code in codes:
            pipe.exists(self._key("room", code))
        alive = await pipe.execute()
        gone = [c for c, ok in zip(codes, alive, strict=True) if not ok]
        if gone:
            await self._redis.hdel(self.prefix + "public", *gone)
        return [codec.unpack(listed[c.encode()]) for c, ok in zip(codes, alive, strict=True) if ok]

    # -- leases ----------------------------------------------------------------------
    @_outage_is_store_error
    async def acquire_lease(self, code: str, owner: str, ttl_ms: int) -> bool:
        return bool(await self._acquire(keys=[self._key("lease", code)], args=[owner, ttl_ms]))

    @_outage_is_store_error
    async def renew_leases(self, codes: list[str], owner: str, ttl_ms: int) -> list[str]:
        if not codes:
            return []
        keys = [self._key("lease", c) for c in codes]
        lost = await self._renew(keys=keys, args=[owner, ttl_ms])
        return [codes[int(i) - 1] for i in lost]

    @_outage_is_store_error
    async def release_lease(self, code: str, owner: str) -> None:
        await self._release(keys=[self._key("lease", code)], args=[owner])

    @_outage_is_store_error
    async def lease_holder(self, code: str) -> str | None:
        owner = await self._redis.get(self._key("lease", code))
        return None if owner is None else owner.decode()
