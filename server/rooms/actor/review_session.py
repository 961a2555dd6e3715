"""感想戦 together: a live room's shared review of one of its finished matches.

A session is the room's connections reviewing one match at one step. A player opens it
(`review_open` with the match's number) and leads: their `review_step` moves everyone's
review to that step. Whoever else opens it while it is on follows (a spectator too: a
room whose host refuses spectators has none connected). When the leader leaves (closes
the review or the connection goes), the player who joined next leads; once no player is
in it, the session ends. The leader may switch to another finished match (step 0).

Each change goes to every connection of the room as a `review_state` frame (so one not
in it can offer to join): the match, the step, the leading seat, and for that connection
whether it leads and whether it follows. Nothing in it is hidden information: what each
connection sees at a step (its seat's view, the CPU's opinion it may see) it fetches
itself over HTTP (`GET .../matches/{n}/steps` and `.../review`). A session lives in the
running room only: it is not saved, and it costs a move nothing.
"""

from __future__ import annotations

from typing import Any

from server.rooms.actor.state import Attachment, RoomState, deliver
from server.rooms.errors import RoomError

MAX_STEP = 1_000_000  # a step past a match's last one is shown as its last by the clients


class ReviewSession:
    """The room's review session (at most one), and the inputs that change it."""

    def __init__(self, room: RoomState) -> None:
        self.room = room
        self.match: int | None = None  # None: no session
        self.step = 0
        self.members: list[Attachment] = []  # in the order they joined; the leader first

    def handle(self, now: float, att: Attachment, frame: dict[str, Any]) -> None:
        """A client's `review_open`, `review_step` or `review_close` frame (see
        `Attachment.review`); RoomError not_your_seat, match_not_found, not_leader,
        no_review, bad_request."""
        kind = frame["t"]
        if kind == "review_open":
            self.open(att, frame["match"])
        elif kind == "review_step":
            self.move_to(att, frame["step"])
        else:
            self.left(att)

    def open(self, att: Attachment, match: Any) -> None:
        """Open the review of `match` (leading it), join the one on, or (the leader)
        switch it to `match`."""
        leads = bool(self.members) and self.members[0] is att
        if self.match is None or leads:
            if not att.seats:
                raise RoomError("not_your_seat", "only a player of the room opens a review")
            self.match, self.step = self._finished(match), 0
        if att not in self.members:
            self.members.append(att)
        self.tell()

    def move_to(self, att: Attachment, step: Any) -> None:
        """The leader's step."""
        if self.match is None:
            raise RoomError("no_review", "no review is open in this room")
        if not self.members or self.members[0] is not att:
            raise RoomError("not_leader", "only the player leading the review moves it")
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= MAX_STEP:
            raise RoomError("bad_request", f"a review step is from 0 to {MAX_STEP}")
        if step != self.step:
            self.step = step
            self.tell()

    def left(self, att: Attachment) -> None:
        """A member closed the review or went away: the next player leads, or with no
        player left the session ends."""
        if att not in self.members:
            return
        self.members.remove(att)
        while self.members and not self.members[0].seats:
            # A spectator never leads: the first player after them does.
            players = [m for m in self.members if m.seats]
            if not players:
                self.members.clear()
                break
            self.members.remove(players[0])
            self.members.insert(0, players[0])
        if not self.members:
            self.match, self.step = None, 0
        self.tell()

    def joined(self, att: Attachment) -> None:
        """A new connection learns of the session on (if one is)."""
        if self.match is not None:
            deliver(att, self.state_for(att))

    def state_for(self, att: Attachment) -> dict[str, Any]:
        """The `review_state` frame for one connection."""
        if self.match is None:
            return {"t": "review_state", "open": False}
        leader = self.members[0]
        return {
            "t": "review_state",
            "open": True,
            "match": self.match,
            "step": self.step,
            "leader": leader.seats[0],
            "lead": leader is att,
            "following": att in self.members,
            "members": len(self.members),
        }

    def tell(self) -> None:
        """Send every connection of the room its `review_state`."""
        for att in list(self.room.attachments):
            deliver(att, self.state_for(att))

    def _finished(self, match: Any) -> int:
        """`match` if it is a finished match of the room, else RoomError match_not_found."""
        core = self.room.core
        last = core.match if core.status == "over" else core.match - 1
        if not isinstance(match, int) or isinstance(match, bool) or not 1 <= match <= last:
            raise RoomError("match_not_found", "the room has no finished match with that number")
        return match
