"""A days room's line in the store's due index: when the room next needs a process
running it (its seat clock running out, a CPU's move due), so that a sweep (rooms/due.py)
loads it then even if no process runs it any more (they all restarted, or its own died).

Only rooms whose seat clocks count wall time are listed; every other room waits for its
players and never needs loading by itself. The alarm (alarm.py) tells this part each wake
it sets; the store is written only when the wake moved by more than `SLACK_MS` (a wall
time counted twice differs by microseconds), one write at a time so that they land in
order. A failed write is logged and tried again at the next wake set.
"""

from __future__ import annotations

import asyncio
import logging

from server.rooms.actor.state import RoomState
from server.store.store import StoreError

log = logging.getLogger(__name__)

# A due time this close to the one written is not written again: a sweep comes every few
# seconds anyway.
SLACK_MS = 1000
_UNKNOWN = -1  # what the store holds is not known (just loaded, or a write failed)


class DueMark:
    """The room's due time as written to the store, and the one to write."""

    def __init__(self, room: RoomState) -> None:
        self.room = room
        self._written: int | None = _UNKNOWN
        self._wanted: int | None = _UNKNOWN
        self._writing: asyncio.Task[None] | None = None

    def forget(self) -> None:
        """The store's line may have changed under us (a sweep put it off): write the
        next wake whatever it is."""
        self._written = self._wanted = _UNKNOWN

    def wake(self, wake: float | None) -> None:
        """The alarm's next wake (room clock ms, None: none): list the room by it (in
        wall time), or unlist it."""
        room = self.room
        rules = room.core.clock_rules
        if rules is None or not rules.wall or room.dead:
            return
        at: int | None = None
        if wake is not None and room.clock_runs_alone():  # a match on: none after it
            at = int(room.wall() * 1000.0 + wake - room.clock.now())
        if _same(at, self._wanted):
            return
        self._wanted = at
        if self._writing is None and room.loop is not None:
            self._writing = room.loop.create_task(self._write())

    def listed(self) -> bool:
        """Whether the store holds the room's next wake as the alarm last set it (so a
        due sweep loads the room on time if no process runs it)."""
        written = self._written
        return self._writing is None and written == self._wanted and written not in (None, _UNKNOWN)

    async def settled(self) -> None:
        """Wait until the wanted due time is written (or its write failed)."""
        writing = self._writing
        if writing is not None:
            await asyncio.wait([writing])

    async def _write(self) -> None:
        room = self.room
        try:
            # On after the room stopped here: its last wake is for the next process.
            while self._wanted != self._written:
                wanted = self._wanted
                await room.store.set_due(room.code, wanted)
                self._written = wanted
        except StoreError as exc:
            self.forget()
            log.warning("room %s: its due time was not written (%s)", room.code, exc)
        finally:
            self._writing = None


def _same(at: int | None, before: int | None) -> bool:
    """Whether a due time need not be written over `before` (what is, or will be, held)."""
    if before == _UNKNOWN:
        return False
    if at is None or before is None:
        return at is before
    return abs(at - before) <= SLACK_MS
