"""Hint latency: how long `advise` (the Hard CPU's move from a seat's view) takes, per game,
over many seeded mid-round positions.

    python -m tests.bench.bench_hints [--positions 200] [--seconds-per-game 8] [--game ID]

Positions come from random legal moves (3 to 60 of them, timers fired when nobody may
move) after a seeded deal; every seat with a move there is advised once. Prints a
progress line per game, then p50, p95, p99 and max of wall-clock time and of this
thread's CPU time (which other work on a shared machine does not inflate), in ms. Each
game stops at `--positions` positions or after `--seconds-per-game`, whichever first.
"""

from __future__ import annotations

import argparse
import time

from server.bots.advice import advise, hint_seed
from server.games import registry
from tests.bots.positions import SEATS, mid_round


def percentiles(times: list[float]) -> str:
    """p50, p95, p99 and max of `times` (seconds), in ms."""
    ordered = sorted(times) or [0.0]

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000

    return (
        f"p50 {at(0.50):6.1f}  p95 {at(0.95):6.1f}  p99 {at(0.99):6.1f}  "
        f"max {ordered[-1] * 1000:6.1f} ms"
    )


def bench(game_id: str, positions: int, budget_s: float) -> tuple[list[float], list[float], int]:
    """(wall times, CPU times, positions seen) of advising every mover of each position."""
    game, seats = registry.get(game_id), SEATS[game_id]
    wall: list[float] = []
    cpu: list[float] = []
    start = time.monotonic()
    seen = 0
    for seed in range(positions):
        if time.monotonic() - start > budget_s:
            break
        state, movers = mid_round(game, seats, 10_000 + seed, most=60)
        seen += 1
        for seat in movers:
            hint = hint_seed(seed, seat, 0)
            began, began_cpu = time.perf_counter(), time.thread_time()
            advise(game, state, seat, hint)
            wall.append(time.perf_counter() - began)
            cpu.append(time.thread_time() - began_cpu)
    return wall, cpu, seen


def main() -> None:
    """Parse the arguments, run each game, print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds-per-game", type=float, default=8.0)
    parser.add_argument("--game", choices=sorted(SEATS))
    args = parser.parse_args()
    games = [args.game] if args.game else sorted(SEATS)
    print(f"advise: up to {args.positions} positions or {args.seconds_per_game:.0f} s per game")
    for game_id in games:
        print(f"{game_id}: advising ...", flush=True)
        wall, cpu, seen = bench(game_id, args.positions, args.seconds_per_game)
        print(f"  {len(wall)} hints at {seen} positions")
        print(f"  wall {percentiles(wall)}")
        print(f"  cpu  {percentiles(cpu)}", flush=True)


if __name__ == "__main__":
    main()
