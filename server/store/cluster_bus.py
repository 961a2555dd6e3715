"""The bus (bus.py) on a Redis Cluster: sharded pub/sub (SPUBLISH, SSUBSCRIBE; Redis 7).

A shard channel lives on the shard that serves its slot: a message goes to that shard's
primary and replicas only, where a classic PUBLISH in a cluster is sent to every node.
The relay's channels are one inbox per process (wire.py), so each process's incoming
relay traffic rides on one shard, and the processes spread over the shards as their
inboxes hash. (Channels per room would follow each room's shard, but every process
would hold a subscription per room it runs or reaches, and the sweeps' messages, which
are for a process and not a room, would still need an inbox.)

Publishing: everything queued in one event-loop iteration goes out as one round trip per
primary (lean connections, resp.py), each channel's messages in order; a message the node
sends elsewhere (MOVED) goes again, alone and in order, to the right one. Subscribing:
one subscriber connection per primary. When a channel's node is lost, or the node says the
channel's slot left it (an unasked `sunsubscribe`: a failover or a resharding), the
channel's `on_reset` is called and the bus subscribes it again where the slot is now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import hiredis
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from server.store import topology
from server.store.bus import (
    RESUBSCRIBE_DELAYS,
    Bus,
    PubSubBus,
    Receiver,
    Receivers,
    RedisBus,
    Reset,
    settled,
    take_push,
)
from server.store.cluster import REDIRECTS, SlotMap, node_address
from server.store.resp import Command, RespConnection
from server.store.topology import Address

log = logging.getLogger(__name__)

_Queued = tuple[bytes, bytes, "asyncio.Future[int]"]


class ClusterBus(PubSubBus):
    """Sharded pub/sub under `prefix` on the Redis Cluster at `url` (redis+cluster://)."""

    def __init__(self, url: str, *, prefix: str = "zk:") -> None:
        self.prefix = prefix
        self.topology = topology.parse(url)
        self.slots = SlotMap(self.topology)
        self._publishers: dict[Address, RespConnection] = {}
        self._subscribers: dict[Address, RespConnection] = {}
        self._queue: list[_Queued] = []
        self._flusher: asyncio.Task[None] | None = None
        # channel -> (receiver, on_reset); where each is subscribed now
        self._receivers: Receivers = {}
        self._placed: dict[bytes, Address] = {}
        self._confirming: dict[bytes, asyncio.Future[None]] = {}
        self._orphans: set[bytes] = set()  # to subscribe again
        self._resubscriber: asyncio.Task[None] | None = None
        self._closed = False

    def _channel(self, channel: str) -> bytes:
        return (self.prefix + channel).encode()

    async def _owner(self, name: bytes) -> tuple[Address, int]:
        slot = key_slot(name)
        if self.slots.owners[slot] is None:
            await self.slots.refresh()
        address = self.slots.owners[slot]
        if address is None:
            raise RedisConnectionError(f"no node serves slot {slot}")
        return address, slot

    # -- publishing ------------------------------------------------------------------
    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        if self._closed:
            return settled(0)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._queue.append((self._channel(channel), data, future))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush_all())
        return future

    def _publisher(self, address: Address) -> RespConnection:
        found = self._publishers.get(address)
        if found is None:
            found = self._publishers[address] = RespConnection(self.topology.node_url(address))
        return found

    async def _flush_all(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                by_node: dict[Address | None, list[_Queued]] = {}
                for queued in batch:
                    address = self.slots.owners[key_slot(queued[0])]
                    by_node.setdefault(address, []).append(queued)
                if len(by_node) == 1:  # the usual case: no task per node to pay for
                    [(address, same_node)] = by_node.items()
                    await self._publish_on(address, same_node)
                else:
                    await asyncio.gather(*(self._publish_on(a, q) for a, q in by_node.items()))
        finally:
            self._flusher = None

    async def _publish_on(self, address: Address | None, batch: list[_Queued]) -> None:
        """Publish `batch` on one node; what it sends elsewhere goes again, in order."""
        replies: list[Any]
        if address is None:  # no map yet (or no node for the slot when last asked)
            replies = [hiredis.ReplyError("CLUSTERDOWN no node known")] * len(batch)
        else:
            commands: list[Command] = [("SPUBLISH", ch, data) for ch, data, _ in batch]
            try:
                replies = await self._publisher(address).execute(commands)
            except (RedisError, OSError) as exc:
                self.slots.refresh_soon()
                replies = [exc] * len(batch)
        for (channel, data, future), reply in zip(batch, replies, strict=True):
            if isinstance(reply, hiredis.ReplyError):
                reply = await self._publish_alone(channel, data, reply)
            if future.done():
                continue
            if isinstance(reply, Exception):
                future.set_exception(reply)
                future.exception()  # a caller that does not await it is fine
            else:
                future.set_result(int(reply))

    async def _publish_alone(self, channel: bytes, data: bytes, error: Exception) -> Any:
        """SPUBLISH one message following the cluster's redirections; its reply or error."""
        for _ in range(REDIRECTS):
            message = str(error)
            if message.startswith("MOVED "):
                self.slots.learn(key_slot(channel), node_address(message.split()[2]))
                self.slots.refresh_soon()
            elif message.startswith(("TRYAGAIN", "CLUSTERDOWN")):
                await asyncio.sleep(0.1)
                with contextlib.suppress(RedisError):
                    await self.slots.refresh()
            else:
                return error
            address = self.slots.owners[key_slot(channel)]
            if address is None:
                continue
            try:
                [reply] = await self._publisher(address).execute([("SPUBLISH", channel, data)])
            except (RedisError, OSError) as exc:
                return exc
            if not isinstance(reply, hiredis.ReplyError):
                return reply
            error = reply
        return error

    # -- subscribing -----------------------------------------------------------------
    def _subscriber(self, address: Address) -> RespConnection:
        found = self._subscribers.get(address)
        if found is None:

            def lost(_: Exception | None, address: Address = address) -> None:
                self._lost(address)

            found = self._subscribers[address] = RespConnection(
                self.topology.node_url(address), on_push=self._pushed, on_lost=lost
            )
        return found

    async def subscribe(
        self, channel: str, receiver: Receiver, on_reset: Reset | None = None
    ) -> None:
        name = self._channel(channel)
        self._receivers[name] = (receiver, on_reset)
        await self._subscribe(name)

    async def _subscribe(self, name: bytes) -> None:
        """SSUBSCRIBE `name` on the node of its slot; returns once it is in force."""
        problem: Exception = RedisConnectionError("no node took the subscription")
        for _ in range(REDIRECTS):
            address, _slot = await self._owner(name)
            confirmed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._confirming[name] = confirmed
            try:
                await self._subscriber(address).send([("SSUBSCRIBE", name)])
                await confirmed
            except _Redirected as exc:
                problem = exc
                continue
            finally:
                self._confirming.pop(name, None)
            self._placed[name] = address
            self._orphans.discard(name)
            return
        raise problem

    async def unsubscribe(self, channel: str) -> None:
        name = self._channel(channel)
        self._orphans.discard(name)
        address = self._placed.pop(name, None)
        if self._receivers.pop(name, None) is not None and address and not self._closed:
            with contextlib.suppress(RedisConnectionError):
                await self._subscriber(address).send([("SUNSUBSCRIBE", name)])

    def _pushed(self, reply: Any) -> None:
        """A reply on a subscriber connection: a message, a (un)subscribe, or an error."""
        if isinstance(reply, hiredis.ReplyError):
            # A refused SSUBSCRIBE (MOVED: the slot is elsewhere): it is tried again.
            message = str(reply)
            words = message.split()
            slot = int(words[1]) if message.startswith(("MOVED ", "ASK ")) else None
            if slot is not None and words[0] == "MOVED":
                self.slots.learn(slot, node_address(words[2]))
            for name, confirmed in list(self._confirming.items()):
                if not confirmed.done() and slot in (None, key_slot(name)):
                    confirmed.set_exception(_Redirected(message))
            return
        unasked = take_push(reply, self._receivers, self._confirming, sharded=True)
        if unasked is None:
            return
        kind, name = unasked
        if kind == b"sunsubscribe" and name in self._receivers and name in self._placed:
            # Not asked for: the slot left this node (a failover, a resharding).
            del self._placed[name]
            self._orphan([name])

    def _lost(self, address: Address) -> None:
        if self._closed:
            return
        for confirmed in list(self._confirming.values()):
            if not confirmed.done():
                confirmed.set_exception(_Redirected("connection lost"))
        self.slots.refresh_soon()
        self._orphan([n for n, a in self._placed.items() if a == address])

    def _orphan(self, names: list[bytes]) -> None:
        """These channels' subscriptions ended: tell their owners, subscribe them again."""
        for name in names:
            self._placed.pop(name, None)
            self._orphans.add(name)
            on_reset = self._receivers.get(name, (None, None))[1]
            if on_reset is not None:
                on_reset()
        if self._orphans and self._resubscriber is None:
            self._resubscriber = asyncio.get_running_loop().create_task(self._resubscribe())

    async def _resubscribe(self) -> None:
        """Subscribe the orphaned channels again, pausing longer after each failed try."""
        attempt = 0
        try:
            while not self._closed and self._orphans:
                await asyncio.sleep(RESUBSCRIBE_DELAYS[min(attempt, len(RESUBSCRIBE_DELAYS) - 1)])
                attempt += 1
                with contextlib.suppress(RedisError, OSError):
                    await self.slots.refresh()
                for name in list(self._orphans):
                    if name not in self._receivers:
                        self._orphans.discard(name)
                        continue
                    try:
                        await self._subscribe(name)
                    except (RedisError, OSError, _Redirected) as exc:
                        log.warning("bus: cannot subscribe %r again yet: %s", name, exc)
                        break
                else:
                    log.info("bus: subscribed again after a lost shard connection")
        finally:
            self._resubscriber = None

    # -- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        await self.slots.refresh()

    async def _release(self) -> None:
        for connection in [*self._subscribers.values(), *self._publishers.values()]:
            await connection.aclose()
        await self.slots.aclose()


class _Redirected(RedisConnectionError):
    """A subscription the node refused or lost before confirming it: try again."""


def redis_bus(url: str, *, prefix: str = "zk:") -> Bus:
    """The bus for the Redis at `url`: sharded pub/sub on a Redis Cluster, else RedisBus."""
    if topology.parse(url).kind == "cluster":
        return ClusterBus(url, prefix=prefix)
    return RedisBus(url, prefix=prefix)
