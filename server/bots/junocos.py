"""The Junocos CPU player.

Every level aims its trick play at a bet: the declaration is whichever open card is left
last, so the player keeps choosing the open number that best matches the tricks it has
and expects, and tries to win tricks only while it is below that number (or to take none
at all when zero pays best). The draft picks open cards that cover the likely trick
counts, plus strength.

- Easy plays that heuristic with frequent random slips.
- Normal plays the heuristic.
- Hard samples possible worlds (`situation.sample_world()`), plays every candidate move
  out to the end of the round in each with the heuristic for all seats (determinized
  Monte Carlo), and takes the move with the best mean points; the draft is searched the
  same way. The search is budgeted in playout steps, never in time, so a position and the
  seat's random generator always give the same move, however busy the machine.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.why import ONLY_MOVE, Why, sampled
from server.games.card_names import colour_card
from server.games.junocos import COLOURS, TRICKS, TRUMP, round_points, strength, suit_of

EASY_SLIP = 0.35
HARD_WORLDS = 16  # the most worlds one decision samples
HARD_DRAFT_MOVES = 6  # the draft searches only the heuristic's best few picks
# Search budget per decision in playout steps (picks and card plays over all playouts);
# sized so a decision stays well inside 300 ms (see tests/bench/bench_bots.py).
HARD_STEPS = 8000
WORLD_STEPS = 30  # drawing and setting up one world costs about this many steps
MISS_PENALTY = 3.0  # points given up per trick the expected count misses a target by
SPREAD = 1.8  # spread of a seat's trick count around the mean, for the draft
ZERO_WEIGHT = 0.6  # how much a 0 open card is worth in the draft (the 15-point nil)


class Sim:
    """One round in progress, stripped to what trick play needs, cheap to copy."""

    __slots__ = (
        "seats",
        "start",
        "trump",
        "printed",
        "suit",
        "power",
        "lead",
        "chance",
        "hands",
        "opens",
        "won",
        "trick",
        "turn",
        "played",
        "stacks",
        "row",
    )

    def __init__(self, state: dict[str, Any]) -> None:
        self.seats: int = state["seats"]
        self.start: int = state["start"]
        self.printed = state["options"].get("trump_number_suit") == "printed"
        self.stacks = state["options"].get("zero_trick_bonus") != "replace"
        self.hands: list[list[str]] = [list(h) for h in state["hands"]]
        self.opens: list[list[str]] = [list(o) for o in state["open"]]
        self.won: list[int] = list(state["won"])
        self.trick: list[tuple[int, str]] = [(s, c) for s, c, _ in state["trick"]]
        self.turn: int = state["turn"]
        self.played: int = len(state["tricks"])
        self.row: list[str] = list(state["row"])
        self.trump = ""
        if state["trump"] is not None:
            self.set_trump(state["trump"])

    def set_trump(self, trump: str) -> None:
        """Take the lookup tables for this trump indicator."""
        self.trump = trump
        self.suit, self.power, self.lead, self.chance = _tables(trump, self.printed)

    def clone(self) -> Sim:
        """An independent copy (tables shared: they never change within a round)."""
        other = Sim.__new__(Sim)
        other.seats, other.start, other.trump = self.seats, self.start, self.trump
        other.printed, other.stacks = self.printed, self.stacks
        other.turn, other.played, other.row = self.turn, self.played, list(self.row)
        other.hands = [list(h) for h in self.hands]
        other.opens = [list(o) for o in self.opens]
        other.won, other.trick = list(self.won), list(self.trick)
        if self.trump:
            other.suit, other.power = self.suit, self.power
            other.lead, other.chance = self.lead, self.chance
        return other

    # -- draft -------------------------------------------------------------------------
    def pick(self, seat: int, card: str) -> None:
        """Take a row card; the last one left becomes the trump indicator."""
        self.row.remove(card)
        self.opens[seat].append(card)
        self.turn = (seat + 1) % self.seats
        if len(self.row) == 1:
            self.set_trump(self.row.pop())
            self.turn = self.start

    def draft_choice(self, seat: int) -> str:
        """The heuristic pick: open numbers covering likely trick counts, then strength."""
        return max(dict.fromkeys(self.row), key=self.pick_value(seat))

    def pick_value(self, seat: int) -> Any:
        """The heuristic's value of each row card for `seat` (a function of the card)."""
        mean = TRICKS / self.seats
        numbers = {int(c[1]) for c in self.opens[seat]}
        mine = self.hands[seat] + self.opens[seat]

        def value(card: str) -> float:
            d = int(card[1])
            cover = ZERO_WEIGHT if d == 0 else math.exp(-((d - mean) ** 2) / (2 * SPREAD**2))
            score = cover * (0.2 if d in numbers else 1.0) + 0.04 * d
            if len(self.row) == 2:  # this pick makes the other card the trump
                left = self.row[1] if self.row[0] == card else self.row[0]
                score += 0.05 * sum(c[0] == left[0] or c[1] == left[1] for c in mine)
            return score

        return value

    def finish_draft(self) -> None:
        """Complete the draft with the heuristic pick for every seat."""
        while self.row:
            self.pick(self.turn, self.draft_choice(self.turn))

    # -- trick play ------------------------------------------------------------------
    def playable(self, seat: int) -> list[tuple[str, str]]:
        """The engine's must-follow rule on this copy."""
        cards = [(c, "hand") for c in self.hands[seat]]
        if len(self.opens[seat]) > 1:
            cards += [(c, "open") for c in self.opens[seat]]
        if self.trick:
            led = self.suit[self.trick[0][1]]
            follow = [p for p in cards if self.suit[p[0]] == led]
            if follow:
                return follow
        return cards

    def play(self, seat: int, card: str, source: str) -> None:
        """Play a card; close the trick when everyone has played."""
        (self.hands if source == "hand" else self.opens)[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.seats:
            self.turn = (seat + 1) % self.seats
            return
        power = self.power[self.suit[self.trick[0][1]]]
        winner, best = self.trick[0][0], -1
        for s, c in self.trick:
            if power[c] >= best:
                winner, best = s, power[c]
        self.won[winner] += 1
        self.trick = []
        self.turn = winner
        self.played += 1

    def target(self, seat: int) -> int | None:
        """The trick count this seat now aims at; None means 'as many as possible'."""
        won = self.won[seat]
        left = TRICKS - self.played
        mine = self.hands[seat] + self.opens[seat][:-1]
        chance = self.chance
        expect = won + sum(chance[c] for c in mine)
        best, best_score = None, expect
        if won == 0:
            best, best_score = 0, 10 - MISS_PENALTY * expect
        for card in self.opens[seat]:
            d = int(card[1])
            if d < won or d - won > left:
                continue
            score = round_points(d, card, self.stacks) - MISS_PENALTY * abs(expect - d)
            if score > best_score:
                best, best_score = d, score
        return best

    def choose(self, seat: int) -> tuple[str, str]:
        """The heuristic move: win while below the target, duck once it is reached."""
        options = self.playable(seat)
        if len(options) == 1:
            return options[0]
        goal = self.target(seat)
        if goal is not None and sum(int(c[1]) == goal for c in self.opens[seat]) == 1:
            # the only open card showing the goal stays down as the declaration
            rest = [p for p in options if p[1] == "hand" or int(p[0][1]) != goal]
            options = rest or options
        want = goal is None or self.won[seat] < goal
        lead = self.lead
        if not self.trick:
            return (
                max(options, key=lambda p: lead[p[0]])
                if want
                else min(options, key=lambda p: lead[p[0]])
            )
        power = self.power[self.suit[self.trick[0][1]]]
        best = max(power[c] for _, c in self.trick)
        winners = [p for p in options if power[p[0]] >= best]
        losers = [p for p in options if power[p[0]] < best]
        last = len(self.trick) == self.seats - 1
        if want and winners:
            pick = min if last else max
            return pick(winners, key=lambda p: power[p[0]])
        if want:
            return min(losers, key=lambda p: lead[p[0]])
        if losers:
            return max(losers, key=lambda p: lead[p[0]])
        return max(winners, key=lambda p: power[p[0]])

    def finish(self) -> None:
        """Play the rest of the round with the heuristic for every seat."""
        while self.played < TRICKS:
            seat = self.turn
            card, source = self.choose(seat)
            self.play(seat, card, source)

    def points(self, seat: int) -> int:
        """Round points of `seat` once the round is finished."""
        return round_points(self.won[seat], self.opens[seat][0], self.stacks)


@cache
def _tables(trump: str, printed: bool) -> tuple[Any, ...]:
    """Effective suit, strength by led suit, lead strength and win chance of every card."""
    cards = [c + v for c in COLOURS for v in "01234567S"]
    suit = {c: suit_of(c, trump, printed) for c in cards}
    power = {led: {c: strength(c, trump, led) for c in cards} for led in COLOURS + TRUMP}
    lead = {c: power[suit[c]][c] for c in cards}
    return suit, power, lead, {c: _win_chance(lead[c]) for c in cards}


def _win_chance(power: int) -> float:
    """Rough chance that a card with this lead strength takes a trick."""
    if power >= 90:
        return 0.95
    if power >= 50:
        return 0.35 + 0.08 * (power - 50)
    if power == 49:
        return 0.3
    return max(0.0, (power - 23) * 0.1)


def _known(view: dict[str, Any]) -> dict[str, Any]:
    """A state-shaped dict from a view: the seat's own hand, other hands empty."""
    hands = [[] for _ in range(view["seats"])]
    hands[view["seat"]] = list(view["hand"])
    return {**view, "hands": hands}


class JunocosPolicy(Policy):
    """Heuristic bet-aiming play; Hard adds determinized Monte Carlo over sampled worlds."""

    game_id = "junocos"

    def decide(self, situation: Situation) -> Decision | None:
        """A move for the seat to play, after a human-looking pause."""
        if not situation.legal:
            return None
        rng = situation.rng
        delay = rng.randint(500, 1500)
        if len(situation.legal) == 1:
            return Decision(situation.legal[0], delay, ONLY_MOVE)
        if situation.difficulty == "hard":
            move, why = self._search(situation)
            return Decision(move, delay, why)
        if situation.difficulty == "easy" and rng.random() < EASY_SLIP:
            return Decision(rng.choice(situation.legal), delay)
        sim = Sim(_known(situation.view))
        return Decision(_action(sim, situation.seat), delay)

    def _search(self, situation: Situation) -> tuple[dict[str, Any], Why]:
        """Mean round points of each legal move over sampled worlds, heuristic playouts;
        the best move and why."""
        seat = situation.seat
        moves = list({repr(a): a for a in situation.legal}.values())
        if moves[0]["type"] == "pick":
            value = Sim(_known(situation.view)).pick_value(seat)
            moves = sorted(moves, key=lambda m: -value(m["card"]))[:HARD_DRAFT_MOVES]
        totals = [0.0] * len(moves)
        worlds = _worlds(situation.view, len(moves))
        for _ in range(worlds):
            world = Sim(situation.sample_world())
            for i, move in enumerate(moves):
                sim = world.clone()
                if move["type"] == "pick":
                    sim.pick(seat, move["card"])
                    sim.finish_draft()
                else:
                    sim.play(seat, move["card"], move["from"])
                sim.finish()
                totals[i] += sim.points(seat)
        best = max(range(len(moves)), key=totals.__getitem__)
        move, mean, where = moves[best], totals[best] / worlds, sampled(worlds)
        name = colour_card(move["card"])
        if move["type"] == "pick":
            en, ja = f"Takes the {name['en']} from the row", f"列から{name['ja']}を取る手"
        else:
            en, ja = f"Plays the {name['en']}", f"{name['ja']}を出す手"
        return move, {
            "en": f"{en}: {where['en']}, it scores the most this round (about {mean:.1f} points).",
            "ja": f"{where['ja']}、{ja}がこのラウンドでいちばん点を取れます"
            f"（平均約{mean:.1f}点）。",
        }


def _worlds(view: dict[str, Any], moves: int) -> int:
    """How many worlds fit the step budget: each plays every move out to the round's end."""
    picks = max(0, len(view["row"]) - 1)  # the last row card becomes the trump indicator
    plays = (TRICKS - len(view["tricks"])) * view["seats"] - len(view["trick"])
    per_world = WORLD_STEPS + moves * (picks + plays)
    return max(1, min(HARD_WORLDS, HARD_STEPS // per_world))


def _action(sim: Sim, seat: int) -> dict[str, Any]:
    """The heuristic move as an action dict."""
    if sim.row:
        return {"type": "pick", "card": sim.draft_choice(seat)}
    card, source = sim.choose(seat)
    return {"type": "play", "card": card, "from": source}


POLICY = JunocosPolicy()
