"""Shirokuro Jong CPU: how Normal (and Easy) value a hand, from the seat's view.

A hand between turns is worth its shape (adjacent blocks towards two Mentsu and an
Atama, or four pairs, partial blocks worth more when more unseen cards complete them)
or, once tenpai, its outs: the unseen cards that complete it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from server.games import shirokuro_deck as deck
from server.games.shirokuro_jong.hands import Mentsu, insertions, is_win, mentsu_of, value_code

TENPAI_BONUS = 10.0


def code(text: str) -> int:
    """Value code of a held-card or value text, read from its upright end."""
    return value_code(text[0], int(text[1]))


def faces(card_text: str) -> tuple[int, int]:
    """The two values a card can show, white end first."""
    return code(card_text[:2]), code(card_text[3:])


def unseen_cards(view: dict[str, Any]) -> list[str]:
    """Texts of the cards this seat cannot see (pile, other hands), one per card."""
    seen = Counter(deck.card_text(deck.parse_held(t)[0]) for t in view.get("hand", []))
    seen.update(t for row in view["discards"] for t in row)
    seen.update(
        deck.card_text(deck.parse_held(t)[0]) for ms in view["melds"] for m in ms for t in m
    )
    if view["dora"]:  # None while seats choose their rotation (S14)
        seen[view["dora"]] += 1
    if view.get("drawn"):
        seen[view["drawn"]] += 1
    out = []
    for card in deck.deck(view["options"]["deck"]):
        text = deck.card_text(card)
        if seen[text] > 0:
            seen[text] -= 1
        else:
            out.append(text)
    return out


def unseen_supply(view: dict[str, Any]) -> list[int]:
    """For each value, how many cards not visible to this seat can show it."""
    supply = [0] * 12
    for text in unseen_cards(view):
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
    gains = _partial_gains(tuple(supply))
    # What each position starts: a complete mentsu, an atama, a partial mentsu (gain).
    mentsu = [i + 2 < n and (vals[i], vals[i + 1], vals[i + 2]) in MENTSU for i in range(n)]
    pair = [i + 1 < n and vals[i] == vals[i + 1] for i in range(n)]
    partial = [gains[vals[i] * 12 + vals[i + 1]] if i + 1 < n else 0.0 for i in range(n)]
    memo: dict[int, float] = {}

    def best(i: int, m: int, p: int, t: int) -> float:
        if i >= n:
            return 0.0
        key = ((i * 4 + m) * 2 + p) * 4 + t
        found = memo.get(key)
        if found is not None:
            return found
        score = best(i + 1, m, p, t)  # card i is left over
        if mentsu[i] and m < need_m:
            score = max(score, 3.0 + best(i + 3, m + 1, p, t))
        if pair[i] and not p:
            score = max(score, 2.0 + best(i + 2, m, 1, t))
        if partial[i] and m + t < need_m:
            score = max(score, partial[i] + best(i + 2, m, p, t + 1))
        memo[key] = score
        return score

    score = best(0, 0, 0, 0)
    if need_m == 2 and n == 7:
        score = max(score, 1.6 * min(sum(pair), 3))
    return score


MENTSU = frozenset(
    (a, b, c) for a in range(12) for b in range(12) for c in range(12) if mentsu_of(a, b, c)
)


@lru_cache(maxsize=64)  # one supply per decision; recent ones recur
def _partial_gains(supply: tuple[int, ...]) -> tuple[float, ...]:
    """Per pair of adjacent values (a * 12 + b): what it is worth as a partial mentsu.

    Zero when no value completes it; more when more unseen cards complete it.
    """
    out = []
    for a in range(12):
        for b in range(12):
            need = completers(a, b) if a // 6 == b // 6 else []
            out.append(min(1.6, 0.5 + 0.25 * sum(supply[v] for v in need)) if need else 0.0)
    return tuple(out)


def completers(a: int, b: int) -> list[int]:
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
