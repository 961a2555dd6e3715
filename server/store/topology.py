"""Where the Redis is: one server, or a primary found through Sentinel.

`parse(url)` reads the two kinds of address the server takes:

    redis://[:PASSWORD@]HOST:PORT/DB                       (also rediss://, unix://)
    redis+sentinel://[:PASSWORD@]HOST:PORT[,HOST:PORT...]/SERVICE[/DB]
    redis+cluster://[:PASSWORD@]HOST:PORT[,HOST:PORT...]/

A cluster's nodes are seeds: any that answers tells where the others are (cluster.py
follows the slots from there); a cluster has database 0 only.

A password (and user name) is for the Redis servers; sentinels are asked without one.
`PrimaryFinder` asks the sentinels where the primary is and watches them for a failover
(`+switch-master`), so that connections to a demoted primary are dropped at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote, unquote, urlsplit

from redis.asyncio.sentinel import Sentinel
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from server.store.resp import RespConnection

log = logging.getLogger(__name__)

Kind = Literal["single", "sentinel", "cluster"]
# When a save is acknowledged: once the primary has it, or once a replica has it too.
Durability = Literal["primary", "replica"]
DURABILITIES: tuple[Durability, ...] = ("primary", "replica")
Address = tuple[str, int]
SENTINEL_PORT = 26379
# Waits between attempts to watch the sentinels again after losing them.
WATCH_DELAYS = (0.2, 0.5, 1.0, 2.0)


class BadRedisUrl(ValueError):
    """A Redis address the server cannot use; the message says what is wrong."""


@dataclass(frozen=True)
class Topology:
    """A parsed Redis address."""

    kind: Kind
    url: str
    # The sentinels, or a cluster's seed nodes; empty for a single server.
    nodes: tuple[Address, ...] = ()
    service: str = ""
    db: int = 0
    username: str | None = None
    password: str | None = None

    def node_url(self, address: Address) -> str:
        """A redis:// URL for one data node of this topology (credentials and db kept)."""
        auth = ""
        if self.password is not None:
            auth = f"{quote(self.username or '', safe='')}:{quote(self.password, safe='')}@"
        return f"redis://{auth}{address[0]}:{address[1]}/{self.db}"


def _addresses(netloc: str, default_port: int, url: str) -> tuple[Address, ...]:
    found = []
    for part in netloc.rpartition("@")[2].split(","):
        host, _, port = part.strip().rpartition(":") if ":" in part else (part.strip(), "", "")
        if not host:
            raise BadRedisUrl("a host is missing")
        try:
            found.append((host.strip("[]"), int(port) if port else default_port))
        except ValueError:
            raise BadRedisUrl(f"bad port {port[:8]!r}") from None
    return tuple(found)


def shown(url: str) -> str:
    """`url` without its password, for logs and error messages."""
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def parse(url: str) -> Topology:
    """Read a Redis address (see the module's docstring); BadRedisUrl if it is not one."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    creds = parts.netloc.rpartition("@")[0]
    user, _, password = creds.partition(":") if creds else ("", "", "")
    auth = {
        "username": unquote(user) or None,
        "password": unquote(password) if creds else None,
    }
    if scheme in ("redis", "rediss", "unix"):
        return Topology("single", url)
    if scheme == "redis+sentinel":
        path = [p for p in parts.path.split("/") if p]
        if not path or len(path) > 2:
            raise BadRedisUrl("give the sentinels' service name: .../SERVICE/DB")
        try:
            db = int(path[1]) if len(path) == 2 else 0
        except ValueError:
            raise BadRedisUrl("the database must be a number") from None
        nodes = _addresses(parts.netloc, SENTINEL_PORT, url)
        return Topology("sentinel", url, nodes, unquote(path[0]), db, **auth)
    if scheme == "redis+cluster":
        if parts.path.strip("/") not in ("", "0"):
            raise BadRedisUrl("a Redis Cluster has database 0 only: end the address with /")
        nodes = _addresses(parts.netloc, 6379, url)
        return Topology("cluster", url, nodes, username=auth["username"], password=auth["password"])
    raise BadRedisUrl(
        "not a Redis address (redis://, rediss://, unix://, redis+sentinel:// or redis+cluster://)"
    )


class PrimaryFinder:
    """The primary of a Sentinel-watched service: where it is, and when it changes.

    `locate()` asks the sentinels (redis-py's discovery: a sentinel that sees the
    service's primary as up and as a primary). `watch()` subscribes to `+switch-master`
    on one sentinel after another and calls every `on_switch` callback on a failover.
    """

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        self.sentinel = Sentinel(list(topology.nodes), socket_timeout=1.0)
        self._on_switch: list[Callable[[], None]] = []
        self._watcher: asyncio.Task[None] | None = None
        self._events: RespConnection | None = None

    async def locate(self) -> Address:
        """The primary's address; raises redis-py's ConnectionError while there is none."""
        try:
            host, port = await self.sentinel.discover_master(self.topology.service)
        except RedisError as exc:
            raise RedisConnectionError(f"no primary for {self.topology.service}: {exc}") from exc
        return str(host), int(port)

    def on_switch(self, callback: Callable[[], None]) -> None:
        """Call `callback()` whenever the sentinels announce a new primary."""
        self._on_switch.append(callback)

    def watch(self) -> None:
        """Start watching the sentinels (once; idempotent)."""
        if self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def aclose(self) -> None:
        """Stop watching and close the sentinel connections."""
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None
        if self._events is not None:
            await self._events.aclose()
        for client in self.sentinel.sentinels:
            await client.aclose()

    def _pushed(self, reply: object) -> None:
        if not isinstance(reply, list) or len(reply) != 3 or reply[0] != b"message":
            return
        # "+switch-master" data: "<service> <old-ip> <old-port> <new-ip> <new-port>"
        if reply[2].split(b" ", 1)[0].decode(errors="replace") != self.topology.service:
            return
        log.warning("store: the sentinels switched the primary: %s", reply[2].decode())
        for callback in self._on_switch:
            callback()

    async def _watch(self) -> None:
        attempt = 0
        while True:
            address = self.topology.nodes[attempt % len(self.topology.nodes)]
            lost = asyncio.get_running_loop().create_future()

            def dropped(_: Exception | None, lost: asyncio.Future[None] = lost) -> None:
                if not lost.done():
                    lost.set_result(None)

            self._events = RespConnection(
                f"redis://{address[0]}:{address[1]}/0", on_push=self._pushed, on_lost=dropped
            )
            try:
                await self._events.send([("SUBSCRIBE", "+switch-master")])
                attempt = 0
                await lost
            except (RedisConnectionError, OSError):
                pass
            finally:
                await self._events.aclose()
            attempt += 1
            await asyncio.sleep(WATCH_DELAYS[min(attempt, len(WATCH_DELAYS)) - 1])


def problem(url: str, timeout_s: float = 3.0) -> str | None:
    """Why the Redis at `url` does not answer a PING within `timeout_s` (under Sentinel:
    no primary named, or it does not answer; a cluster: no node answers, or it has no
    map of the slots), or None if it does. Blocking; for start-up."""
    import redis
    from redis.exceptions import RedisClusterException

    client = None
    try:
        client = _sync_client(parse(url), timeout_s)
        client.ping()
    except (redis.RedisError, RedisClusterException, OSError) as exc:
        return str(exc) or type(exc).__name__
    finally:
        if client is not None:
            client.close()
    return None


def _sync_client(where: Topology, timeout_s: float) -> Any:
    """A blocking redis-py client of `where` (a cluster's connects at once)."""
    import redis
    from redis.cluster import ClusterNode, RedisCluster
    from redis.sentinel import Sentinel as SyncSentinel

    timeouts = {"socket_connect_timeout": timeout_s, "socket_timeout": timeout_s}
    if where.kind == "cluster":
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in where.nodes],
            username=where.username,
            password=where.password,
            socket_connect_timeout=timeout_s,
            socket_timeout=timeout_s,
        )
    if where.kind == "sentinel":
        sentinels = SyncSentinel(list(where.nodes), sentinel_kwargs=timeouts)
        return sentinels.master_for(
            where.service,
            db=where.db,
            username=where.username,
            password=where.password,
            socket_connect_timeout=timeout_s,
            socket_timeout=timeout_s,
        )
    return redis.Redis.from_url(where.url, **timeouts)
