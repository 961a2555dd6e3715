"""Golden transcript: one whole seeded Utsuke match (3 players) replayed move by move.

Regenerate after an intended rules change with
    ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_utsuke_golden.py
and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from server.games.utsuke import GAME

GOLDEN = Path(__file__).parent / "golden" / "utsuke_3p_seed7.json"
SEATS = 3
SEED = 7


def transcript() -> dict[str, Any]:
    """A match whose moves a seeded driver picks from the legal list, with every event."""
    driver = random.Random(SEED)
    state = GAME.new(SEATS, GAME.resolve_options({}), SEED)
    steps: list[Any] = []
    while GAME.outcome(state) is None:
        seat = min(s for s in range(SEATS) if GAME.actions(state, s))
        action = driver.choice(GAME.actions(state, seat))
        steps.append({"seat": seat, "action": action, "events": GAME.apply(state, seat, action, 0)})
    return {"seats": SEATS, "seed": SEED, "steps": steps, "outcome": GAME.outcome(state)}


def test_golden_match_replays_identically() -> None:
    got = json.loads(json.dumps(transcript()))
    if os.environ.get("ZASHIKI_REGEN_GOLDEN"):
        lines = [json.dumps(step) for step in got["steps"]]
        head = f'{{"seats": {SEATS}, "seed": {SEED}, "outcome": {json.dumps(got["outcome"])},'
        GOLDEN.write_text(head + '\n"steps": [\n' + ",\n".join(lines) + "\n]}\n")
    assert got == json.loads(GOLDEN.read_text())
