"""The Python client library's seat methods against a real server: leave, take back,
rename, the host's re-issue and hand-over to a CPU, and "your rooms", each answering
what the route answers and raising ZashikiError with the server's code on refusal."""

from __future__ import annotations

import pytest

from client.lib import Client, Seat, ZashikiError


async def test_leave_opens_the_seat_in_the_lobby_and_the_token_stops_working(
    client: Client,
) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    guest = await client.take_seat(host.code)
    summary = await client.leave_seat(host.code, guest.token)
    assert summary["code"] == host.code and summary["open_seats"] == 1
    assert summary["seats"][1]["kind"] == "open"
    with pytest.raises(ZashikiError) as refused:
        await client.leave_seat(host.code, guest.token)
    assert refused.value.code == "bad_token"


async def test_rename_cleans_the_name_and_refuses_a_far_too_long_one(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    summary = await client.rename_seat(host.code, host.token, "  Hana\x07 ")
    assert summary["seats"][0]["name"] == "Hana"
    with pytest.raises(ZashikiError) as refused:
        await client.rename_seat(host.code, host.token, "z" * 10_000)
    assert refused.value.code == "bad_name"


async def test_reissue_gives_the_seat_a_new_token_and_only_the_host_may(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    guest = await client.take_seat(host.code)
    with pytest.raises(ZashikiError) as refused:
        await client.reissue_seat(host.code, guest.token, 1)
    assert refused.value.code == "not_host"
    fresh = await client.reissue_seat(host.code, host.token, 1)
    assert isinstance(fresh, Seat) and (fresh.code, fresh.seat) == (host.code, 1)
    assert fresh.token != guest.token
    with pytest.raises(ZashikiError, match="bad_token"):
        await client.connect(host.code, [guest.token])
    async with await client.connect(host.code, [fresh.token]) as conn:
        assert conn.seats == [1]
    with pytest.raises(ZashikiError) as no_human:
        await client.reissue_seat(host.code, host.token, 5)
    assert no_human.value.code == "bad_seat"


async def test_hand_to_cpu_covers_the_seat_until_its_human_takes_it_back(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    guest = await client.take_seat(host.code)
    with pytest.raises(ZashikiError) as early:
        await client.hand_to_cpu(host.code, host.token, 1)
    assert early.value.code == "not_started"
    await client.start(host.code, host.token)
    handed = await client.hand_to_cpu(host.code, host.token, 1)
    assert handed["seats"][1] == {"kind": "human", "name": "", "covered": True}
    back = await client.take_back_seat(host.code, guest.token)
    assert back["seats"][1] == {"kind": "human", "name": "", "covered": False}
    assert back["status"] == "playing"


async def test_your_rooms_answers_each_held_seat_in_order(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "cpu"])
    await client.start(host.code, host.token)
    other = await client.create_room("usunoro")
    gone = Seat(other.code, 0, "not-a-token")
    rooms = await client.your_rooms([host, other, gone])
    assert [r["code"] for r in rooms] == [host.code, other.code, other.code]
    assert rooms[0]["status"] == "playing" and rooms[0]["your_turn"] is True
    assert rooms[1]["status"] == "lobby" and rooms[1]["seat"] == 0
    assert rooms[2] == {"code": other.code, "error": "not_your_seat"}
    with pytest.raises(ZashikiError) as refused:
        await client.your_rooms([host] * 21)
    assert refused.value.code == "bad_request"
