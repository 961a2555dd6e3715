"""The last human leaving closes the room (issue 46, finding 4), over a real server: in a
host + CPUs room the host leaves mid-match; the room's status is `closed` in its summary
and in the view every connection gets, the CPUs stop, and nobody can sit or start."""

from __future__ import annotations

import asyncio

import httpx

from client.lib import Client
from tests.net.conftest import ServerProcess
from tests.net.test_hardening import frame, hello


async def test_the_last_human_leaving_mid_match_closes_the_room(
    server: ServerProcess, client: Client
) -> None:
    host = await client.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"], public=True)
    await client.start(host.code, host.token)
    watcher = await hello(server, host.code, [])
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as h:
        left = await h.post(f"/api/rooms/{host.code}/leave", json={"token": host.token})
        assert left.status_code == 200 and left.json()["status"] == "closed", left.text
        while True:
            view = await frame(watcher, "view")
            if view["room"]["status"] == "closed":
                break
        assert {"type": "room_closed"} in view["events"]
        version = view["version"]
        await asyncio.sleep(1.5)  # CPUs moving would have moved by now
        summary = (await h.get(f"/api/rooms/{host.code}")).json()
        assert summary["status"] == "closed" and summary["version"] == version
        assert [s["kind"] for s in summary["seats"]] == ["cpu"] * 4
        sit = await h.post(f"/api/rooms/{host.code}/seats", json={})
        assert sit.status_code == 409 and sit.json()["code"] == "room_closed"
        start = await h.post(f"/api/rooms/{host.code}/start", json={"token": host.token})
        assert start.status_code == 403 and start.json()["code"] == "bad_token"
        listed = (await h.get("/api/rooms")).json()["rooms"]
        assert host.code not in [r["code"] for r in listed]
    await watcher.close()


async def test_the_last_human_leaving_the_lobby_closes_it_too(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"], public=True)
    summary = await client.leave_seat(host.code, host.token)
    assert summary["status"] == "closed"
    assert host.code not in [r["code"] for r in await client.public_rooms()]
