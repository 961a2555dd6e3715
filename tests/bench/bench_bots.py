"""Bot strength: a game's CPU policy, per difficulty, against uniform-random opponents.

    python -m tests.bench.bench_bots --game junocos --matches 200 [--seats 4]
        [--policy-seats 0] [--seconds-per-difficulty 600]

Prints one line per difficulty: win rate (place 1, shared counts) with its 95 % margin,
the uniform-random baseline for the same seats, and the slowest decision times.
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
    """Wraps a policy and records how long each decision took."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.times: list[float] = []

    def decide(self, situation: Situation) -> Decision | None:
        start = time.perf_counter()
        try:
            return self.inner.decide(situation)
        finally:
            self.times.append(time.perf_counter() - start)


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
        times = sorted(timed.times) or [0.0]
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{label:8} win {rate:6.1%} ± {margin:5.1%}  ({played} matches)  "
            f"decision p99 {p99 * 1000:7.1f} ms  max {times[-1] * 1000:7.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
