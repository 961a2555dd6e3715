"""A game's CPU decisions over seeded matches as one hash, to show a refactor changed none.

    python -m tests.bench.trace_bots --game shirokuro_jong --matches 40

Every seat is the game's policy; the matches cycle through the seat counts, mixes of
difficulties and each option's other choices (one at a time). Every decision (seat,
difficulty, legal moves, move, delay, why) and every outcome is hashed. Prints the
count and the SHA-256: equal before and after a change means the CPU decides alike.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import DIFFICULTIES, Game, IllegalAction
from tests.bench.bot_arena import play_match


class Recorded(Policy):
    """Wraps a policy and writes each decision, as JSON text, to a shared log."""

    def __init__(self, inner: Policy, log: list[str]) -> None:
        self.inner, self.log = inner, log

    def decide(self, situation: Situation) -> Decision | None:
        decision = self.inner.decide(situation)
        made = None if decision is None else [decision.action, decision.delay_ms, decision.why]
        entry = [situation.seat, situation.difficulty, situation.legal, made]
        self.log.append(json.dumps(entry, sort_keys=True))
        return decision


def option_sets(game: Game) -> list[dict[str, Any]]:
    """The default options, then each option's other choices one at a time."""
    sets: list[dict[str, Any]] = [{}]
    for option in game.options:
        if not option.per_seat:
            sets += [{option.name: c} for c in option.choices if c != option.default]
    return sets


def trace(game_id: str, matches: int) -> tuple[int, str]:
    """(entries, SHA-256) of the decisions and outcomes of `matches` seeded matches."""
    game = registry.get(game_id)
    seat_counts = range(game.min_seats, game.max_seats + 1)
    options = option_sets(game)
    log: list[str] = []
    for i in range(matches):
        seats = seat_counts[i % len(seat_counts)]
        difficulties = [DIFFICULTIES[(i + s) % len(DIFFICULTIES)] for s in range(seats)]
        policies: list[Policy] = [Recorded(policy_for(game_id), log) for _ in range(seats)]
        chosen = options[i % len(options)]
        try:
            game.check_options(game.resolve_options(chosen), seats)
        except IllegalAction:
            chosen = {}
        outcome = play_match(game, seats, policies, difficulties, 1000 + i, chosen)
        log.append(json.dumps(outcome, sort_keys=True))
    return len(log), hashlib.sha256("\n".join(log).encode()).hexdigest()


def main() -> None:
    """Parse arguments, trace the matches, print the count and the hash."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--matches", type=int, default=40)
    args = parser.parse_args()
    entries, digest = trace(args.game, args.matches)
    print(f"{args.game}: {args.matches} matches, {entries} decisions and outcomes, sha256 {digest}")


if __name__ == "__main__":
    main()
