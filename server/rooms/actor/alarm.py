"""A live room's one wake-up timer: set to the earliest thing the room waits for (a rule
timer or CPU move due in game time, presence's gate and cover times, a seat clock running
out, a save's retry);
when it fires, the room gets a "tick" input. A days room's wake goes to the store's due
index too (due_mark.py), for a process to load the room then if none runs it.
"""

from __future__ import annotations

from server.rooms.actor.clock import TimerHandle
from server.rooms.actor.due_mark import DueMark
from server.rooms.actor.state import RoomState
from server.rooms.actor.turns import Turns

# A timer that fires this close before the room's wake counts as on time (loop timers
# round to the millisecond).
TIMER_SLACK_MS = 1.0


class Alarm:
    """The room's wake-up: when it next wants to look, and the clock's timer for it."""

    def __init__(self, room: RoomState, turns: Turns) -> None:
        self.room = room
        self.turns = turns
        self._timer: TimerHandle | None = None
        self._timer_at = 0.0  # when the timer fires (it may be before `_wake_at`)
        self._wake_at: float | None = None  # when the room next wants to look
        self.due = DueMark(room)  # the wake as the store's due index has it

    def schedule(self) -> None:
        """Set the one wake-up timer to the earliest thing the room waits for."""
        room = self.room
        core = room.core
        wakes = []
        if core.run_since is not None:
            due = core.next_due()
            if due is not None:
                wakes.append(core.run_since + (due - core.game_ms))
        wakes.extend(room.presence.wakes(core))
        if core.banks is not None:
            clock_at = self.turns.wake(room.clock.now())
            if clock_at is not None:
                wakes.append(clock_at)
        if room.retry_at is not None:
            wakes.append(room.retry_at)
        wake: float | None = None
        for at in wakes:  # not min(): a generic call with a tuple in compiled code
            if wake is None or at < wake:
                wake = at
        self._wake_at = wake
        if core.clock_rules is not None:
            self.due.wake(wake)
        if wake is not None and self._timer is not None and self._timer_at <= wake:
            # Most moves put the next wake later (a rule timer restarts): the timer set
            # for the earlier one stays and, firing early, sets the next (`_ring`). One
            # timer per wake-up instead of a cancel and a new timer at every move.
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if wake is not None:
            self._timer, self._timer_at = room.clock.call_at(wake, self._ring), wake

    def cancel(self) -> None:
        """No more wake-ups (the room stops)."""
        if self._timer is not None:
            self._timer.cancel()

    def _ring(self) -> None:
        wake, self._timer = self._wake_at, None
        if wake is None:
            return  # nothing to wake for any more (the timer outlived its wake)
        room = self.room
        if wake - room.clock.now() > TIMER_SLACK_MS:  # early: the wake moved later
            self._timer, self._timer_at = room.clock.call_at(wake, self._ring), wake
            return
        self._wake_at = None
        room.retry_at = None
        room.post("tick")
