"""Group commit: the saves of many rooms sent to Redis together, one batch in flight.

A save is one Lua script (SAVE_SCRIPT: compare-and-set of the version, then the blob or
the delta, the XADDs and the expiry), atomic on its own. Saves from all rooms that changed in one
event-loop iteration go out as one pipelined round trip (in MULTI/EXEC when there are
several, unless `transaction` is off) over a dedicated lean connection (resp.py); saves
made while a batch is in flight wait for its reply and go in the next one. Each caller
still gets its own future. The per-round-trip client cost dominates a save, so one
batch for many rooms, and a cheap round trip, are the main levers on throughput.

With `wait_replicas` (the `replica` durability) each batch ends with WAIT: its saves
are acknowledged only once that many replicas have them, and fail (StoreError: the
client tries again) when the wait times out. A save that failed so may still be in
Redis; the room's next save of that version is then refused as stale and the room
loads again, as after any save whose answer was lost.

Kept apart from the rest of the Redis store (redis_store.py, which goes through
redis-py) so that this, the part every move runs, can be compiled (setup.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import hiredis
from redis.exceptions import RedisError

from server.store import codec
from server.store.resp import Command, RespConnection
from server.store.store import StaleVersion, StoreError

# ARGV: version, blob or delta, expiry, "d" for a delta (else ""), then log entries. A
# delta is the room hash's field d<version>; a full save replaces the hash, deltas and all.
# The version is field "ver"; saves from before deltas named it "v", read here too (see
# redis_store.py: a process of an older release finds no room saved with deltas).
SAVE_SCRIPT = """
local stored = redis.call('HGET', KEYS[1], 'ver') or redis.call('HGET', KEYS[1], 'v')
if tonumber(stored) ~= tonumber(ARGV[1]) - 1 then return 0 end
if ARGV[4] == 'd' then
  redis.call('HSET', KEYS[1], 'ver', ARGV[1], 'd' .. ARGV[1], ARGV[2])
else
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'ver', ARGV[1], 'b', ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
for i = 5, #ARGV do redis.call('XADD', KEYS[2], '*', 'e', ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""


def redis_key(prefix: str, kind: str, code: str) -> str:
    """The Redis key of one room's `kind` (room, log, chat, lease), for the whole store.

    The code in braces is a Redis Cluster hash tag: every key of a room is on one shard,
    so a save (one script over the room and its log) is one transaction there.
    """
    return f"{prefix}{kind}:{{{code}}}"


# One save waiting for its batch: room code, version, blob, "d" for a delta (else ""),
# packed log entries, and the future its caller awaits.
Pending = tuple[str, int, bytes, str, list[bytes], "asyncio.Future[None]"]


def save_command(prefix: str, ttl_ms: int, pending: Pending, sha: str = "") -> Command:
    """The command that makes one save: EVALSHA of the script `sha` names, or without
    `sha` EVAL of SAVE_SCRIPT itself (a node that may not have it cached)."""
    code, version, blob, kind, entries, _ = pending
    script: tuple[str, str] = ("EVALSHA", sha) if sha else ("EVAL", SAVE_SCRIPT)
    room, log = redis_key(prefix, "room", code), redis_key(prefix, "log", code)
    return (*script, 2, room, log, version, blob, ttl_ms, kind, *entries)


def fail_saves(batch: list[Pending], exc: BaseException) -> None:
    """Every save of `batch` fails with the store's own error."""
    if isinstance(exc, RedisError | OSError | hiredis.ReplyError):
        exc = StoreError(f"Redis: {exc}")
    for *_, future in batch:
        if not future.done():
            future.set_exception(exc)


# Given a save Redis Cluster sent elsewhere (MOVED, ASK, ...) and the error: True when it
# takes the save over (cluster.py sends it where it belongs).
Redirect = Callable[[Pending, Exception], bool]


def settle_saves(
    batch: list[Pending], results: list[Any], redirect: Redirect | None = None
) -> None:
    """Each save's answer: done, refused by its version (StaleVersion), or failed (or, with
    `redirect`, sent on when Redis Cluster says the room's slot is elsewhere)."""
    # Plain indexing: zip(strict=True) and starred targets are generic calls and a list
    # per save in compiled code, at every move.
    if len(results) != len(batch):
        raise ValueError(f"{len(results)} replies to a batch of {len(batch)} saves")
    for i, pending in enumerate(batch):
        future, result = pending[5], results[i]
        if future.done():
            continue
        if isinstance(result, Exception):
            if redirect is not None and redirect(pending, result):
                continue
            future.set_exception(StoreError(f"Redis: {result}"))
        elif result != 1:
            future.set_exception(StaleVersion(pending[0]))
        else:
            future.set_result(None)


def batch_results(replies: list[Any], wrapped: bool, waits: int) -> list[Any]:
    """The save scripts' replies in one batch's replies (EXEC's list when wrapped); raises
    the error EXEC answered instead (e.g. a command was malformed). After a WAIT for
    `waits` replicas that fewer acknowledged, each save done is a failure instead."""
    if waits:
        acked, replies = replies[-1], replies[:-1]
    results = replies[-1] if wrapped else replies
    if isinstance(results, Exception):
        raise results
    if waits and (isinstance(acked, Exception) or acked < waits):
        short = StoreError(f"saved, but {acked} of {waits} replicas had it in time")
        results = [short if r == 1 else r for r in results]
    return results


def _readonly(results: list[Any]) -> bool:
    """True when the server answered as a replica: the primary moved (a failover)."""
    return any(isinstance(r, Exception) and str(r).startswith("READONLY") for r in results)


def _no_script(reply: Any) -> bool:
    """True for Redis's answer to an EVALSHA of a script it does not have cached."""
    return isinstance(reply, Exception) and str(reply).startswith("NOSCRIPT")


class GroupCommit:
    """The save path of the Redis store: `save` joins the next batch.

    `script_sha` names SAVE_SCRIPT in Redis's script cache; `load_script` loads it
    again when Redis has lost its cache (a restart). Under Redis Cluster (cluster.py)
    there is one per primary: `redirect` takes the saves the node says belong elsewhere,
    and `on_error()` hears of a batch lost to the connection (the node may be gone).
    """

    def __init__(
        self,
        connection: RespConnection,
        *,
        prefix: str,
        idle_ttl_ms: int,
        transaction: bool,
        script_sha: str,
        load_script: Callable[[], Awaitable[Any]],
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
        redirect: Redirect | None = None,
        on_error: Callable[[], None] | None = None,
    ) -> None:
        self.prefix = prefix
        self.redirect = redirect
        self.on_error = on_error
        self.idle_ttl_ms = idle_ttl_ms
        self.transaction = transaction
        self.script_sha = script_sha
        self.load_script = load_script
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        # redis-py's pipeline costs ~125 µs of CPU per round trip, more than the rest
        # of a move (see resp.py).
        self.connection = connection
        self._batch: list[Pending] = []
        self._busy = False  # a batch is being sent or is scheduled to be
        self._idle: asyncio.Future[None] | None = None  # aclose waits on it
        # The loop saves run on, kept: asking asyncio for it makes a getpid system call
        # in Python 3.11 (0.28 µs here against 0.04 for `is_running`), once per save.
        self._loop: asyncio.AbstractEventLoop | None = None

    def save(
        self, code: str, version: int, blob: bytes, log: list[dict[str, Any]] | None, delta: bool
    ) -> asyncio.Future[None]:
        """Queue one save; the future is done once the batch it joined has its reply.
        No task per save: a callback sends the batch, and each reply sends the saves
        that came meanwhile."""
        loop = self._loop
        if loop is None or not loop.is_running():  # the first save, or a new loop (tests)
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        entries = [codec.pack(e) for e in log or ()]
        self.add((code, version, blob, "d" if delta else "", entries, future), loop)
        return future

    def add(self, pending: Pending, loop: asyncio.AbstractEventLoop) -> None:
        """Queue a save already made (`save`'s, or one sent here from another node)."""
        self._batch.append(pending)
        if not self._busy:
            self._busy = True
            loop.call_soon(self._send_batch)  # the saves of this loop iteration join it

    async def aclose(self) -> None:
        """Wait for the saves in flight, then close the connection."""
        if self._busy:
            self._idle = asyncio.get_running_loop().create_future()
            await self._idle
        await self.connection.aclose()

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
        def landed(replies: list[Any] | Exception) -> None:
            self._landed(batch, wrapped, replies)

        if not self.connection.submit(commands, landed):
            # No connection yet, or it was lost: the awaited path opens one.
            self._then_send(self._flush(batch))

    def _then_send(self, flush: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(flush)
        task.add_done_callback(self._send_next)

    def _send_next(self, _: object) -> None:
        self._send_batch()

    def _landed(self, batch: list[Pending], wrapped: bool, replies: list[Any] | Exception) -> None:
        """A batch's replies (or the error that lost them): settle each save, then send
        the next batch."""
        try:
            if isinstance(replies, Exception):
                raise replies
            results = batch_results(replies, wrapped, self.wait_replicas)
        except Exception as exc:
            fail_saves(batch, exc)
            if self.on_error is not None:
                self.on_error()
        else:
            if _readonly(results):
                self.connection.drop()
            if any(_no_script(r) for r in results):
                # Redis lost its script cache (a restart): load it and send the batch again.
                self._then_send(self._reload_and_flush(batch))
                return
            settle_saves(batch, results, self.redirect)
        self._send_batch()

    def _commands(self, batch: list[Pending]) -> tuple[list[Command], bool]:
        """The batch's commands, and whether they are wrapped in MULTI/EXEC."""
        ttl, sha, prefix = self.idle_ttl_ms, self.script_sha, self.prefix
        commands: list[Command] = [save_command(prefix, ttl, p, sha) for p in batch]
        # One room's save is one script, atomic by itself: MULTI/EXEC would only add two
        # commands and two replies to the round trip.
        wrapped = self.transaction and len(commands) > 1
        if wrapped:
            commands = [("MULTI",), *commands, ("EXEC",)]
        if self.wait_replicas:
            # One WAIT per batch, in the same round trip: it answers once the replicas
            # have everything this connection wrote before it.
            commands.append(("WAIT", self.wait_replicas, self.wait_timeout_ms))
        return commands, wrapped

    async def _flush(self, batch: list[Pending], retry: bool = True) -> None:
        """Send one batch awaiting its replies (opening the connection if need be)."""
        commands, wrapped = self._commands(batch)
        try:
            results = batch_results(
                await self.connection.execute(commands), wrapped, self.wait_replicas
            )
        except Exception as exc:
            fail_saves(batch, exc)
            if self.on_error is not None:
                self.on_error()
            return
        if _readonly(results):
            self.connection.drop()
        if retry and any(_no_script(r) for r in results):
            await self._reload_and_flush(batch)
            return
        settle_saves(batch, results, self.redirect)

    async def _reload_and_flush(self, batch: list[Pending]) -> None:
        try:
            await self.load_script()
        except Exception as exc:  # every caller must hear of it, or it waits forever
            fail_saves(batch, exc)
            return
        await self._flush(batch, retry=False)
