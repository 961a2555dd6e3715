"""CPU player for Shirokuro Jong.

It reads only its seat's view and legal moves. Every difficulty takes a Ron or Tsumo
when offered, and inserts a drawn card where its Tsumo scores most when any insertion
wins (the first of equal ones). Otherwise:

- Normal scores each candidate hand by its shape (adjacent blocks towards two Mentsu
  and an Atama, or four pairs) and, once tenpai, by how many unseen cards complete it;
  it inserts and discards to keep the best hand and calls Pon/Chii when that helps.
- Easy plays like Normal but makes a random insert or discard a third of the time and
  never calls.
- Hard prices hands by what they would win as well as how fast: a tenpai hand's outs
  are weighted by the points of each wait (Dora, Oya and yaku of the reading) and
  Dora cards count for a little while the hand is still forming. It shortlists its
  best few hands (after each insertion and discard) and ranks them by the value
  expected after the next draw from the unseen cards, so it keeps the hand that
  improves on more draws. It calls Pon or Chii whenever the hand after the call is
  clearly better (an exposed meld counts as the complete block it is): a call takes
  a card without using up a draw, which Normal, comparing the concealed part only,
  all but never does. It sees every tenpai hand (`wait_mask`), where Normal's shape
  threshold misses single-card waits. It keeps no deal-in defence: weighing discards
  by the Rons of uniformly re-dealt opponents (the worlds `shuffle_unseen` gives, which
  ignore what the opponents discarded) measured no better than none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.why import Why
from server.games import shirokuro_deck as deck
from server.games.card_names import join, shiro_value
from server.games.shirokuro_jong.hands import (
    Mentsu,
    WinContext,
    best_score,
    insertions,
    is_win,
    mentsu_of,
    value_code,
)
from server.games.shirokuro_jong.hands import (
    text as value_text,
)
from server.games.shirokuro_jong.helpers import dora_values, exposed_of

Action = dict[str, Any]
TENPAI_BONUS = 10.0
# Hard's pricing.
HARD_SHORTLIST = 3
AVERAGE_POINTS = 3.0  # a typical win's points
DENIAL = 2.0  # what a win is worth beyond its points: it ends the others' chances
DORA_BONUS = 0.4  # per Dora card held or exposed, while the hand is forming
CALL_MARGIN = 1.5  # a call must beat the hand now by this much: passing keeps a draw
WIN_VALUE = 60.0  # a win of average points, against about 20-35 for a tenpai hand


def code(text: str) -> int:
    """Value code of a held-card or value text, read from its upright end."""
    return value_code(text[0], int(text[1]))


def faces(card_text: str) -> tuple[int, int]:
    """The two values a card can show, white end first."""
    return code(card_text[:2]), code(card_text[3:])


def unseen_cards(view: dict[str, Any]) -> list[str]:
    """Texts of the cards this seat cannot see (pile, other hands), one per card."""
    seen = Counter(deck.card_text(deck.parse_held(t)[0]) for t in view.get("hand", []))
    seen.update(t for row in view["discards"] for t in row)
    seen.update(
        deck.card_text(deck.parse_held(t)[0]) for ms in view["melds"] for m in ms for t in m
    )
    if view["dora"]:  # None while seats choose their rotation (S14)
        seen[view["dora"]] += 1
    if view.get("drawn"):
        seen[view["drawn"]] += 1
    out = []
    for card in deck.deck(view["options"]["deck"]):
        text = deck.card_text(card)
        if seen[text] > 0:
            seen[text] -= 1
        else:
            out.append(text)
    return out


def unseen_supply(view: dict[str, Any]) -> list[int]:
    """For each value, how many cards not visible to this seat can show it."""
    supply = [0] * 12
    for text in unseen_cards(view):
        for v in faces(text):
            supply[v] += 1
    return supply


def shape_score(vals: Sequence[int], need_m: int, supply: Sequence[int]) -> float:
    """How close a hand between turns (3 * need_m + 1 cards) is to winning.

    Best split into adjacent blocks: complete mentsu 3, one atama 2, and up to the
    missing number of partial mentsu (pairs, or runs with a gap) worth more when more
    unseen cards complete them. Four-pair hands are scored as pairs when concealed.
    """
    n = len(vals)
    gains = _partial_gains(tuple(supply))
    # What each position starts: a complete mentsu, an atama, a partial mentsu (gain).
    mentsu = [i + 2 < n and (vals[i], vals[i + 1], vals[i + 2]) in MENTSU for i in range(n)]
    pair = [i + 1 < n and vals[i] == vals[i + 1] for i in range(n)]
    partial = [gains[vals[i] * 12 + vals[i + 1]] if i + 1 < n else 0.0 for i in range(n)]
    memo: dict[int, float] = {}

    def best(i: int, m: int, p: int, t: int) -> float:
        if i >= n:
            return 0.0
        key = ((i * 4 + m) * 2 + p) * 4 + t
        found = memo.get(key)
        if found is not None:
            return found
        score = best(i + 1, m, p, t)  # card i is left over
        if mentsu[i] and m < need_m:
            score = max(score, 3.0 + best(i + 3, m + 1, p, t))
        if pair[i] and not p:
            score = max(score, 2.0 + best(i + 2, m, 1, t))
        if partial[i] and m + t < need_m:
            score = max(score, partial[i] + best(i + 2, m, p, t + 1))
        memo[key] = score
        return score

    score = best(0, 0, 0, 0)
    if need_m == 2 and n == 7:
        score = max(score, 1.6 * min(sum(pair), 3))
    return score


MENTSU = frozenset(
    (a, b, c) for a in range(12) for b in range(12) for c in range(12) if mentsu_of(a, b, c)
)


@lru_cache(maxsize=64)  # one supply per decision; recent ones recur
def _partial_gains(supply: tuple[int, ...]) -> tuple[float, ...]:
    """Per pair of adjacent values (a * 12 + b): what it is worth as a partial mentsu.

    Zero when no value completes it; more when more unseen cards complete it.
    """
    out = []
    for a in range(12):
        for b in range(12):
            need = _completers(a, b) if a // 6 == b // 6 else []
            out.append(min(1.6, 0.5 + 0.25 * sum(supply[v] for v in need)) if need else 0.0)
    return tuple(out)


def _completers(a: int, b: int) -> list[int]:
    """Values that complete two adjacent same-colour cards into a mentsu."""
    if a == b:
        return [a]
    lo, hi = min(a, b), max(a, b)
    colour = a // 6
    if hi - lo == 1:
        return [v for v in (lo - 1, hi + 1) if 0 <= v < 12 and v // 6 == colour]
    if hi - lo == 2:
        return [lo + 1]
    return []


def wait_supply(vals: Sequence[int], exposed: Sequence[Mentsu], supply: Sequence[int]) -> int:
    """Unseen cards that would complete the hand; -1 when it is not tenpai."""
    waits = [v for v in range(12) if any(is_win(h, exposed) for _, h in insertions(vals, v))]
    return sum(supply[v] for v in waits) if waits else -1


def hand_value(vals: Sequence[int], exposed: Sequence[Mentsu], supply: Sequence[int]) -> float:
    """Score of a hand between turns: tenpai hands by their outs, others by shape."""
    need_m = 2 - len(exposed)
    shape = shape_score(vals, need_m, supply)
    if shape >= 3.0 * need_m + 0.9:  # only near-complete shapes can be tenpai
        outs = wait_supply(vals, exposed, supply)
        if outs >= 0:
            return 3.0 * need_m + 2.0 + TENPAI_BONUS + outs
    return shape


def best_discard(
    vals: list[int], exposed: list[Mentsu], supply: Sequence[int]
) -> tuple[float, int]:
    """(value, index) of the discard that leaves the best hand."""
    best = (-1.0, 0)
    for i in range(len(vals)):
        score = hand_value(vals[:i] + vals[i + 1 :], exposed, supply)
        if score > best[0]:
            best = (score, i)
    return best


WIN_WHY = {
    "ron": {"en": "Ron: this discard completes your hand.", "ja": "ロン：この捨て札で和了です。"},
    "tsumo": {"en": "Tsumo: your hand is complete.", "ja": "ツモ：手が完成しています。"},
}
NEXT_WHY = {"en": "Ready for the next round.", "ja": "次の局へ進みます。"}


def hard_why(view: dict[str, Any], action: Action, hand: list[int], exposed: list[Mentsu]) -> Why:
    """Hard's reason for a rotation, an insertion, a discard or a claim answer."""
    kind = action["type"]
    if kind == "rotate":
        if action["flip"]:
            return {
                "en": "Rotates your hand: turned around, it is closer to winning.",
                "ja": "手札を回転します：逆向きのほうが和了に近いからです。",
            }
        return {
            "en": "Keeps the hand as dealt: it is closer to winning than rotated.",
            "ja": "配られたままにします：回転するより和了に近いからです。",
        }
    if kind == "discard":
        i = action["index"]
        rest = hand[:i] + hand[i + 1 :]
        name = shiro_value(value_text(hand[i]))
        mask = wait_mask(rest, 2 - len(exposed))
        if mask:
            waits = join([shiro_value(value_text(v)) for v in range(12) if mask >> v & 1])
            return {
                "en": f"Discards your {name['en']}: tenpai, waiting on {waits['en']}.",
                "ja": f"{name['ja']}を捨てて聴牌：{waits['ja']}待ちです。",
            }
        return {
            "en": f"Discards your {name['en']}: the rest has the best chances after the next draw.",
            "ja": f"{name['ja']}を捨てます：残りが次のツモでいちばん良くなります。",
        }
    if kind == "insert":
        value = shiro_value(view["drawn"] if action["up"] == "W" else view["drawn"][3:])
        return {
            "en": f"Puts the drawn card in at position {action['index'] + 1}, {value['en']} "
            "up: the best hand once you discard.",
            "ja": f"引いた札を{value['ja']}を上にして{action['index'] + 1}番目に入れます："
            "捨てたあといちばん良い手になります。",
        }
    if kind in ("pon", "chii"):
        call = {"pon": ("Pon", "ポン"), "chii": ("Chii", "チー")}[kind]
        return {
            "en": f"Calls {call[0]}: the hand after the call is clearly better than now.",
            "ja": f"{call[1]}します：鳴いたあとの手が今よりはっきり良くなります。",
        }
    return {
        "en": "Passes: calling would not make your hand better enough to give up a draw.",
        "ja": "パスします：鳴いてもツモを1回捨てるほど手が良くなりません。",
    }


class ShirokuroJongPolicy(Policy):
    """Shape-and-outs play; Hard adds points, calls and a draw of lookahead."""

    game_id = "shirokuro_jong"

    def decide(self, situation: Situation) -> Decision | None:
        """Pick a move and a human-looking delay."""
        legal = situation.legal
        if not legal:
            return None
        rng = situation.rng
        for kind in ("ron", "tsumo"):
            if {"type": kind} in legal:
                return Decision({"type": kind}, rng.randint(500, 1000), WIN_WHY[kind])
        kind = legal[0]["type"]
        if kind == "next":
            return Decision(legal[0], rng.randint(1500, 2500), NEXT_WHY)
        view = situation.view
        hand = [code(t) for t in view["hand"]]
        exposed = exposed_of(view["melds"][situation.seat])
        supply = unseen_supply(view)
        if kind == "insert":
            win = best_tsumo_insert(view, situation.seat, legal, hand, exposed)
            if win is not None:
                points, action = win
                value = shiro_value(view["drawn"] if action["up"] == "W" else view["drawn"][3:])
                why = {
                    "en": f"Puts the drawn card in {value['en']} up: Tsumo then scores "
                    f"{points} points, the most of any place.",
                    "ja": f"引いた札を{value['ja']}を上にして入れると、ツモで{points}点、"
                    "いちばん高くなります。",
                }
                return Decision(action, rng.randint(600, 1400), why)
        easy = situation.difficulty == "easy"
        if easy and kind in ("insert", "discard") and rng.random() < 0.33:
            return Decision(rng.choice(legal), rng.randint(700, 1500))
        if situation.difficulty == "hard" and kind in ("rotate", "insert", "discard"):
            action = hard_turn(situation, kind, hand, exposed)
        elif kind == "rotate":
            action = self._rotate(view["hand"], exposed, supply)
        elif kind == "insert":
            action = self._insert(legal, hand, exposed, supply, faces(view["drawn"]))
        elif kind == "discard":
            action = self._discard(hand, exposed, supply)
        else:
            action = self._claim(situation, legal, hand, exposed, supply)
        delay = rng.randint(400, 900) if kind in ("pass", "pon", "chii") else rng.randint(600, 1400)
        hard = situation.difficulty == "hard"
        return Decision(action, delay, hard_why(view, action, hand, exposed) if hard else None)

    # -- the choices -------------------------------------------------------------------
    def _rotate(self, texts: list[str], exposed: list[Mentsu], supply: Sequence[int]) -> Action:
        """Keep or flip the whole hand, whichever reads better."""

        def worth(vals: list[int]) -> float:
            if len(vals) % 3 == 2:
                return best_discard(vals, exposed, supply)[0]
            return hand_value(vals, exposed, supply)

        kept = worth([code(t) for t in texts])
        flipped = worth([code(t[3:]) for t in texts])
        return {"type": "rotate", "flip": flipped > kept}

    def _insert(
        self,
        legal: list[Action],
        hand: list[int],
        exposed: list[Mentsu],
        supply: Sequence[int],
        drawn: tuple[int, int],
    ) -> Action:
        """The insertion whose best following discard leaves the best hand (no insertion
        wins: `best_tsumo_insert` was asked first)."""
        best: tuple[float, Action] = (-1.0, legal[0])
        for action in legal:
            v = drawn[0] if action["up"] == "W" else drawn[1]
            trial = hand[: action["index"]] + [v] + hand[action["index"] :]
            score = best_discard(trial, exposed, supply)[0]
            if score > best[0]:
                best = (score, action)
        return best[1]

    def _discard(self, hand: list[int], exposed: list[Mentsu], supply: Sequence[int]) -> Action:
        """The discard leaving the best hand (the last of equal ones)."""
        scored = (
            (hand_value(hand[:i] + hand[i + 1 :], exposed, supply), i) for i in range(len(hand))
        )
        return {"type": "discard", "index": max(scored)[1]}

    def _claim(
        self,
        situation: Situation,
        legal: list[Action],
        hand: list[int],
        exposed: list[Mentsu],
        supply: Sequence[int],
    ) -> Action:
        """Pon or Chii only when the hand after the call beats the hand now."""
        calls = [a for a in legal if a["type"] in ("pon", "chii")]
        if situation.difficulty == "easy" or not calls:
            return {"type": "pass"}
        if situation.difficulty == "hard":
            return hard_claim(situation, calls, hand, exposed)
        now = hand_value(hand, exposed, supply)
        best: tuple[float, Action] = (now + 0.5, {"type": "pass"})
        options = faces(situation.view["claim_on"])
        for action in calls:
            i = action["index"]
            pair = hand[i : i + 2]
            rest = hand[:i] + hand[i + 2 :]
            for v in options:
                m = mentsu_of(*sorted([*pair, v]))
                if m is None:
                    continue
                score = best_discard(rest, [*exposed, m], supply)[0]
                if score > best[0]:
                    best = (score, action)
        return best[1]


# -- Hard: points-aware values and one draw of lookahead ---------------------------------
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


def tsumo_context(view: dict[str, Any], seat: int) -> WinContext:
    """How a Tsumo by `seat` after this turn's draw would score, read from its view.

    With no call in the round every earlier draw of the seat ended in a discard still in
    its row, so an empty row means this is its first draw (Chiihou, never for the Oya).
    """
    oya = seat == view["oya"]
    clean = not any(view["melds"])
    return WinContext(
        oya=oya,
        tsumo=True,
        dora=dora_values(view),
        haitei=view["pile"] == 0,
        chiihou=not oya and clean and not view["discards"][seat],
        literal=view["options"]["yaku_reading"] == "literal",
    )


def best_tsumo_insert(
    view: dict[str, Any], seat: int, legal: list[Action], hand: list[int], exposed: list[Mentsu]
) -> tuple[int, Action] | None:
    """(points, insertion) of the drawn card whose Tsumo scores most (the first in legal
    order of equal ones), or None when no insertion makes a hand the room lets win."""
    drawn = faces(view["drawn"])
    ctx = tsumo_context(view, seat)
    melded = meld_values(exposed)
    best: tuple[int, Action] | None = None
    for action in legal:
        v = drawn[0] if action["up"] == "W" else drawn[1]
        trial = hand[: action["index"]] + [v] + hand[action["index"] :]
        found = best_score(trial, exposed, melded, ctx, view["options"]["min_yaku"])
        if found is not None and (best is None or found[0] > best[0]):
            best = (found[0], action)
    return best


def meld_values(exposed: Sequence[Mentsu]) -> list[int]:
    """The values of exposed mentsu."""
    return [v if kind == "k" else v + k for kind, v in exposed for k in range(3)]


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
    return sum(1 << v for v in _completers(a, b))


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


POLICY = ShirokuroJongPolicy()
