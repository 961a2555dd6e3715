"""Kokuto Rum hand scoring cross-checked against a brute-force scorer on random hands."""

from __future__ import annotations

import itertools
import random

from server.games import shirokuro_deck as sd
from server.games.kokuto_rum import scoring

Value = tuple[str, int]


def is_meld(block: list[Value]) -> bool:
    """A set of 3-5 equal values or a run of 3+ one-colour values stepping by 1."""
    if len(block) < 3 or len({c for c, _ in block}) != 1:
        return False
    numbers = [n for _, n in block]
    if len(set(numbers)) == 1:
        return len(block) <= 5
    step = numbers[1] - numbers[0]
    return step in (1, -1) and all(b - a == step for a, b in itertools.pairwise(numbers))


def brute_score(hand: list[Value]) -> int:
    """Try every way to cut the hand into consecutive blocks; melds score 0, others sum."""
    best = sum(n for _, n in hand)
    for cuts in itertools.product((False, True), repeat=len(hand) - 1):
        total, start = 0, 0
        for i, cut in enumerate([*cuts, True]):
            if cut:
                block = hand[start : i + 1]
                total += 0 if is_meld(block) else sum(n for _, n in block)
                start = i + 1
        best = min(best, total)
    return best


def random_hand(rng: random.Random) -> list[Value]:
    """8 or 9 cards from a real deck, or (half the time) from a few values, for many melds."""
    size = rng.choice((8, 9))
    if rng.random() < 0.5:
        cards = rng.sample(sd.deck(rng.choice(sd.COMPOSITIONS)), size)
        return [sd.value(c, rng.choice(sd.COLOURS)) for c in cards]
    colours = rng.choice(("W", "WB", "WWB"))
    low = rng.randint(1, 4)
    return [(rng.choice(colours), rng.randint(low, low + 2)) for _ in range(size)]


def test_scorer_matches_brute_force_on_thousands_of_random_hands() -> None:
    rng = random.Random(2024)
    for _ in range(3000):
        hand = random_hand(rng)
        assert scoring.score(hand) == brute_score(hand), hand


def test_scorer_partition_is_valid_and_adds_up() -> None:
    rng = random.Random(7)
    for _ in range(1000):
        hand = random_hand(rng)
        total, melds = scoring.best_melds(hand)
        covered = [i for a, b in melds for i in range(a, b)]
        assert len(covered) == len(set(covered))
        assert all(is_meld(hand[a:b]) for a, b in melds)
        assert total == sum(n for i, (_, n) in enumerate(hand) if i not in covered)


def test_brute_force_scorer_agrees_with_the_rules_text_example() -> None:
    hand = [("W", 2), ("W", 2), ("W", 2), ("W", 1), ("B", 2), ("B", 3), ("B", 4), ("B", 1)]
    assert brute_score(hand) == 2
