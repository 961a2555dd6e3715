"""CPU policies by game id. Every module in `server.bots` that defines `POLICY` counts."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from server.bots.contract import Policy
from server.bots.random_policy import RandomPolicy


@cache
def policies() -> dict[str, Policy]:
    """The game-specific policies, by game id."""
    import server.bots as package

    found: dict[str, Policy] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"server.bots.{info.name}")
        policy = getattr(module, "POLICY", None)
        if isinstance(policy, Policy) and policy.game_id:
            found[policy.game_id] = policy
    return found


def policy_for(game_id: str) -> Policy:
    """The game's own policy, or uniform-random play where it has none."""
    return policies().get(game_id) or RandomPolicy()
