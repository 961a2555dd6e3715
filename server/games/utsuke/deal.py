"""Dealing unseen cards for possible worlds, respecting the voids players have shown."""

from __future__ import annotations

from typing import Any

from server.games.utsuke.cards import COLOURS, colour

GREEDY_TRIES = 8


def deal_with_voids(
    pool: list[str], sizes: list[int], voids: list[set[str]], rng: Any
) -> list[list[str]]:
    """Deal `pool` at random into hands of `sizes`, never giving a hand a colour it has
    shown to lack. `rng` needs only `randrange` and `shuffle`.

    A quick greedy deal (most constrained cards first) is tried a few times; if it gets
    stuck, cards go out one at a time to a random hand that may hold them, keeping the
    rest dealable (Hall's condition over the 31 sets of colours), which never gets stuck.
    """
    cards = list(pool)
    rng.shuffle(cards)
    if not any(voids):
        out, at = [], 0
        for n in sizes:
            out.append(cards[at : at + n])
            at += n
        return out
    masks = [sum(1 << i for i, c in enumerate(COLOURS) if c not in v) for v in voids]
    for _ in range(GREEDY_TRIES):
        quick = _greedy(cards, sizes, masks, rng)
        if quick is not None:
            return quick
    left = [0] * len(COLOURS)
    for card in cards:
        left[COLOURS.index(colour(card))] += 1
    room = list(sizes)
    out = [[] for _ in sizes]
    for card in cards:
        col = COLOURS.index(colour(card))
        left[col] -= 1
        choices = [h for h, m in enumerate(masks) if room[h] and m >> col & 1]
        rng.shuffle(choices)
        for h in choices:
            room[h] -= 1
            if _dealable(left, room, masks):
                out[h].append(card)
                break
            room[h] += 1
        else:  # unreachable while the constraints come from a real deal
            raise ValueError("no deal fits the shown voids")
    return out


def _greedy(
    cards: list[str], sizes: list[int], masks: list[int], rng: Any
) -> list[list[str]] | None:
    """Most constrained cards first, each to a random hand with room that may hold it;
    None when it paints itself into a corner (the caller then deals carefully)."""
    bits = [1 << COLOURS.index(colour(card)) for card in cards]
    order = sorted(range(len(cards)), key=lambda i: sum(1 for m in masks if m & bits[i]))
    room = list(sizes)
    out: list[list[str]] = [[] for _ in sizes]
    for i in order:
        choices = [h for h, m in enumerate(masks) if room[h] and m & bits[i]]
        if not choices:
            return None
        weights = sum(room[h] for h in choices)
        pick = rng.randrange(weights)
        for h in choices:
            pick -= room[h]
            if pick < 0:
                break
        room[h] -= 1
        out[h].append(cards[i])
    return out


def _dealable(left: list[int], room: list[int], masks: list[int]) -> bool:
    """Hall's condition: every set of colours fits in the hands that may hold them."""
    for subset in range(1, 1 << len(left)):
        need = sum(n for i, n in enumerate(left) if subset >> i & 1)
        if need and need > sum(r for r, m in zip(room, masks, strict=True) if m & subset):
            return False
    return True
