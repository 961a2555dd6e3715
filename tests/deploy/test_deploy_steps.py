"""deploy/README.md's steps without containers, run as they are written: one process on
Redis, and three processes behind Debian's nginx with deploy/nginx.conf; then a match
played through that proxy survives the SIGKILL of the process running its room.

The fenced blocks are taken from the README itself and run by bash in a copy of deploy/,
with only the ports (8000-8003: free ones here) and the Redis address (the suite's own)
put in. `zashiki` is the installed command, running the tree under test (PYTHONPATH).
Without nginx the test is skipped (ZASHIKI_REQUIRE_DEPLOY=1, which .ci/run sets, makes
that a failure).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from client.lib import Client, Connection, ZashikiError
from tests.conftest import free_port
from tests.net.players import choose, seat_view
from tests.optional import unavailable

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "deploy" / "README.md"
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


def block(marker: str | None = None, after: str | None = None) -> str:
    """The README's first ```sh block after `<!-- deploy-test: MARKER -->` (or after the
    heading `after`)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"<!-- deploy-test: {marker} -->" if marker else after)
    return text[start:].split("```sh\n", 1)[1].split("```", 1)[0]


@dataclass
class Site:
    """Where the README's steps run here: ports for 8000-8003, the Redis, a directory."""

    proxy: int
    servers: list[int]
    redis_url: str
    cwd: Path

    def put_in(self, commands: str) -> str:
        """The README's commands with this machine's ports and Redis put in."""
        commands = commands.replace("redis://127.0.0.1:6379/0", self.redis_url)
        ports = dict(zip(("8001", "8002", "8003"), map(str, self.servers), strict=True))
        ports["8000"] = str(self.proxy)
        return re.sub(r"\b800[0-3]\b", lambda m: ports[m[0]], commands)

    def env(self) -> dict[str, str]:
        """The shell's environment: the installed `zashiki` on PATH, running this tree."""
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        return {
            **os.environ,
            "PATH": path,
            "PYTHONPATH": str(ROOT),
            "ZASHIKI_LEASE_MS": str(LEASE_MS),
        }

    def run(self, commands: str) -> None:
        """Run the commands in bash, -e, here; fail with their output if one fails."""
        log = self.cwd / "steps.log"
        with log.open("ab") as out:
            done = subprocess.run(
                ["bash", "-ec", self.put_in(commands)],
                cwd=self.cwd,
                env=self.env(),
                stdout=out,
                stderr=out,
                timeout=90,
            )
        assert done.returncode == 0, log.read_text(errors="replace")

    def pid(self, port: int) -> int:
        """A server's process id, from the pid file the steps wrote."""
        return int((self.cwd / "run" / f"zashiki-{port}.pid").read_text())

    def logs(self) -> str:
        """Every server's log, for a failure's message."""
        return "\n".join(
            f"-- {p.name}:\n{p.read_text(errors='replace')[-3000:]}"
            for p in sorted((self.cwd / "run").glob("zashiki-*.log"))
        )


def alive(pid: int) -> bool:
    """Whether a process (not yet reaped elsewhere) still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return status.exists() and status.read_text().split()[2] != "Z"


@pytest.fixture
def site(redis_url: str, tmp_path: Path) -> Iterator[Site]:
    """A copy of deploy/ to run the steps in; whatever they started is stopped after."""
    nginx_binary()
    shutil.copytree(ROOT / "deploy", tmp_path / "deploy")
    here = Site(free_port(), [free_port() for _ in range(3)], redis_url, tmp_path)
    try:
        yield here
    finally:
        nginx_pid = tmp_path / "run" / "nginx" / "nginx.pid"
        if nginx_pid.exists():
            os.kill(int(nginx_pid.read_text()), signal.SIGTERM)
        for pid_file in (tmp_path / "run").glob("zashiki-*.pid"):
            pid = int(pid_file.read_text())
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


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
