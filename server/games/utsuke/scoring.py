"""Utsuke judging and the end of the match (rules 13-15, ruling T9)."""

from __future__ import annotations

from typing import Any

HOMARE_TO_WIN = 3
UCHIKUBI_TO_LOSE = 2


def judge_guesses(guesses: list[int], lord: int) -> list[int]:
    """Homare each guess earns when the Lord took `lord` tricks (rule 13).

    >>> judge_guesses([4, 6, 6], 5), judge_guesses([5, 6, 5], 5), judge_guesses([3, 7], 5)
    ([0, 1, 1], [2, 0, 2], [0, 1])
    """
    if lord in guesses:
        return [2 if g == lord else 0 for g in guesses]
    best = min(guesses, key=lambda g: (abs(g - lord), -g))
    return [1 if g == best else 0 for g in guesses]


def standings(homare: list[int], uchikubi: list[int], end_rule: str) -> dict[str, Any] | None:
    """The final standings after a judging, or None if nobody has won or lost (rule 15).

    Executed players (2 Uchikubi) lose even with 3 Homare; players with 3+ Homare win.
    With losers but no winner (ruling T9) the survivors are ranked by Homare, then fewer
    Uchikubi, or all share first place under the "survivors_share" option. If every
    player is executed at once, all share one place and `winners` is empty.

    >>> standings([3, 1, 0], [0, 0, 2], "ranked")["places"]
    [1, 2, 3]
    >>> standings([1, 2, 2], [2, 1, 0], "ranked")["places"], standings([1, 0], [0, 1], "ranked")
    ([3, 2, 1], None)
    """
    losers = [i for i, u in enumerate(uchikubi) if u >= UCHIKUBI_TO_LOSE]
    winners = [i for i, h in enumerate(homare) if h >= HOMARE_TO_WIN and i not in losers]
    if not winners and not losers:
        return None
    keys: list[tuple[int, int, int]] = []
    for i in range(len(homare)):
        if i in losers:
            keys.append((0, 0, 0))
        elif i in winners:
            keys.append((2, 0, 0))
        elif winners or end_rule == "ranked":
            keys.append((1, homare[i], -uchikubi[i]))
        else:
            keys.append((1, 0, 0))
    places = [1 + sum(k > mine for k in keys) for mine in keys]
    return {
        "places": places,
        "winners": [i for i, p in enumerate(places) if p == 1 and i not in losers],
        "losers": losers,
        "homare": list(homare),
        "uchikubi": list(uchikubi),
    }
