"""The Store contract, run against Redis and memory alike."""

from __future__ import annotations

import asyncio

import pytest

from server.store.store import IDLE_TTL_MS, RoomExists, StaleVersion, Store
from tests.store.conftest import Backend


async def test_created_room_loads_at_version_one(store: Store) -> None:
    await store.create("ABC234", b"blob-1")
    loaded = await store.load("ABC234")
    assert loaded is not None and (loaded.version, loaded.blob) == (1, b"blob-1")


async def test_creating_a_taken_code_is_refused(store: Store) -> None:
    await store.create("ABC234", b"x")
    with pytest.raises(RoomExists):
        await store.create("ABC234", b"y")


async def test_missing_room_loads_as_none(store: Store) -> None:
    assert await store.load("NOSUCH") is None


async def test_save_replaces_the_blob_and_appends_the_log(store: Store) -> None:
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2", [{"k": "m", "s": 0}])
    await store.save("R", 3, b"v3", [{"k": "m", "s": 1}, {"k": "x", "t": 5}])
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob) == (3, b"v3")
    assert await store.read_log("R") == [{"k": "m", "s": 0}, {"k": "m", "s": 1}, {"k": "x", "t": 5}]
    assert await store.log_length("R") == 3 and await store.log_length("nothing") == 0
    await store.trim_log("R", 2)
    assert await store.read_log("R") == [{"k": "m", "s": 1}, {"k": "x", "t": 5}]
    await store.trim_log("R", 5)
    assert await store.log_length("R") == 2


async def test_deltas_follow_the_blob_in_order_until_the_next_full_save(store: Store) -> None:
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2", [{"n": 1}])
    for version in range(3, 14):  # past 9: in version order, not in the fields' text order
        await store.save("R", version, b"d%d" % version, [{"n": version}], delta=True)
    with pytest.raises(StaleVersion):
        await store.save("R", 13, b"late", delta=True)
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob) == (13, b"v2")
    assert loaded.deltas == tuple(b"d%d" % v for v in range(3, 14))
    assert len(await store.read_log("R")) == 12
    await store.save("R", 14, b"v14")
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob, loaded.deltas) == (14, b"v14", ())
    await store.save("R", 15, b"d15", delta=True)
    loaded = await store.load("R")
    assert loaded is not None and (loaded.blob, loaded.deltas) == (b"v14", (b"d15",))


async def test_stale_version_save_is_refused_and_changes_nothing(store: Store) -> None:
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2", [{"n": 1}])
    with pytest.raises(StaleVersion):
        await store.save("R", 2, b"other", [{"n": 2}])
    loaded = await store.load("R")
    assert loaded is not None and (loaded.version, loaded.blob) == (2, b"v2")
    assert await store.read_log("R") == [{"n": 1}]


async def test_save_to_a_missing_room_is_refused(store: Store) -> None:
    with pytest.raises(StaleVersion):
        await store.save("GONE", 2, b"x")


async def test_racing_saves_of_one_version_let_exactly_one_win(store: Store) -> None:
    await store.create("R", b"v1")
    results = await asyncio.gather(
        store.save("R", 2, b"a"), store.save("R", 2, b"b"), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleVersion"]


async def test_concurrent_saves_of_many_rooms_all_land(store: Store) -> None:
    codes = [f"R{i}" for i in range(60)]
    for code in codes:
        await store.create(code, b"v1")
    await asyncio.gather(*(store.save(c, 2, c.encode(), [{"c": c}]) for c in codes))
    for code in codes:
        loaded = await store.load(code)
        assert loaded is not None and (loaded.version, loaded.blob) == (2, code.encode())
        assert await store.read_log(code) == [{"c": code}]


async def test_a_saved_room_expires_after_the_idle_time(store: Store) -> None:
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2")
    left = await store.expires_in_ms("R")
    assert left is not None and IDLE_TTL_MS - 60_000 < left <= IDLE_TTL_MS


async def test_an_idle_room_is_gone_once_its_time_passes(backend: Backend) -> None:
    # Long enough for a create and a save that each wait for a replica on a busy machine.
    store = await backend.make(idle_ttl_ms=300)
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2", [{"n": 1}])
    await backend.pass_time(700)
    assert await store.load("R") is None
    assert await store.read_log("R") == []


async def test_public_list_shows_listed_rooms_until_unlisted(store: Store) -> None:
    await store.create("AAA", b"x")
    await store.create("BBB", b"x")
    await store.set_public("BBB", {"code": "BBB"})
    await store.set_public("AAA", {"code": "AAA"})
    assert await store.public_rooms() == [{"code": "AAA"}, {"code": "BBB"}]
    await store.set_public("AAA", None)
    assert await store.public_rooms() == [{"code": "BBB"}]


async def test_public_list_drops_rooms_that_no_longer_exist(store: Store) -> None:
    await store.create("AAA", b"x")
    await store.set_public("AAA", {"code": "AAA"})
    await store.delete("AAA")
    assert await store.public_rooms() == []


async def test_due_rooms_are_claimed_earliest_first_a_batch_at_a_time(store: Store) -> None:
    await store.set_due("LATE", 5_000)
    for n, code in enumerate(["CCC", "AAA", "BBB"]):
        await store.set_due(code, 1_000 + n)
    assert await store.claim_due(999, 10, 60_000) == []  # none due yet
    assert await store.claim_due(4_000, 2, 60_000) == ["CCC", "AAA"]
    # Claimed rooms are put off: the next sweep takes the rest, then nothing.
    assert await store.claim_due(4_000, 2, 60_000) == ["BBB"]
    assert await store.claim_due(4_000, 10, 60_000) == []
    assert await store.claim_due(10_000, 10, 60_000) == ["LATE"]
    # Their put-off passed, the claimed rooms are due again, unless a room set its time.
    await store.set_due("AAA", 200_000)
    await store.set_due("BBB", None)
    assert await store.claim_due(64_000, 10, 60_000) == ["CCC"]


async def test_a_deleted_room_leaves_the_due_index(store: Store) -> None:
    await store.create("AAA", b"x")
    await store.set_due("AAA", 1_000)
    await store.delete("AAA")
    assert await store.claim_due(2_000, 10, 0) == []


async def test_a_lease_is_held_by_one_owner_at_a_time(store: Store) -> None:
    assert await store.acquire_lease("R", "one", 10_000)
    assert not await store.acquire_lease("R", "two", 10_000)
    assert await store.acquire_lease("R", "one", 10_000)
    await store.release_lease("R", "two")
    assert not await store.acquire_lease("R", "two", 10_000)
    await store.release_lease("R", "one")
    assert await store.acquire_lease("R", "two", 10_000)


async def test_renewing_reports_the_leases_lost(store: Store) -> None:
    assert await store.acquire_lease("A", "me", 10_000)
    assert await store.acquire_lease("B", "other", 10_000)
    assert await store.renew_leases(["A", "B", "C"], "me", 10_000) == ["B", "C"]


async def test_a_lapsed_lease_can_be_taken_by_another_owner(backend: Backend) -> None:
    store = await backend.make()
    assert await store.acquire_lease("R", "one", 40)
    await backend.pass_time(120)
    assert await store.acquire_lease("R", "two", 10_000)


async def test_delete_removes_room_and_log(store: Store) -> None:
    await store.create("R", b"v1")
    await store.save("R", 2, b"v2", [{"n": 1}])
    await store.delete("R")
    assert await store.load("R") is None and await store.read_log("R") == []


async def test_store_answers_ping(store: Store) -> None:
    assert await store.ping()


async def test_the_lease_holder_is_whoever_took_the_lease_until_it_lapses(
    backend: Backend,
) -> None:
    store = await backend.make()
    assert await store.lease_holder("R") is None
    assert await store.acquire_lease("R", "one", 40)
    assert await store.lease_holder("R") == "one"
    await backend.pass_time(120)
    assert await store.lease_holder("R") is None
    assert await store.acquire_lease("R", "two", 10_000)
    assert await store.lease_holder("R") == "two"
    await store.release_lease("R", "two")
    assert await store.lease_holder("R") is None


async def test_the_chat_keeps_its_last_messages_until_the_room_goes(store: Store) -> None:
    await store.create("R", b"v1")
    for n in range(7):
        await store.add_chat("R", {"text": f"m{n}"}, keep=5)
    assert [e["text"] for e in await store.chat("R")] == ["m2", "m3", "m4", "m5", "m6"]
    await store.delete("R")
    assert await store.chat("R") == []


async def test_a_code_created_afresh_starts_with_no_chat(backend: Backend) -> None:
    store = await backend.make(idle_ttl_ms=300)
    await store.create("R", b"v1")
    await backend.pass_time(200)
    await store.add_chat("R", {"text": "from the old room"}, keep=5)
    await backend.pass_time(150)  # the room has expired; its last message lives on in Redis
    assert await store.load("R") is None
    await store.create("R", b"new")
    assert await store.chat("R") == []


async def test_reviews_are_kept_with_their_room_and_go_with_it(store: Store) -> None:
    await store.create("R", b"v1")
    await store.save_review("R", "1:7:v1", {"marks": [{"step": 3}]})
    assert await store.review("R", "1:7:v1") == {"marks": [{"step": 3}]}
    assert await store.review("R", "2:7:v1") is None
    await store.save_review("GONE", "1:7:v1", {"marks": []})  # no room: nothing kept
    assert await store.review("GONE", "1:7:v1") is None
    await store.delete("R")
    assert await store.review("R", "1:7:v1") is None


async def test_the_push_key_is_the_first_one_stored_for_every_process(backend: Backend) -> None:
    first, second = await backend.make(), await backend.make()
    assert await first.push_key(b"key-a") == b"key-a"
    assert await second.push_key(b"key-b") == b"key-a"
    assert await first.push_key(b"key-c") == b"key-a"


async def test_push_subscriptions_are_kept_replaced_dropped_and_go_with_the_room(
    store: Store,
) -> None:
    await store.create("R", b"v1")
    assert await store.push_subscriptions("R") == {}
    await store.add_push("R", "1:aa", {"seat": 1, "endpoint": "https://a"})
    await store.add_push("R", "2:bb", {"seat": 2, "endpoint": "https://b"})
    await store.add_push("R", "1:aa", {"seat": 1, "endpoint": "https://a2"})
    assert await store.push_subscriptions("R") == {
        "1:aa": {"seat": 1, "endpoint": "https://a2"},
        "2:bb": {"seat": 2, "endpoint": "https://b"},
    }
    await store.drop_push("R", ["1:aa", "9:zz"])
    assert list(await store.push_subscriptions("R")) == ["2:bb"]
    await store.delete("R")
    assert await store.push_subscriptions("R") == {}
