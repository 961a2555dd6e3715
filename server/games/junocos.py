"""Junocos: an open-card draft, then must-follow trick taking with an UNO deck (Hagizou).

Rules: shared/rules/004_11b36e68d79a0d5a.txt as settled by RULINGS.md section 4.

Card text form: colour letter then value, one short string per card, in views and moves
alike. Colours are ``R`` red, ``Y`` yellow, ``G`` green, ``B`` blue; values are the digits
``0``-``7`` or ``S`` for a Skip: ``"R5"``, ``"B0"``, ``"GS"``. Equal cards (the 4-player
1-6s, the 3-player 7s) share a text form; which copy moves makes no difference.

Moves:
- ``{"type": "pick", "card": "R5"}`` takes a card from the face-up row during the draft.
- ``{"type": "play", "card": "R5", "from": "hand"}`` (or ``"from": "open"``) plays a card.

A round runs draft -> 12 tricks -> scoring, and the next round is dealt at once; the view
keeps the finished rounds in ``"history"`` and the last trick in ``"last_trick"``.

>>> suit_of("B3", "R3", printed=False), suit_of("B3", "R3", printed=True)
('T', 'B')
>>> [card_class(c, "R3") for c in ("R3", "B3", "R5", "RS", "G5")]
['super', 'trump_number', 'trump_suit', 'trump_suit', 'plain']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.contract import Action, Event, Game, IllegalAction, Option, View
from server.games.junocos_helpers import helpers as junocos_helpers
from server.games.rng import Rng

COLOURS = "RYGB"
TRUMP = "T"
HAND_SIZE = 9
OPEN_CARDS = 4
TRICKS = 12
ROW_SIZE = {3: 13, 4: 17}
ZERO_TRICK_POINTS = 10
EXACT_BONUS = 5


def deck(seats: int) -> list[str]:
    """The cards used with `seats` players (J1): 40 for three, 56 for four.

    >>> len(deck(3)), len(deck(4)), deck(3).count("R7"), deck(4).count("R3")
    (40, 56, 2, 2)
    """
    if seats == 3:
        values = ["0", "1", "2", "3", "4", "5", "6", "7", "7", "S"]
    else:
        values = ["0", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6", "S"]
    return [c + v for c in COLOURS for v in values]


def sort_key(card: str) -> tuple[int, int]:
    """Colour order R, Y, G, B; numbers up, the Skip last."""
    return COLOURS.index(card[0]), 9 if card[1] == "S" else int(card[1])


def card_class(card: str, trump: str) -> str:
    """'super', 'trump_number', 'trump_suit' or 'plain' for the indicator `trump` (spec 8)."""
    if card[1] == trump[1]:  # a Skip is never the indicator (J4), so never matches here
        return "super" if card[0] == trump[0] else "trump_number"
    return "trump_suit" if card[0] == trump[0] else "plain"


def suit_of(card: str, trump: str, printed: bool) -> str:
    """The effective suit: TRUMP for every trump card (J3), else the printed colour.

    With `printed` (the J3 alternative option) a trump-number card keeps its colour.
    """
    if card[0] == trump[0] or (card[1] == trump[1] and not printed):
        return TRUMP
    return card[0]


def strength(card: str, trump: str, led: str) -> int:
    """Trick strength (spec 12): higher wins, equal strength goes to the later card.

    >>> [strength(c, "R3", "G") for c in ("R3", "B3", "R7", "RS", "G6", "GS", "B6")]
    [100, 90, 57, 49, 26, 19, 0]
    """
    value = -1 if card[1] == "S" else int(card[1])
    if card[1] == trump[1]:
        return 100 if card[0] == trump[0] else 90
    if card[0] == trump[0]:
        return 50 + value
    if card[0] == led:
        return 20 + value
    return 0


def round_points(won: int, declaration: str, zero_stacks: bool) -> int:
    """Points for one round (spec 14, J6): W or 10 for none, +5 when W equals the declaration.

    >>> round_points(3, "B3", True), round_points(0, "R0", True), round_points(0, "R0", False)
    (8, 15, 10)
    """
    base = ZERO_TRICK_POINTS if won == 0 else won
    if won == 0 and not zero_stacks:
        return base
    return base + (EXACT_BONUS if won == int(declaration[1]) else 0)


def places(totals: list[int]) -> list[int]:
    """1 for the highest total; ties share the place (J7)."""
    return [1 + sum(t > mine for t in totals) for mine in totals]


class Junocos(Game):
    """The Junocos rules engine; the state is a plain dict (see `new`)."""

    id = "junocos"
    title = "Junocos"
    min_seats = 3
    max_seats = 4
    options = (
        Option(
            "trump_number_suit",
            "trump",
            ("trump", "printed"),
            "J3: trump-number cards belong to the trump suit, or follow their printed colour",
        ),
        Option(
            "zero_trick_bonus",
            "stack",
            ("stack", "replace"),
            "J6: zero tricks (10) also takes the +5 exact bonus, or the 10 replaces it",
        ),
    )

    # -- setup -----------------------------------------------------------------------
    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> dict[str, Any]:
        """A fresh match; round 0 is dealt with seat 0 holding the start marker.

        Unknown options and values outside an option's choices are refused (`bad_option`).
        """
        if seats not in ROW_SIZE:
            raise IllegalAction("bad_seats", "Junocos is for 3 or 4 players")
        resolved = self.resolve_options(options)
        self.check_options(resolved, seats, cpu_seats)
        state: dict[str, Any] = {
            "seats": seats,
            "options": resolved,
            "rng": Rng.from_seed(seed).state,
            "round": 0,
            "rounds": 2 * seats,
            "scores": [0] * seats,
            "history": [],
            "last_trick": None,
        }
        self._deal(state)
        return state

    def _deal(self, state: dict[str, Any]) -> None:
        """Deal the round in `state["round"]`: face-up row without Skips, hands, leftovers."""
        seats = state["seats"]
        rng = Rng(state["rng"])
        cards = deck(seats)
        rng.shuffle(cards)
        row: list[str] = []
        skips: list[str] = []
        rest_from = len(cards)
        for i, card in enumerate(cards):
            if len(row) == ROW_SIZE[seats]:
                rest_from = i
                break
            (skips if card[1] == "S" else row).append(card)
        rest = cards[rest_from:] + skips
        rng.shuffle(rest)  # the set-aside Skips go back and the undealt cards are mixed
        start = state["round"] % seats
        state.update(
            rng=rng.state,
            phase="draft",
            start=start,
            turn=start,
            row=row,
            picks=[],
            hands=[
                sorted(rest[s * HAND_SIZE : (s + 1) * HAND_SIZE], key=sort_key)
                for s in range(seats)
            ],
            leftover=sorted(rest[seats * HAND_SIZE :], key=sort_key),
            open=[[] for _ in range(seats)],
            trump=None,
            leader=start,
            trick=[],
            tricks=[],
            won=[0] * seats,
        )

    # -- queries ---------------------------------------------------------------------
    def _printed(self, state: dict[str, Any]) -> bool:
        return state["options"].get("trump_number_suit") == "printed"

    def playable(self, state: dict[str, Any], seat: int) -> list[tuple[str, str]]:
        """(card, source) pairs `seat` may play now, must-follow applied (spec 10, 11)."""
        hand = state["hands"][seat]
        opens = state["open"][seat]
        cards = [(c, "hand") for c in hand]
        if len(opens) > 1:  # the last open card is the declaration and never played
            cards += [(c, "open") for c in opens]
        if state["trick"]:
            trump, printed = state["trump"], self._printed(state)
            led = suit_of(state["trick"][0][1], trump, printed)
            follow = [p for p in cards if suit_of(p[0], trump, printed) == led]
            if follow:
                cards = follow
        return sorted(set(cards), key=lambda p: (p[1], sort_key(p[0])))

    def actions(self, state: dict[str, Any], seat: int) -> list[Action]:
        """The moves `seat` may make now: picks in the draft, plays in the trick phase."""
        if state["phase"] == "over" or seat != state["turn"]:
            return []
        if state["phase"] == "draft":
            return [{"type": "pick", "card": c} for c in sorted(set(state["row"]), key=sort_key)]
        return [{"type": "play", "card": c, "from": src} for c, src in self.playable(state, seat)]

    # -- moves -----------------------------------------------------------------------
    def apply(self, state: dict[str, Any], seat: int, action: Action, now: int) -> list[Event]:
        """Check the move first, then apply it; a refused move changes nothing."""
        self._check(state, seat, action)
        if action["type"] == "pick":
            return self._pick(state, seat, action["card"])
        return self._play(state, seat, action["card"], action["from"])

    def _check(self, state: dict[str, Any], seat: int, action: Any) -> None:
        if state["phase"] == "over":
            raise IllegalAction("game_over", "the match is over")
        if not isinstance(action, dict) or action.get("type") not in ("pick", "play"):
            raise IllegalAction("bad_action", "a move is a pick or a play")
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn", "it is not your turn")
        kind = action["type"]
        if kind != ("pick" if state["phase"] == "draft" else "play"):
            raise IllegalAction("wrong_phase", f"no {kind} now")
        card = action.get("card")
        if kind == "pick":
            if set(action) != {"type", "card"} or not isinstance(card, str):
                raise IllegalAction("bad_action", "a pick names one card")
            if card not in state["row"]:
                raise IllegalAction("not_in_row", "that card is not in the face-up row")
            return
        source = action.get("from")
        if set(action) != {"type", "card", "from"} or not isinstance(card, str):
            raise IllegalAction("bad_action", "a play names one card and where it comes from")
        if source not in ("hand", "open"):
            raise IllegalAction("bad_action", 'a card comes "from" "hand" or "open"')
        if card not in state["hands" if source == "hand" else "open"][seat]:
            raise IllegalAction("not_held", f"you have no such card in your {source}")
        if source == "open" and len(state["open"][seat]) == 1:
            raise IllegalAction("declaration", "your last open card can never be played")
        if (card, source) not in self.playable(state, seat):
            raise IllegalAction("must_follow", "you must follow the led suit")

    def _pick(self, state: dict[str, Any], seat: int, card: str) -> list[Event]:
        state["row"].remove(card)
        state["open"][seat].append(card)
        state["picks"].append([seat, card])
        events: list[Event] = [{"type": "pick", "seat": seat, "card": card}]
        if len(state["row"]) == 1:
            state["trump"] = state["row"].pop()
            state["phase"] = "play"
            state["turn"] = state["leader"] = state["start"]
            events.append({"type": "trump", "card": state["trump"]})
        else:
            state["turn"] = (seat + 1) % state["seats"]
        return events

    def _play(self, state: dict[str, Any], seat: int, card: str, source: str) -> list[Event]:
        state["hands" if source == "hand" else "open"][seat].remove(card)
        state["trick"].append([seat, card, source])
        events: list[Event] = [{"type": "play", "seat": seat, "card": card, "from": source}]
        seats = state["seats"]
        if len(state["trick"]) < seats:
            state["turn"] = (seat + 1) % seats
            return events
        winner = trick_winner(state["trick"], state["trump"], self._printed(state))
        state["won"][winner] += 1
        done = {"leader": state["leader"], "cards": state["trick"], "winner": winner}
        state["tricks"].append(done)
        state["last_trick"] = done
        state["trick"] = []
        state["turn"] = state["leader"] = winner
        events.append({"type": "trick", "winner": winner, "count": len(state["tricks"])})
        if len(state["tricks"]) == TRICKS:
            events.append(self._end_round(state))
        return events

    def _end_round(self, state: dict[str, Any]) -> Event:
        """Score the round, then deal the next one or end the match."""
        stacks = state["options"].get("zero_trick_bonus") != "replace"
        declarations = [opens[0] for opens in state["open"]]
        points = [
            round_points(w, d, stacks) for w, d in zip(state["won"], declarations, strict=True)
        ]
        state["scores"] = [a + b for a, b in zip(state["scores"], points, strict=True)]
        summary = {
            "round": state["round"],
            "start": state["start"],
            "trump": state["trump"],
            "won": list(state["won"]),
            "declarations": declarations,
            "points": points,
            "scores": list(state["scores"]),
        }
        state["history"].append(summary)
        state["round"] += 1
        if state["round"] == state["rounds"]:
            state.update(phase="over", turn=-1)
        else:
            self._deal(state)
        return {"type": "round_end", **summary}

    # -- views and worlds ----------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: int | None) -> View:
        """Everything public plus `seat`'s own hand; opponents' hands only as sizes."""
        own = seat is not None and 0 <= seat < state["seats"]
        return {
            "seat": seat,
            "seats": state["seats"],
            "options": dict(state["options"]),
            "round": state["round"],
            "rounds": state["rounds"],
            "phase": state["phase"],
            "start": state["start"],
            "turn": state["turn"],
            "leader": state["leader"],
            "row": list(state["row"]),
            "picks": [list(p) for p in state["picks"]],
            "leftover": list(state["leftover"]),
            "trump": state["trump"],
            "open": [list(o) for o in state["open"]],
            "hand": list(state["hands"][seat]) if own else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "trick": [list(p) for p in state["trick"]],
            "tricks": [_copy_trick(t) for t in state["tricks"]],
            "last_trick": _copy_trick(state["last_trick"]) if state["last_trick"] else None,
            "won": list(state["won"]),
            "scores": list(state["scores"]),
            "history": [dict(h) for h in state["history"]],
        }

    def voids(self, state: dict[str, Any]) -> list[set[str]]:
        """Effective suits each seat has shown it lacks in hand this round (failed to follow)."""
        trump, printed = state["trump"], self._printed(state)
        out: list[set[str]] = [set() for _ in range(state["seats"])]
        for cards in [t["cards"] for t in state["tricks"]] + [state["trick"]]:
            if not cards:
                continue
            led = suit_of(cards[0][1], trump, printed)
            for s, card, _ in cards[1:]:
                if suit_of(card, trump, printed) != led:
                    out[s].add(led)
        return out

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """Tricks taken against the seat's target, from its view (junocos_helpers.py)."""
        return junocos_helpers(view)

    def shuffle_unseen(self, state: dict[str, Any], seat: int | None, rng: Any) -> Any:
        """Re-deal the hands `seat` cannot see, keeping sizes and shown voids.

        The world depends on the view and `rng` only: the unseen cards are pooled in card
        order, not in the hidden hands' order, and the generator for future rounds is
        re-seeded from `rng`, so a sampled world does not carry the real order of later
        deals either.
        """
        other = self.copy(state)
        hidden = [s for s in range(state["seats"]) if s != seat]
        pool = sorted((c for s in hidden for c in state["hands"][s]), key=sort_key)
        sizes = {s: len(state["hands"][s]) for s in hidden}
        voids = self.voids(state)
        trump, printed = state["trump"], self._printed(state)
        dealt = deal_constrained(
            pool, sizes, {s: voids[s] for s in hidden}, lambda c: suit_of(c, trump, printed), rng
        )
        for s in hidden:
            other["hands"][s] = sorted(dealt[s], key=sort_key)
        other["rng"] = (int(rng.random() * (1 << 53)) << 11) ^ int(rng.random() * (1 << 53))
        return other

    # -- storage ---------------------------------------------------------------------
    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        """Plain data; the state already is, so this is a copy."""
        return self.copy(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        """The state from `dump`."""
        return self.copy(data)

    def copy(self, state: dict[str, Any]) -> dict[str, Any]:
        """A fast independent copy.

        Finished tricks and round summaries are never changed once written, so the copy
        shares them; everything that changes is copied.
        """
        return {
            **state,
            "options": dict(state["options"]),
            "scores": list(state["scores"]),
            "history": list(state["history"]),
            "row": list(state["row"]),
            "picks": list(state["picks"]),
            "hands": [list(h) for h in state["hands"]],
            "leftover": list(state["leftover"]),
            "open": [list(o) for o in state["open"]],
            "trick": list(state["trick"]),
            "tricks": list(state["tricks"]),
            "won": list(state["won"]),
        }

    def outcome(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """Totals and places once every round is played (ties share the place, J7)."""
        if state["phase"] != "over":
            return None
        totals = list(state["scores"])
        return {"scores": totals, "places": places(totals)}

    def seat_count(self, state: dict[str, Any]) -> int:
        """Number of seats in this match."""
        return int(state["seats"])


def trick_winner(cards: list[list[Any]], trump: str, printed: bool) -> int:
    """The seat winning a full trick of [seat, card, source]; the later of equals wins."""
    led = suit_of(cards[0][1], trump, printed)
    best_seat, best = cards[0][0], -1
    for seat, card, _ in cards:
        power = strength(card, trump, led)
        if power >= best:
            best_seat, best = seat, power
    return best_seat


def deal_constrained(
    pool: list[str],
    sizes: dict[int, int],
    voids: dict[int, set[str]],
    suit: Any,
    rng: Any,
) -> dict[int, list[str]]:
    """Deal `pool` into hands of `sizes` at random, never giving a seat a suit it lacks.

    Each card goes to a seat drawn in proportion to its free places among those that keep
    the rest dealable (Hall's condition over the few seat subsets), so it never gets stuck.
    """
    cards = list(pool)
    rng.shuffle(cards)
    seats = list(sizes)
    hands: dict[int, list[str]] = {s: [] for s in seats}
    if not any(voids[s] for s in seats):
        for s in seats:
            hands[s], cards = cards[: sizes[s]], cards[sizes[s] :]
        return hands
    free = [sizes[s] for s in seats]
    # cards are grouped by the bit mask of seats that may take them
    mask_of = {
        su: sum(1 << i for i, s in enumerate(seats) if su not in voids[s])
        for su in {suit(c) for c in cards}
    }
    left = [0] * (1 << len(seats))
    for card in cards:
        left[mask_of[suit(card)]] += 1
    for card in cards:
        mask = mask_of[suit(card)]
        left[mask] -= 1
        ok = []
        for i in range(len(seats)):
            if mask >> i & 1 and free[i] > 0:
                free[i] -= 1
                if _dealable(free, left):
                    ok.append(i)
                free[i] += 1
        pick = _weighted(ok, free, rng)
        free[pick] -= 1
        hands[seats[pick]].append(card)
    return hands


def _dealable(free: list[int], left: list[int]) -> bool:
    """Hall's condition: every seat group can hold the cards only it may take."""
    groups = len(left)
    for group in range(1, groups):
        need = sum(left[m] for m in range(1, groups) if left[m] and m & ~group == 0)
        if need > sum(free[i] for i in range(len(free)) if group >> i & 1):
            return False
    return not left[0]


def _weighted(choices: list[int], free: list[int], rng: Any) -> int:
    total = sum(free[i] for i in choices)
    x = rng.random() * total
    for i in choices:
        x -= free[i]
        if x < 0:
            return i
    return choices[-1]


def _copy_trick(trick: dict[str, Any]) -> dict[str, Any]:
    return {**trick, "cards": [list(p) for p in trick["cards"]]}


GAME = Junocos()
