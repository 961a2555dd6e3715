"""Zashiki beside Colyseus, alternating: server CPU per move at one rate, several rounds.

    python3 -m tests.bench.bench_pairs --peers /tmp/peers-bench --rooms 500 --rounds 3

This machine's speed drifts by 10-15 % within minutes, more than most changes are worth,
so a figure means something only beside one measured right before or after it. Each
round runs peers-bench's Colyseus + ioredis server (its D+R) under peers-bench's own
load generator, then `bench_load`, at the same fixed rate and room count (server on
core 0, Redis and the load on core 1, as both harnesses pin them), and prints each one's
server CPU per move, Zashiki's ratio to Colyseus, and at the end the means and the
rounds' ratios (their median and range: when the range spans 1.00 widely, the means
cannot tell a few per cent apart, and more rounds are needed). `--python` adds
interpreters to run Zashiki's server on (e.g. a venv of an optimised build).

`--together` runs each round's two steps at the same time instead (both servers on
core 0, both loads and Redis servers on core 1), so that both meet the same state of a
machine whose speed drifts: Zashiki's step starts NODE_WARM_UP_S after Colyseus's, so
that the two loads begin within about two seconds of each other (Colyseus's after its
warm-up and joins, Zashiki's after its server and connections). Each server then also
shares its core and caches with the other, alike for both; use a longer `--seconds`
(e.g. 30) so the loads overlap for most of their time.

Needs a copy of ../shared/peers-bench prepared as its README says (its venv and the
Colyseus npm packages). Everything binds 127.0.0.1, every load is bounded in rate and
time, and each server is stopped after its step.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import mean, median

from tests.bench.bench_load import MAX_ROOMS, ROOT, cpu_per_move_printed
from tests.conftest import free_port

NODE_WARM_UP_S = 5.0  # before 2,000 joins: a colder Node server times the joins out
MAX_SECONDS = 60
MAX_ROUNDS = 10


def colyseus_step(peers: Path, redis_port: int, rooms: int, rate: int, seconds: int) -> float:
    """One fixed-rate step of peers-bench's D+R server: its CPU µs per move.

    Now and then its load generator times out joining 2,000 clients (30 s) on a server
    that usually takes 4 s: then a fresh server gets one more try.
    """
    try:
        return _colyseus_step(peers, redis_port, rooms, rate, seconds)
    except subprocess.CalledProcessError:
        print("colyseus: the load generator failed (joins timed out?); trying once more")
        return _colyseus_step(peers, redis_port, rooms, rate, seconds)


def _colyseus_step(peers: Path, redis_port: int, rooms: int, rate: int, seconds: int) -> float:
    port = free_port()
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    server = subprocess.Popen(
        [*pin, "node", "server.mjs", str(port), str(redis_port)],
        cwd=peers / "colyseus",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(NODE_WARM_UP_S)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp, "step.json")
            load = [str(peers / "venv" / "bin" / "python"), "loadgen.py", "--port", str(port)]
            load += ["--rooms", str(rooms), "--proto", "colyseus", "--mode", "fixed"]
            load += ["--fixed-rate", str(rate), "--fixed-dur", str(seconds)]
            load += ["--server-pid", str(server.pid), "--worker-cpu", "1", "--out", str(out)]
            subprocess.run(
                load,
                cwd=peers,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=seconds + 120,
                check=True,
            )
            fixed = json.loads(out.read_text())["fixed"]
        return fixed["cpu"]["server"] / 100 / fixed["achieved"] * 1e6
    finally:
        server.terminate()
        server.wait(timeout=10)


def zashiki_step(python: str, rooms: int, rate: int, seconds: int) -> float:
    """One step of bench_load (its own server and Redis): server CPU µs per move."""
    command = [sys.executable, "-m", "tests.bench.bench_load", "--rooms", str(rooms)]
    command += ["--rates", str(rate), "--seconds", str(seconds), "--python", python, "--once"]
    output = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=seconds + 180, check=True
    ).stdout
    return cpu_per_move_printed(output)


def together(
    peers: Path, redis_port: int, python: str, rooms: int, rate: int, seconds: int
) -> tuple[float, float]:
    """One round of both steps at once: (Colyseus's, Zashiki's) server CPU µs per move.

    When Colyseus's load generator fails (its joins timed out), the whole round is run
    once more: a second try of that step alone would no longer overlap Zashiki's.
    """
    try:
        return _together(peers, redis_port, python, rooms, rate, seconds)
    except subprocess.CalledProcessError:
        print("colyseus: the load generator failed (joins timed out?); the round once more")
        return _together(peers, redis_port, python, rooms, rate, seconds)


def _together(
    peers: Path, redis_port: int, python: str, rooms: int, rate: int, seconds: int
) -> tuple[float, float]:
    with ThreadPoolExecutor(1) as pool:
        coly = pool.submit(_colyseus_step, peers, redis_port, rooms, rate, seconds)
        time.sleep(NODE_WARM_UP_S)
        own = zashiki_step(python, rooms, rate, seconds)
        return coly.result(), own


def main() -> None:
    """Alternate the two servers for `--rounds` rounds and print what each used."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--peers", type=Path, required=True, help="a prepared peers-bench copy")
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--rate", type=int, default=1000, help="moves/s, both servers")
    parser.add_argument("--seconds", type=int, default=15, help="measured time per step")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--python", action="append", default=[], help="another interpreter for Zashiki"
    )
    parser.add_argument(
        "--together", action="store_true", help="run each round's two steps at the same time"
    )
    args = parser.parse_args()
    if args.together and args.python:
        parser.error("--together compares one interpreter (leave out --python)")
    rooms, seconds = min(args.rooms, MAX_ROOMS), min(args.seconds, MAX_SECONDS)
    pythons = [sys.executable, *args.python]
    redis_port = free_port()
    pin = ["taskset", "-c", "1"] if shutil.which("taskset") else []
    with tempfile.TemporaryDirectory(prefix="zashiki-pairs-") as tmp:
        redis = subprocess.Popen(
            [*pin, "redis-server", "--port", str(redis_port), "--bind", "127.0.0.1"]
            + ["--dir", tmp, "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        figures: dict[str, list[float]] = {"colyseus": [], **{p: [] for p in pythons}}
        try:
            for n in range(1, min(args.rounds, MAX_ROUNDS) + 1):
                if args.together:
                    coly, own = together(
                        args.peers, redis_port, pythons[0], rooms, args.rate, seconds
                    )
                else:
                    coly = colyseus_step(args.peers, redis_port, rooms, args.rate, seconds)
                figures["colyseus"].append(coly)
                row = [f"round {n}: colyseus {coly:4.0f} µs"]
                for python in pythons:
                    if not args.together:
                        own = zashiki_step(python, rooms, args.rate, seconds)
                    figures[python].append(own)
                    row.append(f"zashiki ({python}) {own:4.0f} µs = {own / coly:.2f}×")
                print("; ".join(row), flush=True)
        finally:
            redis.terminate()
            redis.wait(timeout=10)
    coly_mean = mean(figures["colyseus"])
    print(f"means over the rounds: colyseus {coly_mean:.0f} µs per move")
    for python in pythons:
        own = mean(figures[python])
        print(f"  zashiki on {python}: {own:.0f} µs per move = {own / coly_mean:.2f}×")
        ratios = [z / c for z, c in zip(figures[python], figures["colyseus"], strict=True)]
        print(
            f"    rounds' ratios: median {median(ratios):.2f}×,"
            f" from {min(ratios):.2f}× to {max(ratios):.2f}×"
        )


if __name__ == "__main__":
    main()
