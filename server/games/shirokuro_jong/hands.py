"""Winning-hand readings and yaku for Shirokuro Jong (RULINGS section 6, items 8 and 13).

Works on value codes only: a value is an int 0..11, ``colour * 6 + number - 1`` with
white = 0 and black = 1, so one colour's numbers are consecutive ints. A hand is the
ordered list of upright values of its concealed cards; exposed melds are given as
mentsu. A mentsu is ``("k", v)`` (Koutsu of value v) or ``("s", v)`` (Shuntsu whose
lowest value is v).

>>> from server.games.shirokuro_jong.hands import parse_values, readings
>>> readings(parse_values("W2 W2 W2 W1 W1 B2 B3 B4"), [])
[((('k', 1), ('s', 7)), 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Mentsu = tuple[str, int]
# A reading: (mentsu, atama value) for the normal shape, or ("pairs", four values).
Reading = tuple[tuple[Mentsu, ...], int] | tuple[str, tuple[int, ...]]

VALUES = tuple(range(12))
WIN_SIZE = 8


def colour(v: int) -> int:
    """0 for white, 1 for black."""
    return v // 6


def number(v: int) -> int:
    """The printed number 1..6."""
    return v % 6 + 1


def value_code(up: str, n: int) -> int:
    """The code of an upright (colour, number) value.

    >>> value_code("B", 4)
    9
    """
    return (0 if up == "W" else 6) + n - 1


def text(v: int) -> str:
    """Text form of a value code, such as "W3"."""
    return ("W", "B")[colour(v)] + str(number(v))


def parse_values(s: str) -> list[int]:
    """Value codes from a space-separated text such as "W1 W2 B3" (tests and docs)."""
    return [value_code(t[0], int(t[1])) for t in s.split()]


def is_shuntsu(a: int, b: int, c: int) -> bool:
    """Three values of one colour stepping by exactly +1 or exactly -1 (RULINGS S3).

    >>> is_shuntsu(*parse_values("B4 B3 B2")), is_shuntsu(*parse_values("W2 W4 W3"))
    (True, False)
    """
    if colour(a) != colour(c):
        return False
    return (b - a == 1 and c - b == 1) or (b - a == -1 and c - b == -1)


def mentsu_of(a: int, b: int, c: int) -> Mentsu | None:
    """The mentsu three values in this order form, or None."""
    if a == b == c:
        return ("k", a)
    if is_shuntsu(a, b, c):
        return ("s", min(a, c))
    return None


def _split(vals: Sequence[int], i: int, need_m: int, pair: bool) -> list[tuple[list[Mentsu], int]]:
    """Every way vals[i:] splits into `need_m` adjacent mentsu plus one atama if `pair`."""
    n = len(vals)
    if i == n:
        return [([], -1)] if need_m == 0 and not pair else []
    out: list[tuple[list[Mentsu], int]] = []
    if pair and i + 1 < n and vals[i] == vals[i + 1]:
        for ms, _ in _split(vals, i + 2, need_m, False):
            out.append((ms, vals[i]))
    if need_m and i + 2 < n:
        m = mentsu_of(vals[i], vals[i + 1], vals[i + 2])
        if m is not None:
            for ms, atama in _split(vals, i + 3, need_m - 1, pair):
                out.append(([m, *ms], atama))
    return out


def readings(vals: Sequence[int], exposed: Sequence[Mentsu]) -> list[Reading]:
    """Every reading of a concealed hand plus exposed melds as a winning hand.

    Blocks are runs of adjacent cards in hand order; each exposed meld is one mentsu;
    four adjacent pairs (Suutoitsu) need a fully concealed hand (RULINGS S7).
    """
    need_m = 2 - len(exposed)
    if need_m < 0 or len(vals) != 3 * need_m + 2:
        return []
    found: list[Reading] = [((*exposed, *ms), atama) for ms, atama in _split(vals, 0, need_m, True)]
    if not exposed and all(vals[i] == vals[i + 1] for i in range(0, WIN_SIZE, 2)):
        found.append(("pairs", tuple(vals[0::2])))
    return found


def is_win(vals: Sequence[int], exposed: Sequence[Mentsu]) -> bool:
    """Whether the hand has at least one winning reading."""
    return bool(readings(vals, exposed))


def insertions(vals: Sequence[int], v: int) -> Iterable[tuple[int, list[int]]]:
    """(position, hand) for value v inserted at every position of the hand."""
    for pos in range(len(vals) + 1):
        yield pos, [*vals[:pos], v, *vals[pos:]]


def waits(vals: Sequence[int], exposed: Sequence[Mentsu]) -> list[int]:
    """The values that win when inserted somewhere: tenpai if non-empty (RULINGS S10)."""
    return [v for v in VALUES if any(is_win(h, exposed) for _, h in insertions(vals, v))]


@dataclass(frozen=True)
class WinContext:
    """Facts about a win that are not in the hand's shape."""

    oya: bool = False
    tsumo: bool = False
    dora: frozenset[int] = frozenset()
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    literal: bool = False  # RULINGS S6 literal reading of Iipeikou and Doujun


def yaku(reading: Reading, all_values: Sequence[int], ctx: WinContext) -> list[tuple[str, int]]:
    """Every yaku of one reading with its points; `all_values` are the 8 upright values."""
    found: list[tuple[str, int]] = []
    if ctx.oya:
        found.append(("Oya", 1))
    if ctx.tsumo:
        found.append(("Tsumo", 1))
    dora = sum(1 for v in all_values if v in ctx.dora)
    if dora:
        found.append(("Dora", dora))
    if len({colour(v) for v in all_values}) == 1:
        found.append(("Chin'itsu", 1))
    if all(number(v) not in (1, 6) for v in all_values):
        found.append(("Tanyao", 1))
    if reading[0] == "pairs":
        found.append(("Suutoitsu", 8))
    else:
        found.extend(_mentsu_yaku(reading[0], ctx.literal))  # type: ignore[arg-type]
    if ctx.haitei:
        found.append(("Haitei", 1))
    if ctx.houtei:
        found.append(("Houtei", 1))
    if ctx.tenhou:
        found.append(("Tenhou", 16))
    if ctx.chiihou:
        found.append(("Chiihou", 16))
    if ctx.renhou:
        found.append(("Renhou", 16))
    return found


def _mentsu_yaku(mentsu: Sequence[Mentsu], literal: bool) -> list[tuple[str, int]]:
    """Yaku decided by the two mentsu of a normal reading."""
    (k1, v1), (k2, v2) = mentsu
    found: list[tuple[str, int]] = []
    if k1 == k2 == "k":
        found.append(("Toitoi", 1))
        if colour(v1) != colour(v2) and number(v1) == number(v2):
            found.append(("Two-Colour Doukou", 4))
    if k1 == k2 == "s":
        same_colour = colour(v1) == colour(v2)
        if (v1 == v2) or (literal and same_colour):
            found.append(("Iipeikou", 2))
        if same_colour and {number(v1), number(v2)} == {1, 4}:
            found.append(("Ikkitsuukan", 2))
        if not same_colour and (literal or number(v1) == number(v2)):
            found.append(("Two-Colour Doujun", 4))
    return found


def best_score(
    vals: Sequence[int],
    exposed: Sequence[Mentsu],
    exposed_values: Sequence[int],
    ctx: WinContext,
    min_yaku: int = 0,
) -> tuple[int, list[tuple[str, int]]] | None:
    """(points, yaku) of the reading that scores most, or None if no reading wins.

    Readings with fewer than `min_yaku` yaku do not count (advanced option).
    """
    all_values = [*vals, *exposed_values]
    best: tuple[int, list[tuple[str, int]]] | None = None
    for reading in readings(vals, exposed):
        found = yaku(reading, all_values, ctx)
        if len(found) < min_yaku:
            continue
        points = sum(p for _, p in found)
        if best is None or points > best[0]:
            best = (points, found)
    return best
