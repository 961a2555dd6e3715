"""Dealing unseen cards for possible worlds, respecting the voids players have shown."""

from __future__ import annotations

from typing import Any

from server.games.utsuke.cards import COLOURS, colour


def deal_with_voids(
    pool: list[str], sizes: list[int], voids: list[set[str]], rng: Any
) -> list[list[str]]:
    """Deal `pool` at random into hands of `sizes`, never giving a hand a colour it has
    shown to lack. `rng` needs only `randrange` and `shuffle`.

    Cards go out one at a time to a random hand that may hold them, keeping the rest
    dealable (Hall's condition over the 31 sets of colours), so it never gets stuck.
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


def _dealable(left: list[int], room: list[int], masks: list[int]) -> bool:
    """Hall's condition: every set of colours fits in the hands that may hold them."""
    for subset in range(1, 1 << len(left)):
        need = sum(n for i, n in enumerate(left) if subset >> i & 1)
        if need and need > sum(r for r, m in zip(room, masks, strict=True) if m & subset):
            return False
    return True
