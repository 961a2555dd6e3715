"""What a live room's parts share: its state (`RoomState`), and the attachments, one client's
link to the room each, with the delivery of the room's messages to them.

The room actor (room.py) is a `RoomState`; its parts (seat_desk.py, play.py, clients.py,
saving.py, publishing.py, alarm.py) each hold it and read and mark what they change
here. Attachments see it too: the client side (the websocket endpoint, a relay) calls an
attachment's methods, which queue inputs in the room through `call` and `post`. Nothing
here imports the room, so the room and its parts import this, never the other way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from server.rooms.actor.clock import Clock
from server.rooms.actor.core import RoomCore
from server.rooms.actor.inbox import Inbox
from server.rooms.actor.journal import Journal, Step
from server.rooms.actor.nudges import Notifier
from server.rooms.actor.presence import Presence
from server.rooms.errors import RoomError
from server.rooms.seats import talk
from server.store.store import Store

__all__ = ["Attachment", "Input", "Listener", "RoomState", "deliver"]

Listener = Callable[[dict[str, Any]], None]
# An input: its kind, its arguments, and the future of whoever waits for its answer.
Input = tuple[str, tuple[Any, ...], "asyncio.Future[Any] | None"]
log = logging.getLogger(__name__)


class RoomState:
    """A live room's state, shared by the actor and its parts, and its way in (`call`,
    `post`).

    The flags say what the input being handled changed: `dirty` (to be saved),
    `announce` (views to be sent), `listing` (the public list to be updated). `core` is
    replaced when a failed save rolls the room back: parts read it here each time.
    """

    def __init__(
        self, code: str, core: RoomCore, deps: dict[str, Any], wake: Callable[[], None]
    ) -> None:
        self.code = code
        self.core = core
        self.store: Store = deps["store"]
        self.clock: Clock = deps["clock"]
        self.on_lost: Callable[[RoomState], None] = deps["on_lost"]
        self.wall: Callable[[], float] = deps.get("wall", time.time)
        # Who tells away seat holders it is their move (nudges.py); None: nobody.
        self.notifier: Notifier | None = deps.get("notifier")
        # Told (code, match number) when a match ends here (the archive queues its
        # review: server/rooms/history/review_queue.py); None: nobody. Never raises.
        self.match_over: Callable[[str, int], None] | None = deps.get("match_over")
        self.attachments: list[Attachment] = []
        self.queue: Inbox[Input] = Inbox(wake)
        self.loop: asyncio.AbstractEventLoop | None = None  # set by the actor's start()
        self.dead = False  # taken over or stopped: inputs are refused
        self.idle_since: float | None = self.clock.now()
        self.moves = 0
        self.saves = 0
        self.save_seconds = 0.0
        self.presence = Presence()
        self.dirty = False
        self.announce = False
        self.listing = False
        self.retry_at: float | None = None  # a wake-up after a failed save
        # What the store holds of the room, and the move its next save records.
        self.journal = Journal()
        self.moved: Step | None = None
        # The last chat messages, as the store keeps them; a reaction or message to send.
        self.chat: deque[dict[str, Any]] = deque(maxlen=talk.HISTORY)
        self.said: dict[str, Any] | None = None
        # Acks of the moves applied by the input being handled, delivered with its views.
        self.acks: dict[Attachment, dict[str, int]] = {}

    def call(self, kind: str, *args: Any) -> asyncio.Future[Any]:
        """Queue an input now; the future gets its answer (RoomError on refusal).

        Queued at once, not when awaited: inputs keep the order of the calls, and a
        caller may take the answer from a done-callback instead of awaiting it.
        """
        future: asyncio.Future[Any] = (self.loop or asyncio.get_running_loop()).create_future()
        if self.dead:
            future.set_exception(
                RoomError("room_moved", "this room is no longer run here; reconnect")
            )
        else:
            self.queue.put((kind, args, future))
        return future

    def post(self, kind: str, *args: Any) -> None:
        """Queue an input nobody waits for."""
        if not self.dead:
            self.queue.put((kind, args, None))

    def clock_t(self, now: float) -> float:
        """The time the seat clocks count at `now` (turns.py): Unix ms for a days clock,
        game ms for a live one."""
        rules = self.core.clock_rules
        if rules is not None and rules.wall:
            return self.wall() * 1000.0
        return float(self.core.now(now))

    def clock_runs_alone(self) -> bool:
        """Whether a seat clock of this room runs in wall time (a days room's match):
        such a room must act with nobody at its table, so its next wake is kept in the
        due index (due_mark.py) for a sweep to load it when no process runs it."""
        core = self.core
        return core.banks is not None and core.status == "playing" and core.banks.rules.wall

    def summary(self) -> dict[str, Any]:
        """Public facts about the room (see `core.summary_of`), plus the code."""
        return {"code": self.code, **self.core.summary()}


class Attachment:
    """One client's link to a room, holding zero (spectator), one or two seats."""

    def __init__(
        self, room: RoomState, seats: tuple[int, ...], listener: Listener, patches: bool = False
    ) -> None:
        self.room = room
        self.code = room.code
        self.seats = seats
        self.listener = listener
        # Whether the client takes view patches (see view_messages), and the number of
        # the room's publish it was last sent (-1: none yet, so a whole view is next).
        self.patches = patches and len(seats) < 2
        self.published = -1
        self.is_visible = True
        self.shown_version = 0
        self.detached = False
        # The room's chat as of the attach, for the welcome frame (see take_history).
        self.history: list[dict[str, Any]] = []

    # Typed Any: the room checks what a client sent (a compiled build checks annotations
    # on entry, and would refuse a malformed move with a TypeError instead).
    def move(self, seat: Any, seq: Any, action: Any) -> asyncio.Future[dict[str, Any]]:
        """Make a move for one of this attachment's seats; the future is done once it is
        saved (inputs are queued at once, so a client's frames keep their order).

        Result: {"ok": True, "seq", "version", "events"}. The view message the move
        caused reaches this attachment's listener before the call returns and carries
        "ack": {"seat", "seq", "version"} (of moves of one attachment saved together, the
        last one's; the others are answered by the ack frame). A repeated `seq` returns
        the first answer without applying again (and causes no view). Raises RoomError
        (not_your_seat, illegal_action, stale_seq, paused, not_started, match_over, ...).
        """
        return self.room.call("move", self, seat, seq, action)

    def last_seqs(self) -> dict[int, int]:
        """Each held seat's last accepted move number (a reconnecting client continues after)."""
        seqs = self.room.core.seqs
        return {seat: seqs[seat][0] for seat in self.seats if seat in seqs}

    def shown(self, version: int | None = None) -> None:
        """The client has displayed the view of `version` (default: the latest sent)."""
        self.room.post("shown", self, version)

    def talk(self, frame: dict[str, Any]) -> asyncio.Future[None]:
        """A table-talk frame: "chat" {text, seat?}, "react" {reaction, seat?}, or the
        host's "mute" {muted, seat | spectators} and "deal_text" {allowed}. Returns once
        it is said (a chat message saved) or set; raises RoomError (muted, chat_off,
        bad_chat, not_host, not_your_seat, bad_seat, bad_request, store_error)."""
        return self.room.call("talk", self, frame)

    def review(self, frame: dict[str, Any]) -> asyncio.Future[None]:
        """A review-together frame: "review_open" {match}, "review_step" {step} (the
        leader's) or "review_close" (review_session.py); raises RoomError
        (not_your_seat, match_not_found, not_leader, no_review, bad_request)."""
        return self.room.call("review", self, frame)

    def take_history(self) -> list[dict[str, Any]]:
        """The chat messages said before this attachment was made, oldest first, once
        (later ones reach the listener as "chat" messages)."""
        history, self.history = self.history, []
        return history

    def visible(self, visible: bool) -> None:
        """The client's board became visible or hidden (hidden tab): the clock may stop."""
        self.room.post("visible", self, bool(visible))

    def pause(self) -> asyncio.Future[None]:
        """Pause the game clock (RULINGS U11: the sole human device, or else the host)."""
        return self.room.call("pause", self, True)

    def resume(self) -> asyncio.Future[None]:
        """Resume; the clock restarts once the board is shown again."""
        return self.room.call("pause", self, False)

    def hint(self, seat: Any) -> asyncio.Future[dict[str, Any]]:
        """The Hard CPU's move for one of this attachment's seats, for it alone:
        {"t": "hint", "seat", "move", "why"}. Raises RoomError (not_your_seat,
        hints_off, not_your_decision); see hints.py."""
        return self.room.call("hint", self, seat)

    def vacation(self, seat: int, on: bool) -> asyncio.Future[None]:
        """Start or end a held seat's vacation (days clocks: its clock stops)."""
        return self.room.call("vacation", self, seat, on)

    def detach(self) -> None:
        """Disconnect; the listener gets nothing more. Safe to call twice."""
        if not self.detached:
            self.detached = True
            self.room.post("detach", self)


def deliver(att: Attachment, message: dict[str, Any]) -> None:
    """Call a listener; a failing listener is detached, not allowed to stop the room."""
    try:
        att.listener(message)
    except Exception:
        log.exception("listener of room %s failed; detaching it", att.code)
        att.detach()
