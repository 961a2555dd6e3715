"""Dropped sockets and restarted servers: the room and the client carry on."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from client.lib import Client
from server.store import codec
from tests.net.conftest import ServerProcess
from tests.net.drive import humans_only_room, view_at, view_where


async def test_resent_move_after_reconnect_is_answered_again_not_applied(
    client: Client,
) -> None:
    host, *_ = await humans_only_room(client)
    async with await client.connect(host.code, [host.token]) as conn:
        card = (await conn.next_view())["view"]["hand"][0]
        ack = await conn.move({"type": "mark", "card": card})
        before = await view_at(conn, ack["version"])
        await conn.drop()
        while conn.reconnects == 0:
            await conn.next_view()
        assert conn.view is not None
        reconnected = conn.view["version"]
        # Marking the marked card again would be refused: an ack means it was not re-applied.
        again = await conn.move({"type": "mark", "card": card}, seq=ack["seq"])
        assert again == ack
        # Views go out before the ack, so one caused by the resend would be here by now.
        assert conn.view["version"] == reconnected
        assert conn.view["view"] == before["view"]


async def test_move_unanswered_when_the_socket_drops_is_resent_and_applied_once(
    client: Client,
) -> None:
    host, *_ = await humans_only_room(client)
    async with await client.connect(host.code, [host.token]) as conn:
        start = await conn.next_view()
        move = asyncio.create_task(conn.move({"type": "mark", "card": start["view"]["hand"][1]}))
        await asyncio.sleep(0)
        await conn.drop()
        ack = await move
        assert ack["version"] == start["version"] + 1
        assert (await view_at(conn, ack["version"]))["view"]["mark"] == start["view"]["hand"][1]


async def test_room_continues_on_a_new_server_after_a_restart(
    redis_url: str, tmp_path: Path
) -> None:
    first = ServerProcess(redis_url, tmp_path / "first.log")
    first.start()
    second = ServerProcess(redis_url, tmp_path / "second.log", port=first.port)
    try:
        client = Client(first.url)
        host, friend, *_ = await humans_only_room(client)
        conn = await client.connect(host.code, [host.token])
        card = (await conn.next_view())["view"]["hand"][0]
        before = await view_at(conn, (await conn.move({"type": "mark", "card": card}))["version"])
        assert first.stop(signal.SIGINT) == 0  # Ctrl-C: a graceful stop, rooms saved
        second.start()
        while conn.reconnects == 0:
            await conn.next_view()
        assert conn.view is not None
        # The version may have moved on (banking game time when the last client left);
        # the board is exactly as it was.
        assert conn.view["view"] == before["view"]
        resumed = conn.view["version"]
        other = await client.connect(host.code, [friend.token])
        mark = {"type": "mark", "card": (await other.next_view())["view"]["hand"][0]}
        assert (await other.move(mark))["version"] > resumed
        await view_where(conn, lambda m: m["view"]["marked"][:2] == [True, True])
        await other.close()
        await conn.close()
    finally:
        first.stop()
        if second.proc is not None:
            second.stop()
    assert "rooms saved" in first.output()


async def test_an_applied_move_is_answered_by_one_view_frame_that_carries_its_ack(
    client: Client,
) -> None:
    host, *_ = await humans_only_room(client)
    async with await client.connect(host.code, [host.token], record=True) as conn:
        card = (await conn.next_view())["view"]["hand"][0]
        assert conn.raw is not None
        before = len(conn.raw)
        ack = await conn.move({"type": "mark", "card": card})
        await conn.send({"t": "ping"})
        while codec.unpack(conn.raw[-1])["t"] != "pong":
            await asyncio.sleep(0.01)
        frames = [codec.unpack(data) for data in conn.raw[before:-1]]
        assert [f["t"] for f in frames] == ["view"]
        assert frames[0]["ack"] == {
            "seat": ack["seat"],
            "seq": ack["seq"],
            "version": ack["version"],
        }
