"""The rooms this process runs: loaded under a lease, kept while the lease is renewed,
unloaded when idle or lost, and handed over to the process their clients use.

A room runs in one process at a time: the holder of its lease in the store (DESIGN.md
"Scaling past one machine"). `LiveRooms.room` loads a room on demand when this process
can take the lease. Housekeeping, every third of a lease, renews the leases, drops the
rooms whose lease was lost and those idle for `unload_after_ms` (days rooms, whose
clocks run with nobody there, for `days_unload_after_ms`, once the due index holds
their next wake: the due sweep brings them back then), and, with a relay,
hands a room whose every attachment is a link from one other process to that process.

A relayed room moves to where its clients are (a relayed move costs more CPU than a
local one). At attach, a process running a room that nothing there needs (no attachment,
none attaching) hands it to the asker, which loads it and attaches locally (`hand_over`).
A room with nobody attached stays where it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

from server.logs import room_event
from server.rooms.actor.clock import Clock, TimerHandle
from server.rooms.actor.room import Room, summary_of_blob
from server.rooms.errors import RoomError
from server.rooms.load_failures import LoadFailures
from server.rooms.relay.endpoint import Handed, Relay
from server.rooms.seats.seat import normalize_code
from server.rooms.stopping import stop_all
from server.store.store import Store, StoreError

log = logging.getLogger(__name__)

LEASE_MS = 30_000
UNLOAD_AFTER_MS = 5 * 60_000
# A days room (seat clocks in wall time) idle this long is unloaded too: the due sweep
# (due.py) loads it again when its clock or a CPU must act.
DAYS_UNLOAD_AFTER_MS = 10 * 60_000
# Why a room stopped running here, as the log says it (`unload`'s reasons).
STOPPED = {
    "server_shutdown": "the server is stopping; saved, lease given up",
    "idle": "idle; saved, lease given up",
    "room_moved": "another process took it over",
    "unloaded": "unloaded; saved, lease given up",
}


class LiveRooms:
    """The live rooms of this process, their leases, and the work kept in the background.

    `room_deps(game_id)` gives what a `Room` of that game is made with (the manager's);
    `relay` (None: no bus) is set once the manager has made it.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        instance_id: str,
        room_deps: Callable[[str], dict[str, Any]],
        lease_ms: int = LEASE_MS,
        unload_after_ms: int = UNLOAD_AFTER_MS,
        days_unload_after_ms: float = DAYS_UNLOAD_AFTER_MS,
    ) -> None:
        self.store = store
        self.clock = clock
        self.instance_id = instance_id
        self.lease_ms = lease_ms
        self.unload_after_ms = unload_after_ms
        self.days_unload_after_ms = days_unload_after_ms
        self.relay: Relay | None = None
        self._room_deps = room_deps
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        # Rooms being stopped here: loading them again waits until they are.
        self._leaving: dict[str, asyncio.Event] = {}
        self.attaching: Counter[str] = Counter()  # local attaches under way, by room
        self.load_failures = LoadFailures(clock)  # rooms that failed to load, backing off
        self._arrived: dict[str, float] = {}  # when each live room started running here
        self._housekeeping: TimerHandle | None = None
        self._background: set[asyncio.Task[None]] = set()
        self.closed = False
        # Counters of rooms already unloaded, so the manager's stats never go down.
        self._retired = {"moves": 0.0, "saves": 0.0, "save_seconds": 0.0}

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> None:
        """Start housekeeping."""
        self._schedule_housekeeping()

    async def aclose(self) -> None:
        """Finish background work, stop every room and give up its lease (stopping.py)."""
        self.closed = True
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        while self._background:
            await asyncio.gather(*self._background)
        await stop_all(self.rooms, self.unload)

    async def drain(self) -> int:
        """Stop running rooms here, for the process to stop without a gap: load no more,
        and stop every live room (each saved, its lease given up, its clients told
        server_shutdown so they reconnect, to another process that loads it at once).
        Returns how many rooms were stopped; `aclose` does the rest. A lease the store
        does not take back (an outage) is left to lapse: the stop goes on."""
        self.closed = True
        return await stop_all(self.rooms, self.unload)

    async def settled(self) -> None:
        """Wait until background work and every live room's queued inputs are done."""
        while self._background:
            await asyncio.gather(*self._background)
        for room in list(self.rooms.values()):
            await room.settled()
            await room.alarm.due.settled()

    def stats(self) -> dict[str, float]:
        """Live rooms, attachments, and moves, saves and save time of every room run here."""
        rooms = list(self.rooms.values())
        retired = self._retired
        return {
            "rooms_live": len(rooms),
            "attachments": sum(len(r.attachments) for r in rooms),
            "moves": sum(r.moves for r in rooms) + retired["moves"],
            "saves": sum(r.saves for r in rooms) + retired["saves"],
            "save_seconds": sum(r.save_seconds for r in rooms) + retired["save_seconds"],
        }

    # -- loading and unloading ---------------------------------------------------------
    def run(self, code: str, room: Room) -> None:
        """Start running a room this process holds the lease of (new or loaded)."""
        self.rooms[code] = room
        self._arrived[code] = self.clock.now()
        room.start()

    async def room(self, code: str) -> Room:
        """The live room, loading it from the store if needed (never another process's)."""
        if self.closed:
            raise RoomError("server_shutdown", "the server is shutting down")
        code = normalize_code(code)
        while True:
            room = self.rooms.get(code)
            if room is not None:
                return room
            loading = self._loading.get(code)
            if loading is not None:
                return await asyncio.shield(loading)
            leaving = self._leaving.get(code)
            if leaving is None:
                break
            await leaving.wait()  # its last save first; then see who runs it
        refused = self.load_failures.refused(code)
        if refused is not None:
            raise refused
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            room = await self._load(code)
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # marked retrieved: waiters re-raise it themselves
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str) -> Room:
        began = time.monotonic()
        if not await self.store.acquire_lease(code, self.instance_id, self.lease_ms):
            raise RoomError("room_elsewhere", f"room {code} is run by another server")
        # The room and its chat at once: a handover's clients wait for this load.
        stored, chat = await asyncio.gather(self.store.load(code), self.store.chat(code))
        if stored is None:
            self.load_failures.loaded(code)  # gone: nothing to try again
            await self.store.release_lease(code, self.instance_id)
            raise RoomError("room_not_found", f"no room {code}")
        try:
            deps = self._room_deps(summary_of_blob(stored.blob, 0)["game"])
            room = Room.from_stored(stored, deps)
        except Exception as exc:  # its game gone, its dump corrupt: no other room's trouble
            with contextlib.suppress(StoreError):  # it lapses by itself
                await self.store.release_lease(code, self.instance_id)
            raise self.load_failures.failed(code, exc) from exc
        self.load_failures.loaded(code)
        room.chat.extend(chat)
        # The first room of a game loads its modules (a second or so on a busy machine):
        # take the lease afresh, so it cannot lapse before housekeeping first renews it.
        if not await self.store.acquire_lease(code, self.instance_id, self.lease_ms):
            raise RoomError("room_elsewhere", f"room {code} is run by another server")
        self.run(code, room)
        room_event(
            log,
            code,
            "taken_over",
            "room %s taken over from its last save (version %d) in %.3f s",
            code,
            stored.version,
            time.monotonic() - began,
        )
        return room

    def on_lost(self, room: Room) -> None:
        """A room found it was taken over (stale save): drop it without saving."""
        if self.rooms.get(room.code) is room:
            self.spawn(self.unload(room.code, "room_moved"))

    async def unload(self, code: str, reason: str, release: bool | None = None) -> None:
        """Stop running a room here; give up its lease unless it was taken (`release`).

        The lease is free before the room's clients are told: reconnecting at once, they
        find another process able to load it."""
        room = self.rooms.pop(code, None)
        if room is None:
            return
        del self._arrived[code]
        self._leaving[code] = leaving = asyncio.Event()
        try:
            await room.stop(reason)
            await room.alarm.due.settled()  # its next time, for whoever runs it next
            self._retired["moves"] += room.moves
            self._retired["saves"] += room.saves
            self._retired["save_seconds"] += room.save_seconds
            if release is None:
                release = reason != "room_moved"
            if release:
                try:
                    await self.store.release_lease(code, self.instance_id)
                except StoreError as exc:  # it lapses by itself; a restart in place takes it
                    log.warning("room %s: lease not given up (%s)", code, exc)
            if reason == "room_moved" and release:
                room_event(log, code, "handed_over", "room %s handed over", code)
            else:
                why = STOPPED.get(reason, reason)
                room_event(log, code, "closed", "room %s stopped here (%s)", code, why)
        finally:
            room.tell_stopped(reason)
            del self._leaving[code]
            leaving.set()

    # -- handover --------------------------------------------------------------------------
    async def hand_over(self, code: str, asker: str) -> Handed:
        """Stop running `code` here for `asker` to run it, if nothing here needs it.

        The relay calls it when `asker` asks to attach: "given" if the room had no
        attachment and no other attach under way (so it stopped, every change saved, and
        its lease is free), "gone" if it was stopping anyway, None to serve a link.
        """
        leaving = self._leaving.get(code)
        if leaving is not None:
            await leaving.wait()
            return "gone"
        room = self.rooms.get(code)
        assert self.relay is not None
        if (
            room is None
            or room.attachments
            or self.attaching[code]
            or self.relay.attaching(code) > 1
        ):
            return None
        # No await between the checks and the stop: no attach can slip in before it.
        await self.unload(code, "room_moved", release=True)
        return "given"

    def take(self, code: str) -> None:
        """A room was handed to this process: load it now, for its clients reconnecting."""
        if not self.closed:
            self.spawn(self._take_room(code))

    async def _take_room(self, code: str) -> None:
        # Someone else may run it by now (or it ended): its clients find it there.
        with contextlib.suppress(RoomError):
            await self.room(code)

    async def _hand_over_linked(self, now: float) -> None:
        """Hand each room whose every attachment is a link from one process to it."""
        assert self.relay is not None
        period = self.lease_ms / 3
        for code, (askers, links) in self.relay.links_by_room().items():
            room = self.rooms.get(code)
            if (
                room is None
                or len(askers) != 1
                or links != len(room.attachments)  # some attachment is local (or leaving)
                or now - self._arrived[code] < period  # just arrived: no ping-pong
                or self.attaching[code]
                or self.relay.attaching(code)
            ):
                continue
            # Detaching the links first banks the game time in a last save.
            self.relay.close_served(code)
            await self.unload(code, "room_moved", release=True)
            self.relay.hand_to(askers.pop(), code)

    # -- housekeeping ------------------------------------------------------------------
    def _schedule_housekeeping(self) -> None:
        if self.closed:
            return
        self._housekeeping = self.clock.call_at(self.clock.now() + self.lease_ms / 3, self._wake)

    def _wake(self) -> None:
        self.spawn(self._housekeep())

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run background work, kept until done so `settled`/`aclose` can wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    async def _housekeep(self) -> None:
        """Renew leases, drop lost and idle rooms, hand relayed ones over, check links."""
        try:
            codes = sorted(self.rooms)
            if codes:
                lost = await self.store.renew_leases(codes, self.instance_id, self.lease_ms)
                for code in lost:
                    await self.unload(code, "room_moved")
            now = self.clock.now()
            for code, room in list(self.rooms.items()):
                idle_since = room.idle_since
                after: float = self.unload_after_ms
                if room.clock_runs_alone():
                    # Its seat clock runs in wall time: the due sweep brings it back to
                    # act, once the index holds its next wake (else it stays to act here).
                    after = self.days_unload_after_ms
                    if not room.alarm.due.listed():
                        idle_since = None
                if idle_since is not None and now - idle_since >= after:
                    await self.unload(code, "idle")
            if self.relay is not None:
                await self._hand_over_linked(now)
                # Apart, so an owner slow to answer never delays the lease renewals.
                self.spawn(self.relay.sweep())
        except StoreError as exc:  # an outage: the next round tries again
            log.warning("housekeeping: the store failed (%s)", exc)
        finally:
            self._schedule_housekeeping()


def _log_failure(task: asyncio.Task[None]) -> None:
    """Log a background task's failure (a store outage, mostly) instead of losing it."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.warning("background work failed: %r", exc)
