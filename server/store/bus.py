"""A message bus between server processes: publish bytes to a channel, subscribe to one.

The rooms layer uses it to reach the process that runs a room (server/rooms/relay/endpoint.py).
Delivery is at most once, as Redis pub/sub gives it: a message published while nobody
listens is gone, and `publish` says how many subscribers received it (0: nobody is
there). Messages published by one bus reach a subscriber in the order `publish` was
called, which is why `publish` queues synchronously and returns a future instead of
being a coroutine: a caller that cannot await (a room's listener) still keeps its order.
A subscriber whose connection broke is told through `on_reset`, since messages may have
been lost until the bus subscribed again.

Two implementations: `RedisBus` (between processes) and `MemoryBus` (one process; what
the in-process store pairs with, and what relay tests may run two managers on).

    bus = RedisBus("redis://127.0.0.1:6379/0")
    await bus.subscribe("inbox", print)
    receivers = await bus.publish("inbox", b"hello")   # 1, and print(b"hello") runs
    await bus.aclose()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError

from server.store import topology
from server.store.resp import Command, RespConnection

Receiver = Callable[[bytes], None]
Reset = Callable[[], None]
# Waits between attempts to subscribe again after the subscriber connection broke.
RESUBSCRIBE_DELAYS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
log = logging.getLogger(__name__)


class Bus:
    """What the rooms need to talk to other processes: channels of opaque bytes."""

    async def start(self) -> None:
        """Connect or prepare; call once before use."""

    async def aclose(self) -> None:
        """Send what is queued, stop every subscription, release connections."""

    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        """Queue `data` for `channel`; the future gives how many subscribers got it.

        Queued messages go out in call order. After `aclose` nothing is sent (0).
        A failure to reach the bus is the future's exception (marked retrieved, so a
        caller may drop the future).
        """
        raise NotImplementedError

    async def subscribe(
        self, channel: str, receiver: Receiver, on_reset: Reset | None = None
    ) -> None:
        """Call `receiver(data)` for every message on `channel`, in order, from now on.

        Returns once the subscription is in force. `on_reset()` is called whenever the
        subscription broke (messages may be lost until the bus has subscribed again,
        which it keeps trying to do by itself). One receiver per channel.
        """
        raise NotImplementedError

    async def unsubscribe(self, channel: str) -> None:
        """Stop delivering `channel`'s messages."""
        raise NotImplementedError


def settled(value: int) -> asyncio.Future[int]:
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    future.set_result(value)
    return future


class MemoryBus(Bus):
    """Channels inside one process; receivers are called soon after `publish`, in order."""

    def __init__(self) -> None:
        self._receivers: dict[str, Receiver] = {}
        self._closed = False

    async def aclose(self) -> None:
        self._closed = True
        self._receivers.clear()

    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        receiver = None if self._closed else self._receivers.get(channel)
        if receiver is None:
            return settled(0)
        # Later, as over a network: a receiver never runs inside its publisher's call.
        asyncio.get_running_loop().call_soon(self._deliver, channel, receiver, bytes(data))
        return settled(1)

    def _deliver(self, channel: str, receiver: Receiver, data: bytes) -> None:
        if self._receivers.get(channel) is receiver:
            receiver(data)

    async def subscribe(
        self, channel: str, receiver: Receiver, on_reset: Reset | None = None
    ) -> None:
        self._receivers[channel] = receiver

    async def unsubscribe(self, channel: str) -> None:
        self._receivers.pop(channel, None)


_Queued = tuple[str, bytes, "asyncio.Future[int]"]
Receivers = dict[bytes, tuple[Receiver, Reset | None]]


def take_push(
    reply: Any,
    receivers: Receivers,
    confirming: dict[bytes, asyncio.Future[None]],
    sharded: bool = False,
) -> tuple[bytes, bytes] | None:
    """Handle one reply on a subscriber connection: a message goes to its channel's
    receiver, a subscription's answer settles the future awaiting it (`sharded`: the
    replies to SSUBSCRIBE). Anything else on a channel (an unsubscription) is returned as
    (kind, channel) for the caller; None once handled, or for a reply of another shape."""
    if not isinstance(reply, list) or len(reply) != 3:
        return None
    kind, name, data = reply
    if kind == (b"smessage" if sharded else b"message"):
        entry = receivers.get(name)
        if entry is not None:
            try:
                entry[0](data)
            except Exception:  # one bad message must not stop the others
                log.exception("bus receiver of %r failed", name)
    elif kind == (b"ssubscribe" if sharded else b"subscribe"):
        confirmed = confirming.get(name)
        if confirmed is not None and not confirmed.done():
            confirmed.set_result(None)
    else:
        return kind, name
    return None


class PubSubBus(Bus):
    """What RedisBus and ClusterBus share: a publish queue flushed by one task, the
    receivers, a task subscribing again after a drop, and closing them in that order."""

    _flusher: asyncio.Task[None] | None
    _resubscriber: asyncio.Task[None] | None
    _receivers: Receivers
    _closed: bool

    async def aclose(self) -> None:
        # What was published before the close still goes out.
        if self._flusher is not None:
            await self._flusher
        self._closed = True
        if self._resubscriber is not None:
            self._resubscriber.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._resubscriber
        self._receivers.clear()
        await self._release()

    async def _release(self) -> None:
        """Close the bus's connections (once nothing uses them)."""
        raise NotImplementedError


class RedisBus(PubSubBus):
    """Redis pub/sub under `prefix`, over two lean connections of its own (resp.py).

    Publishing: everything queued in one event-loop iteration goes out as one pipelined
    round trip on one connection, batches one after another, so order is kept.
    Subscribing: a connection in subscriber mode; when it drops, each subscription's
    `on_reset` is called and the bus subscribes again with growing pauses.
    Under Sentinel both connections go to the primary, and to the new one after a failover.
    """

    def __init__(self, url: str, *, prefix: str = "zk:") -> None:
        self.prefix = prefix
        where = topology.parse(url)
        self._finder: topology.PrimaryFinder | None = None
        locate = None
        if where.kind == "sentinel":
            self._finder = topology.PrimaryFinder(where)
            locate = self._finder.locate
            url = where.node_url(("sentinel", 0))
        self._publisher = RespConnection(url, locate=locate)
        self._subscriber = RespConnection(
            url, on_push=self._pushed, on_lost=self._lost, locate=locate
        )
        if self._finder is not None:
            self._finder.on_switch(self._publisher.drop)
            self._finder.on_switch(self._subscriber.drop)
        self._queue: list[_Queued] = []
        self._flusher: asyncio.Task[None] | None = None
        self._receivers: Receivers = {}
        self._confirming: dict[bytes, asyncio.Future[None]] = {}
        self._resubscriber: asyncio.Task[None] | None = None
        self._closed = False

    def _channel(self, channel: str) -> bytes:
        return (self.prefix + channel).encode()

    # -- publishing ------------------------------------------------------------------
    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        if self._closed:
            return settled(0)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._queue.append((self.prefix + channel, data, future))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush_all())
        return future

    async def _flush_all(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                commands: list[Command] = [("PUBLISH", ch, data) for ch, data, _ in batch]
                try:
                    replies = await self._publisher.execute(commands)
                except Exception as exc:
                    replies = [exc] * len(batch)
                for (*_, future), reply in zip(batch, replies, strict=True):
                    if future.done():
                        continue
                    if isinstance(reply, Exception):
                        future.set_exception(reply)
                        future.exception()  # a caller that does not await it is fine
                    else:
                        future.set_result(int(reply))
        finally:
            self._flusher = None

    # -- subscribing -----------------------------------------------------------------
    async def subscribe(
        self, channel: str, receiver: Receiver, on_reset: Reset | None = None
    ) -> None:
        name = self._channel(channel)
        self._receivers[name] = (receiver, on_reset)
        confirmed = asyncio.get_running_loop().create_future()
        self._confirming[name] = confirmed
        try:
            await self._subscriber.send([("SUBSCRIBE", name)])
            await confirmed
        finally:
            self._confirming.pop(name, None)

    async def unsubscribe(self, channel: str) -> None:
        name = self._channel(channel)
        if self._receivers.pop(name, None) is not None and not self._closed:
            with contextlib.suppress(RedisConnectionError):
                await self._subscriber.send([("UNSUBSCRIBE", name)])

    def _pushed(self, reply: Any) -> None:
        """A reply on the subscriber connection: a message, or a (un)subscribe answer."""
        take_push(reply, self._receivers, self._confirming)

    def _lost(self, exc: Exception | None) -> None:
        if self._closed or self._resubscriber is not None:
            return
        for confirmed in self._confirming.values():
            if not confirmed.done():
                confirmed.set_exception(RedisConnectionError(f"Redis connection lost: {exc}"))
        for _, on_reset in list(self._receivers.values()):
            if on_reset is not None:
                on_reset()
        self._resubscriber = asyncio.get_running_loop().create_task(self._resubscribe())

    async def _resubscribe(self) -> None:
        """Subscribe every channel again, pausing longer after each failed attempt."""
        attempt = 0
        try:
            while not self._closed:
                await asyncio.sleep(RESUBSCRIBE_DELAYS[min(attempt, len(RESUBSCRIBE_DELAYS) - 1)])
                attempt += 1
                if not self._receivers:
                    return
                try:
                    await self._subscriber.send([("SUBSCRIBE", *self._receivers)])
                except (RedisConnectionError, OSError) as exc:
                    log.warning("bus: cannot subscribe again yet: %s", exc)
                    continue
                log.info("bus: subscribed again after a lost connection")
                return
        finally:
            self._resubscriber = None

    # -- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        if self._finder is not None:
            self._finder.watch()

    async def _release(self) -> None:
        await self._subscriber.aclose()
        await self._publisher.aclose()
        if self._finder is not None:
            await self._finder.aclose()
