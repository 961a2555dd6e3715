"""Fixtures for end-to-end tests: a real `zashiki serve` process on a free port, real Redis.

`ServerProcess` runs the README's server command in a subprocess (so a test can stop it
and start another on the same Redis); `server` is one such process shared by the module.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.lib import Client
from tests.conftest import free_port, stop_after_test

ROOT = Path(__file__).resolve().parents[2]
# uvicorn shuts down gracefully on SIGTERM, then re-raises the signal to exit with it.
CLEAN_EXIT = (0, -signal.SIGTERM)


class ServerProcess:
    """`python -m server serve` on 127.0.0.1:`port`, logging to `log_path`."""

    def __init__(self, redis_url: str, log_path: Path, port: int | None = None) -> None:
        self.redis_url = redis_url
        self.log_path = log_path
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process and wait until /healthz answers. Stopped again if it does
        not come up; one a test's body started is stopped when the test ends."""
        args = [sys.executable, "-m", "server", "serve", "--port", str(self.port)]
        args += ["--redis-url", self.redis_url]
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(args, cwd=ROOT, stdout=log, stderr=log)
        stop_after_test(self)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        self.stop(signal.SIGKILL)
        raise RuntimeError(f"server did not come up:\n{self.output()}")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Signal the process and wait for it to exit; returns its exit code."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None

    def output(self) -> str:
        """Everything the process logged so far."""
        return self.log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the test module; fails the module if it ever died."""
    proc = ServerProcess(redis_url, tmp_path_factory.mktemp("serve") / "server.log")
    proc.start()
    yield proc
    assert proc.alive(), f"the server died:\n{proc.output()}"
    assert proc.stop() in CLEAN_EXIT, proc.output()


@pytest.fixture
def client(server: ServerProcess) -> Client:
    """A client library instance pointed at the module's server."""
    return Client(server.url)
