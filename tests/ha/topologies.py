"""Real Redis topologies on loopback ports: Sentinel (a primary, a replica and three
sentinels) and Cluster (three primaries, a replica each), each started once per test
session or module, or per test for a drill that stops a node.

A drill's primary is reached through `LinkProxy`, a TCP relay that can freeze the
replication link alone, as a network would: what the primary wrote after that never
reaches the replica, while clients and sentinels still reach the primary. The relay is an
event loop on a thread of the test process: it dies when a test forbids the clock
(patching `time.monotonic`, as the bot tests do) and forwards nothing while that process
holds the GIL; past the sentinels' down-after time they fail the primary over. The
session's Sentinel topology (tests/conftest.py `sentinel_url`), which no test means to
fail over, has no relay: its sentinels reach the primary directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import redis

from tests.conftest import free_port, redis_server_binary, stop_process, wait_for_port

SERVICE = "zk"


def start_redis(workdir: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """A redis-server on 127.0.0.1:`port`, no persistence, its files in `workdir`."""
    binary = redis_server_binary()
    assert binary is not None, "no redis-server on PATH"
    workdir.mkdir(parents=True, exist_ok=True)
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir)]
    args += ["--save", "", "--appendonly", "no", *extra]
    # A new replica is synced at once (Redis waits 5 s by default for others to share
    # the transfer with).
    args += ["--repl-diskless-sync-delay", "0"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, proc)
    return proc


def until(check: object, timeout: float, what: str) -> None:
    """Poll `check()` (a callable) until it is true; fail naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(redis.RedisError, OSError):
            if check():  # type: ignore[operator]
                return
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


class LinkProxy:
    """A TCP relay from a local port to `target`, on a thread of its own. `freeze()`
    stops the replication connections through it (those that sent PSYNC) and `cut()`
    drops them, discarding what was held back."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.frozen = False
        self._writers: set[asyncio.StreamWriter] = set()
        self._replication: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            asyncio.start_server(self._accept, "127.0.0.1", self.port)
        )
        self._ready.set()
        self._loop.run_forever()
        server.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        pair = (writer, up_writer)
        self._writers |= set(pair)
        await asyncio.gather(
            self._pipe(reader, up_writer, pair, True), self._pipe(up_reader, writer, pair, False)
        )

    async def _pipe(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
        upstream: bool,
    ) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                if upstream and b"PSYNC" in data:
                    self._replication |= set(pair)
                if self.frozen and writer in self._replication:
                    continue  # held back by the "network", then lost with the cut
                writer.write(data)
                await writer.drain()
        writer.close()
        self._writers.discard(writer)
        self._replication.discard(writer)

    def freeze(self) -> None:
        """From now on nothing gets through (both ways); connections stay open."""
        self.frozen = True

    def cut(self) -> None:
        """Drop every connection through the relay, and let new ones through again."""

        def cut() -> None:
            for writer in list(self._replication):
                writer.transport.abort()
            self._replication.clear()
            self.frozen = False

        self._loop.call_soon_threadsafe(cut)

    def close(self) -> None:
        """Stop the relay's thread."""

        def close() -> None:
            for writer in list(self._writers):
                writer.transport.abort()
            self._loop.stop()

        self._loop.call_soon_threadsafe(close)
        self._thread.join(5)


class SentinelSetup:
    """A primary, its replica and three sentinels watching SERVICE, which fail a primary
    over once it has not answered for `down_after_ms`. With `link_proxy` the primary is
    behind a `LinkProxy` (everyone, sentinels too, knows it by the relay's port) that
    a drill may freeze and cut (`link`)."""

    def __init__(self, workdir: Path, link_proxy: bool = True, down_after_ms: int = 1000) -> None:
        self.workdir = workdir
        self.ports = [free_port(), free_port()]  # the two data servers
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.down_after_ms = down_after_ms
        self.proxy = LinkProxy(self.ports[0]) if link_proxy else None
        # The primary's address as everyone knows it: the relay's port, or its own.
        self.known_port = self.ports[0] if self.proxy is None else self.proxy.port

    @property
    def link(self) -> LinkProxy:
        """The relay in front of the first primary (a drill's topology only)."""
        assert self.proxy is not None, "this topology has no link proxy"
        return self.proxy

    @property
    def url(self) -> str:
        """The redis+sentinel:// address of the service."""
        nodes = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        return f"redis+sentinel://{nodes}/{SERVICE}/0"

    def start(self) -> None:
        """Start everything and wait until the sentinels agree on the primary and replica."""
        primary, replica = self.ports
        self.procs[primary] = start_redis(self.workdir / str(primary), primary)
        self.procs[replica] = start_redis(
            self.workdir / str(replica),
            replica,
            "--replicaof",
            "127.0.0.1",
            str(self.known_port),
        )
        for port in self.sentinel_ports:
            conf = self.workdir / f"sentinel-{port}.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {self.known_port} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} {self.down_after_ms}\n"
                f"sentinel failover-timeout {SERVICE} 5000\n"
                f"sentinel parallel-syncs {SERVICE} 1\n"
            )
            binary = redis_server_binary()
            assert binary is not None
            self.procs[port] = subprocess.Popen(
                [binary, str(conf), "--sentinel"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wait_for_port(port, self.procs[port])
        self.wait_settled()

    def sentinel(self, port: int | None = None) -> redis.Redis:
        """A client of one sentinel."""
        return redis.Redis(port=port or self.sentinel_ports[0], socket_timeout=2)

    def primary_port(self) -> int:
        """The port of the primary the sentinels name now (the server's, not the relay's)."""
        with self.sentinel() as client:
            port = int(client.sentinel_get_master_addr_by_name(SERVICE)[1])
        return self.ports[0] if port == self.known_port else port

    def wait_settled(self, timeout: float = 30) -> None:
        """Until every sentinel knows the others and a replica in sync with the primary."""

        def settled() -> bool:
            for port in self.sentinel_ports:
                with self.sentinel(port) as client:
                    if len(client.sentinel_sentinels(SERVICE)) < 2:
                        return False
                    replicas = client.sentinel_slaves(SERVICE)
                    if not any(r["master-link-status"] == "ok" for r in replicas):
                        return False
            with redis.Redis(port=self.primary_port()) as primary:
                return int(primary.info("replication")["connected_slaves"]) >= 1

        until(settled, timeout, "the sentinels settling")

    def kill_primary(self) -> int:
        """kill -9 the primary; returns its port."""
        port = self.primary_port()
        self.procs[port].send_signal(signal.SIGKILL)
        self.procs[port].wait()
        return port

    def restart(self, port: int, replica_of: int) -> None:
        """Start the server of `port` again, empty, as a replica of `replica_of`."""
        self.procs[port] = start_redis(
            self.workdir / str(port), port, "--replicaof", "127.0.0.1", str(replica_of)
        )

    def stop(self) -> None:
        """Stop every process and the relay."""
        for proc in self.procs.values():
            if proc.poll() is None:
                stop_process(proc)
        if self.proxy is not None:
            self.proxy.close()


class ClusterSetup:
    """A Redis Cluster of `primaries` primaries, each with `replicas` replicas, made with
    `redis-cli --cluster create`; a short node timeout (a dead primary's replica takes
    over within seconds)."""

    def __init__(
        self, workdir: Path, primaries: int = 3, replicas: int = 1, extra: tuple[str, ...] = ()
    ) -> None:
        self.workdir = workdir
        self.extra = extra  # more redis-server arguments for every node
        self.primaries = primaries
        self.replicas = replicas
        self.ports = [free_port() for _ in range(primaries * (1 + replicas))]
        # Each node's cluster bus port, free too (by default the port + 10000, which may
        # be taken or past 65535).
        self.bus_ports = {port: free_port() for port in self.ports}
        self.procs: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """The redis+cluster:// address: two of the nodes, as seeds."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports[:2]) + "/"

    def start(self) -> None:
        """Start every node, join them into a cluster, wait until every node sees it whole."""
        try:
            for port in self.ports:
                self._start_node(port)
            cli = shutil.which("redis-cli")
            assert cli is not None, "no redis-cli on PATH"
            subprocess.run(
                [cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports)]
                + ["--cluster-replicas", str(self.replicas), "--cluster-yes"],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=60,
            )
            self.wait_settled()
        except BaseException:
            self.stop()
            raise

    def _start_node(self, port: int) -> None:
        self.procs[port] = start_redis(
            self.workdir / str(port),
            port,
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            f"nodes-{port}.conf",
            "--cluster-port",
            str(self.bus_ports[port]),
            "--cluster-node-timeout",
            "1500",
            *self.extra,
        )

    def client(self, port: int) -> redis.Redis:
        """A plain client of one node."""
        return redis.Redis(port=port, socket_timeout=2)

    def primary_ports(self) -> list[int]:
        """The ports of the nodes that are primaries now (and answer)."""
        found = []
        for port, proc in self.procs.items():
            if proc.poll() is None:
                with contextlib.suppress(redis.RedisError), self.client(port) as client:
                    if client.execute_command("ROLE")[0] == b"master":
                        found.append(port)
        return sorted(found)

    def wait_settled(self, timeout: float = 60) -> None:
        """Until every live node says the cluster is ok and each primary has its replicas
        in sync."""

        def settled() -> bool:
            for port, proc in self.procs.items():
                if proc.poll() is not None:
                    continue
                with self.client(port) as client:
                    if b"cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                        return False
                    role = client.execute_command("ROLE")
                    if role[0] == b"master" and len(role[2]) < self.replicas:
                        return False
            return len(self.primary_ports()) == self.primaries

        until(settled, timeout, "the cluster settling")

    def replica_of(self, port: int) -> int:
        """The port of a live replica of the primary on `port`."""
        for replica, proc in self.procs.items():
            if replica != port and proc.poll() is None:
                with self.client(replica) as client:
                    role = client.execute_command("ROLE")
                if role[0] == b"slave" and int(role[2]) == port:
                    return replica
        raise AssertionError(f"no replica of {port}")

    def kill(self, port: int) -> None:
        """kill -9 one node."""
        self.procs[port].send_signal(signal.SIGKILL)
        self.procs[port].wait()

    def restart(self, port: int) -> None:
        """Start a killed node again (it keeps its cluster config file: it rejoins)."""
        self._start_node(port)

    def stop(self) -> None:
        """Stop every node."""
        for proc in self.procs.values():
            if proc.poll() is None:
                stop_process(proc)
