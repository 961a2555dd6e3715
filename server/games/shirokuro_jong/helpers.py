"""Shirokuro Jong's helper lines for a seat (issue 45): tenpai, waits and what a win scores.

Pure, from the seat's own view only (never the state): the hand, the exposed melds, the
Dora indicator and the public discard rows. The yaku and points come from the engine's
own scorer (`hands.best_score`) with the facts of a win read off the view the way
`rules._context` reads them off the state:

- a complete hand on the seat's turn after its own draw (`self_drawn`): what Tsumo
  would score now (a hand a Pon or Chii completed is no Tsumo);
- a hand one card short: "Tenpai: waiting on ...", then for each wait the yaku and
  points a win on it would score now (by Tsumo for the drawn card's ends while it waits
  to be inserted, with the insertion as the line's move; by Ron otherwise), or that it
  would score 0 (no yaku) or not count (the room's two-yaku minimum).

A line with a move carries the win's points in a few characters as "short" (en/ja), for
the table to show at that move.
"""

from __future__ import annotations

from typing import Any

from server.games.card_names import Names, join, shiro_value
from server.games.contract import View
from server.games.shirokuro_jong.hands import (
    Mentsu,
    WinContext,
    best_score,
    insertions,
    mentsu_of,
    text,
    value_code,
    waits,
)

Score = tuple[int, list[tuple[str, int]]]
PLAY_PHASES = ("insert", "discard", "claim")
UP_JA = {"W": "白", "B": "黒"}

# The yaku as the table names them (client/web/tables/shirokuro_jong.js).
YAKU_JA = {
    "Oya": "親",
    "Tsumo": "ツモ",
    "Dora": "ドラ",
    "Chin'itsu": "清一色",
    "Tanyao": "断么九",
    "Toitoi": "対々和",
    "Haitei": "海底",
    "Houtei": "河底",
    "Iipeikou": "一盃口",
    "Ikkitsuukan": "一気通貫",
    "Two-Colour Doujun": "二色同順",
    "Two-Colour Doukou": "二色同刻",
    "Suutoitsu": "四対子",
    "Tenhou": "天和",
    "Chiihou": "地和",
    "Renhou": "人和",
}


def code(held: str) -> int:
    """The upright value of a held-card or value text ("B5/W2" -> Black 5)."""
    return value_code(held[0], int(held[1]))


def exposed_of(melds: list[list[str]]) -> list[Mentsu]:
    """A seat's exposed melds (lists of held texts) as mentsu."""
    found = []
    for meld in melds:
        m = mentsu_of(*sorted(code(t) for t in meld))
        if m is not None:
            found.append(m)
    return found


def meld_values(exposed: list[Mentsu]) -> list[int]:
    """The values of exposed mentsu."""
    return [v if kind == "k" else v + k for kind, v in exposed for k in range(3)]


def dora_values(view: View) -> frozenset[int]:
    """The values that count as Dora by the room's option (none before the turn-up)."""
    if view["dora"] is None:
        return frozenset()
    white, black = code(view["dora"][:2]), code(view["dora"][3:])
    if view["options"]["dora"] == "either_number":
        numbers = {white % 6, black % 6}
        return frozenset(v for v in range(12) if v % 6 in numbers)
    return frozenset((white, black))


def win_context(view: View, tsumo: bool) -> WinContext:
    """The facts of a win by the view's seat now, as `rules._context` has them.

    With no call in the round every draw of a seat ended in a discard still in its row
    (the Oya's first discard came without one), so the rows tell the draws apart.
    """
    seat = view["seat"]
    oya = seat == view["oya"]
    clean = not any(view["melds"])
    first = clean and not view["discards"][seat]
    my_turn = view["phase"] != "claim" and view["turn"] == seat
    return WinContext(
        oya=oya,
        tsumo=tsumo,
        dora=dora_values(view),
        haitei=tsumo and view["pile"] == 0,
        houtei=not tsumo and view["pile"] == 0,
        tenhou=tsumo and oya and first and view["phase"] == "discard",
        chiihou=tsumo and not oya and first,
        renhou=not tsumo and not oya and first and not my_turn,
        literal=view["options"]["yaku_reading"] == "literal",
    )


def best_win(
    vals: list[int], v: int, exposed: list[Mentsu], ctx: WinContext, min_yaku: int = 0
) -> tuple[Score, int] | None:
    """(best score, position) of value v inserted anywhere, as the engine scores a win
    (readings with fewer than `min_yaku` yaku do not count), or None if none wins."""
    best: tuple[Score, int] | None = None
    melded = meld_values(exposed)
    for pos, trial in insertions(vals, v):
        found = best_score(trial, exposed, melded, ctx, min_yaku)
        if found is not None and (best is None or found[0] > best[0][0]):
            best = (found, pos)
    return best


def yaku_list(found: list[tuple[str, int]]) -> Names:
    """ "Tanyao 1, Dora 2" / "断么九1、ドラ2"."""
    return {
        "en": ", ".join(f"{name} {p}" for name, p in found),
        "ja": "、".join(f"{YAKU_JA[name]}{p}" for name, p in found),
    }


def score_line(
    found: Score | None, fewest: Score, min_yaku: int, on: Names | None, move: Any = None
) -> dict[str, Any]:
    """The line for one win: its yaku and points, or why it would score nothing.

    `found` is the engine's score with the room's yaku minimum (None: too few yaku),
    `fewest` the best score without it; `on` names the wait (None: Tsumo now)."""
    if on is None:
        subject = {"en": "Tsumo now", "ja": "今ツモなら"}
    else:
        subject = {"en": f"A win on {on['en']}", "ja": f"{on['ja']}で和了なら"}
    if found is None:
        line = {
            "id": "no_yaku",
            "en": f"{subject['en']} would have only {len(fewest[1])} yaku: "
            f"this room needs {min_yaku} to win.",
            "ja": f"{subject['ja']}役は{len(fewest[1])}つだけ："
            f"この部屋は役{min_yaku}つ以上で和了です。",
        }
    elif found[0] == 0:
        line = {
            "id": "no_yaku",
            "en": f"No yaku: {subject['en'][0].lower()}{subject['en'][1:]} would score 0.",
            "ja": f"役なし：{subject['ja']}0点です。",
        }
    else:
        points, yaku = found
        names = yaku_list(yaku)
        line = {
            "id": "yaku",
            "en": f"{subject['en']} scores {points} point{'s' if points > 1 else ''} "
            f"({names['en']}).",
            "ja": f"{subject['ja']}{points}点（{names['ja']}）。",
        }
    if move is not None:
        line["move"] = move
        line["short"] = short_points(found[0] if found else 0, move)
    return line


def short_points(points: int, move: dict[str, Any]) -> dict[str, str]:
    """A win's points in a few characters ("W↑3pt" / "白↑3点" at an insertion, naming
    the drawn card's upright colour as its Flip button does), for the table's badge."""
    if move.get("type") != "insert":
        return {"en": f"{points} pt{'s' if points != 1 else ''}", "ja": f"{points}点"}
    up = move["up"]  # on a gap 44 px wide: the unit written short
    return {"en": f"{up}↑{points}pt", "ja": f"{UP_JA[up]}↑{points}点"}


def helpers(view: View) -> list[dict[str, Any]]:
    """The seat's helper lines (see the module docstring); none for a spectator."""
    seat = view.get("seat")
    hand = view.get("hand")
    if seat is None or not hand or view["phase"] not in PLAY_PHASES:
        return []
    vals = [code(t) for t in hand]
    exposed = exposed_of(view["melds"][seat])
    size = 3 * (2 - len(exposed)) + 2
    min_yaku = view["options"]["min_yaku"]
    if len(vals) == size:
        if not view["self_drawn"]:
            return []  # not its turn, or just after its Pon or Chii: no Tsumo to declare
        ctx, melded = win_context(view, True), meld_values(exposed)
        fewest = best_score(vals, exposed, melded, ctx)
        if fewest is None:
            return []
        found = best_score(vals, exposed, melded, ctx, min_yaku)
        move = {"type": "tsumo"} if found is not None else None
        return [score_line(found, fewest, min_yaku, None, move)]
    if len(vals) != size - 1:
        return []
    wanted = waits(vals, exposed)
    if not wanted:
        return []
    names = [shiro_value(text(v)) for v in wanted]
    listed = join(names)
    lines = [
        {
            "id": "tenpai",
            "en": f"Tenpai: waiting on {listed['en']}.",
            "ja": f"聴牌：{listed['ja']}待ちです。",
        }
    ]
    drawn = view.get("drawn") if view["phase"] == "insert" and view["turn"] == seat else None
    ends = {code(drawn[:2]): "W", code(drawn[3:]): "B"} if drawn else {}
    for v, name in zip(wanted, names, strict=True):
        tsumo = v in ends
        ctx = win_context(view, tsumo)
        fewest = best_win(vals, v, exposed, ctx)
        assert fewest is not None  # `waits` found a winning insertion of v
        found = best_win(vals, v, exposed, ctx, min_yaku) if min_yaku else fewest
        pos = (found or fewest)[1]
        move = {"type": "insert", "index": pos, "up": ends[v]} if tsumo and found else None
        lines.append(score_line(found and found[0], fewest[0], min_yaku, name, move))
    return lines
