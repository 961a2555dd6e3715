"""A room's state machine, without asyncio: seats, the match, game time, CPU plans.

The actor in `room.py` feeds it inputs with the current wall time (ms) and saves what
`dumps.dump` makes of it. Game time runs only while the actor says the room runs
(`set_running`); CPU decisions are kept as due game times, so a dump carries the exact
remaining waits. Every engine input is appended to `log` (drained by the actor into the
store's move log), which `history/replay.py` can play back; so are a match's start (with its
number and seats) and its end (with the outcome), which the room's history reads.

A room plays matches one after another: once a match is over, the host's start begins
match `match + 1` with the same seats, options and difficulty, a seed derived from the
room's (`seeds.match_seed`), CPU random streams keyed afresh (`seeds.cpu_streams`) and
game time back at 0. What a CPU-played seat will do, and when, is `cpus.py`'s plan.
"""

from __future__ import annotations

from typing import Any

from server.bots.contract import Policy
from server.games.contract import Action, Event, Game, IllegalAction
from server.rooms.actor.cpus import Pending, decide, tie_rank
from server.rooms.actor.seeds import cpu_streams, match_seed
from server.rooms.errors import RoomError
from server.rooms.seats.seat import RoomSettings, Seat
from server.rooms.seats.talk import TalkRules
from server.rooms.seats.timebank import ClockRules, TimeBanks

# The matches a room's move log keeps (the one being played included); a new match beyond
# them drops the oldest from the log, so a room's history in the store stays bounded.
MAX_MATCHES_KEPT = 50
# Engine events after which every CPU decides afresh: a new hand is on the table, or
# the race began (the follow-up clock starts when the first grab becomes visible).
REPLAN_EVENTS = frozenset({"hand_shown", "first_grab"})
# Engine events after which the clock waits until humans have seen the board (U13: the
# follow-up clock starts once the first grab has been shown).
GATE_EVENTS = frozenset({"hand_shown", "first_grab"})


# How far a seat's move number may jump past its last accepted one (any increasing
# numbers are fine; this keeps every accepted one far below the 2**53 limit).
MAX_SEQ_STEP = 1 << 20


class RoomCore:
    """One room: lobby, then a match of `game` with CPUs driven by `policy`."""

    def __init__(self, settings: RoomSettings, seats: list[Seat], game: Game, policy: Policy):
        self.settings = settings
        self.seats = seats
        self.game = game
        self.policy = policy
        self.version = 1
        self.status = "lobby"
        # The number of the match being played, or about to be in the lobby (from 1).
        self.match = 1
        self.state: Any = None
        self.paused = False
        self.game_ms = 0.0
        self.run_since: float | None = None
        self.pending: dict[int, Pending] = {}
        # Each seat's CPU random stream, keyed afresh by every start (`cpu_streams`).
        self.rngs: list[int] = []
        self.seqs: dict[int, list[Any]] = {}
        self.created = 0.0
        self.last_move = 0.0
        self.log: list[dict[str, Any]] = []
        # Entries in the store's log per match, oldest kept first (the last is this match's).
        self.log_lengths: list[int] = []
        # Set when a start dropped the oldest match: the actor trims the store's log.
        self.trim_wanted = False
        self.events: list[Event] = []
        # The moves applied since the views were last sent, for the engine's view patches;
        # None once anything else changed the match (a start, a timer, a load).
        self.view_moves: list[tuple[int, Action]] | None = None
        self.gate_wanted = False
        # Table talk as the host set it (seats/talk.py); chat messages are kept beside the room.
        self.talk = TalkRules()
        # Each seat's last re-issue here: (token, its digest, clock ms); never saved.
        self.reissued: dict[int, tuple[str, str, float]] = {}
        # The seat clocks of a live or days room's match (actor/turns.py runs them).
        self.clock_rules = ClockRules.load(settings.clock)
        self.banks: TimeBanks | None = None
        # The public events of the last move or timer ("Your rooms" says it in words).
        self.last_events: list[Event] = []
        # Hints each seat asked for this match (public; shown at each round's end).
        self.hints_used: list[int] = [0] * len(seats)

    # -- game time --------------------------------------------------------------------
    def now(self, wall: float) -> int:
        """Game time (ms) at wall time `wall`."""
        if self.run_since is None:
            return int(self.game_ms + 1e-6)
        # The epsilon keeps a timer set for exactly `due` from reading due - 1 after rounding.
        return int(self.game_ms + (wall - self.run_since) + 1e-6)

    def set_running(self, running: bool, wall: float) -> bool:
        """Start or stop game time; True if that changed anything."""
        if running == (self.run_since is not None):
            return False
        if self.run_since is None:
            self.run_since = wall
        else:
            self.game_ms += wall - self.run_since
            self.run_since = None
        return True

    def next_due(self) -> int | None:
        """Game time of the next rule timer or CPU move, if any."""
        if self.status != "playing":
            return None
        # Loops, not min() over a list: a generic call in compiled code, at every move.
        earliest = self.game.deadline(self.state)
        for plan in self.pending.values():
            due = plan.due
            if due is not None and (earliest is None or due < earliest):
                earliest = due
        return earliest

    # -- lobby ------------------------------------------------------------------------
    def seat_of(self, token_hash: str) -> int | None:
        """The human seat holding this token digest."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.token_hash == token_hash:
                return i
        return None

    def close(self) -> None:
        """No human holds a seat any more: status `closed` for good, the match (if any)
        left as it stands, no CPU plan or rule timer due (`fire_due` and `next_due` run
        only while playing)."""
        self.status = "closed"
        self.pending.clear()
        self.view_moves = None
        self.events.append({"type": "room_closed"})

    def start(self, token_hash: str, wall: float) -> None:
        """Start the match (host only); open seats become CPUs.

        On a room whose match is over this starts the next one ("play again"): the same
        seats (human tokens and move numbers kept), options and difficulty, the next
        match number and its seed, game time from 0, CPU plans made afresh.
        """
        seat = self.seat_of(token_hash)
        if seat is None:
            raise RoomError("bad_token", "that token holds no seat in this room")
        if seat != self.settings.host:
            raise RoomError("not_host", "only the host can start the match")
        if self.status == "playing":
            raise RoomError("already_started", "the match has already started")
        if self.status == "over":
            self.match += 1
            self.pending.clear()
            # Engines' `new` deal at game time 0; wall time keeps running the same way.
            self.game_ms = 0.0
            if self.run_since is not None:
                self.run_since = wall
        for each in self.seats:
            if each.kind == "open":
                each.kind = "cpu"
        n, options = len(self.seats), self.settings.options
        seed = match_seed(self.settings.seed, self.match, self.settings.series_key)
        self.rngs = cpu_streams(self.settings.seed, self.match, n, self.settings.series_key)
        cpus = [i for i, seat in enumerate(self.seats) if seat.kind == "cpu"]
        try:
            self.state = self.game.new(n, options, seed, cpu_seats=cpus)
            self.view_moves = None
        except IllegalAction as exc:  # e.g. an option naming a seat that became a CPU
            raise RoomError("bad_option", exc.message) from None
        self.status = "playing"
        self.hints_used = [0] * n
        if self.clock_rules is not None:  # every match starts with full banks
            self.banks = TimeBanks(self.clock_rules, n)
        seats = [{"kind": s.kind, "name": s.name} for s in self.seats]
        start = {"k": "start", "n": n, "options": options, "seed": seed, "cpu": cpus}
        self.log_lengths.append(0)
        if len(self.log_lengths) > MAX_MATCHES_KEPT:
            del self.log_lengths[0]
            self.trim_wanted = True
        self._log({**start, "match": self.match, "seats": seats})
        self.events.append({"type": "match_started", "match": self.match})
        self.gate_wanted = True
        self._plan(self.now(wall), replan=True)

    # -- play -------------------------------------------------------------------------
    def move(self, seat: int, seq: int, action: Action, wall: float) -> tuple[dict[str, Any], bool]:
        """A human move; returns (result, applied). A repeated `seq` returns the old result."""
        last = self.seqs.get(seat)
        if last is not None and seq <= last[0]:
            if seq == last[0]:
                return last[1], False
            raise RoomError("stale_seq", f"move {seq} is older than move {last[0]}")
        # Bounded jumps: no accepted number can leave a seat without a next one.
        if seq > (0 if last is None else last[0]) + MAX_SEQ_STEP:
            raise RoomError("bad_frame", f"a move number may go up by at most {MAX_SEQ_STEP}")
        if self.status != "playing":
            code = "match_over" if self.status == "over" else "not_started"
            raise RoomError(code, "no match is being played")
        if self.paused:
            raise RoomError("paused", "the game is paused")
        t = self.now(wall)
        try:
            events = self.game.apply(self.state, seat, action, t)
        except IllegalAction as exc:
            raise RoomError("illegal_action", exc.message) from None
        self._log({"k": "m", "s": seat, "a": action, "t": t})
        if self.view_moves is not None:
            self.view_moves.append((seat, action))
        result = {"ok": True, "seq": seq, "version": self.version + 1, "events": events}
        self.seqs[seat] = [seq, result]
        self._after_change(events, t)
        return result, True

    def fire_due(self, wall: float) -> bool:
        """Fire every rule timer and CPU move due by now, in time order; True if any fired.

        Rule timers go before CPU moves due at the same time; CPU moves due together go
        in the deal's tie order. Each CPU move is checked again against the seat's legal
        moves when it fires.
        """
        fired = False
        while self.status == "playing":
            limit = self.now(wall)
            deadline = self.game.deadline(self.state)
            due = sorted(
                (p.due, s) for s, p in self.pending.items() if p.due is not None and p.due <= limit
            )
            if len(due) > 1 and due[0][0] == due[1][0]:
                rank = tie_rank(self.game, self.state)
                due.sort(key=lambda d: (d[0], rank.get(d[1], len(rank) + d[1])))
            if deadline is not None and deadline <= limit and (not due or deadline <= due[0][0]):
                events = self.game.expire(self.state, deadline)
                self.view_moves = None
                self._log({"k": "x", "t": deadline})
                self._after_change(events, deadline)
            elif due:
                at, seat = due[0]
                plan = self.pending.pop(seat)
                if plan.action is not None and plan.action in self.game.actions(self.state, seat):
                    self.play_cpu(seat, plan.action, at)
                else:
                    self._after_change([], at)
            else:
                break
            fired = True
        return fired

    def play_cpu(self, seat: int, action: Action, t: int, late: bool = False) -> list[Event]:
        """Apply a CPU's move for `seat` at game time `t` and plan afresh; its events.
        Logged as a CPU's, also when covering a human (not human input, U13); `late`: it
        was made because the seat's time ran out (turns.py)."""
        events = self.game.apply_cpu(self.state, seat, action, t)
        entry: dict[str, Any] = {"k": "m", "s": seat, "a": action, "t": t, "cpu": True}
        if late:
            entry["late"] = True
        self._log(entry)
        if self.view_moves is not None:
            self.view_moves.append((seat, action))
        self._after_change(events, t)
        return events

    def set_covered(self, seat: int, covered: bool, wall: float) -> bool:
        """A CPU starts or stops playing for an away human; True if that changed."""
        if self.seats[seat].kind != "human" or self.seats[seat].covered == covered:
            return False
        self.seats[seat].covered = covered
        self.seat_changed(seat, wall)
        return True

    def seat_changed(self, seat: int, wall: float) -> None:
        """Who plays `seat` changed: drop its CPU plan and plan afresh for CPU seats."""
        self.pending.pop(seat, None)
        if self.status == "playing":
            self._plan(self.now(wall), replan=False)

    def _log(self, entry: dict[str, Any]) -> None:
        self.log.append(entry)
        if self.log_lengths:
            self.log_lengths[-1] += 1

    def _after_change(self, events: list[Event], t: int) -> None:
        self.events.extend(events)
        if events:
            self.last_events = events
        kinds = {e.get("type") for e in events}
        if kinds & GATE_EVENTS:
            self.gate_wanted = True
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self.status = "over"
            self.pending.clear()
            self._log({"k": "end", "match": self.match, "outcome": outcome})
            return
        self._plan(t, replan=bool(kinds & REPLAN_EVENTS))

    def _plan(self, t: int, replan: bool) -> None:
        """Ask each CPU-played seat whose legal moves changed (or all, on `replan`)."""
        for s, seat in enumerate(self.seats):
            if seat.kind != "cpu" and not seat.covered:
                continue
            legal = self.game.actions(self.state, s)
            plan = self.pending.get(s)
            if plan is not None and not replan and plan.basis == legal:
                continue
            self.pending[s] = decide(
                self.game,
                self.state,
                self.policy,
                seat.difficulty,
                self.rngs,
                s,
                legal,
                t,
                self.settings.cpu_pace,
            )

    def step(self) -> int:
        """How many inputs (moves and timer firings) this match has had: the length of
        its match file's inputs so far (the hint seed's `version`, advice.hint_seed)."""
        return self.log_lengths[-1] - 1 if self.log_lengths else 0

    def seed_of_match(self) -> int:
        """The seed this match was dealt with (its match file's seed)."""
        return match_seed(self.settings.seed, self.match, self.settings.series_key)

    def summary(self) -> dict[str, Any]:
        """Public facts: game, name, status, match number, seats, host; nothing secret."""
        seats = [s.dump() for s in self.seats]
        return summary_of(self.settings.dump(), seats, self.status, self.version, self.match)


def summary_of(
    settings: dict[str, Any],
    seats: list[dict[str, Any]],
    status: str,
    version: int,
    match: int = 1,
) -> dict[str, Any]:
    """The public summary of a room from its dumped settings and seats."""
    return {
        "game": settings["game_id"],
        "name": settings["name"],
        "public": settings["public"],
        "host": settings["host"],
        "difficulty": settings["difficulty"],
        "options": settings["options"],
        "status": status,
        "match": match,
        "version": version,
        "seats": [{"kind": s["kind"], "name": s["name"], "covered": s["covered"]} for s in seats],
        "open_seats": sum(1 for s in seats if s["kind"] == "open"),
        "cover_after_ms": settings.get("cover_after_ms"),
        "spectators": settings.get("spectators", True),
        "hints": settings.get("hints", True),
        "cpu_pace": settings.get("cpu_pace", "relaxed"),
        "clock": settings.get("clock"),
    }
