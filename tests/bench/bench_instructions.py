"""Instructions per move of the whole server, counted by valgrind: a figure noise barely moves.

    python3 -m tests.bench.bench_instructions --rooms 100 --rate 15 --seconds 30

CPU time on a shared machine moves by ±10 % from run to run, more than most single
changes to the move path are worth. This runs `zashiki serve` (with its own
redis-server) under valgrind's callgrind twice, alike but for `--seconds` at the end:
once idle (keepalive pings, timers), once with moves at `--rate`/s to random seats of
`--rooms` Usunoro rooms of four connections, as bench_load makes them. It prints the
difference in the server's user-space instructions per move acknowledged (the kernel's
socket work is not counted). Repeated runs agree within about ±3 %, but now and then
one reads far off (543 k and 711 k for one commit on 2026-12-02); compare two commits
by a couple of runs each and distrust a lone outlier. The server runs some 50 times
slower under valgrind, so keep the rate low: at 15 moves/s nearly every move still
finds the server idle, as at 1,000/s outside valgrind. A run takes about 2.5 minutes.
Needs valgrind (`apt-get install valgrind`). Everything binds 127.0.0.1 and each server
stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop

from client.lib import Client
from tests.bench.bench_load import ROOT, Recorder, Window, drive, open_rooms, scrape, wait_healthy
from tests.conftest import free_port

MAX_ROOMS = 200
MAX_SECONDS = 120.0


def callgrind_total(folder: Path) -> int:
    """The instruction count of the one callgrind output file in `folder`."""
    (path,) = folder.glob("cg.*")
    found = re.search(r"^(?:summary|totals): (\d+)", path.read_text(errors="replace"), re.M)
    if found is None:
        raise RuntimeError(f"no instruction count in {path}")
    return int(found[1])


async def exercise(url: str, rooms_n: int, rate: float, seconds: float, patches: bool) -> float:
    """Open the rooms, then either wait `seconds` (rate 0) or move at `rate` for that
    long; the number of moves the server acknowledged."""
    recorder = Recorder()
    rooms = await open_rooms(Client(url), rooms_n, recorder, patches)
    if rate > 0:
        await drive(rooms, rate, seconds, Window())
    else:
        await asyncio.sleep(seconds)
    moves = scrape(url)["zashiki_moves_total"]
    for room in rooms:
        for seat in room:
            seat.close()
    return moves


def run_server(
    python: str, rooms_n: int, rate: float, seconds: float, patches: bool
) -> tuple[int, float]:
    """One server lifetime under callgrind: (its instructions, moves acknowledged)."""
    with tempfile.TemporaryDirectory(prefix="zashiki-instr-") as tmp:
        folder = Path(tmp)
        redis_port, port = free_port(), free_port()
        redis = ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--dir", tmp]
        redis += ["--save", "", "--appendonly", "no"]
        serve = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.%p"]
        serve += [python, "-m", "server", "serve", "--port", str(port)]
        serve += ["--redis-url", f"redis://127.0.0.1:{redis_port}/0", "--rate-limits", "off"]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        procs = [subprocess.Popen(redis, stdout=subprocess.DEVNULL)]
        try:
            with (folder / "server.log").open("wb") as log:
                procs.append(subprocess.Popen(serve, cwd=ROOT, stdout=log, stderr=log, env=env))
            url = f"http://127.0.0.1:{port}"
            wait_healthy(url, procs[1], timeout=300)
            moves = uvloop.run(exercise(url, rooms_n, rate, seconds, patches))
            procs[1].send_signal(signal.SIGINT)  # a clean exit writes callgrind's file
            procs[1].wait(timeout=300)
            return callgrind_total(folder), moves
        finally:
            for proc in reversed(procs):
                if proc.poll() is None:
                    proc.terminate()
                    proc.wait(timeout=60)


def main() -> None:
    """Start Redis and the server under callgrind, measure, and stop them."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rate", type=float, default=15.0, help="moves/s in the load window")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the second run moves")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the server")
    parser.add_argument(
        "--whole", action="store_true", help="clients ask for whole views only, no patches"
    )
    args = parser.parse_args()
    for tool in ("valgrind", "callgrind_control", "redis-server"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed (apt-get install valgrind redis-server)")
    rooms_n, seconds = min(args.rooms, MAX_ROOMS), min(args.seconds, MAX_SECONDS)
    started = time.perf_counter()
    idle, _ = run_server(args.python, rooms_n, 0.0, seconds, not args.whole)
    print(f"idle server: {idle / 1e6:.0f} M instructions ({time.perf_counter() - started:.0f} s)")
    loaded, moves = run_server(args.python, rooms_n, args.rate, seconds, not args.whole)
    print(f"loaded server: {loaded / 1e6:.0f} M instructions, {moves:.0f} moves")
    print(f"{(loaded - idle) / max(1.0, moves) / 1e3:.0f} k instructions per move")


if __name__ == "__main__":
    main()
