"""The Utsuke CPU player.

The Lord's play is fixed and his hand is open, so the whole game is steering: guess the
number of tricks the Lord will take, then play so that he takes exactly that many while
this seat never takes more tricks than he does (Uchikubi).

- Guess: play the round out many times in sampled worlds (`situation.sample_world()`),
  everyone random, and take the guess with the best expected Homare over the Lord's
  counts seen. Easy instead counts the Lord's trumps and high cards and adds noise.
- Play (the "steer" heuristic): the Lord's answer to any card is known in advance, so
  each legal card is judged by who would be winning once it and the Lord's card are
  down: the Lord while he still needs tricks, someone else once he has enough, this seat
  only while taking one is safe from Uchikubi. High cards are shed when they will not win.
- Easy plays the heuristic with frequent random slips; Normal plays it; Hard runs a
  determinized Monte Carlo search: every legal card is played out to the end of the
  round in sampled worlds (this seat steering, others random) and scored by the Homare
  and Uchikubi it brings. The number of worlds comes from a fixed budget of simulated
  card plays, never from a clock, so the same view and seed always give the same card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.bots.contract import Decision, Policy, Situation
from server.bots.why import ONLY_MOVE, Why, sampled
from server.games.card_names import colour_card
from server.games.utsuke.cards import COLOUR_OF, NUMBER_OF, legal_cards, npc_card, trick_winner
from server.games.utsuke.engine import MAX_GUESS, UtsukeState

DELAY_MS = (500, 1500)
# Card plays simulated per searched decision at most; with `search_worlds` as the cap it
# sets the number of worlds, and was tuned so a decision's p99 stays well inside 300 ms.
SEARCH_PLAYS = 8_000
MIN_SEARCH_WORLDS = 8
# Expected Homare of a guess that misses the Lord's count by 0, 1, 2, 3: exact pays 2,
# a near miss is often still the closest guess at the table.
CLOSENESS = (2.0, 0.6, 0.2, 0.05)


@dataclass(frozen=True)
class Level:
    """Strength knobs of one difficulty."""

    slip: float  # chance of a random legal card instead of the chosen one
    guess_worlds: int  # sampled rounds behind the guess; 0 = count cards instead
    search_worlds: int  # at most this many sampled worlds per card in play; 0 = heuristic


LEVELS = {
    "easy": Level(slip=0.35, guess_worlds=0, search_worlds=0),
    "normal": Level(slip=0.0, guess_worlds=24, search_worlds=0),
    "hard": Level(slip=0.0, guess_worlds=120, search_worlds=40),
}


def beat_key(card: str, led: str, trump: str | None) -> int:
    """How strongly a card holds a trick (higher wins); off-colour cards never win."""
    c = COLOUR_OF[card]
    return NUMBER_OF[card] + (100 if c == trump else 50 if c == led else -100)


def steer(
    legal: list[str],
    trick: list[list[Any]],
    trump: str | None,
    me: int,
    lord: int,
    lord_card: Callable[[list[list[Any]]], str | None],
    lord_tricks: int,
    my_tricks: int,
    target: int,
) -> str:
    """The heuristic card: make the trick go where the guess and Uchikubi want it.

    `lord_card(trick)` is the Lord's answer to a trick so far (None if he has played).
    """
    want_lord = lord_tricks < target
    safe = my_tricks + 1 <= max(target, lord_tricks)
    best, best_score = legal[0], -1e9
    for card in legal:
        now = [*trick, [me, card]]
        answer = lord_card(now)
        if answer is not None:
            now.append([lord, answer])
        led = COLOUR_OF[now[0][1]]
        winner = max(now, key=lambda wc: beat_key(wc[1], led, trump))[0]
        if winner == lord:
            score = 3.0 if want_lord else 0.0
        elif winner == me:
            score = (1.5 if want_lord else 2.0) if safe else -1.0
        else:
            score = 1.0 if want_lord else 3.0
        # Shed high cards when not taking the trick; take it as cheaply as possible.
        rank = NUMBER_OF[card] + (12 if COLOUR_OF[card] == trump else 0)
        score += (-rank if winner == me else rank) / 100.0
        if score > best_score:
            best, best_score = card, score
    return best


def guess_utility(guess: int, lord_tricks: int) -> float:
    """Expected Homare of `guess` when the Lord ends on `lord_tricks`."""
    miss = abs(guess - lord_tricks)
    return CLOSENESS[miss] if miss < len(CLOSENESS) else 0.0


class UtsukePolicy(Policy):
    """Guesses from sampled rounds, then steers the Lord's count toward the guess."""

    game_id = "utsuke"

    def decide(self, situation: Situation) -> Decision | None:
        """A guess or a card, after a human-looking pause."""
        if not situation.legal:
            return None
        rng = situation.rng
        level = LEVELS.get(situation.difficulty, LEVELS["normal"])
        delay = rng.randint(*DELAY_MS)
        local = random.Random(rng.next64())
        if situation.legal[0]["type"] == "guess":
            guess, why = self._guess(situation, level, local)
            return Decision({"type": "guess", "value": guess}, delay, why)
        cards = [a["card"] for a in situation.legal]
        if len(cards) == 1:
            return Decision(situation.legal[0], delay, ONLY_MOVE)
        if level.slip and local.random() < level.slip:
            return Decision({"type": "play", "card": local.choice(cards)}, delay)
        if level.search_worlds:
            card, why = self._search(situation, level, cards, local)
            return Decision({"type": "play", "card": card}, delay, why)
        card = self._steer_from_view(situation.view, situation.seat, cards)
        return Decision({"type": "play", "card": card}, delay)

    # -- guessing --------------------------------------------------------------------
    def _guess(
        self, situation: Situation, level: Level, rng: random.Random
    ) -> tuple[int, Why | None]:
        """The guess, and why when it comes from sampled rounds."""
        if not level.guess_worlds:
            return easy_guess(situation.view, rng), None
        counts = [0] * (MAX_GUESS + 1)
        for _ in range(level.guess_worlds):
            world: UtsukeState = situation.sample_world()
            tricks = rollout(world, situation.seat, None, rng)
            counts[tricks[world.seats]] += 1
        guess = max(
            range(MAX_GUESS + 1),
            key=lambda g: sum(n * guess_utility(g, lord) for lord, n in enumerate(counts) if n),
        )
        where, n = sampled(level.guess_worlds), counts[guess]
        return guess, {
            "en": f"Guesses {guess}: played out {where['en']}, the Lord took {guess} "
            f"tricks {n} times, the best bet.",
            "ja": f"{guess}と予想：{where['ja']}、殿が{guess}トリックを取ったのは{n}回で、"
            "いちばん当たりやすい数です。",
        }

    # -- play ------------------------------------------------------------------------
    def _steer_from_view(self, view: dict[str, Any], seat: int, cards: list[str]) -> str:
        seats = view["seats"]
        ids = {"lord": seats, "prince": seats + 1}
        trick = [[ids.get(w, w), c] for w, c in view["trick"]]
        played = any(w == seats for w, _ in trick)
        lord_card = lord_answer(view["lord"], not view["history"], played)
        return steer(
            cards,
            trick,
            view["trump"],
            seat,
            seats,
            lord_card,
            view["lord_tricks"],
            view["tricks"][seat],
            view["guess"],
        )

    def _search(
        self, situation: Situation, level: Level, cards: list[str], rng: random.Random
    ) -> tuple[str, Why]:
        """Flat Monte Carlo over sampled worlds: the card with the best mean outcome."""
        seat, view = situation.seat, situation.view
        # A rollout plays out every card still in a hand, NPC rows included.
        left = sum(view["hand_sizes"]) + len(view["lord"]) + len(view["prince"] or [])
        worlds = min(
            level.search_worlds, max(MIN_SEARCH_WORLDS, SEARCH_PLAYS // (len(cards) * left))
        )
        totals = dict.fromkeys(cards, 0.0)
        for _ in range(worlds):
            world: UtsukeState = situation.sample_world()
            for card in cards:
                tricks = rollout(world, seat, card, rng)
                totals[card] += outcome_value(tricks, world.seats, seat, view)
        card = max(cards, key=lambda c: totals[c])
        name, where = colour_card(card), sampled(worlds)
        lord, guess = view["lord_tricks"], view["guess"]
        return card, {
            "en": f"The Lord has {lord} of the {guess} tricks you guessed: {where['en']}, "
            f"the {name['en']} steers him best toward your guess without Uchikubi.",
            "ja": f"殿のトリックは{lord}、あなたの予想は{guess}：{where['ja']}、"
            f"{name['ja']}が打ち首を避けつつ予想にいちばん近づけます。",
        }


def outcome_value(tricks: list[int], seats: int, seat: int, view: dict[str, Any]) -> float:
    """How good a finished round is for `seat`: Homare expected, Uchikubi feared."""
    lord = tricks[seats]
    value = guess_utility(view["guess"], lord)
    if view["homare"][seat] + (2 if lord == view["guess"] else 1) >= 3:
        value += 1.0 if lord == view["guess"] else 0.3
    if tricks[seat] > lord:
        value -= 6.0 if view["uchikubi"][seat] >= 1 else 1.5
    return value


def lord_answer(
    hand: list[str], first_trick: bool, played: bool
) -> Callable[[list[list[Any]]], str | None]:
    """The Lord's card in answer to a trick so far, or None once he has played to it."""

    def answer(trick: list[list[Any]]) -> str | None:
        return None if played else npc_card(hand, trick, first_trick)

    return answer


def rollout(world: UtsukeState, me: int, first_card: str | None, rng: random.Random) -> list[int]:
    """Play the rest of the round in `world` and return every hand's trick count.

    `me` plays `first_card` now (if given) and then steers toward its own guess; the other
    players play random legal cards; the NPCs follow their fixed algorithm. Guessing
    rollouts (no first card, no guess yet) play every player at random.
    """
    seats = world.seats
    lord = seats
    hands = [list(h) for h in world.hands]
    table = world.table
    size = len(table)
    where = {h: i for i, h in enumerate(table)}
    trick = [list(p) for p in world.trick]
    leader = world.leader
    tricks = list(world.tricks)
    first = not world.history
    trump = COLOUR_OF[world.chip] if world.chip else None
    target = world.guesses[me] if first_card is not None else None
    pending = first_card
    while True:
        if len(trick) == size:
            leader = trick_winner(trick, trump)
            tricks[leader] += 1
            if not hands[leader]:
                return tricks
            trick, first = [], False
            trump = COLOUR_OF[hands[lord][-1]]
        who = table[(where[leader] + len(trick)) % size]
        hand = hands[who]
        if who >= seats:
            card = npc_card(hand, trick, first)
        elif who == me and pending is not None:
            card, pending = pending, None
        elif who == me and target is not None:
            card = steer(
                legal_cards(hand, trick),
                trick,
                trump,
                me,
                lord,
                lord_answer(hands[lord], first, any(w == lord for w, _ in trick)),
                tricks[lord],
                tricks[me],
                target,
            )
        else:
            card = rng.choice(legal_cards(hand, trick))
        hand.remove(card)
        trick.append([who, card])


def easy_guess(view: dict[str, Any], rng: random.Random) -> int:
    """A rough count: the Lord's trumps plus his twelves and elevens, give or take one."""
    trump = view["trump"]
    strong = sum(COLOUR_OF[c] == trump or NUMBER_OF[c] >= 11 for c in view["lord"])
    return max(0, min(MAX_GUESS, strong // 2 + rng.randint(-1, 1)))


POLICY = UtsukePolicy()
