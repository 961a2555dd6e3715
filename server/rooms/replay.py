"""Rebuild a match from its seed and move log (the store's log of a room).

The log holds every engine input in order: {"k": "start", "n", "options", "seed"},
then moves {"k": "m", "s": seat, "a": action, "t": game ms} and rule-timer firings
{"k": "x", "t": game ms}. Engines are deterministic, so playing it back gives the
saved state exactly.
"""

from __future__ import annotations

from typing import Any

from server.games.contract import Game


def replay(game: Game, log: list[dict[str, Any]]) -> Any:
    """The game state after every entry of `log` (which must begin with a start)."""
    if not log or log[0].get("k") != "start":
        raise ValueError("a match log begins with its start entry")
    first = log[0]
    state = game.new(first["n"], first["options"], first["seed"])
    for entry in log[1:]:
        if entry["k"] == "m":
            game.apply(state, entry["s"], entry["a"], entry["t"])
        elif entry["k"] == "x":
            game.expire(state, entry["t"])
        else:
            raise ValueError(f"unknown log entry {entry['k']!r}")
    return state
