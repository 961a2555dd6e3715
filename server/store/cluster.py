"""Redis Cluster for the hot path: which primary holds a slot, and the saves routed there.

`SlotMap` knows which primary serves each of the 16384 slots (CLUSTER SLOTS, asked of
any node that answers), and learns of a move from a MOVED answer at once. `ShardedSaves`
is the group commit (group_commit.py) once per primary: a save joins the batch of the
node that holds its room's slot (a room's keys share the hash tag {CODE}: one slot), so
each node gets one round trip per loop iteration, with its own WAIT under `replica`
durability. A save a node sends elsewhere (MOVED after a failover or a resharding, ASK
while its slot migrates, TRYAGAIN, CLUSTERDOWN) is sent again, alone, where it belongs;
a node lost to the connection has the slot map asked for again.

MULTI/EXEC is never used here: Redis Cluster refuses a transaction over several slots,
and each save is one script, atomic on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import hiredis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from server.store import codec
from server.store.group_commit import (
    SAVE_SCRIPT,
    GroupCommit,
    Pending,
    batch_results,
    fail_saves,
    redis_key,
    save_command,
    settle_saves,
)
from server.store.resp import Command, RespConnection
from server.store.store import StoreError
from server.store.topology import Address, Topology

log = logging.getLogger(__name__)

# How often one save is sent on after redirections before it fails (the client resends).
REDIRECTS = 5
# Pause before trying a slot again that is migrating (TRYAGAIN) or has no node (CLUSTERDOWN).
RETRY_PAUSE_S = 0.1
# How long one node has to answer CLUSTER SLOTS before the next is asked.
ASK_TIMEOUT_S = 1.0
# Slot map refreshes after a lost node are at least this far apart.
REFRESH_GAP_S = 0.2
_REDIRECTED = ("MOVED ", "ASK ", "TRYAGAIN", "CLUSTERDOWN")


def slot_of(prefix: str, code: str) -> int:
    """The slot of every key of room `code` (they share the hash tag {CODE})."""
    return key_slot(redis_key(prefix, "room", code).encode())


def node_address(text: str) -> Address:
    host, _, port = text.rpartition(":")
    return host, int(port)


class SlotMap:
    """Which primary serves each slot, asked of the cluster's nodes (`refresh`)."""

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        self.owners: list[Address | None] = [None] * REDIS_CLUSTER_HASH_SLOTS
        self.known: set[Address] = set(topology.nodes)
        self._refreshing: asyncio.Future[None] | None = None
        self._background: asyncio.Task[None] | None = None
        self._last = 0.0

    def primaries(self) -> set[Address]:
        """Every primary the map names."""
        return {a for a in self.owners if a is not None}

    def learn(self, slot: int, address: Address) -> None:
        """A node said `slot` is served by `address` now (MOVED)."""
        self.owners[slot] = address
        self.known.add(address)

    async def refresh(self) -> None:
        """Ask the nodes for the slot map (one question at a time however many ask);
        redis-py's ConnectionError when no node answers."""
        if self._refreshing is None:
            self._refreshing = asyncio.get_running_loop().create_future()
            try:
                await self._ask()
                self._refreshing.set_result(None)
            except Exception as exc:
                self._refreshing.set_exception(exc)
                self._refreshing.exception()  # retrieved: nobody else may be waiting
            finally:
                done, self._refreshing = self._refreshing, None
            return done.result()
        await asyncio.shield(self._refreshing)

    def refresh_soon(self) -> None:
        """Refresh in the background (after a lost node), at most every REFRESH_GAP_S."""
        loop = asyncio.get_running_loop()
        if self._refreshing is None and loop.time() - self._last >= REFRESH_GAP_S:
            self._last = loop.time()
            self._background = loop.create_task(self.refresh())
            self._background.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def aclose(self) -> None:
        """Stop a refresh under way in the background."""
        if self._background is not None and not self._background.done():
            self._background.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._background

    async def _ask(self) -> None:
        # Primaries first (they know the freshest map), then the seeds.
        candidates = list(dict.fromkeys([*sorted(self.primaries()), *self.topology.nodes]))
        candidates += sorted(self.known - set(candidates))
        problems = []
        for address in candidates:
            node = RespConnection(self.topology.node_url(address))
            try:
                # Bounded: a node that accepts but never answers (stopped, frozen) must not
                # hold up every refresh after it.
                async with asyncio.timeout(ASK_TIMEOUT_S):
                    [answer] = await node.execute([("CLUSTER", "SLOTS")])
            except (RedisError, OSError, TimeoutError) as exc:
                problems.append(f"{address[0]}:{address[1]}: {exc}")
                continue
            finally:
                await node.aclose()
            if isinstance(answer, Exception):
                problems.append(f"{address[0]}:{address[1]}: {answer}")
                continue
            owners: list[Address | None] = [None] * REDIS_CLUSTER_HASH_SLOTS
            for first, last, primary, *replicas in answer:
                where = (primary[0].decode() or address[0], int(primary[1]))
                owners[first : last + 1] = [where] * (last - first + 1)
                self.known.add(where)
                self.known.update((r[0].decode() or address[0], int(r[1])) for r in replicas)
            if owners != self.owners:
                shown = ", ".join(f"{h}:{p}" for h, p in sorted({a for a in owners if a}))
                log.info("store: the cluster's slots are served by %s", shown)
            self.owners = owners
            return
        raise RedisConnectionError(f"no Redis Cluster node answers: {'; '.join(problems)}")


class ShardedSaves:
    """The group commit over a cluster: one GroupCommit (one lean connection) per primary.

    `wait_replicas` as GroupCommit's: each node's batch ends with its own WAIT, so a save
    is acknowledged once a replica of its own shard has it.
    """

    def __init__(
        self,
        topology: Topology,
        *,
        prefix: str,
        idle_ttl_ms: int,
        script_sha: str,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
    ) -> None:
        self.topology = topology
        self.slots = SlotMap(topology)
        self.prefix = prefix
        self.idle_ttl_ms = idle_ttl_ms
        self.script_sha = script_sha
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.nodes: dict[Address, GroupCommit] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Learn the slot map."""
        await self.slots.refresh()

    def node(self, address: Address) -> GroupCommit:
        """The group commit of the primary at `address` (made on first use)."""
        found = self.nodes.get(address)
        if found is None:
            connection = RespConnection(self.topology.node_url(address))

            async def load_script() -> None:
                [reply] = await connection.execute([("SCRIPT", "LOAD", SAVE_SCRIPT)])
                if isinstance(reply, Exception):
                    raise reply

            found = self.nodes[address] = GroupCommit(
                connection,
                prefix=self.prefix,
                idle_ttl_ms=self.idle_ttl_ms,
                transaction=False,
                script_sha=self.script_sha,
                load_script=load_script,
                wait_replicas=self.wait_replicas,
                wait_timeout_ms=self.wait_timeout_ms,
                redirect=self._redirect,
                on_error=self.slots.refresh_soon,
            )
        return found

    def connection_for(self, code: str) -> tuple[RespConnection, int]:
        """The lean connection to the primary of room `code`'s slot (KeyError: the map
        names none yet), and the slot."""
        slot = slot_of(self.prefix, code)
        address = self.slots.owners[slot]
        if address is None:
            raise KeyError(slot)
        return self.node(address).connection, slot

    def save(
        self, code: str, version: int, blob: bytes, log: list[dict[str, Any]] | None, delta: bool
    ) -> asyncio.Future[None]:
        """As GroupCommit.save, on the node that holds the room's slot."""
        loop = self._loop
        if loop is None or not loop.is_running():
            loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        pending: Pending = (
            code,
            version,
            blob,
            "d" if delta else "",
            [codec.pack(e) for e in log or ()],
            future,
        )
        address = self.slots.owners[slot_of(self.prefix, code)]
        if address is None:  # no map yet, or the slot had no node when last asked
            self._later(self._send_alone(pending, None))
        else:
            self.node(address).add(pending, loop)
        return future

    async def aclose(self) -> None:
        """Wait for the saves in flight, then close every connection."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for node in list(self.nodes.values()):
            await node.aclose()
        await self.slots.aclose()

    async def run_script(self, code: str, script: str, keys: list[str], args: list[Any]) -> Any:
        """EVAL `script` on the primary of room `code` (all `keys` of its slot), following
        MOVED; with `wait_replicas`, its answer counts only once a replica has it
        (StoreError otherwise). For a room's rare writes that must be durable (create)."""
        slot, error = slot_of(self.prefix, code), ""
        for _ in range(REDIRECTS):
            address = self.slots.owners[slot]
            if address is None or error.startswith(("TRYAGAIN", "CLUSTERDOWN")):
                await asyncio.sleep(RETRY_PAUSE_S if error else 0)
                await self.slots.refresh()
                address = self.slots.owners[slot]
            elif error.startswith("MOVED "):
                address = node_address(error.split()[2])
                self.slots.learn(slot, address)
            if address is None:
                error = "CLUSTERDOWN no node serves the slot"
                continue
            commands: list[Command] = [("EVAL", script, len(keys), *keys, *args)]
            if error.startswith("ASK "):
                address = node_address(error.split()[2])
                commands.insert(0, ("ASKING",))
            if self.wait_replicas:
                commands.append(("WAIT", self.wait_replicas, self.wait_timeout_ms))
            try:
                replies = await self.node(address).connection.execute(commands)
            except (RedisError, OSError) as exc:
                self.slots.refresh_soon()
                raise StoreError(f"Redis: {exc}") from exc
            if commands[0][0] == "ASKING":
                replies = replies[1:]
            result = replies[0]
            if isinstance(result, Exception):
                if str(result).startswith(_REDIRECTED):
                    error = str(result)
                    continue
                raise StoreError(f"Redis: {result}")
            if self.wait_replicas and not (isinstance(replies[1], int) and replies[1] >= 1):
                raise StoreError("Redis: the write reached no replica in time")
            return result
        raise StoreError(f"Redis: slot {slot} found no node: {error}")

    def _later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _redirect(self, pending: Pending, error: Exception) -> bool:
        if not str(error).startswith(_REDIRECTED):
            return False
        self._later(self._send_alone(pending, error))
        return True

    async def _send_alone(self, pending: Pending, error: Exception | None) -> None:
        """Send one save where the cluster says it belongs, following up to REDIRECTS
        redirections; it fails (the client resends) when it still finds no home."""
        slot = slot_of(self.prefix, pending[0])
        for _ in range(REDIRECTS):
            asking = False
            message = str(error) if error is not None else ""
            if message.startswith("MOVED "):
                self.slots.learn(slot, node_address(message.split()[2]))
                self.slots.refresh_soon()  # other slots probably moved with it
            elif message.startswith("ASK "):
                asking = True
            elif error is not None or self.slots.owners[slot] is None:
                await asyncio.sleep(RETRY_PAUSE_S)
                try:
                    await self.slots.refresh()
                except RedisError as exc:
                    fail_saves([pending], exc)
                    return
            address = node_address(message.split()[2]) if asking else self.slots.owners[slot]
            if address is None:
                error = RedisConnectionError(f"no node serves slot {slot}")
                continue
            # EVAL, not EVALSHA: the node may never have seen the script (a new primary).
            commands: list[Command] = [save_command(self.prefix, self.idle_ttl_ms, pending)]
            if asking:
                commands.insert(0, ("ASKING",))
            if self.wait_replicas:
                commands.append(("WAIT", self.wait_replicas, self.wait_timeout_ms))
            try:
                replies = await self.node(address).connection.execute(commands)
                results = batch_results(
                    replies[1:] if asking else replies, False, self.wait_replicas
                )
            except (RedisError, OSError, hiredis.ReplyError) as exc:
                self.slots.refresh_soon()
                fail_saves([pending], exc)
                return
            [result] = results
            if isinstance(result, Exception) and str(result).startswith(_REDIRECTED):
                error = result
                continue
            settle_saves([pending], results)
            return
        fail_saves([pending], RedisConnectionError(f"slot {slot}: {error}"))
