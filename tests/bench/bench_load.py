"""Load generator: N Usunoro rooms of four remote humans, on loopback, bounded in time.

    python3 -m tests.bench.bench_load --rooms 100 --rates 1000,2000,3000 --seconds 10

Unless `--url` is given it starts its own redis-server and `zashiki serve` (the server
pinned to core 0 with taskset, Redis on core 1) and stops them at the end; the generator
itself runs on core 1. That server lets each connection send BENCH_FRAME_RATE frames a
second: the default flood limit (20 a second) would cap 100 rooms at 8,000 moves/s and
so measure the limit, not the server. Every seat is its own websocket connection. Moves
arrive at random (Poisson) at the set total rate to random seats; a move is the seat's
real legal move (mark a card, or deal the next round; never a grab, so matches go on for
the whole run).
Latency is a client's move to that client receiving the view it caused. For each rate it
prints moves/s acknowledged, p50/p99 latency, refusals, server CPU (and the kernel's
share of it), and server RSS, then the highest rate with p99 <= 50 ms; a rate over that
is run once more and counts if the second run is under (`--once`: no second run). As in
the peers' harness, a step counts only if at least 95 % of its rate was handled: past
some rate the generator itself cannot offer it all (a seat whose move is in flight is
skipped), and a step that fell short says so.
`--durability primary,replica` also starts a replica of that Redis and runs the whole
sweep once per durability mode (`zashiki serve --durability`), a fresh server each, in
the same run: what waiting for the replica costs per move and in highest rate.
`--redis one,cluster` runs the sweep on one Redis and on a Redis Cluster of three primaries
(a replica each with `--durability`; started pinned to core 1), a fresh server each, in the
same run: what the cluster's routing costs per move.
`--profile FILE` also samples the server with py-spy during the first rate step and
prints where its CPU went (`--native`: exact shares, at the cost of that step's
latencies).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop

from client.lib import Client
from server.web.app import GC_THRESHOLDS
from tests.bench import spy_breakdown
from tests.bench.load_seat import LoadSeat, open_seat
from tests.conftest import free_port
from tests.ha.topologies import ClusterSetup
from tests.net.players import choose

ROOT = Path(__file__).resolve().parents[2]
WARMUP_S = 3.0
TICK_S = 0.002
MAX_ROOMS = 1000
# Frames a second and burst per connection for the server it starts (--frame-rate).
BENCH_FRAME_RATE = "1000/2000"
MAX_SECONDS = 60.0
# A step counts only if this share of its rate was handled (as peers-bench counts it).
MIN_HANDLED = 0.95


@dataclass
class Window:
    """What happened during one measured rate step."""

    latencies: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    skipped: int = 0


class Recorder:
    """Receives every move's answer; counts it in the current window, if one is open."""

    def __init__(self) -> None:
        self.window: Window | None = None

    def __call__(self, seat: LoadSeat, latency: float | None, code: str | None) -> None:
        if self.window is None:
            return
        if latency is not None:
            self.window.latencies.append(latency)
        else:
            self.window.refused[code or "?"] += 1


def next_move(message: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """A legal move for `seat` that keeps the match going: next round, else a mark."""
    if message is None:
        return None
    legal = message["legal"].get(seat) or []
    if {"type": "next"} in legal:
        return {"type": "next"}
    marks = [m for m in legal if m["type"] == "mark"]
    if not marks:
        return None
    planned = choose(message["view"], legal)
    return planned if planned in marks else random.choice(marks)


async def drive(rooms: list[list[LoadSeat]], rate: float, seconds: float, window: Window) -> None:
    """Poisson arrivals at `rate` for `seconds`, each to a random free seat of a random room."""
    now = time.perf_counter()
    due, end = now, now + seconds
    while now < end:
        while due <= now:
            free = [s for s in random.choice(rooms) if not s.busy]
            seat = random.choice(free) if free else None
            action = next_move(seat.view, seat.seat) if seat else None
            if seat is None or action is None:
                window.skipped += 1
            else:
                seat.move(action)
            due += random.expovariate(rate)
        await asyncio.sleep(TICK_S)
        now = time.perf_counter()
    settle = time.perf_counter() + 10
    while any(s.busy for room in rooms for s in room) and time.perf_counter() < settle:
        await asyncio.sleep(0.01)


async def open_rooms(
    client: Client, count: int, recorder: Recorder, patches: bool = True
) -> list[list[LoadSeat]]:
    """`count` started rooms with four human seats, each seat connected on its own
    (asking for view patches unless `patches` is false)."""
    gate = asyncio.Semaphore(32)
    ws_base = "ws" + client.base_url.removeprefix("http") + "/ws?room="

    async def one() -> list[LoadSeat]:
        async with gate:
            host = await client.create_room("usunoro", seats=["host", "open", "open", "open"])
            seats = [host] + [await client.take_seat(host.code) for _ in range(3)]
            await client.start(host.code, host.token)
            return [
                await open_seat(ws_base + s.code, s.token, s.seat, recorder, patches) for s in seats
            ]

    return list(await asyncio.gather(*(one() for _ in range(count))))


def proc_cpu_s(pid: int) -> tuple[float, float]:
    """CPU seconds the process has used: (user + system, system alone)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[12]) / tick


def proc_rss_mb(pid: int) -> float:
    """Resident memory of the process in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def scrape(url: str) -> dict[str, float]:
    """The server's /metrics page as {"name{labels}": value}."""
    with urllib.request.urlopen(url + "/metrics", timeout=10) as answer:
        lines = answer.read().decode().splitlines()
    return {k: float(v) for k, v in (ln.rsplit(" ", 1) for ln in lines if not ln.startswith("#"))}


def window_mean_save(before: dict[str, float], after: dict[str, float]) -> float:
    """Mean save time (s) between two scrapes."""
    saves = after["zashiki_saves_total"] - before["zashiki_saves_total"]
    spent = after["zashiki_save_seconds_total"] - before["zashiki_save_seconds_total"]
    return spent / saves if saves else 0.0


def cpu_per_move_printed(output: str) -> float:
    """The server CPU µs per move of the first rate step in this script's `output` (how
    bench_pairs and bench_ab read a step they ran)."""
    lines = output.splitlines()
    header = next(i for i, line in enumerate(lines) if "µs/move" in line)
    # The row's fields line up with the header's names, some of which are two words.
    names = re.findall(r"\S+(?: ms| CPU| RSS MB)?", lines[header])
    return float(lines[header + 1].split()[names.index("µs/move")])


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))] if ordered else 0.0


def start_profile(
    path: Path, pid: int, seconds: float, native: bool = False
) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the server for `seconds` (it stops by itself), or None without it.

    By default without stopping the server (its latency stays as it is; stacks read
    while they change put some samples in the wrong part). `native`: stopped for each
    sample and with native frames (time in C, e.g. ormsgpack or the write system call,
    under its Python caller): the shares are right, the step's latencies are py-spy's.
    """
    spy = shutil.which("py-spy")
    if spy is None:
        print("--profile: py-spy is not installed (pip install py-spy); no profile")
        return None
    # Each stop reads native stacks, slowly: sampled more rarely, the server's batching
    # stays nearer what it is unwatched.
    mode = ["--native", "-r", "50"] if native else ["--nonblocking", "-r", "250"]
    command = [spy, "record", *mode, "-d", str(max(1, int(seconds)))]
    command += ["-f", "raw", "-o", str(path), "-p", str(pid)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def measure_step(
    url: str,
    server_pid: int | None,
    recorder: Recorder,
    rooms: list[list[LoadSeat]],
    rate: float,
    seconds: float,
) -> tuple[float, float]:
    """Drive one rate for `seconds` and print its row; returns (moves/s done, p99 ms)."""
    window = recorder.window = Window()
    cpu0, sys0 = proc_cpu_s(server_pid) if server_pid else (0.0, 0.0)
    before = await asyncio.to_thread(scrape, url)
    gen0, wall0 = time.process_time(), time.perf_counter()
    await drive(rooms, rate, seconds, window)
    recorder.window = None
    wall = time.perf_counter() - wall0
    cpu1, sys1 = proc_cpu_s(server_pid) if server_pid else (float("nan"), float("nan"))
    srv_cpu = (cpu1 - cpu0) / wall
    # The kernel's share of the server's CPU (socket work): what no Python change cuts.
    kernel = (sys1 - sys0) / max(cpu1 - cpu0, 1e-9)
    gen_cpu = (time.process_time() - gen0) / wall
    done = len(window.latencies) / wall
    p50, p99 = percentile(window.latencies, 50) * 1000, percentile(window.latencies, 99) * 1000
    peak = max(window.latencies, default=0.0) * 1000
    rss = proc_rss_mb(server_pid) if server_pid else float("nan")
    refused = sum(window.refused.values())
    # Server CPU per move handled (refused ones cost too): the figure that does not
    # depend on what else the machine is running.
    per_move = srv_cpu * wall / max(1, len(window.latencies) + refused) * 1e6
    print(
        f"{rate:6.0f} {done:8.0f} {p50:7.1f} {p99:7.1f} {peak:7.1f} "
        f"{refused:8d} {srv_cpu:7.0%} {per_move:8.0f} {kernel:7.0%} {gen_cpu:7.0%} {rss:10.0f}"
    )
    after = await asyncio.to_thread(scrape, url)
    full = 'zashiki_gc_collections_total{generation="2"}'
    gc_s = sum(after[k] - before[k] for k in after if k.startswith("zashiki_gc_pause_seconds_t"))
    print(
        f"       in GC {gc_s * 1000:.0f} ms ({after[full] - before[full]:.0f} full); "
        f"save mean {window_mean_save(before, after) * 1000:.1f} ms"
    )
    if window.refused:
        skipped = f"skipped (no move / seat busy): {window.skipped}"
        print(f"       refused: {dict(window.refused)}; {skipped}")
    return done, p99


async def run(
    url: str,
    server_pid: int | None,
    rooms_n: int,
    rates: list[float],
    seconds: float,
    profile: Path | None = None,
    patches: bool = True,
    native: bool = False,
    rerun: bool = True,
) -> None:
    """Set up the rooms, warm up, then measure each rate in turn and print a row for it
    (with `rerun`, a rate over p99 50 ms once more).

    With `profile` (and the server's pid) the first rate step is also sampled by py-spy
    into that file, and its breakdown is printed at the end."""
    client = Client(url)
    rss_before = proc_rss_mb(server_pid) if server_pid else 0.0
    started = time.perf_counter()
    recorder = Recorder()
    rooms = await open_rooms(client, rooms_n, recorder, patches)
    conns = 4 * rooms_n
    print(f"{rooms_n} rooms, {conns} connections ready in {time.perf_counter() - started:.1f} s")
    # As the peers' harness counts it: RSS with every connection open, before any load.
    rss_connected = proc_rss_mb(server_pid) if server_pid else 0.0
    # The generator's own collector pauses would be counted as server latency: keep the
    # connections out of it and collect young objects rarely, as the server does.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    await drive(rooms, rates[0], WARMUP_S, Window())
    print(
        f"{'rate':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'refused':>8} {'srv CPU':>8} {'µs/move':>8} {'kernel':>7} {'gen CPU':>8} "
        f"{'srv RSS MB':>10}"
    )
    best = 0.0
    spy = None
    for step, rate in enumerate(rates):
        if step == 0 and profile is not None and server_pid:
            spy = start_profile(profile, server_pid, seconds, native)
        done, p99 = await measure_step(url, server_pid, recorder, rooms, rate, seconds)
        if p99 > 50 and rerun:
            # One step of 15 s fails on a hiccup of this shared machine as often as on
            # load; peers-bench's sweep also runs a rate again before it settles.
            print("       again:")
            done, p99 = await measure_step(url, server_pid, recorder, rooms, rate, seconds)
        if p99 <= 50 and done >= MIN_HANDLED * rate:
            best = max(best, done)
        elif p99 <= 50:
            # Two decimals: fewer would round 94.96 % up to the bar itself.
            handled = f"{done / rate:.2%} of the rate handled"
            print(f"       not counted: {handled} (under {MIN_HANDLED:.0%})")
    if server_pid:
        connected = (rss_connected - rss_before) * 1024 / conns
        loaded = (proc_rss_mb(server_pid) - rss_before) * 1024 / conns
        print(
            f"server RSS per connection: {connected:.0f} KB connected, before any move "
            f"(as peers-bench counts it); {loaded:.0f} KB after the load"
        )
    print(f"highest rate measured with p99 <= 50 ms: {best:.0f} moves/s")
    figures = scrape(url)
    pauses = [figures[f'zashiki_gc_pause_seconds_max{{generation="{g}"}}'] * 1000 for g in range(3)]
    print(
        f"longest GC pause since start per generation: "
        f"{pauses[0]:.1f} / {pauses[1]:.1f} / {pauses[2]:.1f} ms"
    )
    for room in rooms:
        for seat in room:
            seat.close()
    if spy is not None and profile is not None:
        await asyncio.to_thread(spy.wait, 30)
        print(f"py-spy profile of the {rates[0]:.0f} moves/s step ({profile}):")
        print("\n".join(spy_breakdown.breakdown(profile)))


def set_group_nice(pid: int, nice: int) -> None:
    """Give `pid`'s scheduler autogroup (its session) this niceness, where the kernel allows.

    With autogroup scheduling a process's own niceness only ranks it within its session;
    against other sessions (other jobs on a shared machine) the group's value counts.
    """
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/autogroup").write_text(str(nice))


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """Block until the server answers /healthz."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not come up")


def main() -> None:
    """Parse arguments, start what is needed, run, and stop what was started."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rates", default="500,1000,2000", help="total moves/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per rate")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument("--server-pid", type=int, help="pid of --url's server, for CPU/RSS")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="niceness (and autogroup niceness) for the processes it starts and itself "
        "(e.g. -10 on a busy machine)",
    )
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter that runs the server (default: this one), e.g. a venv made "
        "with a PGO+LTO build such as Debian's /usr/bin/python3.11, as deployments run",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="sample the server with py-spy during the first rate step into this file "
        "and print where its CPU went (tests/bench/spy_breakdown.py)",
    )
    parser.add_argument(
        "--native",
        action="store_true",
        help="with --profile: stop the server for each sample and read native frames too "
        "(right shares; that step's latencies are then py-spy's, not the server's)",
    )
    parser.add_argument(
        "--whole", action="store_true", help="clients ask for whole views only, no patches"
    )
    parser.add_argument(
        "--durability",
        help='e.g. "primary,replica": start a replica too and run the sweep once per '
        "durability mode, a fresh server each",
    )
    parser.add_argument(
        "--redis",
        default="one",
        help='"one", "cluster" or "one,cluster": the Redis each sweep runs on',
    )
    parser.add_argument(
        "--once",
        action="store_true",
        help="run a rate whose p99 is over 50 ms only once (default: once more, and it "
        "counts if that run is under)",
    )
    args = parser.parse_args()
    rooms_n = min(args.rooms, MAX_ROOMS)
    seconds = min(args.seconds, MAX_SECONDS)
    rates = [float(r) for r in args.rates.split(",")][:10]
    cores = os.sched_getaffinity(0)
    pin = len(cores) >= 2 and shutil.which("taskset") is not None
    if pin:
        os.sched_setaffinity(0, {1})
    if args.nice:
        os.nice(args.nice)
        set_group_nice(os.getpid(), args.nice)

    def measure(url: str, server_pid: int | None) -> None:
        """Drive the server at `url` through every rate step."""
        profile, patches = args.profile, not args.whole
        uvloop.run(
            run(
                url,
                server_pid,
                rooms_n,
                rates,
                seconds,
                profile,
                patches,
                args.native,
                rerun=not args.once,
            )
        )

    if args.url:
        measure(args.url, args.server_pid)
        return
    with tempfile.TemporaryDirectory(prefix="zashiki-load-") as tmp:
        redis_port, port = free_port(), free_port()
        redis = ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--dir", tmp]
        redis += ["--save", "", "--appendonly", "no"]
        redis_procs = [redis]
        modes: list[str | None] = [None]
        if args.durability:
            modes = [m.strip() for m in args.durability.split(",")]
            replica = ["redis-server", "--port", str(free_port()), "--bind", "127.0.0.1"]
            replica += ["--dir", tmp, "--dbfilename", "replica.rdb", "--save", ""]
            replica += ["--appendonly", "no", "--replicaof", "127.0.0.1", str(redis_port)]
            redis_procs.append(replica)
        serve = [args.python, "-m", "server", "serve", "--port", str(port)]
        serve += ["--frame-rate", BENCH_FRAME_RATE]
        redis_urls = {"one": f"redis://127.0.0.1:{redis_port}/0"}
        shards = None
        if "cluster" in args.redis:
            shards = ClusterSetup(Path(tmp, "cluster"), replicas=1 if args.durability else 0)
            shards.start()
            if pin:
                for proc in shards.procs.values():
                    os.sched_setaffinity(proc.pid, {1})
            redis_urls["cluster"] = shards.url
        prefix: list[str] = []
        if args.nice:
            prefix = ["nice", "-n", str(args.nice)]
        pinned = (["taskset", "-c", "1"], ["taskset", "-c", "0"]) if pin else ([], [])
        # Own sessions: with the kernel's autogroup scheduling, a session shares CPU as one
        # group, so the server, Redis and the generator would otherwise split one share.
        procs = [
            subprocess.Popen(
                [*prefix, *pinned[0], *cmd], stdout=subprocess.DEVNULL, start_new_session=True
            )
            for cmd in redis_procs
        ]
        sweeps = [(t.strip(), m) for t in args.redis.split(",") for m in modes]
        try:
            for target, mode in sweeps:
                durability = [] if mode is None else ["--durability", mode]
                store = ["--redis-url", redis_urls[target]]
                with Path(tmp, "server.log").open("ab") as log:
                    server = subprocess.Popen(
                        [*prefix, *pinned[1], *serve, *store, *durability],
                        cwd=ROOT,
                        stdout=log,
                        stderr=log,
                        start_new_session=True,
                    )
                try:
                    if args.nice:
                        for proc in (*procs, server):
                            set_group_nice(proc.pid, args.nice)
                    url = f"http://127.0.0.1:{port}"
                    wait_healthy(url, server)
                    where = "server on core 0, redis and generator on core 1" if pin else "unpinned"
                    # A compiled build (setup.py) in this tree runs instead of its Python source.
                    compiled = any((ROOT / "server" / "rooms").glob("room.*.so"))
                    print(
                        f"server pid {server.pid}: {where}; nice {args.nice}; "
                        f"load average {os.getloadavg()[0]:.1f}; python {args.python}; "
                        f"move path {'compiled' if compiled else 'interpreted'}"
                        + ("" if mode is None else f"; durability {mode} (a replica attached)")
                        + ("; Redis Cluster of three primaries" if target == "cluster" else "")
                    )
                    measure(url, server.pid)
                finally:
                    server.terminate()
                    server.wait(timeout=30)
        finally:
            for proc in reversed(procs):
                proc.terminate()
                proc.wait(timeout=30)
            if shards is not None:
                shards.stop()


if __name__ == "__main__":
    main()
