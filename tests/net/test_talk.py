"""Table talk over real sockets: chat frames, the welcome's history, the per-connection
talk rate, and chat surviving a restart of the server process (Redis keeps it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from client.lib import Client
from server.store import codec
from server.web.limits import Limits
from tests.net.conftest import ServerProcess

LIMITS = Limits()


async def hello(port: int, code: str, tokens: list[str]) -> tuple[ClientConnection, dict]:
    """A raw connection past its welcome; returns it and the welcome frame."""
    ws = await connect(f"ws://127.0.0.1:{port}/ws?room={code}", compression=None, max_size=None)
    await ws.send(codec.pack({"t": "hello", "tokens": tokens}))
    welcome = codec.unpack(await ws.recv())
    assert welcome["t"] == "welcome", welcome
    return ws, welcome


async def next_of(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    """The next frame whose type is one of `kinds` (views in between are skipped)."""
    while True:
        frame = codec.unpack(await ws.recv())
        if frame["t"] in kinds:
            return frame


async def muted_in_view(ws: ClientConnection, seats: list[int]) -> None:
    """Skip views until one says exactly `seats` are muted (fails after 5 s)."""
    while True:
        talk = (await asyncio.wait_for(next_of(ws, "view"), 5))["room"]["talk"]
        if talk is not None and talk["muted"] == seats:
            return


async def test_the_21st_message_in_a_second_is_rate_limited(
    server: ServerProcess, client: Client
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    ws, _ = await hello(server.port, host.code, [host.token])
    burst = LIMITS.talk_burst
    # All sent at once: far less than the second it takes to earn one more message.
    for n in range(burst + 1):
        await ws.send(codec.pack({"t": "chat", "text": f"message {n}"}))
    answers = [await next_of(ws, "chat", "error") for _ in range(burst + 1)]
    assert [a["text"] for a in answers[:burst]] == [f"message {n}" for n in range(burst)]
    assert answers[burst]["t"] == "error" and answers[burst]["code"] == "rate_limited"
    # Other frames still flow, and the next second brings another message.
    await ws.send(codec.pack({"t": "ping"}))
    assert (await next_of(ws, "pong", "error"))["t"] == "pong"
    await ws.close()


async def test_a_spectator_gets_the_history_and_markup_stays_text(
    server: ServerProcess, client: Client
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    ws, welcome = await hello(server.port, host.code, [host.token])
    assert welcome["chat"] == []
    await ws.send(codec.pack({"t": "chat", "text": "<img src=x onerror=alert(1)>\u202e"}))
    assert (await next_of(ws, "chat"))["text"] == "<img src=x onerror=alert(1)>"
    watcher, seen = await hello(server.port, host.code, [])
    assert [(m["seat"], m["text"]) for m in seen["chat"]] == [(0, "<img src=x onerror=alert(1)>")]
    await ws.send(codec.pack({"t": "chat", "text": 42}))
    assert (await next_of(ws, "error"))["code"] == "bad_frame"
    await ws.send(codec.pack({"t": "react", "reaction": "nice"}))
    assert await next_of(watcher, "react") == {"t": "react", "seat": 0, "reaction": "nice"}
    await ws.close()
    await watcher.close()


async def test_chat_is_cleaned_as_names_are_and_an_invisible_message_is_refused(
    server: ServerProcess, client: Client
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    ws, _ = await hello(server.port, host.code, [host.token])
    invisible = [
        "\u200b\u200c\u200d\u2060",  # zero-width space, non-joiner, joiner, word joiner
        "\U000e0041\U000e0042\U000e007f",  # Unicode tag characters
        " \ufeff\u00ad\u180e ",  # byte order mark, soft hyphen, Mongolian vowel separator
    ]
    for text in invisible:
        await ws.send(codec.pack({"t": "chat", "text": text}))
        refused = await next_of(ws, "chat", "error")
        assert refused["t"] == "error" and refused["code"] == "bad_chat", (text, refused)
    cleaned = {
        "hi\u200b the\U000e0041re": "hi there",
        "Cafe\u0301": "Caf\u00e9",  # NFC: the accent composed
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467": (
            "family \U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined emoji stay
        ),
        "a \u200d b\u200d": "a b",
    }
    for sent, kept in cleaned.items():
        await ws.send(codec.pack({"t": "chat", "text": sent}))
        assert (await next_of(ws, "chat", "error")).get("text") == kept, sent
    await ws.close()


async def test_chat_survives_a_server_restart(redis_url: str, tmp_path: Path) -> None:
    server = ServerProcess(redis_url, tmp_path / "server.log")
    server.start()
    try:
        client = Client(server.url)
        host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
        friend = await client.take_seat(host.code)
        ws, _ = await hello(server.port, host.code, [host.token])
        await ws.send(codec.pack({"t": "chat", "text": "see you after the restart"}))
        await next_of(ws, "chat")
        await ws.send(codec.pack({"t": "mute", "seat": friend.seat, "muted": True}))
        await next_of(ws, "view")
        await ws.close()
        server.stop()
        server.start()
        again, welcome = await hello(server.port, host.code, [friend.token])
        assert [m["text"] for m in welcome["chat"]] == ["see you after the restart"]
        view = await next_of(again, "view")
        assert view["room"]["talk"]["muted"] == [friend.seat]
        await again.send(codec.pack({"t": "chat", "text": "am I muted?"}))
        refused = await next_of(again, "error", "chat")
        assert refused["t"] == "error" and refused["code"] == "muted"
        await again.close()
    finally:
        server.stop()


async def test_a_mute_stays_with_its_player_not_with_the_seat_number(
    server: ServerProcess, client: Client
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    friend = await client.take_seat(host.code)
    ws, _ = await hello(server.port, host.code, [host.token])
    await ws.send(codec.pack({"t": "mute", "seat": friend.seat, "muted": True}))
    await muted_in_view(ws, [friend.seat])

    # The same person back with the same token (a reload) is still muted.
    again, _ = await hello(server.port, host.code, [friend.token])
    assert (await next_of(again, "view"))["room"]["talk"]["muted"] == [friend.seat]
    await again.send(codec.pack({"t": "chat", "text": "still muted?"}))
    assert (await next_of(again, "error", "chat"))["code"] == "muted"
    await again.close()

    # They leave and someone new takes the same seat number: the host never muted them.
    await client.leave_seat(host.code, friend.token)
    newcomer = await client.take_seat(host.code, friend.seat)
    assert newcomer.seat == friend.seat
    fresh, _ = await hello(server.port, host.code, [newcomer.token])
    assert (await next_of(fresh, "view"))["room"]["talk"] is None
    await fresh.send(codec.pack({"t": "chat", "text": "hello, I am new here"}))
    assert (await next_of(fresh, "error", "chat"))["text"] == "hello, I am new here"

    # A seat link re-issued by the host is a new holder too.
    await ws.send(codec.pack({"t": "mute", "seat": newcomer.seat, "muted": True}))
    await muted_in_view(ws, [newcomer.seat])
    relinked = await client.reissue_seat(host.code, host.token, newcomer.seat)
    linked, _ = await hello(server.port, host.code, [relinked.token])
    assert (await next_of(linked, "view"))["room"]["talk"] is None
    await linked.send(codec.pack({"t": "react", "reaction": "thanks"}))
    assert (await next_of(linked, "error", "react"))["t"] == "react"
    for sock in (ws, fresh, linked):
        await sock.close()
