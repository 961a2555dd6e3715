"""Kokuto Rum rules engine (RULINGS section 5 and the shared Shirokuro deck section).

Text forms come from `server.games.shirokuro_deck`: a card is ``"W2/B5"`` (white end
first), a held card is written upright end first (``"B5/W2"`` is that card with black 5
upright), a value is ``"W2"``.

Moves (plain dicts):

- ``{"type": "rotate", "flip": bool}`` -- the secret, simultaneous start-of-round choice
  to turn the whole hand around (every card's orientation flips; RULINGS K2);
- ``{"type": "draw", "from": "pile" | "discard"}``;
- ``{"type": "insert", "pos": int, "card": held text}`` -- put the drawn card before hand
  position `pos` (0..len), upright as the text says;
- ``{"type": "discard", "pos": int, "card": held text, "knock": bool}`` -- discard the
  card at `pos`; with ``knock`` the player knocks right after discarding;
- ``{"type": "knock"}`` -- knock before discarding, scoring the 9-card hand (RULINGS K4).

A finished round is summarised in the public ``last_round`` (all hands revealed) and the
next round is dealt at once, starting with its rotation choice. The first discard stays
on top of the draw pile until every seat has chosen, then it is turned up (RULINGS K10).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.contract import Action, Event, Game, IllegalAction, Option, View
from server.games.kokuto_rum import scoring, views
from server.games.kokuto_rum.helpers import helpers as kokuto_helpers
from server.games.kokuto_rum.state import DISCARD, DRAW, INSERT, OVER, ROTATE, State, tables
from server.games.rng import Rng
from server.games.shirokuro_deck import COMPOSITIONS, DEFAULT_COMPOSITION

HAND_SIZE = 8
TARGET_VP = 30
PILE, DISCARDS = "pile", "discard"


def _refuse(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _is_int(value: Any) -> bool:
    return type(value) is int


class KokutoRum(Game):
    """The two-colour rummy for 2-3 players."""

    id = "kokuto_rum"
    title = "Kokuto Rum"
    min_seats = 2
    max_seats = 3
    options = (
        Option("deck", DEFAULT_COMPOSITION, COMPOSITIONS, "Shirokuro deck composition (K1)"),
        Option(
            "first_dealer", "random", ("random", 0, 1, 2), "seat of the first dealer", per_seat=True
        ),
        Option(
            "discard_taken_card",
            True,
            (True, False),
            "may discard the card just taken from the discard pile (K3)",
        ),
        Option(
            "knock_before_discard",
            True,
            (True, False),
            "may knock before discarding, scoring 9 cards (K4); off: discard first",
        ),
        Option(
            "physical_fidelity",
            False,
            (False, True),
            "show where each card was inserted into or taken from a hand",
        ),
    )

    # -- setup ------------------------------------------------------------------------
    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> State:
        """A fresh match: first round dealt, waiting for the rotation choices."""
        if not self.min_seats <= seats <= self.max_seats:
            raise _refuse("bad_seats", f"{self.title} is for 2 or 3 players")
        opts = self.resolve_options(options)
        self.check_options(opts, seats)
        rng = Rng.from_seed(seed)
        first = opts["first_dealer"]
        if first == "random":
            first = rng.randrange(seats)
        state = State.__new__(State)
        state.seats = seats
        state.options = opts
        state.rng = rng.state
        state.vp = [0] * seats
        state.round = 0
        state.dealer = (first - 1) % seats  # _deal moves it on to `first`
        state.last_round = None
        self._deal(state)
        return state

    def _deal(self, state: State) -> Event:
        rng = Rng(state.rng)
        n = state.seats
        cards = list(range(tables(state.options["deck"]).size))
        rng.shuffle(cards)
        state.round += 1
        state.dealer = (state.dealer + 1) % n
        state.hands = [[] for _ in range(n)]
        for i in range(n):  # deal from the dealer's left, clockwise
            seat = (state.dealer + 1 + i) % n
            state.hands[seat] = [c * 2 + rng.randrange(2) for c in cards[i * 8 : i * 8 + 8]]
        state.known = [[False] * HAND_SIZE for _ in range(n)]
        # K10: the pile's top card is turned up to start the discard pile only once every
        # seat has chosen its rotation (`_rotate`); until then it is an unseen pile card.
        state.pile = cards[n * HAND_SIZE :]
        state.discards = []
        state.rng = rng.state
        state.phase = ROTATE
        state.turn = (state.dealer + 1) % n
        state.drawn = state.drawn_from = state.taken = None
        state.flips = [None] * n
        event = {"type": "deal", "round": state.round, "dealer": state.dealer}
        state.log = [event]
        return event

    # -- moves ------------------------------------------------------------------------
    def actions(self, state: State, seat: int) -> list[Action]:
        """The moves `seat` may make now."""
        if state.phase == ROTATE:
            if 0 <= seat < state.seats and state.flips[seat] is None:
                return [{"type": "rotate", "flip": False}, {"type": "rotate", "flip": True}]
            return []
        if state.phase == OVER or seat != state.turn:
            return []
        hand = state.hands[seat]
        texts = tables(state.options["deck"]).held_text
        if state.phase == DRAW:
            out: list[Action] = [{"type": "draw", "from": PILE}]
            if state.discards:
                out.append({"type": "draw", "from": DISCARDS})
            return out
        if state.phase == INSERT:
            assert state.drawn is not None
            return [
                {"type": "insert", "pos": pos, "card": texts[state.drawn * 2 + b]}
                for pos in range(len(hand) + 1)
                for b in (0, 1)
            ]
        out = []
        for pos, held in enumerate(hand):
            if self._may_discard(state, held):
                for knock in (False, True):
                    out.append({"type": "discard", "pos": pos, "card": texts[held], "knock": knock})
        if state.options["knock_before_discard"]:
            out.append({"type": "knock"})
        return out

    @staticmethod
    def _may_discard(state: State, held: int) -> bool:
        return state.options["discard_taken_card"] or held // 2 != state.taken

    def apply(self, state: State, seat: int, action: Action, now: int) -> list[Event]:
        """Check the move, then make it; a refused move leaves `state` untouched."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise _refuse("bad_action", "a move is a dict with a type")
        kind = action["type"]
        handler = self._handlers.get(kind)
        if handler is None:
            raise _refuse("bad_action", f"unknown move type {kind!r}")
        if not (_is_int(seat) and 0 <= seat < state.seats):
            raise _refuse("bad_seat", "no such seat")
        if state.phase == OVER:
            raise _refuse("game_over", "the match is over")
        if kind == "rotate":
            if state.phase != ROTATE:
                raise _refuse("wrong_phase", "hands can only be rotated before play starts")
        else:
            if state.phase == ROTATE:
                raise _refuse("wrong_phase", "everyone must first choose whether to rotate")
            if seat != state.turn:
                raise _refuse("not_your_turn", "it is another player's turn")
        return handler(self, state, seat, action)

    def _rotate(self, state: State, seat: int, action: Action) -> list[Event]:
        if set(action) != {"type", "flip"} or type(action["flip"]) is not bool:
            raise _refuse("bad_action", "rotate needs exactly a boolean flip")
        if state.flips[seat] is not None:
            raise _refuse("already_chosen", "you already chose whether to rotate")
        state.flips[seat] = action["flip"]
        events: list[Event] = [{"type": "rotation_chosen", "seat": seat}]
        if all(f is not None for f in state.flips):
            for s, flip in enumerate(state.flips):
                if flip:
                    state.hands[s] = [h ^ 1 for h in state.hands[s]]
            state.discards = [state.pile.pop()]  # K10: turned up after the choices
            up = tables(state.options["deck"]).card_text[state.discards[0]]
            events.append({"type": "first_discard", "card": up})
            state.phase = DRAW
            events.append({"type": "play_starts", "turn": state.turn})
        state.log.extend(events)
        return events

    def _draw(self, state: State, seat: int, action: Action) -> list[Event]:
        if set(action) != {"type", "from"} or action["from"] not in (PILE, DISCARDS):
            raise _refuse("bad_action", 'draw needs from: "pile" or "discard"')
        if state.phase != DRAW:
            raise _refuse("wrong_phase", "you have already drawn this turn")
        source = action["from"]
        if not (state.pile if source == PILE else state.discards):
            raise _refuse("empty", f"the {source} pile is empty")
        event: Event = {"type": "draw", "seat": seat, "from": source}
        if source == PILE:
            state.drawn = state.pile.pop()
            state.taken = None
        else:
            state.drawn = state.taken = state.discards.pop()
            event["card"] = tables(state.options["deck"]).card_text[state.drawn]
        state.drawn_from = source
        state.phase = INSERT
        state.log.append(event)
        return [event]

    def _insert(self, state: State, seat: int, action: Action) -> list[Event]:
        if set(action) != {"type", "pos", "card"}:
            raise _refuse("bad_action", "insert needs pos and card")
        if state.phase != INSERT:
            raise _refuse("wrong_phase", "there is no drawn card to insert")
        hand = state.hands[seat]
        pos = action["pos"]
        if not (_is_int(pos) and 0 <= pos <= len(hand)):
            raise _refuse("bad_position", "no such position in your hand")
        assert state.drawn is not None
        texts = tables(state.options["deck"]).held_text
        base = state.drawn * 2
        if action["card"] == texts[base]:
            held = base
        elif action["card"] == texts[base + 1]:
            held = base + 1
        else:
            raise _refuse("wrong_card", "that is not the card you drew")
        hand.insert(pos, held)
        state.known[seat].insert(pos, state.drawn_from == DISCARDS)
        state.drawn = None
        state.phase = DISCARD
        event: Event = {"type": "insert", "seat": seat}
        if state.options["physical_fidelity"]:
            event["pos"] = pos
        state.log.append(event)
        return [event]

    def _discard(self, state: State, seat: int, action: Action) -> list[Event]:
        if set(action) != {"type", "pos", "card", "knock"} or type(action["knock"]) is not bool:
            raise _refuse("bad_action", "discard needs pos, card and a boolean knock")
        if state.phase != DISCARD:
            raise _refuse("wrong_phase", "you cannot discard now")
        hand = state.hands[seat]
        pos = action["pos"]
        if not (_is_int(pos) and 0 <= pos < len(hand)):
            raise _refuse("bad_position", "no such position in your hand")
        t = tables(state.options["deck"])
        held = hand[pos]
        if action["card"] != t.held_text[held]:
            raise _refuse("wrong_card", "that card is not at that position")
        if not self._may_discard(state, held):
            raise _refuse("taken_card", "you may not discard the card you took this turn")
        del hand[pos]
        del state.known[seat][pos]
        state.discards.append(held // 2)
        event: Event = {"type": "discard", "seat": seat, "card": t.card_text[held // 2]}
        if state.options["physical_fidelity"]:
            event["pos"] = pos
        state.log.append(event)
        events = [event]
        if action["knock"]:
            events.extend(self._end_round(state, knocker=seat))
        elif not state.pile:
            events.extend(self._end_round(state, knocker=None))
        else:
            state.turn = (seat + 1) % state.seats
            state.phase = DRAW
            state.drawn_from = state.taken = None
        return events

    def _knock(self, state: State, seat: int, action: Action) -> list[Event]:
        if set(action) != {"type"}:
            raise _refuse("bad_action", "knock takes no fields")
        if not state.options["knock_before_discard"]:
            raise _refuse("discard_first", "discard first, then knock")
        if state.phase != DISCARD:
            raise _refuse("wrong_phase", "knock after drawing and inserting")
        return self._end_round(state, knocker=seat)

    _handlers = {
        "rotate": _rotate,
        "draw": _draw,
        "insert": _insert,
        "discard": _discard,
        "knock": _knock,
    }

    # -- round end --------------------------------------------------------------------
    def _end_round(self, state: State, knocker: int | None) -> list[Event]:
        t = tables(state.options["deck"])
        results = [scoring.best_melds([t.values[h] for h in hand]) for hand in state.hands]
        scores = [r[0] for r in results]
        if knocker is None:
            gains = scoring.pile_out_gains(scores)
        else:
            gains = scoring.knock_gains(scores, knocker)
        state.vp = [v + g for v, g in zip(state.vp, gains, strict=True)]
        summary = {
            "type": "round_end",
            "round": state.round,
            "reason": "pile_out" if knocker is None else "knock",
            "knocker": knocker,
            "hands": [[t.held_text[h] for h in hand] for hand in state.hands],
            "melds": [[[a, b] for a, b in r[1]] for r in results],
            "scores": scores,
            "gains": gains,
            "vp": list(state.vp),
        }
        state.last_round = summary
        events: list[Event] = [summary]
        if max(state.vp) >= TARGET_VP:
            state.phase = OVER
            state.drawn = state.drawn_from = state.taken = None
            winners = [s for s, v in enumerate(state.vp) if v == max(state.vp)]
            events.append({"type": "game_over", "winners": winners, "vp": list(state.vp)})
        else:
            events.append(self._deal(state))
        return events

    # -- information, persistence, results --------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        """Everything `seat` may know (see `views`)."""
        return views.view(state, seat)

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """Each rotation's and gap's hand score and the knock, from the view (helpers.py)."""
        return kokuto_helpers(view)

    def shuffle_unseen(self, state: State, seat: int | None, rng: Any) -> State:
        """A possible world for `seat` (see `views.shuffle_unseen`)."""
        return views.shuffle_unseen(state, seat, rng)

    def dump(self, state: State) -> dict[str, Any]:
        """Plain msgpack-safe data."""
        return state.dump()

    def load(self, data: dict[str, Any]) -> State:
        """The state `dump` produced."""
        return State.load(data)

    def copy(self, state: State) -> State:
        """A fast independent copy, for search."""
        return state.copy()

    def seat_count(self, state: State) -> int:
        """Number of seats in this match."""
        return state.seats

    def outcome(self, state: State) -> dict[str, Any] | None:
        """Places by VP total once someone reached 30 (ties share), else None."""
        if state.phase != OVER:
            return None
        top = max(state.vp)
        return {
            "places": scoring.places(state.vp),
            "vp": list(state.vp),
            "winners": [s for s, v in enumerate(state.vp) if v == top],
            "rounds": state.round,
        }
