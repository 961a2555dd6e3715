"""Utsuke engine: everyone secretly guesses how many tricks the Lord (an NPC) takes, then
plays must-follow tricks with a trump set by the chip on the Lord's rightmost card.

Rules: shared/rules/002 and RULINGS section 3, which this module follows.

Text forms (views, moves and events alike):
- A card is its colour letter and number: "R12", "B1". Colours are R Y G B P, numbers 1-12.
- A hand is named by its seat number (int) for players, "lord" and "prince" for the NPCs.
- Moves: ``{"type": "guess", "value": 0..15}`` (once per round, secret until judging) and
  ``{"type": "play", "card": "G7"}``.
- NPC hands are shown in dealt order, index 0 = leftmost (ruling T4); player hands sorted.
- Internally hands are indexed by hand id: players 0..N-1, the Lord N, the Prince 3 (two
  players only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.contract import Event, Game, IllegalAction, Option, View
from server.games.rng import Rng
from server.games.utsuke.cards import (
    CARDS,
    COLOUR_OF,
    legal_cards,
    npc_card,
    sort_cards,
    table_order,
    trick_winner,
)
from server.games.utsuke.deal import deal_with_voids
from server.games.utsuke.helpers import helpers as utsuke_helpers
from server.games.utsuke.scoring import judge_guesses, standings

MAX_GUESS = 15
GUESS, PLAY, OVER = "guess", "play", "over"


class UtsukeState:
    """A whole match. Hands are indexed by hand id (players, then Lord, then Prince)."""

    __slots__ = (
        "seats",
        "options",
        "rng",
        "round",
        "lord_after",
        "table",
        "hands",
        "guesses",
        "phase",
        "leader",
        "trick",
        "chip",
        "tricks",
        "history",
        "homare",
        "uchikubi",
        "last_round",
        "result",
    )

    seats: int
    options: dict[str, Any]
    rng: int
    round: int
    lord_after: int
    table: list[int]
    hands: list[list[str]]
    guesses: list[int | None]
    phase: str
    leader: int
    trick: list[list[Any]]
    chip: str | None
    tricks: list[int]
    history: list[list[Any]]
    homare: list[int]
    uchikubi: list[int]
    last_round: dict[str, Any] | None
    result: dict[str, Any] | None

    @property
    def lord(self) -> int:
        """Hand id of the Lord."""
        return self.seats

    def turn(self) -> int | None:
        """Hand id to play now, or None outside trick play."""
        if self.phase != PLAY:
            return None
        table = self.table
        return table[(table.index(self.leader) + len(self.trick)) % len(table)]

    def voids(self) -> list[set[str]]:
        """Colours each player has shown to lack this round (failed to follow)."""
        out: list[set[str]] = [set() for _ in range(self.seats)]
        for cards in [h[1] for h in self.history] + [self.trick]:
            if not cards:
                continue
            led = COLOUR_OF[cards[0][1]]
            for who, card in cards[1:]:
                if who < self.seats and COLOUR_OF[card] != led:
                    out[who].add(led)
        return out


_FIELDS = UtsukeState.__slots__


class Utsuke(Game):
    """The Utsuke rules engine (RULINGS section 3)."""

    id = "utsuke"
    title = "Utsuke"
    min_seats = 2
    max_seats = 5
    options = (
        Option(
            "lord_seat",
            "random",
            ("random", 0, 1, 2, 3, 4),
            "Seat the first Lord sits just to the right of (ruling T10): random or chosen.",
            per_seat=True,
        ),
        Option(
            "end_rule",
            "ranked",
            ("ranked", "survivors_share"),
            "When someone is executed and nobody reaches 3 Homare (ruling T9): rank the "
            "survivors by Homare then fewer Uchikubi, or let every survivor share the win.",
        ),
    )

    # -- setup -----------------------------------------------------------------------
    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> UtsukeState:
        """A fresh match; the first Lord position is drawn or taken from `lord_seat`."""
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction("bad_seats", "Utsuke is for 2 to 5 players")
        opts = self.resolve_options(options)
        self.check_options(opts, seats)
        rng = Rng.from_seed(seed)
        first = opts["lord_seat"]
        if first == "random":
            first = rng.randrange(seats)
        s = UtsukeState()
        s.seats, s.options, s.rng, s.round = seats, opts, rng.state, 0
        # The Lord sits between the chosen seat and the player to its right (seat - 1).
        s.lord_after = (first - 1) % seats
        s.homare, s.uchikubi = [0] * seats, [0] * seats
        s.last_round = s.result = None
        self._deal(s)
        return s

    def _deal(self, s: UtsukeState) -> None:
        """Shuffle and deal out the whole deck to every hand; open the guessing."""
        rng = Rng(s.rng)
        deck = list(CARDS)
        rng.shuffle(deck)
        s.rng = rng.state
        s.round += 1
        s.table = table_order(s.seats, s.lord_after)
        size = len(CARDS) // len(s.table)
        hands = [deck[i * size : (i + 1) * size] for i in range(len(s.table))]
        s.hands = [sort_cards(h) if i < s.seats else h for i, h in enumerate(hands)]
        s.guesses = [None] * s.seats
        s.phase, s.leader, s.trick = GUESS, s.lord, []
        s.chip = s.hands[s.lord][-1]
        s.tricks = [0] * len(s.table)
        s.history = []

    # -- moves -----------------------------------------------------------------------
    def actions(self, state: UtsukeState, seat: int) -> list[dict[str, Any]]:
        """Guesses 0-15 while `seat` has not guessed; its legal cards on its turn."""
        if state.phase == GUESS:
            if 0 <= seat < state.seats and state.guesses[seat] is None:
                return [{"type": "guess", "value": v} for v in range(MAX_GUESS + 1)]
            return []
        if state.phase == PLAY and state.turn() == seat:
            return [
                {"type": "play", "card": c} for c in legal_cards(state.hands[seat], state.trick)
            ]
        return []

    def apply(self, state: UtsukeState, seat: int, action: Any, now: int) -> list[Event]:
        """Check a guess or a card, apply it, then let the NPCs play until a player is due."""
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise IllegalAction("bad_seat", "no such seat")
        if not isinstance(action, dict):
            raise IllegalAction("bad_action", "a move is a map with a type")
        kind = action.get("type")
        if kind == "guess":
            return self._guess(state, seat, action)
        if kind == "play":
            return self._play(state, seat, action)
        raise IllegalAction("bad_action", "unknown move type")

    def _guess(self, s: UtsukeState, seat: int, action: dict[str, Any]) -> list[Event]:
        value = action.get("value")
        if action.keys() != {"type", "value"} or type(value) is not int:
            raise IllegalAction("bad_action", "a guess is {type: guess, value: 0..15}")
        if not 0 <= value <= MAX_GUESS:
            raise IllegalAction("bad_guess", "a guess is from 0 to 15")
        if s.phase != GUESS:
            raise IllegalAction("not_guessing", "guesses are only made before the first trick")
        if s.guesses[seat] is not None:
            raise IllegalAction("already_guessed", "you have already guessed this round")
        s.guesses[seat] = value
        events: list[Event] = [{"type": "guessed", "seat": seat}]
        if all(g is not None for g in s.guesses):
            s.phase = PLAY
            events.append({"type": "tricks_begin", "round": s.round})
            self._run(s, events)
        return events

    def _play(self, s: UtsukeState, seat: int, action: dict[str, Any]) -> list[Event]:
        card = action.get("card")
        if action.keys() != {"type", "card"} or not isinstance(card, str) or card not in COLOUR_OF:
            raise IllegalAction("bad_action", "a play is {type: play, card: <card>}")
        if s.phase != PLAY or s.turn() != seat:
            raise IllegalAction("not_your_turn", "it is not your turn to play")
        hand = s.hands[seat]
        if card not in hand:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        if card not in legal_cards(hand, s.trick):
            raise IllegalAction("must_follow", "you must follow the colour led")
        events: list[Event] = []
        self._put(s, seat, card, events)
        self._run(s, events)
        return events

    def _put(self, s: UtsukeState, who: int, card: str, events: list[Event]) -> None:
        s.hands[who].remove(card)
        s.trick.append([who, card])
        events.append({"type": "played", "by": self._name(s, who), "card": card})

    def _run(self, s: UtsukeState, events: list[Event]) -> None:
        """Close full tricks and play NPC cards until a player must act."""
        while s.phase == PLAY:
            if len(s.trick) == len(s.table):
                self._close_trick(s, events)
                continue
            who = s.turn()
            assert who is not None
            if who < s.seats:
                return
            card = npc_card(s.hands[who], s.trick, first_trick=not s.history)
            self._put(s, who, card, events)

    def _close_trick(self, s: UtsukeState, events: list[Event]) -> None:
        trump = COLOUR_OF[s.chip] if s.chip else None
        winner = trick_winner(s.trick, trump)
        s.tricks[winner] += 1
        s.history.append([s.leader, s.trick, winner])
        s.leader, s.trick = winner, []
        lord_hand = s.hands[s.lord]
        # Rule 11: the chip moves to the Lord's rightmost remaining card.
        s.chip = lord_hand[-1] if lord_hand else None
        events.append({"type": "trick", "winner": self._name(s, winner), "trump": trump})
        if not s.hands[winner]:
            self._judge(s, events)

    def _judge(self, s: UtsukeState, events: list[Event]) -> None:
        """Rules 13-16: Homare, Uchikubi, the end check, then the next deal."""
        lord = s.tricks[s.lord]
        guesses = [int(g) for g in s.guesses if g is not None]
        homare = judge_guesses(guesses, lord)
        uchikubi = [int(t > lord) for t in s.tricks[: s.seats]]
        for i in range(s.seats):
            s.homare[i] += homare[i]
            s.uchikubi[i] += uchikubi[i]
        s.last_round = {
            "round": s.round,
            "guesses": guesses,
            "lord_tricks": lord,
            "prince_tricks": s.tricks[3] if s.seats == 2 else None,
            "tricks": s.tricks[: s.seats],
            "homare": homare,
            "uchikubi": uchikubi,
        }
        events.append({"type": "judged", **s.last_round})
        s.result = standings(s.homare, s.uchikubi, s.options["end_rule"])
        if s.result is not None:
            s.phase = OVER
            events.append({"type": "game_over", "places": s.result["places"]})
            return
        # Rule 16: the Lord moves one place clockwise (at two players: Lord and Prince swap).
        s.lord_after = (s.lord_after + 1) % s.seats
        self._deal(s)
        events.append({"type": "round", "round": s.round})

    # -- views -----------------------------------------------------------------------
    @staticmethod
    def _name(s: UtsukeState, who: int) -> int | str:
        if who < s.seats:
            return who
        return "lord" if who == s.seats else "prince"

    def view(self, state: UtsukeState, seat: int | None) -> View:
        """Own hand and guess; NPC hands, chip, played cards, counts and totals for all."""
        s, name = state, self._name
        mine = seat is not None and 0 <= seat < s.seats
        turn = s.turn()
        return {
            "seat": seat,
            "seats": s.seats,
            "round": s.round,
            "phase": s.phase,
            "table": [name(s, h) for h in s.table],
            "lord": list(s.hands[s.lord]),
            "prince": list(s.hands[3]) if s.seats == 2 else None,
            "chip": s.chip,
            "trump": COLOUR_OF[s.chip] if s.chip else None,
            "hand": list(s.hands[seat]) if mine else None,
            "hand_sizes": [len(h) for h in s.hands[: s.seats]],
            "guess": s.guesses[seat] if mine else None,
            "guessed": [g is not None for g in s.guesses],
            "turn": None if turn is None else name(s, turn),
            "leader": name(s, s.leader),
            "trick": [[name(s, w), c] for w, c in s.trick],
            "history": [
                {
                    "leader": name(s, lead),
                    "cards": [[name(s, w), c] for w, c in cards],
                    "winner": name(s, win),
                }
                for lead, cards, win in s.history
            ],
            "tricks": s.tricks[: s.seats],
            "lord_tricks": s.tricks[s.lord],
            "prince_tricks": s.tricks[3] if s.seats == 2 else None,
            "homare": list(s.homare),
            "uchikubi": list(s.uchikubi),
            "last_round": _plain_copy(s.last_round),
            "result": _plain_copy(s.result),
        }

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """The Lord's tricks so far against the seat's guess, from its view (helpers.py)."""
        return utsuke_helpers(view)

    def shuffle_unseen(self, state: UtsukeState, seat: int | None, rng: Any) -> UtsukeState:
        """Re-deal the other players' hands (respecting shown voids) and redraw their
        still-secret guesses; NPC hands, played cards and counts stay as they are.

        The world depends on the view and `rng` only: the unseen cards are pooled in card
        order, not in the hidden hands' order, and the world gets a generator of its own
        drawn from `rng` (the match's would foretell the next deal)."""
        other = self.copy(state)
        hidden = [p for p in range(state.seats) if p != seat]
        pool = sort_cards([c for p in hidden for c in state.hands[p]])
        voids = state.voids()
        hands = deal_with_voids(
            pool, [len(state.hands[p]) for p in hidden], [voids[p] for p in hidden], rng
        )
        for p, hand in zip(hidden, hands, strict=True):
            other.hands[p] = sort_cards(hand)
            if other.phase != OVER and other.guesses[p] is not None:
                other.guesses[p] = rng.randrange(MAX_GUESS + 1)
        other.rng = rng.randrange(1 << 64)
        return other

    # -- persistence -----------------------------------------------------------------
    def dump(self, state: UtsukeState) -> dict[str, Any]:
        """Plain data: every field of the state, deep-copied."""
        return {f: _plain_copy(getattr(state, f)) for f in _FIELDS}

    def load(self, data: dict[str, Any]) -> UtsukeState:
        """The state `dump` produced."""
        s = UtsukeState()
        for f in _FIELDS:
            setattr(s, f, _plain_copy(data[f]))
        return s

    def copy(self, state: UtsukeState) -> UtsukeState:
        """A fast independent copy (for search)."""
        s = UtsukeState()
        for f in _FIELDS:
            setattr(s, f, getattr(state, f))
        s.hands = [list(h) for h in state.hands]
        s.guesses = list(state.guesses)
        s.trick = [list(p) for p in state.trick]
        s.tricks = list(state.tricks)
        # Finished tricks are never mutated, so sharing their inner lists is safe.
        s.history = list(state.history)
        s.homare, s.uchikubi = list(state.homare), list(state.uchikubi)
        s.table = list(state.table)
        return s

    def seat_count(self, state: UtsukeState) -> int:
        """Number of players."""
        return state.seats

    def outcome(self, state: UtsukeState) -> dict[str, Any] | None:
        """Places, winners and losers once someone has won or been executed."""
        return _plain_copy(state.result)


def _plain_copy(value: Any) -> Any:
    """Deep copy of plain data (dicts, lists, scalars)."""
    if isinstance(value, list):
        return [_plain_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_copy(v) for k, v in value.items()}
    return value


GAME = Utsuke()
