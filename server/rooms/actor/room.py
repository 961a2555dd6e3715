"""The room actor: one per live room, handling its inputs a batch at a time.

Inputs (joins, attachments, moves, "shown" reports, visibility, pause, table talk, hints,
timer ticks) go through the room's queue in arrival order. After an input that changed the
room, the actor bumps the version, saves (awaiting the store), and only then calls each
attachment's listener with its fresh view. A save made only by moves and due timers is
a journal record (journal.py), every other one the whole room. Moves and "shown" reports
that queued while a save was awaited are applied together, in order, under one save and
one view each.

The actor is the room's state (`RoomState`, state.py) and the order of things; each job
is a part it holds: the table's inputs (play.py), seat administration (seat_admin.py),
attachments and presence (clients.py), saving (saving.py), publishing views
(publishing.py), whose move it is and the seat clocks (turns.py), hints (hints.py), the
shared review of a finished match (review_session.py), and its wake-up timer (alarm.py);
what each input is told after its batch is answers.py's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from server.rooms.actor import journal
from server.rooms.actor.alarm import Alarm
from server.rooms.actor.answers import Answers, answer, failure_of
from server.rooms.actor.clients import Clients
from server.rooms.actor.core import RoomCore, RoomSettings, summary_of
from server.rooms.actor.hints import Hints
from server.rooms.actor.play import Play
from server.rooms.actor.publishing import Publisher
from server.rooms.actor.review_session import ReviewSession
from server.rooms.actor.saving import Saver, Saving
from server.rooms.actor.seat_admin import SeatAdmin
from server.rooms.actor.state import Input, RoomState, deliver
from server.rooms.actor.turns import Turns
from server.rooms.errors import RoomError
from server.rooms.seats.seat import Seat
from server.store import codec
from server.store.store import StoredRoom, StoreError

__all__ = ["Room", "RoomSettings", "summary_of_blob"]

# The inputs a room takes together when several wait (see Room._next), and how many at most.
BATCHED = frozenset({"move", "shown"})
BATCH_MOST = 16
log = logging.getLogger(__name__)


class Room(RoomState):
    """A live room: its state, its queue, and the parts that do its jobs."""

    def __init__(self, code: str, core: RoomCore, deps: dict[str, Any]) -> None:
        super().__init__(code, core, deps, self._wake)
        self._busy = False  # a batch is under way, or scheduled (see `_next`)
        self._halted: asyncio.Future[None] | None = None  # set by start(), done at the stop
        # The batch whose save is in flight, and a task finishing one (see `_handle`).
        self._in_flight: tuple[list[Input], Answers, Saving] | None = None
        self._finishing: asyncio.Task[None] | None = None
        # The parts, made once: a move calls them directly, never looks them up.
        self.play = Play(self)
        self.review = ReviewSession(self)
        self.clients = Clients(self, self.review)
        self.seat_admin = SeatAdmin(self, self.clients)
        self.saver = Saver(self)
        self.publisher = Publisher(self)
        self.turns = Turns(self)
        self.alarm = Alarm(self, self.turns)
        self.hints = Hints(self)
        # The other inputs, by kind ("move" and "tick" are handled in `_apply` itself).
        admin, clients = self.seat_admin, self.clients
        self._inputs: dict[str, Callable[..., Any]] = {
            "shown": clients.shown,
            "attach": clients.attach,
            "detach": clients.detach,
            "visible": clients.visible,
            "pause": self.play.pause,
            "vacation": self.turns.vacation,
            "talk": self.play.talk,
            "hint": self.hints.ask,
            "set_hints": self.hints.set,
            "review": self.review.handle,
            "take_seat": admin.take_seat,
            "start": admin.start,
            "leave": admin.leave,
            "take_back": admin.take_back,
            "rename": admin.rename,
            "reissue": admin.reissue,
            "hand_to_cpu": admin.hand_to_cpu,
            "set_cpu_pace": admin.set_cpu_pace,
        }

    # -- construction -----------------------------------------------------------------
    @classmethod
    def create(
        cls, code: str, settings: RoomSettings, seats: list[Seat], deps: dict[str, Any]
    ) -> Room:
        """A new room in the lobby (version 1, not yet stored)."""
        room = cls(code, RoomCore(settings, seats, deps["game"], deps["policy"]), deps)
        room.core.created = room.core.last_move = room.wall()
        room.presence.all_away(room.core, room.clock.now())
        room.journal.saved_blob = room.blob()
        return room

    @classmethod
    def from_stored(cls, stored: StoredRoom, deps: dict[str, Any]) -> Room:
        """A room loaded from its last save; its clock waits for its humans."""
        deltas, game, policy = stored.deltas, deps["game"], deps["policy"]
        core = journal.restore(stored.blob, deltas, stored.version, game, policy)
        room = cls(stored.code, core, deps)
        room.presence.all_away(core, room.clock.now())
        room.turns.loaded()
        room.journal = journal.Journal(stored.blob, list(stored.deltas))
        return room

    def blob(self) -> bytes:
        """The room as the store keeps it whole (see `journal.Journal.whole`)."""
        return self.journal.whole(self.core, self.clock.now())

    # -- the queue ----------------------------------------------------------------------
    def start(self) -> None:
        """Start handling inputs: those queued already, then each as it comes."""
        self.loop = loop = asyncio.get_running_loop()
        self._halted = loop.create_future()
        if self.queue.peek() is not None:
            self._wake()

    async def settled(self) -> None:
        """Wait until every queued input has been handled."""
        await self.queue.join()

    async def stop(self, reason: str) -> None:
        """Handle what is queued and stop handling inputs; `tell_stopped` then tells
        every attachment (the caller gives up the lease first)."""
        halted = self._halted
        if halted is not None and not halted.done():
            self.queue.put(("stop", (), None))
            await halted
        self.dead = True
        # Inputs queued behind the stop marker are refused, not left waiting forever.
        code = "server_shutdown" if reason == "server_shutdown" else "room_moved"
        while (queued := self.queue.take()) is not None:
            *_, future = queued
            self.queue.done()
            if future is not None and not future.done():
                future.set_exception(RoomError(code, "the room stopped on this server; reconnect"))
        self.alarm.cancel()

    def halt(self) -> None:
        """Stop at once, whatever is under way (a shutdown that waited for the store long
        enough): inputs are refused from now on, no wake-up is set."""
        self.dead = True
        self.alarm.cancel()

    def tell_stopped(self, reason: str) -> None:
        """Tell every attachment the room stopped here, and why ({"t": "closed"})."""
        message = {"t": "closed", "code": reason, "message": "the room stopped on this server"}
        for att in self.attachments:
            deliver(att, message)
        self.attachments.clear()

    # -- handling inputs: a batch at a time, in callbacks -----------------------------
    # No task per room: a put schedules `_next` unless a batch is under way, and a
    # batch's save answers in a callback (`_saved`) that goes on to the next batch. The
    # rare batch that needs more of the store than its save finishes in a task
    # (`_finish`). Either way one batch is handled at a time, in the order queued.
    def _wake(self) -> None:
        """An input was queued: handle it soon, unless a batch is under way."""
        if not self._busy and self.loop is not None:
            self._busy = True
            self.loop.call_soon(self._next)

    def _next(self) -> None:
        """Handle queued batches until one waits for the store or nothing is left."""
        queue = self.queue
        while True:
            first = queue.take()
            if first is None:
                self._busy = False
                return
            if first[0] == "stop":
                queue.done()
                halted = self._halted
                if halted is not None and not halted.done():
                    halted.set_result(None)
                return  # still busy: nothing is handled after the stop
            batch = [first]
            if first[0] in BATCHED:
                # Moves that queued while the last input was being saved are applied one
                # by one, then saved and shown once: under load, one save and one view per
                # attachment stand for several moves, and no move waits a save longer.
                while (
                    len(batch) < BATCH_MOST
                    and (queued := queue.peek()) is not None
                    and queued[0] in BATCHED
                ):
                    batch.append(queued)
                    queue.take()
            try:
                finished = self._handle(batch)
            except Exception:  # a bug must not stop the room
                log.exception("room %s failed on %s", self.code, first[0])
                answer(batch, [], RoomError("internal", "internal error"))
                finished = True
            if not finished:
                return
            self._done(batch)

    def _handle(self, batch: list[Input]) -> bool:
        """Apply a batch of inputs in order; then save and publish once, answer each.

        True when the batch is done; False when its save (`_saved`), or a task for a
        batch that needs more of the store (`_finish`), goes on with it.
        """
        answers: Answers = []
        if self.dead:
            failure = RoomError("room_moved", "this room is no longer run here; reconnect")
            answer(batch, answers, failure)
            return True
        for kind, args, _ in batch:
            answers.append(self._apply(kind, args))
        if self.listing or self.said is not None or self.core.trim_wanted:
            assert self.loop is not None
            self._finishing = self.loop.create_task(self._finish(batch, answers))
            return False
        if self.dirty:
            try:
                saving = self.saver.begin()
            except Exception as exc:
                self._conclude(batch, answers, None, exc)
                return True
            self._in_flight = (batch, answers, saving)
            saving.future.add_done_callback(self._saved)
            return False
        self._conclude(batch, answers, None, None)
        return True

    def _saved(self, future: asyncio.Future[None]) -> None:
        """The store answered the batch's save: finish the batch, go on to the next."""
        assert self._in_flight is not None
        batch, answers, saving = self._in_flight
        self._in_flight = None
        error = StoreError("the save was cancelled") if future.cancelled() else future.exception()
        self._conclude(batch, answers, saving, error)
        self._done(batch)
        self._next()

    def _conclude(
        self,
        batch: list[Input],
        answers: Answers,
        saving: Saving | None,
        error: BaseException | None,
    ) -> None:
        """A batch after its save (`saving`, failed with `error`), or without one:
        publish what changed, set the wake-up, answer each input."""
        failure: RoomError | None = None
        try:
            try:
                if saving is not None:
                    self.saver.landed(saving, error)
                elif error is not None:
                    raise error  # the save could not even start (a bug)
                if saving is not None or self.announce:
                    self.announce = False
                    self.publisher.publish()
            finally:
                self.acks.clear()  # a failed save acknowledges nothing
                # Even after a failed save: a room waiting on a CPU or a rule timer must
                # wake again by itself (nothing else would move it).
                self.alarm.schedule()
        except Exception as exc:
            failure = failure_of(self.code, batch, exc)
        answer(batch, answers, failure)

    async def _finish(self, batch: list[Input], answers: Answers) -> None:
        """A batch that needs more of the store than its save, then the next batches."""
        failure: RoomError | None = None
        try:
            try:
                if self.dirty or self.announce:
                    await self.saver.commit()
                    self.announce = False
                    self.publisher.publish()
            finally:
                self.acks.clear()
                self.alarm.schedule()
            if self.said is not None:
                said, self.said = self.said, None
                await self.play.speak(said)
        except Exception as exc:
            failure = failure_of(self.code, batch, exc)
        answer(batch, answers, failure)
        self._finishing = None
        self._done(batch)
        self._next()

    def _done(self, batch: list[Input]) -> None:
        """Every input of a batch is handled (for `settled`)."""
        for _ in batch:
            self.queue.done()

    def _apply(self, kind: str, args: tuple[Any, ...]) -> tuple[Any, RoomError | None]:
        """Handle one input (its result, or its refusal); the save comes after the batch."""
        now = self.clock.now()
        fired = self.core.fire_due(now)
        if fired:
            self.dirty = True
        if self.core.banks is not None:
            self.turns.fire(now)
        if kind not in journal.JOURNALED:
            self.journal.full_wanted = True
        try:
            if kind == "move":  # most inputs: called directly, not looked up by kind
                return self.play.move(now, args[0], args[1], args[2], args[3]), None
            if kind == "tick":  # the alarm rang: due timers fired above, presence below
                return None, None
            return self._inputs[kind](now, *args), None
        except RoomError as exc:
            return None, exc
        except Exception:  # a bug in one input refuses it; the room goes on
            log.exception("room %s failed on %s", self.code, kind)
            self.journal.full_wanted = True  # whatever it changed, no record replays it
            return None, RoomError("internal", "internal error")
        finally:
            if self.moved is not None:
                self.journal.steps.append(self.moved)
                self.moved = None
            elif fired:
                self.journal.steps.append([now])
            self.clients.update(now)
            if self.core.banks is not None:
                self.turns.sync(now)


def summary_of_blob(blob: bytes, version: int) -> dict[str, Any]:
    """The public summary of a stored room, without loading it."""
    data = codec.unpack(blob)
    return summary_of(
        data["settings"], data["seats"], data["status"], version, data.get("match", 1)
    )
