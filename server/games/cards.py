"""Small helpers for French-suited cards in their one text form.

A card is the string suit + rank: "S1" is the ace of spades, "D4" the four of diamonds.
Suits are S, H, C, D; ranks are ints from 1 (ace). Games keep cards as these strings in
their states, views and moves, so nothing needs converting on the way out.

>>> parse("H3")
('H', 3)
>>> format_card("C", 1)
'C1'
>>> format_card(*parse("D4"))
'D4'
>>> deck(4)[:5]
['S1', 'H1', 'C1', 'D1', 'S2']
>>> sorted(["D2", "S4", "H2", "S1"], key=sort_key)
['S1', 'H2', 'D2', 'S4']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SUITS = "SHCD"


def format_card(suit: str, rank: int) -> str:
    """The text form of a card.

    >>> format_card("S", 1)
    'S1'
    >>> format_card("X", 1)
    Traceback (most recent call last):
    ...
    ValueError: unknown suit 'X'
    """
    if suit not in SUITS or len(suit) != 1:
        raise ValueError(f"unknown suit {suit!r}")
    if rank < 1:
        raise ValueError(f"bad rank {rank!r}")
    return f"{suit}{rank}"


def parse(text: str) -> tuple[str, int]:
    """(suit, rank) of a card's text form; ValueError for anything else.

    >>> parse("S1")
    ('S', 1)
    >>> parse("S01")
    Traceback (most recent call last):
    ...
    ValueError: not a card: 'S01'
    """
    if not is_card(text):
        raise ValueError(f"not a card: {text!r}")
    return text[0], int(text[1:])


def is_card(value: Any, max_rank: int = 13) -> bool:
    """Whether `value` is a card's text form with a rank in 1..max_rank.

    >>> is_card("H4"), is_card("H5", 4), is_card("h4"), is_card(["H4"]), is_card("H0")
    (True, False, False, False, False)
    """
    if not isinstance(value, str) or len(value) < 2 or value[0] not in SUITS:
        return False
    digits = value[1:]
    if not digits.isdigit() or not digits.isascii() or digits[0] == "0":
        return False
    return 1 <= int(digits) <= max_rank


def rank(text: str) -> int:
    """The rank of a well-formed card.

    >>> rank("C3")
    3
    """
    return int(text[1:])


def suit(text: str) -> str:
    """The suit of a well-formed card.

    >>> suit("C3")
    'C'
    """
    return text[0]


def deck(ranks: int) -> list[str]:
    """Every card of ranks 1..ranks in all four suits, in rank-then-suit order.

    >>> len(deck(4)), deck(1)
    (16, ['S1', 'H1', 'C1', 'D1'])
    """
    return [format_card(s, r) for r in range(1, ranks + 1) for s in SUITS]


def sort_key(text: str) -> tuple[int, int]:
    """Order by rank, then suit in S H C D order (the order hands are shown in)."""
    return rank(text), SUITS.index(text[0])


def ranks_held(cards: Iterable[str]) -> dict[int, int]:
    """How many cards of each rank are held.

    >>> ranks_held(["S2", "H2", "C1", "D2"])
    {2: 3, 1: 1}
    """
    counts: dict[int, int] = {}
    for card in cards:
        r = rank(card)
        counts[r] = counts.get(r, 0) + 1
    return counts
