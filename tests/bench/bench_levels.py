"""Two CPU levels of one game head to head (the random baseline is in bench_bots).

    python -m tests.bench.bench_levels --game shirokuro_jong --levels hard,normal
        [--seats 2] [--seeds 300] [--seconds 240]

Duplicate format: a match's deals depend only on its seed, so every seed is played once
per seating, and each level sits in every seat equally often (the rotations of a pattern
and of its opposite: 2 seats AB and BA; 3 seats the rotations of ABB and of AAB; an even
count alternates, so a team game of partners in alternate seats pits team against team).
A seed's seatings form one block; blocks are independent, so the margins (95 %, 1.96
standard errors over blocks) are honest even though the seats of one match are not.
Prints, per level, the average place (1 best), the share of seats placed first and, where
the outcome gives a score per seat, the points per seat; then A minus B; then each level's
decision times (wall clock and CPU time of this thread, which other work on a shared
machine does not inflate: p99 and max).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import defaultdict

from server.bots.contract import Decision, Policy, Situation
from server.bots.registry import policy_for
from server.games import registry
from tests.bench.bot_arena import play_match


class Timed(Policy):
    """Records each difficulty's decision times: wall clock, and CPU time of this thread."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.wall: dict[str, list[float]] = defaultdict(list)
        self.cpu: dict[str, list[float]] = defaultdict(list)

    def decide(self, situation: Situation) -> Decision | None:
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return self.inner.decide(situation)
        finally:
            self.wall[situation.difficulty].append(time.perf_counter() - wall)
            self.cpu[situation.difficulty].append(time.thread_time() - cpu)


def p99_max(times: list[float]) -> str:
    """The 99th percentile and the maximum, in ms."""
    times = sorted(times) or [0.0]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return f"p99 {p99 * 1000:6.1f} ms  max {times[-1] * 1000:6.1f} ms"


def seatings(a: str, b: str, seats: int) -> list[list[str]]:
    """Every seating of one block: each level in each seat equally often.

    >>> seatings("A", "B", 2), len(seatings("A", "B", 3)), seatings("A", "B", 4)[1]
    ([['A', 'B'], ['B', 'A']], 6, ['B', 'A', 'B', 'A'])
    """
    pattern = [a if i % 2 == 0 else b for i in range(seats)]
    if seats % 2:
        pattern[-1] = b  # ABB, ABABB: one more B than A
    rows: list[list[str]] = []
    for row in (pattern, [b if x == a else a for x in pattern]):
        for k in range(seats):
            turned = row[k:] + row[:k]
            if turned not in rows:
                rows.append(turned)
    return rows


def mean_margin(xs: list[float]) -> tuple[float, float]:
    """Mean and its 95 % margin."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), float("nan")
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> None:
    """Play the blocks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--levels", default="hard,normal", help="A,B: two difficulties")
    parser.add_argument("--seats", type=int, help="default: the game's most")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=240.0, help="stop after this long")
    args = parser.parse_args()
    game = registry.get(args.game)
    seats = args.seats or game.max_seats
    a, b = args.levels.split(",")
    timed = Timed(policy_for(args.game))
    blocks: dict[str, dict[str, list[float]]] = {a: defaultdict(list), b: defaultdict(list)}
    start = time.monotonic()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        got: dict[str, dict[str, list[float]]] = {a: defaultdict(list), b: defaultdict(list)}
        for seating in seatings(a, b, seats):
            result = play_match(game, seats, [timed] * seats, seating, seed)
            for seat, level in enumerate(seating):
                got[level]["place"].append(result["places"][seat])
                got[level]["first"].append(result["places"][seat] == 1)
                scores = result.get("scores")
                if isinstance(scores, list) and len(scores) == seats:  # not a team's
                    got[level]["points"].append(scores[seat])
        for level in (a, b):
            for key, values in got[level].items():
                blocks[level][key].append(statistics.fmean(values))
        if time.monotonic() - start > args.seconds:
            break
    played = len(blocks[a]["place"])
    print(
        f"{args.game} {seats} seats, {a} vs {b}: {played} seeds x "
        f"{len(seatings(a, b, seats))} seatings"
    )
    for level in (a, b):
        line = [f"{level:8}"]
        for key, label, fmt in (("place", "place", "5.3f"), ("first", "first", "5.1%")):
            m, e = mean_margin(blocks[level][key])
            line.append(f"{label} {m:{fmt}} ± {e:{fmt}}")
        if blocks[level]["points"]:
            m, e = mean_margin(blocks[level]["points"])
            line.append(f"points {m:6.2f} ± {e:5.2f}")
        print("  ".join(line))
    line = [f"{a}-{b}"]
    for key, fmt in (("place", "+6.3f"), ("first", "+5.1%"), ("points", "+6.2f")):
        if blocks[a][key]:
            diffs = [x - y for x, y in zip(blocks[a][key], blocks[b][key], strict=True)]
            m, e = mean_margin(diffs)
            line.append(f"{key} {m:{fmt}} ± {e:{fmt[1:]}}")
    print("  ".join(line))
    for level in (a, b):
        print(
            f"{level:8} decision wall {p99_max(timed.wall[level])}, cpu {p99_max(timed.cpu[level])}"
        )


if __name__ == "__main__":
    main()
