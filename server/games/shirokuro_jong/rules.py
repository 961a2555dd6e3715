"""The moves of Shirokuro Jong as transitions on a JongState (RULINGS section 6).

Each function here assumes its move was already checked against the legal moves and
mutates the state; `moves` lists those legal moves. Events are public facts only.
"""

from __future__ import annotations

from typing import Any

from server.games.rng import Rng
from server.games.shirokuro_jong.hands import (
    WinContext,
    best_score,
    insertions,
    is_shuntsu,
    waits,
)
from server.games.shirokuro_jong.state import UPS, JongState, rounds_total, tables

Event = dict[str, Any]
# S13: every claim window stays open at least this long (game ms), whoever may claim.
CLAIM_MIN_MS = 1000
PASS: dict[str, Any] = {"type": "pass"}


# -- dealing ---------------------------------------------------------------------------
def deal(state: JongState) -> list[Event]:
    """Shuffle and deal a round: Oya 8 cards, the rest 7, one Dora indicator, the pile."""
    rng = Rng(state.rng)
    cards = list(range(30))
    rng.shuffle(cards)
    n = state.seats
    # Seat 0 deals first and the Oya passes to the right (seat - 1) with each counted
    # round. It moves here rather than when a round ends, so the result screen still
    # names that round's Oya; a room saved with the next Oya already set deals the same.
    state.oya = (-state.round_no) % n
    # The Oya deals from themselves counterclockwise (seat - 1), one block per seat.
    for k in range(n):
        seat = (state.oya - k) % n
        size = 8 if k == 0 else 7
        state.hands[seat] = [cards.pop() * 2 + rng.randrange(2) for _ in range(size)]
    state.rng = rng.state
    state.dora = cards.pop()
    state.pile = cards
    state.melds = [[] for _ in range(n)]
    state.discards = [[] for _ in range(n)]
    state.draws = [0] * n
    state.called = False
    state.drawn = -1
    state.discarder = -1
    state.result = None
    state.revealed = []
    state.answers = [None] * n
    state.claim_opts = [[] for _ in range(n)]
    state.flips = [None] * n
    state.hand_no += 1
    state.round = state.round_no + 1  # a renchan repeat deals the same round again
    # S14: the Dora indicator is turned up after the rotation choices (at once without).
    rotation = state.options["rotation"]
    events: list[Event] = [
        {
            "type": "dealt",
            "round": state.round,
            "oya": state.oya,
            "dora": None if rotation else tables(state.options["deck"])[2][state.dora],
        }
    ]
    if rotation:
        state.phase = "rotate"
        state.pending = list(range(n))
    else:
        events += start_play(state)
    return events


def start_play(state: JongState) -> list[Event]:
    """The Oya's first turn: they count as having drawn (may Tsumo for Tenhou, or discard)."""
    state.phase = "discard"
    state.turn = state.oya
    state.can_tsumo = True
    state.pending = []
    return [{"type": "turn", "seat": state.oya}]


def choose_rotation(state: JongState, seat: int, flip: bool) -> list[Event]:
    """Record a secret rotation choice; when everyone has chosen, rotate and start play."""
    state.flips[seat] = flip
    state.pending.remove(seat)
    events: list[Event] = [{"type": "rotation_chosen", "seat": seat}]
    if not state.pending:
        for s in range(state.seats):
            if state.flips[s]:
                state.hands[s] = [h ^ 1 for h in state.hands[s]]
        dora = tables(state.options["deck"])[2][state.dora]
        events.append({"type": "dora", "dora": dora})
        events += start_play(state)
    return events


# -- the player's own turn ---------------------------------------------------------------
def draw(state: JongState, seat: int) -> list[Event]:
    """`seat` draws the top card of the pile; it waits in `drawn` to be inserted."""
    state.turn = seat
    state.drawn = state.pile.pop()
    state.draws[seat] += 1
    state.phase = "insert"
    state.can_tsumo = False
    return [{"type": "drew", "seat": seat, "pile": len(state.pile)}]


def insert(state: JongState, seat: int, index: int, up: str) -> list[Event]:
    """Insert the drawn card at `index`, `up` upright; Tsumo or a discard comes next."""
    state.hands[seat].insert(index, state.drawn * 2 + UPS.index(up))
    state.drawn = -1
    state.phase = "discard"
    state.can_tsumo = True
    return [{"type": "inserted", "seat": seat}]


def discard(state: JongState, seat: int, index: int, now: int) -> list[Event]:
    """Discard a card and open the claim window for every other seat (RULINGS S12).

    S13: the server answers "pass" at once for every seat with no legal claim; the
    window lasts at least CLAIM_MIN_MS, then ends once every other seat has answered,
    or at the claim timeout.
    """
    card = state.hands[seat].pop(index) >> 1
    state.discards[seat].append(card)
    state.discarder = seat
    state.can_tsumo = False
    state.phase = "claim"
    state.pending = [s for s in range(state.seats) if s != seat]
    state.answers = [None] * state.seats
    refresh_claims(state)
    timeout = state.options["claim_timeout_ms"]
    state.deadline = now + timeout if timeout else None
    state.claim_min = now + CLAIM_MIN_MS
    text = tables(state.options["deck"])[2][card]
    return [{"type": "discarded", "seat": seat, "card": text, "pile": len(state.pile)}]


def claim_due(state: JongState) -> int | None:
    """When the open claim window next needs the clock: its minimum once every seat has
    answered, else the claim timeout (None: no window, or waiting with no timeout)."""
    if state.phase != "claim":
        return None
    if not state.pending:
        return state.claim_min
    return state.deadline


# -- claims ------------------------------------------------------------------------------
def refresh_claims(state: JongState) -> None:
    """Compute the claim options of every seat still to answer in the window; the
    server answers "pass" for a seat with no legal claim (S13)."""
    state.claim_opts = [
        claim_options(state, s) if s in state.pending else [] for s in range(state.seats)
    ]
    for s in list(state.pending):
        if state.claim_opts[s] == [PASS]:
            state.answers[s] = dict(PASS)
            state.pending.remove(s)
            state.claim_opts[s] = []


def claim_options(state: JongState, seat: int) -> list[dict[str, Any]]:
    """Pass, Ron, Pon and Chii moves of `seat` on the current discard (RULINGS 9, S4, S5)."""
    opts: list[dict[str, Any]] = [{"type": "pass"}]
    card = state.discards[state.discarder][-1]
    vals = state.values()
    faces = (vals[card * 2], vals[card * 2 + 1])
    if ron_score(state, seat) is not None:
        opts.append({"type": "ron"})
    if not state.pile:
        return opts  # the final discard: only Ron (Houtei)
    hand = state.hand_values(seat)
    is_next = seat == state.next_seat(state.discarder)
    for i in range(len(hand) - 1):
        a, b = hand[i], hand[i + 1]
        if a == b and a in faces:
            opts.append({"type": "pon", "index": i})
        elif is_next and a // 6 == b // 6 and _chii_face(a, b, faces) is not None:
            opts.append({"type": "chii", "index": i})
    return opts


def _chii_face(a: int, b: int, faces: tuple[int, int]) -> int | None:
    """The discard's value that makes a Shuntsu with adjacent values a, b, if any."""
    for v in faces:
        lo, mid, hi = sorted((a, b, v))
        if is_shuntsu(lo, mid, hi):
            return v
    return None


def answer(state: JongState, seat: int, action: dict[str, Any], now: int) -> list[Event]:
    """Record a seat's claim answer; settle the window once every seat has answered and
    its uniform minimum has passed (else `claim_due` wakes it then)."""
    state.answers[seat] = action
    state.pending.remove(seat)
    return settle(state) if not state.pending and now >= state.claim_min else []


def settle(state: JongState) -> list[Event]:
    """Settle a claim window by priority: every Ron, else the nearest Pon, else Chii."""
    n, d = state.seats, state.discarder
    order = [(d - k) % n for k in range(1, n)]
    state.deadline = None
    state.pending = []
    answers = {s: state.answers[s] or {"type": "pass"} for s in order}
    state.answers = [None] * n
    state.claim_opts = [[] for _ in range(n)]
    rons = [s for s in order if answers[s]["type"] == "ron"]
    if rons:
        return win(state, rons, tsumo=False)
    for kind in ("pon", "chii"):
        for s in order:
            if answers[s]["type"] == kind:
                return call(state, s, kind, answers[s]["index"])
    if not state.pile:
        return drawn_round(state)
    return draw(state, state.next_seat(d))


def call(state: JongState, seat: int, kind: str, index: int) -> list[Event]:
    """Pon or Chii: expose the pair and the discard, then discard without drawing."""
    card = state.discards[state.discarder].pop()
    vals = state.values()
    hand = state.hands[seat]
    pair = hand[index : index + 2]
    del hand[index : index + 2]
    a, b = vals[pair[0]], vals[pair[1]]
    faces = (vals[card * 2], vals[card * 2 + 1])
    face = a if kind == "pon" else _chii_face(a, b, faces)
    taken = card * 2 + faces.index(face)  # type: ignore[arg-type]
    meld = sorted([*pair, taken], key=lambda h: vals[h])
    state.melds[seat].append(meld)
    state.called = True
    state.turn = seat
    state.phase = "discard"
    state.can_tsumo = False
    held = tables(state.options["deck"])[1]
    return [{"type": kind, "seat": seat, "from": state.discarder, "meld": [held[h] for h in meld]}]


# -- winning and scoring ----------------------------------------------------------------
def _context(state: JongState, seat: int, tsumo: bool) -> WinContext:
    """The facts about a win by `seat` now that are not in the hand's shape."""
    dora = state.dora
    vals = state.values()
    if state.options["dora"] == "either_number":
        numbers = {vals[dora * 2] % 6, vals[dora * 2 + 1] % 6}
        dora_values = frozenset(v for v in range(12) if v % 6 in numbers)
    else:
        dora_values = frozenset((vals[dora * 2], vals[dora * 2 + 1]))
    oya = seat == state.oya
    clean = not state.called  # RULINGS S8: any call cancels Tenhou, Chiihou and Renhou
    return WinContext(
        oya=oya,
        tsumo=tsumo,
        dora=dora_values,
        haitei=tsumo and not state.pile,
        houtei=not tsumo and not state.pile,
        tenhou=tsumo and oya and clean and state.draws[seat] == 0,
        chiihou=tsumo and not oya and clean and state.draws[seat] == 1,
        renhou=not tsumo and not oya and clean and state.draws[seat] == 0,
        literal=state.options["yaku_reading"] == "literal",
    )


def tsumo_score(state: JongState, seat: int) -> tuple[int, list[tuple[str, int]]] | None:
    """Best (points, yaku) if `seat` may declare Tsumo with its hand as it stands."""
    return best_score(
        state.hand_values(seat),
        state.exposed(seat),
        state.exposed_values(seat),
        _context(state, seat, True),
        state.options["min_yaku"],
    )


def ron_score(state: JongState, seat: int) -> tuple[int, list[tuple[str, int]], int, int] | None:
    """Best (points, yaku, position, held int) for `seat` taking the discard by Ron."""
    card = state.discards[state.discarder][-1]
    vals = state.values()
    hand = state.hand_values(seat)
    exposed, exposed_values = state.exposed(seat), state.exposed_values(seat)
    ctx = _context(state, seat, False)
    best = None
    for up in (0, 1):
        for pos, trial in insertions(hand, vals[card * 2 + up]):
            found = best_score(trial, exposed, exposed_values, ctx, state.options["min_yaku"])
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], pos, card * 2 + up)
    return best


def win(state: JongState, seats: list[int], tsumo: bool) -> list[Event]:
    """Tsumo by one seat or Ron by one or more: score each winner and end the round."""
    held = tables(state.options["deck"])[1]
    winners = []
    deltas = [0] * state.seats
    for seat in seats:
        if tsumo:
            points, found = tsumo_score(state, seat)  # type: ignore[misc]
            hand = state.hands[seat]
        else:
            points, found, pos, taken = ron_score(state, seat)  # type: ignore[misc]
            hand = [*state.hands[seat][:pos], taken, *state.hands[seat][pos:]]
        winners.append(
            {
                "seat": seat,
                "by": "tsumo" if tsumo else "ron",
                "hand": [held[h] for h in hand],
                "melds": [[held[h] for h in m] for m in state.melds[seat]],
                "yaku": [[name, p] for name, p in found],
                "points": points,
            }
        )
        deltas[seat] += points
        if state.options["payments"]:
            payers = [s for s in range(state.seats) if s != seat] if tsumo else [state.discarder]
            for s in payers:
                deltas[s] -= points
    if not tsumo:
        state.discards[state.discarder].pop()
    result = {"kind": "win", "from": -1 if tsumo else state.discarder, "winners": winners}
    renchan = state.options["renchan"] and state.oya in seats
    return end_round(state, result, deltas, seats, renchan)


def drawn_round(state: JongState) -> list[Event]:
    """The pile ran out with no Ron: every tenpai seat gains 1 and shows its hand."""
    held = tables(state.options["deck"])[1]
    tenpai = [s for s in range(state.seats) if waits(state.hand_values(s), state.exposed(s))]
    deltas = [1 if s in tenpai else 0 for s in range(state.seats)]
    result = {
        "kind": "drawn",
        "tenpai": [
            {
                "seat": s,
                "hand": [held[h] for h in state.hands[s]],
                "melds": [[held[h] for h in m] for m in state.melds[s]],
            }
            for s in tenpai
        ],
    }
    return end_round(state, result, deltas, tenpai, renchan=False)


def end_round(
    state: JongState,
    result: dict[str, Any],
    deltas: list[int],
    revealed: list[int],
    renchan: bool,
) -> list[Event]:
    """Add the round's points, reveal hands, and move on to the next round or the end."""
    for s, d in enumerate(deltas):
        state.scores[s] += d
    result["deltas"] = deltas
    state.result = result
    state.revealed = sorted(revealed)
    state.deadline = None
    state.drawn = -1
    if not renchan:
        state.round_no += 1  # the next deal passes the Oya on
    events: list[Event] = [{"type": "round_over", "result": result, "scores": list(state.scores)}]
    if state.round_no >= rounds_total(state.seats):
        state.phase = "match_over"
        state.pending = []
        events.append({"type": "match_over", "scores": list(state.scores)})
    else:
        state.phase = "round_over"
        state.pending = list(range(state.seats))
    return events


def ready(state: JongState, seat: int) -> list[Event]:
    """A seat is ready for the next round; the deal happens once every seat is."""
    state.pending.remove(seat)
    return deal(state) if not state.pending else []


# -- legal moves -------------------------------------------------------------------------
def moves(state: JongState, seat: int) -> list[dict[str, Any]]:
    """The moves `seat` may make now."""
    phase = state.phase
    if phase == "claim" or phase == "rotate" or phase == "round_over":
        if seat not in state.pending:
            return []
        if phase == "claim":
            return list(state.claim_opts[seat])
        if phase == "rotate":
            return [{"type": "rotate", "flip": False}, {"type": "rotate", "flip": True}]
        return [{"type": "next"}]
    if seat != state.turn:
        return []
    if phase == "insert":
        return [
            {"type": "insert", "index": i, "up": up}
            for i in range(len(state.hands[seat]) + 1)
            for up in UPS
        ]
    if phase == "discard":
        found = [{"type": "discard", "index": i} for i in range(len(state.hands[seat]))]
        if state.can_tsumo and tsumo_score(state, seat) is not None:
            found.append({"type": "tsumo"})
        return found
    return []
