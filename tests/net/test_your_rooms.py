"""POST /api/your-rooms over a real server on a real Redis (issue 46, findings 1 and 2):
fresh after every move (the journal records after the last full save are read), limited
per client address like the other lookups, and one answer for a room that does not exist
and for a token that holds no seat in one that does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from client.lib import Client, Connection, Seat
from tests.net.conftest import ServerProcess
from tests.net.drive import view_at, view_where


async def _your_rooms(client: Client, held: list[Seat]) -> list[dict]:  # type: ignore[type-arg]
    return [dict(entry) for entry in await client.your_rooms(held)]


async def test_your_rooms_follows_every_move_not_only_full_saves(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open", "open"])
    seats = [host] + [await client.take_seat(host.code) for _ in range(2)]
    conns: list[Connection] = [await client.connect(host.code, [s.token]) for s in seats]
    try:
        await client.start(host.code, host.token)
        # The first view of the match: the one at the start may still be on its way.
        playing = await view_where(conns[0], lambda v: v["room"]["status"] == "playing")
        version = playing["version"]
        checked = 0
        for _ in range(24):
            views = [await view_at(conn, version) for conn in conns]
            if views[0]["room"]["status"] != "playing":
                break
            mover = next(i for i, v in enumerate(views) if v["legal"].get(seats[i].seat))
            before = time.time()
            ack = await conns[mover].move(views[mover]["legal"][seats[mover].seat][0])
            version = ack["version"]
            views = [await view_at(conn, version) for conn in conns]
            answer = await _your_rooms(client, seats)
            for seat, view, entry in zip(seats, views, answer, strict=True):
                assert entry["your_turn"] == bool(view["legal"].get(seat.seat)), (version, entry)
                assert entry["turn"] == view["view"].get("turn"), (version, entry)
                assert entry["last_activity"] >= before - 0.5, (version, entry)
            checked += 1
        assert checked >= 16  # past a full save's worth of journal records
    finally:
        for conn in conns:
            await conn.close()


async def test_a_missing_room_and_a_wrong_token_answer_alike(client: Client) -> None:
    room = await client.create_room("usunoro")
    missing = "ZZZZZZ" if room.code != "ZZZZZZ" else "YYYYYY"
    held = [
        Seat(room.code, 0, "not-the-token"),
        Seat(missing, 0, room.token),
        Seat(room.code, room.seat, room.token),
    ]
    wrong, gone, mine = await _your_rooms(client, held)
    assert wrong == {"code": room.code, "error": "not_your_seat"}
    assert gone == {"code": missing, "error": "not_your_seat"}
    assert mine["seat"] == room.seat and "error" not in mine


@pytest.fixture
def limited_server(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    """A server whose clients may look up 6 rooms at once."""
    monkeypatch.setenv("ZASHIKI_RATE_LIMITS", "lookups=6/6")
    proc = ServerProcess(redis_url, tmp_path / "limited.log")
    proc.start()
    yield proc
    proc.stop()


async def test_your_rooms_spends_a_lookup_per_room_asked_per_client(
    limited_server: ServerProcess,
) -> None:
    room = await Client(limited_server.url).create_room("usunoro")
    held = {"seats": [{"code": room.code, "token": room.token}] * 4}
    other = {"X-Forwarded-For": "10.1.2.3"}  # uvicorn trusts the loopback as a proxy
    async with httpx.AsyncClient(base_url=limited_server.url, timeout=10) as h:
        # One room asked four times is one lookup; four distinct ones would be four.
        answers = [await h.post("/api/your-rooms", json=held) for _ in range(7)]
        assert [a.status_code for a in answers] == [200] * 6 + [429]
        assert answers[-1].json()["code"] == "rate_limited"
        assert int(answers[-1].headers["retry-after"]) >= 1
        # Another address has its own: four rooms asked spend four lookups of its six.
        four = {"seats": [{"code": f"ABCD{i}", "token": "t"} for i in range(4)]}
        assert (await h.post("/api/your-rooms", json=four, headers=other)).status_code == 200
        assert (await h.post("/api/your-rooms", json=four, headers=other)).status_code == 429
        assert (await h.post("/api/your-rooms", json=held, headers=other)).status_code == 200
