"""A tiny seeded random generator whose whole state is one integer.

Kept inside game states so that a dump carries the generator and a match replays
byte for byte. SplitMix64: fast, well mixed, and trivially serialisable.

>>> a, b = Rng(7), Rng(7)
>>> [a.randrange(10) for _ in range(5)] == [b.randrange(10) for _ in range(5)]
True
>>> deck = list(range(5)); Rng(1).shuffle(deck); sorted(deck)
[0, 1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 generator; `state` is a plain int safe to store."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """A generator for a match seed (any int); nearby seeds give unrelated streams."""
        rng = cls(seed ^ 0x5EED_2A5B_1C0D_E5E1)
        rng.next64()
        return rng

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def randrange(self, n: int) -> int:
        """An int in [0, n)."""
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        return (self.next64() * n) >> 64

    def randint(self, low: int, high: int) -> int:
        """An int in [low, high], both ends included."""
        return low + self.randrange(high - low + 1)

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return seq[self.randrange(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randrange(i + 1)
            seq[i], seq[j] = seq[j], seq[i]
