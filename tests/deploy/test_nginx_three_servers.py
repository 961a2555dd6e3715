"""deploy/ run for real: Debian's nginx with deploy/nginx.conf in front of three
`zashiki serve` processes on one Redis; a match played through the proxy survives the
SIGKILL of the process running its room.

The nginx.conf is used as it is; only its two include files (where to listen, which
servers) are written here, since the compose file's names do not exist on this machine.
Without nginx the test is skipped (ZASHIKI_REQUIRE_DEPLOY=1, which .ci/run sets, makes
that a failure).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.lib import Client, Connection, ZashikiError
from tests.conftest import free_port, stop_process, wait_for_port
from tests.net.conftest import ServerProcess
from tests.net.players import choose, seat_view
from tests.optional import unavailable

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
LEASE_MS = 3000  # takeover after a crash comes this long after the last renewal
# Early, since a short match with three CPUs can be over by version 8 or so; and the kill
# falls only on a view of a match still on (one on its last view would need no reconnect).
KILL_AT_VERSION = 6


def nginx_binary() -> str:
    """Debian's nginx, or skip (fail when required)."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )
    if found is None:
        unavailable(
            "deploy test needs nginx: apt-get install nginx (bash .ci/run does)",
            "ZASHIKI_REQUIRE_DEPLOY",
        )
    return found


@pytest.fixture
def servers(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[ServerProcess]]:
    """Three server processes on one Redis, with a short lease."""
    monkeypatch.setenv("ZASHIKI_LEASE_MS", str(LEASE_MS))
    procs = [ServerProcess(redis_url, tmp_path / f"server{i}.log") for i in range(3)]
    try:
        for proc in procs:
            proc.start()
        yield procs
    finally:
        for proc in procs:
            if proc.alive():
                proc.stop()


@pytest.fixture
def proxy(servers: list[ServerProcess], tmp_path: Path) -> Iterator[str]:
    """nginx with deploy/nginx.conf, listening on a free port, in front of `servers`."""
    binary = nginx_binary()
    prefix = tmp_path / "nginx"
    (prefix / "logs").mkdir(parents=True)
    shutil.copy(DEPLOY / "nginx.conf", prefix / "nginx.conf")
    port = free_port()
    (prefix / "zashiki-listen.conf").write_text(f"listen 127.0.0.1:{port};\n")
    upstreams = "".join(f"server 127.0.0.1:{s.port};\n" for s in servers)
    (prefix / "zashiki-upstreams.conf").write_text(upstreams)
    args = [binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    args += ["-g", f"daemon off; pid {prefix}/nginx.pid; error_log {prefix}/logs/error.log;"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc)


def rooms_live(server: ServerProcess) -> int:
    """How many rooms this process runs, from its /metrics."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        text = answer.read().decode()
    line = next(ln for ln in text.splitlines() if ln.startswith("zashiki_rooms_live "))
    return int(float(line.split()[1]))


async def runner_of(servers: list[ServerProcess]) -> ServerProcess:
    """The process that runs the (only) room, once exactly one does."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        running = [s for s in servers if s.alive() and rooms_live(s) > 0]
        if len(running) == 1:
            return running[0]
        await asyncio.sleep(0.1)
    raise AssertionError("no single process runs the room")


async def play_until_over(conn: Connection, views: list[tuple[float, int]], on_view) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """Play the connection's seat to the end, noting when each view arrived."""
    async for message in conn.views():
        views.append((time.monotonic(), message["version"]))
        await on_view(message)
        message = conn.view or message
        await conn.send({"t": "shown", "version": message["version"]})
        if message["room"]["status"] == "over":
            return message
        for seat, legal in message["legal"].items():
            move = choose(seat_view(message, seat), legal)
            if move is not None:
                try:
                    await conn.move(move, seat=seat)
                except ZashikiError as exc:
                    if exc.code != "illegal_action":
                        raise
    raise ConnectionError("the connection closed before the match ended")


async def test_a_match_through_nginx_survives_sigkill_of_its_process(
    servers: list[ServerProcess], proxy: str
) -> None:
    client = Client(proxy)
    host = await client.create_room(
        "usunoro", seats=["host", "cpu", "cpu", "cpu"], options={"length": "short"}
    )
    await client.start(host.code, host.token)
    views: list[tuple[float, int]] = []
    killed: dict[str, float] = {}

    async def maybe_kill(message: dict) -> None:  # type: ignore[type-arg]
        playing = message["room"]["status"] == "playing"
        if not killed and playing and message["version"] >= KILL_AT_VERSION:
            victim = await runner_of(servers)
            assert victim.proc is not None
            victim.proc.send_signal(signal.SIGKILL)
            victim.proc.wait()
            killed["at"] = time.monotonic()
            killed["version"] = message["version"]

    async with await client.connect(host.code, [host.token]) as conn:
        last = await asyncio.wait_for(play_until_over(conn, views, maybe_kill), 120)
    assert killed, "the match ended before a process was killed"
    assert last["room"]["status"] == "over" and len(last["outcome"]["places"]) == 4
    assert conn.reconnects >= 1
    after = [t for t, _ in views if t > killed["at"]]
    stall = after[0] - killed["at"]
    print(f"\ndeploy: the match stalled {stall:.2f} s after SIGKILL (lease {LEASE_MS} ms)")
    assert sum(s.alive() for s in servers) == 2
    assert (await Client(proxy).room(host.code))["status"] == "over"
