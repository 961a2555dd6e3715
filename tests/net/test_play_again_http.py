"""Play again over HTTP: `POST /api/rooms/{code}/start` on a finished room, real server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from client.lib import Client
from tests.net.conftest import ServerProcess
from tests.net.drive import view_where
from tests.rooms.finished import finished_usunoro_room


def start_refused(server: ServerProcess, code: str, token: str) -> tuple[int, str]:
    """A start request that must fail: its HTTP status and error code."""
    body = json.dumps({"token": token}).encode()
    request = urllib.request.Request(f"{server.url}/api/rooms/{code}/start", body, method="POST")
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=5)
    return answer.value.code, json.loads(answer.value.read())["code"]


async def test_start_on_a_finished_room_plays_again_with_the_same_seats(
    server: ServerProcess, client: Client, redis_url: str
) -> None:
    code, (host, friend) = await finished_usunoro_room(redis_url, humans=2, seed=31)
    over = await client.room(code)
    assert over["status"] == "over" and over["match"] == 1
    assert start_refused(server, code, friend) == (403, "not_host")

    async with await client.connect(code, [friend]) as conn:
        first = await view_where(conn, lambda m: True)
        assert first["room"]["status"] == "over" and "outcome" in first
        seq = first["seqs"][1]
        summary = await client.start(code, host)
        assert summary["status"] == "playing" and summary["match"] == 2
        assert summary["seats"] == over["seats"]
        fresh = await view_where(conn, lambda m: m["room"]["status"] == "playing")
        assert fresh["room"]["match"] == 2 and "outcome" not in fresh
        assert {"type": "match_started", "match": 2} in fresh["events"]
        assert fresh["view"]["round"] == 1 and fresh["view"]["penalties"] == [0, 0, 0, 0]
        assert start_refused(server, code, host) == (409, "already_started")
        # The friend's seat token still holds the seat and its move numbers go on.
        mark = next(a for a in fresh["legal"][1] if a["type"] == "mark")
        ack = await conn.move(mark)
        assert ack["seq"] == seq + 1
