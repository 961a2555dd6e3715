"""Uniform-random play: works for every game; the yardstick the real policies must beat."""

from __future__ import annotations

from server.bots.contract import Decision, Policy, Situation


class RandomPolicy(Policy):
    """Picks any legal move, after a short human-looking pause."""

    def __init__(self, min_delay_ms: int = 400, max_delay_ms: int = 900) -> None:
        self.min_delay_ms = min_delay_ms
        self.max_delay_ms = max_delay_ms

    def decide(self, situation: Situation) -> Decision | None:
        """A uniformly chosen legal move, or None when there is none."""
        if not situation.legal:
            return None
        action = situation.rng.choice(situation.legal)
        delay = situation.rng.randint(self.min_delay_ms, self.max_delay_ms)
        return Decision(action, delay)
