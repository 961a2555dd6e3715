"""The due sweep: every process, every few seconds, loads the rooms whose time has come
that no process runs, so a days room acts on time by itself.

A days room's clock runs in wall time whether a process runs the room or not: a seat's
bank runs out, a CPU's move comes due, and the room must play it (and push "your move"
to the next seat) with nobody at the table and after every process restarted. Each such
room keeps its next wake in the store's due index (actor/due_mark.py); every process
claims a bounded batch of the rooms due by now (`Store.claim_due`: one round trip, each
put off by a lease so no other sweep takes it meanwhile) and loads each through the
normal lease path (`LiveRooms.room`), so one process at a time runs it; a "tick" then has
the room's own alarm logic act. A room another process holds is left to it (its own
alarm fires there; its next save writes its next time); one gone from the store leaves
the index; one that fails to load is put off until its next try, each wait twice the
last (`LiveRooms.load_failures`), while the rest of the batch goes on. Rooms with no
clock in wall time are never in the index: a sweep costs one ZRANGEBYSCORE with LIMIT,
whatever the number of rooms.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from server.logs import room_event
from server.rooms.actor.clock import TimerHandle
from server.rooms.errors import RoomError
from server.rooms.live import LiveRooms
from server.store.store import StoreError

log = logging.getLogger(__name__)

SWEEP_MS = 5_000  # the mean time between two sweeps of one process
BATCH = 32  # rooms one sweep claims at most (the next sweep takes the rest)


class DueSweep:
    """One process's sweeps of the due index; `wall()` is Unix time in seconds."""

    def __init__(
        self,
        live: LiveRooms,
        wall: Callable[[], float],
        period_ms: float = SWEEP_MS,
        batch: int = BATCH,
    ) -> None:
        self.live = live
        self.wall = wall
        self.period_ms = period_ms
        self.batch = batch
        self._timer: TimerHandle | None = None
        self._stopped = False
        # Jittered: processes started together do not sweep in step.
        self._random = random.Random()

    def start(self) -> None:
        """Sweep from now on, every `period_ms` on average."""
        self._schedule()

    def stop(self) -> None:
        """No more sweeps (a sweep under way finishes as background work of `live`)."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _schedule(self) -> None:
        if self.live.closed or self._stopped:
            return
        clock = self.live.clock
        delay = self.period_ms * self._random.uniform(0.5, 1.5)
        self._timer = clock.call_at(clock.now() + delay, self._ring)

    def _ring(self) -> None:
        self.live.spawn(self._sweep_and_again())

    async def _sweep_and_again(self) -> None:
        try:
            await self.sweep()
        except StoreError as exc:  # an outage: the next sweep tries again
            log.warning("due sweep: the store failed (%s)", exc)
        finally:
            self._schedule()

    async def sweep(self) -> list[str]:
        """Claim the rooms due by now and have each act; returns the codes of those
        this sweep started running here."""
        live = self.live
        if live.closed:
            return []
        now_ms = int(self.wall() * 1000.0)
        codes = await live.store.claim_due(now_ms, self.batch, live.lease_ms)
        woken = []
        for code in codes:
            if await self._wake(code):
                woken.append(code)
        return woken

    async def _wake(self, code: str) -> bool:
        """Have a due room act: load it if no process runs it. True if loaded here."""
        live = self.live
        room = live.rooms.get(code)
        loaded = room is None
        if room is None:
            try:
                room = await live.room(code)
            except RoomError as exc:
                if exc.code == "room_not_found":  # gone (expired): out of the index
                    await live.store.set_due(code, None)
                retry_ms = live.load_failures.retry_in_ms(code)
                if exc.code == "room_unavailable" and retry_ms is not None:
                    # It fails to load: put off until its next try, not the claim's.
                    await live.store.set_due(code, int(self.wall() * 1000.0 + retry_ms))
                # room_elsewhere: its holder's alarm acts; server_shutdown: a peer will.
                return False
            room_event(log, code, "woken", "room %s woken by the due sweep", code)
        rules = room.core.clock_rules
        if rules is None or not rules.wall:  # its code made afresh for a room without one
            await live.store.set_due(code, None)
            return loaded
        # The claim put its line off: the room writes its own next time after the tick.
        room.alarm.due.forget()
        room.post("tick")
        return loaded
