"""Structured logs, read as an operator's log collector would: two real servers on one
Redis with `ZASHIKI_LOG_FORMAT=json` (host and port from ZASHIKI_HOST / ZASHIKI_PORT, the
access log on). A room created on one is played on the other to the end; every line
either prints parses as a JSON object with time, level, logger and message; the room's
life is there at INFO (created, handed over, taken over, seat re-issued, started,
covered, over, closed); and no line holds a seat token."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.lib import Client, ZashikiError
from tests.conftest import free_port
from tests.net.conftest import CLEAN_EXIT, ROOT, ServerProcess
from tests.net.players import choose

LIFECYCLE = {
    "created",
    "handed_over",
    "taken_over",
    "seat_reissued",
    "started",
    "covered",
    "over",
    "closed",
}


class JsonServer:
    """`python -m server serve` configured only by environment variables."""

    def __init__(self, redis_url: str, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {
            **os.environ,
            "ZASHIKI_HOST": "127.0.0.1",
            "ZASHIKI_PORT": str(self.port),
            "ZASHIKI_REDIS_URL": redis_url,
            "ZASHIKI_LOG_FORMAT": "json",
            "ZASHIKI_ACCESS_LOG": "on",
        }
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server", "serve"], cwd=ROOT, env=env, stdout=out, stderr=out
            )
        deadline = time.monotonic() + 20
        try:
            while True:
                assert self.proc.poll() is None, log.read_text()
                try:
                    with urllib.request.urlopen(self.url + "/readyz", timeout=1):
                        return
                except OSError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.05)
        except BaseException:
            self.proc.kill()  # never left running by a start that failed
            self.proc.wait()
            raise

    def stop(self) -> int:
        """SIGTERM, and the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=30)
        return self.proc.returncode


@pytest.fixture
def servers(redis_url: str, tmp_path: Path) -> Iterator[list[JsonServer]]:
    """Two JSON-logging servers on one Redis."""
    started: list[JsonServer] = []
    try:
        for i in range(2):
            started.append(JsonServer(redis_url, tmp_path / f"server{i}.log"))
        yield started
    finally:
        for server in started:
            server.stop()


async def test_json_logs_carry_a_room_s_life_and_never_a_token(
    servers: list[JsonServer],
) -> None:
    a, b = servers
    on_a = Client(a.url)
    host = await on_a.create_room(
        "usunoro",
        seats=["host", "open", "cpu", "cpu"],
        options={"length": "short"},
        cover_after_s=1,
    )
    friend = await on_a.take_seat(host.code)
    again = await on_a.reissue_seat(host.code, host.token, friend.seat)  # then never comes
    tokens = {host.token, friend.token, again.token}
    await on_a.start(host.code, host.token)
    on_b = Client(b.url)
    # Connected through B with nobody at A, the room is handed to B.
    async with await on_b.connect(host.code, [host.token]) as conn:
        async for message in conn.views():
            await conn.send({"t": "shown", "version": message["version"]})
            if message["room"]["status"] == "over":
                break
            move = choose(message["view"], message["legal"].get(host.seat, []))
            if move is not None:
                try:
                    await conn.move(move)
                except ZashikiError as refused:
                    assert refused.code == "illegal_action"
    await asyncio.sleep(0.2)  # the last save's log lines
    assert a.stop() in CLEAN_EXIT and b.stop() in CLEAN_EXIT

    events: dict[str, set[str]] = {}
    for server in servers:
        for line in server.log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)  # every line is one JSON object
            assert isinstance(record, dict), line
            assert {"time", "level", "logger", "message"} <= record.keys(), line
            assert record["node"] == f"{socket.gethostname()}:{server.port}", line
            assert not any(token in line for token in tokens), line
            if record.get("room") == host.code:
                assert record["level"] == "info", line
                events.setdefault(record["event"], set()).add(record["logger"])
    assert events.keys() >= LIFECYCLE, sorted(events)
    access = [ln for ln in a.log.read_text().splitlines() if '"uvicorn.access"' in ln]
    assert any("POST /api/rooms " in json.loads(ln)["message"] for ln in access)
    # With the access log on, websockets have their access lines too.
    assert '"WebSocket /ws?room=' in b.log.read_text()


async def test_without_the_access_log_no_websocket_is_logged(
    redis_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(redis_url, tmp_path / "server.log")  # access log off
    server.start()
    client = Client(server.url)
    host = await client.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    async with await client.connect(host.code, [host.token]) as conn:
        await conn.next_view()
    await asyncio.sleep(0.2)  # the close's lines
    assert server.stop() in CLEAN_EXIT
    output = server.output()
    assert f"room {host.code} created" in output  # the log is there, at INFO
    assert "WebSocket /ws" not in output and "connection open" not in output, output
    assert "connection closed" not in output, output
