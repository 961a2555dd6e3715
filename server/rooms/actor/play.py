"""What players do at the table of a live room: moves, pause and resume, table talk.

A move is checked against the attachment's seats and applied by the core; its step goes
in the journal and its ack goes out with the views it caused. Table talk (seats/talk.py
has the rules) goes through the same queue: a chat message is saved to the store's chat
list (no version, no view) and then sent to every attachment as a "chat" message; a
reaction is only sent; the host's mute and deal_text settings are room changes like a
pause.
"""

from __future__ import annotations

from typing import Any

from server.rooms.actor import seat_admin
from server.rooms.actor.state import Attachment, RoomState, deliver
from server.rooms.errors import RoomError
from server.rooms.seats import talk


class Play:
    """A room's inputs from the table: each checks, changes the room and marks it."""

    def __init__(self, room: RoomState) -> None:
        self.room = room

    def move(self, now: float, att: Attachment, seat: Any, seq: Any, action: Any) -> Any:
        """A move for one of the attachment's seats (see `Attachment.move`)."""
        if not isinstance(seq, int) or not isinstance(action, dict):
            raise RoomError("bad_request", "a move needs an integer seq and an action map")
        if seat not in att.seats:
            raise RoomError("not_your_seat", f"this connection does not hold seat {seat}")
        room = self.room
        core = room.core
        att.shown_version = max(att.shown_version, core.version)
        if core.seats[seat].covered and core.status == "playing":
            # The human is back: their move, not the CPU's planned one, is played.
            seat_admin.take_back(core, core.seats[seat].token_hash, now)
            room.dirty = room.announce = True
        result, applied = core.move(seat, seq, action, now)
        if applied:
            room.moved = [now, seat, seq, action]
            room.moves += 1
            core.last_move = room.wall()
            room.dirty = room.announce = True
            room.acks[att] = {"seat": seat, "seq": seq, "version": result["version"]}
        return result

    def pause(self, now: float, att: Attachment, paused: bool) -> None:
        """Pause or resume game time (RULINGS U11: the sole human device, or the host)."""
        room = self.room
        core = room.core
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
            room.dirty = room.announce = True

    def talk(self, now: float, att: Attachment, frame: dict[str, Any]) -> None:
        """A table-talk frame (see `Attachment.talk`): what is said waits in `said` for
        the batch's end (`speak`); the host's settings change the room."""
        room = self.room
        core, kind = room.core, frame["t"]
        if kind in ("mute", "deal_text"):
            if core.settings.host not in att.seats:
                raise RoomError("not_host", "only the host moderates the table talk")
            settings = core.settings
            if talk.moderate(core.talk, settings.game_id, core.seats, settings.host, frame):
                room.dirty = room.announce = True
            return
        seat = talk.speaker(att.seats, frame)
        if kind == "react":
            reaction = talk.check_reaction(frame.get("reaction"))
            if seat is None:
                raise RoomError("not_your_seat", "spectators have no seat to react from")
            talk.check_voice(core.talk, core.seats, seat)
            room.said = {"t": "react", "seat": seat, "reaction": reaction}
            return
        talk.check_voice(core.talk, core.seats, seat)
        if not talk.text_open(core.settings.game_id, core.status, core.talk):
            raise RoomError(
                "chat_off", "this game has no table talk during a deal (reactions stay)"
            )
        text = talk.clean_text(frame.get("text"))
        name = core.seats[seat].name if seat is not None else ""
        at = int(room.wall() * 1000)
        room.said = {"t": "chat", "seat": seat, "name": name, "text": text, "at": at}

    async def speak(self, said: dict[str, Any]) -> None:
        """Send a reaction, or save a chat message and then send it, to every attachment."""
        room = self.room
        if said["t"] == "chat":
            entry = {key: value for key, value in said.items() if key != "t"}
            try:
                await room.store.add_chat(room.code, entry, talk.HISTORY)
            except Exception as exc:
                raise RoomError("store_error", f"could not save the message: {exc}") from None
            room.chat.append(entry)
        for att in list(room.attachments):
            deliver(att, said)
