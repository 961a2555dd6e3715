"""An attachment: one client's link to a room, and the delivery of the room's messages
to it. The room (room.py) makes one per attach and calls its listener; the client side
(the websocket endpoint, a relay) calls its methods, which queue inputs in the room.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from server.rooms.actor.room import Room

__all__ = ["Attachment", "Listener", "deliver"]

Listener = Callable[[dict[str, Any]], None]
log = logging.getLogger(__name__)


class Attachment:
    """One client's link to a room, holding zero (spectator), one or two seats."""

    def __init__(
        self, room: Room, seats: tuple[int, ...], listener: Listener, patches: bool = False
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
