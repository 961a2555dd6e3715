"""Names, presence, CPU cover and what players and hosts do with seats (issue 16).

Kokuto Rum (two seats, both choose a rotation first) with a recording policy that takes
the first legal move after a fixed delay, so the tests know what a covering CPU plans.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.bots.contract import Decision, Policy, Situation
from server.rooms.actor.clock import VirtualClock
from server.rooms.errors import RoomError
from server.rooms.manager import RoomManager
from server.store.redis_store import RedisStore
from tests.rooms.helpers import Env, Player
from tests.rooms.test_relay import anchor, join, running
from tests.store.helpers import until

DELAY_MS = 10_000


class Recording(Policy):
    """First legal move after DELAY_MS; keeps every situation it was shown."""

    game_id = "kokuto_rum"

    def __init__(self) -> None:
        self.seen: list[Situation] = []

    def decide(self, situation: Situation) -> Decision | None:
        self.seen.append(situation)
        return Decision(situation.legal[0], DELAY_MS)


@pytest.fixture
async def rum(redis_url: str) -> AsyncIterator[tuple[Env, Recording]]:
    """A manager whose Kokuto Rum CPUs are `Recording`."""
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex[:12]}:")
    await store.start()
    clock = VirtualClock()
    policy = Recording()
    manager = RoomManager(store, clock, instance_id="a", policies={"kokuto_rum": policy})
    await manager.start()
    env = Env(store, clock, manager)
    yield env, policy
    await env.close()
    await store.aclose()


async def two_humans(env: Env, cover_after_ms: int | None = 2_000) -> tuple[str, list[str]]:
    code, _, host = await env.manager.create_room(
        "kokuto_rum", {}, ["host", "open"], host_name="Hana", cover_after_ms=cover_after_ms
    )
    _, guest = await env.manager.take_seat(code, None, "Kai")
    return code, [host, guest]


def seat_moves(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [e["a"] for e in log if e["k"] == "m" and e["s"] == seat]


async def test_views_name_the_host_and_say_who_is_away_then_covered(
    rum: tuple[Env, Recording],
) -> None:
    env, _ = rum
    code, tokens = await two_humans(env)
    host = await env.join(code, tokens[:1], Player(plays=False))
    seats = host.last["seats"]
    assert [(s["name"], s["host"], s["presence"]) for s in seats] == [
        ("Hana", True, "connected"),
        ("Kai", False, "away"),
    ]
    assert host.last["room"]["cover_after_ms"] == 2_000
    await env.manager.start_match(code, tokens[0])
    await env.run(500)
    kai = host.last["seats"][1]
    assert kai["presence"] == "away" and kai["cover_in_ms"] is not None
    assert 0 < kai["cover_in_ms"] <= 2_000 and kai["away_ms"] >= 0
    await env.run(2_000)
    assert host.last["seats"][1]["presence"] == "covered"
    assert host.last["seats"][1]["cover_in_ms"] is None


async def test_with_wait_nobody_is_covered_and_the_table_waits(
    rum: tuple[Env, Recording],
) -> None:
    env, policy = rum
    code, tokens = await two_humans(env, cover_after_ms=None)
    host = await env.join(code, tokens[:1], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    await env.run(3_600_000)
    kai = host.last["seats"][1]
    assert (kai["presence"], kai["covered"], kai["cover_in_ms"]) == ("away", False, None)
    assert host.last["room"]["cover_after_ms"] is None
    assert seat_moves(await env.store.read_log(code), 1) == []
    assert all(s.seat != 1 for s in policy.seen)


async def test_a_covering_cpu_reads_only_its_seats_view(rum: tuple[Env, Recording]) -> None:
    env, policy = rum
    code, tokens = await two_humans(env)
    await env.join(code, tokens[:1], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    await env.run(2_500)
    room = env.manager.live.rooms[code]  # the live room's state, to compare with
    covering = [s for s in policy.seen if s.seat == 1]
    assert covering, "the CPU never decided for the away seat"
    game, state = room.core.game, room.core.state
    assert covering[-1].view == game.view(state, 1)
    assert covering[-1].view != game.view(state, 0)
    assert covering[-1].view["hand"] != game.view(state, 0)["hand"]


async def test_a_returning_humans_move_wins_over_the_cpus_planned_one(
    rum: tuple[Env, Recording],
) -> None:
    env, policy = rum
    code, tokens = await two_humans(env)
    await env.join(code, tokens[:1], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    await env.run(2_500)  # covered now; its CPU plans legal[0] for 10 s later
    planned = [s for s in policy.seen if s.seat == 1][-1].legal[0]
    back = await env.join(code, tokens[1:], Player(plays=False))
    assert back.last["seats"][1]["presence"] == "connected"
    mine = next(a for a in back.last["legal"][1] if a != planned)
    assert (await back.move(1, mine))["ok"]
    await env.run(DELAY_MS * 3)
    assert seat_moves(await env.store.read_log(code), 1) == [mine]


async def test_the_hosts_hand_over_plays_at_once_until_the_human_moves(
    rum: tuple[Env, Recording],
) -> None:
    env, policy = rum
    code, tokens = await two_humans(env)
    await env.join(code, tokens[:1], Player(plays=False))
    guest = await env.join(code, tokens[1:], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    with pytest.raises(RoomError, match="not_host"):
        await env.manager.hand_to_cpu(code, tokens[1], 0)
    await env.manager.hand_to_cpu(code, tokens[0], 1)
    await env.run(100)
    seat = guest.last["seats"][1]
    assert (seat["presence"], seat["handed"]) == ("covered", True)  # though connected
    planned = [s for s in policy.seen if s.seat == 1][-1].legal[0]
    mine = next(a for a in guest.last["legal"][1] if a != planned)
    assert (await guest.move(1, mine))["ok"]
    assert guest.last["seats"][1]["presence"] == "connected"
    await env.run(DELAY_MS * 3)
    assert seat_moves(await env.store.read_log(code), 1) == [mine]


async def test_the_explicit_take_back_stops_the_cpu(rum: tuple[Env, Recording]) -> None:
    env, _ = rum
    code, tokens = await two_humans(env)
    await env.join(code, tokens[:1], Player(plays=False))
    guest = await env.join(code, tokens[1:], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    await env.manager.hand_to_cpu(code, tokens[0], 1)
    await env.manager.take_back_seat(code, tokens[1])
    await env.run(DELAY_MS * 3)
    assert guest.last["seats"][1]["presence"] == "connected"
    assert seat_moves(await env.store.read_log(code), 1) == []


async def test_reissue_revokes_the_old_token_and_closes_its_connections(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2)
    guest = await env.join(code, tokens[1:], Player(plays=False))
    with pytest.raises(RoomError, match="not_host"):
        await env.manager.reissue_seat(code, tokens[1], 1)
    with pytest.raises(RoomError, match="bad_seat"):
        await env.manager.reissue_seat(code, tokens[0], 2)  # a CPU's
    fresh = await env.manager.reissue_seat(code, tokens[0], 1)
    await env.manager.settled()
    assert guest.last == {
        "t": "closed",
        "code": "seat_reissued",
        "message": "this seat's token no longer works",
    }
    with pytest.raises(RoomError, match="bad_token"):
        await env.manager.attach(code, tokens[1:], lambda message: None)
    again = await env.join(code, [fresh], Player(plays=False))
    assert again.last["you"] == [1] and again.last["seats"][1]["name"] == "p1"
    # Again at once (a double click): the same token; seconds later, a new one.
    assert await env.manager.reissue_seat(code, tokens[0], 1) == fresh
    await env.clock.advance(3000)
    later = await env.manager.reissue_seat(code, tokens[0], 1)
    assert later != fresh
    with pytest.raises(RoomError, match="bad_token"):
        await env.manager.attach(code, [fresh], lambda message: None)


async def test_leaving_in_the_lobby_opens_the_seat_and_in_a_match_makes_it_a_cpu(
    env: Env,
) -> None:
    code, tokens = await env.usunoro(humans=3)
    assert await env.manager.leave_seat(code, tokens[1]) == 1
    summary = await env.manager.room_summary(code)
    assert summary["seats"][1] == {"kind": "open", "name": "", "covered": False}
    with pytest.raises(RoomError, match="bad_token"):
        await env.manager.leave_seat(code, tokens[1])
    await env.manager.start_match(code, tokens[0])
    watcher = await env.join(code, tokens[2:], Player(plays=False))
    await env.manager.leave_seat(code, tokens[2])
    await env.manager.settled()
    assert watcher.last["t"] == "closed" and watcher.last["code"] == "seat_left"
    summary = await env.manager.room_summary(code)
    assert [s["kind"] for s in summary["seats"]] == ["human", "cpu", "cpu", "cpu"]
    await env.join(code, tokens[:1], Player(grabs=True))
    await env.play_out(code)  # the CPU plays the left seat to the end


async def test_the_host_leaving_passes_the_host_to_another_human(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2)
    await env.manager.leave_seat(code, tokens[0])
    assert (await env.manager.room_summary(code))["host"] == 1
    await env.manager.start_match(code, tokens[1])


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("<b onclick=x>Ann</b>", "<b onclick=x>Ann</b>"),  # kept as text, never markup
        ("A\x00n\x1bn\u202e\u200b", "Ann"),
        ("  two\n\tlines  ", "two lines"),
        ("x" * 30, "x" * 24),
    ],
)
async def test_names_are_cleaned(env: Env, raw: str, kept: str) -> None:
    code, _, host = await env.manager.create_room("usunoro", {}, ["host", "open", "cpu", "cpu"])
    _, guest = await env.manager.take_seat(code, None, raw)
    assert (await env.manager.room_summary(code))["seats"][1]["name"] == kept
    await env.manager.rename_seat(code, host, raw)
    assert (await env.manager.room_summary(code))["seats"][0]["name"] == kept


async def test_a_name_of_ten_thousand_characters_is_refused_and_changes_nothing(
    env: Env,
) -> None:
    code, _, host = await env.manager.create_room("usunoro", {}, ["host", "open", "cpu", "cpu"])
    for attempt in (
        env.manager.take_seat(code, None, "y" * 10_000),
        env.manager.rename_seat(code, host, "y" * 10_000),
        env.manager.create_room("usunoro", {}, ["host"] + ["cpu"] * 3, host_name="y" * 10_000),
    ):
        with pytest.raises(RoomError, match="bad_name"):
            await attempt
    summary = await env.manager.room_summary(code)
    assert [s["name"] for s in summary["seats"]][:2] == ["", ""]


async def test_your_rooms_says_whose_turn_it_is_for_each_held_seat(
    rum: tuple[Env, Recording],
) -> None:
    env, _ = rum
    code, tokens = await two_humans(env)
    lobby_code, _, lobby_host = await env.manager.create_room(
        "usunoro", {}, ["host", "cpu", "cpu", "cpu"]
    )
    await env.manager.start_match(code, tokens[0])
    rooms = await env.manager.your_rooms(
        [(code, tokens[1]), (lobby_code.lower(), lobby_host), (code, "nope"), ("ZZZZZZ", "x")]
    )
    assert rooms[0]["code"] == code and rooms[0]["seat"] == 1
    assert rooms[0]["your_turn"] is True and rooms[0]["status"] == "playing"
    assert rooms[0]["game"] == "kokuto_rum" and rooms[0]["seats"][1]["name"] == "Kai"
    assert rooms[1]["status"] == "lobby" and rooms[1]["your_turn"] is False
    assert rooms[2] == {"code": code, "error": "not_your_seat"}
    assert rooms[3] == {"code": "ZZZZZZ", "error": "not_your_seat"}
    assert tokens[1] not in repr(rooms)
    with pytest.raises(RoomError, match="bad_request"):
        await env.manager.your_rooms([(code, tokens[1])] * 21)


async def test_a_relayed_connection_is_told_its_seat_was_reissued(redis_url: str) -> None:
    async with running("redis", redis_url) as (a, b):
        code, _, host = await a.manager.create_room("usunoro", {}, ["host", "open", "cpu", "cpu"])
        _, guest = await b.manager.take_seat(code, None, "Kai")
        await anchor(a, code)
        client = await join(b, code, [guest])
        await b.manager.reissue_seat(code, host, 1)
        await until(lambda: client.last["t"] == "closed")
        assert client.last["code"] == "seat_reissued"
