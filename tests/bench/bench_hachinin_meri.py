"""Hachinin Meri Hard CPU: time per searched move (more than one legal card).

    python -m tests.bench.bench_hachinin_meri [--matches 3]

Plays seeded matches, Hard at seats 0, 2, 4, 6 against uniform random, and prints
p50 / p99 / max over the decisions where Hard actually searched.
"""

from __future__ import annotations

import argparse
import time

from server.bots.contract import Decision, Policy, Situation
from server.bots.hachinin_meri import POLICY
from server.bots.random_policy import RandomPolicy
from server.games.hachinin_meri import GAME
from tests.bench.bot_arena import play_match


class SearchTimer(Policy):
    """Times the Hard policy on play decisions with a real choice."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def decide(self, situation: Situation) -> Decision | None:
        start = time.perf_counter()
        decision = POLICY.decide(situation)
        plays = [a for a in situation.legal if a["type"] == "play"]
        if len(plays) > 1:
            self.times.append(time.perf_counter() - start)
        return decision


def main() -> None:
    """Run the matches and print the percentiles."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    args = parser.parse_args()
    timer = SearchTimer()
    for seed in range(args.matches):
        policies = [timer if s % 2 == 0 else RandomPolicy() for s in range(8)]
        play_match(GAME, 8, policies, ["hard"] * 8, seed)
    times = sorted(timer.times)

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(len(times) * q))] * 1000

    print(
        f"hachinin_meri hard: {len(times)} searched moves  p50 {at(0.5):6.1f} ms  "
        f"p99 {at(0.99):6.1f} ms  max {times[-1] * 1000:6.1f} ms"
    )


if __name__ == "__main__":
    main()
