"""Redis Cluster drills: rooms spread over three shards, each room on one; the store and
the bus following a stale slot map (MOVED) and a migrating slot (ASK); each shard's saves
waiting for that shard's replica; a shard's primary killed under load with two real
server processes. The store, bus, relay and two-process tests also run on the session's
cluster (their `[cluster]` cases); the drills here that stop a node or move a slot start
a cluster of their own, so that nothing they do reaches another test.
"""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot
from redis.exceptions import RedisError

from server.store import topology
from server.store.cluster import ShardedSaves, SlotMap, slot_of
from server.store.cluster_bus import ClusterBus
from server.store.redis_store import RedisStore
from server.store.store import StoreError
from tests.ha.drill import Load, bounded, two_servers
from tests.ha.topologies import ClusterSetup, until
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.store.helpers import until as arrives

# Rooms must answer again this soon after a primary dies: a bound that catches "never
# recovers", not a timing promise (the figure is printed).
RECOVERY_BOUND_S = 60.0
ROOMS = 6


def test_a_cluster_address_is_read_and_a_database_refused() -> None:
    where = topology.parse("redis+cluster://:secret@10.0.0.1:7000,10.0.0.2/")
    assert where.kind == "cluster"
    assert where.nodes == (("10.0.0.1", 7000), ("10.0.0.2", 6379))
    assert where.password == "secret"
    assert topology.parse("redis+cluster://h:1/0").nodes == (("h", 1),)
    with pytest.raises(topology.BadRedisUrl, match="database 0 only"):
        topology.parse("redis+cluster://h:1/3")


def primaries(url: str) -> dict[int, redis.Redis]:
    """A client of each primary of the cluster at `url`, by port."""
    seed = topology.parse(url).nodes[0]
    with redis.Redis(host=seed[0], port=seed[1]) as client:
        slots = client.execute_command("CLUSTER", "SLOTS")
    return {int(s[2][1]): redis.Redis(port=int(s[2][1])) for s in slots}


def holder(url: str, slot: int) -> int:
    """The port of the primary that serves `slot` now."""
    seed = topology.parse(url).nodes[0]
    with redis.Redis(host=seed[0], port=seed[1]) as client:
        slots = client.execute_command("CLUSTER", "SLOTS")
    return next(int(s[2][1]) for s in slots if s[0] <= slot <= s[1])


def tag_of(key: bytes) -> str:
    return key[key.index(b"{") + 1 : key.index(b"}")].decode()


@pytest.fixture
async def store(cluster_url: str) -> AsyncIterator[RedisStore]:
    made = RedisStore(cluster_url, prefix=f"t{uuid.uuid4().hex[:12]}:", durability="replica")
    await made.start()
    yield made
    await made.aclose()


async def test_rooms_spread_over_the_shards_and_each_room_stays_on_one(
    store: RedisStore, cluster_url: str
) -> None:
    codes = [f"SP{i:02d}" for i in range(24)]
    for code in codes:
        await store.create(code, b"v1")
        await store.save(code, 2, b"v2", [{"n": 1}])
        await store.add_chat(code, {"t": "hi"}, 10)
        assert await store.acquire_lease(code, "me", 60_000)
        await store.set_public(code, {"code": code})
    assert [r["code"] for r in await store.public_rooms()] == codes
    assert await store.renew_leases([*codes, "NOPE"], "me", 60_000) == ["NOPE"]
    # Every primary holds some rooms; all of a room's keys are on one primary.
    shards: dict[str, set[int]] = {}
    nodes = primaries(cluster_url)
    for port, client in nodes.items():
        keys = [k for k in client.scan_iter(match=f"{store.prefix}*", count=1000) if b"{" in k]
        assert keys, f"the primary on {port} holds no room"
        for key in keys:
            shards.setdefault(tag_of(key), set()).add(port)
        client.close()
    assert sorted(shards) == codes
    assert all(len(ports) == 1 for ports in shards.values()), shards
    # The saves went out one batch per primary: a lean connection to each.
    assert isinstance(store._saves, ShardedSaves) and len(store._saves.nodes) == len(nodes)


async def test_a_stale_slot_map_is_followed_by_the_saves_and_the_bus(
    store: RedisStore, cluster_url: str
) -> None:
    await store.create("ST", b"v1")
    saves = store._saves
    assert isinstance(saves, ShardedSaves)
    slot = slot_of(store.prefix, "ST")
    right = saves.slots.owners[slot]
    wrong = next(a for a in saves.slots.primaries() if a != right)
    saves.slots.owners = [wrong] * len(saves.slots.owners)  # as if every slot had moved
    await store.save("ST", 2, b"v2", [{"n": 2}])  # MOVED, followed
    assert saves.slots.owners[slot] == right
    loaded = await store.load("ST")
    assert loaded is not None and (loaded.version, loaded.blob) == (2, b"v2")
    # The bus too: a subscription and messages sent by a bus whose map is wrong.
    bus, sender = (ClusterBus(cluster_url, prefix=store.prefix) for _ in range(2))
    got: list[bytes] = []
    try:
        for made in (bus, sender):
            await made.start()
            made.slots.owners = [wrong] * len(made.slots.owners)
        await bus.subscribe("inbox:{ST}", got.append)
        assert [await sender.publish("inbox:{ST}", b"%d" % i) for i in range(3)] == [1, 1, 1]
        await arrives(lambda: len(got) == 3)
        assert got == [b"0", b"1", b"2"]
    finally:
        await bus.aclose()
        await sender.aclose()


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[ClusterSetup]:
    """A cluster of this test's own (three primaries, a replica each), stopped at the end
    however the test ends: it may stop nodes and move slots."""
    setup = ClusterSetup(tmp_path / "cluster")
    setup.start()
    try:
        yield setup
    finally:
        setup.stop()


def node_id(client: redis.Redis) -> str:
    return str(client.execute_command("CLUSTER", "MYID").decode())


async def test_a_migrating_slot_is_followed_with_asking_then_moved(
    own_cluster: ClusterSetup,
) -> None:
    store = RedisStore(own_cluster.url, prefix="m:")
    await store.start()
    try:
        await store.create("MG", b"v1")
        # (With a log: both keys of a save exist, so both move. A save of a slot whose
        # keys are partly moved is answered TRYAGAIN until the move is done.)
        await store.save("MG", 2, b"v2", [{"n": 2}])
        slot = slot_of("m:", "MG")
        nodes = primaries(own_cluster.url)
        source_port = holder(own_cluster.url, slot)  # where the room is
        target_port = next(p for p in nodes if p != source_port)
        source, target = nodes[source_port], nodes[target_port]
        target.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", node_id(source))
        source.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", node_id(target))
        keys = ["m:room:{MG}", "m:log:{MG}"]
        source.execute_command("MIGRATE", "127.0.0.1", target_port, "", 0, 5000, "KEYS", *keys)
        # The source no longer has the keys: it answers ASK, the save goes to the target.
        await store.save("MG", 3, b"v3", [{"n": 3}])
        for client in nodes.values():
            client.execute_command("CLUSTER", "SETSLOT", slot, "NODE", node_id(target))
        assert target.hget("m:room:{MG}", "ver") == b"3"
        # The slot is the target's now: the source answers MOVED, and the map follows.
        await store.save("MG", 4, b"v4")
        assert target.hget("m:room:{MG}", "ver") == b"4"
        assert isinstance(store._saves, ShardedSaves)
        assert store._saves.slots.owners[slot] == ("127.0.0.1", target_port)
        loaded = await store.load("MG")
        assert loaded is not None and loaded.version == 4
        assert len(await store.read_log("MG")) == 2
    finally:
        await store.aclose()
        for client in nodes.values():
            client.close()


async def test_each_shard_waits_for_its_own_replica(own_cluster: ClusterSetup) -> None:
    # 3 s for a replica's answer: a fresh cluster's replica on a loaded machine took more
    # than 300 ms to acknowledge the first writes once (the stopped one takes all 3 s).
    store = RedisStore(own_cluster.url, prefix="w:", durability="replica", wait_timeout_ms=3000)
    await store.start()
    nodes = primaries(own_cluster.url)
    try:
        # A room on each shard.
        by_port: dict[int, str] = {}
        for i in range(200):
            by_port.setdefault(holder(own_cluster.url, slot_of("w:", f"W{i}")), f"W{i}")
            if len(by_port) == len(nodes):
                break
        assert len(by_port) == len(nodes)
        for code in by_port.values():
            await store.create(code, b"v1")
        # One shard's replica stops: that shard's saves are not acknowledged, the others are.
        stalled_port = sorted(by_port)[0]
        replica = own_cluster.replica_of(stalled_port)
        own_cluster.procs[replica].send_signal(signal.SIGSTOP)
        try:
            outcomes = await asyncio.gather(
                *(store.save(code, 2, b"v2") for code in by_port.values()),
                return_exceptions=True,
            )
        finally:
            own_cluster.procs[replica].send_signal(signal.SIGCONT)
        failed = {
            port for port, outcome in zip(by_port, outcomes, strict=True) if outcome is not None
        }
        assert failed == {stalled_port}, outcomes
        assert all(isinstance(o, StoreError) for o in outcomes if o is not None), outcomes
    finally:
        await store.aclose()
        for client in nodes.values():
            client.close()


async def test_a_cluster_that_names_its_nodes_by_host_name_is_followed(tmp_path: Path) -> None:
    # As deploy/README's compose set-up runs it: the slot map names hosts, not addresses.
    named = ("--cluster-announce-hostname", "localhost")
    setup = ClusterSetup(
        tmp_path, replicas=0, extra=(*named, "--cluster-preferred-endpoint-type", "hostname")
    )
    setup.start()
    store = RedisStore(setup.url, prefix="h:")
    bus = ClusterBus(setup.url, prefix="h:")
    try:
        await store.start()
        await bus.start()
        assert isinstance(store._saves, ShardedSaves)
        assert {host for host, _ in store._saves.slots.primaries()} == {"localhost"}
        for code in ("HA", "HB", "HC", "HD"):
            await store.create(code, b"v1")
            await store.save(code, 2, b"v2", [{"n": 2}])
        got: list[bytes] = []
        await bus.subscribe("inbox", got.append)
        assert await bus.publish("inbox", b"hi") == 1
        await arrives_within(lambda: got == [b"hi"], 5)
    finally:
        await bus.aclose()
        await store.aclose()
        setup.stop()


async def test_a_node_that_never_answers_does_not_hold_up_the_slot_map(tmp_path: Path) -> None:
    setup = ClusterSetup(tmp_path, replicas=0)
    setup.start()
    stopped = setup.procs[setup.ports[0]]  # the first seed: asked first
    try:
        stopped.send_signal(signal.SIGSTOP)  # connections open, nothing answered
        slots = SlotMap(topology.parse(setup.url))
        async with bounded("learning the slot map", 10):
            await slots.refresh()
        assert len(slots.primaries()) == 3 and None not in slots.owners
    finally:
        stopped.send_signal(signal.SIGCONT)
        setup.stop()


async def test_a_shard_that_stays_down_leaves_the_other_shards_leases_renewed(
    tmp_path: Path,
) -> None:
    setup = ClusterSetup(tmp_path, replicas=0)  # nothing to take the lost shard over
    setup.start()
    store = RedisStore(setup.url, prefix="d:")
    try:
        await store.start()
        codes = [f"D{i}" for i in range(12)]
        for code in codes:
            assert await store.acquire_lease(code, "me", 60_000)
        shard_of = {code: holder(setup.url, slot_of("d:", code)) for code in codes}
        dead = shard_of[codes[0]]
        setup.kill(dead)
        assert await store.renew_leases(codes, "me", 600_000) == []  # no lease taken for lost
        for code in (c for c in codes if shard_of[c] != dead):
            with redis.Redis(port=shard_of[code]) as client:
                assert client.pttl(f"d:lease:{{{code}}}") > 60_000, code
    finally:
        await store.aclose()
        setup.stop()


async def test_readiness_leases_and_the_bus_follow_a_shards_failover(
    own_cluster: ClusterSetup,
) -> None:
    prefix = "b:"
    bus, sender = (ClusterBus(own_cluster.url, prefix=prefix) for _ in range(2))
    store = RedisStore(own_cluster.url, prefix=prefix)
    got: list[bytes] = []
    resets: list[int] = []
    try:
        for made in (bus, sender, store):
            await made.start()
        assert await store.ping()
        codes = [f"L{i}" for i in range(12)]
        for code in codes:
            assert await store.acquire_lease(code, "me", 60_000)
        shard_of = {code: holder(own_cluster.url, slot_of(prefix, code)) for code in codes}
        await bus.subscribe("inbox", got.append, on_reset=lambda: resets.append(1))
        assert await sender.publish("inbox", b"before") == 1
        dead = holder(own_cluster.url, key_slot(b"b:inbox"))
        own_cluster.kill(dead)
        assert not await store.ping()  # not ready while a shard has no primary
        # The other shards' leases are renewed; none is taken for lost.
        assert await store.renew_leases(codes, "me", 600_000) == []
        alive = [c for c in codes if shard_of[c] != dead]
        assert alive and len(alive) < len(codes)
        with redis.Redis(port=shard_of[alive[0]]) as client:
            assert client.pttl(f"{prefix}lease:{{{alive[0]}}}") > 60_000
        await arrives_within(lambda: resets == [1], 10)

        def promoted() -> bool:
            return len(own_cluster.primary_ports()) == own_cluster.primaries

        await asyncio.to_thread(until, promoted, 30, "a replica taking over")
        # Subscribed again by itself on the new primary: a new message gets through.
        deadline = time.monotonic() + 30
        while await settle(sender.publish("inbox", b"after")) != 1:
            assert time.monotonic() < deadline, "never subscribed again"
            await asyncio.sleep(0.1)
        await arrives_within(lambda: got[-1:] == [b"after"], 5)
        assert got[0] == b"before" and resets == [1]
        deadline = time.monotonic() + 30
        while not await store.ping():  # ready again once the replica took over
            assert time.monotonic() < deadline, "never ready again"
            await asyncio.sleep(0.1)
    finally:
        await bus.aclose()
        await sender.aclose()
        await store.aclose()


async def settle(count: asyncio.Future[int]) -> int:
    """How many received a message; 0 while publishing fails (no primary yet)."""
    try:
        return await count
    except (RedisError, OSError):
        return 0


async def arrives_within(check: Callable[[], bool], seconds: float) -> None:
    """Wait until `check()`; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never came true"
        await asyncio.sleep(0.02)


def longest_wait(stamps: list[list[float]], since: float, which: list[int]) -> float:
    """The longest time the connections `which` went without an acknowledged move, from
    a second before `since` on (0 for none)."""
    gaps = [0.0]
    for i in which:
        times = [t for t in stamps[i] if t > since - 1.0]
        gaps += [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    return max(gaps)


@pytest.fixture
def servers(
    own_cluster: ClusterSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    with two_servers(own_cluster.url, tmp_path, monkeypatch) as both:
        yield both


async def test_killing_a_shards_primary_under_load_loses_no_acknowledged_move(
    own_cluster: ClusterSetup, servers: tuple[ServerProcess, ServerProcess]
) -> None:
    a, b = servers
    load = Load()
    await load.start(servers, ROOMS)
    # The primary to kill: the one holding the first room.
    dead = holder(own_cluster.url, slot_of("zk:", load.rooms[0][0]))
    on_dead = [c for c, _ in load.rooms if holder(own_cluster.url, slot_of("zk:", c)) == dead]
    # (Two connections per room, in the rooms' order.)
    dead_conns = [i for i in range(len(load.conns)) if load.rooms[i // 2][0] in on_dead]
    other_conns = [i for i in range(len(load.conns)) if i not in dead_conns]
    try:
        await load.every_room_plays()
        await asyncio.sleep(1.0)
        # The replica falls behind (stopped, its link cut: the primary sends it nothing
        # more), then the primary dies and the replica goes on: what only the primary had
        # is lost with it, so it must not have been acknowledged.
        replica = own_cluster.replica_of(dead)
        own_cluster.procs[replica].send_signal(signal.SIGSTOP)
        with own_cluster.client(dead) as client:
            client.execute_command("CLIENT", "KILL", "TYPE", "replica")
        await asyncio.sleep(0.5)
        killed_at = time.monotonic()
        own_cluster.kill(dead)
        own_cluster.procs[replica].send_signal(signal.SIGCONT)

        def promoted() -> bool:
            now = own_cluster.primary_ports()
            return dead not in now and len(now) == own_cluster.primaries

        await asyncio.to_thread(until, promoted, 30, "a replica taking over")
        failover_s = time.monotonic() - killed_at
        own_cluster.restart(dead)  # it rejoins as a replica of the new primary
        back_all = await load.all_back(killed_at, RECOVERY_BOUND_S)
        assert back_all, f"rooms never answered again: {a.output()}\n{b.output()}"
        await asyncio.sleep(1.0)  # moves on after the failover
    finally:
        await load.stop()
    print(
        f"\ncluster drill: a replica took over {failover_s:.2f} s after kill -9 of the primary "
        f"holding {len(on_dead)} of {ROOMS} rooms; their longest wait for a move "
        f"{longest_wait(load.stamps, killed_at, dead_conns):.2f} s, the other rooms' "
        f"{longest_wait(load.stamps, killed_at, other_conns):.2f} s; "
        f"{load.moves()} moves acknowledged, {len(load.refused)} refused or unanswered "
        f"({sorted(set(load.refused))})"
    )
    lost = await load.lost(own_cluster.url)
    print(f"cluster drill: {lost} acknowledged moves lost")
    assert lost == 0
    assert a.alive() and b.alive()
    for server in servers:
        assert server.stop() in CLEAN_EXIT, server.output()
