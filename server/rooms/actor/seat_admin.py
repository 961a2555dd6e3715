"""What players and the host do with seats besides playing: take a seat, start the
match, leave, take a seat back from the CPU, rename, and the host's re-issue of a seat
link and hand-over to a CPU, and the host's CPU pace in the waiting room.

Each function changes a `RoomCore` and raises RoomError on refusal, changing nothing;
`SeatAdmin` takes these inputs for a live room, marking what to save and announce.
Tokens arrive as digests, but for a re-issue's new one (kept in memory a few seconds,
never saved, to answer a double click alike).
"""

from __future__ import annotations

import logging

from server.logs import room_event
from server.rooms.actor.clients import Clients
from server.rooms.actor.core import RoomCore
from server.rooms.actor.cpus import check_pace
from server.rooms.actor.state import RoomState
from server.rooms.errors import RoomError
from server.rooms.seats.names import clean_name
from server.rooms.seats.seat import Seat, hash_token

# Milliseconds after a re-issue in which another of the same seat answers the same token.
REISSUE_AGAIN_MS = 3000

log = logging.getLogger(__name__)


def holder(core: RoomCore, token_hash: str) -> int:
    """The human seat of this token digest; bad_token if none."""
    seat = core.seat_of(token_hash)
    if seat is None:
        raise RoomError("bad_token", "that seat token does not belong to this room")
    return seat


def host_target(core: RoomCore, token_hash: str, seat: object) -> int:
    """Check a host request about `seat` (a human seat); returns the seat."""
    if core.seat_of(token_hash) != core.settings.host:
        raise RoomError("not_host", "only the host can do that")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(core.seats):
        raise RoomError("bad_seat", "no such seat")
    if core.seats[seat].kind != "human":
        raise RoomError("bad_seat", f"seat {seat} has no human player")
    return seat


def take_open_seat(core: RoomCore, seat: int | None, name: str, token_hash: str) -> int:
    """Give an open seat (None: the first open one) to a new human; returns it."""
    if core.status == "closed":
        raise RoomError("room_closed", "every player left this room; it is closed")
    if core.status != "lobby":
        raise RoomError("already_started", "the match has started; seats are closed")
    open_seats = [i for i, s in enumerate(core.seats) if s.kind == "open"]
    if seat is None:
        if not open_seats:
            raise RoomError("room_full", "no seat is open")
        seat = open_seats[0]
    if not isinstance(seat, int) or not 0 <= seat < len(core.seats):
        raise RoomError("bad_seat", "no such seat")
    if seat not in open_seats:
        raise RoomError("room_full", f"seat {seat} is not open")
    core.seats[seat] = Seat("human", name, token_hash, core.settings.difficulty)
    return seat


def leave(core: RoomCore, token_hash: str, wall: float) -> int:
    """The token's holder leaves: in the lobby the seat opens again, otherwise a CPU
    plays it from now on. The host's role passes to the lowest other human seat; when
    no human holds a seat any more the room closes (`RoomCore.close`)."""
    seat = holder(core, token_hash)
    old = core.seats[seat]
    if core.status == "lobby":
        core.seats[seat] = Seat("open", "", "", core.settings.difficulty)
    else:
        core.seats[seat] = Seat("cpu", "", "", old.difficulty)
        core.seat_changed(seat, wall)
    humans = [i for i, s in enumerate(core.seats) if s.kind == "human"]
    if core.settings.host == seat and humans:
        core.settings.host = humans[0]
    core.events.append({"type": "seat_left", "seat": seat})
    if not humans:
        # Nobody could start, end or leave it any more: the room closes, its match
        # (if any) abandoned where it stands, CPUs stopped.
        core.close()
    return seat


def take_back(core: RoomCore, token_hash: str, wall: float) -> int:
    """The holder plays their seat again (the CPU covering it stops at once)."""
    seat = holder(core, token_hash)
    core.seats[seat].handed = False
    core.set_covered(seat, False, wall)
    return seat


def rename(core: RoomCore, token_hash: str, name: object) -> int:
    """The holder's seat gets a new display name (cleaned)."""
    seat = holder(core, token_hash)
    core.seats[seat].name = clean_name(name)
    return seat


def reissue(
    core: RoomCore, host_hash: str, seat: object, token: str, now: float
) -> tuple[int, str, bool]:
    """The host gives a human seat the new `token`; the old one stops working.

    Returns the seat, the token that holds it now, and whether that changed: a re-issue
    of a seat within REISSUE_AGAIN_MS of its last one (and nothing else since) is a double
    click or a retry, answered with that one's token, so every answer names the token
    that works.
    """
    target = host_target(core, host_hash, seat)
    last = core.reissued.get(target)
    digest = core.seats[target].token_hash
    if last is not None and last[1] == digest and now - last[2] < REISSUE_AGAIN_MS:
        return target, last[0], False
    digest = hash_token(token)
    core.seats[target].token_hash = digest
    core.reissued[target] = (token, digest, now)
    return target, token, True


def hand_to_cpu(core: RoomCore, host_hash: str, seat: object, wall: float) -> int:
    """The host has a CPU play a human seat now, until that human moves or takes it back."""
    target = host_target(core, host_hash, seat)
    if core.status != "playing":
        code = "match_over" if core.status == "over" else "not_started"
        raise RoomError(code, "a CPU can only take over a seat during a match")
    core.seats[target].handed = True
    if core.set_covered(target, True, wall):
        core.events.append({"type": "seat_handed", "seat": target})
    return target


def set_cpu_pace(core: RoomCore, host_hash: str, pace: str) -> bool:
    """The host sets the CPUs' pace, in the lobby (before the first match); True if that
    changed it."""
    check_pace(pace)
    if core.seat_of(host_hash) != core.settings.host:
        raise RoomError("not_host", "only the host can change the room's settings")
    if core.status != "lobby":
        raise RoomError("already_started", "settings change only in the waiting room")
    if core.settings.cpu_pace == pace:
        return False
    core.settings.cpu_pace = pace
    return True


class SeatAdmin:
    """A live room's seat inputs: each changes the core and marks the room."""

    def __init__(self, room: RoomState, clients: Clients) -> None:
        self.room = room
        self.clients = clients

    def take_seat(self, now: float, seat: int | None, name: str, token_hash: str) -> int:
        """Someone takes an open seat (None: the first open one)."""
        room = self.room
        taken = take_open_seat(room.core, seat, name, token_hash)
        room.presence.away_since[taken] = now
        room.dirty = room.announce = room.listing = True
        return taken

    def start(self, now: float, token_hash: str) -> None:
        """The host starts the match."""
        room = self.room
        room.core.start(token_hash, now)
        room.dirty = room.announce = room.listing = True

    def leave(self, now: float, token_hash: str) -> int:
        """The holder leaves (see `leave`); their connections are closed."""
        room = self.room
        seat = leave(room.core, token_hash, now)
        room.presence.away_since.pop(seat, None)
        self.clients.revoke(seat, "seat_left")
        room.dirty = room.announce = room.listing = True
        return seat

    def take_back(self, now: float, token_hash: str) -> int:
        """The holder plays their seat again."""
        seat = take_back(self.room.core, token_hash, now)
        self.room.dirty = self.room.announce = True
        return seat

    def rename(self, now: float, token_hash: str, name: str) -> int:
        """The holder's seat gets a new name."""
        room = self.room
        seat = rename(room.core, token_hash, name)
        room.dirty = room.announce = room.listing = True
        return seat

    def reissue(self, now: float, host_hash: str, seat: int, token: str) -> str:
        """The host gives a seat a new token (or, again at once, the same: see `reissue`);
        connections on the old one are closed."""
        target, token, changed = reissue(self.room.core, host_hash, seat, token, now)
        if changed:
            self.clients.revoke(target, "seat_reissued")
            self.room.dirty = self.room.announce = True
            code = self.room.code
            room_event(
                log, code, "seat_reissued", "room %s: seat %d re-issued", code, target, seat=target
            )
        return token

    def hand_to_cpu(self, now: float, host_hash: str, seat: int) -> int:
        """The host has a CPU play a seat now."""
        target = hand_to_cpu(self.room.core, host_hash, seat, now)
        self.room.dirty = self.room.announce = True
        code = self.room.code
        room_event(
            log,
            code,
            "covered",
            "room %s: a CPU covers seat %d (the host asked)",
            code,
            target,
            seat=target,
        )
        return target

    def set_cpu_pace(self, now: float, host_hash: str, pace: str) -> None:
        """The host sets the CPUs' pace (see `set_cpu_pace`)."""
        room = self.room
        if set_cpu_pace(room.core, host_hash, pace):
            room.dirty = room.announce = room.listing = True
