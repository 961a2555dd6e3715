"""The position of a Shirokuro Jong match, its plain-data dump and its fast copy.

A held card is one int, ``card_id * 2 + up`` with up 0 when the white end is upright
and 1 for black; a card on the table (discard, Dora indicator, draw pile) is its id.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from server.games import shirokuro_deck as deck
from server.games.shirokuro_jong.hands import Mentsu, mentsu_of, value_code

UPS = ("W", "B")


def rounds_total(seats: int) -> int:
    """Four rounds with two players, six with three: everyone is Oya twice."""
    return 2 * seats


@cache
def tables(composition: str) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]]:
    """(value code, held text) per held int, and card text per card id, for a deck."""
    cards = deck.deck(composition)
    values = tuple(
        value_code(up, card[0] if up == "W" else card[1]) for card in cards for up in UPS
    )
    held = tuple(deck.held_text(card, up) for card in cards for up in UPS)
    return values, held, tuple(deck.card_text(card) for card in cards)


class JongState:
    """Everything about a match; engines mutate it, `dump` turns it into plain data."""

    __slots__ = (
        "seats",
        "options",
        "rng",
        "round_no",
        "round",
        "hand_no",
        "oya",
        "turn",
        "phase",
        "hands",
        "melds",
        "discards",
        "pile",
        "dora",
        "drawn",
        "can_tsumo",
        "pending",
        "answers",
        "claim_opts",
        "flips",
        "discarder",
        "draws",
        "called",
        "deadline",
        "claim_min",
        "scores",
        "result",
        "revealed",
    )

    def __init__(self, seats: int, options: dict[str, Any], rng: int) -> None:
        self.seats = seats
        self.options = options
        self.rng = rng
        self.round_no = 0  # rounds finished that count towards the match length
        self.round = 0  # the round being played, or just finished: the one the table shows
        self.hand_no = 0  # hands dealt, renchan repeats included
        self.oya = 0  # the Oya of the round being played, or just finished
        self.turn = 0
        self.phase = "rotate"
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.melds: list[list[list[int]]] = [[] for _ in range(seats)]
        self.discards: list[list[int]] = [[] for _ in range(seats)]
        self.pile: list[int] = []
        self.dora = -1
        self.drawn = -1
        self.can_tsumo = False
        self.pending: list[int] = []
        self.answers: list[dict[str, Any] | None] = [None] * seats
        self.claim_opts: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self.flips: list[bool | None] = [None] * seats
        self.discarder = -1
        self.draws = [0] * seats
        self.called = False
        self.deadline: int | None = None  # the claim timeout (None: off or no window)
        self.claim_min = 0  # S13: the open claim window lasts at least until this game time
        self.scores = [0] * seats
        self.result: dict[str, Any] | None = None
        self.revealed: list[int] = []

    # -- derived facts ----------------------------------------------------------------
    def values(self) -> tuple[int, ...]:
        """Value code per held int for this match's deck."""
        return tables(self.options["deck"])[0]

    def hand_values(self, seat: int) -> list[int]:
        """The upright values of a seat's concealed hand, in order."""
        vals = self.values()
        return [vals[h] for h in self.hands[seat]]

    def exposed(self, seat: int) -> list[Mentsu]:
        """A seat's exposed melds as mentsu."""
        vals = self.values()
        out = []
        for meld in self.melds[seat]:
            m = mentsu_of(*sorted(vals[h] for h in meld))
            assert m is not None, "an exposed meld is always a mentsu"
            out.append(m)
        return out

    def exposed_values(self, seat: int) -> list[int]:
        """The upright values of a seat's exposed cards."""
        vals = self.values()
        return [vals[h] for meld in self.melds[seat] for h in meld]

    def next_seat(self, seat: int) -> int:
        """The next seat in turn order: counterclockwise, seat - 1."""
        return (seat - 1) % self.seats

    # -- plain data -------------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        """Plain msgpack-safe data."""
        return {
            "seats": self.seats,
            "options": dict(self.options),
            "rng": self.rng,
            "round_no": self.round_no,
            "round": self.round,
            "hand_no": self.hand_no,
            "oya": self.oya,
            "turn": self.turn,
            "phase": self.phase,
            "hands": [list(h) for h in self.hands],
            "melds": [[list(m) for m in ms] for ms in self.melds],
            "discards": [list(d) for d in self.discards],
            "pile": list(self.pile),
            "dora": self.dora,
            "drawn": self.drawn,
            "can_tsumo": self.can_tsumo,
            "pending": list(self.pending),
            "answers": [dict(a) if a else None for a in self.answers],
            "claim_opts": [[dict(a) for a in opts] for opts in self.claim_opts],
            "flips": list(self.flips),
            "discarder": self.discarder,
            "draws": list(self.draws),
            "called": self.called,
            "deadline": self.deadline,
            "claim_min": self.claim_min,
            "scores": list(self.scores),
            "result": plain_copy(self.result),
            "revealed": list(self.revealed),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> JongState:
        """The state a `dump` produced."""
        state = cls(data["seats"], dict(data["options"]), data["rng"])
        for name in cls.__slots__:
            if name not in ("seats", "options", "rng", "round", "claim_min"):
                setattr(state, name, plain_copy(data[name]))
        state.claim_min = data.get("claim_min", 0)  # saved before S13
        # A room saved before `round` was kept shows what it showed then (the next round
        # over a result, capped at the last) until its next deal sets the field. One saved
        # before the Oya moved at deal time names the next Oya over its result the same way.
        state.round = data.get("round", min(state.round_no + 1, rounds_total(state.seats)))
        return state

    def copy(self) -> JongState:
        """An independent copy, much faster than dump and load."""
        other = JongState.__new__(JongState)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.options = dict(self.options)
        other.hands = [list(h) for h in self.hands]
        other.melds = [[list(m) for m in ms] for ms in self.melds]
        other.discards = [list(d) for d in self.discards]
        other.pile = list(self.pile)
        other.pending = list(self.pending)
        other.answers = list(self.answers)  # answers are never mutated in place
        other.claim_opts = list(self.claim_opts)  # replaced, never mutated in place
        other.flips = list(self.flips)
        other.draws = list(self.draws)
        other.scores = list(self.scores)
        other.revealed = list(self.revealed)
        return other


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (dicts and lists)."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    return value
