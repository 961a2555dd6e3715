"""The seeds of a room's matches and its CPUs' random streams, derived from the room's
seed (and, for a room made without a fixed seed, its secret series key).

A room plays matches one after another: match 1 deals from the room's own seed, each
later one from `match_seed`; every start keys each seat's CPU stream afresh
(`cpu_streams`). Pure functions: the same inputs always give the same numbers.
"""

from __future__ import annotations

import hashlib

from server.games.rng import Rng


def match_seed(room_seed: int, match: int, series_key: int = 0) -> int:
    """The seed of the room's match number `match`: the room's own seed for the first,
    then a well-mixed 62-bit value per number (so every match deals afresh, reproducibly).

    With a `series_key` (every room made without a fixed seed has a secret one) the later
    seeds are a one-way hash of key, seed and number: a finished match's seed, which its
    match file gives the players, tells nothing about the next match's deal.

    >>> match_seed(5, 1), match_seed(5, 2) == match_seed(5, 2), match_seed(5, 2) != 5
    (5, True, True)
    >>> match_seed(5, 2, series_key=9) not in (match_seed(5, 2), match_seed(5, 2, 8))
    True
    """
    if match == 1:
        return room_seed
    if series_key:
        return _keyed(series_key, room_seed, match)
    return Rng.from_seed(room_seed * 1_000_003 + match).next64() >> 2


def cpu_streams(room_seed: int, match: int, seats: int, series_key: int = 0) -> list[int]:
    """Each seat's CPU random stream (an `Rng` state) at the start of match `match`.

    With a `series_key`, each is a one-way hash of key, seed, match and seat, like the
    later matches' seeds (another input, so one never tells the other): neither a match
    file's seed, which players get, nor anything of an earlier match foretells what a
    CPU will draw. Without one (a room made with a fixed seed, which its creator knows)
    they derive from the match's seed.

    >>> cpu_streams(5, 2, 2) == cpu_streams(5, 2, 2) != cpu_streams(5, 3, 2)
    True
    >>> cpu_streams(5, 1, 2, series_key=9) not in (cpu_streams(5, 1, 2), cpu_streams(5, 1, 2, 8))
    True
    """
    if series_key:
        keyed = [_keyed(series_key, room_seed, match, "cpu", s) for s in range(seats)]
        return [Rng.from_seed(k).state for k in keyed]
    seed = match_seed(room_seed, match)
    return [Rng.from_seed(seed * 131 + s + 7).state for s in range(seats)]


def _keyed(series_key: int, *parts: object) -> int:
    """A 62-bit one-way hash (SHA-256) of the secret `series_key` and `parts`."""
    text = ":".join(str(p) for p in (series_key, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2
