"""Pure rule helpers shared by the engine and the CPU player: legal cards, trick results.

They work on plain card lists so a search can call them without a whole game state.
"""

from __future__ import annotations

from server.games.hachinin_meri.cards import Order

TEAMS = ((0, 2, 4, 6), (1, 3, 5, 7))


def team_of(seat: int) -> int:
    """0 for seats 0, 2, 4, 6 (team A), 1 for seats 1, 3, 5, 7 (team B)."""
    return seat % 2


def legal_cards(
    order: Order,
    hand: list[str],
    lead: str | None,
    first_trick: bool,
    monchi: bool,
    played_trump: bool,
) -> list[str]:
    """The cards of `hand` that may be played now.

    `lead` is the card led to this trick (None when leading), `monchi` whether a Meri
    has happened this deal, `played_trump` whether this seat has played a trump this deal
    (which ends its Sun exception, H10).
    """
    if lead is None:
        if first_trick:  # trick 1 is led with a nontrump unless there is none (H6)
            plain = [c for c in hand if not order.is_trump(c)]
            return plain or list(hand)
        return list(hand)
    if order.is_trump(lead):  # Meri: trumps must be played (rule 12)
        trumps = [c for c in hand if order.is_trump(c)]
        if not trumps or (trumps == [order.sun] and not played_trump):
            return list(hand)
        return trumps
    if not monchi:  # before the first Meri there is no duty to follow (rule 11)
        return list(hand)
    led = order.suit_of(lead)
    followers = [c for c in hand if order.suit_of(c) == led]
    if not followers:
        return list(hand)
    return [c for c in hand if order.suit_of(c) == led or order.is_trump(c)]


def combination_value(
    order: Order,
    seats: list[int],
    cards: list[str],
    winner: int,
    last_trick: bool,
    robai_declared: bool,
    every_pair_bonus: bool,
) -> tuple[list[str], int] | None:
    """The combination a non-Meri trick scores, as ([W, O], value), or None (rule 18).

    `winner` indexes the winning card. W is the winning trump; O the strongest trump of the
    other team. Worth 5 on trick 9 or when the native Robai is in the pair and was never
    declared (H13; with `every_pair_bonus` any pair while it is undeclared); else 2.
    """
    best = cards[winner]
    if not order.is_trump(best):
        return None
    side = seats[winner] % 2
    opposing = [c for s, c in zip(seats, cards, strict=True) if s % 2 != side]
    trumps = [c for c in opposing if order.is_trump(c)]
    if not trumps:
        return None
    strongest = max(trumps, key=order.trump_power)
    if not order.combination(best, strongest):
        return None
    hidden_robai = not robai_declared and (every_pair_bonus or order.robai in (best, strongest))
    return [best, strongest], (5 if last_trick or hidden_robai else 2)
