"""Usunoro's CPU player (RULINGS section 1, items 14-15, U3, U10).

It reads only its seat's view: it keeps the rank it holds most of and passes another
card (the engine's `suggested_pass`, the same rule the marking timeout uses); with a
matching hand it does not mark but grabs after a first-grab delay; once the race is on
it grabs after a follow-up delay. Delays are uniform in the difficulty's window, taken
from the public timing table in the view; they are rules (item 15), so a quick room's CPU
pace shortens only the marking delay. It never presses "next".
"""

from __future__ import annotations

from collections import Counter

from server.bots.contract import Decision, Policy, Situation
from server.bots.why import Why
from server.games.card_names import french_card, french_rank
from server.games.usunoro import is_matching, suggested_pass

# How long a CPU takes to choose its card. The rules text gives no figure; this keeps
# exchanges at a human-looking pace without outrunning the grab windows.
MARK_DELAY_MS = (300, 800)
GRAB = {"type": "grab"}
RACE_WHY = {
    "en": "The race is on: grab a token before they run out.",
    "ja": "取り合いが始まりました。トークンがなくなる前に取りましょう。",
}
COUNT_EN = {1: "one", 2: "two", 3: "three", 4: "four"}


class UsunoroPolicy(Policy):
    """Collect the most-held rank; grab when matching, or as soon as the race is on."""

    game_id = "usunoro"

    def decide(self, situation: Situation) -> Decision | None:
        """The seat's next move and its delay, or None to wait (already marked, etc.)."""
        view, rng = situation.view, situation.rng
        timing = view["timing"].get(situation.difficulty) or view["timing"]["normal"]
        if view["phase"] == "race":
            if GRAB not in situation.legal:
                return None
            return Decision(GRAB, rng.randint(*timing["follow_up"]), RACE_WHY, paced=False)
        if view["phase"] != "passing":
            return None
        hand = view["hand"]
        if is_matching(hand):
            rank = french_rank(hand[0][1:], plural=True)
            why = {
                "en": f"Your four {rank['en']} match: grab first.",
                "ja": f"「{rank['ja']}」が4枚そろいました。最初に取りましょう。",
            }
            return Decision(GRAB, rng.randint(*timing["first_grab"]), why, paced=False)
        if view["mark"] is not None:
            return None
        card = suggested_pass(hand, rng)
        action = {"type": "mark", "card": card}
        return Decision(action, rng.randint(*MARK_DELAY_MS), pass_why(hand, card))


def pass_why(hand: list[str], card: str) -> Why:
    """ "Keeps your three Twos: passes the Ace of spades." (the rank held most is kept)."""
    counts = Counter(c[1:] for c in hand)
    kept = max(counts, key=lambda r: (counts[r], r != card[1:]))
    n = counts[kept]
    name = french_card(card)
    if n == 1:
        return {
            "en": f"No rank is held twice yet: passes the {name['en']}.",
            "ja": f"同じ数の札はまだありません。{name['ja']}を渡します。",
        }
    rank = french_rank(kept, plural=True)
    return {
        "en": f"Keeps your {COUNT_EN[n]} {rank['en']}: passes the {name['en']}.",
        "ja": f"「{rank['ja']}」{n}枚を残し、{name['ja']}を渡します。",
    }


POLICY = UsunoroPolicy()
