"""Issue 46, finding 11, over a real server: a hello with one seat's token twice is
refused saying so, and every HTTP answer carries the security headers (the policy's
effect in a browser: tests/browser/test_hardening_browser.py)."""

from __future__ import annotations

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from client.lib import Client
from server.store import codec
from server.web.frames import Close
from tests.net.conftest import ServerProcess


async def test_a_hello_with_the_same_token_twice_says_what_is_wrong(
    server: ServerProcess, client: Client
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    url = f"ws://127.0.0.1:{server.port}/ws?room={host.code}"
    async with connect(url, compression=None) as ws:
        await ws.send(codec.pack({"t": "hello", "tokens": [host.token, host.token]}))
        error = codec.unpack(await ws.recv())
        assert error["t"] == "error" and error["code"] == "bad_token"
        assert "twice" in error["message"], error
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == Close.BAD_TOKEN
    async with connect(url, compression=None) as ws:
        await ws.send(codec.pack({"t": "hello", "tokens": ["not-a-token"]}))
        assert "does not belong" in codec.unpack(await ws.recv())["message"]


@pytest.mark.parametrize("path", ["/", "/index.html", "/app.js", "/api/games", "/api/nothing"])
async def test_every_answer_carries_the_security_headers(server: ServerProcess, path: str) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as h:
        headers = (await h.get(path)).headers
    policy = {
        part.split()[0]: part.split()[1:] for part in headers["content-security-policy"].split("; ")
    }
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert policy["frame-ancestors"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert headers["x-frame-options"] == "SAMEORIGIN"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"
