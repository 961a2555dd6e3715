"""Two Zashiki builds side by side, under load at the same time: server CPU per move.

    python3 -m tests.bench.bench_ab --other /tmp/base --rooms 100 --rounds 5 --seconds 30

This machine's speed drifts by 10-40 % within minutes, so two builds measured one after
the other differ by more than most changes are worth. Each round here starts
`bench_load` in this checkout and in `--other` (another checkout, e.g. the commit before
a change, compiled alike) at the same moment, at the same fixed rate and room count:
both servers on core 0, both loads and Redis servers on core 1, so both meet the same
state of the machine (each also shares its core and caches with the other, alike for
both). Prints each one's server CPU per move, this checkout's ratio to the other, and
at the end the means and the rounds' ratios. Run it with the other checkout as this one
first (an A/A run) to see how far the rounds agree when nothing differs.

Everything binds 127.0.0.1, every load is bounded in rate and time and stops by itself.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from statistics import mean, median

from tests.bench.bench_load import MAX_ROOMS, ROOT, cpu_per_move_printed

MAX_SECONDS = 60
MAX_ROUNDS = 10


def start_step(checkout: Path, rooms: int, rate: int, seconds: int) -> subprocess.Popen[str]:
    """`bench_load` of `checkout` at one fixed rate, started (its own server and Redis)."""
    command = [sys.executable, "-m", "tests.bench.bench_load", "--rooms", str(rooms)]
    command += ["--rates", str(rate), "--seconds", str(seconds), "--once"]
    return subprocess.Popen(
        command, cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )


def cpu_per_move(step: subprocess.Popen[str], seconds: int) -> float:
    """The server CPU µs per move a started step printed (after it ends)."""
    output, _ = step.communicate(timeout=seconds + 180)
    if step.returncode != 0:
        raise SystemExit(f"bench_load failed (exit {step.returncode}):\n{output[-2000:]}")
    return cpu_per_move_printed(output)


def main() -> None:
    """Run both checkouts' steps together for `--rounds` rounds and print what each used."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--other", type=Path, required=True, help="the checkout to compare to")
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rate", type=int, default=1000, help="moves/s, each server")
    parser.add_argument("--seconds", type=int, default=30, help="measured time per step")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rooms, seconds = min(args.rooms, MAX_ROOMS), min(args.seconds, MAX_SECONDS)
    here, other = ROOT, args.other.resolve()
    ours: list[float] = []
    theirs: list[float] = []
    for n in range(1, min(args.rounds, MAX_ROUNDS) + 1):
        steps = [start_step(checkout, rooms, args.rate, seconds) for checkout in (here, other)]
        mine, its = (cpu_per_move(step, seconds) for step in steps)
        ours.append(mine)
        theirs.append(its)
        row = f"round {n}: this {mine:4.0f} µs; other {its:4.0f} µs = {mine / its:.3f}×"
        print(row, flush=True)
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    print(f"means: this {mean(ours):.0f} µs, other {mean(theirs):.0f} µs per move")
    print(
        f"  = {mean(ours) / mean(theirs):.3f}×; rounds' ratios: median {median(ratios):.3f}×,"
        f" from {min(ratios):.3f}× to {max(ratios):.3f}×"
    )


if __name__ == "__main__":
    main()
