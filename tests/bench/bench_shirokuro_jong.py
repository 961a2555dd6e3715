"""Shirokuro Jong CPU levels head to head (the random baseline is in bench_bots).

    python -m tests.bench.bench_shirokuro_jong --levels hard,normal --seats 2 --seeds 300
        [--seconds 240]

Duplicate format: a match's deals depend only on its seed, so every seed is played once
per seating, and each level sits in every seat equally often (2 seats: AB and BA;
3 seats: the rotations of ABB and of AAB). A seed's seatings form one block; blocks are
independent, so the margins (95 %, 1.96 standard errors over blocks) are honest even
though the seats of one match are not. Prints, per level, the average place (1 best)
and points per seat, then A minus B, then each level's decision times (wall clock
and CPU, p99 and max).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import defaultdict

from server.bots.contract import Decision, Policy, Situation
from server.bots.shirokuro_jong import POLICY
from server.games.shirokuro_jong import GAME
from tests.bench.bot_arena import play_match


class Timed(Policy):
    """Records each difficulty's decision times: wall clock, and CPU time of this thread
    (which other work on a shared machine does not inflate)."""

    def __init__(self) -> None:
        self.wall: dict[str, list[float]] = defaultdict(list)
        self.cpu: dict[str, list[float]] = defaultdict(list)

    def decide(self, situation: Situation) -> Decision | None:
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return POLICY.decide(situation)
        finally:
            self.wall[situation.difficulty].append(time.perf_counter() - wall)
            self.cpu[situation.difficulty].append(time.thread_time() - cpu)


def p99_max(times: list[float]) -> str:
    """The 99th percentile and the maximum, in ms."""
    times = sorted(times) or [0.0]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return f"p99 {p99 * 1000:6.1f} ms  max {times[-1] * 1000:6.1f} ms"


def seatings(a: str, b: str, seats: int) -> list[list[str]]:
    """Every seating of one block: each level in each seat equally often."""
    if seats == 2:
        return [[a, b], [b, a]]
    rows = []
    for pattern in ([a, b, b], [a, a, b]):
        rows += [pattern[k:] + pattern[:k] for k in range(3)]
    return rows


def mean_margin(xs: list[float]) -> tuple[float, float]:
    """Mean and its 95 % margin."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), float("nan")
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> None:
    """Play the blocks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="hard,normal", help="A,B: two difficulties")
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3))
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=240.0, help="stop after this long")
    args = parser.parse_args()
    a, b = args.levels.split(",")
    timed = Timed()
    place = {a: [], b: []}  # per block: the level's average place
    points = {a: [], b: []}  # per block: the level's average points per seat
    start = time.monotonic()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        got: dict[str, dict[str, list[float]]] = {a: defaultdict(list), b: defaultdict(list)}
        for seating in seatings(a, b, args.seats):
            result = play_match(GAME, args.seats, [timed] * args.seats, seating, seed)
            for seat, level in enumerate(seating):
                got[level]["place"].append(result["places"][seat])
                got[level]["points"].append(result["scores"][seat])
        for level in (a, b):
            place[level].append(statistics.fmean(got[level]["place"]))
            points[level].append(statistics.fmean(got[level]["points"]))
        if time.monotonic() - start > args.seconds:
            break
    blocks = len(place[a])
    print(
        f"shirokuro_jong {args.seats} seats, {a} vs {b}: {blocks} seeds x "
        f"{len(seatings(a, b, args.seats))} seatings"
    )
    for level in (a, b):
        pm, pe = mean_margin(place[level])
        sm, se = mean_margin(points[level])
        print(f"{level:8} place {pm:5.3f} ± {pe:5.3f}  points {sm:6.2f} ± {se:5.2f}")
    dp, dpe = mean_margin([x - y for x, y in zip(place[a], place[b], strict=True)])
    ds, dse = mean_margin([x - y for x, y in zip(points[a], points[b], strict=True)])
    print(f"{a}-{b} place {dp:+6.3f} ± {dpe:5.3f}  points {ds:+6.2f} ± {dse:5.2f}")
    for level in (a, b):
        print(
            f"{level:8} decision wall {p99_max(timed.wall[level])}, cpu {p99_max(timed.cpu[level])}"
        )


if __name__ == "__main__":
    main()
