"""CPU player for Hachinin Meri: plays for its team (seats of its parity).

- Normal: a partner-aware card heuristic over public information — trumps still unseen,
  who on its team and on the other has played a face-down trump to this trick, who is
  still to play. It leads its highest trump whenever it may (a Meri makes every seat show
  its trumps), trumps a plain lead only with a trump no unseen one can beat (or low when
  nobody has trumped yet), plays low under a partner's sure winner, else sheds its least
  useful card. (Measured against random play, spending trumps on unsure tricks lost.)
- Hard: determinized search. It samples possible worlds (`situation.sample_world()`),
  plays every legal card in each, finishes the deal with a fast greedy rollout and keeps
  the card with the best average team score for the deal. The number of worlds comes
  from a fixed budget of simulated card plays, never from a clock, so the same view and
  seed always give the same card.
- Easy: the Normal heuristic, with a third of its moves picked at random.

The declaration and the discard use the same rules at every level. The delay is drawn
the same way for every decision (declare or pass alike), so timing reveals nothing.
"""

from __future__ import annotations

import random
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.why import ONLY_MOVE, Why, sampled
from server.games.card_names import unsun_card
from server.games.contract import Action
from server.games.hachinin_meri.cards import ORDERS, RANKS, Order
from server.games.hachinin_meri.rules import legal_cards

DELAY_MS = (500, 1500)
EASY_RANDOM = 1 / 3
# Card plays simulated per Hard decision; it sets the number of worlds, and was tuned so
# a decision's p99 stays well inside 300 ms in bench_bots.
HARD_PLAYS = 4_000
WORLD_PLAYS = 10  # what sampling one world costs, counted in card plays
DECLARE_POWER = 11  # declare (dealer is an opponent) when the Okie is at least a Rei


class HachininMeriPolicy(Policy):
    """The team-playing CPU for every difficulty."""

    game_id = "hachinin_meri"

    def decide(self, situation: Situation) -> Decision | None:
        """The move for this seat, after a human-looking pause."""
        if not situation.legal:
            return None
        delay = situation.rng.randint(*DELAY_MS)
        kind = situation.legal[0]["type"]
        view = situation.view
        order = ORDERS[view["trump"]]
        if kind in ("declare", "pass"):
            action = _declaration(view, order, situation.legal)
            return Decision(action, delay, _declaration_why(view, action))
        cards = [a["card"] for a in situation.legal]
        if kind == "discard":
            card = _weakest(order, cards)
            name = unsun_card(card)
            why = {
                "en": f"Puts back your least useful card, the {name['en']}.",
                "ja": f"いちばん役に立たない{name['ja']}を戻します。",
            }
            return Decision({"type": "discard", "card": card}, delay, why)
        why: Why | None = None
        if len(cards) == 1:
            card, why = cards[0], ONLY_MOVE
        elif situation.difficulty == "hard":
            card, why = _search(situation, order, cards)
        elif situation.difficulty == "easy" and situation.rng.random() < EASY_RANDOM:
            card = situation.rng.choice(cards)
        else:
            card = _heuristic(view, order, cards)
        return Decision({"type": "play", "card": card}, delay, why)


# -- declaration and discard ------------------------------------------------------------
def _declaration(view: dict[str, Any], order: Order, legal: list[Action]) -> Action:
    """Declare only to keep a strong Okie from an opposing dealer; else stay hidden."""
    declare = {"type": "declare"}
    if declare in legal:
        opposing_dealer = view["dealer"] % 2 != view["seat"] % 2
        if opposing_dealer and order.trump_power(view["okie"]) >= DECLARE_POWER:
            return declare
    return {"type": "pass"}


def _declaration_why(view: dict[str, Any], action: Action) -> Why:
    """Why declare (a strong Okie, an opposing dealer) or stay hidden."""
    okie = unsun_card(view["okie"])
    if action["type"] == "declare":
        return {
            "en": f"Declares: the Okie, the {okie['en']}, is strong and the dealer is on "
            "the other team.",
            "ja": f"宣言します：オキの{okie['ja']}は強く、親は相手チームです。",
        }
    if view["dealer"] % 2 == view["seat"] % 2:
        return {
            "en": "Does not declare: the dealer is on your team.",
            "ja": "宣言しません：親は味方チームです。",
        }
    return {
        "en": f"Does not declare: the Okie, the {okie['en']}, is not strong enough to keep "
        "from the other team.",
        "ja": f"宣言しません：オキの{okie['ja']}は相手から守るほど強くありません。",
    }


def _value(order: Order, card: str) -> tuple[int, int]:
    """How much a card is worth keeping: any trump above any plain card."""
    power = order.trump_power(card)
    return (1, power) if power else (0, order.plain_power(card))


def _weakest(order: Order, cards: list[str]) -> str:
    return min(cards, key=lambda c: _value(order, c))


# -- Normal: public-information heuristic ----------------------------------------------
def _heuristic(view: dict[str, Any], order: Order, cards: list[str]) -> str:
    seat = view["seat"]
    seen = set(view["hand"])
    for trick in view["tricks"]:
        seen.update(trick["cards"])
    seen.update(e["card"] for e in view["table"] if e["card"] is not None)
    if view["dead"]:
        seen.update(view["dead"])
    unseen = sorted(order.trump_power(t) for t in order.trumps if t not in seen)
    table = view["table"]
    if not table:
        return _lead(view, order, cards, seen, unseen)
    still_to_play = [(seat + k) % 8 for k in range(1, 8 - len(table))]
    opponents_after = sum(1 for s in still_to_play if s % 2 != seat % 2)
    lead = table[0]["card"]
    if order.is_trump(lead):
        return _follow_meri(view, order, cards, unseen, opponents_after)
    return _follow_plain(view, order, cards, unseen, opponents_after)


def _beats_unseen(order: Order, card: str, unseen: list[int]) -> float:
    """Share of the unseen trumps this trump beats."""
    if not unseen:
        return 1.0
    power = order.trump_power(card)
    return sum(1 for p in unseen if p < power) / len(unseen)


def _lead(
    view: dict[str, Any], order: Order, cards: list[str], seen: set[str], unseen: list[int]
) -> str:
    trumps = sorted((c for c in cards if order.is_trump(c)), key=order.trump_power)
    if trumps:
        return trumps[-1]  # a Meri makes everyone show trumps; ours leads them
    plain = [c for c in cards if not order.is_trump(c)]
    if not plain:
        return trumps[0]
    for card in sorted(plain, key=order.plain_power, reverse=True):
        higher = [
            c for c in _suit_cards(order, card[0]) if order.plain_power(c) > order.plain_power(card)
        ]
        if all(c in seen for c in higher):
            return card  # the best of its suit still out
    return min(plain, key=order.plain_power)


def _suit_cards(order: Order, suit: str) -> list[str]:
    return [suit + r for r in RANKS if not order.is_trump(suit + r)]


def _follow_meri(
    view: dict[str, Any], order: Order, cards: list[str], unseen: list[int], opponents_after: int
) -> str:
    seat = view["seat"]
    played = [(e["seat"], e["card"]) for e in view["table"] if order.is_trump(e["card"])]
    top_seat, top = max(played, key=lambda sc: order.trump_power(sc[1]))
    trumps = sorted((c for c in cards if order.is_trump(c)), key=order.trump_power)
    if not trumps:
        return _weakest(order, cards)
    safe = _beats_unseen(order, top, unseen) == 1.0 or opponents_after == 0
    if top_seat % 2 == seat % 2 and safe:
        return trumps[0]
    winners = [c for c in trumps if order.trump_power(c) > order.trump_power(top)]
    for card in winners:
        if opponents_after == 0 or _beats_unseen(order, card, unseen) == 1.0:
            return card
    return trumps[0]


def _follow_plain(
    view: dict[str, Any], order: Order, cards: list[str], unseen: list[int], opponents_after: int
) -> str:
    seat = view["seat"]
    table = view["table"]
    led = order.suit_of(table[0]["card"])
    down = [e["seat"] % 2 == seat % 2 for e in table if e["face_down"]]
    ours, theirs = sum(down), len(down) - sum(down)
    plain_best = max(
        (e for e in table if not e["face_down"] and order.suit_of(e["card"]) == led),
        key=lambda e: order.plain_power(e["card"]),
    )
    partner_leads_plain = plain_best["seat"] % 2 == seat % 2
    threat = theirs > 0 or opponents_after > 0 or (not down and not partner_leads_plain)
    if ours and not theirs and opponents_after == 0:
        threat = False
    trumps = sorted((c for c in cards if order.is_trump(c)), key=order.trump_power)
    if threat and trumps:
        sure = [c for c in trumps if _beats_unseen(order, c, unseen) == 1.0]
        if sure:
            return sure[0]  # the cheapest trump nobody can beat
        if theirs == 0 and not down:
            return trumps[0]  # nobody has trumped yet: a low trump may do
    if not down and not partner_leads_plain:
        better = [
            c
            for c in cards
            if order.suit_of(c) == led
            and order.plain_power(c) > order.plain_power(plain_best["card"])
        ]
        if better:
            return min(better, key=order.plain_power)
    shed = [c for c in cards if not order.is_trump(c)] or cards
    return _weakest(order, shed)


# -- Hard: determinized search over sampled worlds -------------------------------------
def _search(situation: Situation, order: Order, cards: list[str]) -> tuple[str, Why]:
    game = situation.game
    seat = situation.seat
    team = seat % 2
    rng = random.Random(situation.rng.next64())
    remaining = sum(situation.view["hand_counts"]) + 1
    worlds = max(3, HARD_PLAYS // (WORLD_PLAYS + len(cards) * remaining))
    totals = dict.fromkeys(cards, 0.0)
    for _ in range(worlds):
        world = situation.sample_world()
        for card in cards:
            state = game.copy(world)
            game.apply(state, seat, {"type": "play", "card": card}, 0)
            totals[card] += _rollout(game, state, order, rng, team)
    card = max(cards, key=lambda c: (totals[c], -cards.index(c)))
    name, mean, where = unsun_card(card), totals[card] / worlds, sampled(worlds)
    return card, {
        "en": f"The {name['en']} gives your team the most points this deal "
        f"{where['en']} (about {mean:.1f}).",
        "ja": f"{where['ja']}、{name['ja']}がこの配でチームの点をいちばん多くします"
        f"（平均約{mean:.1f}点）。",
    }


def _rollout(game: Any, state: dict[str, Any], order: Order, rng: random.Random, team: int) -> int:
    """Finish the deal with greedy play on the world's true cards; our team's deal score."""
    deal = state["deal"]
    while state["deal"] == deal and state["phase"] == "play":
        seat = state["turn"]
        table = state["table"]
        hand = state["hands"][seat]
        legal = legal_cards(
            order,
            hand,
            table[0][1] if table else None,
            state["trick"] == 1,
            state["monchi"],
            state["played_trump"][seat],
        )
        card = _greedy(order, table, legal, seat, rng)
        game.apply(state, seat, {"type": "play", "card": card}, 0)
    return state["history"][deal][team] if len(state["history"]) > deal else 0


def _greedy(
    order: Order, table: list[list[Any]], legal: list[str], seat: int, rng: random.Random
) -> str:
    """Win as cheaply as possible when the other team holds the trick, else shed."""
    if len(legal) == 1:
        return legal[0]
    if not table:
        return legal[rng.randrange(len(legal))]
    cards = [e[1] for e in table]
    led = order.suit_of(cards[0])
    won = order.winner(cards, led)
    best = cards[won]
    if table[won][0] % 2 != seat % 2:
        key = _value(order, best)
        winners = [
            c
            for c in legal
            if (order.is_trump(c) or order.suit_of(c) == led) and _value(order, c) > key
        ]
        if winners:
            return min(winners, key=lambda c: _value(order, c))
    return _weakest(order, legal)


POLICY = HachininMeriPolicy()
