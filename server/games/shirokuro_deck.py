"""The 30-card Shirokuro deck shared by Kokuto Rum and Shirokuro Jong (RULINGS, shared section).

Every card has a white number (1-6) at one end and a black number at the other. A card
is identified by its index in the deck table; `deck(composition)` gives its
`(white, black)` pair. Composition "A" (the default) holds every ordered pair with
white != black; composition "B" holds the six pairs with white + black = 7, five copies
each. Either way each (colour, number) value is printed on exactly 5 cards.

A held card is a card plus which colour is upright, "W" or "B"; its value is the upright
(colour, number) pair and the other end is ignored.

Text forms (one short string each, used in views and moves alike):

- card: white end first, ``"W2/B5"`` (orientation does not matter, e.g. on a discard pile);
- held card: upright end first, ``"W2/B5"`` (white 2 upright) or ``"B5/W2"`` (black 5 upright);
- value: ``"W2"``, ``"B5"``.

>>> len(deck("A")), len(deck("B"))
(30, 30)
>>> card_text((2, 5)), held_text((2, 5), "B"), value((2, 5), "B")
('W2/B5', 'B5/W2', ('B', 5))
>>> parse_held("B5/W2")
((2, 5), 'B')
>>> rotate([(0, "W"), (7, "B")])
[(0, 'B'), (7, 'W')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

WHITE = "W"
BLACK = "B"
COLOURS = (WHITE, BLACK)
NUMBERS = (1, 2, 3, 4, 5, 6)
COMPOSITIONS = ("A", "B")
DEFAULT_COMPOSITION = "A"

Card = tuple[int, int]  # (white number, black number)
Value = tuple[str, int]  # (upright colour, upright number)
C = TypeVar("C")

_DECKS: dict[str, tuple[Card, ...]] = {
    "A": tuple((w, b) for w in NUMBERS for b in NUMBERS if w != b),
    "B": tuple((w, 7 - w) for w in NUMBERS for _ in range(5)),
}


def deck(composition: str = DEFAULT_COMPOSITION) -> tuple[Card, ...]:
    """The (white, black) pair of every card id 0..29 for a composition ("A" or "B").

    >>> deck("A")[:3]
    ((1, 2), (1, 3), (1, 4))
    >>> sorted(set(deck("B")))
    [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 1)]
    >>> from collections import Counter
    >>> set(Counter(value(c, u) for c in deck("A") for u in COLOURS).values())
    {5}
    """
    try:
        return _DECKS[composition]
    except KeyError:
        raise ValueError(f"unknown Shirokuro deck composition {composition!r}") from None


def flip(up: str) -> str:
    """The other colour.

    >>> flip("W"), flip("B")
    ('B', 'W')
    """
    return BLACK if up == WHITE else WHITE


def value(card: Card, up: str) -> Value:
    """The upright (colour, number) of a card held with colour `up` upright.

    >>> value((2, 5), "W")
    ('W', 2)
    """
    return (WHITE, card[0]) if up == WHITE else (BLACK, card[1])


def card_text(card: Card) -> str:
    """Orientation-free text of a card, white end first.

    >>> card_text((6, 1))
    'W6/B1'
    """
    return f"W{card[0]}/B{card[1]}"


def held_text(card: Card, up: str) -> str:
    """Text of a held card, upright end first.

    >>> held_text((6, 1), "W"), held_text((6, 1), "B")
    ('W6/B1', 'B1/W6')
    """
    return f"W{card[0]}/B{card[1]}" if up == WHITE else f"B{card[1]}/W{card[0]}"


def value_text(v: Value) -> str:
    """Text of a value.

    >>> value_text(("B", 4))
    'B4'
    """
    return f"{v[0]}{v[1]}"


def _parse_end(text: str) -> Value:
    if len(text) != 2 or text[0] not in COLOURS or text[1] not in "123456":
        raise ValueError(f"not a card end: {text!r}")
    return text[0], int(text[1])


def parse_held(text: object) -> tuple[Card, str]:
    """The card and upright colour of a held-card text; ValueError if malformed.

    >>> parse_held("W3/B1")
    ((3, 1), 'W')
    >>> parse_held("W3/W1")
    Traceback (most recent call last):
    ValueError: not a card: 'W3/W1'
    """
    if not isinstance(text, str) or len(text) != 5 or text[2] != "/":
        raise ValueError(f"not a card: {text!r}")
    (c1, n1), (c2, n2) = _parse_end(text[:2]), _parse_end(text[3:])
    if c1 == c2:
        raise ValueError(f"not a card: {text!r}")
    return ((n1, n2), WHITE) if c1 == WHITE else ((n2, n1), BLACK)


def parse_card(text: object) -> Card:
    """The card of a card text (white end first); ValueError if malformed.

    >>> parse_card("W2/B5")
    (2, 5)
    """
    card, up = parse_held(text)
    if up != WHITE:
        raise ValueError(f"a card text starts with its white end: {text!r}")
    return card


def parse_value(text: object) -> Value:
    """The value of a value text; ValueError if malformed.

    >>> parse_value("W6")
    ('W', 6)
    """
    if not isinstance(text, str):
        raise ValueError(f"not a value: {text!r}")
    return _parse_end(text)


def rotate(hand: Sequence[tuple[C, str]]) -> list[tuple[C, str]]:
    """The start-of-round whole-hand rotation: every held card flipped, order kept.

    Physically the order also reverses, but melds depend only on adjacency and runs go
    either way, so only the flip matters (RULINGS K2); keeping the order keeps positions
    stable for the player.

    >>> rotate([((2, 5), "W"), ((1, 3), "W")])
    [((2, 5), 'B'), ((1, 3), 'B')]
    """
    return [(card, flip(up)) for card, up in hand]


def is_set(values: Sequence[Value]) -> bool:
    """Whether the values are all the same colour and number (no length rule).

    >>> is_set([("W", 2)] * 3), is_set([("W", 2), ("B", 2), ("W", 2)])
    (True, False)
    """
    return all(v == values[0] for v in values)


def is_run(values: Sequence[Value]) -> bool:
    """Whether the values share a colour and step by exactly +1 or exactly -1 throughout.

    >>> is_run([("B", 4), ("B", 3), ("B", 2)]), is_run([("B", 2), ("B", 4), ("B", 3)])
    (True, False)
    """
    if len(values) < 2:
        return False
    colour, first = values[0]
    step = values[1][1] - first
    if step not in (1, -1):
        return False
    return all(c == colour and n == first + i * step for i, (c, n) in enumerate(values))
