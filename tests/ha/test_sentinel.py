"""Sentinel drills: a primary, a replica and three sentinels (started once for the module);
the store and two real server processes on them; the primary killed under load.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis

from server.store.redis_store import RedisStore
from server.store.store import StaleVersion, StoreError
from tests.ha.drill import Load, two_servers
from tests.ha.topologies import SERVICE, SentinelSetup, until
from tests.net.conftest import CLEAN_EXIT, ServerProcess

# Rooms must answer again this soon after the primary dies: a bound that catches "never
# recovers", not a timing promise (the figure is printed).
RECOVERY_BOUND_S = 60.0
ROOMS = 4


@pytest.fixture(scope="module")
def sentinels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SentinelSetup]:
    setup = SentinelSetup(tmp_path_factory.mktemp("sentinel"))
    try:
        setup.start()
        yield setup
    finally:
        setup.stop()


@pytest.fixture
async def store(sentinels: SentinelSetup) -> AsyncIterator[RedisStore]:
    made = RedisStore(sentinels.url, prefix=f"t{time.monotonic_ns()}:")
    await made.start()
    yield made
    await made.aclose()


async def test_the_store_finds_the_primary_and_waits_for_the_replica(
    store: RedisStore, sentinels: SentinelSetup
) -> None:
    assert store.durability == "replica"  # the default under Sentinel
    assert await store.ping()
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2", [{"n": 1}])
    # Acknowledged once the replica had it: it is there now, not eventually.
    replica = next(p for p in sentinels.ports if p != sentinels.primary_port())
    with redis.Redis(port=replica) as client:
        key = f"{store.prefix}room:{{R}}"
        assert client.hget(key, "ver") == b"2"


async def test_a_save_no_replica_confirms_is_not_acknowledged(
    store: RedisStore, sentinels: SentinelSetup
) -> None:
    await store.create("W", b"v1")
    sentinels.link.freeze()  # the replica hears nothing more from the primary
    try:
        with pytest.raises(StoreError):
            await store.save("W", 2, b"v2")
    finally:
        sentinels.link.cut()
    sentinels.wait_settled()


@pytest.fixture
def servers(
    sentinels: SentinelSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    with two_servers(sentinels.url, tmp_path, monkeypatch) as both:
        yield both


async def test_killing_the_primary_under_load_loses_no_acknowledged_move(
    sentinels: SentinelSetup, servers: tuple[ServerProcess, ServerProcess]
) -> None:
    a, b = servers
    load = Load()
    await load.start(servers, ROOMS)
    try:
        await load.every_room_plays()
        await asyncio.sleep(1.0)
        # The replica falls behind (its link frozen), then the primary dies: what only
        # the primary had is lost with it, so it must not have been acknowledged.
        sentinels.link.freeze()
        await asyncio.sleep(0.5)
        killed_at = time.monotonic()
        dead = sentinels.kill_primary()
        sentinels.link.cut()
        # Started again once the sentinels have replaced it, as a replica of the new
        # primary, as a supervisor does (a Helm chart's start script asks the sentinels).
        # Never sooner without persistence: an empty primary back before the failover
        # would be taken for the primary, as Redis's documentation warns.
        await asyncio.to_thread(until, lambda: sentinels.primary_port() != dead, 30, "a failover")
        failover_s = time.monotonic() - killed_at
        sentinels.restart(dead, replica_of=sentinels.primary_port())
        back_all = await load.all_back(killed_at, RECOVERY_BOUND_S)
        back = [
            next(t for t in s if t > killed_at) - killed_at
            for s in load.stamps
            if s[-1] > killed_at
        ]
        assert back_all, f"rooms never answered again: {a.output()}\n{b.output()}"
        await asyncio.sleep(1.0)  # moves on after the failover
    finally:
        await load.stop()
    print(
        f"\nsentinel drill: new primary named {failover_s:.2f} s and rooms answered again "
        f"{min(back):.2f}-{max(back):.2f} s after kill -9 of the primary; "
        f"{load.moves()} moves acknowledged, "
        f"{len(load.refused)} refused or unanswered ({sorted(set(load.refused))})"
    )
    # Every acknowledged move is in its room's move log, in the order acknowledged.
    lost = await load.lost(sentinels.url)
    print(f"sentinel drill: {lost} acknowledged moves lost")
    assert lost == 0
    assert a.alive() and b.alive()
    for server in servers:
        assert server.stop() in CLEAN_EXIT, server.output()
    sentinels.wait_settled()


async def save_until_landed(store: RedisStore, code: str, version: int, blob: bytes) -> None:
    """Save as a room does after a failed save: again, until it lands (bounded).

    A minute: on a loaded machine a failover can overrun the sentinels' failover-timeout
    (5 s) and be tried again 10 s later; meanwhile they may name a server not yet primary.
    """
    deadline = time.monotonic() + 60
    while True:
        try:
            await store.save(code, version, blob)
            return
        except StaleVersion:  # an earlier try landed, unacknowledged
            return
        except StoreError:
            assert time.monotonic() < deadline, "saves never reached the new primary"
            await asyncio.sleep(0.1)


async def test_a_failover_the_sentinels_are_asked_for_is_followed(
    store: RedisStore, sentinels: SentinelSetup
) -> None:
    await store.create("F", b"v1")
    old = sentinels.primary_port()
    # A coordinated failover: the old primary lives on as a replica; however the
    # connections to it end (Redis closing them, +switch-master, a READONLY answer), the
    # saves then find the new primary.
    with sentinels.sentinel() as client:
        client.execute_command("SENTINEL", "FAILOVER", SERVICE)
    await save_until_landed(store, "F", 2, b"v2")
    await asyncio.to_thread(until, lambda: sentinels.primary_port() != old, 30, "a failover")
    await save_until_landed(store, "F", 3, b"v3")
    loaded = await store.load("F")
    assert loaded is not None and (loaded.version, loaded.blob) == (3, b"v3")
    assert await store.ping()
