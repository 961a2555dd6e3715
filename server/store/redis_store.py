"""The Redis store (redis-py asyncio); saves are group-committed (group_commit.py).

Keys, under a prefix (default "zk:"): `room:{CODE}` a hash {ver: version, b: blob, and
d<version>: each delta saved since the blob}; `log:{CODE}` a stream of packed log
entries; `lease:{CODE}` the owner's id with a TTL; `public` a hash code -> packed
summary; `due` a sorted set of the codes of the rooms that will need a process running
them, by when (Unix ms; see rooms/due.py); `chat:{CODE}` a list of the room's last
packed chat messages; `push:{CODE}` a hash of the room's push subscriptions (packed);
`review:{CODE}` a hash of its finished matches' reviews (packed); `vapid` the
deployment's Web Push key. Room and log expire `idle_ttl_ms` after the last save, the
chat as long after its last message, the subscriptions as long after they were last kept
or read, the reviews as long after the last one kept; the key never. The braces are a
Redis Cluster hash tag (all of a room's keys on one shard); releases before it named the
keys without braces (`room:CODE`): on one server or under Sentinel, a room found only
under those names takes the new ones when it is first loaded (`_ADOPT`), so rooms saved
before an upgrade play on after it.

The address (topology.py) is one Redis, a primary found through Sentinel (followed
across failovers), or a Redis Cluster. `durability="replica"` acknowledges a save only
once a replica has it (group_commit.py: one WAIT per batch; per shard on a cluster).

A save is one Lua script, atomic on its own; the saves of many rooms go to Redis
together over a lean connection of their own (group_commit.py, resp.py), one per
primary on a cluster (cluster.py). Everything else goes through redis-py (its
RedisCluster on a cluster, which follows MOVED and ASK itself).

On a cluster every key of a room is on its room's shard. The public list (`public`), the
due index (`due`) and the Web Push key (`vapid`) are one key each, on whichever shard
their name hashes to: the list is one small hash read whole, the index one sorted set
read from its earliest end (one round trip each, where scanning every primary would be
one per shard and a listing per shard to keep), and the rooms the list names are
checked where they live (a pipeline per shard). Leases are renewed per slot (a script
may only touch keys of one slot there), in one pipeline per shard. Keys under the old
names are not looked for: no release before the hash tags ran on a cluster.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError

from server.store import codec, topology
from server.store.cluster import ShardedSaves, slot_of
from server.store.group_commit import SAVE_SCRIPT, GroupCommit, redis_key
from server.store.resp import CONNECT_TIMEOUT_S, RespConnection
from server.store.store import (
    IDLE_TTL_MS,
    RoomExists,
    Store,
    StoredRoom,
    StoreError,
)
from server.store.topology import DURABILITIES, Durability

# KEYS: room, log, chat, and the room under its old name (the code is taken either way).
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'ver', 1, 'b', ARGV[1])
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
# KEYS: room, log, chat, push under the new names, then under the old ones. Renamed only when
# the room has no key of the new name yet (a newer save is never overwritten); RENAME
# keeps each key's expiry.
_ADOPT = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[5]) == 0 then return 0 end
for i = 1, 4 do
  if redis.call('EXISTS', KEYS[i + 4]) == 1 then redis.call('RENAME', KEYS[i + 4], KEYS[i]) end
end
return 1
"""
_ADD_CHAT = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
# KEYS: the room's reviews, the room (no room, nothing kept).
_SAVE_REVIEW = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
# KEYS: the due index. The rooms due by ARGV[1], earliest first, at most ARGV[2] of
# them, each put off to ARGV[3] (taken by this sweep: by no other before then).
_CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, code in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[3], code) end
return due
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""

# How long a batch of saves waits for a replica before it fails ("replica" durability).
WAIT_TIMEOUT_MS = 1000
# How long every primary of a cluster has to answer a readiness ping.
CLUSTER_PING_TIMEOUT_S = 1.0


def default_durability(where: topology.Topology) -> Durability:
    """The durability by default: "replica" under Sentinel (replicas by design), else "primary"."""
    return "replica" if where.kind == "sentinel" else "primary"


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _outage_is_store_error(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R]]:
    """Turn Redis being unreachable (or failing) into StoreError, the store's own error."""

    @functools.wraps(method)
    async def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await method(*args, **kwargs)
        except (RedisError, RedisClusterException, OSError) as exc:
            raise StoreError(f"Redis: {exc}") from exc

    return run


class RedisStore(Store):
    """Rooms in Redis. `url` as topology.py reads it (redis://127.0.0.1:6379/0, or
    redis+sentinel://..., redis+cluster://...); `prefix` separates tenants/tests (no
    braces in it: they would make it the keys' hash tag).

    `max_connections` bounds a BlockingConnectionPool on one server (callers wait for a
    connection rather than fail). `transaction=False` sends batches of several saves as
    a plain pipeline (each script is atomic anyway) instead of MULTI/EXEC; a batch of
    one save is always sent bare. `durability`: "primary" acknowledges a save once the
    primary has it; "replica" (the default under Sentinel) once a replica has it too,
    waiting at most `wait_timeout_ms` (then the save fails and is tried again).
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "zk:",
        idle_ttl_ms: int = IDLE_TTL_MS,
        max_connections: int = 16,
        transaction: bool = True,
        durability: Durability | None = None,
        wait_timeout_ms: int = WAIT_TIMEOUT_MS,
    ) -> None:
        self.topology = topology.parse(url)
        self.durability: Durability = durability or default_durability(self.topology)
        if self.durability not in DURABILITIES:
            raise ValueError(f"durability must be one of {', '.join(DURABILITIES)}")
        if "{" in prefix or "}" in prefix:
            raise ValueError("the key prefix may not hold braces (the rooms' hash tags)")
        self.cluster = self.topology.kind == "cluster"
        self._finder: topology.PrimaryFinder | None = None
        # After a Redis restart (or a failover) the pooled connections are dead: a
        # command finding one so is sent once more on a fresh connection.
        retry, retry_on = Retry(NoBackoff(), 1), [RedisConnectionError]
        # Any: redis-py types RedisCluster's answers as bytes | str where Redis's are bytes
        # (no decode_responses here, so bytes on either).
        self._redis: Any
        if self.cluster:
            self._redis = RedisCluster(
                startup_nodes=[ClusterNode(host, port) for host, port in self.topology.nodes],
                username=self.topology.username,
                password=self.topology.password,
                socket_connect_timeout=CONNECT_TIMEOUT_S,
                max_connections=max_connections,
            )
        elif self.topology.kind == "sentinel":
            self._finder = topology.PrimaryFinder(self.topology)
            self._redis = self._finder.sentinel.master_for(
                self.topology.service,
                db=self.topology.db,
                username=self.topology.username,
                password=self.topology.password,
                socket_connect_timeout=CONNECT_TIMEOUT_S,
                retry=retry,
                retry_on_error=retry_on,
            )
        else:
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=10,
                retry=retry,
                retry_on_error=retry_on,
            )
            self._redis = aioredis.Redis.from_pool(pool)
        self.prefix = prefix
        self.idle_ttl_ms = idle_ttl_ms
        save_script = self._redis.register_script(SAVE_SCRIPT)
        self._create = self._redis.register_script(_CREATE)
        self._adopt = self._redis.register_script(_ADOPT)
        self._add_chat = self._redis.register_script(_ADD_CHAT)
        self._save_review = self._redis.register_script(_SAVE_REVIEW)
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._renew = self._redis.register_script(_RENEW)
        self._release = self._redis.register_script(_RELEASE)
        self._claim_due = self._redis.register_script(_CLAIM_DUE)
        self.wait_timeout_ms = wait_timeout_ms
        wait_replicas = 1 if self.durability == "replica" else 0
        self._saves: GroupCommit | ShardedSaves
        if self.cluster:
            self._saves = ShardedSaves(
                self.topology,
                prefix=prefix,
                idle_ttl_ms=idle_ttl_ms,
                script_sha=save_script.sha,
                wait_replicas=wait_replicas,
                wait_timeout_ms=wait_timeout_ms,
            )
        else:
            if self._finder is not None:
                connection = RespConnection(
                    self.topology.node_url(("sentinel", 0)), locate=self._finder.locate
                )
                self._finder.on_switch(connection.drop)
            else:
                connection = RespConnection(url)
            self._saves = GroupCommit(
                connection,
                prefix=prefix,
                idle_ttl_ms=idle_ttl_ms,
                transaction=transaction,
                script_sha=save_script.sha,
                load_script=functools.partial(self._redis.script_load, SAVE_SCRIPT),
                wait_replicas=wait_replicas,
                wait_timeout_ms=wait_timeout_ms,
            )

    def _key(self, kind: str, code: str) -> str:
        return redis_key(self.prefix, kind, code)

    def _legacy_key(self, kind: str, code: str) -> str:
        return f"{self.prefix}{kind}:{code}"

    async def start(self) -> None:
        if self._finder is not None:
            self._finder.watch()
        if isinstance(self._saves, ShardedSaves):
            await self._saves.start()
        await self._redis.script_load(SAVE_SCRIPT)  # on every primary of a cluster

    async def aclose(self) -> None:
        await self._saves.aclose()
        await self._redis.aclose()
        if self._finder is not None:
            await self._finder.aclose()

    async def ping(self) -> bool:
        """True when the primary answers (under Sentinel: the one the sentinels name; on
        a cluster: every primary); what readiness checks ask."""
        try:
            if isinstance(self._redis, RedisCluster):
                # Bounded: redis-py would otherwise retry through a shard's failover
                # (seconds) and then answer yes; a probe should hear "not now" at once.
                async with asyncio.timeout(CLUSTER_PING_TIMEOUT_S):
                    return bool(await self._redis.ping(target_nodes=RedisCluster.PRIMARIES))
            return bool(await self._redis.ping())
        except Exception:
            return False

    # -- rooms ---------------------------------------------------------------------
    @_outage_is_store_error
    async def create(self, code: str, blob: bytes) -> None:
        keys = [self._key(kind, code) for kind in ("room", "log", "chat")]
        # (The old name is of another slot: not looked for on a cluster, see above.)
        keys.append(self._key("room", code) if self.cluster else self._legacy_key("room", code))
        if isinstance(self._saves, ShardedSaves):
            args = [blob, self.idle_ttl_ms]
            created = await self._saves.run_script(code, _CREATE, keys, args)
        elif self.durability == "replica":
            # Acknowledged only once a replica has it, as saves are.
            pipe = self._redis.pipeline(transaction=False)
            # EVAL, not EVALSHA: a create is rare, and a pipeline cannot load a script.
            pipe.eval(_CREATE, len(keys), *keys, blob, self.idle_ttl_ms)
            pipe.wait(1, self.wait_timeout_ms)
            created, replicas = await pipe.execute()
            if created and replicas < 1:
                raise StoreError("Redis: the new room reached no replica in time")
        else:
            created = await self._create(keys=keys, args=[blob, self.idle_ttl_ms])
        if not created:
            raise RoomExists(code)

    @_outage_is_store_error
    async def load(self, code: str) -> StoredRoom | None:
        fields = await self._redis.hgetall(self._key("room", code))
        if not fields and not self.cluster:  # perhaps saved under the old names
            kinds = ("room", "log", "chat", "push")
            keys = [self._key(k, code) for k in kinds] + [self._legacy_key(k, code) for k in kinds]
            if await self._adopt(keys=keys):
                fields = await self._redis.hgetall(self._key("room", code))
        # "v": a room last saved before deltas (its next save writes "ver"). Releases
        # before deltas read only "v" and "b": finding no "v", they take a room saved
        # since for gone and refuse its saves as stale, rather than load its blob
        # without the deltas after it (during a rolling upgrade).
        version = fields.get(b"ver") or fields.get(b"v")
        blob = fields.get(b"b")
        if version is None or blob is None:
            return None
        # The deltas are fields d<version>, put in version order; a full save drops them.
        numbered = sorted((int(k[1:]), v) for k, v in fields.items() if k.startswith(b"d"))
        return StoredRoom(code, int(version), bytes(blob), tuple(bytes(d) for _, d in numbered))

    def save(
        self,
        code: str,
        version: int,
        blob: bytes,
        log: list[dict[str, Any]] | None = None,
        delta: bool = False,
    ) -> asyncio.Future[None]:
        """As `Store.save`, group-committed (group_commit.py)."""
        return self._saves.save(code, version, blob, log, delta)

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
    async def keep_for(self, code: str, ttl_ms: int) -> None:
        pipe = self._redis.pipeline(transaction=False)
        for kind in ("room", "log", "chat", "review"):
            pipe.pexpire(self._key(kind, code), ttl_ms)
        await pipe.execute()

    @_outage_is_store_error
    async def delete(self, code: str) -> None:
        kinds = ("room", "log", "chat", "lease", "push")
        keys = [self._key(k, code) for k in kinds]
        if not self.cluster:
            keys += [self._legacy_key(k, code) for k in kinds]
        await self._redis.delete(*keys, self._key("review", code))
        await self._redis.hdel(self.prefix + "public", code)
        await self._redis.zrem(self.prefix + "due", code)

    # -- reviews -----------------------------------------------------------------------
    @_outage_is_store_error
    async def save_review(self, code: str, key: str, review: dict[str, Any]) -> None:
        await self._save_review(
            keys=[self._key("review", code), self._key("room", code)],
            args=[key, codec.pack(review), self.idle_ttl_ms],
        )

    @_outage_is_store_error
    async def review(self, code: str, key: str) -> dict[str, Any] | None:
        packed = await self._redis.hget(self._key("review", code), key)
        return None if packed is None else codec.unpack(packed)

    # -- chat ------------------------------------------------------------------------
    async def add_chat(self, code: str, entry: dict[str, Any], keep: int) -> None:
        # A script rather than MULTI/EXEC: the same on a cluster.
        await self._add_chat(
            keys=[self._key("chat", code)], args=[codec.pack(entry), keep, self.idle_ttl_ms]
        )

    async def chat(self, code: str) -> list[dict[str, Any]]:
        return [codec.unpack(e) for e in await self._redis.lrange(self._key("chat", code), 0, -1)]

    # -- Web Push ----------------------------------------------------------------------
    @_outage_is_store_error
    async def push_key(self, candidate: bytes) -> bytes:
        key = self.prefix + "vapid"
        await self._redis.set(key, candidate, nx=True)
        stored = await self._redis.get(key)
        return bytes(stored) if stored is not None else bytes(candidate)

    @_outage_is_store_error
    async def add_push(self, code: str, key: str, entry: dict[str, Any]) -> None:
        name = self._key("push", code)
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(name, key, codec.pack(entry))
        pipe.pexpire(name, self.idle_ttl_ms)
        await pipe.execute()

    @_outage_is_store_error
    async def push_subscriptions(self, code: str) -> dict[str, dict[str, Any]]:
        name = self._key("push", code)
        pipe = self._redis.pipeline(transaction=True)
        pipe.hgetall(name)
        pipe.pexpire(name, self.idle_ttl_ms)
        kept, _ = await pipe.execute()
        return {key.decode(): codec.unpack(entry) for key, entry in kept.items()}

    @_outage_is_store_error
    async def drop_push(self, code: str, keys: list[str]) -> None:
        if keys:
            await self._redis.hdel(self._key("push", code), *keys)

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

    # -- due rooms -------------------------------------------------------------------
    @_outage_is_store_error
    async def set_due(self, code: str, at_ms: int | None) -> None:
        if at_ms is None:
            await self._redis.zrem(self.prefix + "due", code)
        else:
            await self._redis.zadd(self.prefix + "due", {code: int(at_ms)})

    @_outage_is_store_error
    async def claim_due(self, now_ms: int, limit: int, retry_ms: int) -> list[str]:
        keys = [self.prefix + "due"]
        claimed = await self._claim_due(keys=keys, args=[now_ms, limit, now_ms + retry_ms])
        return [code.decode() for code in claimed]

    # -- leases ----------------------------------------------------------------------
    @_outage_is_store_error
    async def acquire_lease(self, code: str, owner: str, ttl_ms: int) -> bool:
        return bool(await self._acquire(keys=[self._key("lease", code)], args=[owner, ttl_ms]))

    @_outage_is_store_error
    async def renew_leases(self, codes: list[str], owner: str, ttl_ms: int) -> list[str]:
        if not codes:
            return []
        if not self.cluster:
            keys = [self._key("lease", c) for c in codes]
            lost = await self._renew(keys=keys, args=[owner, ttl_ms])
            return [codes[int(i) - 1] for i in lost]
        # One script per slot (a script's keys must share one), one pipeline: redis-py
        # sends each shard its part.
        by_slot: dict[int, list[str]] = {}
        for code in codes:
            by_slot.setdefault(slot_of(self.prefix, code), []).append(code)
        pipe = self._redis.pipeline(transaction=False)
        for group in by_slot.values():
            keys = [self._key("lease", c) for c in group]
            # EVAL: a new primary (after a failover) may not have the script cached.
            pipe.eval(_RENEW, len(keys), *keys, owner, ttl_ms)
        # A shard that does not answer (failing over) leaves its rooms' leases as they
        # were, neither renewed nor lost; the other shards' renewals count.
        answers = await pipe.execute(raise_on_error=False)
        failed = [a for a in answers if isinstance(a, Exception)]
        if len(failed) == len(answers):
            raise StoreError(f"Redis: no shard renewed a lease: {failed[0]}")
        return [
            group[int(i) - 1]
            for group, lost in zip(by_slot.values(), answers, strict=True)
            if not isinstance(lost, Exception)
            for i in lost
        ]

    @_outage_is_store_error
    async def release_lease(self, code: str, owner: str) -> None:
        await self._release(keys=[self._key("lease", code)], args=[owner])

    @_outage_is_store_error
    async def lease_holder(self, code: str) -> str | None:
        owner = await self._redis.get(self._key("lease", code))
        return None if owner is None else owner.decode()
