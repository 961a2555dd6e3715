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
load's replay. A room's `Journal` keeps what its store holds and decides each save.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots.contract import Policy
from server.games.contract import Game
from server.rooms.actor import dumps
from server.rooms.actor.core import RoomCore
from server.rooms.seats.seat import Watched
from server.store import codec
from server.store.store import StoredRoom

# Saves kept as records before the next full save.
JOURNAL_MOST = 16
# The inputs a record can stand for: moves, and those that change nothing saved but
# may let due timers fire or game time start or stop. Any other input's save is full
# (a hint asks for one itself when it counts: hints.py).
JOURNALED = frozenset({"move", "shown", "tick", "attach", "detach", "visible", "review", "hint"})

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
    stopped (as `dumps.load` leaves it)."""
    data = codec.unpack(blob)
    core = dumps.load(data, version, game, policy)
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


def latest(stored: StoredRoom, deps_of: Callable[[str], tuple[Game, Policy]]) -> dict[str, Any]:
    """The room as its full save and the records after it make it, as plain data
    (`dumps.dump`), without running it; `deps_of(game_id)` gives its game and policy."""
    data = codec.unpack(stored.blob)
    if not stored.deltas:
        return data
    game, policy = deps_of(data["settings"]["game_id"])
    # Restored game time is stopped (banked at the last record), so the wall is moot.
    return dumps.dump(restore(stored.blob, stored.deltas, stored.version, game, policy), 0.0)


class Journal:
    """One room's saves as its store holds them (the last full save, the records since)
    and the next one: a record of the steps since the last save, or the whole room when
    a record could not replay what changed."""

    def __init__(self, blob: bytes = b"", records: list[bytes] | None = None) -> None:
        self.saved_blob = blob
        self.records: list[bytes] = records or []
        # The steps since the last save, and whether something no record replays changed.
        self.steps: list[Step] = []
        self.full_wanted = False
        # The last full save's `mark` (None: the next save is full).
        self._mark: tuple[Any, ...] | None = None
        # The settings and seats packed, `Watched.changes` then, and as the last full
        # save had them (a record cannot replay a change to them).
        self._fixed = b""
        self._fixed_at = -1
        self._saved_fixed = b""

    def whole(self, core: RoomCore, wall: float) -> bytes:
        """The room as the store keeps it: `RoomCore.dump` packed, its settings and seats
        (a third of it, and more of the memory a save reads) packed only after a change.
        """
        fixed = self._packed_fixed(core)
        return codec.pack_map(dumps.dump_moving(core, wall, packing=True), fixed, 2)

    def _packed_fixed(self, core: RoomCore) -> bytes:
        """The settings and seats packed, again only after a change to some room's."""
        if self._fixed_at != Watched.changes:
            self._fixed = codec.pack_entries(dumps.dump_fixed(core))
            self._fixed_at = Watched.changes
        return self._fixed

    def next_save(self, core: RoomCore, wall: float) -> tuple[bytes, bool]:
        """What to store for `core` (its version already advanced) at `wall`, and whether
        it is the whole room; the steps since the last save are taken."""
        steps, self.steps = self.steps, []
        full = (
            self.full_wanted
            or len(self.records) >= JOURNAL_MOST
            or mark(core) != self._mark
            or self._packed_fixed(core) != self._saved_fixed
        )
        self.full_wanted = False
        return (self.whole(core, wall) if full else record(core, steps, wall)), full

    def saved(self, core: RoomCore, blob: bytes, full: bool) -> None:
        """The store now holds `blob`, the save `next_save` gave for `core`."""
        if full:
            self.saved_blob, self.records = blob, []
            self._mark, self._saved_fixed = mark(core), self._fixed
        else:
            self.records.append(blob)

    def last_saved(self, core: RoomCore) -> RoomCore:
        """The room as last saved, a version before `core` (after a failed save)."""
        saved = restore(
            self.saved_blob, tuple(self.records), core.version - 1, core.game, core.policy
        )
        self._mark = None  # the restored room's game time is stopped: the next save is full
        return saved
