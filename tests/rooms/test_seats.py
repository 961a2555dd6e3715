"""Seats and the lobby: taking seats, tokens, starting, same-device, spectators, CPU cover."""

from __future__ import annotations

import pytest

from server.rooms.errors import RoomError
from tests.rooms.helpers import Env, Player


async def test_taking_a_seat_gives_the_first_open_one_and_then_the_room_is_full(env: Env) -> None:
    code, _, _ = await env.manager.create_room("usunoro", {}, ["host", "open", "cpu", "open"])
    assert (await env.manager.take_seat(code, None, "ann"))[0] == 1
    assert (await env.manager.take_seat(code, None, "bob"))[0] == 3
    with pytest.raises(RoomError, match="room_full"):
        await env.manager.take_seat(code, None, "cy")


async def test_a_wrong_token_is_refused(env: Env) -> None:
    code, _ = await env.usunoro(humans=1)
    with pytest.raises(RoomError, match="bad_token"):
        await env.manager.attach(code, ["not-a-token"], lambda message: None)


async def test_an_unknown_room_is_not_found(env: Env) -> None:
    with pytest.raises(RoomError, match="room_not_found"):
        await env.manager.attach("ZZZZZZ", [], lambda message: None)


async def test_only_the_host_starts_and_open_seats_become_cpus(env: Env) -> None:
    seats = ["open", "host", "open", "cpu"]
    code, host, token = await env.manager.create_room("usunoro", {}, seats)
    _, guest = await env.manager.take_seat(code, 0, "ann")
    with pytest.raises(RoomError, match="not_host"):
        await env.manager.start_match(code, guest)
    await env.manager.start_match(code, token)
    summary = await env.manager.room_summary(code)
    assert host == 1 and summary["status"] == "playing"
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "cpu", "cpu"]


async def test_a_public_room_is_listed_until_it_starts(env: Env) -> None:
    code, _, token = await env.manager.create_room(
        "usunoro", {}, ["host", "open", "cpu", "cpu"], public=True, name="friday"
    )
    listed = await env.manager.public_rooms()
    assert [(r["code"], r["name"], r["open_seats"]) for r in listed] == [(code, "friday", 1)]
    await env.manager.start_match(code, token)
    assert await env.manager.public_rooms() == []


async def test_a_bad_game_or_seat_list_is_refused(env: Env) -> None:
    with pytest.raises(RoomError, match="bad_game"):
        await env.manager.create_room("chess", {}, ["host"])
    with pytest.raises(RoomError, match="bad_seat"):
        await env.manager.create_room("usunoro", {}, ["host", "cpu"])
    with pytest.raises(RoomError, match="bad_option"):
        await env.manager.create_room("usunoro", {"length": "eternal"}, ["host"] + ["cpu"] * 3)


async def test_one_connection_holding_two_seats_sees_and_moves_both(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, options={"open_hands": [0, 1]})
    both = await env.join(code, tokens, Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    last = both.last
    assert last["you"] == [0, 1] and set(last["views"]) == {0, 1} and set(last["legal"]) == {0, 1}
    assert last["views"][0]["hand"] and last["views"][1]["hand"]
    for seat in (0, 1):
        mark = next(a for a in both.last["legal"][seat] if a["type"] == "mark")
        assert (await both.att.move(seat, 1, mark))["ok"]


async def test_u14_a_two_seat_connection_sees_both_its_marks_and_nobody_else_does(
    env: Env,
) -> None:
    code, tokens = await env.usunoro(humans=3, options={"open_hands": [0, 1]})
    both = await env.join(code, tokens[:2], Player(plays=False))
    remote = await env.join(code, tokens[2:], Player(plays=False))  # seat 2, a human
    watcher = await env.join(code, [], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    marked = []
    for seat in (0, 1):
        mark = next(a for a in both.last["legal"][seat] if a["type"] == "mark")
        assert (await both.att.move(seat, 1, mark))["ok"]
        marked.append(mark["card"])
    await env.settle()
    assert [both.view(s)["mark"] for s in (0, 1)] == marked
    assert [both.view(s)["marks"][s] for s in (0, 1)] == marked
    for player in (remote, watcher):
        view = player.last["view"]
        assert view["hands"][0] and view["hands"][1]  # open hands are public
        assert view["marked"][:2] == [True, True] and view["marks"][:2] == [None, None]


async def test_a_spectator_sees_no_hand_and_has_no_moves(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1)
    watcher = await env.join(code, [], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    last = watcher.last
    assert last["you"] == [] and last["legal"] == {}
    assert last["view"]["hand"] is None and last["view"]["hands"] == [None] * 4


async def test_a_cpu_covers_an_away_human_and_hands_the_seat_back(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, seed=3, cover_after_ms=5_000)
    await env.join(code, tokens[:1], Player(grabs=True))
    guest = await env.join(code, tokens[1:], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    guest.att.detach()
    await env.run(8_000)
    saved = await env.saved(code)
    assert saved["seats"][1]["covered"]
    assert any(e["k"] == "m" and e["s"] == 1 for e in await env.store.read_log(code))
    back = await env.join(code, tokens[1:], Player(plays=False))
    assert not back.last["seats"][1]["covered"]
    assert not (await env.saved(code))["seats"][1]["covered"]


async def test_every_save_holds_the_seats_and_settings_as_they_are_now(env: Env) -> None:
    # A save splices in its settings and seats packed earlier (Room.blob): each change
    # to one of them must reach the next save, whatever the order of the changes.
    code, _, host = await env.manager.create_room("usunoro", {}, ["host", "open", "open", "cpu"])
    _, ann = await env.manager.take_seat(code, 1, "ann")
    assert [s["name"] for s in (await env.saved(code))["seats"]][:2] == ["", "ann"]
    await env.manager.rename_seat(code, ann, "anne")
    assert (await env.saved(code))["seats"][1]["name"] == "anne"
    await env.manager.leave_seat(code, host)  # the host passes to seat 1
    data = await env.saved(code)
    assert data["settings"]["host"] == 1 and data["seats"][0]["kind"] == "open"
    await env.manager.start_match(code, ann)
    data = await env.saved(code)
    assert [s["kind"] for s in data["seats"]] == ["cpu", "human", "cpu", "cpu"]
    assert data["status"] == "playing" and data["version"] == (await env.store.load(code)).version
