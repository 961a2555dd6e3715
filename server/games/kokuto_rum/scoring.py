"""Kokuto Rum hand scoring and victory points (RULINGS section 5, items 8-11, K5-K8).

A hand is a list of upright values `(colour, number)` in hand order. Melds are blocks of
adjacent cards: a set of 3-5 equal values, or a run of 3+ same-colour values stepping by
exactly +1 or exactly -1. The score is the least possible sum of numbers left outside
melds, found by one left-to-right scan (dynamic programming over prefixes).

The rules text's worked example (W1 and B1 unmatched):

>>> score([("W", 2), ("W", 2), ("W", 2), ("W", 1), ("B", 2), ("B", 3), ("B", 4), ("B", 1)])
2
"""

from __future__ import annotations

from collections.abc import Sequence

Value = tuple[str, int]
MAX_SET = 5
MIN_MELD = 3
KOKUTO_BONUS = 5
UNDERKNOCK_BONUS = 5
PILE_OUT_BONUS = 5


def best_melds(hand: Sequence[Value]) -> tuple[int, list[tuple[int, int]]]:
    """The least score of `hand` and one partition achieving it, as [start, end) blocks.

    >>> best_melds([("B", 4), ("B", 3), ("B", 2), ("W", 5)])
    (5, [(0, 3)])
    """
    n = len(hand)
    best = [0] * (n + 1)
    back = [0] * (n + 1)  # start of the meld ending here, or -1 if the card is unmatched
    same = up = down = 0  # lengths of the equal / rising / falling blocks ending at i-1
    for i in range(1, n + 1):
        colour, number = hand[i - 1]
        if i >= 2 and hand[i - 2][0] == colour:
            prev = hand[i - 2][1]
            same = same + 1 if prev == number else 1
            up = up + 1 if number == prev + 1 else 1
            down = down + 1 if number == prev - 1 else 1
        else:
            same = up = down = 1
        best[i], back[i] = best[i - 1] + number, -1
        longest = max(min(same, MAX_SET), up, down)
        for length in range(MIN_MELD, longest + 1):
            fits = length <= min(same, MAX_SET) or length <= up or length <= down
            if fits and best[i - length] < best[i]:
                best[i], back[i] = best[i - length], i - length
    melds: list[tuple[int, int]] = []
    i = n
    while i > 0:
        if back[i] < 0:
            i -= 1
        else:
            melds.append((back[i], i))
            i = back[i]
    melds.reverse()
    return best[n], melds


def score(hand: Sequence[Value]) -> int:
    """The least sum of upright numbers left outside melds."""
    return best_melds(hand)[0]


def knock_gains(scores: Sequence[int], knocker: int) -> list[int]:
    """Victory points each seat gains when `knocker` knocked (items 9, K6-K8).

    >>> knock_gains([10, 5, 8], 0)  # the rules text's Underknock example
    [0, 10, 0]
    >>> knock_gains([0, 4, 7], 0), knock_gains([3, 3], 1)
    ([9, 0, 0], [0, 0])
    """
    s_k = scores[knocker]
    m = min(s for seat, s in enumerate(scores) if seat != knocker)
    gains = [0] * len(scores)
    if s_k == 0:
        gains[knocker] = m + KOKUTO_BONUS
    elif s_k <= m:
        gains[knocker] = m - s_k
    else:
        for seat, s in enumerate(scores):
            if seat != knocker and s == m:
                gains[seat] = s_k - m + UNDERKNOCK_BONUS
    return gains


def pile_out_gains(scores: Sequence[int]) -> list[int]:
    """Victory points when the draw pile ran out with no knock: lowest score(s) gain 5.

    >>> pile_out_gains([4, 2, 2])
    [0, 5, 5]
    """
    low = min(scores)
    return [PILE_OUT_BONUS if s == low else 0 for s in scores]


def places(vp: Sequence[int]) -> list[int]:
    """Standings by total: 1 + the number of seats strictly ahead (ties share).

    >>> places([31, 12, 31])
    [1, 3, 1]
    """
    return [1 + sum(other > mine for other in vp) for mine in vp]
