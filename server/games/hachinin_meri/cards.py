"""The 75-card Unsun pack and Hachinin Meri's card orders (RULINGS section 2, items 2-7).

A card is one short string, suit letter + rank token, in views and moves alike:

- suits: ``P`` Pao (batons), ``I`` Isu (swords) — the long suits; ``K`` Koppu (cups),
  ``O`` Ouru (coins), ``G`` Guru (tomoe) — the round suits;
- ranks: ``1``..``9``, ``So`` Sota, ``Ka`` Kaba, ``Re`` Rei, ``Ro`` Robai, ``Un``, ``Su`` Sun.

So ``"ISu"`` is the Isu Sun, ``"G8"`` the Guru 8 and ``"PRo"`` the Pao Robai (Tenka).

>>> len(DECK), DECK[0], DECK[-1]
(75, 'P1', 'GSu')
>>> ORDERS["K"].is_trump("PRo"), ORDERS["K"].suit_of("PRo"), ORDERS["K"].suit_of("P3")
(True, 'K', 'P')
>>> sorted(ORDERS["I"].trumps, key=ORDERS["I"].trump_power, reverse=True)[:5]
['ISu', 'IUn', 'ISo', 'PRo', 'IRo']
>>> ORDERS["K"].trump_power("K1") > ORDERS["K"].trump_power("K2")
True
>>> len(ORDERS["P"].trumps), len(ORDERS["O"].trumps)
(15, 16)
"""

from __future__ import annotations

SUITS = "PIKOG"
LONG_SUITS = "PI"
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "So", "Ka", "Re", "Ro", "Un", "Su")
DECK = [s + r for s in SUITS for r in RANKS]
INDEX = {card: i for i, card in enumerate(DECK)}
TENKA = "PRo"

# Trump strength above the numerals, low to high (rule 6); Tenka sits between Robai and Sota.
_TRUMP_COURTS = ("Ka", "Re", "Ro", "Tenka", "So", "Un", "Su")
# Plain order, low to high (rule 7), per suit kind.
_PLAIN_TOP = ("So", "Ka", "Re", "Un", "Su")
_PLAIN_LOW = {
    "P": ("1", "2", "3", "4", "5", "6", "7", "8", "9"),
    "I": ("1", "Ro", "2", "3", "4", "5", "6", "7", "8", "9"),
    "round": ("9", "8", "7", "6", "5", "4", "3", "2", "1", "Ro"),
}
# (winner, strongest opposing trump) rank pairs that score a combination (rule 18).
_PAIRS = (("Su", "Un"), ("Un", "So"), ("So", "Ro"), ("Ro", "Re"))


def suit(card: str) -> str:
    """The printed suit letter.

    >>> suit("GRo")
    'G'
    """
    return card[0]


def rank(card: str) -> str:
    """The rank token.

    >>> rank("GRo"), rank("I7")
    ('Ro', '7')
    """
    return card[1:]


def sort_key(card: str) -> int:
    """Pack order, for tidy hands."""
    return INDEX[card]


class Order:
    """Everything that depends on the trump suit of a deal: which cards are trumps,
    the effective suit of each card, trump and plain strengths, combinations."""

    def __init__(self, trump: str) -> None:
        self.trump = trump
        self.robai = trump + "Ro"
        self.sun = trump + "Su"
        numerals = [trump + str(n) for n in range(1, 10)]
        if trump not in LONG_SUITS:
            numerals.reverse()  # round trumps run 1 high .. 9 low
        courts = [TENKA if r == "Tenka" else trump + r for r in _TRUMP_COURTS]
        if trump == "P":
            courts.remove(TENKA)  # the Pao Robai is the native Robai, listed once
        ranked = numerals + courts
        self._trump = {card: i + 1 for i, card in enumerate(ranked)}
        self.trumps = frozenset(ranked)
        self._suit = {card: (trump if card in self._trump else suit(card)) for card in DECK}
        self._plain: dict[str, int] = {}
        for s in SUITS:
            low = _PLAIN_LOW[s] if s in LONG_SUITS else _PLAIN_LOW["round"]
            for i, r in enumerate(low + _PLAIN_TOP):
                self._plain[s + r] = i + 1
        second, first = ("2", "1") if trump in LONG_SUITS else ("8", "9")
        self.pairs = frozenset((trump + w, trump + o) for w, o in (*_PAIRS, (second, first)))

    def is_trump(self, card: str) -> bool:
        """Whether the card is a trump this deal (suit T, or the Pao Robai)."""
        return card in self._trump

    def suit_of(self, card: str) -> str:
        """The suit the card counts as: the trump suit for every trump."""
        return self._suit[card]

    def trump_power(self, card: str) -> int:
        """Trump strength (1 = lowest trump), or 0 for a plain card."""
        return self._trump.get(card, 0)

    def plain_power(self, card: str) -> int:
        """Strength within its printed suit when played as a plain card."""
        return self._plain[card]

    def winner(self, cards: list[str], led_suit: str) -> int:
        """Index in `cards` of the card that takes the trick (rule 15)."""
        best, best_key = 0, (-1, -1)
        for i, card in enumerate(cards):
            power = self._trump.get(card, 0)
            if power:
                key = (1, power)
            elif self._suit[card] == led_suit:
                key = (0, self._plain[card])
            else:
                continue
            if key > best_key:
                best, best_key = i, key
        return best

    def combination(self, winning: str, opposing: str) -> bool:
        """Whether (winning trump, strongest opposing trump) is a scoring pair.

        >>> ORDERS["I"].combination("ISo", "IRo"), ORDERS["I"].combination("ISo", "PRo")
        (True, False)
        >>> ORDERS["P"].combination("PSo", "PRo"), ORDERS["G"].combination("G8", "G9")
        (True, True)
        """
        return (winning, opposing) in self.pairs


ORDERS = {t: Order(t) for t in SUITS}
