"""Whose move it is, and the seat clocks of live and days rooms as play goes: a part of
the room actor (room.py).

After every input the room asks `Turns.sync`: a human seat with legal moves has a move to
make; its clock (`seats/timebank.py`) starts when that move opens (a fresh allowance when
its legal moves change, so each move of a turn, a claim or a mark has its own) and stops
when it has none. Simultaneous phases (marks, claims, declarations) are the same: every
seat with something to answer runs its own clock. (Telling an absent player it is their
move is nudges.py's.)

A live clock counts game time (it stops while nobody is at the table, or the game is
paused); a days clock counts wall time (Unix ms), also while the room is not loaded.
When a seat's time runs out, `fire` has the CPU make that one move for it.
"""

from __future__ import annotations

from typing import Any

from server.games.contract import Action
from server.rooms.actor.core import RoomCore
from server.rooms.actor.cpus import decide
from server.rooms.actor.state import Attachment, RoomState
from server.rooms.errors import RoomError


class Turns:
    """One room's view of whose move it is (the legal moves each seat's clock started on)."""

    def __init__(self, room: RoomState) -> None:
        self.room = room
        self.basis: dict[int, list[Action]] = {}

    def loaded(self) -> None:
        """A room loaded from its save: each seat's move as its clock was saved (no
        fresh allowance for a move that was already open)."""
        core = self.room.core
        self.basis = {}
        if core.status != "playing":
            return
        for s, seat in enumerate(core.seats):
            if seat.kind == "human" and not seat.covered:
                legal = core.game.actions(core.state, s)
                if legal:
                    self.basis[s] = legal

    def sync(self, now: float) -> None:
        """Start and stop seat clocks for the moves open now (a clocked room's)."""
        room = self.room
        if self.follow(room.core, room.clock_t(now)):
            room.dirty = True

    def follow(self, core: RoomCore, t: float) -> bool:
        """Start and stop seat clocks for the moves open now (clock time `t`); True if a
        clock started or stopped."""
        changed = False
        banks = core.banks
        playing = core.status == "playing"
        for s, seat in enumerate(core.seats):
            legal: list[Action] = []
            if playing and seat.kind == "human" and not seat.covered:
                legal = core.game.actions(core.state, s)
            before = self.basis.get(s)
            if legal:
                if legal != before:
                    self.basis[s] = legal
                    if banks is not None:
                        banks.start(s, t)
                        changed = True
            elif before is not None:
                del self.basis[s]
                if banks is not None:
                    banks.stop(s, t)
                    changed = True
        return changed

    def wake(self, now: float) -> float | None:
        """When (room clock ms) a seat clock next needs the room to look: a bank running
        out, or a vacation used up."""
        room = self.room
        core = room.core
        banks = core.banks
        rules = core.clock_rules
        if banks is None or rules is None or core.status != "playing":
            return None
        earliest: float | None = None
        for s in range(len(banks.move)):
            at = banks.runs_out(s)
            if at is None:
                at = banks.vacation_ends(s)
            if at is not None and (earliest is None or at < earliest):
                earliest = at
        if earliest is None:
            return None
        if rules.wall:
            return now + (earliest - room.wall() * 1000.0)
        if core.run_since is None:
            return None  # game time stopped: so is every live clock
        return core.run_since + (earliest - core.game_ms)

    def fire(self, now: float) -> bool:
        """End the vacations used up and play, as the CPU, the one move of each seat whose
        time ran out by now (earliest first); True if anything changed."""
        core = self.room.core
        banks = core.banks
        if banks is None or core.status != "playing":
            return False
        t = self.room.clock_t(now)
        changed = False
        while core.status == "playing":
            late: int | None = None
            late_at = 0.0
            for s in range(len(banks.move)):
                ends = banks.vacation_ends(s)
                if ends is not None and ends <= t:
                    banks.vacation_end(s, ends)
                    changed = True
                at = banks.runs_out(s)
                if at is not None and at <= t and (late is None or at < late_at):
                    late, late_at = s, at
            if late is None:
                break
            banks.ran_out(late, late_at)
            changed = True
            if self.time_out(core, late, now):
                core.last_move = self.room.wall()
                # Its next move (if it has one at once) is a new one: a fresh allowance.
                self.basis.pop(late, None)
            # The CPU's move changed the table: clocks follow before the next check.
            self.follow(core, t)
        if changed:
            self.room.dirty = self.room.announce = True
        return changed

    @staticmethod
    def time_out(core: RoomCore, seat: int, now: float) -> bool:
        """Seat `seat`'s time ran out: the CPU makes this one move for it, now (logged
        as a CPU's move, with a "time_out" event before the move's own). The seat stays
        its player's. False when the CPU would make no move here (it waits as the
        player would)."""
        legal = core.game.actions(core.state, seat)
        if not legal:
            return False
        t = core.now(now)
        difficulty = core.seats[seat].difficulty
        pace = core.settings.cpu_pace  # only its move counts: it is made now
        plan = decide(
            core.game, core.state, core.policy, difficulty, core.rngs, seat, legal, t, pace
        )
        if plan.action is None:
            return False
        said = {"type": "time_out", "seat": seat}
        core.events.append(said)
        events = core.play_cpu(seat, plan.action, t, late=True)
        core.last_events = [said, *events]
        return True

    def vacation(self, now: float, att: Attachment, seat: Any, on: Any) -> None:
        """A days room's player starts or ends a vacation for a held seat."""
        room = self.room
        core = room.core
        if seat not in att.seats:
            raise RoomError("not_your_seat", f"this connection does not hold seat {seat}")
        if not isinstance(on, bool):
            raise RoomError("bad_request", "a vacation frame needs on: true or false")
        banks, rules = core.banks, core.clock_rules
        if banks is None or rules is None or not rules.wall or core.status != "playing":
            raise RoomError("no_vacation", "vacations are for days clocks, during a match")
        t = room.clock_t(now)
        if on and not banks.vacation_start(seat, t):
            raise RoomError("no_vacation", "no vacation left for this match, or on one already")
        if not on:
            banks.vacation_end(seat, t)
        core.events.append({"type": "vacation" if on else "back", "seat": seat})
        room.dirty = room.announce = True
