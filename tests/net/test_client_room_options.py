"""The Python client library's room and seat options against a real server: the host's
name, the CPU cover time and the spectator setting of create_room, and take_seat's name,
each reaching the room and each refusal raising ZashikiError with the server's code."""

from __future__ import annotations

from typing import Any

import pytest

from client.lib import Client, ZashikiError


async def test_host_name_and_a_taken_seat_name_show_in_the_summary(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"], host_name=" Hana\x07")
    guest = await client.take_seat(host.code, name="Aiko")
    seats = (await client.room(host.code))["seats"]
    assert [seats[host.seat]["name"], seats[guest.seat]["name"]] == ["Hana", "Aiko"]


async def test_a_far_too_long_host_or_seat_name_is_bad_name(client: Client) -> None:
    with pytest.raises(ZashikiError) as refused_host:
        await client.create_room("kokuto_rum", host_name="z" * 10_000)
    assert refused_host.value.code == "bad_name"
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    with pytest.raises(ZashikiError) as refused_seat:
        await client.take_seat(host.code, name="z" * 10_000)
    assert refused_seat.value.code == "bad_name"
    assert (await client.room(host.code))["open_seats"] == 1


async def test_cover_after_s_sets_the_rooms_cover_time_or_waits(client: Client) -> None:
    default = await client.create_room("kokuto_rum")
    assert (await client.room(default.code))["cover_after_ms"] == 60_000
    quick = await client.create_room("kokuto_rum", cover_after_s=5)
    assert (await client.room(quick.code))["cover_after_ms"] == 5_000
    waiting = await client.create_room("kokuto_rum", seats=["host", "cpu"], cover_after_s="wait")
    assert (await client.room(waiting.code))["cover_after_ms"] is None
    await client.start(waiting.code, waiting.token)
    async with await client.connect(waiting.code, [waiting.token]) as conn:
        assert (await conn.next_view())["room"]["cover_after_ms"] is None


@pytest.mark.parametrize("bad", [0, 86_401, "soon"])
async def test_a_cover_time_out_of_range_is_bad_option(client: Client, bad: Any) -> None:
    with pytest.raises(ZashikiError) as refused:
        await client.create_room("kokuto_rum", cover_after_s=bad)
    assert refused.value.code == "bad_option"


async def test_spectators_false_refuses_watchers_and_true_lets_them_in(client: Client) -> None:
    closed = await client.create_room("kokuto_rum", spectators=False)
    assert (await client.room(closed.code))["spectators"] is False
    with pytest.raises(ZashikiError) as refused:
        await client.connect(closed.code)
    assert refused.value.code == "no_spectators"
    opened = await client.create_room("kokuto_rum")
    assert (await client.room(opened.code))["spectators"] is True
    async with await client.connect(opened.code) as watcher:
        assert watcher.seats == []
    with pytest.raises(ZashikiError) as mistyped:
        await client.create_room("kokuto_rum", spectators="no")  # type: ignore[arg-type]
    assert mistyped.value.code == "bad_request"


async def test_options_left_out_are_not_sent(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[Any] = []

    async def record(method: str, path: str, body: Any = None) -> Any:
        sent.append(body)
        return {"code": "ABCD", "seat": 0, "token": "t"}

    monkeypatch.setattr(client, "_call", record)
    await client.create_room("kokuto_rum")
    await client.take_seat("ABCD")
    assert sent == [{"game": "kokuto_rum", "difficulty": "normal", "public": False}, {}]
