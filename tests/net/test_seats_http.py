"""The seat routes over a real server: cover option, leave, take back, rename, the
host's re-issue and hand-over, "your rooms"; tokens never reach the server's log."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from client.lib import Client, ZashikiError
from tests.net.conftest import ServerProcess


async def call(client: Client, path: str, body: dict[str, Any]) -> Any:
    return await client._call("POST", path, body)


async def refused(client: Client, path: str, body: dict[str, Any]) -> str:
    with pytest.raises(ZashikiError) as answer:
        await call(client, path, body)
    return answer.value.code


async def test_cover_is_on_by_default_and_the_room_option_sets_or_waits(client: Client) -> None:
    seats = ["host", "open"]
    default = await call(client, "/api/rooms", {"game": "kokuto_rum", "seats": seats})
    short = await call(
        client, "/api/rooms", {"game": "kokuto_rum", "seats": seats, "cover_after_s": 3}
    )
    wait = await call(
        client, "/api/rooms", {"game": "kokuto_rum", "seats": seats, "cover_after_s": "wait"}
    )
    assert (await client.room(default["code"]))["cover_after_ms"] == 60_000
    assert (await client.room(short["code"]))["cover_after_ms"] == 3_000
    assert (await client.room(wait["code"]))["cover_after_ms"] is None
    for bad in (0, -5, 10**9, "soon", True, 1.5):
        body = {"game": "kokuto_rum", "seats": seats, "cover_after_s": bad}
        assert await refused(client, "/api/rooms", body) == "bad_option"


async def test_reissue_revokes_the_old_token(client: Client, server: ServerProcess) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    guest = await client.take_seat(host.code)
    path = f"/api/rooms/{host.code}/seats/1/reissue"
    assert await refused(client, path, {"token": guest.token}) == "not_host"
    fresh = await call(client, path, {"token": host.token})
    assert fresh["seat"] == 1 and fresh["token"] != guest.token
    leave = f"/api/rooms/{host.code}/leave"
    assert await refused(client, leave, {"token": guest.token}) == "bad_token"
    with pytest.raises(ZashikiError, match="bad_token"):
        await client.connect(host.code, [guest.token])
    summary = await call(client, leave, {"token": fresh["token"]})
    assert summary["seats"][1]["kind"] == "open"
    assert guest.token not in server.output() and fresh["token"] not in server.output()


async def test_reissues_at_once_all_name_the_one_token_that_works(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    guest = await client.take_seat(host.code)
    path = f"/api/rooms/{host.code}/seats/1/reissue"
    # A double (or a quintuple) click: the calls overlap on the wire.
    answers = await asyncio.gather(*(call(client, path, {"token": host.token}) for _ in range(5)))
    tokens = {answer["token"] for answer in answers}
    assert len(tokens) == 1 and guest.token not in tokens
    async with await client.connect(host.code, [tokens.pop()]) as conn:
        assert conn.seats == [1]
    with pytest.raises(ZashikiError, match="bad_token"):
        await client.connect(host.code, [guest.token])


async def test_names_rename_hand_over_and_take_back(client: Client) -> None:
    created = await call(
        client,
        "/api/rooms",
        {"game": "kokuto_rum", "seats": ["host", "open"], "host_name": "Hana\x07"},
    )
    code, token = created["code"], created["token"]
    seat = await call(client, f"/api/rooms/{code}/seats", {"name": "<i>Kai</i>"})
    summary = await call(client, f"/api/rooms/{code}/name", {"token": token, "name": "Hana 2"})
    assert [s["name"] for s in summary["seats"]] == ["Hana 2", "<i>Kai</i>"]
    long = {"token": token, "name": "z" * 10_000}
    assert await refused(client, f"/api/rooms/{code}/name", long) == "bad_name"
    hand = f"/api/rooms/{code}/seats/1/cpu"
    assert await refused(client, hand, {"token": token}) == "not_started"
    await client.start(code, token)
    assert await refused(client, f"/api/rooms/{code}/seats/x/cpu", {"token": token}) == "bad_seat"
    summary = await call(client, hand, {"token": token})
    assert summary["seats"][1]["covered"] is True
    summary = await call(client, f"/api/rooms/{code}/back", {"token": seat["token"]})
    assert summary["seats"][1]["covered"] is False


async def test_your_rooms_answers_for_every_held_seat_in_one_call(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "cpu"])
    await client.start(host.code, host.token)
    other = await client.create_room("usunoro")
    held = [
        {"code": host.code, "token": host.token},
        {"code": other.code, "token": other.token},
        {"code": other.code, "token": "not-a-token"},
    ]
    rooms = (await call(client, "/api/your-rooms", {"seats": held}))["rooms"]
    assert [r.get("error") for r in rooms] == [None, None, "not_your_seat"]
    assert rooms[0]["your_turn"] is True and rooms[0]["status"] == "playing"
    assert rooms[1]["status"] == "lobby" and rooms[1]["your_turn"] is False
    for bad in ({"seats": held * 7}, {"seats": ["x"]}, {"seats": [{"code": "A"}]}, {}):
        assert await refused(client, "/api/your-rooms", bad) == "bad_request"
