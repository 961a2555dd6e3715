"""A room's journal: the saves made between two full saves, as the inputs that made them.

Most saves follow nothing but moves, due timers and game time starting or stopping. Such
a save stores a small record of those steps, each with the wall time it happened at,
beside the room's last full save, instead of the whole room (packing the whole room at
every save was about a tenth of the room path's CPU per move). Loading replays the
records over the full save through RoomCore, which given the same inputs at the same
times makes the same changes (CPU plans come from their seeded generators and the state
alone).

Anything else that changes a room (seats and CPU cover, the pause, table talk, the match
starting or ending) is saved in full, as is every JOURNAL_MOST-th save, which bounds a
load's replay.
"""

from __future__ import annotations

from typing import Any

from server.bots.contract import Policy
from server.games.contract import Game
from server.rooms.core import RoomCore
from server.store import codec

# Saves kept as records before the next full save.
JOURNAL_MOST = 16
# The inputs a record can stand for: moves, and those that change nothing saved but
# may let due timers fire or game time start or stop. Any other input's save is full.
JOURNALED = frozenset({"move", "shown", "tick", "attach", "detach", "visible"})

# One replayed step: [wall] (due timers fired), [wall, seat, seq, action] (due timers
# fired, then the move) or [wall, running] (game time started or stopped).
Step = list[Any]


def mark(core: RoomCore) -> tuple[Any, ...]:
    """What a record cannot replay, as it stands: a save whose mark differs from the last
    full save's must be full (so must one whose seats or settings changed: the room
    compares them packed)."""
    return (core.status, core.match, core.paused)


def record(core: RoomCore, steps: list[Step], wall: float) -> bytes:
    """The packed record of a save at `core.version` made by `steps`, saved at `wall`."""
    return codec.pack({"v": core.version, "s": steps, "m": core.last_move, "w": wall})


def restore(
    blob: bytes, records: tuple[bytes, ...], version: int, game: Game, policy: Policy
) -> RoomCore:
    """The room at `version` that a full save and the records saved after it make,
    stopped (as `RoomCore.load` leaves it)."""
    data = codec.unpack(blob)
    core = RoomCore.load(data, version, game, policy)
    if not records:
        return core
    core.game_ms, core.run_since = data["clock"]
    wall = 0.0
    for packed in records:
        entry = codec.unpack(packed)
        core.version = entry["v"] - 1  # a move's answer names the version it makes
        for step in entry["s"]:
            if len(step) == 2:
                core.set_running(step[1], step[0])
                continue
            core.fire_due(step[0])
            if len(step) > 1:
                core.move(step[1], step[2], step[3], step[0])
        core.version, core.last_move, wall = entry["v"], entry["m"], entry["w"]
    # Game time banked as a full save at the last record's time would have it.
    core.game_ms, core.run_since = float(core.now(wall)), None
    # What replaying produced for the actor (log entries, events) was handled then.
    core.log.clear()
    core.events.clear()
    core.view_moves = None
    core.gate_wanted = False
    return core
