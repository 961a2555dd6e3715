"""Hints over real sockets and HTTP: the hint frame answered to the asking connection
alone, its refusals as error frames (hints_off, not_your_decision, not_your_seat,
rate_limited, bad_frame), the room's hints setting at creation and in the waiting room."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection

from client.lib import Client, ZashikiError
from server.store import codec
from server.web.limits import Limits
from tests.net.conftest import ServerProcess
from tests.net.test_talk import hello, next_of

LIMITS = Limits()


async def my_decision(ws: ClientConnection, seat: int) -> dict[str, Any]:
    """Views until one gives `seat` legal moves (fails after 10 s); that view."""
    while True:
        view = await asyncio.wait_for(next_of(ws, "view"), 10)
        if view["legal"].get(seat):
            return view


async def kokuto(client: Client, **kw: Any) -> tuple[str, str]:
    """A started Kokuto room: the host (seat 0) against a CPU; its code and host token."""
    host = await client.create_room("kokuto_rum", seats=["host", "cpu"], **kw)
    await client.start(host.code, host.token)
    return host.code, host.token


async def test_a_hint_answers_the_asker_alone_and_its_move_is_accepted(
    server: ServerProcess, client: Client
) -> None:
    code, token = await kokuto(client)
    ws, _ = await hello(server.port, code, [token])
    watcher, _ = await hello(server.port, code, [])
    view = await my_decision(ws, 0)
    assert view["room"]["hints"] is True
    await ws.send(codec.pack({"t": "hint", "seat": 0}))
    hint = await asyncio.wait_for(next_of(ws, "hint", "error"), 10)
    assert hint["t"] == "hint" and hint["seat"] == 0, hint
    assert hint["move"] in view["legal"][0]
    assert hint["why"]["en"] and hint["why"]["ja"]
    await ws.send(codec.pack({"t": "move", "seat": 0, "seq": 1, "action": hint["move"]}))
    while True:
        answer = await asyncio.wait_for(next_of(ws, "view", "ack", "error"), 10)
        assert answer["t"] != "error", answer
        if answer.get("ack") or answer["t"] == "ack":
            break
    # The spectator gets views only, never the hint; the count is public.
    while True:
        seen = await asyncio.wait_for(next_of(watcher, "view", "hint"), 10)
        assert seen["t"] == "view"
        if seen["room"].get("hints_used") == [1, 0]:
            break
    await watcher.send(codec.pack({"t": "hint", "seat": 0}))
    assert (await asyncio.wait_for(next_of(watcher, "error", "hint"), 10))[
        "code"
    ] == "not_your_seat"
    await ws.close()
    await watcher.close()


async def test_hints_off_refuses_the_frame_and_sends_no_helpers(
    server: ServerProcess, client: Client
) -> None:
    code, token = await kokuto(client, hints=False)
    assert (await client.room(code))["hints"] is False
    ws, _ = await hello(server.port, code, [token])
    view = await my_decision(ws, 0)
    assert view["room"]["hints"] is False and "helpers" not in view
    await ws.send(codec.pack({"t": "hint", "seat": 0}))
    error = await asyncio.wait_for(next_of(ws, "error", "hint"), 10)
    assert error["t"] == "error" and error["code"] == "hints_off", error
    await ws.close()


async def test_the_fourth_hint_at_once_is_rate_limited_and_bad_seats_are_bad_frames(
    server: ServerProcess, client: Client
) -> None:
    code, token = await kokuto(client)
    ws, _ = await hello(server.port, code, [token])
    await my_decision(ws, 0)
    burst = LIMITS.hint_burst
    for _ in range(burst + 1):
        await ws.send(codec.pack({"t": "hint", "seat": 0}))
    answers = [await asyncio.wait_for(next_of(ws, "hint", "error"), 10) for _ in range(burst + 1)]
    assert [a["t"] for a in answers[:burst]] == ["hint"] * burst
    assert answers[burst]["t"] == "error" and answers[burst]["code"] == "rate_limited"
    for bad in ({"t": "hint"}, {"t": "hint", "seat": "0"}, {"t": "hint", "seat": -1}):
        await ws.send(codec.pack(bad))
        assert (await asyncio.wait_for(next_of(ws, "error"), 10))["code"] == "bad_frame"
    await ws.close()


async def test_not_your_decision_before_the_match(server: ServerProcess, client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "cpu"])
    ws, _ = await hello(server.port, host.code, [host.token])
    await ws.send(codec.pack({"t": "hint", "seat": 0}))
    error = await asyncio.wait_for(next_of(ws, "error", "hint"), 10)
    assert error["code"] == "not_your_decision", error
    await ws.close()


async def test_the_host_turns_hints_off_in_the_waiting_room(client: Client) -> None:
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    friend = await client.take_seat(host.code)
    with pytest.raises(ZashikiError, match="not_host"):
        await client.set_hints(host.code, friend.token, False)
    assert (await client.set_hints(host.code, host.token, False))["hints"] is False
    assert (await client.set_hints(host.code, host.token, True))["hints"] is True
    await client.start(host.code, host.token)
    with pytest.raises(ZashikiError, match="already_started"):
        await client.set_hints(host.code, host.token, False)
    with pytest.raises(ZashikiError, match="bad_request"):
        await client._call("POST", f"/api/rooms/{host.code}/hints", {"token": host.token})
