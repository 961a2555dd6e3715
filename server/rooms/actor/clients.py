"""Who is connected to a live room, and what follows: attachments made and dropped, boards
shown or hidden, and presence worked out again after every input (away seats, CPU cover,
the shown gate, whether game time runs: presence.py's rules).
"""

from __future__ import annotations

import logging

from server.logs import room_event
from server.rooms.actor.review_session import ReviewSession
from server.rooms.actor.state import Attachment, Listener, RoomState, deliver
from server.rooms.errors import RoomError

log = logging.getLogger(__name__)


class Clients:
    """A room's attachments and presence: the inputs that change them."""

    def __init__(self, room: RoomState, review: ReviewSession) -> None:
        self.room = room
        self.review = review  # told of connections made and gone

    def attach(
        self, now: float, token_hashes: list[str], listener: Listener, patches: bool = False
    ) -> Attachment:
        """A new attachment holding the seats of `token_hashes` (none: a spectator)."""
        room = self.room
        core = room.core
        if not token_hashes and not core.settings.spectators:
            raise RoomError("no_spectators", "the host does not allow spectators in this room")
        seats = []
        for token_hash in token_hashes:
            seat = core.seat_of(token_hash)
            if seat is None:
                raise RoomError("bad_token", "that seat token does not belong to this room")
            if seat in seats:
                raise RoomError("bad_token", "the same seat's token twice: send each one once")
            seats.append(seat)
        att = Attachment(room, tuple(sorted(seats)), listener, patches)
        att.history = list(room.chat)
        room.attachments.append(att)
        room.presence.clients_changed()
        room.idle_since = None
        room.announce = True
        self.review.joined(att)
        return att

    def detach(self, now: float, att: Attachment) -> None:
        """The client went away."""
        room = self.room
        if att in room.attachments:
            room.attachments.remove(att)
            room.presence.clients_changed()
            room.announce = True
            self.review.left(att)
        if not room.attachments:
            room.idle_since = now

    def visible(self, now: float, att: Attachment, visible: bool) -> None:
        """The client's board was shown or hidden."""
        if att.is_visible != visible:
            att.is_visible = visible
            self.room.presence.clients_changed()
            self.room.announce = True

    def shown(self, now: float, att: Attachment, version: int | None) -> None:
        """The client has drawn the view of `version` (None: the latest)."""
        att.shown_version = max(att.shown_version, version or self.room.core.version)

    def revoke(self, seat: int, reason: str) -> None:
        """Close every attachment holding `seat`: its token no longer holds it."""
        room = self.room
        message = {"t": "closed", "code": reason, "message": "this seat's token no longer works"}
        for att in [a for a in room.attachments if seat in a.seats]:
            room.attachments.remove(att)
            room.presence.clients_changed()
            att.detached = True
            deliver(att, message)
            self.review.left(att)
        if not room.attachments and room.idle_since is None:
            room.idle_since = room.clock.now()

    def update(self, now: float) -> None:
        """Recompute who is away, CPU cover, the shown gate, and whether game time runs."""
        room = self.room
        core = room.core
        running = core.run_since is not None
        changed, stopped = room.presence.update(core, room.attachments, now, room.dirty)
        if running != (core.run_since is not None):
            room.journal.steps.append([now, not running])
        if changed:
            room.dirty = room.announce = True
            covered = room.presence.covered
            while covered:
                seat = covered.pop()
                room_event(
                    log,
                    room.code,
                    "covered",
                    "room %s: a CPU covers seat %d (away too long)",
                    room.code,
                    seat,
                    seat=seat,
                )
        if stopped:
            room.dirty = True  # bank the game time in the save
