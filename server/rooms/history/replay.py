"""Rebuild a room's latest match from its move log (the store's log of a room).

The log holds every engine input in order: {"k": "start", "n", "options", "seed", "cpu"}
(cpu: the CPU seats, absent in older logs),
then moves {"k": "m", "s": seat, "a": action, "t": game ms} (with "cpu": true when a CPU
made it, fed to the engine's `apply_cpu`) and rule-timer firings
{"k": "x", "t": game ms}. A room plays matches one after another ("play again"), so a
start entry later in the log begins a new match: a fresh state from that entry's own
seed, game time from 0 again. A match's end {"k": "end", "match", "outcome"} is a record
for the room's history, not an input. Engines are deterministic, so playing the log back gives
the saved state of the latest match exactly.
"""

from __future__ import annotations

from typing import Any

from server.games.contract import Game


def replay(game: Game, log: list[dict[str, Any]]) -> Any:
    """The latest match's state after every entry of `log` (which must begin with a start)."""
    if not log or log[0].get("k") != "start":
        raise ValueError("a match log begins with its start entry")
    state: Any = None
    for entry in log:
        if entry["k"] == "start":
            state = game.new(
                entry["n"], entry["options"], entry["seed"], cpu_seats=entry.get("cpu", ())
            )
        elif entry["k"] == "m":
            apply = game.apply_cpu if entry.get("cpu") is True else game.apply
            apply(state, entry["s"], entry["a"], entry["t"])
        elif entry["k"] == "x":
            game.expire(state, entry["t"])
        elif entry["k"] == "end":
            continue
        else:
            raise ValueError(f"unknown log entry {entry['k']!r}")
    return state
