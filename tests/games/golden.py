"""The golden-transcript harness every test_*_golden.py shares.

A golden test plays one whole seeded match, or replays recorded inputs, and compares it
with a JSON file under tests/games/golden/. After a deliberate rules change, run it with
ZASHIKI_REGEN_GOLDEN=1 to write the files anew, and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from server.games.contract import Game

GOLDEN_DIR = Path(__file__).parent / "golden"

Layout = Literal["indent", "compact", "lines"]


def seeded_moves(
    game: Game,
    state: Any,
    seats: int,
    seed: int,
    choose: Callable[[list[Any], random.Random], Any] = lambda legal, rng: rng.choice(legal),
) -> Iterator[tuple[int, Any, list[Any]]]:
    """Play `state` to the end at time 0: the lowest seat with a legal move moves, and
    `choose` picks its action with a Random(seed). Yields (seat, action, events)."""
    rng = random.Random(seed)
    while game.outcome(state) is None:
        seat = min(s for s in range(seats) if game.actions(state, s))
        action = choose(game.actions(state, seat), rng)
        yield seat, action, game.apply(state, seat, action, 0)


def seeded_match(game: Game, seats: int, seed: int) -> dict[str, Any]:
    """A whole match with default options played by `seeded_moves`, every step with its
    events, made JSON-plain (as it reads back from a file)."""
    state = game.new(seats, game.resolve_options({}), seed)
    steps = [
        {"seat": seat, "action": action, "events": events}
        for seat, action, events in seeded_moves(game, state, seats, seed)
    ]
    match = {"seats": seats, "seed": seed, "steps": steps, "outcome": game.outcome(state)}
    return json.loads(json.dumps(match))


def _text(data: dict[str, Any], layout: Layout) -> str:
    if layout == "indent":
        return json.dumps(data, indent=1) + "\n"
    if layout == "compact":
        return json.dumps(data, separators=(",", ":")) + "\n"
    # "lines": the other keys on the first line, then one step a line (small diffs).
    head = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "steps")
    steps = ",\n".join(json.dumps(step) for step in data["steps"])
    return "{" + head + ',\n"steps": [\n' + steps + "\n]}\n"


def golden(name: str, make: Callable[[], dict[str, Any]], layout: Layout = "indent") -> Any:
    """The transcript stored as golden/<name>, read back as JSON. With ZASHIKI_REGEN_GOLDEN
    set, `make()` is written there first (in `layout`)."""
    path = GOLDEN_DIR / name
    if os.environ.get("ZASHIKI_REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(_text(make(), layout))
    return json.loads(path.read_text())
