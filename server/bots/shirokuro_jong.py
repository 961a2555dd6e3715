"""CPU player for Shirokuro Jong.

It reads only its seat's view and legal moves. Every difficulty takes a Ron or Tsumo
when offered. Otherwise:

- Normal scores each candidate hand by its shape (adjacent blocks towards two Mentsu
  and an Atama, or four pairs) and, once tenpai, by how many unseen cards complete it;
  it inserts and discards to keep the best hand and calls Pon/Chii when that helps.
- Easy plays like Normal but makes a random insert or discard a third of the time and
  never calls.
- Hard shortlists Normal's best discards and searches possible worlds
  (`sample_world`, every hidden hand fixed): in each it checks which candidate
  discards an opponent could take by Ron, and trades a little shape for safety.
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
HARD_BUDGET_S = 0.12  # leaves headroom under the 300 ms p99 target on a busy machine
HARD_SHORTLIST = 4
MAX_WORLDS = 80
RISK_MARGIN = 2.5  # how much shape value Hard will give up for a safer discard
RISK_WEIGHT = 8.0
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
        return {"type": "discard", "index": safest_good_discard(situation, scored, HARD_BUDGET_S)}

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


# -- Hard: deal-in risk in sampled worlds ------------------------------------------------
def safest_good_discard(
    situation: Situation, scored: list[tuple[float, int]], budget_s: float
) -> int:
    """Among the discards nearly as good as the best, the one least likely to feed a Ron.

    Each sampled world fixes every hidden hand; in it a candidate discard deals in if
    some opponent wins by inserting it either way up. The estimated deal-in rate is
    weighed against the shape value (a deal-in loses the round to that opponent).
    """
    top = scored[0][0]
    candidates = [(v, i) for v, i in scored[:HARD_SHORTLIST] if v >= top - RISK_MARGIN]
    if len(candidates) == 1:
        return candidates[0][1]
    seat = situation.seat
    hits = [0] * len(candidates)
    deadline = time.perf_counter() + budget_s
    worlds = 0
    while worlds < MAX_WORLDS and (worlds == 0 or time.perf_counter() < deadline):
        world: JongState = situation.sample_world()
        vals = world.values()
        opponents = [
            (world.hand_values(o), world.exposed(o)) for o in range(world.seats) if o != seat
        ]
        for k, (_, index) in enumerate(candidates):
            card = world.hands[seat][index] >> 1
            shown = (vals[card * 2], vals[card * 2 + 1])
            if any(_wins_with(hand, exposed, shown) for hand, exposed in opponents):
                hits[k] += 1
        worlds += 1
    best = max(
        range(len(candidates)),
        key=lambda k: (candidates[k][0] - RISK_WEIGHT * hits[k] / worlds, -k),
    )
    return candidates[best][1]


def _wins_with(hand: list[int], exposed: list[Mentsu], shown: tuple[int, int]) -> bool:
    """Whether a hand wins by inserting a card showing either value somewhere."""
    return any(is_win(h, exposed) for v in shown for _, h in insertions(hand, v))


POLICY = ShirokuroJongPolicy()
