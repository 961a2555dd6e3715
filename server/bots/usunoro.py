"""Usunoro's CPU player (RULINGS section 1, items 14-15, U3, U10).

It reads only its seat's view: it keeps the rank it holds most of and passes another
card (the engine's `suggested_pass`, the same rule the marking timeout uses); with a
matching hand it does not mark but grabs after a first-grab delay; once the race is on
it grabs after a follow-up delay. Delays are uniform in the difficulty's window, taken
from the public timing table in the view. It never presses "next".
"""

from __future__ import annotations

from server.bots.contract import Decision, Policy, Situation
from server.games.usunoro import is_matching, suggested_pass

# How long a CPU takes to choose its card. The rules text gives no figure; this keeps
# exchanges at a human-looking pace without outrunning the grab windows.
MARK_DELAY_MS = (300, 800)
GRAB = {"type": "grab"}


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
            return Decision(GRAB, rng.randint(*timing["follow_up"]))
        if view["phase"] != "passing":
            return None
        hand = view["hand"]
        if is_matching(hand):
            return Decision(GRAB, rng.randint(*timing["first_grab"]))
        if view["mark"] is not None:
            return None
        card = suggested_pass(hand, rng)
        return Decision({"type": "mark", "card": card}, rng.randint(*MARK_DELAY_MS))


POLICY = UsunoroPolicy()
