"""Engine speed: seeded uniform-random matches of every registered game.

    python -m tests.bench.bench_engines [--seconds 3] [--game usunoro]

Each step picks one legal (seat, move) pair uniformly, advances game time by 0-400 ms
and fires rule timers when they fall due, as a room would; after every accepted move it
takes the view of every seat and of a spectator, as a room does before it broadcasts.
Prints one line per game (at its largest seat count): matches per second (whole loop,
views included), µs per `apply`, µs per `view`, and the largest packed `dump` seen.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from server.games import registry
from server.games.contract import Game
from server.games.rng import Rng
from server.store import codec

MAX_STEPS = 100_000


@dataclass
class Tally:
    """Counts and times gathered over the matches of one game."""

    matches: int = 0
    applies: int = 0
    apply_s: float = 0.0
    views: int = 0
    view_s: float = 0.0
    max_dump: int = 0


def play(game: Game, seats: int, seed: int, tally: Tally) -> None:
    """One uniform-random match, timing every apply and view into `tally`."""
    rng = Rng.from_seed(seed)
    state = game.new(seats, game.resolve_options({}), seed)
    now = 0
    viewers: list[int | None] = [*range(seats), None]
    for step in range(MAX_STEPS):
        if game.outcome(state) is not None:
            tally.matches += 1
            return
        legal: list[tuple[int, Any]] = [
            (s, a) for s in range(seats) for a in game.actions(state, s)
        ]
        due = game.deadline(state)
        if not legal or (due is not None and rng.random() < 0.03):
            if due is None:
                raise RuntimeError(f"{game.id}: nobody can move and no timer runs")
            now = max(now, due)
            game.expire(state, now)
            continue
        now += rng.randrange(400)
        if due is not None and now >= due:
            game.expire(state, now)
            continue
        seat, action = rng.choice(legal)
        start = time.perf_counter()
        game.apply(state, seat, action, now)
        tally.apply_s += time.perf_counter() - start
        tally.applies += 1
        start = time.perf_counter()
        for viewer in viewers:
            game.view(state, viewer)
        tally.view_s += time.perf_counter() - start
        tally.views += len(viewers)
        if step % 16 == 0:
            tally.max_dump = max(tally.max_dump, len(codec.pack(game.dump(state))))
    raise RuntimeError(f"{game.id}: match {seed} did not end within {MAX_STEPS} steps")


def bench(game: Game, seconds: float) -> str:
    """Play matches for about `seconds` and format the game's line."""
    seats = game.max_seats
    tally = Tally()
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        play(game, seats, seed, tally)
        seed += 1
    elapsed = time.perf_counter() - start
    return (
        f"{game.id:15} {seats} seats  {tally.matches / elapsed:9.1f} matches/s  "
        f"{tally.apply_s / max(1, tally.applies) * 1e6:7.1f} µs/apply  "
        f"{tally.view_s / max(1, tally.views) * 1e6:7.1f} µs/view  "
        f"dump ≤ {tally.max_dump} B  ({tally.matches} matches, {tally.applies} applies)"
    )


def main() -> None:
    """Parse arguments and print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per game")
    parser.add_argument("--game", help="one game id (default: every registered game)")
    args = parser.parse_args()
    games = [registry.get(args.game)] if args.game else list(registry.games().values())
    for game in games:
        print(bench(game, args.seconds), flush=True)


if __name__ == "__main__":
    main()
