"""Hints at a live room's table: a seat asks what the Hard CPU would play from its view.

The answer goes to the asking attachment only: {"t": "hint", "seat", "move", "why"}
(server/bots/advice.py works it out from that seat's view alone, with a seed from the
match's seed, the seat and the match's step, so a review of the match file finds the
same advice). Each seat's count of hints this match is public (the room facts); asking
again at the same step counts once. Asking changes nothing else: no version, no view,
no save of its own; a hint that counts makes the room's next save whole (a journal
record replays moves only), so the count is kept with it. The host turns hints on or off
in the lobby.
"""

from __future__ import annotations

from typing import Any

from server.bots.advice import advise, hint_seed
from server.rooms.actor.state import Attachment, RoomState
from server.rooms.errors import RoomError


class Hints:
    """A live room's hint requests and the host's hints setting."""

    def __init__(self, room: RoomState) -> None:
        self.room = room
        # Each seat's last counted hint: (match, step). Not saved: after a restart a
        # second hint at the same step counts again, which only over-counts one.
        self._counted: dict[int, tuple[int, int]] = {}

    def ask(self, now: float, att: Attachment, seat: Any) -> dict[str, Any]:
        """The Hard CPU's move for one of the attachment's seats, and why (en, ja).

        Raises RoomError: not_your_seat, hints_off, not_your_decision (no match being
        played, or the seat has nothing to decide now).
        """
        core = self.room.core
        if type(seat) is not int or seat not in att.seats:
            raise RoomError("not_your_seat", f"this connection does not hold seat {seat}")
        if not core.settings.hints:
            raise RoomError("hints_off", "the host turned hints off in this room")
        if core.status != "playing":
            raise RoomError("not_your_decision", "no match is being played")
        step = core.step()
        seed = hint_seed(core.seed_of_match(), seat, step)
        advice = advise(core.game, core.state, seat, seed)
        if advice is None:
            raise RoomError("not_your_decision", "you have nothing to decide now")
        if self._counted.get(seat) != (core.match, step):
            self._counted[seat] = (core.match, step)
            core.hints_used[seat] += 1
            self.room.journal.full_wanted = True
        return {"t": "hint", "seat": seat, "move": advice.action, "why": advice.why}

    def set(self, now: float, token_hash: str, on: bool) -> None:
        """The host turns hints on or off, in the lobby (before the first match)."""
        room = self.room
        core = room.core
        if core.seat_of(token_hash) != core.settings.host:
            raise RoomError("not_host", "only the host can change the room's settings")
        if core.status != "lobby":
            raise RoomError("already_started", "settings change only in the waiting room")
        if core.settings.hints != on:
            core.settings.hints = on
            room.dirty = room.announce = room.listing = True
