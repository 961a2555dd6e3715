"""Cost of the helper lines (issue 45): `game.helpers(view)` over seeded positions.

    python -m tests.bench.bench_helpers [--seeds 3] [--moves 200]

The room asks every held seat's lines after each move while hints are on. Prints, per
game, the number of calls and the CPU time of this thread per call (mean, p99, max),
which other work on a shared machine does not inflate.
"""

from __future__ import annotations

import argparse
import time

from tests.games.test_helpers import SEATS, positions


def main() -> None:
    """Time every seat's helpers at every position of the seeded matches; print a line
    per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    for game_id, seats in SEATS.items():
        times = []
        for seed in range(args.seeds):
            for game, state in positions(game_id, seats, seed, args.moves):
                for seat in range(seats):
                    view = game.view(state, seat)
                    start = time.thread_time()
                    game.helpers(view)
                    times.append(time.thread_time() - start)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{game_id:15} {len(times):5} calls  cpu mean {sum(times) / len(times) * 1e3:6.3f} ms"
            f"  p99 {p99 * 1e3:6.3f} ms  max {times[-1] * 1e3:6.3f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
