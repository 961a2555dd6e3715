"""Usunoro rules engine: moves, rule timers, storage and results.

The rules are RULINGS.md section 1 (spec items 1-17, rulings U1-U12). A round runs
PASSING -> RACE -> DONE, or ends early: DONE by an early grab, or VOID (100 exchanges,
the 8 s race timer, the marking-idle timer). Nothing deals by itself: a new round starts
only with a "next" move.

Moves: {"type": "mark", "card": "S1"}, {"type": "unmark"}, {"type": "grab"},
{"type": "next"}. Events are public facts the room uses to schedule CPU players:
"hand_shown" after every deal and exchange starts first-grab clocks, "first_grab" starts
follow-up clocks. A new match (`new`) shows its first hand at game time 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games import cards
from server.games.contract import Action, Event, Game, IllegalAction, Option, View
from server.games.rng import Rng
from server.games.usunoro import rules, views
from server.games.usunoro.helpers import helpers as usunoro_helpers
from server.games.usunoro.rules import (
    DONE,
    EXCHANGE_CAP,
    PASSING,
    PENALTY_LIMIT,
    RACE,
    RACE_VOID_MS,
    RANKS,
    SEATS,
    TOKENS,
    VOID,
    State,
    is_matching,
    suggested_pass,
)


def _seat_list(value: Any) -> list[int]:
    """Validate the open_hands option: distinct seat numbers."""
    if not isinstance(value, list | tuple):
        raise IllegalAction("bad_option", "open_hands must be a list of seats")
    seats = list(value)
    if any(type(s) is not int or not 0 <= s < SEATS for s in seats) or len(set(seats)) != len(
        seats
    ):
        raise IllegalAction("bad_option", "open_hands must list distinct seats 0-3")
    return sorted(seats)


MAX_TIMER_MS = 3_600_000  # an hour: the longest a timer option may be


def _millis(name: str, value: Any) -> int:
    """Validate a timer option: a non-negative int of milliseconds (0 turns it off)."""
    if type(value) is not int or not 0 <= value <= MAX_TIMER_MS:
        raise IllegalAction(
            "bad_option", f"{name} must be a whole number of ms from 0 to {MAX_TIMER_MS}"
        )
    return value


class Usunoro(Game):
    """The Usunoro rules engine."""

    id = "usunoro"
    title = "Usunoro"
    min_seats = SEATS
    max_seats = SEATS
    options = (
        Option("direction", "next", ("next", "previous"), "pass to seat+1 or seat-1 (U1)"),
        Option("length", "standard", ("standard", "short"), "4 penalties end it, or 1"),
        Option(
            "open_hands",
            [],
            (),
            "human seats whose hands, not marks, everyone sees (same-device play; U13, U14)",
        ),
        Option(
            "mark_timeout_ms",
            30000,
            (),
            "auto-mark unmarked seats after this (U2); 0 to 3,600,000 ms, 0 for off",
            minimum=0,
            maximum=MAX_TIMER_MS,
        ),
        Option(
            "idle_void_ms",
            120000,
            (),
            "void a passing round no human touched this long (U7, U13); 0 to 3,600,000 ms",
            minimum=0,
            maximum=MAX_TIMER_MS,
        ),
    )

    # -- options and setup -------------------------------------------------------------
    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled and every value checked (open_hands comes back as a list)."""
        resolved = super().resolve_options(options)
        resolved["open_hands"] = _seat_list(resolved["open_hands"])
        for name in ("mark_timeout_ms", "idle_void_ms"):
            resolved[name] = _millis(name, resolved[name])
        return resolved

    def check_options(
        self, options: dict[str, Any], seats: int, cpu_seats: Sequence[int] = ()
    ) -> None:
        """U13: `open_hands` lists human seats only (a CPU's hand stays hidden)."""
        super().check_options(options, seats, cpu_seats)
        cpus = sorted(set(options["open_hands"]) & set(cpu_seats))
        if cpus:
            raise IllegalAction("bad_option", f"open_hands may list human seats only, not {cpus}")

    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> State:
        """A fresh match with its first hand dealt and shown at game time 0.

        `cpu_seats` are the CPU-played seats: their input does not hold off the idle void
        (U13), and `open_hands` may not name them.
        """
        if seats != SEATS:
            raise IllegalAction("bad_seats", "Usunoro is played by exactly 4 seats")
        resolved = self.resolve_options(options)
        self.check_options(resolved, seats, cpu_seats)
        state: State = {
            "seats": SEATS,
            "options": resolved,
            "cpu_seats": sorted(set(cpu_seats)),
            "rng": Rng.from_seed(seed).state,
            "round": 0,
            "penalties": [0] * SEATS,
        }
        self._deal(state, 0)
        return state

    def _deal(self, state: State, now: int) -> None:
        """Shuffle, deal 4 each, draw the round's tie order (U10), start PASSING."""
        rng = Rng(state["rng"])
        deck = cards.deck(RANKS)
        rng.shuffle(deck)
        order = list(range(SEATS))
        rng.shuffle(order)
        state["rng"] = rng.state
        state.update(
            round=state["round"] + 1,
            phase=PASSING,
            hands=[sorted(deck[i * 4 : i * 4 + 4], key=cards.sort_key) for i in range(SEATS)],
            marks=[None] * SEATS,
            sent=[None] * SEATS,
            received=[None] * SEATS,
            exchanges=0,
            taken=[],
            tie_order=order,
            hand_seq=state.get("hand_seq", 0) + 1,
            hand_at=now,
            active_at=now,
            void_at=None,
            result=None,
        )

    # -- moves -------------------------------------------------------------------------
    def actions(self, state: State, seat: int) -> list[Action]:
        """Marks, unmark and grab in PASSING; grab in RACE; next between rounds."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            return []
        phase = state["phase"]
        if phase == PASSING:
            mark = state["marks"][seat]
            moves: list[Action] = [
                {"type": "mark", "card": c} for c in state["hands"][seat] if c != mark
            ]
            if mark is not None:
                moves.append({"type": "unmark"})
            moves.append({"type": "grab"})
            return moves
        if phase == RACE:
            return [] if seat in state["taken"] else [{"type": "grab"}]
        return [] if self._match_over(state) else [{"type": "next"}]

    # `seat` and `action` come from clients: typed Any, since `_apply` checks them (a
    # compiled build, setup.py, checks annotations before the body runs).
    def apply(self, state: State, seat: Any, action: Any, now: int) -> list[Event]:
        """Check one move and apply it; IllegalAction leaves the state untouched.

        A move of a seat in `cpu_seats` is a CPU's (U13: it does not hold off the idle void).
        """
        return self._apply(state, seat, action, now, seat not in state.get("cpu_seats", ()))

    def apply_cpu(self, state: State, seat: Any, action: Any, now: int) -> list[Event]:
        """`apply` for a move a CPU made, also one covering a human seat: U13 counts the
        idle void from human input only, so this one does not restart it."""
        return self._apply(state, seat, action, now, False)

    def _apply(self, state: State, seat: Any, action: Any, now: int, human: bool) -> list[Event]:
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise IllegalAction("bad_seat", "no such seat")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "mark":
            return self._mark(state, seat, action, now, human)
        if kind == "unmark":
            self._expect_only(action, "type")
            return self._unmark(state, seat, now, human)
        if kind == "grab":
            self._expect_only(action, "type")
            return self._grab(state, seat, now)
        if kind == "next":
            self._expect_only(action, "type")
            if state["phase"] not in (DONE, VOID):
                raise IllegalAction("round_running", "the round is still being played")
            if self._match_over(state):
                raise IllegalAction("match_over", "the match is over")
            self._deal(state, now)
            return [{"type": "deal", "round": state["round"]}, {"type": "hand_shown"}]
        raise IllegalAction("unknown_action", "unknown move")

    @staticmethod
    def _expect_only(action: Action, *keys: str) -> None:
        if set(action) != set(keys):
            raise IllegalAction("bad_action", f"this move takes only {list(keys)}")

    def _mark(self, state: State, seat: int, action: Action, now: int, human: bool) -> list[Event]:
        self._expect_only(action, "type", "card")
        if state["phase"] != PASSING:
            raise IllegalAction("not_passing", "cards are marked only before the first grab")
        card = action["card"]
        if not cards.is_card(card, RANKS) or card not in state["hands"][seat]:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        if state["marks"][seat] == card:
            raise IllegalAction("already_marked", "that card is already marked")
        was_marked = state["marks"][seat] is not None
        state["marks"][seat] = card
        if human:  # U13: only a human's input restarts the idle void
            state["active_at"] = now
        events: list[Event] = [] if was_marked else [{"type": "marked", "seat": seat}]
        if all(m is not None for m in state["marks"]):
            events += self._exchange(state, now)
        return events

    def _unmark(self, state: State, seat: int, now: int, human: bool) -> list[Event]:
        if state["phase"] != PASSING:
            raise IllegalAction("not_passing", "cards are marked only before the first grab")
        if state["marks"][seat] is None:
            raise IllegalAction("not_marked", "no card is marked")
        state["marks"][seat] = None
        if human:  # U13: only a human's input restarts the idle void
            state["active_at"] = now
        return [{"type": "unmarked", "seat": seat}]

    def _exchange(self, state: State, now: int) -> list[Event]:
        """Every seat sends its mark on at once (spec item 8); marks use the old hands."""
        step = 1 if state["options"]["direction"] == "next" else -1
        marks = state["marks"]
        hands = state["hands"]
        for s in range(SEATS):
            incoming = marks[(s - step) % SEATS]
            hand = [c for c in hands[s] if c != marks[s]]
            hand.append(incoming)
            hands[s] = sorted(hand, key=cards.sort_key)
            state["sent"][s] = marks[s]
            state["received"][s] = incoming
        state["marks"] = [None] * SEATS
        state["exchanges"] += 1
        events: list[Event] = [{"type": "exchange", "count": state["exchanges"]}]
        if state["exchanges"] >= EXCHANGE_CAP:
            return events + self._void(state, "exchange_cap")
        state["hand_seq"] += 1
        state["hand_at"] = now
        return events + [{"type": "hand_shown"}]

    def _grab(self, state: State, seat: int, now: int) -> list[Event]:
        """Spec item 10, judged on the hand as it stands now (U4, U5, U8)."""
        phase = state["phase"]
        if phase == PASSING:
            if is_matching(state["hands"][seat]):
                state["phase"] = RACE
                state["marks"] = [None] * SEATS
                state["taken"] = [seat]
                state["void_at"] = now + RACE_VOID_MS
                return [{"type": "first_grab", "seat": seat}]
            events: list[Event] = [{"type": "early_grab", "seat": seat}]
            return events + self._penalise(state, seat, "early_grab")
        if phase != RACE:
            raise IllegalAction("no_race", "there is nothing to grab now")
        if seat in state["taken"]:
            raise IllegalAction("already_taken", "you already hold a token")
        state["taken"].append(seat)
        events = [{"type": "grab", "seat": seat}]
        if len(state["taken"]) == TOKENS:
            last = next(s for s in range(SEATS) if s not in state["taken"])
            events += self._penalise(state, last, "no_token")
        return events

    def _penalise(self, state: State, seat: int, reason: str) -> list[Event]:
        state["penalties"][seat] += 1
        state["phase"] = DONE
        state["result"] = {"penalised": seat, "reason": reason}
        return self._end_round(state, {"type": "round_over", "penalised": seat, "reason": reason})

    def _void(self, state: State, reason: str) -> list[Event]:
        state["phase"] = VOID
        state["result"] = {"penalised": None, "reason": reason}
        return self._end_round(state, {"type": "void", "reason": reason})

    def _end_round(self, state: State, event: Event) -> list[Event]:
        state["marks"] = [None] * SEATS
        state["void_at"] = None
        events = [event]
        result = self.outcome(state)
        if result is not None:
            events.append({"type": "match_over", "places": result["places"]})
        return events

    # -- timers ------------------------------------------------------------------------
    def _timers(self, state: State) -> list[tuple[int, str]]:
        """(due game time, name) of every running rule timer."""
        if state["phase"] == RACE:
            return [(state["void_at"], "race_timeout")]
        if state["phase"] != PASSING:
            return []
        options = state["options"]
        timers = []
        if options["mark_timeout_ms"]:
            timers.append((state["hand_at"] + options["mark_timeout_ms"], "mark_timeout"))
        if options["idle_void_ms"]:
            timers.append((state["active_at"] + options["idle_void_ms"], "idle"))
        return timers

    def deadline(self, state: State) -> int | None:
        """The 8 s race void (U6), the marking timeout (U2) or the idle void (U7) (see
        `rules.deadline`)."""
        return rules.deadline(state)

    def expire(self, state: State, now: int) -> list[Event]:
        """Fire every timer due at `now`, earliest first (a void wins a tie)."""
        events: list[Event] = []
        while True:
            # At equal times a void goes first: nothing is auto-marked in a dead round.
            due = min(
                ((t, name == "mark_timeout", name) for t, name in self._timers(state)), default=None
            )
            if due is None or due[0] > now:
                return events
            if due[2] == "mark_timeout":
                events += self._auto_mark(state, now)
            else:
                events += self._void(state, due[2])

    def _auto_mark(self, state: State, now: int) -> list[Event]:
        """U2: mark for every unmarked seat by the CPU rule, which runs the exchange."""
        rng = Rng(state["rng"])
        seats = [s for s in range(SEATS) if state["marks"][s] is None]
        for s in seats:
            state["marks"][s] = suggested_pass(state["hands"][s], rng)
        state["rng"] = rng.state
        return [{"type": "auto_marked", "seats": seats}, *self._exchange(state, now)]

    # -- what seats see ----------------------------------------------------------------
    def tie_order(self, state: State) -> list[int]:
        """U10: the seats in the order their CPU moves fire when due at the same time."""
        return list(state["tie_order"])

    def visible_hands(self, state: State, seat: int | None) -> list[bool]:
        """Which seats' hands (and marks) `seat` sees (see `views.visible_hands`)."""
        return views.visible_hands(state, seat)

    def view(self, state: State, seat: int | None) -> View:
        """Everything `seat` may know (see `views.view`)."""
        return views.view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, View]:
        """Every seat's `view`, sharing what they show alike (see `views.views`)."""
        return views.views(state, seats)

    def view_patches(
        self,
        state: State,
        seats: Sequence[int | None],
        moves: Sequence[tuple[int, Action]],
        events: Sequence[Event],
    ) -> dict[int | None, View] | None:
        """Patches after marks, unmarks and exchanges (see `views.view_patches`)."""
        return views.view_patches(state, seats, moves, events)

    def actions_kept(
        self,
        state: State,
        seat: int,
        moves: Sequence[tuple[int, Action]],
        events: Sequence[Event],
    ) -> bool:
        """True after another seat's mark or unmark (see `views.actions_kept`)."""
        return views.actions_kept(state, seat, moves, events)

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """The rank the seat is closest to four of, from its view (helpers.py)."""
        return usunoro_helpers(view)

    def shuffle_unseen(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-deal hidden hands among themselves; other seats' marks re-drawn (an open
        hand's too, U14); engine rng replaced.

        A card a visible hand sent in the last exchange stays with its hidden receiver,
        since the viewer watched it go there. The engine's own generator is replaced so a
        sampled world cannot foretell the next deal.
        """
        other = self.copy(state)
        seen = self.visible_hands(state, seat)
        hidden = [s for s in range(SEATS) if not seen[s]]
        step = 1 if state["options"]["direction"] == "next" else -1
        pinned: dict[int, list[str]] = {s: [] for s in hidden}
        for s in range(SEATS):
            receiver = (s + step) % SEATS
            if seen[s] and receiver in pinned and state["sent"][s] is not None:
                pinned[receiver].append(state["sent"][s])
        # sorted, so the world depends only on which cards are unseen, not where they are
        pool = sorted(
            (c for s in hidden for c in state["hands"][s] if c not in pinned[s]),
            key=cards.sort_key,
        )
        rng.shuffle(pool)
        for s in hidden:
            need = SEATS - len(pinned[s])
            hand = pinned[s] + pool[:need]
            pool = pool[need:]
            other["hands"][s] = sorted(hand, key=cards.sort_key)
            if state["marks"][s] is not None:
                other["marks"][s] = hand[rng.randrange(len(hand))]
            other["sent"][s] = other["received"][s] = None
        for s in range(SEATS):  # an open hand is seen, its mark is not (U14)
            if s != seat and seen[s] and state["marks"][s] is not None:
                hand = state["hands"][s]
                other["marks"][s] = hand[rng.randrange(len(hand))]
        other["rng"] = rng.randrange(1 << 62)
        return other

    # -- storage and results -------------------------------------------------------------
    def dump(self, state: State) -> dict[str, Any]:
        """Plain data: lists copied so the dump never aliases the live state."""
        data = dict(state)
        data["options"] = {**state["options"], "open_hands": list(state["options"]["open_hands"])}
        data["cpu_seats"] = list(state.get("cpu_seats", ()))
        for key in ("penalties", "marks", "sent", "received", "taken", "tie_order"):
            data[key] = list(state[key])
        data["hands"] = [list(h) for h in state["hands"]]
        data["result"] = dict(state["result"]) if state["result"] else None
        return data

    def load(self, data: dict[str, Any]) -> State:
        """The state a dump came from."""
        return self.dump(data)

    def packable(self, state: State) -> State:
        """The state itself: plain data already (a save packs it at once)."""
        return state

    def copy(self, state: State) -> State:
        """An independent copy (cheap: a few short lists)."""
        return self.dump(state)

    def seat_count(self, state: State) -> int:
        """Always 4."""
        return SEATS

    def _match_over(self, state: State) -> bool:
        limit = PENALTY_LIMIT[state["options"]["length"]]
        return max(state["penalties"]) >= limit

    def outcome(self, state: State) -> dict[str, Any] | None:
        """U9: the seat at the limit is last; others by fewest penalties, ties shared."""
        if not self._match_over(state):
            return None
        penalties = state["penalties"]
        limit = PENALTY_LIMIT[state["options"]["length"]]
        loser = next(s for s in range(SEATS) if penalties[s] >= limit)
        places = [
            SEATS if s == loser else 1 + sum(p < penalties[s] for p in penalties)
            for s in range(SEATS)
        ]
        return {"places": places, "loser": loser, "penalties": list(penalties)}
