"""Two processes' managers on one store and bus: B serves the clients of rooms A runs."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.rooms.actor.clock import VirtualClock
from server.rooms.errors import RoomError
from server.rooms.manager import Attached, Attachment, RoomManager
from server.rooms.relay.endpoint import RemoteAttachment, inbox
from server.store.bus import Bus, MemoryBus, RedisBus
from server.store.cluster_bus import redis_bus
from server.store.memory_store import MemoryStore
from server.store.redis_store import RedisStore
from server.store.store import Store
from tests.store.helpers import cut_subscriber, until

HUMANS = ["host", "open", "open", "open"]


class Process:
    """One server process's manager, with its own clock, store client and bus."""

    def __init__(self, name: str, store: Store, bus: Bus) -> None:
        self.clock = VirtualClock()
        self.store = store
        self.bus = bus
        self.manager = RoomManager(
            store, self.clock, instance_id=name, bus=bus, relay_timeout_s=1.0
        )

    async def housekeep(self) -> None:
        """Let one housekeeping round (and the relay sweep it starts) run."""
        await self.clock.advance(self.manager.live.lease_ms / 3 + 1)
        await self.manager.settled()


class Client:
    """A listener that keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.att: Attached | None = None

    def listen(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    @property
    def last(self) -> dict[str, Any]:
        return self.messages[-1]

    def views(self) -> dict[int, dict[str, Any]]:
        return {m["version"]: m for m in self.messages if m["t"] == "view"}


@contextlib.asynccontextmanager
async def running(kind: str, redis_url: str, names: str = "ab") -> AsyncIterator[list[Process]]:
    """Processes named by `names` over one Redis, Redis under Sentinel or a Redis Cluster
    (`kind` "redis", "sentinel" or "cluster", `redis_url` its address), or one in-process
    store and bus."""
    if kind in ("redis", "sentinel", "cluster"):
        prefix = f"t{uuid.uuid4().hex[:12]}:"
        processes = [
            Process(name, RedisStore(redis_url, prefix=prefix), redis_bus(redis_url, prefix=prefix))
            for name in names
        ]
    else:
        store, bus = MemoryStore(), MemoryBus()
        processes = [Process(name, store, bus) for name in names]
    try:
        for process in processes:
            await process.store.start()
            await process.manager.start()
        yield processes
    finally:
        for process in processes:
            await process.manager.aclose()
            await process.bus.aclose()
            await process.store.aclose()


def url_of(request: pytest.FixtureRequest) -> str:
    """The address of the parametrized kind's Redis ("" for the in-process kind)."""
    kind = request.param
    return "" if kind == "memory" else str(request.getfixturevalue(f"{kind}_url"))


@pytest.fixture(params=["redis", "sentinel", "cluster", "memory"])
async def pair(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Process, Process]]:
    """Processes A and B, on each kind of store and bus."""
    async with running(request.param, url_of(request)) as (a, b):
        yield a, b


@pytest.fixture(params=["redis", "sentinel", "cluster", "memory"])
async def trio(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Process, Process, Process]]:
    """Processes A, B and C, on each kind of store and bus."""
    async with running(request.param, url_of(request), "abc") as (a, b, c):
        yield a, b, c


async def humans_room(a: Process, b: Process) -> tuple[str, list[str]]:
    """A started Usunoro room of four humans on A, seats taken and started through B."""
    code, _, host = await a.manager.create_room("usunoro", {}, HUMANS, seed=5)
    tokens = [host] + [(await b.manager.take_seat(code, None, f"p{i}"))[1] for i in (1, 2, 3)]
    await b.manager.start_match(code, host)
    return code, tokens


async def join(process: Process, code: str, tokens: list[str]) -> Client:
    client = Client()
    client.att = await process.manager.attach(code, tokens, client.listen)
    return client


async def anchor(process: Process, code: str) -> Client:
    """A spectator on the process running the room, so that it keeps running it there.

    With nobody attached where a room runs, an attach through another process moves it.
    """
    return await join(process, code, [])


def mark(client: Client) -> dict[str, Any]:
    return {"type": "mark", "card": client.last["view"]["hand"][0]}


async def test_seats_start_and_moves_go_through_b_to_the_room_a_runs(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    assert a.manager.live_codes() == [code] and b.manager.live_codes() == []
    assert (await a.manager.room_summary(code))["status"] == "playing"
    await anchor(a, code)
    client = await join(b, code, [tokens[1]])
    assert isinstance(client.att, RemoteAttachment) and client.att.seats == (1,)
    assert a.manager.live_codes() == [code] and b.manager.live_codes() == []
    assert client.last["t"] == "view" and client.last["you"] == [1]
    result = await client.att.move(1, 1, mark(client))
    # The view carrying the ack reached the listener before the move returned.
    assert client.last["ack"] == {"seat": 1, "seq": 1, "version": result["version"]}
    assert client.att.last_seqs() == {1: 1}
    # A move made on A reaches B's client too.
    host = await join(a, code, [tokens[0]])
    assert host.att is not None
    moved = await host.att.move(0, 1, mark(host))
    await until(lambda: client.last["version"] == moved["version"])
    assert client.last["view"]["marked"][:2] == [True, True]
    assert "ack" not in client.last


async def test_a_client_through_b_gets_exactly_what_it_would_get_on_a(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    local = await join(a, code, [tokens[2]])
    remote = await join(b, code, [tokens[2]])
    spectator = await join(b, code, [])
    players = [await join(a, code, [token]) for token in tokens]
    for seat in (0, 1, 3, 2):
        assert players[seat].att is not None
        await players[seat].att.move(seat, 1, mark(players[seat]))
    version = players[2].last["version"]
    await until(lambda: remote.last["version"] == spectator.last["version"] == version)
    remote_views, local_views = remote.views(), local.views()
    common = sorted(set(remote_views) & set(local_views))
    assert len(common) >= 4
    for v in common:
        assert remote_views[v] == local_views[v]
    for message in spectator.messages:
        view = message["view"]
        if view["phase"] == "passing":
            assert view["hand"] is None and view["hands"] == [None] * 4


async def test_refusals_come_back_from_a_with_their_codes(pair: tuple[Process, Process]) -> None:
    a, b = pair
    code, _, host = await a.manager.create_room("usunoro", {}, ["host", "open", "cpu", "cpu"])
    await anchor(a, code)
    with pytest.raises(RoomError, match="bad_token"):
        await b.manager.attach(code, ["not-a-token"], lambda message: None)
    client = await join(b, code, [host])
    assert isinstance(client.att, RemoteAttachment)
    with pytest.raises(RoomError, match="not_started"):
        await client.att.move(0, 1, {"type": "grab"})
    _, friend = await b.manager.take_seat(code, None)
    with pytest.raises(RoomError, match="room_full"):
        await b.manager.take_seat(code, None)
    with pytest.raises(RoomError, match="not_host"):
        await b.manager.start_match(code, friend)
    await b.manager.start_match(code, host)
    with pytest.raises(RoomError, match="already_started"):
        await b.manager.start_match(code, host)
    with pytest.raises(RoomError, match="illegal_action"):
        await client.att.move(0, 1, {"type": "mark", "card": "nonsense"})
    with pytest.raises(RoomError, match="not_your_seat"):
        await client.att.move(1, 1, {"type": "grab"})
    spectator = await join(b, code, [])
    assert spectator.att is not None
    with pytest.raises(RoomError, match="not_your_seat"):
        await spectator.att.pause()
    await client.att.pause()
    await until(lambda: client.last["room"]["paused"])
    await client.att.resume()
    await until(lambda: not client.last["room"]["paused"])


async def test_review_frames_go_to_the_room_a_runs_and_their_refusals_come_back(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, _, host = await a.manager.create_room("usunoro", {}, ["host", "open", "cpu", "cpu"])
    await anchor(a, code)
    client = await join(b, code, [host])
    assert isinstance(client.att, RemoteAttachment)
    with pytest.raises(RoomError, match="match_not_found"):
        await client.att.review({"t": "review_open", "match": 1})  # nothing finished yet
    with pytest.raises(RoomError, match="no_review"):
        await client.att.review({"t": "review_step", "step": 1})
    await client.att.review({"t": "review_close"})  # not in one: nothing to leave


async def test_a_room_a_stops_closes_b_links_and_b_then_runs_it(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    await anchor(a, code)
    client = await join(b, code, [tokens[1]])
    assert isinstance(client.att, RemoteAttachment)
    moved = await client.att.move(1, 1, mark(client))
    await a.manager.unload(code)  # as if A went away (its lease is given up here)
    await until(lambda: client.last["t"] == "closed")
    assert client.last["code"] == "room_moved"
    assert client.att.detached
    with pytest.raises(RoomError, match="room_moved"):
        await client.att.move(1, 2, {"type": "grab"})
    again = await join(b, code, [tokens[1]])
    assert b.manager.live_codes() == [code] and a.manager.live_codes() == []
    assert again.last["version"] >= moved["version"] and again.last["view"]["mark"] is not None
    # A's clients now go through B.
    host = await join(a, code, [tokens[0]])
    assert host.att is not None
    await host.att.move(0, 1, mark(host))
    await until(lambda: again.last["view"]["marked"][:2] == [True, True])


async def test_an_owner_that_stopped_answering_closes_the_links_to_it(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    await anchor(a, code)
    idle, playing = await join(b, code, [tokens[1]]), await join(b, code, [tokens[2]])
    await a.bus.unsubscribe(inbox("a"))  # A's inbox is gone, as when A crashed
    assert playing.att is not None
    with pytest.raises(RoomError, match="room_moved"):
        await playing.att.move(2, 1, mark(playing))
    assert playing.last["t"] == "closed" and playing.last["code"] == "room_moved"
    assert idle.last["t"] == "view"
    await b.housekeep()  # B's sweep pings A: nobody there
    assert idle.last["t"] == "closed" and idle.last["code"] == "room_moved"
    with pytest.raises(RoomError, match="room_elsewhere"):
        await b.manager.attach(code, [tokens[1]], lambda message: None)


async def test_an_owner_that_never_answers_times_out_as_room_elsewhere(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, _, host = await a.manager.create_room("usunoro", {}, HUMANS)
    await a.manager.unload(code)
    assert await a.store.acquire_lease(code, "ghost", 60_000)
    await a.bus.subscribe(inbox("ghost"), lambda data: None)  # listens, never answers
    assert b.manager.relay is not None
    b.manager.relay.timeout_s = 0.1
    with pytest.raises(RoomError, match="room_elsewhere"):
        await b.manager.attach(code, [host], lambda message: None)
    with pytest.raises(RoomError, match="room_elsewhere"):
        await b.manager.take_seat(code, None)
    assert b.manager.stats()["relay_timeouts"] == 2


async def test_when_b_closes_a_detaches_its_links(pair: tuple[Process, Process]) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    await anchor(a, code)
    client = await join(b, code, [tokens[1]])
    await join(b, code, [])
    assert a.manager.stats()["attachments"] == 3
    assert (a.manager.stats()["relay_links_in"], b.manager.stats()["relay_links_out"]) == (2, 2)
    await b.manager.aclose()
    assert client.last["t"] == "closed" and client.last["code"] == "server_shutdown"
    await until(lambda: a.manager.stats()["attachments"] == 1)
    assert (a.manager.stats()["relay_links_in"], b.manager.stats()["relay_links_out"]) == (0, 0)


async def test_a_detached_or_vanished_asker_leaves_no_attachment_behind(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    await anchor(a, code)
    left = await join(b, code, [tokens[1]])
    assert left.att is not None
    left.att.detach()
    left.att.detach()
    await until(lambda: a.manager.stats()["attachments"] == 1)
    await join(b, code, [tokens[2]])
    assert a.manager.stats()["attachments"] == 2
    await b.bus.unsubscribe(inbox("b"))  # B vanished without a word
    await a.housekeep()  # A's sweep greets B: nobody there
    assert a.manager.stats()["attachments"] == 1


async def test_links_one_side_forgot_are_ended_by_the_other_sides_sweep(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    await anchor(a, code)
    forgotten, kept = await join(b, code, [tokens[1]]), await join(b, code, [tokens[2]])
    assert b.manager.relay is not None and a.manager.relay is not None
    assert isinstance(forgotten.att, RemoteAttachment) and kept.att is not None
    # As when a detach was lost on the way: B no longer has the link, A still serves it.
    del b.manager.relay.asker.links[forgotten.att.link]
    await a.housekeep()
    await until(lambda: a.manager.stats()["attachments"] == 2)
    # And the other way round: A no longer serves a link B still has.
    a.manager.relay.owner.served.clear()
    await b.housekeep()
    assert kept.last["t"] == "closed" and kept.last["code"] == "room_moved"


async def test_a_broken_bus_subscription_closes_the_links_of_b(redis_url: str) -> None:
    async with running("redis", redis_url) as (a, b):
        code, tokens = await humans_room(a, b)
        await anchor(a, code)
        client = await join(b, code, [tokens[1]])
        assert b.manager.relay is not None and isinstance(b.bus, RedisBus)
        b.manager.relay.timeout_s = 0.1  # answers lost while B is not subscribed
        await cut_subscriber(b.bus, redis_url)
        await until(lambda: client.last["t"] == "closed")
        assert client.last["code"] == "room_moved"
        # Once subscribed again, B serves the room's clients as before.
        for _ in range(200):
            try:
                again = await join(b, code, [tokens[1]])
                break
            except RoomError as exc:
                assert exc.code == "room_elsewhere"
        else:
            raise AssertionError("B never served the room again")
        assert again.att is not None
        await again.att.move(1, 1, mark(again))


# -- handover: a relayed room moves to where its clients are ---------------------------


def handovers(process: Process) -> tuple[float, float]:
    """Rooms the process handed over, and rooms handed to it."""
    stats = process.manager.stats()
    return stats["handovers_given"], stats["handovers_taken"]


async def test_attach_through_b_to_a_room_nobody_uses_on_a_moves_it_to_b(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    host = await join(a, code, [tokens[0]])
    assert host.att is not None
    await host.att.move(0, 1, mark(host))
    host.att.detach()
    await a.manager.settled()
    before = a.manager.inspect(code)
    client = await join(b, code, [tokens[1]])
    # B runs the room now, and the client is attached to it there.
    assert isinstance(client.att, Attachment)
    assert a.manager.live_codes() == [] and b.manager.live_codes() == [code]
    assert await b.store.lease_holder(code) == "b"
    assert b.manager.inspect(code) == before
    assert handovers(a) == (1, 0) and handovers(b) == (0, 1)
    assert client.last["t"] == "view" and client.last["view"]["marked"][0]
    result = await client.att.move(1, 1, mark(client))
    assert client.last["ack"] == {"seat": 1, "seq": 1, "version": result["version"]}
    # A's clients are relayed to B now, which keeps the room: someone is attached there.
    other = await join(a, code, [tokens[2]])
    assert isinstance(other.att, RemoteAttachment) and other.att.owner == "b"
    await other.att.move(2, 1, mark(other))
    await until(lambda: client.last["view"]["marked"][:3] == [True, True, True])
    assert b.manager.live_codes() == [code] and handovers(b) == (0, 1)
    stats = a.manager.stats(), b.manager.stats()
    assert (stats[0]["relay_links_out"], stats[1]["relay_links_in"]) == (1, 1)


async def test_a_room_with_someone_attached_where_it_runs_does_not_move(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    await join(a, code, [tokens[0]])
    client = await join(b, code, [tokens[1]])
    assert isinstance(client.att, RemoteAttachment)
    assert a.manager.live_codes() == [code] and b.manager.live_codes() == []
    assert handovers(a) == handovers(b) == (0, 0)


async def test_housekeeping_hands_b_a_room_all_of_whose_links_come_from_b(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    period = a.manager.live.lease_ms / 3
    # The room arrives half a housekeeping period before A's first housekeeping.
    await a.clock.advance(period / 2)
    code, tokens = await humans_room(a, b)
    lone, _, _ = await a.manager.create_room("usunoro", {}, ["host", "cpu", "cpu", "cpu"])
    host = await anchor(a, code)
    clients = [await join(b, code, [tokens[1]]), await join(b, code, [tokens[2]])]
    first = clients[0].att
    assert isinstance(first, RemoteAttachment) and isinstance(clients[1].att, RemoteAttachment)
    moved = await first.move(1, 1, mark(clients[0]))
    assert host.att is not None
    host.att.detach()
    await a.manager.settled()
    await a.clock.advance(period / 2 + 1)  # a housekeeping: the room is too new to move
    await a.manager.settled()
    assert a.manager.live_codes() == sorted([code, lone])
    assert all(c.last["t"] == "view" for c in clients)
    await a.housekeep()
    # Its links closed so their clients reconnect; B was told to take it, and loaded it.
    await until(lambda: all(c.last["t"] == "closed" for c in clients))
    assert [c.last["code"] for c in clients] == ["room_moved"] * 2
    await until(lambda: b.manager.live_codes() == [code])
    assert a.manager.live_codes() == [lone]  # nobody attached: it stays where it is
    assert handovers(a) == (1, 0) and handovers(b) == (0, 1)
    again = await join(b, code, [tokens[1]])
    assert isinstance(again.att, Attachment)
    assert again.last["version"] > moved["version"] and again.last["view"]["mark"] is not None
    other = await join(b, code, [tokens[2]])
    assert other.att is not None
    await other.att.move(2, 1, mark(other))
    await until(lambda: again.last["view"]["marked"][1:3] == [True, True])
    assert (a.manager.stats()["relay_links_in"], b.manager.stats()["relay_links_out"]) == (0, 0)


async def test_links_from_two_processes_keep_the_room_where_it_runs(
    trio: tuple[Process, Process, Process],
) -> None:
    a, b, c = trio
    code, tokens = await humans_room(a, b)
    host = await anchor(a, code)
    await join(b, code, [tokens[1]])
    await join(c, code, [tokens[2]])
    assert host.att is not None
    host.att.detach()
    await a.housekeep()
    await a.housekeep()
    assert a.manager.live_codes() == [code] and handovers(a) == (0, 0)


async def test_when_c_takes_the_room_a_handed_over_first_b_relays_to_c(
    trio: tuple[Process, Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = trio
    code, tokens = await humans_room(a, b)
    assert b.manager.relay is not None
    ask = b.manager.relay.attach
    spectators = []

    async def c_first(*args: Any) -> RemoteAttachment | None:
        linked = await ask(*args)
        if linked is None:  # A handed the room to B; C loads it before B does
            spectators.append(await anchor(c, code))
        return linked

    monkeypatch.setattr(b.manager.relay, "attach", c_first)
    client = await join(b, code, [tokens[1]])
    assert isinstance(client.att, RemoteAttachment) and client.att.owner == "c"
    assert [p.manager.live_codes() for p in (a, b, c)] == [[], [], [code]]
    assert handovers(a) == (1, 0) and handovers(c) == (0, 0)
    moved = await client.att.move(1, 1, mark(client))
    await until(lambda: spectators[0].last["version"] == moved["version"])


async def test_an_attach_asks_a_bounded_number_of_times_then_relays(
    trio: tuple[Process, Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = trio
    code, tokens = await humans_room(a, b)
    assert b.manager.relay is not None
    ask = b.manager.relay.attach
    grabbers = [c, a]  # each time the room is handed to B, another process loads it

    async def lose_the_race(*args: Any) -> RemoteAttachment | None:
        linked = await ask(*args)
        if linked is None:
            await grabbers.pop(0).manager.live.room(code)
        return linked

    monkeypatch.setattr(b.manager.relay, "attach", lose_the_race)
    client = await join(b, code, [tokens[1]])
    # A handed it over, then C; the third ask may not take it, so A serves a link.
    assert isinstance(client.att, RemoteAttachment) and client.att.owner == "a"
    assert grabbers == [] and handovers(a) == (1, 0) and handovers(c) == (1, 0)
    assert handovers(b) == (0, 2) and a.manager.live_codes() == [code]
    await client.att.move(1, 1, mark(client))
