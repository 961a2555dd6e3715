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

The package: `shape` values hands as Normal does, `hard` is Hard's pricing and
lookahead, `why` says each move's reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.shirokuro_jong.hard import hard_claim, hard_turn
from server.bots.shirokuro_jong.shape import (
    best_discard,
    code,
    faces,
    hand_value,
    unseen_supply,
)
from server.bots.shirokuro_jong.why import NEXT_WHY, WIN_WHY, hard_why, tsumo_insert_why
from server.games.shirokuro_jong.hands import Mentsu, WinContext, best_score, mentsu_of
from server.games.shirokuro_jong.helpers import dora_values, exposed_of, meld_values

Action = dict[str, Any]


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
                why = tsumo_insert_why(view, action, points)
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


POLICY = ShirokuroJongPolicy()
