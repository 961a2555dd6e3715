"""Shirokuro Jong CPU, Hard: points-aware hand values and one draw of lookahead.

A tenpai hand's outs are weighted by the points of each wait (Dora, Oya and yaku of the
reading), Dora cards count for a little while the hand is forming, and an exposed meld
counts as the complete block it is, so calls compare fairly. The best few hands are
ranked by the value expected after the next draw from the unseen cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from server.bots.contract import Situation
from server.bots.shirokuro_jong.shape import (
    MENTSU,
    TENPAI_BONUS,
    code,
    completers,
    faces,
    shape_score,
    unseen_cards,
)
from server.games.shirokuro_jong.hands import Mentsu, WinContext, best_score, insertions, mentsu_of
from server.games.shirokuro_jong.helpers import dora_values, meld_values

Action = dict[str, Any]
HARD_SHORTLIST = 3
AVERAGE_POINTS = 3.0  # a typical win's points
DENIAL = 2.0  # what a win is worth beyond its points: it ends the others' chances
DORA_BONUS = 0.4  # per Dora card held or exposed, while the hand is forming
CALL_MARGIN = 1.5  # a call must beat the hand now by this much: passing keeps a draw
WIN_VALUE = 60.0  # a win of average points, against about 20-35 for a tenpai hand


@dataclass
class Outlook:
    """What Hard prices hands with during one decision (all from the seat's view)."""

    supply: list[int]
    unseen: list[tuple[int, int, int]]  # (white face, black face, copies) of unseen cards
    ctx: WinContext
    dora: frozenset[int]
    cache: dict[tuple[tuple[int, ...], tuple[Mentsu, ...]], float] = field(default_factory=dict)


def outlook(view: dict[str, Any], seat: int) -> Outlook:
    """The seat's outlook: unseen cards, its Dora values and how it would score a Ron."""
    counts = Counter(unseen_cards(view))
    unseen = [(*faces(text), n) for text, n in counts.items()]
    supply = [0] * 12
    for w, b, n in unseen:
        supply[w] += n
        supply[b] += n
    dora = dora_values(view)
    ctx = WinContext(
        oya=seat == view["oya"],
        dora=dora,
        literal=view["options"]["yaku_reading"] == "literal",
    )
    return Outlook(supply, unseen, ctx, dora)


def win_points(vals: Sequence[int], exposed: Sequence[Mentsu], out: Outlook) -> int:
    """Points of a complete hand won by Ron (-1 if it does not win)."""
    found = best_score(vals, exposed, meld_values(exposed), out.ctx)
    return -1 if found is None else found[0]


def hard_value(vals: Sequence[int], exposed: Sequence[Mentsu], out: Outlook) -> float:
    """Hard's score of a hand between turns: shape or weighted outs, plus Dora and melds.

    Outs are weighted by what the win would score (winning also stops the others);
    each exposed mentsu counts as the complete block it is, so calls compare fairly.
    """
    key = (tuple(vals), tuple(exposed))
    if key in out.cache:
        return out.cache[key]
    need_m = 2 - len(exposed)
    score = shape_score(vals, need_m, out.supply)
    # Every tenpai hand scores at least 3 * need_m - 1.2 as a shape (four pairs: 4.8).
    waits = wait_mask(vals, need_m) if score >= 3.0 * need_m - 1.5 else 0
    if waits:
        outs = 0.0
        for v in range(12):
            if waits >> v & 1:
                pts = max(win_points(h, exposed, out) for _, h in insertions(vals, v))
                outs += out.supply[v] * (pts + DENIAL) / (AVERAGE_POINTS + DENIAL)
        score = 3.0 * need_m + 2.0 + TENPAI_BONUS + outs
    score += 3.0 * len(exposed)
    score += DORA_BONUS * sum(1 for v in [*vals, *meld_values(exposed)] if v in out.dora)
    out.cache[key] = score
    return score


def wait_mask(vals: Sequence[int], need_m: int) -> int:
    """Bit v set when inserting value v somewhere completes the hand (need_m mentsu + atama).

    A winning insertion completes one block: a single card into an atama, or two
    adjacent cards into a mentsu (a pair into a Koutsu, a run missing an end or its
    middle into a Shuntsu); every other card sits in complete blocks. Four pairs count
    when `need_m` is 2 (a concealed hand). Much cheaper than trying every insertion.
    """
    n = len(vals)
    if n != 3 * need_m + 1:
        return 0
    partial = [_completer_mask(vals[i], vals[i + 1]) if i + 1 < n else 0 for i in range(n)]
    memo: dict[int, int] = {}

    def rest(i: int, m: int, p: int, used: int) -> int:
        if i == n:
            return ALL_VALUES if m == need_m and p and used else 0
        key = ((i * 4 + m) * 2 + p) * 2 + used
        found = memo.get(key)
        if found is not None:
            return found
        mask = 0
        if m < need_m and i + 2 < n and (vals[i], vals[i + 1], vals[i + 2]) in MENTSU:
            mask |= rest(i + 3, m + 1, p, used)
        if not p and i + 1 < n and vals[i] == vals[i + 1]:
            mask |= rest(i + 2, m, 1, used)
        if not used:
            if m < need_m and partial[i]:
                mask |= partial[i] & rest(i + 2, m + 1, p, 1)
            if not p:
                mask |= (1 << vals[i]) & rest(i + 1, m, 1, 1)
        memo[key] = mask
        return mask

    mask = rest(0, 0, 0, 0)
    if need_m == 2:
        for j in range(0, n, 2):  # the single card of four pairs sits at an even position
            pairs = [*range(0, j, 2), *range(j + 1, n, 2)]
            if all(vals[k] == vals[k + 1] for k in pairs):
                mask |= 1 << vals[j]
    return mask


ALL_VALUES = (1 << 12) - 1


@lru_cache(maxsize=256)
def _completer_mask(a: int, b: int) -> int:
    """Bits of the values completing two adjacent cards into a mentsu."""
    if a // 6 != b // 6:
        return 0
    return sum(1 << v for v in completers(a, b))


def _related(a: int, b: int) -> bool:
    """Whether two values could share a mentsu (same colour, numbers at most 2 apart)."""
    return a // 6 == b // 6 and abs(a - b) <= 2


def after_draw(vals: Sequence[int], exposed: Sequence[Mentsu], v: int, out: Outlook) -> float:
    """The best Hard value after drawing value v: the best-scoring win, or else an
    insertion and a discard.

    Only insertions next to a related card are tried, plus one at the end (an unrelated
    card placed elsewhere only splits blocks).
    """
    n = len(vals)
    trials = []
    for pos in range(n + 1):
        near = (pos > 0 and _related(vals[pos - 1], v)) or (pos < n and _related(vals[pos], v))
        trial = (*vals[:pos], v, *vals[pos:])
        if (near or pos == n) and trial not in trials:
            trials.append(trial)
    pts = max(win_points(trial, exposed, out) for trial in trials)
    if pts >= 0:
        return WIN_VALUE * (pts + DENIAL) / (AVERAGE_POINTS + DENIAL)
    return max(
        hard_value(trial[:d] + trial[d + 1 :], exposed, out)
        for trial in trials
        for d in range(n + 1)
    )


def lookahead(vals: Sequence[int], exposed: Sequence[Mentsu], out: Outlook) -> float:
    """Expected Hard value after the next draw from the unseen cards (either way up)."""
    nxt = [after_draw(vals, exposed, v, out) if out.supply[v] else 0.0 for v in range(12)]
    total = sum(n for _, _, n in out.unseen)
    if not total:
        return hard_value(vals, exposed, out)
    return sum(n * max(nxt[w], nxt[b]) for w, b, n in out.unseen) / total


def hard_pick(hands: list[tuple[list[int], Action]], exposed: list[Mentsu], out: Outlook) -> Action:
    """Of the candidate hands (each with the move leading to it), the best after a draw.

    Static values shortlist; the shortlist is ranked by the value expected after the
    next draw, ties by the static value.
    """
    scored = sorted(
        ((hard_value(h, exposed, out), k) for k, (h, _) in enumerate(hands)), reverse=True
    )
    short: list[tuple[float, int]] = []
    kept: set[tuple[int, ...]] = set()
    for value, k in scored:
        key = tuple(hands[k][0])
        if key not in kept:
            kept.add(key)
            short.append((value, k))
        if len(short) == HARD_SHORTLIST:
            break
    best = max(short, key=lambda vk: (lookahead(hands[vk[1]][0], exposed, out), vk[0]))
    return hands[best[1]][1]


def hard_turn(situation: Situation, kind: str, hand: list[int], exposed: list[Mentsu]) -> Action:
    """Hard's rotation, insertion (a win first) or discard."""
    out = outlook(situation.view, situation.seat)
    if kind == "rotate":
        texts = situation.view["hand"]
        flipped = [code(t[3:]) for t in texts]
        kept, other = (hard_static(vals, exposed, out) for vals in (hand, flipped))
        return {"type": "rotate", "flip": other > kept}
    if kind == "discard":
        hands = [
            (hand[:i] + hand[i + 1 :], {"type": "discard", "index": i}) for i in range(len(hand))
        ]
        return hard_pick(hands, exposed, out)
    drawn = faces(situation.view["drawn"])
    hands = []
    for action in situation.legal:  # no insertion wins: `best_tsumo_insert` was asked first
        v = drawn[0] if action["up"] == "W" else drawn[1]
        trial = hand[: action["index"]] + [v] + hand[action["index"] :]
        hands += [(trial[:d] + trial[d + 1 :], action) for d in range(len(trial))]
    return hard_pick(hands, exposed, out)


def hard_static(vals: list[int], exposed: list[Mentsu], out: Outlook) -> float:
    """Hard's value of a hand as dealt: after its best discard when it holds one extra."""
    if len(vals) % 3 == 2:
        return max(hard_value(vals[:d] + vals[d + 1 :], exposed, out) for d in range(len(vals)))
    return hard_value(vals, exposed, out)


def hard_claim(
    situation: Situation, calls: list[Action], hand: list[int], exposed: list[Mentsu]
) -> Action:
    """Call when the best hand after the call (and its discard) beats the hand now."""
    out = outlook(situation.view, situation.seat)
    best: tuple[float, Action] = (hard_value(hand, exposed, out) + CALL_MARGIN, {"type": "pass"})
    options = faces(situation.view["claim_on"])
    for action in calls:
        i = action["index"]
        rest = hand[:i] + hand[i + 2 :]
        for v in options:
            m = mentsu_of(*sorted([*hand[i : i + 2], v]))
            if m is None:
                continue
            melds = [*exposed, m]
            score = max(hard_value(rest[:d] + rest[d + 1 :], melds, out) for d in range(len(rest)))
            if score > best[0]:
                best = (score, action)
    return best[1]
