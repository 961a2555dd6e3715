"""CPU player for Kokuto Rum.

Every level plays the same greedy core: choose the rotation, insert position and discard
that leave the lowest deadwood (with a small credit for adjacent pairs that could grow
into melds). Levels differ only in strength:

- Easy plays a random sensible move now and then, and knocks on a fixed low score.
- Normal plays the greedy core, takes the discard when it clearly helps, and knocks on
  a score threshold that loosens as the draw pile runs down.
- Hard searches sampled worlds (`situation.sample_world()`): the expected value of the
  unseen pile top against the discard, and for knocking the exact VP swing in each
  world (and, on the last card, the pile-out result) against the odds of Underknock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.why import Why, sampled
from server.games.card_names import shiro_card, shiro_value
from server.games.contract import Action
from server.games.kokuto_rum import scoring

Value = tuple[str, int]
SEED_CREDIT = 0.4  # an adjacent pair that could grow into a meld is worth this much


@dataclass(frozen=True)
class Level:
    """Strength knobs of one difficulty."""

    noise: float  # chance of a random sensible move instead of the best one
    take_gain: float  # deadwood a discard-pile card must save to be taken (Normal/Easy)
    knock_at: int  # knock at or below this score (Easy/Normal)
    worlds: int  # sampled worlds per decision (Hard); 0 = no search


LEVELS = {
    "easy": Level(noise=0.3, take_gain=4.0, knock_at=2, worlds=0),
    "normal": Level(noise=0.0, take_gain=2.0, knock_at=5, worlds=0),
    "hard": Level(noise=0.0, take_gain=2.0, knock_at=5, worlds=24),
}


def value(held_text: str) -> Value:
    """The upright value of a held-card text ("B5/W2" -> ("B", 5))."""
    return held_text[0], int(held_text[1])


def evaluate(hand: Sequence[Value]) -> float:
    """Deadwood minus a credit for unmelded adjacent pairs that could become melds."""
    total, melds = scoring.best_melds(hand)
    melded = [False] * len(hand)
    for a, b in melds:
        for i in range(a, b):
            melded[i] = True
    seeds = 0
    for i in range(len(hand) - 1):
        if melded[i] or melded[i + 1]:
            continue
        (c1, n1), (c2, n2) = hand[i], hand[i + 1]
        if c1 == c2 and abs(n1 - n2) <= 1:
            seeds += 1
    return total - SEED_CREDIT * seeds


def best_discard(hand: list[Value]) -> tuple[float, int]:
    """(evaluation, position) of the discard leaving the best hand."""
    return min((evaluate(hand[:i] + hand[i + 1 :]), i) for i in range(len(hand)))


def best_insert(hand: list[Value], card: tuple[Value, Value]) -> tuple[float, int, int]:
    """(evaluation after the best discard, position, orientation index) for a drawn card."""
    best = (float("inf"), 0, 0)
    for up, v in enumerate(card):
        for pos in range(len(hand) + 1):
            score, _ = best_discard(hand[:pos] + [v] + hand[pos:])
            if score < best[0]:
                best = (score, pos, up)
    return best


def card_values(card_text: str) -> tuple[Value, Value]:
    """Both upright values of a card text ("W2/B5" -> (("W", 2), ("B", 5)))."""
    return value(card_text), value(card_text[3:])


# Said for a knock when no worlds were sampled (the levels below Hard knock on a score).
KNOCK_REASON = {
    "en": "your hand is low enough to knock",
    "ja": "手が十分低いからです",
}


class KokutoRumPolicy(Policy):
    """Greedy deadwood play, with determinized search at Hard."""

    game_id = "kokuto_rum"

    def decide(self, situation: Situation) -> Decision | None:
        """The move for the current phase, after a 0.5-1.5 s human-looking pause."""
        legal = situation.legal
        if not legal:
            return None
        level = LEVELS.get(situation.difficulty, LEVELS["normal"])
        kind = legal[0]["type"]
        why: Why | None = None
        if level.noise and situation.rng.random() < level.noise and kind in ("insert", "draw"):
            action = situation.rng.choice(legal)
        elif kind == "rotate":
            action, why = self._rotate(situation)
        elif kind == "draw":
            action, why = self._draw(situation, level)
        elif kind == "insert":
            action, why = self._insert(situation)
        else:
            action, why = self._discard(situation, level)
        hard = situation.difficulty == "hard"
        return Decision(action, situation.rng.randint(500, 1500), why if hard else None)

    # -- phases -----------------------------------------------------------------------
    @staticmethod
    def _hand(situation: Situation) -> list[Value]:
        return [value(t) for t in situation.view["hand"]]

    def _rotate(self, situation: Situation) -> tuple[Action, Why]:
        hand = self._hand(situation)
        flipped = [value(t[3:] + "/" + t[:2]) for t in situation.view["hand"]]
        flip = evaluate(flipped) < evaluate(hand)
        kept, turned = scoring.score(hand), scoring.score(flipped)
        if flip:
            why = {
                "en": f"Rotates your hand: it scores {turned} rotated against {kept} as dealt, "
                "with more cards close to melds.",
                "ja": f"手札を回転します：回転すると{turned}点、そのままなら{kept}点で、"
                "メルドに近い札も多くなります。",
            }
        else:
            why = {
                "en": f"Keeps the hand as dealt: it scores {kept}, against {turned} rotated, "
                "counting cards close to melds.",
                "ja": f"そのままにします：そのままなら{kept}点、回転すると{turned}点で、"
                "メルドに近い札も考えるとこちらが良い手です。",
            }
        return {"type": "rotate", "flip": flip}, why

    def _draw(self, situation: Situation, level: Level) -> tuple[Action, Why]:
        sources = {a["from"] for a in situation.legal}
        if "discard" not in sources:
            why = {
                "en": "Draws from the pile: there is no discard to take.",
                "ja": "山札から引きます：取れる捨て札がありません。",
            }
            return {"type": "draw", "from": "pile"}, why
        hand = self._hand(situation)
        top = situation.view["discards"][-1]
        taken = best_insert(hand, card_values(top))[0]
        if level.worlds:
            pile = self._expected_pile_draw(situation, hand, level.worlds)
            take = taken < pile - 0.5
        else:
            take = taken <= evaluate(hand) - level.take_gain
        name = shiro_card(top)
        if take:
            why = {
                "en": f"Takes the {name['en']} from the discards: it helps your hand more than "
                "a card from the pile would on average.",
                "ja": f"捨て札の{name['ja']}を取ります：山札から引く平均よりも手が良くなります。",
            }
        else:
            why = {
                "en": f"Draws from the pile: the {name['en']} on the discards helps your hand "
                "less than a pile card would on average.",
                "ja": f"山札から引きます：捨て札の{name['ja']}は山札の平均ほど手を良くしません。",
            }
        return {"type": "draw", "from": "discard" if take else "pile"}, why

    def _expected_pile_draw(self, situation: Situation, hand: list[Value], worlds: int) -> float:
        """Mean best evaluation after drawing the pile top, over sampled worlds."""
        cache: dict[str, float] = {}
        results = []
        game = situation.game
        for _ in range(worlds):
            world = situation.sample_world()
            game.apply(world, situation.seat, {"type": "draw", "from": "pile"}, 0)
            text = game.view(world, situation.seat)["drawn"]
            if text not in cache:
                cache[text] = best_insert(hand, card_values(text))[0]
            results.append(cache[text])
        return fmean(results)

    def _insert(self, situation: Situation) -> tuple[Action, Why]:
        hand = self._hand(situation)
        texts = sorted({a["card"] for a in situation.legal}, key=lambda t: t[0] != "W")
        _, pos, up = best_insert(hand, (value(texts[0]), value(texts[-1])))
        name = shiro_value(texts[up])
        why = {
            "en": f"Puts the card in at position {pos + 1}, {name['en']} up: your best "
            "discard then leaves the least deadwood.",
            "ja": f"{name['ja']}を上にして{pos + 1}番目に入れます："
            "いちばん良い捨て札のあと、手札の点数がいちばん低くなります。",
        }
        return {"type": "insert", "pos": pos, "card": texts[up]}, why

    def _discard(self, situation: Situation, level: Level) -> tuple[Action, Why]:
        view = situation.view
        hand = self._hand(situation)
        discards = [a for a in situation.legal if a["type"] == "discard" and not a["knock"]]
        best = min(discards, key=lambda a: evaluate(hand[: a["pos"]] + hand[a["pos"] + 1 :]))
        pos = best["pos"]
        after = scoring.score(hand[:pos] + hand[pos + 1 :])
        nine = scoring.score(hand)
        can_knock_first = {"type": "knock"} in situation.legal
        knock_first = can_knock_first and nine < after
        mine = nine if knock_first else after
        reason = KNOCK_REASON
        if level.worlds:
            knock, wins = self._knock_pays(situation, pos, knock_first, level.worlds)
            where = sampled(level.worlds)
            reason = {
                "en": f"{where['en']}, the knock wins in {wins} of them",
                "ja": f"{where['ja']}、ノックは{wins}回勝ちます",
            }
        else:
            end_near = view["pile_count"] <= view["seats"]
            knock = mine <= level.knock_at + (3 if end_near else 0)
        name = shiro_card(best["card"])
        if knock and knock_first:
            why = {
                "en": f"Knocks before discarding, with deadwood {mine}: {reason['en']}.",
                "ja": f"捨てる前にノックします（手札の点数{mine}）：{reason['ja']}。",
            }
            return {"type": "knock"}, why
        if knock:
            why = {
                "en": f"Discards the {name['en']} and knocks with deadwood {mine}: {reason['en']}.",
                "ja": f"{name['ja']}を捨ててノックします（手札の点数{mine}）：{reason['ja']}。",
            }
        else:
            why = {
                "en": f"Discards the {name['en']}, leaving deadwood {after}: knocking now "
                "would not pay yet.",
                "ja": f"{name['ja']}を捨てます（手札の点数{after}）："
                "今ノックしてもまだ得になりません。",
            }
        return {**best, "knock": knock}, why

    def _knock_pays(
        self, situation: Situation, pos: int, first: bool, worlds: int
    ) -> tuple[bool, int]:
        """Whether knocking now beats playing on, judged over sampled worlds, and in how
        many of them the knock wins."""
        game, seat = situation.game, situation.seat
        view = situation.view
        last_card = view["pile_count"] == 0
        swings, wins, waits = [], 0, []
        for _ in range(worlds):
            world = situation.sample_world()
            knocked = game.copy(world)
            card = view["hand"][pos]
            move: dict[str, Any] = (
                {"type": "knock"}
                if first
                else {"type": "discard", "pos": pos, "card": card, "knock": True}
            )
            gains = self._round_gains(game, knocked, seat, move)
            swings.append(gains[seat] - max(g for s, g in enumerate(gains) if s != seat))
            wins += gains[seat] > 0 or all(g == 0 for g in gains)
            if last_card:
                move = {"type": "discard", "pos": pos, "card": card, "knock": False}
                out = self._round_gains(game, world, seat, move)
                waits.append(out[seat] - max(g for s, g in enumerate(out) if s != seat))
        if last_card:
            return fmean(swings) > fmean(waits), wins
        rate = wins / worlds
        return rate >= 0.9 or (rate >= 0.7 and fmean(swings) >= 6), wins

    @staticmethod
    def _round_gains(game: Any, world: Any, seat: int, move: Action) -> list[int]:
        """VP each seat gains when `seat` ends the round in `world` with `move`."""
        events = game.apply(world, seat, move, 0)
        return next(e["gains"] for e in events if e["type"] == "round_end")


POLICY = KokutoRumPolicy()
