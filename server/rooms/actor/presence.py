"""Who is at a live room's table, and what follows from it: away seats, CPU cover, the
"shown" gate, and whether game time runs.

A human seat is away while no visible client holds it; past the room's cover time a CPU
plays it (CPU cover) until the human is back (a room with seat clocks has no cover time:
its clocks do that, see turns.py). Game time runs while a match is on, not paused, and
some human seat has a visible client that has reported the latest new board shown, or
`GATE_CAP_MS` have passed since it was sent (the shown gate: a slow device does not lose
time to a board it has not drawn yet). In a days room it runs with nobody present too.

None of this is saved: a room loaded from the store starts with every human away.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from server.rooms.actor.core import RoomCore
from server.rooms.seats.seat import Watched

GATE_CAP_MS = 1500.0


class Client(Protocol):
    """What presence reads of an attachment."""

    seats: tuple[int, ...]
    is_visible: bool
    shown_version: int


class Presence:
    """A live room's presence state: since when each human seat is away, and the gate."""

    def __init__(self) -> None:
        self.away_since: dict[int, float] = {}
        # Seats a CPU began to cover in `update`, for the room's log (which empties it).
        self.covered: list[int] = []
        self.gate_version: int | None = None
        self.gate_since = 0.0
        self.could_run = False
        # Advanced by `clients_changed`: the room's clients as presence reads them.
        self._clients_changes = 0
        # What the last `update` was worked out from, while nothing in it waits on time
        # but the gate, and the visible clients holding a human seat it found.
        self._updated_from: tuple[Any, ...] | None = None
        self._watchers: list[Client] = []
        # The last `public_seats` and what it was worked out from (None: not to be kept).
        self._public: list[dict[str, Any]] = []
        self._public_from: tuple[Any, ...] | None = None

    def all_away(self, core: RoomCore, now: float) -> None:
        """Every human seat away from `now` (a new or freshly loaded room)."""
        for i, seat in enumerate(core.seats):
            if seat.kind == "human":
                self.away_since[i] = now

    def clients_changed(self) -> None:
        """A client came or went, or showed or hid the board: what `update` and
        `public_seats` worked out from the clients is to be worked out again. (A board
        reported shown is not such a change: the gate reads that itself.)"""
        self._clients_changes += 1

    def update(
        self, core: RoomCore, clients: Sequence[Client], now: float, dirty: bool
    ) -> tuple[bool, bool]:
        """Recompute who is away, CPU cover, the gate, and whether game time runs.

        `dirty`: the room has changes not yet saved (the gate then waits for the version
        that save makes). Returns (a seat's cover changed: save and announce, game time
        stopped: save, to bank it).

        Nothing to do when nothing it reads changed since the last call (the seats and
        settings, `Watched`; status, pause, clients, `clients_changed`), no human is
        away (cover waits on time), and the gate, if it waits, still waits: the usual
        move.
        """
        made_from = (Watched.changes, core.status, core.paused, self._clients_changes)
        if (
            made_from == self._updated_from
            and not self.away_since
            and not core.gate_wanted
            and (self.gate_version is None or not self._gate_opens(now))
        ):
            return False, False
        changed = False
        seats = core.seats
        # One pass over the clients (this runs for every input): the seats shown on some
        # visible client, and the visible clients holding a human seat.
        present: set[int] = set()
        watchers = []
        for c in clients:
            if c.is_visible:
                present.update(c.seats)
                for s in c.seats:
                    if seats[s].kind == "human":
                        watchers.append(c)
                        break
        for i, seat in enumerate(seats):
            if seat.kind != "human":
                continue
            if i in present:
                if self.away_since:
                    self.away_since.pop(i, None)
                if seat.covered and not seat.handed and core.set_covered(i, False, now):
                    changed = True
            else:
                since = self.away_since.setdefault(i, now)
                cover = core.settings.cover_after_ms
                due = cover is not None and core.status == "playing" and now - since >= cover
                if due and core.set_covered(i, True, now):
                    changed = True
                    self.covered.append(i)
        # In a days room the game goes on with nobody at the table (rule timers, CPUs):
        # its players come and go over days.
        rules = core.clock_rules
        could_run = (
            core.status == "playing"
            and not core.paused
            and (bool(watchers) or (rules is not None and rules.wall))
        )
        if core.gate_wanted or (could_run and not self.could_run):
            core.gate_wanted = False
            self.gate_version = core.version + (1 if dirty or changed else 0)
            self.gate_since = now
        self.could_run = could_run
        self._watchers = watchers
        if self.gate_version is not None and self._gate_opens(now):
            self.gate_version = None
        running = could_run and self.gate_version is None
        stopped = core.set_running(running, now) and not running
        self._updated_from = made_from
        return changed, stopped

    def _gate_opens(self, now: float) -> bool:
        """Whether the waiting gate opens now: its cap has passed, or every visible
        client holding a human seat has shown the board it waits for."""
        gate = self.gate_version
        assert gate is not None
        return now - self.gate_since >= GATE_CAP_MS or all(
            c.shown_version >= gate for c in self._watchers
        )

    def wakes(self, core: RoomCore) -> list[float]:
        """When presence next needs the room to look again: the gate's cap, and each
        away human's cover time."""
        wakes = []
        if self.gate_version is not None:
            wakes.append(self.gate_since + GATE_CAP_MS)
        cover = core.settings.cover_after_ms
        if cover is not None and core.status == "playing":
            for i, since in self.away_since.items():
                seat = core.seats[i]
                if seat.kind == "human" and not seat.covered:
                    wakes.append(since + cover)
        return wakes

    def public_seats(
        self, core: RoomCore, clients: Sequence[Client], now: float
    ) -> list[dict[str, Any]]:
        """Every seat as all views show it: name, host mark, presence (see `Seat.public`).

        The very list of the last call while nothing it shows can have changed: the
        seats and settings (`Watched`), the status, the clients (`clients_changed`); and
        no human away (an away seat shows for how long).
        """
        made_from = (Watched.changes, core.status, self._clients_changes)
        if made_from == self._public_from:
            return self._public
        connected = {s for c in clients for s in c.seats}
        present = {s for c in clients if c.is_visible for s in c.seats}
        cover = core.settings.cover_after_ms
        seats = []
        for i, seat in enumerate(core.seats):
            since = self.away_since.get(i)
            away_ms = None if since is None else int(now - since)
            cover_in = None
            if away_ms is not None and cover is not None and core.status == "playing":
                cover_in = max(0, int(cover - away_ms))
            seats.append(
                seat.public(
                    i in connected,
                    host=i == core.settings.host,
                    present=i in present,
                    away_ms=away_ms,
                    cover_in_ms=cover_in,
                )
            )
        self._public = seats
        self._public_from = None if self.away_since else made_from
        return seats
