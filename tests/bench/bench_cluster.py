"""Saves on a Redis Cluster beside one Redis, in the same run (not a test).

    python -m tests.bench.bench_cluster [--rooms 200] [--seconds 3] [--runs 2]

Starts one redis-server and a cluster of three primaries (no replicas), each on loopback
in a temporary directory, and stops them at the end. `--rooms` rooms save a Usunoro blob
and a log entry as fast as each save is acknowledged, through:

- the store on one Redis (group commit: one lean RESP connection, group_commit.py);
- the store on the cluster (one group commit and lean connection per primary, cluster.py);
- on the cluster, the same group commit through redis-py's ClusterPipeline instead (the
  alternative to the hand-written path: redis-py splits each batch per node itself).

Prints saves/s, mean/p99 latency and µs of this process's CPU per save (the server's cost:
Redis runs in other processes), each row `--runs` times, interleaved.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from redis.asyncio.cluster import ClusterNode, RedisCluster

from server.store import codec
from server.store.group_commit import SAVE_SCRIPT, redis_key
from server.store.redis_store import RedisStore
from tests.bench.bench_store import figures, redis_server, sample_room, saving
from tests.ha.topologies import ClusterSetup

TTL_MS = 3_600_000


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    """A cluster of three primaries for the length of the run."""
    with tempfile.TemporaryDirectory() as workdir:
        setup = ClusterSetup(Path(workdir), replicas=0)
        setup.start()
        try:
            yield setup.url
        finally:
            setup.stop()


class PipelineCommit:
    """Group commit through redis-py's ClusterPipeline: the saves of one loop iteration
    as one pipeline, one batch in flight."""

    def __init__(self, client: RedisCluster, sha: str, prefix: str) -> None:
        self.client, self.sha, self.prefix = client, sha, prefix
        self.queue: list[tuple[str, int, bytes, list[bytes], asyncio.Future[None]]] = []
        self.flusher: asyncio.Task[None] | None = None

    def save(self, code: str, version: int, blob: bytes, log: list[Any]) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.append((code, version, blob, [codec.pack(e) for e in log], future))
        if self.flusher is None:
            self.flusher = asyncio.get_running_loop().create_task(self.flush())
        return future

    async def flush(self) -> None:
        try:
            while self.queue:
                batch, self.queue = self.queue, []
                pipe = self.client.pipeline(transaction=False)
                for code, version, blob, entries, _ in batch:
                    room = redis_key(self.prefix, "room", code)
                    log = redis_key(self.prefix, "log", code)
                    pipe.evalsha(self.sha, 2, room, log, version, blob, TTL_MS, "", *entries)
                replies = await pipe.execute(raise_on_error=False)
                for (*_, future), reply in zip(batch, replies, strict=True):
                    if reply == 1:
                        future.set_result(None)
                    else:
                        future.set_exception(RuntimeError(f"save refused: {reply}"))
        finally:
            self.flusher = None


async def grouped(
    url: str, blob: bytes, entry: dict[str, Any], rooms: int, seconds: float, redis_py: bool
) -> str:
    """`rooms` rooms saving back to back for `seconds`: the figures and CPU per save."""
    prefix = f"bench{uuid.uuid4().hex[:6]}:"
    store = RedisStore(url, prefix=prefix, idle_ttl_ms=TTL_MS)
    await store.start()
    codes = [f"R{i}" for i in range(rooms)]
    for code in codes:
        await store.create(code, blob)
    save: Callable[..., Awaitable[None]] = store.save
    client = None
    if redis_py:
        nodes = [ClusterNode(host, port) for host, port in store.topology.nodes]
        client = RedisCluster(startup_nodes=nodes)
        commit = PipelineCommit(client, await client.script_load(SAVE_SCRIPT), prefix)
        save = commit.save
    cpu = time.process_time()
    latencies, spent = await saving(save, codes, blob, entry, seconds)
    cpu = time.process_time() - cpu
    if client is not None:
        await client.aclose()
    await store.aclose()
    return f"{figures(latencies, spent)}  {cpu / len(latencies) * 1e6:5.1f} µs CPU/save"


async def main(args: argparse.Namespace) -> None:
    with redis_server() as single, cluster() as shards:
        blob, entry = await sample_room(single)
        print(f"{args.rooms} rooms, Usunoro blob {len(blob)} bytes, {args.seconds:.0f} s a row")
        for _ in range(args.runs):
            rows = [
                ("one Redis, lean group commit    ", single, False),
                ("cluster, lean group commit/node ", shards, False),
                ("cluster, redis-py ClusterPipeline", shards, True),
            ]
            for name, url, redis_py in rows:
                got = await grouped(url, blob, entry, args.rooms, args.seconds, redis_py)
                print(f"{name} {got}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop")
    options = parser.parse_args()
    if options.uvloop:
        import uvloop

        uvloop.install()
    asyncio.run(main(options))
