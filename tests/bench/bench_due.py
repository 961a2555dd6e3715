"""What a due sweep costs against a real Redis (not a test).

    python -m tests.bench.bench_due [--rooms 100 10000 100000] [--sweeps 2000]

For each size, fills the due index (rooms/due.py) with that many days rooms due over the
coming three days, then times `claim_due` as a sweep calls it when nothing is due (most
sweeps) and when a full batch of 32 is (each claimed, put off). Prints the mean and p99
latency in ms per sweep and Redis's memory for the index. Uses REDIS_URL if set, else
starts its own redis-server like the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid

from server.rooms.due import BATCH
from server.store.redis_store import RedisStore
from tests.bench.bench_store import redis_server

NOW_MS = 1_800_000_000_000
DAY_MS = 24 * 3_600_000


async def sweeps(store: RedisStore, count: int, now_ms: int) -> list[float]:
    """Latencies (s) of `count` sweeps at `now_ms`."""
    took = []
    for _ in range(count):
        began = time.perf_counter()
        await store.claim_due(now_ms, BATCH, 30_000)
        took.append(time.perf_counter() - began)
    return took


def line(label: str, took: list[float]) -> str:
    ordered = sorted(took)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"  {label:28} mean {sum(took) / len(took) * 1e3:6.3f} ms  p99 {p99 * 1e3:6.3f} ms"


async def measure(url: str, rooms: int, count: int) -> None:
    store = RedisStore(url, prefix=f"b{uuid.uuid4().hex[:8]}:")
    await store.start()
    try:
        key = store.prefix + "due"
        pipe = store._redis.pipeline(transaction=False)
        for n in range(rooms):
            pipe.zadd(key, {f"R{n:07d}": NOW_MS + 60_000 + n * 3 * DAY_MS // rooms})
        await pipe.execute()
        memory = await store._redis.memory_usage(key)
        print(f"{rooms} rooms in the index ({memory / 1024:.0f} KiB):")
        print(line("nothing due", await sweeps(store, count, NOW_MS)))
        # Every sweep finds a batch due: each claimed room is put off past the next sweep.
        step = 3 * DAY_MS // rooms * BATCH + 1
        took = []
        for i in range(min(count, rooms // BATCH)):
            took += await sweeps(store, 1, NOW_MS + 60_000 + i * step)
        print(line(f"a batch of {BATCH} due", took))
        await store._redis.delete(key)
    finally:
        await store.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 10_000, 100_000])
    parser.add_argument("--sweeps", type=int, default=2000)
    args = parser.parse_args()
    with redis_server() as url:
        for rooms in args.rooms:
            asyncio.run(measure(url, rooms, args.sweeps))


if __name__ == "__main__":
    main()
