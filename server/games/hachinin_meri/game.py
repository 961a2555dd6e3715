"""Hachinin Meri: eight seats in two teams, eight deals with the Unsun pack (RULINGS §2).

Moves (cards in the text form of `cards`):

- ``{"type": "pass"}`` / ``{"type": "declare"}`` — the declaration round: seats answer in
  turn from dealer+1; only the native Robai's holder is offered "declare" (H4). When the
  Okie is itself the native Robai nobody can declare and the round is skipped (H5). A
  seat that does not answer within ``declare_timeout_ms`` passes (H17, the rule timer).
- ``{"type": "discard", "card": c}`` — the Okie's recipient puts back one nontrump (a
  trump other than the Okie only when it holds no nontrump, H6).
- ``{"type": "play", "card": c}`` — one card to the trick. Trick 9 plays itself.

State is plain data (a dict); `view` is the only way it reaches a seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.contract import Action, Event, Game, IllegalAction, Option, View
from server.games.hachinin_meri import worlds
from server.games.hachinin_meri.cards import DECK, ORDERS, sort_key, suit
from server.games.hachinin_meri.helpers import helpers as meri_helpers
from server.games.hachinin_meri.rules import combination_value, legal_cards
from server.games.rng import Rng

SEATS = 8
DEALS = 8
PASS: Action = {"type": "pass"}
# H17's declaration timeout: 0 turns it off, else a value in this range (ms).
DECLARE_TIMEOUT_RANGE = (5000, 120_000)
DECLARE: Action = {"type": "declare"}


class HachininMeri(Game):
    """The rules engine; one instance is registered as `GAME`."""

    id = "hachinin_meri"
    title = "Hachinin Meri"
    min_seats = SEATS
    max_seats = SEATS
    options = (
        Option(
            "concealed_robai_bonus",
            "robai_pairs",
            ("robai_pairs", "every_pair"),
            "H13: an undeclared native Robai makes 5 only the pairs it is part of "
            "(rules text), or every combination of the deal (boardoor)",
        ),
        Option(
            "declare_timeout_ms",
            20000,
            (),
            "H17: a seat that does not declare or pass within this many ms passes; "
            "0 (no limit) or 5000 to 120000",
        ),
    )

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled and every value checked (the timeout within its range)."""
        resolved = super().resolve_options(options)
        timeout = resolved["declare_timeout_ms"]
        low, high = DECLARE_TIMEOUT_RANGE
        if type(timeout) is not int or not (timeout == 0 or low <= timeout <= high):
            raise IllegalAction(
                "bad_option", f"declare_timeout_ms must be 0 or a whole number {low}-{high}"
            )
        return resolved

    # -- setting up ------------------------------------------------------------------
    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> dict[str, Any]:
        """A fresh eight-deal match; the first dealer is drawn from the seed."""
        if seats != SEATS:
            raise IllegalAction("bad_seats", "Hachinin Meri needs exactly 8 seats")
        rng = Rng.from_seed(seed)
        dealer = rng.randrange(SEATS)
        state: dict[str, Any] = {
            "seats": SEATS,
            "options": self.resolve_options(options),
            "rng": rng.state,
            "deal": 0,
            "dealer": dealer,
            "scores": [0, 0],
            "history": [],
            "previous": None,
        }
        _start_deal(state, 0)
        return state

    # -- moves -----------------------------------------------------------------------
    def actions(self, state: dict[str, Any], seat: int) -> list[Action]:
        """The moves `seat` may make now."""
        phase = state["phase"]
        if phase == "play":
            if seat != state["turn"]:
                return []
            return [{"type": "play", "card": c} for c in _playable(state, seat)]
        if phase == "declare":
            if seat != state["asking"]:
                return []
            if ORDERS[state["trump"]].robai in state["hands"][seat]:
                return [dict(DECLARE), dict(PASS)]
            return [dict(PASS)]
        if phase == "discard" and seat == state["recipient"]:
            return [{"type": "discard", "card": c} for c in _discardable(state)]
        return []

    def apply(self, state: dict[str, Any], seat: int, action: Action, now: int) -> list[Event]:
        """Check the move against `actions`, then apply it."""
        if not isinstance(action, dict) or action not in self.actions(state, seat):
            raise IllegalAction("illegal_move", "that move is not allowed now")
        kind = action["type"]
        if kind == "play":
            return _play(state, seat, action["card"], now)
        if kind == "discard":
            return _discard(state, seat, action["card"])
        return _answer(state, seat, kind, now)

    # -- the rule timer --------------------------------------------------------------
    def deadline(self, state: dict[str, Any]) -> int | None:
        """H17: when the seat being asked to declare passes by default."""
        return _declare_deadline(state)

    def expire(self, state: dict[str, Any], now: int) -> list[Event]:
        """Pass for every asked seat whose declaration time ran out by `now`."""
        events: list[Event] = []
        while (due := _declare_deadline(state)) is not None and due <= now:
            events += _answer(state, state["asking"], "pass", due)
        return events

    # -- what a seat sees ------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: int | None) -> View:
        """Own hand, public cards and scores; face-down trumps stay hidden until the
        trick is complete, the discard until the opening lead (RULINGS §2, hidden info)."""
        recipient = state["recipient"]
        table = [
            {"seat": s, "card": None if down and s != seat else c, "face_down": down}
            for s, c, down in state["table"]
        ]
        discard = state["discard"]
        shown_discard = discard if (state["dead_public"] or seat == recipient) else None
        return {
            "seat": seat,
            "team": None if seat is None else seat % 2,
            "deal": state["deal"] + 1,
            "deals": DEALS,
            "dealer": state["dealer"],
            "phase": state["phase"],
            "okie": state["okie"],
            "trump": state["trump"],
            "answers": [list(a) for a in state["answers"]],
            "asking": state["asking"],
            "declare_deadline": _declare_deadline(state),
            "recipient": recipient,
            "robai_declared": state["declared"],
            "hand": None if seat is None else list(state["hands"][seat]),
            "hand_counts": [len(h) for h in state["hands"]],
            "discarded": discard is not None,
            "discard": shown_discard,
            "dead": [discard, *state["talon"]] if state["dead_public"] else None,
            "monchi": state["monchi"],
            "trick": state["trick"],
            "leader": state["leader"],
            "turn": state["turn"],
            "table": table,
            "tricks": [_copy_trick(t) for t in state["tricks"]],
            "deal_score": list(state["deal_score"]),
            "scores": list(state["scores"]),
            "history": [list(h) for h in state["history"]],
            "previous": _copy_summary(state["previous"]),
        }

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """The seat's team's points this deal, from its view (helpers.py)."""
        return meri_helpers(view)

    def shuffle_unseen(self, state: dict[str, Any], seat: int | None, rng: Any) -> Any:
        """A copy with every card `seat` cannot see re-dealt where it could be, and a
        generator of its own drawn from `rng` (the match's would foretell the next deal)."""
        other = self.copy(state)
        worlds.redeal(other, seat, rng)
        other["rng"] = rng.randrange(1 << 64)
        return other

    # -- storage ---------------------------------------------------------------------
    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        """Plain data; the state already is."""
        return self.copy(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        """The state from `dump`."""
        return self.copy(data)

    def copy(self, state: dict[str, Any]) -> dict[str, Any]:
        """A deep copy that knows the state's shape (faster than a generic one)."""
        out = dict(state)
        out["options"] = dict(state["options"])
        out["scores"] = list(state["scores"])
        out["history"] = [list(h) for h in state["history"]]
        out["previous"] = _copy_summary(state["previous"])
        out["hands"] = [list(h) for h in state["hands"]]
        out["talon"] = list(state["talon"])
        out["answers"] = [list(a) for a in state["answers"]]
        out["played_trump"] = list(state["played_trump"])
        out["table"] = [list(e) for e in state["table"]]
        out["tricks"] = [_copy_trick(t) for t in state["tricks"]]
        out["deal_score"] = list(state["deal_score"])
        return out

    def seat_count(self, state: dict[str, Any]) -> int:
        """Always eight."""
        return SEATS

    def outcome(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """After the eighth deal: the higher total wins; equal totals draw."""
        if state["phase"] != "over":
            return None
        a, b = state["scores"]
        team_place = (1, 1) if a == b else ((1, 2) if a > b else (2, 1))
        return {
            "places": [team_place[s % 2] for s in range(SEATS)],
            "scores": [a, b],
            "history": [list(h) for h in state["history"]],
            "winner": None if a == b else (0 if a > b else 1),
        }


# -- the deal ------------------------------------------------------------------------
def _declare_deadline(state: dict[str, Any]) -> int | None:
    timeout = state["options"].get("declare_timeout_ms", 0)
    if state["phase"] != "declare" or not timeout:
        return None
    return state["asked_at"] + timeout


def _start_deal(state: dict[str, Any], now: int) -> list[Event]:
    """Shuffle, deal 3×3 from dealer+1, turn up the Okie and open the declaration round."""
    rng = Rng(state["rng"])
    deck = list(DECK)
    rng.shuffle(deck)
    state["rng"] = rng.state
    dealer = state["dealer"]
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    pos = 0
    for _ in range(3):
        for k in range(1, SEATS + 1):
            hands[(dealer + k) % SEATS].extend(deck[pos : pos + 3])
            pos += 3
    okie = deck[pos]
    state.update(
        phase="declare",
        trump=suit(okie),
        okie=okie,
        talon=deck[pos + 1 : pos + 3],
        hands=[sorted(h, key=sort_key) for h in hands],
        answers=[],
        asking=(dealer + 1) % SEATS,
        asked_at=now,
        recipient=None,
        declared=None,
        discard=None,
        dead_public=False,
        played_trump=[False] * SEATS,
        monchi=False,
        trick=0,
        leader=None,
        turn=None,
        table=[],
        tricks=[],
        deal_score=[0, 0],
    )
    events: list[Event] = [
        {"type": "deal", "deal": state["deal"] + 1, "dealer": dealer, "okie": okie}
    ]
    if okie == ORDERS[state["trump"]].robai:  # H5: public Robai, nobody can declare
        events += _give_okie(state, dealer, declared=True)
    return events


def _answer(state: dict[str, Any], seat: int, kind: str, now: int) -> list[Event]:
    state["answers"].append([seat, kind])
    events: list[Event] = [{"type": "answer", "seat": seat, "answer": kind}]
    if kind == "declare":
        return events + _give_okie(state, seat, declared=True)
    if seat == state["dealer"]:
        return events + _give_okie(state, seat, declared=False)
    state["asking"] = (seat + 1) % SEATS
    state["asked_at"] = now
    return events


def _give_okie(state: dict[str, Any], seat: int, declared: bool) -> list[Event]:
    hand = state["hands"][seat]
    hand.append(state["okie"])
    hand.sort(key=sort_key)
    state.update(phase="discard", asking=None, recipient=seat, declared=declared)
    return [{"type": "okie", "seat": seat, "declared": declared}]


def _discardable(state: dict[str, Any]) -> list[str]:
    order = ORDERS[state["trump"]]
    hand = state["hands"][state["recipient"]]
    plain = [c for c in hand if not order.is_trump(c)]
    return plain or [c for c in hand if c != state["okie"]]


def _discard(state: dict[str, Any], seat: int, card: str) -> list[Event]:
    state["hands"][seat].remove(card)
    state.update(discard=card, phase="play", trick=1, leader=seat, turn=seat)
    return [{"type": "discard", "seat": seat}]


# -- trick play ----------------------------------------------------------------------
def _playable(state: dict[str, Any], seat: int) -> list[str]:
    table = state["table"]
    return legal_cards(
        ORDERS[state["trump"]],
        state["hands"][seat],
        table[0][1] if table else None,
        state["trick"] == 1,
        state["monchi"],
        state["played_trump"][seat],
    )


def _play(state: dict[str, Any], seat: int, card: str, now: int) -> list[Event]:
    order = ORDERS[state["trump"]]
    table = state["table"]
    trump = order.is_trump(card)
    events: list[Event] = []
    if not table and not state["dead_public"]:
        state["dead_public"] = True
        events.append({"type": "dead", "cards": [state["discard"], *state["talon"]]})
    if not table and trump:
        state["monchi"] = True  # a Meri: Monchi from this trick on (H9)
    down = bool(table) and trump and not order.is_trump(table[0][1])
    state["hands"][seat].remove(card)
    table.append([seat, card, down])
    if trump:
        state["played_trump"][seat] = True
    events.append({"type": "play", "seat": seat, "card": None if down else card, "face_down": down})
    if len(table) < SEATS:
        state["turn"] = (seat + 1) % SEATS
        return events
    events += _close_trick(state, [s for s, _, _ in table], [c for _, c, _ in table], False)
    if state["trick"] == 9:
        events += _last_trick(state, now)
    return events


def _close_trick(
    state: dict[str, Any], seats: list[int], cards: list[str], last: bool
) -> list[Event]:
    """Score a full trick (rules 15-18), record it and hand the lead to its winner."""
    order = ORDERS[state["trump"]]
    lead = cards[0]
    meri = not last and order.is_trump(lead)
    led_suit = order.suit_of(lead)
    won = order.winner(cards, led_suit)
    winner = seats[won]
    side = winner % 2
    combo = None
    if not meri:
        # H17: a native Robai among the dead cards is public, so never a hidden one.
        dead = order.robai == state["discard"] or order.robai in state["talon"]
        found = combination_value(
            order,
            seats,
            cards,
            won,
            last,
            bool(state["declared"]) or dead,
            state["options"]["concealed_robai_bonus"] == "every_pair",
        )
        if found is not None:
            combo = {"pair": found[0], "value": found[1]}
    gain = 1 + (combo["value"] if combo else 0)
    state["deal_score"][side] += gain
    state["deal_score"][1 - side] -= gain - 1
    record = {
        "number": state["trick"],
        "seats": seats,
        "cards": cards,
        "face_down": [i for i, (_, _, d) in enumerate(state["table"]) if d],
        "meri": meri,
        "winner": winner,
        "combo": combo,
    }
    state["tricks"].append(record)
    state.update(table=[], trick=state["trick"] + 1, leader=winner, turn=winner)
    event = {"type": "trick", **_copy_trick(record)}
    return [event]


def _last_trick(state: dict[str, Any], now: int) -> list[Event]:
    """Trick 9: every last card at once; the dealer's supplies the led suit (rule 16)."""
    dealer = state["dealer"]
    seats = [(dealer + k) % SEATS for k in range(SEATS)]
    cards = [state["hands"][s].pop() for s in seats]
    for s, c in zip(seats, cards, strict=True):
        if ORDERS[state["trump"]].is_trump(c):
            state["played_trump"][s] = True
    events = _close_trick(state, seats, cards, True)
    return events + _end_deal(state, now)


def _end_deal(state: dict[str, Any], now: int) -> list[Event]:
    score = list(state["deal_score"])
    state["scores"] = [state["scores"][0] + score[0], state["scores"][1] + score[1]]
    state["history"].append(score)
    state["previous"] = {
        "deal": state["deal"] + 1,
        "dealer": state["dealer"],
        "okie": state["okie"],
        "recipient": state["recipient"],
        "robai_declared": state["declared"],
        "dead": [state["discard"], *state["talon"]],
        "last_trick": _copy_trick(state["tricks"][-1]),
        "deal_score": score,
    }
    events: list[Event] = [
        {"type": "deal_end", "deal_score": score, "scores": list(state["scores"])}
    ]
    if state["deal"] + 1 >= DEALS:
        state.update(phase="over", turn=None, leader=None)
        return events + [{"type": "match_end", "scores": list(state["scores"])}]
    state["deal"] += 1
    state["dealer"] = (state["dealer"] + 1) % SEATS
    return events + _start_deal(state, now)


# -- copies --------------------------------------------------------------------------
def _copy_trick(trick: dict[str, Any]) -> dict[str, Any]:
    out = dict(trick)
    out["seats"] = list(trick["seats"])
    out["cards"] = list(trick["cards"])
    out["face_down"] = list(trick["face_down"])
    if trick["combo"] is not None:
        out["combo"] = {"pair": list(trick["combo"]["pair"]), "value": trick["combo"]["value"]}
    return out


def _copy_summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    if summary is None:
        return None
    out = dict(summary)
    out["dead"] = list(summary["dead"])
    out["last_trick"] = _copy_trick(summary["last_trick"])
    out["deal_score"] = list(summary["deal_score"])
    return out


GAME = HachininMeri()
