"""CPU player for Shirokuro Jong.

It reads only its seat's view and legal moves. Every difficulty takes a Ron or Tsumo
when offered. Otherwise:

- Normal scores each candidate hand by its shape (adjacent blocks towards two Mentsu
  and an Atama, or four pairs) and, once tenpai, by how many unseen cards complete it;
  it inserts and discards to keep the best hand and calls Pon/Chii when that helps.
- Easy plays like Normal but makes a random insert or discard a third of the time and
  never calls.
- Hard shortlists Normal's best discards and plays them out in possible worlds
  (`sample_world`): each world is finished by fast greedy play for every seat, and the
  discard with the best average round result wins (deal-ins and opponents' wins count
  against it), within a fixed time budget.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.games import shirokuro_deck as deck
from server.games.shirokuro_jong.hands import Mentsu, insertions, is_win, mentsu_of, value_code
from server.games.shirokuro_jong.state import JongState

Action = dict[str, Any]
HARD_BUDGET_S = 0.15  # leaves headroom under the 300 ms p99 target on a busy machine
HARD_SHORTLIST = 3
TENPAI_BONUS = 10.0


def code(text: str) -> int:
    """Value code of a held-card or value text, read from its upright end."""
    return value_code(text[0], int(text[1]))


def faces(card_text: str) -> tuple[int, int]:
    """The two values a card can show, white end first."""
    return code(card_text[:2]), code(card_text[3:])


def exposed_of(melds: Sequence[Sequence[str]]) -> list[Mentsu]:
    """Exposed melds (lists of held texts) as mentsu."""
    out = []
    for meld in melds:
        m = mentsu_of(*sorted(code(t) for t in meld))
        if m is not None:
            out.append(m)
    return out


def unseen_supply(view: dict[str, Any]) -> list[int]:
    """For each value, how many cards not visible to this seat can show it."""
    seen = Counter(deck.card_text(deck.parse_held(t)[0]) for t in view.get("hand", []))
    seen.update(t for row in view["discards"] for t in row)
    seen.update(
        deck.card_text(deck.parse_held(t)[0]) for ms in view["melds"] for m in ms for t in m
    )
    seen[view["dora"]] += 1
    if view.get("drawn"):
        seen[view["drawn"]] += 1
    supply = [0] * 12
    for card in deck.deck(view["options"]["deck"]):
        text = deck.card_text(card)
        if seen[text] > 0:
            seen[text] -= 1
            continue
        for v in faces(text):
            supply[v] += 1
    return supply


def shape_score(vals: Sequence[int], need_m: int, supply: Sequence[int]) -> float:
    """How close a hand between turns (3 * need_m + 1 cards) is to winning.

    Best split into adjacent blocks: complete mentsu 3, one atama 2, and up to the
    missing number of partial mentsu (pairs, or runs with a gap) worth more when more
    unseen cards complete them. Four-pair hands are scored as pairs when concealed.
    """
    n = len(vals)
    memo: dict[tuple[int, int, int, int], float] = {}

    def best(i: int, m: int, p: int, t: int) -> float:
        if i >= n:
            return 0.0
        key = (i, m, p, t)
        if key in memo:
            return memo[key]
        score = best(i + 1, m, p, t)  # card i is left over
        if i + 2 < n and m < need_m and mentsu_of(vals[i], vals[i + 1], vals[i + 2]):
            score = max(score, 3.0 + best(i + 3, m + 1, p, t))
        if i + 1 < n:
            a, b = vals[i], vals[i + 1]
            if a == b and not p:
                score = max(score, 2.0 + best(i + 2, m, 1, t))
            if m + t < need_m and a // 6 == b // 6:
                need = _completers(a, b)
                if need:
                    gain = min(1.6, 0.5 + 0.25 * sum(supply[v] for v in need))
                    score = max(score, gain + best(i + 2, m, p, t + 1))
        memo[key] = score
        return score

    score = best(0, 0, 0, 0)
    if need_m == 2 and n == 7:
        pairs = sum(1 for i in range(0, n - 1) if vals[i] == vals[i + 1])
        score = max(score, 1.6 * min(pairs, 3))
    return score


def _completers(a: int, b: int) -> list[int]:
    """Values that complete two adjacent same-colour cards into a mentsu."""
    if a == b:
        return [a]
    lo, hi = min(a, b), max(a, b)
    colour = a // 6
    if hi - lo == 1:
        return [v for v in (lo - 1, hi + 1) if 0 <= v < 12 and v // 6 == colour]
    if hi - lo == 2:
        return [lo + 1]
    return []


def wait_supply(vals: Sequence[int], exposed: Sequence[Mentsu], supply: Sequence[int]) -> int:
    """Unseen cards that would complete the hand; -1 when it is not tenpai."""
    waits = [v for v in range(12) if any(is_win(h, exposed) for _, h in insertions(vals, v))]
    return sum(supply[v] for v in waits) if waits else -1


def hand_value(vals: Sequence[int], exposed: Sequence[Mentsu], supply: Sequence[int]) -> float:
    """Score of a hand between turns: tenpai hands by their outs, others by shape."""
    need_m = 2 - len(exposed)
    shape = shape_score(vals, need_m, supply)
    if shape >= 3.0 * need_m + 0.9:  # only near-complete shapes can be tenpai
        outs = wait_supply(vals, exposed, supply)
        if outs >= 0:
            return 3.0 * need_m + 2.0 + TENPAI_BONUS + outs
    return shape


def best_discard(
    vals: list[int], exposed: list[Mentsu], supply: Sequence[int]
) -> tuple[float, int]:
    """(value, index) of the discard that leaves the best hand."""
    best = (-1.0, 0)
    for i in range(len(vals)):
        score = hand_value(vals[:i] + vals[i + 1 :], exposed, supply)
        if score > best[0]:
            best = (score, i)
    return best


class ShirokuroJongPolicy(Policy):
    """Shape-and-outs play; Hard adds determinized playouts of its shortlisted discards."""

    game_id = "shirokuro_jong"

    def decide(self, situation: Situation) -> Decision | None:
        """Pick a move and a human-looking delay."""
        legal = situation.legal
        if not legal:
            return None
        rng = situation.rng
        for kind in ("ron", "tsumo"):
            if {"type": kind} in legal:
                return Decision({"type": kind}, rng.randint(500, 1000))
        kind = legal[0]["type"]
        if kind == "next":
            return Decision(legal[0], rng.randint(1500, 2500))
        view = situation.view
        hand = [code(t) for t in view["hand"]]
        exposed = exposed_of(view["melds"][situation.seat])
        supply = unseen_supply(view)
        easy = situation.difficulty == "easy"
        if easy and kind in ("insert", "discard") and rng.random() < 0.33:
            return Decision(rng.choice(legal), rng.randint(700, 1500))
        if kind == "rotate":
            action = self._rotate(view["hand"], exposed, supply)
        elif kind == "insert":
            action = self._insert(legal, hand, exposed, supply, faces(view["drawn"]))
        elif kind == "discard":
            action = self._discard(situation, legal, hand, exposed, supply)
        else:
            action = self._claim(legal, hand, exposed, supply, view, easy)
        delay = rng.randint(400, 900) if kind in ("pass", "pon", "chii") else rng.randint(600, 1400)
        return Decision(action, delay)

    # -- the choices -------------------------------------------------------------------
    def _rotate(self, texts: list[str], exposed: list[Mentsu], supply: Sequence[int]) -> Action:
        """Keep or flip the whole hand, whichever reads better."""

        def worth(vals: list[int]) -> float:
            if len(vals) % 3 == 2:
                return best_discard(vals, exposed, supply)[0]
            return hand_value(vals, exposed, supply)

        kept = worth([code(t) for t in texts])
        flipped = worth([code(t[3:]) for t in texts])
        return {"type": "rotate", "flip": flipped > kept}

    def _insert(
        self,
        legal: list[Action],
        hand: list[int],
        exposed: list[Mentsu],
        supply: Sequence[int],
        drawn: tuple[int, int],
    ) -> Action:
        """The insertion whose best following discard leaves the best hand (a win first)."""
        best: tuple[float, Action] = (-1.0, legal[0])
        for action in legal:
            v = drawn[0] if action["up"] == "W" else drawn[1]
            trial = hand[: action["index"]] + [v] + hand[action["index"] :]
            if is_win(trial, exposed):
                return action
            score = best_discard(trial, exposed, supply)[0]
            if score > best[0]:
                best = (score, action)
        return best[1]

    def _discard(
        self,
        situation: Situation,
        legal: list[Action],
        hand: list[int],
        exposed: list[Mentsu],
        supply: Sequence[int],
    ) -> Action:
        """Normal: the discard leaving the best hand. Hard: playouts of the best few."""
        scored = sorted(
            ((hand_value(hand[:i] + hand[i + 1 :], exposed, supply), i) for i in range(len(hand))),
            reverse=True,
        )
        if situation.difficulty != "hard":
            return {"type": "discard", "index": scored[0][1]}
        shortlist = [i for _, i in scored[:HARD_SHORTLIST]]
        return {"type": "discard", "index": playout_choice(situation, shortlist, HARD_BUDGET_S)}

    def _claim(
        self,
        legal: list[Action],
        hand: list[int],
        exposed: list[Mentsu],
        supply: Sequence[int],
        view: dict[str, Any],
        easy: bool,
    ) -> Action:
        """Pon or Chii only when the hand after the call beats the hand now."""
        calls = [a for a in legal if a["type"] in ("pon", "chii")]
        if easy or not calls:
            return {"type": "pass"}
        now = hand_value(hand, exposed, supply)
        best: tuple[float, Action] = (now + 0.5, {"type": "pass"})
        options = faces(view["claim_on"])
        for action in calls:
            i = action["index"]
            pair = hand[i : i + 2]
            rest = hand[:i] + hand[i + 2 :]
            for v in options:
                m = mentsu_of(*sorted([*pair, v]))
                if m is None:
                    continue
                score = best_discard(rest, [*exposed, m], supply)[0]
                if score > best[0]:
                    best = (score, action)
        return best[1]


# -- Hard: determinized playouts ---------------------------------------------------------
FLAT_SUPPLY = (3,) * 12  # playouts skip card counting: every value equally likely


def playout_choice(situation: Situation, shortlist: list[int], budget_s: float) -> int:
    """The shortlisted discard with the best mean playout result over sampled worlds.

    Every candidate is tried in the same worlds (common random numbers), so the
    comparison is fairer than the number of worlds alone would suggest.
    """
    game, seat = situation.game, situation.seat
    totals = [0.0] * len(shortlist)
    deadline = time.perf_counter() + budget_s
    worlds = 0
    while time.perf_counter() < deadline or worlds == 0:
        world = situation.sample_world()
        for k, index in enumerate(shortlist):
            trial = game.copy(world)
            game.apply(trial, seat, {"type": "discard", "index": index}, 0)
            totals[k] += _playout(game, trial, seat)
        worlds += 1
    best = max(range(len(shortlist)), key=lambda k: (totals[k], -k))
    return shortlist[best]


def _playout(game: Any, state: JongState, seat: int) -> float:
    """Finish the round with greedy play for every seat; the result seen from `seat`."""
    hand_no = state.hand_no
    for _ in range(200):
        if state.phase in ("round_over", "match_over") or state.hand_no != hand_no:
            break
        for s in range(state.seats):
            legal = game.actions(state, s)
            if legal:
                game.apply(state, s, _greedy(state, s, legal), 0)
                break
    result = state.result or {}
    if result.get("kind") == "win":
        value = 0.0
        for w in result["winners"]:
            gain = 2.0 + w["points"]
            value += gain if w["seat"] == seat else -gain
        return value
    return (
        0.5
        if result.get("kind") == "drawn" and any(t["seat"] == seat for t in result["tenpai"])
        else 0.0
    )


def _greedy(state: JongState, seat: int, legal: list[Action]) -> Action:
    """A fast shape-only move: win when possible, never call, keep the best blocks."""
    for kind in ("ron", "tsumo"):
        if {"type": kind} in legal:
            return {"type": kind}
    kind = legal[0]["type"]
    if kind in ("pass", "rotate", "next"):
        return legal[0]
    hand, exposed = state.hand_values(seat), state.exposed(seat)
    need_m = 2 - len(exposed)
    if kind == "insert":
        vals = state.values()
        drawn = (vals[state.drawn * 2], vals[state.drawn * 2 + 1])
        best: tuple[float, Action] = (-1.0, legal[0])
        for action in legal:
            v = drawn[0] if action["up"] == "W" else drawn[1]
            trial = hand[: action["index"]] + [v] + hand[action["index"] :]
            score = shape_score(trial, need_m, FLAT_SUPPLY)
            if score > best[0]:
                best = (score, action)
        return best[1]
    scores = [
        (shape_score(hand[:i] + hand[i + 1 :], need_m, FLAT_SUPPLY), -i) for i in range(len(hand))
    ]
    return {"type": "discard", "index": -max(scores)[1]}


POLICY = ShirokuroJongPolicy()
