"""Publishing a live room's views: after each saved change, every attachment gets its view
message (built by view_messages.py), a patch where the client takes patches.

What the last publish sent is kept, so unchanged seats go as the very same object (the
frame encoder's packed copy stays good, and patches leave them out). After each publish
the seat holders who are away may be told it is their move (nudges.py); after the one
that shows a match over, whoever makes reviews is told (`RoomState.match_over`).
"""

from __future__ import annotations

import logging
from typing import Any

from server.logs import room_event
from server.rooms.actor import view_messages
from server.rooms.actor.nudges import Nudges
from server.rooms.actor.state import RoomState, deliver

log = logging.getLogger(__name__)


class Publisher:
    """Sends a room's views to its attachments, and remembers what it sent last."""

    def __init__(self, room: RoomState) -> None:
        self.room = room
        self.publishes = 0  # publishes sent (an attachment's `published` counts these)
        self._seats: list[dict[str, Any]] = []  # the seats the last publish showed
        self._seats_worked: list[dict[str, Any]] | None = None  # presence's, that time
        self._status = room.core.status  # the status the last publish showed
        notifier = room.notifier
        self.nudges = None if notifier is None else Nudges(notifier, room.core.status)

    def publish(self) -> None:
        """Send every attachment its view message (with its ack, if it moved)."""
        room = self.room
        core = room.core
        if core.status != self._status:  # a publish follows a save: the change is kept
            self._status = core.status
            self._log_status()
        events, core.events = core.events, []
        now = room.clock.now()
        # Unchanged seats (the usual case) go as the previous publish's very object: the
        # encoder's packed copy stays good, and patch messages leave them out. Presence
        # hands back its own list again while nothing it shows changed; a list it worked
        # out anew is compared once with the one last sent.
        worked = room.presence.public_seats(core, room.attachments, now)
        seats_kept = worked is self._seats_worked
        if not seats_kept:
            self._seats_worked = worked
            seats_kept = worked == self._seats
            if not seats_kept:
                self._seats = worked
        seats = self._seats
        facts = view_messages.room_facts(room.code, core, now, room.clock_t(now))
        # A patch is a change to the previous publish's view: only for those sent it.
        last, self.publishes = self.publishes, self.publishes + 1
        # Plain loops: zip(strict=True) is a generic call in compiled code, at every move.
        attachments = list(room.attachments)
        takes: list[bool] = []
        held: list[tuple[int, ...]] = []
        patched: list[tuple[int, ...]] = []
        for a in attachments:
            patch = a.patches and a.published == last
            takes.append(patch)
            (patched if patch else held).append(a.seats)
        whole, patches = view_messages.messages(
            core, held, patched, seats, facts, events, seats_kept
        )
        core.view_moves = []
        acks = room.acks
        for i, att in enumerate(attachments):
            ack = acks.get(att)
            message = patches.get(att.seats) if takes[i] else None
            if message is None:
                message = whole[att.seats]
            att.published = self.publishes
            deliver(att, message if ack is None else {**message, "ack": ack})
        if self.nudges is not None:
            self.nudges.after_publish(room.code, core, seats)

    def _log_status(self) -> None:
        """The log line for a match that started or ended (with this publish's save)."""
        core = self.room.core
        code = self.room.code
        if core.status == "playing":
            room_event(log, code, "started", "room %s: match %d started", code, core.match)
        elif core.status == "over":
            room_event(log, code, "over", "room %s: match %d over", code, core.match)
            if self.room.match_over is not None:
                self.room.match_over(code, core.match)
