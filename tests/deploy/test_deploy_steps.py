"""deploy/README.md's steps without containers, run as they are written (conftest.py):
one process on Redis, and three processes behind Debian's nginx with deploy/nginx.conf;
then a match played through that proxy survives the SIGKILL of the process running its
room, and the stop block stops everything."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import subprocess
import time
import urllib.request

from client.lib import Client, Connection, ZashikiError
from tests.deploy.conftest import LEASE_MS, Site, alive, block
from tests.net.players import choose, seat_view

# Early, since a short match with three CPUs can be over by version 8 or so; and the kill
# falls only on a view of a match still on (one on its last view would need no reconnect).
KILL_AT_VERSION = 6


def get(url: str) -> str:
    """An HTTP GET's body."""
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.read().decode()


def rooms_live(port: int) -> int:
    """How many rooms the server on `port` runs, from its /metrics."""
    text = get(f"http://127.0.0.1:{port}/metrics")
    line = next(ln for ln in text.splitlines() if ln.startswith("zashiki_rooms_live "))
    return int(float(line.split()[1]))


async def runner_of(site: Site) -> int:
    """The port of the process that runs the (only) room, once exactly one does."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        running = [p for p in site.servers if alive(site.pid(p)) and rooms_live(p) > 0]
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


def test_one_process_on_redis_as_written(site: Site) -> None:
    (command,) = site.put_in(block(after="### One process on Redis")).strip().splitlines()
    proc = subprocess.Popen(
        shlex.split(command), cwd=site.cwd, env=site.env(), stderr=subprocess.PIPE, text=True
    )
    port = site.proxy  # the block's 8000
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()[1]
            try:
                if json.loads(get(f"http://127.0.0.1:{port}/readyz"))["ok"]:
                    break
            except OSError:
                assert time.monotonic() < deadline, "never ready"
                time.sleep(0.1)
        assert "usunoro" in get(f"http://127.0.0.1:{port}/api/games")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode in (0, -signal.SIGTERM), err
    assert "Traceback" not in err and "rooms saved" in err


async def test_three_processes_behind_nginx_as_written_survive_a_sigkill(site: Site) -> None:
    site.run(block("start"))
    proxy = f"http://127.0.0.1:{site.proxy}"
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
            victim = site.pid(await runner_of(site))
            os.kill(victim, signal.SIGKILL)
            while alive(victim):
                await asyncio.sleep(0.01)
            killed["at"] = time.monotonic()

    async with await client.connect(host.code, [host.token]) as conn:
        try:
            last = await asyncio.wait_for(play_until_over(conn, views, maybe_kill), 120)
        except Exception as exc:
            raise AssertionError(site.logs()) from exc
    assert killed, "the match ended before a process was killed"
    assert last["room"]["status"] == "over" and len(last["outcome"]["places"]) == 4
    assert conn.reconnects >= 1
    after = [t for t, _ in views if t > killed["at"]]
    stall = after[0] - killed["at"]
    print(f"\ndeploy: the match stalled {stall:.2f} s after SIGKILL (lease {LEASE_MS} ms)")
    assert sum(alive(site.pid(p)) for p in site.servers) == 2
    assert (await Client(proxy).room(host.code))["status"] == "over"

    site.run(block("stop"))
    nginx_pid = site.cwd / "run" / "nginx" / "nginx.pid"

    def running() -> bool:
        return nginx_pid.exists() or any(alive(site.pid(p)) for p in site.servers)

    deadline = time.monotonic() + 30
    while running() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not running(), site.logs()
