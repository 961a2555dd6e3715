"""Faults played for real: a Redis the test stops and starts, a server told to stop."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from client.lib import Client
from server.store import codec
from server.store.group_commit import redis_key
from server.web.frames import Close
from tests.conftest import RedisProcess
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.test_hardening import close_code, frame, hello


@pytest.fixture
def outage_server(own_redis: RedisProcess, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(own_redis.url, tmp_path / "server.log")
    proc.start()
    yield proc
    proc.stop()


def no_detail(answer: httpx.Response) -> bool:
    """A store_error answer that tells the client nothing of the infrastructure."""
    message = answer.json()["message"]
    return "Redis" not in message and "Errno" not in message and "127.0.0.1" not in message


async def test_a_redis_outage_answers_503_store_error_and_an_error_frame(
    own_redis: RedisProcess, outage_server: ServerProcess
) -> None:
    url = outage_server.url
    own_redis.stop()
    async with httpx.AsyncClient(base_url=url, timeout=20) as h:
        for answer in (
            await h.post("/api/rooms", json={"game": "usunoro"}),
            await h.get("/api/rooms"),
            await h.get("/api/rooms/ABCDEF"),
            await h.post("/api/rooms/ABCDEF/seats", json={}),
        ):
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "store_error" and no_detail(answer)
        # Alive (a liveness probe must not restart it), not ready (send clients elsewhere).
        assert (await h.get("/livez")).json() == {"ok": True}
        ready = await h.get("/readyz")
        assert ready.status_code == 503 and ready.json()["store"] is False
        ws = await hello(outage_server, "ABCDEF", [])
        refused = await frame(ws, "error")
        assert refused["code"] == "store_error" and "Redis" not in refused["message"]
        assert await close_code(ws) == Close.TRY_AGAIN_LATER
        own_redis.start()
        assert (await h.post("/api/rooms", json={"game": "usunoro"})).status_code == 201
    assert outage_server.alive()
    assert "never retrieved" not in outage_server.output()


async def test_shutdown_sends_a_closed_frame_before_closing_with_1012(
    server_for_shutdown: ServerProcess,
) -> None:
    client = Client(server_for_shutdown.url)
    host = await client.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    ws = await hello(server_for_shutdown, host.code, [host.token])
    await frame(ws, "view")
    stopping = asyncio.create_task(asyncio.to_thread(server_for_shutdown.stop, signal.SIGTERM))
    closed = await frame(ws, "closed")
    assert closed["code"] == "server_shutdown"
    assert await close_code(ws) == Close.SERVICE_RESTART
    assert await stopping in CLEAN_EXIT


@pytest.fixture
def server_for_shutdown(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(redis_url, tmp_path / "server.log")
    proc.start()
    yield proc
    proc.stop()


@pytest.mark.parametrize("kind", ["redis", "sentinel", "cluster"])
async def test_a_server_restarted_in_place_serves_its_rooms_at_once(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis_url = request.getfixturevalue(f"{kind}_url")  # one Redis, Sentinel's, a cluster
    # A lease far longer than the test: a restarted process that had to wait its own
    # leases out would answer room_elsewhere throughout.
    monkeypatch.setenv("ZASHIKI_LEASE_MS", "600000")
    first = ServerProcess(redis_url, tmp_path / "first.log")
    first.start()
    client = Client(first.url)
    host = await client.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    ws = await hello(first, host.code, [host.token])
    await frame(ws, "view")
    first.stop(signal.SIGKILL)  # no goodbye, leases left held
    second = ServerProcess(redis_url, tmp_path / "second.log", port=first.port)
    second.start()
    try:
        again = await hello(second, host.code, [host.token])
        assert (await frame(again, "welcome"))["seats"] == [host.seat]
        await again.close()
    finally:
        second.stop()


async def test_the_python_client_retries_a_first_connect_refused_as_room_elsewhere(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZASHIKI_NODE_ID", "first-life")
    first = ServerProcess(redis_url, tmp_path / "first.log")
    first.start()
    host = await Client(first.url).create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    first.stop(signal.SIGKILL)
    monkeypatch.setenv("ZASHIKI_NODE_ID", "second-life")
    second = ServerProcess(redis_url, tmp_path / "second.log")
    second.start()
    try:
        # The room's lease is held by a process that is gone (for a few seconds more):
        # the server answers room_elsewhere until it lapses.
        admin = aioredis.Redis.from_url(redis_url)
        await admin.set(redis_key("zk:", "lease", host.code), "gone-process", px=4000)
        await admin.aclose()
        ws = await hello(second, host.code, [host.token])
        assert (await frame(ws, "error"))["code"] == "room_elsewhere"
        async with await Client(second.url).connect(host.code, [host.token]) as conn:
            assert conn.seats == [host.seat]
    finally:
        second.stop()


@pytest.fixture
def pinging_server(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    """A server whose websocket keep-alive pings every half second."""
    monkeypatch.setenv("ZASHIKI_WS_PING_S", "0.5")
    proc = ServerProcess(redis_url, tmp_path / "server.log")
    proc.start()
    yield proc
    proc.stop()


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """(opcode, payload) of each whole frame in bytes a server sent (never masked)."""
    found, at = [], 0
    while at + 2 <= len(data):
        opcode, size, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if size == 126:
            size, at = int.from_bytes(data[at : at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(data[at : at + 8], "big"), at + 8
        if at + size > len(data):
            break
        found.append((opcode, data[at : at + size]))
        at += size
    return found


async def test_a_client_that_never_reads_is_closed_with_the_documented_1011(
    pinging_server: ServerProcess,
) -> None:
    host = await Client(pinging_server.url).create_room(
        "usunoro", seats=["host", "cpu", "cpu", "cpu"]
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", pinging_server.port)
    writer.write(
        f"GET /ws?room={host.code} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    hello_frame = codec.pack({"t": "hello", "tokens": [host.token]})
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(hello_frame))
    writer.write(bytes([0x82, 0x80 | len(hello_frame)]) + mask + masked)
    await writer.drain()
    # Never answer anything (no pong): read only once the server has hung up.
    data = await asyncio.wait_for(reader.read(), 60)
    writer.close()
    body = data.split(b"\r\n\r\n", 1)[1]
    frames_sent = server_frames(body)
    closes = [payload for opcode, payload in frames_sent if opcode == 0x8]
    assert closes and int.from_bytes(closes[-1][:2], "big") == 1011
    assert any(opcode == 0x9 for opcode, _ in frames_sent)  # the unanswered pings
