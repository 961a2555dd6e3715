"""Kokuto Rum CPU levels against each other (the random baseline is in bench_bots).

    python -m tests.bench.bench_kokuto_rum --matches 200 [--seats 3]

Seats rotate through every difficulty; prints each level's win rate (place 1, shared
counts) with its 95 % margin, and Hard's decision time p99.
"""

from __future__ import annotations

import argparse
import math
import time

from server.bots.contract import Decision, Policy, Situation
from server.bots.kokuto_rum import POLICY
from server.games.contract import DIFFICULTIES
from server.games.kokuto_rum import GAME
from tests.bench.bot_arena import play_match


class Timed(Policy):
    """Records decision times of one difficulty."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def decide(self, situation: Situation) -> Decision | None:
        start = time.perf_counter()
        try:
            return POLICY.decide(situation)
        finally:
            if situation.difficulty == "hard":
                self.times.append(time.perf_counter() - start)


def main() -> None:
    """Play the matches and print one line per difficulty."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    levels = list(DIFFICULTIES) if args.seats == 3 else ["normal", "hard"]
    timed = Timed()
    wins = dict.fromkeys(levels, 0)
    for seed in range(args.matches):
        shift = seed % len(levels)
        seating = levels[shift:] + levels[:shift]
        result = play_match(GAME, args.seats, [timed] * args.seats, seating, seed)
        for seat, level in enumerate(seating):
            wins[level] += result["places"][seat] == 1
    for level in levels:
        p = wins[level] / args.matches
        margin = 1.96 * math.sqrt(p * (1 - p) / args.matches)
        print(f"{level:8} win {p:6.1%} ± {margin:5.1%}  ({args.matches} matches)")
    times = sorted(timed.times) or [0.0]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"hard decision p99 {p99 * 1000:.1f} ms  max {times[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
