"""Possible worlds: re-deal every card a seat cannot see, keeping what it can infer.

Hidden places are other seats' hands, face-down trumps on the table, the discard (until
the opening lead, except for its owner) and the two spare talon cards (until then). What
public play lets anyone infer is kept:

- the Okie, and a declared Robai, stay with the recipient until they are seen played;
- a face-down card is a trump;
- a seat that showed a nontrump to a Meri trick holds no trump (but a Sun it may keep
  back, H10); a seat that showed another plain suit to a plain lead under Monchi is void
  of the led suit;
- the discard is a nontrump when one can be found for it.

The re-deal is randomised greedy filling, most constrained places first, retried a few
times; if the soft constraints (voids, the discard) cannot be met it drops them.
"""

from __future__ import annotations

from typing import Any

from server.games.hachinin_meri.cards import ORDERS, Order, sort_key

ATTEMPTS = 12
Place = tuple[str, int]  # ("hand", seat) | ("down", table index) | ("discard", 0) | ("talon", i)


class _SeatLimits:
    """What public play says a seat cannot hold."""

    __slots__ = ("void", "no_trump", "sun_ok")

    def __init__(self) -> None:
        self.void: set[str] = set()
        self.no_trump = False
        self.sun_ok = True


def redeal(state: dict[str, Any], viewer: int | None, rng: Any) -> None:
    """Re-deal, in place, every card `viewer` (None: a spectator) cannot see."""
    order = ORDERS[state["trump"]]
    contents = _hidden_places(state, viewer)
    limits = _limits(state, order)
    pinned = _pinned(state, viewer, contents)
    # sorted, so a re-deal depends only on which cards are unseen, never on where they are
    pool = sorted(
        (c for cards in contents.values() for c in cards if c not in pinned), key=sort_key
    )
    sizes = {p: len(cards) for p, cards in contents.items()}
    trumps = sum(1 for c in pool if order.is_trump(c))
    for strict in (True, False):
        allowed = {p: _allowed(state, order, p, pool, limits, strict) for p in sizes}
        for _ in range(ATTEMPTS if strict else 1):
            filled = _fill(sizes, pool, pinned, allowed, trumps, rng)
            if filled is not None:
                _write(state, filled)
                return
    raise AssertionError("a re-deal without soft constraints cannot fail")


def _hidden_places(state: dict[str, Any], viewer: int | None) -> dict[Place, list[str]]:
    places: dict[Place, list[str]] = {}
    for s, hand in enumerate(state["hands"]):
        if s != viewer and hand:
            places[("hand", s)] = list(hand)
    for i, (s, card, down) in enumerate(state["table"]):
        if down and s != viewer:
            places[("down", i)] = [card]
    if not state["dead_public"]:
        if state["discard"] is not None and viewer != state["recipient"]:
            places[("discard", 0)] = [state["discard"]]
        for i, card in enumerate(state["talon"]):
            places[("talon", i)] = [card]
    return places


def _pinned(
    state: dict[str, Any], viewer: int | None, contents: dict[Place, list[str]]
) -> dict[str, list[Place]]:
    """Hidden cards known to sit with the recipient, and where they may be."""
    recipient = state["recipient"]
    if recipient is None or recipient == viewer:
        return {}
    own = [("hand", recipient)] + [
        ("down", i) for i, (s, _, d) in enumerate(state["table"]) if d and s == recipient
    ]
    own = [p for p in own if p in contents]
    found: dict[str, list[Place]] = {}
    hidden = {c for cards in contents.values() for c in cards}
    if state["okie"] in hidden:
        found[state["okie"]] = own
    robai = ORDERS[state["trump"]].robai
    if state["declared"] and robai in hidden:
        found[robai] = own + [p for p in contents if p[0] == "discard"]
    return found


def _limits(state: dict[str, Any], order: Order) -> list[_SeatLimits]:
    limits = [_SeatLimits() for _ in state["hands"]]
    # (seats, cards, face-down positions, Monchi in force) for each trick of the deal so far
    tricks = []
    monchi = False
    for t in state["tricks"]:
        tricks.append((t["seats"], t["cards"], set(t["face_down"]), monchi))
        monchi = monchi or t["meri"]
    if state["table"]:
        table = state["table"]
        down = {i for i, e in enumerate(table) if e[2]}
        tricks.append(([e[0] for e in table], [e[1] for e in table], down, state["monchi"]))
    for seats, cards, down, monchi in tricks:
        meri = order.is_trump(cards[0])
        led = order.suit_of(cards[0])
        for i in range(1, len(cards)):
            if i in down or order.is_trump(cards[i]):
                continue
            seat_limits = limits[seats[i]]
            if meri:
                seat_limits.no_trump = True
            elif monchi and order.suit_of(cards[i]) != led:
                seat_limits.void.add(led)
    for s, seat_limits in enumerate(limits):
        seat_limits.sun_ok = not state["played_trump"][s]
    return limits


def _allows(order: Order, limit: _SeatLimits, card: str) -> bool:
    if order.is_trump(card):
        return not limit.no_trump or (limit.sun_ok and card == order.sun)
    return order.suit_of(card) not in limit.void


def _fill(
    sizes: dict[Place, int],
    pool: list[str],
    pinned: dict[str, list[Place]],
    allowed: dict[Place, set[str] | None],
    pool_trumps: int,
    rng: Any,
) -> dict[Place, list[str]] | None:
    """One randomised attempt; None when a place cannot be filled."""
    filled: dict[Place, list[str]] = {p: [] for p in sizes}
    room = dict(sizes)
    for card, where in pinned.items():
        slots = [p for p in where for _ in range(room[p])]
        open_down = sum(1 for p in sizes if p[0] == "down" and room[p])
        if pool_trumps < open_down:  # too few other trumps: this one must be face down
            slots = [p for p in slots if p[0] == "down"]
        place = slots[rng.randrange(len(slots))]
        filled[place].append(card)
        room[place] -= 1
    todo = sorted(
        (p for p in sizes if room[p]),
        key=lambda p: (p[0] != "down", len(allowed[p] or pool)),
    )
    rest = list(pool)
    rng.shuffle(rest)
    for place in todo:
        need = room[place]
        ok = allowed[place]
        taken = [c for c in rest if c in ok][:need] if ok is not None else rest[:need]
        if len(taken) < need:
            return None
        for card in taken:
            rest.remove(card)
        filled[place].extend(taken)
    return filled


def _allowed(
    state: dict[str, Any],
    order: Order,
    place: Place,
    pool: list[str],
    limits: list[_SeatLimits],
    strict: bool,
) -> set[str] | None:
    """The pool cards that may go to `place` (None: any of them)."""
    kind, key = place
    if kind == "down":
        limit = limits[state["table"][key][0]]
        return {c for c in pool if order.is_trump(c) and (not strict or _allows(order, limit, c))}
    if not strict or kind == "talon":
        return None
    if kind == "hand":
        limit = limits[key]
        if not limit.void and not limit.no_trump:
            return None
        return {c for c in pool if _allows(order, limit, c)}
    return {c for c in pool if not order.is_trump(c)}


def _write(state: dict[str, Any], filled: dict[Place, list[str]]) -> None:
    for (kind, key), cards in filled.items():
        if kind == "hand":
            state["hands"][key] = sorted(cards, key=sort_key)
        elif kind == "down":
            state["table"][key][1] = cards[0]
        elif kind == "discard":
            state["discard"] = cards[0]
        else:
            state["talon"][key] = cards[0]
