"""The room actor: one per live room, handling its inputs a batch at a time.

Inputs (joins, attachments, moves, "shown" reports, visibility, pause, timer ticks) go
through the room's queue in arrival order. After an input that changed the room, the
actor bumps the version, saves (awaiting the store), and only then calls each
attachment's listener with its fresh view. A save made only by moves and due timers is
a journal record (journal.py), every other one the whole room. Moves and "shown" reports
that queued while a save was awaited are applied together, in order, under one save and
one view each.
Who is at the table, CPU cover and whether game time runs are presence.py's.

Table talk (seats/talk.py) goes through the same queue: a chat message is saved to the store's
chat list (no version, no view) and then sent to every attachment as a "chat" message; a
reaction is only sent; the host's mute and deal_text settings are room changes like a
pause.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from server.rooms.actor import journal, seat_admin, view_messages
from server.rooms.actor.attachment import Attachment, Listener, deliver
from server.rooms.actor.clock import Clock, TimerHandle
from server.rooms.actor.core import RoomCore, RoomSettings, summary_of
from server.rooms.actor.inbox import Inbox
from server.rooms.actor.presence import Presence
from server.rooms.errors import RoomError
from server.rooms.seats import talk
from server.rooms.seats.seat import Seat
from server.store import codec
from server.store.store import StaleVersion, Store, StoredRoom, StoreError

__all__ = ["Room", "RoomSettings", "summary_of_blob"]

Input = tuple[str, tuple[Any, ...], "asyncio.Future[Any] | None"]
# Each input's result, or its refusal.
Answers = list[tuple[Any, RoomError | None]]
# After a failed save (the store is down) the room rolls back and wakes this much later
# to go on (its clock restarts; a CPU move due then is tried again).
SAVE_RETRY_MS = 1000.0
# A timer that fires this close before the room's wake counts as on time (loop timers
# round to the millisecond).
TIMER_SLACK_MS = 1.0
# The inputs a room takes together when several wait (see Room._next), and how many at most.
BATCHED = frozenset({"move", "shown"})
BATCH_MOST = 16
log = logging.getLogger(__name__)


class Room:
    """A live room: its core, its attachments, its queue and its timer."""

    def __init__(self, code: str, core: RoomCore, deps: dict[str, Any]) -> None:
        self.code = code
        self.core = core
        self.store: Store = deps["store"]
        self.clock: Clock = deps["clock"]
        self._on_lost: Callable[[Room], None] = deps["on_lost"]
        self._wall: Callable[[], float] = deps.get("wall", time.time)
        self.attachments: list[Attachment] = []
        self.queue: Inbox[Input] = Inbox(self._wake)
        self._busy = False  # a batch is under way, or scheduled (see `_next`)
        self._halted: asyncio.Future[None] | None = None  # set by start(), done at the stop
        # The batch whose save is in flight, and a task finishing one (see `_handle`).
        self._in_flight: tuple[list[Input], Answers, _Saving] | None = None
        self._finishing: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # set by start()
        self.idle_since: float | None = self.clock.now()
        self.moves = 0
        self.saves = 0
        self.save_seconds = 0.0
        self._timer: TimerHandle | None = None
        self._timer_at = 0.0  # when the timer fires (it may be before `_wake_at`)
        self._wake_at: float | None = None  # when the room next wants to look
        self._retry_at: float | None = None  # a wake-up after a failed save
        self.presence = Presence()
        self._dirty = False
        self._announce = False
        self._listing = False
        self._publishes = 0  # publishes sent (an attachment's `published` counts these)
        self._seats: list[dict[str, Any]] = []  # the seats the last publish showed
        self._seats_worked: list[dict[str, Any]] | None = None  # presence's, that time
        self._dead = False
        # What the store holds of the room, and the steps its next save records.
        self.journal = journal.Journal()
        self._moved: journal.Step | None = None
        # The last chat messages, as the store keeps them; a reaction or message to send.
        self.chat: deque[dict[str, Any]] = deque(maxlen=talk.HISTORY)
        self._said: dict[str, Any] | None = None
        # Acks of the moves applied by the input being handled, delivered with its views.
        self._acks: dict[Attachment, dict[str, int]] = {}

    # -- construction -----------------------------------------------------------------
    @classmethod
    def create(
        cls, code: str, settings: RoomSettings, seats: list[Seat], deps: dict[str, Any]
    ) -> Room:
        """A new room in the lobby (version 1, not yet stored)."""
        room = cls(code, RoomCore(settings, seats, deps["game"], deps["policy"]), deps)
        room.core.created = room.core.last_move = room._wall()
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
        room.journal = journal.Journal(stored.blob, list(stored.deltas))
        return room

    def blob(self) -> bytes:
        """The room as the store keeps it whole (see `journal.Journal.whole`)."""
        return self.journal.whole(self.core, self.clock.now())

    def summary(self) -> dict[str, Any]:
        """Public facts about the room (see `summary_of`), plus the code."""
        return {"code": self.code, **self.core.summary()}

    # -- the queue ----------------------------------------------------------------------
    def start(self) -> None:
        """Start handling inputs: those queued already, then each as it comes."""
        self._loop = loop = asyncio.get_running_loop()
        self._halted = loop.create_future()
        if self.queue.peek() is not None:
            self._wake()

    def call(self, kind: str, *args: Any) -> asyncio.Future[Any]:
        """Queue an input now; the future gets its answer (RoomError on refusal).

        Queued at once, not when awaited: inputs keep the order of the calls, and a
        caller may take the answer from a done-callback instead of awaiting it.
        """
        future: asyncio.Future[Any] = (self._loop or asyncio.get_running_loop()).create_future()
        if self._dead:
            future.set_exception(
                RoomError("room_moved", "this room is no longer run here; reconnect")
            )
        else:
            self.queue.put((kind, args, future))
        return future

    def post(self, kind: str, *args: Any) -> None:
        """Queue an input nobody waits for."""
        if not self._dead:
            self.queue.put((kind, args, None))

    async def settled(self) -> None:
        """Wait until every queued input has been handled."""
        await self.queue.join()

    async def stop(self, reason: str) -> None:
        """Handle what is queued, stop handling inputs, and tell every attachment why."""
        halted = self._halted
        if halted is not None and not halted.done():
            self.queue.put(("stop", (), None))
            await halted
        self._dead = True
        # Inputs queued behind the stop marker are refused, not left waiting forever.
        code = "server_shutdown" if reason == "server_shutdown" else "room_moved"
        while (queued := self.queue.take()) is not None:
            *_, future = queued
            self.queue.done()
            if future is not None and not future.done():
                future.set_exception(RoomError(code, "the room stopped on this server; reconnect"))
        if self._timer is not None:
            self._timer.cancel()
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
        if not self._busy and self._loop is not None:
            self._busy = True
            self._loop.call_soon(self._next)

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
                self._answer(batch, [], RoomError("internal", "internal error"))
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
        if self._dead:
            failure = RoomError("room_moved", "this room is no longer run here; reconnect")
            self._answer(batch, answers, failure)
            return True
        for kind, args, _ in batch:
            answers.append(self._apply(kind, args))
        if self._listing or self._said is not None or self.core.trim_wanted:
            assert self._loop is not None
            self._finishing = self._loop.create_task(self._finish(batch, answers))
            return False
        if self._dirty:
            try:
                saving = self._begin_save()
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
        saving: _Saving | None,
        error: BaseException | None,
    ) -> None:
        """A batch after its save (`saving`, failed with `error`), or without one:
        publish what changed, set the wake-up, answer each input."""
        failure: RoomError | None = None
        try:
            try:
                if saving is not None:
                    self._save_landed(saving, error)
                elif error is not None:
                    raise error  # the save could not even start (a bug)
                if saving is not None or self._announce:
                    self._announce = False
                    self._publish()
            finally:
                self._acks.clear()  # a failed save acknowledges nothing
                # Even after a failed save: a room waiting on a CPU or a rule timer must
                # wake again by itself (nothing else would move it).
                self._schedule()
        except Exception as exc:
            failure = self._failure(batch, exc)
        self._answer(batch, answers, failure)

    async def _finish(self, batch: list[Input], answers: Answers) -> None:
        """A batch that needs more of the store than its save, then the next batches."""
        failure: RoomError | None = None
        try:
            try:
                if self._dirty or self._announce:
                    await self._commit()
            finally:
                self._acks.clear()
                self._schedule()
            if self._said is not None:
                said, self._said = self._said, None
                await self._speak(said)
        except Exception as exc:
            failure = self._failure(batch, exc)
        self._answer(batch, answers, failure)
        self._finishing = None
        self._done(batch)
        self._next()

    def _failure(self, batch: list[Input], exc: Exception) -> RoomError:
        """What a batch's inputs are told when handling it raised `exc` (in an except)."""
        if isinstance(exc, RoomError):
            return exc
        log.exception("room %s failed on %s", self.code, batch[0][0])
        # The detail is in the log; clients learn only that it failed.
        return RoomError("internal", "internal error")

    def _answer(
        self,
        batch: list[Input],
        answers: Answers,
        failure: RoomError | None,
    ) -> None:
        """Answer each input of a batch: a refusal stands; an accepted input fails with
        its batch's save (`failure`)."""
        for index, (_, _, future) in enumerate(batch):
            if future is None or future.done():
                continue
            result, error = answers[index] if index < len(answers) else (None, failure)
            error = error or failure
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

    def _done(self, batch: list[Input]) -> None:
        for _ in batch:
            self.queue.done()

    def _apply(self, kind: str, args: tuple[Any, ...]) -> tuple[Any, RoomError | None]:
        """Handle one input (its result, or its refusal); the save comes after the batch."""
        now = self.clock.now()
        fired = self.core.fire_due(now)
        if fired:
            self._dirty = True
        if kind not in journal.JOURNALED:
            self.journal.full_wanted = True
        try:
            if kind == "move":  # most inputs: called directly, not looked up by name
                return self._on_move(now, args[0], args[1], args[2], args[3]), None
            return getattr(self, "_on_" + kind)(now, *args), None
        except RoomError as exc:
            return None, exc
        except Exception:  # a bug in one input refuses it; the room goes on
            log.exception("room %s failed on %s", self.code, kind)
            self.journal.full_wanted = True  # whatever it changed, no record replays it
            return None, RoomError("internal", "internal error")
        finally:
            if self._moved is not None:
                self.journal.steps.append(self._moved)
                self._moved = None
            elif fired:
                self.journal.steps.append([now])
            self._update_clock(now)

    # -- input handlers (synchronous; they mark what must be saved or announced) --------
    def _on_tick(self, now: float) -> None:
        return None

    def _on_take_seat(self, now: float, seat: int | None, name: str, token_hash: str) -> int:
        taken = self.core.take_seat(seat, name, token_hash)
        self.presence.away_since[taken] = now
        self._dirty = self._announce = self._listing = True
        return taken

    def _on_start(self, now: float, token_hash: str) -> None:
        self.core.start(token_hash, now)
        self._dirty = self._announce = self._listing = True

    def _on_leave(self, now: float, token_hash: str) -> int:
        seat = seat_admin.leave(self.core, token_hash, now)
        self.presence.away_since.pop(seat, None)
        self._revoke(seat, "seat_left")
        self._dirty = self._announce = self._listing = True
        return seat

    def _on_take_back(self, now: float, token_hash: str) -> int:
        seat = seat_admin.take_back(self.core, token_hash, now)
        self._dirty = self._announce = True
        return seat

    def _on_rename(self, now: float, token_hash: str, name: str) -> int:
        seat = seat_admin.rename(self.core, token_hash, name)
        self._dirty = self._announce = self._listing = True
        return seat

    def _on_reissue(self, now: float, host_hash: str, seat: int, token: str) -> str:
        target, token, changed = seat_admin.reissue(self.core, host_hash, seat, token, now)
        if changed:
            self._revoke(target, "seat_reissued")
            self._dirty = self._announce = True
        return token

    def _on_hand_to_cpu(self, now: float, host_hash: str, seat: int) -> int:
        target = seat_admin.hand_to_cpu(self.core, host_hash, seat, now)
        self._dirty = self._announce = True
        return target

    def _revoke(self, seat: int, reason: str) -> None:
        """Close every attachment holding `seat`: its token no longer holds it."""
        message = {"t": "closed", "code": reason, "message": "this seat's token no longer works"}
        for att in [a for a in self.attachments if seat in a.seats]:
            self.attachments.remove(att)
            self.presence.clients_changed()
            att.detached = True
            deliver(att, message)
        if not self.attachments and self.idle_since is None:
            self.idle_since = self.clock.now()

    def _on_attach(
        self, now: float, token_hashes: list[str], listener: Listener, patches: bool = False
    ) -> Attachment:
        if not token_hashes and not self.core.settings.spectators:
            raise RoomError("no_spectators", "the host does not allow spectators in this room")
        seats = []
        for token_hash in token_hashes:
            seat = self.core.seat_of(token_hash)
            if seat is None or seat in seats:
                raise RoomError("bad_token", "that seat token does not belong to this room")
            seats.append(seat)
        att = Attachment(self, tuple(sorted(seats)), listener, patches)
        att.history = list(self.chat)
        self.attachments.append(att)
        self.presence.clients_changed()
        self.idle_since = None
        self._announce = True
        return att

    def _on_detach(self, now: float, att: Attachment) -> None:
        if att in self.attachments:
            self.attachments.remove(att)
            self.presence.clients_changed()
            self._announce = True
        if not self.attachments:
            self.idle_since = now

    def _on_visible(self, now: float, att: Attachment, visible: bool) -> None:
        if att.is_visible != visible:
            att.is_visible = visible
            self.presence.clients_changed()
            self._announce = True

    def _on_shown(self, now: float, att: Attachment, version: int | None) -> None:
        att.shown_version = max(att.shown_version, version or self.core.version)

    def _on_pause(self, now: float, att: Attachment, paused: bool) -> None:
        core = self.core
        if not att.seats:
            raise RoomError("not_your_seat", "spectators cannot pause")
        humans = {i for i, s in enumerate(core.seats) if s.kind == "human"}
        if not humans <= set(att.seats) and core.settings.host not in att.seats:
            raise RoomError("not_host", "with players on several devices only the host pauses")
        if paused and core.status != "playing":
            # A pause outside play would only carry over into the next match.
            code = "match_over" if core.status == "over" else "not_started"
            raise RoomError(code, "there is no match being played to pause")
        if core.paused != paused:
            core.paused = paused
            core.events.append({"type": "paused" if paused else "resumed", "by": att.seats[0]})
            self._dirty = self._announce = True

    def _on_move(self, now: float, att: Attachment, seat: Any, seq: Any, action: Any) -> Any:
        if not isinstance(seq, int) or not isinstance(action, dict):
            raise RoomError("bad_request", "a move needs an integer seq and an action map")
        if seat not in att.seats:
            raise RoomError("not_your_seat", f"this connection does not hold seat {seat}")
        att.shown_version = max(att.shown_version, self.core.version)
        if self.core.seats[seat].covered and self.core.status == "playing":
            # The human is back: their move, not the CPU's planned one, is played.
            seat_admin.take_back(self.core, self.core.seats[seat].token_hash, now)
            self._dirty = self._announce = True
        result, applied = self.core.move(seat, seq, action, now)
        if applied:
            self._moved = [now, seat, seq, action]
            self.moves += 1
            self.core.last_move = self._wall()
            self._dirty = self._announce = True
            self._acks[att] = {"seat": seat, "seq": seq, "version": result["version"]}
        return result

    def _on_talk(self, now: float, att: Attachment, frame: dict[str, Any]) -> None:
        core, kind = self.core, frame["t"]
        if kind in ("mute", "deal_text"):
            if core.settings.host not in att.seats:
                raise RoomError("not_host", "only the host moderates the table talk")
            settings = core.settings
            if talk.moderate(core.talk, settings.game_id, core.seats, settings.host, frame):
                self._dirty = self._announce = True
            return
        seat = talk.speaker(att.seats, frame)
        if kind == "react":
            reaction = talk.check_reaction(frame.get("reaction"))
            if seat is None:
                raise RoomError("not_your_seat", "spectators have no seat to react from")
            talk.check_voice(core.talk, core.seats, seat)
            self._said = {"t": "react", "seat": seat, "reaction": reaction}
            return
        talk.check_voice(core.talk, core.seats, seat)
        if not talk.text_open(core.settings.game_id, core.status, core.talk):
            raise RoomError(
                "chat_off", "this game has no table talk during a deal (reactions stay)"
            )
        text = talk.clean_text(frame.get("text"))
        name = core.seats[seat].name if seat is not None else ""
        at = int(self._wall() * 1000)
        self._said = {"t": "chat", "seat": seat, "name": name, "text": text, "at": at}

    async def _speak(self, said: dict[str, Any]) -> None:
        """Send a reaction, or save a chat message and then send it, to every attachment."""
        if said["t"] == "chat":
            entry = {key: value for key, value in said.items() if key != "t"}
            try:
                await self.store.add_chat(self.code, entry, talk.HISTORY)
            except Exception as exc:
                raise RoomError("store_error", f"could not save the message: {exc}") from None
            self.chat.append(entry)
        for att in list(self.attachments):
            deliver(att, said)

    # -- clock, cover and timers --------------------------------------------------------
    def _update_clock(self, now: float) -> None:
        """Recompute who is away, CPU cover, the shown gate, and whether game time runs."""
        running = self.core.run_since is not None
        changed, stopped = self.presence.update(self.core, self.attachments, now, self._dirty)
        if running != (self.core.run_since is not None):
            self.journal.steps.append([now, not running])
        if changed:
            self._dirty = self._announce = True
        if stopped:
            self._dirty = True  # bank the game time in the save

    def _schedule(self) -> None:
        """Set the one wake-up timer to the earliest thing the room waits for."""
        core = self.core
        wakes = []
        if core.run_since is not None:
            due = core.next_due()
            if due is not None:
                wakes.append(core.run_since + (due - core.game_ms))
        wakes.extend(self.presence.wakes(core))
        if self._retry_at is not None:
            wakes.append(self._retry_at)
        wake: float | None = None
        for at in wakes:  # not min(): a generic call with a tuple in compiled code
            if wake is None or at < wake:
                wake = at
        self._wake_at = wake
        if wake is not None and self._timer is not None and self._timer_at <= wake:
            # Most moves put the next wake later (a rule timer restarts): the timer set
            # for the earlier one stays and, firing early, sets the next (`_tick`). One
            # timer per wake-up instead of a cancel and a new timer at every move.
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if wake is not None:
            self._timer, self._timer_at = self.clock.call_at(wake, self._tick), wake

    def _tick(self) -> None:
        wake, self._timer = self._wake_at, None
        if wake is None:
            return  # nothing to wake for any more (the timer outlived its wake)
        if wake - self.clock.now() > TIMER_SLACK_MS:  # early: the wake moved later
            self._timer, self._timer_at = self.clock.call_at(wake, self._tick), wake
            return
        self._wake_at = None
        self._retry_at = None
        self.post("tick")

    # -- save and publish ---------------------------------------------------------------
    def _begin_save(self) -> _Saving:
        """Bump the version and hand the store the room's save (or its journal record)."""
        core = self.core
        core.version += 1
        # Steps wait for a save: game time starting is not saved by itself.
        blob, full = self.journal.next_save(core, self.clock.now())
        entries, core.log = core.log, []
        for entry in entries:
            if entry["k"] in ("start", "end"):
                entry["at"] = round(self._wall(), 3)  # the history's dates (Unix s)
        started = time.perf_counter()
        future: asyncio.Future[None]
        try:
            # The Redis store gives a future; others (tests, the in-process store) a
            # coroutine, run as a task. (ensure_future is interpreted: not for a future.)
            saving = self.store.save(self.code, core.version, blob, entries, not full)
            future = saving if isinstance(saving, asyncio.Future) else asyncio.ensure_future(saving)
        except Exception as exc:  # refused before it was sent: a failed save all the same
            assert self._loop is not None
            future = self._loop.create_future()
            future.set_exception(exc)
        return _Saving(future, blob, full, started)

    def _save_landed(self, saving: _Saving, error: BaseException | None) -> None:
        """Take the store's answer to a save: the room is saved, or RoomError (taken over,
        or the store failed: rolled back, tried again later)."""
        self.save_seconds += time.perf_counter() - saving.started
        if isinstance(error, StaleVersion):
            self._dead = True
            self._on_lost(self)
            raise RoomError("room_moved", "this room was taken over; reconnect")
        if error is not None:
            # The detail (addresses, errno) is for the log, never for clients.
            log.warning("room %s: save failed (%s); retrying", self.code, error)
            self._rollback()
            self._retry_at = self.clock.now() + SAVE_RETRY_MS
            raise RoomError("store_error", "the room could not be saved; try again")
        self.saves += 1
        self.journal.saved(self.core, saving.blob, saving.full)
        self._dirty = False

    async def _commit(self) -> None:
        """Save if the room changed, then send every attachment its view (a batch that
        needs more of the store than its save: see `_finish`)."""
        if self._dirty:
            saving = self._begin_save()
            try:
                await saving.future
            except Exception as exc:
                self._save_landed(saving, exc)
            else:
                self._save_landed(saving, None)
            if self.core.trim_wanted:
                await self._trim_log()
        if self._listing:
            try:
                await self.publish_listing()
                self._listing = False
            except StoreError as unlisted:  # the room is saved; the listing follows next time
                log.warning("room %s: could not update the public list (%s)", self.code, unlisted)
        self._announce = False
        self._publish()

    async def _trim_log(self) -> None:
        """Keep only the kept matches' entries in the store's log (whole matches, oldest
        dropped). Idempotent, so a trim that fails is simply done at the next match."""
        core = self.core
        try:
            await self.store.trim_log(self.code, sum(core.log_lengths))
            core.trim_wanted = False
        except StoreError as exc:
            log.warning("room %s: could not trim the move log (%s)", self.code, exc)

    def _rollback(self) -> None:
        """Back to the last saved room after a failed save (nothing unsaved is shown)."""
        self.core = self.journal.last_saved(self.core)
        self._dirty = False
        self.presence.could_run = False

    async def publish_listing(self) -> None:
        """List the room publicly while it waits for players; unlist it otherwise."""
        core = self.core
        if not core.settings.public:
            return
        waiting = core.status == "lobby" and any(s.kind == "open" for s in core.seats)
        await self.store.set_public(self.code, self.summary() if waiting else None)

    def _publish(self) -> None:
        """Send every attachment its view message (see server/rooms/actor/view_messages.py)."""
        core = self.core
        events, core.events = core.events, []
        now = self.clock.now()
        # Unchanged seats (the usual case) go as the previous publish's very object: the
        # encoder's packed copy stays good, and patch messages leave them out. Presence
        # hands back its own list again while nothing it shows changed; a list it worked
        # out anew is compared once with the one last sent.
        worked = self.presence.public_seats(core, self.attachments, now)
        seats_kept = worked is self._seats_worked
        if not seats_kept:
            self._seats_worked = worked
            seats_kept = worked == self._seats
            if not seats_kept:
                self._seats = worked
        seats = self._seats
        room = view_messages.room_facts(self.code, core, now)
        # A patch is a change to the previous publish's view: only for those sent it.
        last, self._publishes = self._publishes, self._publishes + 1
        # Plain loops: zip(strict=True) is a generic call in compiled code, at every move.
        attachments = list(self.attachments)
        takes: list[bool] = []
        held: list[tuple[int, ...]] = []
        patched: list[tuple[int, ...]] = []
        for a in attachments:
            patch = a.patches and a.published == last
            takes.append(patch)
            (patched if patch else held).append(a.seats)
        whole, patches = view_messages.messages(
            core, held, patched, seats, room, events, seats_kept
        )
        core.view_moves = []
        for i, att in enumerate(attachments):
            ack = self._acks.get(att)
            message = patches.get(att.seats) if takes[i] else None
            if message is None:
                message = whole[att.seats]
            att.published = self._publishes
            deliver(att, message if ack is None else {**message, "ack": ack})


class _Saving:
    """A save under way: the store's future, what was saved, and since when."""

    __slots__ = ("future", "blob", "full", "started")

    def __init__(self, future: asyncio.Future[None], blob: bytes, full: bool, started: float):
        self.future = future
        self.blob = blob
        self.full = full
        self.started = started


def summary_of_blob(blob: bytes, version: int) -> dict[str, Any]:
    """The public summary of a stored room, without loading it."""
    data = codec.unpack(blob)
    return summary_of(
        data["settings"], data["seats"], data["status"], version, data.get("match", 1)
    )
