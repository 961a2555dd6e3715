"""Bot strength: a game's CPU policy, per difficulty, against uniform-random opponents.

    python -m tests.bench.bench_bots --game junocos --matches 200 [--seats 4]
        [--policy-seats 0] [--seconds-per-difficulty 600]

Prints one line per difficulty: win rate (place 1, shared counts) with its 95 % margin,
the uniform-random baseline for the same seats, and the slowest decision times: wall
clock, and CPU time of this thread (which other work on a shared machine does not
inflate), p99 and max.
"""

from __future__ import annotations

import argparse
import math
import time

from server.bots.contract import Decision, Policy, Situation
from server.bots.random_policy import RandomPolicy
from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import DIFFICULTIES
from tests.bench.bot_arena import play_match


class Timed(Policy):
    """Wraps a policy and records how long each decision took: wall clock and CPU time."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.times: list[float] = []
        self.cpu: list[float] = []

    def decide(self, situation: Situation) -> Decision | None:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return self.inner.decide(situation)
        finally:
            self.times.append(time.perf_counter() - start)
            self.cpu.append(time.thread_time() - cpu)


def p99_max(times: list[float]) -> str:
    """The 99th percentile and the maximum, in ms."""
    times = sorted(times) or [0.0]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return f"p99 {p99 * 1000:7.1f} ms  max {times[-1] * 1000:7.1f} ms"


def win_rate(
    game_id: str,
    seats: int,
    policy_seats: set[int],
    policy: Policy,
    difficulty: str,
    matches: int,
    budget_s: float,
) -> tuple[float, float, int]:
    """(rate, 95 % margin, matches played) of the policy seats taking first place."""
    game = registry.get(game_id)
    wins = played = 0
    start = time.monotonic()
    for seed in range(matches):
        policies = [policy if s in policy_seats else RandomPolicy() for s in range(seats)]
        result = play_match(game, seats, policies, [difficulty] * seats, seed)
        wins += min(result["places"][s] for s in policy_seats) == 1
        played += 1
        if time.monotonic() - start > budget_s:
            break
    p = wins / played
    return p, 1.96 * math.sqrt(p * (1 - p) / played), played


def main() -> None:
    """Parse arguments, run every difficulty and the random baseline, print the lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seats", type=int)
    parser.add_argument("--policy-seats", default="0")
    parser.add_argument("--seconds-per-difficulty", type=float, default=600.0)
    args = parser.parse_args()
    game = registry.get(args.game)
    seats = args.seats or game.max_seats
    policy_seats = {int(s) for s in args.policy_seats.split(",")}
    rows = [("random", RandomPolicy(), "normal")]
    rows += [(d, policy_for(args.game), d) for d in DIFFICULTIES]
    print(
        f"{args.game}: {seats} seats, policy at seats {sorted(policy_seats)}, "
        f"up to {args.matches} matches each"
    )
    for label, inner, difficulty in rows:
        timed = Timed(inner)
        rate, margin, played = win_rate(
            args.game,
            seats,
            policy_seats,
            timed,
            difficulty,
            args.matches,
            args.seconds_per_difficulty,
        )
        print(
            f"{label:8} win {rate:6.1%} ± {margin:5.1%}  ({played} matches)  "
            f"decision wall {p99_max(timed.times)}, cpu {p99_max(timed.cpu)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
