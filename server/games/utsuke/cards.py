"""Utsuke cards and the fixed rules of play: card text, following, the NPC algorithm,
the trick winner and the seating order.

A card is its colour letter and number: "R12", "B1". Colours are R Y G B P, numbers 1-12.

>>> colour("G7"), number("G7"), len(CARDS)
('G', 7, 60)
>>> npc_card(["R3", "G9", "R11"], [], first_trick=True), npc_card(["R3", "G9"], [], False)
('R3', 'G9')
>>> npc_card(["R3", "G9", "R11"], [[0, "R5"]], False), npc_card(["G9", "R3"], [[0, "B5"]], False)
('R11', 'G9')
>>> trick_winner([[0, "R5"], [1, "R9"], [2, "B2"]], trump="B")
2
>>> trick_winner([[0, "R5"], [1, "R9"], [2, "G12"]], trump="B")
1
"""

from __future__ import annotations

from typing import Any

COLOURS = "RYGBP"
CARDS = [f"{c}{n}" for c in COLOURS for n in range(1, 13)]
COLOUR_OF = {card: card[0] for card in CARDS}
NUMBER_OF = {card: int(card[1:]) for card in CARDS}
_ORDER = {card: i for i, card in enumerate(CARDS)}


def colour(card: str) -> str:
    """The colour letter of a card."""
    return COLOUR_OF[card]


def number(card: str) -> int:
    """The number (1-12) of a card."""
    return NUMBER_OF[card]


def sort_cards(cards: list[str]) -> list[str]:
    """Cards in display order: by colour (R Y G B P), then number."""
    return sorted(cards, key=_ORDER.__getitem__)


def npc_card(hand: list[str], trick: list[list[Any]], first_trick: bool) -> str:
    """The card an NPC (Lord or Prince) plays: rule 9, fully deterministic."""
    if not trick:
        return hand[0] if first_trick else hand[-1]
    led = COLOUR_OF[trick[0][1]]
    best = None
    for card in hand:
        if COLOUR_OF[card] == led and (best is None or NUMBER_OF[card] > NUMBER_OF[best]):
            best = card
    return best if best is not None else hand[0]


def trick_winner(trick: list[list[Any]], trump: str | None) -> Any:
    """Who takes a full trick: highest trump, else highest card of the led colour."""
    led = COLOUR_OF[trick[0][1]]
    best_who, best_key = trick[0][0], -1
    for who, card in trick:
        c = COLOUR_OF[card]
        key = NUMBER_OF[card] + (100 if c == trump else 50 if c == led else -100)
        if key > best_key:
            best_who, best_key = who, key
    return best_who


def legal_cards(hand: list[str], trick: list[list[Any]]) -> list[str]:
    """The cards a player may play: the led colour if held, else anything."""
    if trick:
        led = COLOUR_OF[trick[0][1]]
        follow = [c for c in hand if COLOUR_OF[c] == led]
        if follow:
            return follow
    return list(hand)


def table_order(seats: int, lord_after: int) -> list[int]:
    """Hand ids clockwise: players 0..N-1, the Lord = N sitting after `lord_after`,
    and at two players the Prince = 3 sitting after the other player."""
    if seats == 2:
        return [0, 2, 1, 3] if lord_after == 0 else [0, 3, 1, 2]
    return [*range(lord_after + 1), seats, *range(lord_after + 1, seats)]
