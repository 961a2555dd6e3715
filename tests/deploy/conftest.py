"""What the deploy tests share: deploy/README.md's blocks, and a place to run them.

The fenced blocks are taken from the README itself and run by bash in a copy of deploy/,
with only the ports (8000-8003: free ones here) and the Redis address (the suite's own)
put in. `zashiki` is the installed command, running the tree under test (PYTHONPATH).
Without nginx the tests are skipped (ZASHIKI_REQUIRE_DEPLOY=1, which .ci/run sets, makes
that a failure).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.optional import unavailable

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "deploy" / "README.md"
LEASE_MS = 3000  # takeover after a crash comes this long after the last renewal


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
