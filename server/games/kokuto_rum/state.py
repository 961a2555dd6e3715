"""The Kokuto Rum match state: plain fields, fast copy, dump/load, and card tables.

A held card is one int, `card * 2 + (1 if black is upright else 0)`, so hands copy as
flat int lists. `Tables` turns those ints into values and texts for one deck composition.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from server.games import shirokuro_deck as sd

ROTATE, DRAW, INSERT, DISCARD, OVER = "rotate", "draw", "insert", "discard", "over"
PHASES = (ROTATE, DRAW, INSERT, DISCARD, OVER)


class Tables:
    """Values and texts of every card (by id) and held card (by held int) of a deck."""

    def __init__(self, composition: str) -> None:
        cards = sd.deck(composition)
        self.size = len(cards)
        self.card_text = tuple(sd.card_text(c) for c in cards)
        ups = (sd.WHITE, sd.BLACK)
        self.values = tuple(sd.value(c, up) for c in cards for up in ups)
        self.held_text = tuple(sd.held_text(c, up) for c in cards for up in ups)


@cache
def tables(composition: str) -> Tables:
    """The shared, immutable tables of a composition."""
    return Tables(composition)


class State:
    """Everything about a match; only `view` and `dump` let it out of the engine."""

    __slots__ = (
        "seats",
        "options",
        "rng",
        "vp",
        "round",
        "dealer",
        "phase",
        "turn",
        "hands",
        "known",
        "pile",
        "discards",
        "drawn",
        "drawn_from",
        "taken",
        "flips",
        "log",
        "last_round",
    )

    seats: int
    options: dict[str, Any]
    rng: int  # Rng.state
    vp: list[int]
    round: int
    dealer: int
    phase: str
    turn: int
    hands: list[list[int]]  # held ints, in hand order
    known: list[list[bool]]  # parallel to hands: publicly known (taken from the discards)
    pile: list[int]  # card ids, top last
    discards: list[int]  # card ids, top last
    drawn: int | None  # card id drawn and not yet inserted
    drawn_from: str | None  # "pile" or "discard" for this turn's draw
    taken: int | None  # card id taken from the discard pile this turn (RULINGS K3)
    flips: list[bool | None]  # rotation choices this round, None until chosen
    log: list[dict[str, Any]]  # this round's public log
    last_round: dict[str, Any] | None  # public summary of the last finished round

    def copy(self) -> State:
        """An independent copy, much faster than dump/load."""
        other = State.__new__(State)
        other.seats = self.seats
        other.options = self.options  # never mutated after new()
        other.rng = self.rng
        other.vp = list(self.vp)
        other.round = self.round
        other.dealer = self.dealer
        other.phase = self.phase
        other.turn = self.turn
        other.hands = [list(h) for h in self.hands]
        other.known = [list(k) for k in self.known]
        other.pile = list(self.pile)
        other.discards = list(self.discards)
        other.drawn = self.drawn
        other.drawn_from = self.drawn_from
        other.taken = self.taken
        other.flips = list(self.flips)
        other.log = list(self.log)  # entries are never mutated once logged
        other.last_round = self.last_round  # replaced whole, never mutated
        return other

    def dump(self) -> dict[str, Any]:
        """Plain msgpack-safe data."""
        data = {name: getattr(self, name) for name in self.__slots__}
        data["options"] = dict(self.options)
        data["vp"] = list(self.vp)
        data["hands"] = [list(h) for h in self.hands]
        data["known"] = [list(k) for k in self.known]
        data["pile"] = list(self.pile)
        data["discards"] = list(self.discards)
        data["flips"] = list(self.flips)
        data["log"] = [dict(e) for e in self.log]
        return data

    @classmethod
    def load(cls, data: dict[str, Any]) -> State:
        """The state a `dump` produced."""
        state = cls.__new__(cls)
        for name in cls.__slots__:
            setattr(state, name, data[name])
        state = state.copy()
        if state.log and "discard" in state.log[0]:
            _load_before_k10(state)
        return state


def _load_before_k10(state: State) -> None:
    """A match saved before RULINGS K10 turned the first discard up at the deal: in the
    rotation choice it goes back on top of the pile (it is turned up after the choices);
    later, the round's log names it where it is now turned up."""
    deal = dict(state.log[0])
    card = deal.pop("discard")
    state.log[0] = deal
    if state.phase == ROTATE:
        state.pile.append(state.discards.pop())
        return
    starts = next(
        (i for i, e in enumerate(state.log) if e["type"] == "play_starts"), len(state.log)
    )
    state.log.insert(starts, {"type": "first_discard", "card": card})
