"""Abuse and bad input against a real server process: each refused with its code, the
server stays up, nothing changes (issue 18's findings, one test each)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client.lib import Client
from server.store import codec
from server.web.frames import MAX_MESSAGE, Close
from server.web.limits import Limits
from tests.net.conftest import ServerProcess
from tests.net.drive import humans_only_room


def ws_url(server: ServerProcess, code: str) -> str:
    return f"ws://127.0.0.1:{server.port}/ws?room={code}"


async def hello(server: ServerProcess, code: str, tokens: list[str]) -> ClientConnection:
    # No flow control: a test reads only the frames it checks, and a client holding 16
    # unread frames stops reading, so it would miss the server's answer to its close
    # and wait out its 10 s close timeout (70 s for the spectators' test).
    ws = await connect(ws_url(server, code), compression=None, max_size=None, max_queue=None)
    await ws.send(codec.pack({"t": "hello", "tokens": tokens}))
    return ws


async def frame(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of type `kind` (others in between are skipped)."""
    while True:
        got = codec.unpack(await asyncio.wait_for(ws.recv(), 10))
        if got["t"] == kind:
            return got


async def close_code(ws: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return None if closed.value.rcvd is None else closed.value.rcvd.code


def http(server: ServerProcess) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=10)


async def version(server: ServerProcess, code: str) -> int:
    async with http(server) as h:
        return int((await h.get(f"/api/rooms/{code}")).json()["version"])


# -- 6, 10: bodies, paths, methods, tokens ------------------------------------------------
async def test_a_deeply_nested_json_body_is_bad_request(server: ServerProcess) -> None:
    async with http(server) as h:
        answer = await h.post("/api/rooms", content="[" * 1000 + "]" * 1000)
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
        nested = '{"game": "usunoro", "options": ' + '{"a": ' * 40 + "1" + "}" * 41
        answer = await h.post("/api/rooms", content=nested)
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"


async def test_unknown_paths_and_wrong_methods_answer_json(server: ServerProcess) -> None:
    async with http(server) as h:
        missing = await h.get("/api/nothing-here")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        wrong = await h.delete("/api/rooms")
        assert wrong.status_code == 405 and wrong.json()["code"] == "method_not_allowed"


async def test_a_start_with_a_token_of_no_seat_is_bad_token(client: Client) -> None:
    host = await client.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    async with httpx.AsyncClient(base_url=client.base_url) as h:
        answer = await h.post(f"/api/rooms/{host.code}/start", json={"token": "nope"})
    assert answer.status_code == 403 and answer.json()["code"] == "bad_token"


# -- 8: numeric options have a range ----------------------------------------------------
@pytest.mark.parametrize("value", [2**64, 2**70, -1, 3_600_001])
async def test_a_numeric_option_outside_its_range_is_bad_option(
    server: ServerProcess, value: int
) -> None:
    async with http(server) as h:
        for name in ("mark_timeout_ms", "idle_void_ms"):
            body = {"game": "usunoro", "options": {name: value}}
            answer = await h.post("/api/rooms", json=body)
            assert answer.status_code == 400 and answer.json()["code"] == "bad_option"
        games = (await h.get("/api/games")).json()["games"]
    usunoro = next(g for g in games if g["id"] == "usunoro")
    ranged = {o["name"]: (o["minimum"], o["maximum"]) for o in usunoro["options"] if "maximum" in o}
    assert ranged == {"mark_timeout_ms": (0, 3_600_000), "idle_void_ms": (0, 3_600_000)}


# -- 7, 9, 10: move frames ---------------------------------------------------------------
async def test_a_deeply_nested_move_is_bad_frame_and_messages_never_echo_unbounded(
    server: ServerProcess, client: Client
) -> None:
    seats = await humans_only_room(client)
    ws = await hello(server, seats[0].code, [seats[0].token])
    await frame(ws, "view")
    before = await version(server, seats[0].code)
    deep: Any = "x"
    for _ in range(1000):
        deep = [deep]
    # msgpack nests this deep fine (the server's own packer stops at 256 levels, so a
    # hostile client is played by msgpack's); the frame stays under the size limit.
    hostile = {"t": "move", "seat": 0, "seq": 1, "action": {"type": deep}}
    await ws.send(msgpack.packb(hostile, use_bin_type=True))
    refused = await frame(ws, "error")
    assert refused["code"] == "bad_frame"
    await ws.send(codec.pack({"t": "move", "seat": 0, "seq": 1, "action": {"type": "y" * 3000}}))
    refused = await frame(ws, "error")
    assert refused["code"] == "illegal_action" and len(refused["message"]) <= MAX_MESSAGE
    assert await version(server, seats[0].code) == before


async def test_seq_has_a_range_and_no_accepted_seq_locks_the_seat(
    server: ServerProcess, client: Client
) -> None:
    seats = await humans_only_room(client)
    ws = await hello(server, seats[0].code, [seats[0].token])
    view = await frame(ws, "view")
    mark = next(a for a in view["legal"][0] if a["type"] == "mark")
    for seq in (2**62 - 1, 2**53, -1):
        await ws.send(codec.pack({"t": "move", "seat": 0, "seq": seq, "action": mark}))
        refused = await frame(ws, "error")
        assert refused["code"] == "bad_frame" and "2**53" in refused["message"]
    # The furthest jump past the last accepted number is refused too...
    await ws.send(codec.pack({"t": "move", "seat": 0, "seq": 2**53 - 1, "action": mark}))
    assert (await frame(ws, "error"))["code"] == "bad_frame"
    # ... so the seat always has a next number, and a normal move goes through.
    await ws.send(codec.pack({"t": "move", "seat": 0, "seq": 5, "action": mark}))
    assert (await frame(ws, "view"))["ack"]["seq"] == 5


async def test_mistyped_action_and_shown_version_are_bad_frame(
    server: ServerProcess, client: Client
) -> None:
    seats = await humans_only_room(client)
    ws = await hello(server, seats[0].code, [seats[0].token])
    await frame(ws, "view")
    await ws.send(codec.pack({"t": "move", "seat": 0, "seq": 1, "action": ["mark"]}))
    assert (await frame(ws, "error"))["code"] == "bad_frame"
    for bad in ("7", -1, 1.5, [1]):
        await ws.send(codec.pack({"t": "shown", "version": bad}))
        assert (await frame(ws, "error"))["code"] == "bad_frame"


# -- 11: spectators cannot lock players out ---------------------------------------------
async def test_spectators_fill_only_their_own_cap_and_seat_holders_still_get_in(
    server: ServerProcess, client: Client
) -> None:
    seats = await humans_only_room(client)
    code = seats[0].code
    cap = Limits().spectators_per_room
    watching = [await hello(server, code, []) for _ in range(cap)]
    for ws in watching:
        assert (await frame(ws, "welcome"))["seats"] == []
    extra = await hello(server, code, [])
    assert (await frame(extra, "error"))["code"] == "too_many_connections"
    assert await close_code(extra) == Close.TOO_MANY_CONNECTIONS
    for seat in seats:
        ws = await hello(server, code, [seat.token])
        assert (await frame(ws, "welcome"))["seats"] == [seat.seat]
        await ws.close()
    for ws in watching:
        await ws.close()


async def test_a_host_can_refuse_spectators(server: ServerProcess) -> None:
    async with http(server) as h:
        made = await h.post("/api/rooms", json={"game": "usunoro", "spectators": False})
        code, token = made.json()["code"], made.json()["token"]
        assert (await h.get(f"/api/rooms/{code}")).json()["spectators"] is False
    ws = await hello(server, code, [])
    assert (await frame(ws, "error"))["code"] == "no_spectators"
    assert await close_code(ws) == Close.NO_SPECTATORS
    host = await hello(server, code, [token])
    assert (await frame(host, "welcome"))["seats"] == [0]


# -- 13: bodies are limited while read ---------------------------------------------------
def test_a_chunked_body_is_refused_once_past_the_limit_not_read_whole(
    server: ServerProcess,
) -> None:
    chunk = b"x" * 16384
    sent = 0
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # A fixed, small send buffer: the kernel would otherwise grow it to tcp_wmem's
        # maximum (4 MB here), and what it holds counts as sent without the server
        # having read it (it once made this count 4.08 MB against a 16 KB limit).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        sock.setblocking(False)
        answer = b""
        while sent < 32 * 1024 * 1024 and not answer:
            try:
                sock.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
            except BlockingIOError:
                pass
            except OSError:
                break
            with contextlib.suppress(BlockingIOError):
                answer = sock.recv(4096)
        sock.setblocking(True)
        answer += b"" if answer else sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert sent < 4 * 1024 * 1024  # refused early: not after reading 32 MB


# -- 14: the public list comes a page at a time ------------------------------------------
async def test_public_rooms_come_in_pages_with_a_cursor(server: ServerProcess) -> None:
    async with http(server) as h:
        made = set()
        for _ in range(7):
            answer = await h.post("/api/rooms", json={"game": "usunoro", "public": True})
            made.add(answer.json()["code"])
        seen: list[str] = []
        after = ""
        for _ in range(100):
            page = (await h.get("/api/rooms", params={"limit": 3, "after": after})).json()
            assert len(page["rooms"]) <= 3
            seen += [r["code"] for r in page["rooms"]]
            if page["next"] is None:
                break
            after = page["next"]
        assert made <= set(seen) and seen == sorted(seen) and len(seen) == len(set(seen))
        for bad in ("0", "101", "x"):
            answer = await h.get("/api/rooms", params={"limit": bad})
            assert answer.status_code == 400 and answer.json()["code"] == "bad_request"


# -- 12: per-client rate limits ----------------------------------------------------------
@pytest.fixture
def limited_server(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    """A server with small per-client limits: 3 rooms, 3 seats and 5 lookups at once."""
    monkeypatch.setenv("ZASHIKI_RATE_LIMITS", "rooms=6/3,seats=6/3,lookups=6/5")
    proc = ServerProcess(redis_url, tmp_path / "limited.log")
    proc.start()
    yield proc
    proc.stop()


async def test_creating_seating_and_looking_up_are_rate_limited_per_client(
    limited_server: ServerProcess,
) -> None:
    async with http(limited_server) as h:
        made = [await h.post("/api/rooms", json={"game": "usunoro"}) for _ in range(4)]
        assert [a.status_code for a in made] == [201, 201, 201, 429]
        refused = made[-1]
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        code = made[0].json()["code"]
        seats = [await h.post(f"/api/rooms/{code}/seats", json={}) for _ in range(4)]
        assert [a.status_code for a in seats] == [201, 201, 201, 429]
        looks = [await h.get(f"/api/rooms/{code}") for _ in range(6)]
        assert [a.status_code for a in looks] == [200] * 5 + [429]
        # Another client address has limits of its own (uvicorn trusts the loopback proxy).
        other = await h.get(f"/api/rooms/{code}", headers={"X-Forwarded-For": "10.1.2.3"})
        assert other.status_code == 200
    ws = await hello(limited_server, code, [])
    assert (await frame(ws, "error"))["code"] == "rate_limited"
    assert await close_code(ws) == Close.TRY_AGAIN_LATER
    assert json.loads((await httpx.AsyncClient().get(limited_server.url + "/healthz")).text)["ok"]
