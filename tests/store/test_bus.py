"""The Bus contract, run against Redis pub/sub, sharded pub/sub on a Redis Cluster and the
in-process bus alike."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from server.store.bus import Bus, MemoryBus, RedisBus
from server.store.cluster_bus import ClusterBus
from tests.store.helpers import cut_subscriber, until


class Buses:
    """Makes buses of one kind; Redis buses of one test share a fresh channel prefix."""

    def __init__(self, kind: str, redis_url: str) -> None:
        self.kind = kind
        self.redis_url = redis_url
        self.prefix = f"t{uuid.uuid4().hex[:12]}:"
        self.made: list[Bus] = []

    async def make(self) -> Bus:
        """Another process's bus (the in-process kind has one bus for everyone)."""
        if self.kind == "memory":
            if not self.made:
                self.made.append(MemoryBus())
            return self.made[0]
        bus: Bus
        if self.kind == "cluster":
            bus = ClusterBus(self.redis_url, prefix=self.prefix)
        else:
            bus = RedisBus(self.redis_url, prefix=self.prefix)
        await bus.start()
        self.made.append(bus)
        return bus


@pytest.fixture(params=["memory", "redis", "cluster"])
async def buses(request: pytest.FixtureRequest) -> AsyncIterator[Buses]:
    url = "" if request.param == "memory" else request.getfixturevalue(f"{request.param}_url")
    made = Buses(request.param, url)
    yield made
    for bus in made.made:
        await bus.aclose()


async def test_a_message_nobody_listens_to_reaches_no_one(buses: Buses) -> None:
    bus = await buses.make()
    assert await bus.publish("nobody", b"x") == 0


async def test_messages_reach_the_subscriber_of_another_bus_in_order(buses: Buses) -> None:
    sender, receiver = await buses.make(), await buses.make()
    got: list[bytes] = []
    await receiver.subscribe("inbox", got.append)
    sent = [bytes([i % 256]) * (i % 7) + str(i).encode() for i in range(300)]
    counts = [sender.publish("inbox", data) for data in sent]  # queued without awaiting
    assert [await count for count in counts] == [1] * len(sent)
    await until(lambda: len(got) == len(sent))
    assert got == sent


async def test_each_channel_reaches_only_its_own_subscriber(buses: Buses) -> None:
    bus = await buses.make()
    a: list[bytes] = []
    b: list[bytes] = []
    await bus.subscribe("a", a.append)
    await bus.subscribe("b", b.append)
    assert await bus.publish("a", b"for a") == 1
    assert await bus.publish("b", b"for b") == 1
    await until(lambda: bool(a and b))
    assert (a, b) == ([b"for a"], [b"for b"])


async def test_an_unsubscribed_channel_receives_nothing_more(buses: Buses) -> None:
    bus = await buses.make()
    got: list[bytes] = []
    await bus.subscribe("inbox", got.append)
    await bus.unsubscribe("inbox")
    for _ in range(1000):  # Redis takes the unsubscription in its own time
        if await bus.publish("inbox", b"late") == 0:
            break
        await asyncio.sleep(0.005)
    else:
        raise AssertionError("still subscribed")
    await asyncio.sleep(0.02)
    assert got == []


async def test_a_closed_bus_sends_nothing(buses: Buses) -> None:
    bus = await buses.make()
    await bus.subscribe("inbox", lambda data: None)
    await bus.aclose()
    assert await bus.publish("inbox", b"x") == 0


async def test_a_broken_subscriber_connection_is_reported_and_restored(redis_url: str) -> None:
    prefix = f"t{uuid.uuid4().hex[:12]}:"
    bus, sender = RedisBus(redis_url, prefix=prefix), RedisBus(redis_url, prefix=prefix)
    resets: list[int] = []
    got: list[bytes] = []
    try:
        await bus.subscribe("inbox", got.append, on_reset=lambda: resets.append(1))
        await cut_subscriber(bus, redis_url)
        await until(lambda: resets == [1])
        # Subscribed again by itself: a new message gets through.
        for _ in range(1000):
            if await sender.publish("inbox", b"again") == 1:
                break
            await asyncio.sleep(0.005)
        await until(lambda: got == [b"again"])
    finally:
        await bus.aclose()
        await sender.aclose()
