"""What each seat may see of an Usunoro match: whole views, the patches that follow
marks, unmarks and exchanges, and when a seat's legal moves stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.games.contract import Action, Event, View
from server.games.usunoro.rules import (
    DONE,
    EXCHANGE_CAP,
    PASSING,
    PENALTY_LIMIT,
    SEATS,
    TIMING,
    TOKENS,
    VOID,
    State,
    deadline,
)

# Moves, and the events they cause, that views follow as patches (see `view_patches`).
_MARKING_MOVES = frozenset({"mark", "unmark"})
_MARKING = frozenset({"marked", "unmarked", "exchange", "hand_shown"})

# TIMING as nested tuples, so every view can build its own copy cheaply.
_TIMING_ITEMS = tuple((d, tuple((k, tuple(w)) for k, w in t.items())) for d, t in TIMING.items())


def visible_hands(state: State, seat: int | None) -> list[bool]:
    """Which seats' hands `seat` sees: its own, open hands, all at round end.

    Marks are another matter: a seat sees only its own, open hands or not (U14)."""
    if state["phase"] in (DONE, VOID):
        return [True] * SEATS
    open_hands = state["options"]["open_hands"]
    return [s == seat or s in open_hands for s in range(SEATS)]


def view(state: State, seat: int | None) -> View:
    """Per "Hidden information": own cards and mark, public table, open hands (not
    their marks, U14).

    Rule timers a player sees as countdowns (U13), in game ms: `mark_deadline` (the
    marking timeout, U2), `idle_deadline` (the idle void, U7) and `void_at` (the race
    void, U6); None while not running.
    """
    return _seat_view(state, seat, _public_view(state))


def views(state: State, seats: Sequence[int | None]) -> dict[int | None, View]:
    """Every seat's `view`, the public table built once and shared by them all."""
    public = _public_view(state)
    return {seat: _seat_view(state, seat, public) for seat in seats}


def view_patches(
    state: State,
    seats: Sequence[int | None],
    moves: Sequence[tuple[int, Action]],
    events: Sequence[Event],
) -> dict[int | None, View] | None:
    """Patches after marks and unmarks, and the exchanges they run: nearly every
    move of a round.

    Those change the marks and the timers, and an exchange the hands and what was
    passed; the rest of the view (the scores, the race, the timing table) stays. A
    grab, a new round or a void sends whole views.
    """
    if state["phase"] != PASSING:
        return None
    exchanged = False
    for event in events:  # loops, not all(...): this runs for nearly every move
        kind = event["type"]
        if kind not in _MARKING:
            return None
        exchanged = exchanged or kind == "exchange"
    for _, action in moves:
        if action.get("type") not in _MARKING_MOVES:
            return None
    marks, options = state["marks"], state["options"]
    open_hands = options["open_hands"]
    # Nobody sees another seat's mark, not even an open hand's (U14); each seat adds
    # its own to a copy.
    public_marks = [None] * SEATS
    idle_ms = options["idle_void_ms"]
    shared: View = {
        "marked": [m is not None for m in marks],
        "deadline": deadline(state),
        "idle_deadline": state["active_at"] + idle_ms if idle_ms else None,
    }
    if exchanged:
        # Every hand is new: copied once and shared by the patches, as in views.
        hands = [list(h) for h in state["hands"]]
        public_hands: list[list[str] | None] = [None] * SEATS
        for s in open_hands:
            public_hands[s] = hands[s]
        mark_ms = options["mark_timeout_ms"]
        shared["exchanges"] = state["exchanges"]
        shared["hand_seq"] = state["hand_seq"]
        shared["mark_deadline"] = state["hand_at"] + mark_ms if mark_ms else None
    patches: dict[int | None, View] = {}
    for seat in seats:
        patch = shared.copy()
        if seat is None or not 0 <= seat < SEATS:
            patch["marks"] = public_marks
            if exchanged:
                patch["hands"] = public_hands
            patches[seat] = patch
            continue
        patch["marks"] = seat_marks = public_marks.copy()
        seat_marks[seat] = patch["mark"] = marks[seat]
        if exchanged:
            patch["hands"] = seat_hands = public_hands.copy()
            seat_hands[seat] = patch["hand"] = hands[seat]
            patch["last_sent"] = state["sent"][seat]
            patch["last_received"] = state["received"][seat]
        patches[seat] = patch
    return patches


def actions_kept(
    state: State,
    seat: int,
    moves: Sequence[tuple[int, Action]],
    events: Sequence[Event],
) -> bool:
    """While passing, a seat's legal moves follow its own hand and mark: another
    seat's mark or unmark leaves them as they were; an exchange (new hands, marks
    cleared) or anything else does not."""
    if state["phase"] != PASSING:
        return False
    for event in events:
        if event["type"] == "exchange" or event["type"] not in _MARKING:
            return False
    for mover, action in moves:
        if mover == seat or action.get("type") not in _MARKING_MOVES:
            return False
    return True


def _public_view(state: State) -> tuple[View, list[list[str]]]:
    """What every seat's view shares: a template holding every field (the seat's
    own ones empty) and a copy of each hand, built once per publish.

    Views are built for every move, so `visible_hands` and the engine's `_match_over`
    are inlined here, and the seats' views share these copies (nothing changes a sent
    view).
    """
    options = state["options"]
    limit = PENALTY_LIMIT[options["length"]]
    penalties = state["penalties"]
    mark_deadline = idle_deadline = None
    if state["phase"] == PASSING:
        if options["mark_timeout_ms"]:
            mark_deadline = state["hand_at"] + options["mark_timeout_ms"]
        if options["idle_void_ms"]:
            idle_deadline = state["active_at"] + options["idle_void_ms"]
    template = {
        "seat": None,
        "round": state["round"],
        "phase": state["phase"],
        "direction": options["direction"],
        "length": options["length"],
        "hand": None,
        "mark": None,
        "last_sent": None,
        "last_received": None,
        "hands": None,
        "marks": None,
        "marked": [m is not None for m in state["marks"]],
        "open_hands": list(options["open_hands"]),
        "tokens_left": TOKENS - len(state["taken"]),
        "taken": list(state["taken"]),
        "penalties": list(penalties),
        "penalty_limit": limit,
        "exchanges": state["exchanges"],
        "exchange_cap": EXCHANGE_CAP,
        "hand_seq": state["hand_seq"],
        "tie_order": list(state["tie_order"]),
        "void_at": state["void_at"],
        "deadline": deadline(state),
        "mark_deadline": mark_deadline,
        "idle_deadline": idle_deadline,
        "result": dict(state["result"]) if state["result"] else None,
        "match_over": max(penalties) >= limit,
        "timing": {d: {k: [*w] for k, w in t} for d, t in _TIMING_ITEMS},
    }
    return template, [list(h) for h in state["hands"]]


def _seat_view(state: State, seat: int | None, public: tuple[View, list[list[str]]]) -> View:
    """`seat`'s view: its own cards and mark, the hands it sees, and `public`."""
    template, hands = public
    marks = state["marks"]
    view = template.copy()
    if state["phase"] in (DONE, VOID):
        view["hands"] = hands
        view["marks"] = list(marks)
    else:
        open_hands = state["options"]["open_hands"]
        view["hands"] = [h if s == seat or s in open_hands else None for s, h in enumerate(hands)]
        # An open hand is public, its mark is not (U14).
        view["marks"] = [m if s == seat else None for s, m in enumerate(marks)]
    if seat is not None and 0 <= seat < SEATS:
        view["seat"] = seat
        view["hand"] = hands[seat]
        view["mark"] = marks[seat]
        view["last_sent"] = state["sent"][seat]
        view["last_received"] = state["received"][seat]
    return view
