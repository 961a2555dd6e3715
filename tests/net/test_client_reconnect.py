"""The client library's reconnect after a server said it is restarting (close code 1012,
sent once its rooms are free for another process): the first try goes at once, not after
the usual pause. Against a stand-in websocket server on a real socket that closes the
first connection with 1012 and welcomes the next."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.server import ServerConnection, serve

from client import lib
from server.store import codec

# Pauses no test waits out: a reconnect that took one would not come in time.
LONG_PAUSES = (60.0,) * 3


def welcome_and_view(version: int) -> list[bytes]:
    """The frames a server sends after a good hello."""
    view = {"t": "view", "version": version, "room": {}, "seats": [], "view": {}, "legal": {}}
    return [codec.pack({"t": "welcome", "seats": [0]}), codec.pack(view)]


async def reconnects_within(close_code: int) -> bool:
    """Whether a connection the stand-in server closes with `close_code` is back (its
    second welcome) within ten seconds."""
    connections = 0

    async def handler(ws: ServerConnection) -> None:
        nonlocal connections
        connections += 1
        await ws.recv()  # the hello
        for frame in welcome_and_view(connections):
            await ws.send(frame)
        if connections == 1:
            await ws.close(close_code, "restarting")
        else:
            await ws.wait_closed()

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        conn = lib.Connection(f"ws://127.0.0.1:{port}/ws?room=R", ["token"])
        await conn.open()
        try:
            async with asyncio.timeout(10):
                while conn.reconnects == 0:
                    await asyncio.sleep(0.01)
            return True
        except TimeoutError:
            return False
        finally:
            await conn.close()


async def test_a_restarting_server_is_reconnected_to_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lib, "RECONNECT_DELAYS", LONG_PAUSES)
    # 1012 "Service Restart": back at once, not after the first of the pauses.
    assert await reconnects_within(1012)
