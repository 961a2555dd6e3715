"""Hachinin Meri: one whole seeded match replayed against its golden transcript.

Regenerate after a deliberate rules change with
``ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_hachinin_meri_golden.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from server.games.hachinin_meri import GAME

GOLDEN = Path(__file__).parent / "golden" / "hachinin_meri_seed7.json"
SEED = 7


def transcript(seed: int) -> dict[str, Any]:
    """A match where a seeded driver picks among the legal moves of the seat to move."""
    state = GAME.new(8, {}, seed)
    driver = random.Random(seed)
    steps = []
    while GAME.outcome(state) is None:
        seat = next(s for s in range(8) if GAME.actions(state, s))
        action = driver.choice(GAME.actions(state, seat))
        steps.append([seat, action, GAME.apply(state, seat, action, 0)])
    return {"seed": seed, "steps": steps, "outcome": GAME.outcome(state)}


def _write(data: dict[str, Any]) -> None:
    lines = [json.dumps(step, separators=(",", ":")) for step in data["steps"]]
    head = f'{{"seed": {data["seed"]},\n"outcome": {json.dumps(data["outcome"])},\n'
    GOLDEN.write_text(head + '"steps": [\n' + ",\n".join(lines) + "\n]}\n")


def test_golden_match_replays_exactly() -> None:
    played = transcript(SEED)
    if os.environ.get("ZASHIKI_REGEN_GOLDEN"):
        _write(played)
    golden = json.loads(GOLDEN.read_text())
    assert played["outcome"] == golden["outcome"]
    for i, (got, want) in enumerate(zip(played["steps"], golden["steps"], strict=True)):
        assert got == want, f"step {i} differs"
