"""Saving a live room: the version bumped, the save (or its journal record) handed to the
store, the store's answer taken, and what else a batch may need of the store.

Every accepted change is saved before anyone sees it: the actor (room.py) publishes only
once `Saver.landed` took a save's answer. A failed save rolls the room back to the last
saved state and sets a retry; a stale version means another process took the room over.
"""

from __future__ import annotations

import asyncio
import logging
import time

from server.rooms.actor.state import RoomState
from server.rooms.errors import RoomError
from server.rooms.seats.timebank import DAYS_ROOM_TTL_MS
from server.store.store import StaleVersion, StoreError

# After a failed save (the store is down) the room rolls back and wakes this much later
# to go on (its clock restarts; a CPU move due then is tried again).
SAVE_RETRY_MS = 1000.0
log = logging.getLogger(__name__)


class Saving:
    """A save under way: the store's future, what was saved, and since when."""

    __slots__ = ("future", "blob", "full", "started")

    def __init__(self, future: asyncio.Future[None], blob: bytes, full: bool, started: float):
        self.future = future
        self.blob = blob
        self.full = full
        self.started = started


class Saver:
    """A room's saves, its move log trimmed, and its line in the public list."""

    def __init__(self, room: RoomState) -> None:
        self.room = room
        self._keeping: set[asyncio.Task[None]] = set()  # days rooms' expiry, being set

    def begin(self) -> Saving:
        """Bump the version and hand the store the room's save (or its journal record)."""
        room = self.room
        core = room.core
        core.version += 1
        if core.banks is not None:
            # A record replays moves, not the seat clocks: a clocked room saves whole.
            room.journal.full_wanted = True
        # Steps wait for a save: game time starting is not saved by itself.
        blob, full = room.journal.next_save(core, room.clock.now())
        entries, core.log = core.log, []
        for entry in entries:
            if entry["k"] in ("start", "end"):
                entry["at"] = round(room.wall(), 3)  # the history's dates (Unix s)
        started = time.perf_counter()
        future: asyncio.Future[None]
        try:
            # The Redis store gives a future; others (tests, the in-process store) a
            # coroutine, run as a task. (ensure_future is interpreted: not for a future.)
            saving = room.store.save(room.code, core.version, blob, entries, not full)
            future = saving if isinstance(saving, asyncio.Future) else asyncio.ensure_future(saving)
        except Exception as exc:  # refused before it was sent: a failed save all the same
            assert room.loop is not None
            future = room.loop.create_future()
            future.set_exception(exc)
        return Saving(future, blob, full, started)

    def landed(self, saving: Saving, error: BaseException | None) -> None:
        """Take the store's answer to a save: the room is saved, or RoomError (taken over,
        or the store failed: rolled back, tried again later)."""
        room = self.room
        room.save_seconds += time.perf_counter() - saving.started
        if isinstance(error, StaleVersion):
            room.dead = True
            room.on_lost(room)
            raise RoomError("room_moved", "this room was taken over; reconnect")
        if error is not None:
            # The detail (addresses, errno) is for the log, never for clients.
            log.warning("room %s: save failed (%s); retrying", room.code, error)
            self.rollback()
            room.retry_at = room.clock.now() + SAVE_RETRY_MS
            raise RoomError("store_error", "the room could not be saved; try again")
        room.saves += 1
        room.journal.saved(room.core, saving.blob, saving.full)
        room.dirty = False
        rules = room.core.clock_rules
        if rules is not None and rules.wall:
            self._keep_longer()

    def _keep_longer(self) -> None:
        """Have the store keep a days room longer than others (after each save, which
        sets the usual expiry); a failure is logged, the next save tries again."""
        room = self.room
        assert room.loop is not None
        task = room.loop.create_task(room.store.keep_for(room.code, DAYS_ROOM_TTL_MS))
        self._keeping.add(task)
        task.add_done_callback(self._kept)

    def _kept(self, task: asyncio.Task[None]) -> None:
        self._keeping.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("room %s: could not keep it for its days clock (%s)", self.room.code, exc)

    async def commit(self) -> None:
        """Save if the room changed, trim its log and update its public listing if
        wanted: a batch that needs more of the store than its save (the actor's
        `_finish`)."""
        room = self.room
        if room.dirty:
            saving = self.begin()
            try:
                await saving.future
            except Exception as exc:
                self.landed(saving, exc)
            else:
                self.landed(saving, None)
            if room.core.trim_wanted:
                await self.trim_log()
        if room.listing:
            try:
                await self.publish_listing()
                room.listing = False
            except StoreError as unlisted:  # the room is saved; the listing follows next time
                log.warning("room %s: could not update the public list (%s)", room.code, unlisted)

    async def trim_log(self) -> None:
        """Keep only the kept matches' entries in the store's log (whole matches, oldest
        dropped). Idempotent, so a trim that fails is simply done at the next match."""
        room = self.room
        core = room.core
        try:
            await room.store.trim_log(room.code, sum(core.log_lengths))
            core.trim_wanted = False
        except StoreError as exc:
            log.warning("room %s: could not trim the move log (%s)", room.code, exc)

    def rollback(self) -> None:
        """Back to the last saved room after a failed save (nothing unsaved is shown)."""
        room = self.room
        room.core = room.journal.last_saved(room.core)
        room.dirty = False
        room.presence.could_run = False

    async def publish_listing(self) -> None:
        """List the room publicly while it waits for players; unlist it otherwise."""
        room = self.room
        core = room.core
        if not core.settings.public:
            return
        waiting = core.status == "lobby" and any(s.kind == "open" for s in core.seats)
        await room.store.set_public(room.code, room.summary() if waiting else None)
