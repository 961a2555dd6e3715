"""Hints: the Hard CPU's move for a seat, decided from that seat's view alone.

`advise` asks the game's policy, at the hard difficulty, exactly as the room asks a CPU:
the seat's view and legal moves, and worlds drawn with `shuffle_unseen` (which re-deals
every card the seat cannot see), all randomness from one seed. So the advice is the same
for the same view and seed, whatever the other seats really hold. `hint_seed` derives
that seed from what a match file keeps (its seed and its inputs), so a review of the
match can compute the same advice again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from server.bots.contract import Situation
from server.bots.registry import policy_for
from server.games.contract import Action, Game
from server.games.rng import Rng

# Said when a policy gives no reason of its own.
GENERIC_WHY = {
    "en": "This is the move the strong CPU would make from your seat.",
    "ja": "あなたの席から見て、強いCPUが選ぶ手です。",
}


@dataclass(frozen=True)
class Advice:
    """A legal move for the seat and one plain sentence why, in English and Japanese."""

    action: Action
    why: dict[str, str]


def hint_seed(room_seed: int, seat: int, version: int) -> int:
    """The seed of a hint for `seat`: a 64-bit hash of the match's seed, the seat and
    `version`, the match's step (how many inputs, moves and timer firings, the match
    has had: the length of a match file's `inputs` so far).

    >>> hint_seed(5, 0, 3) == hint_seed(5, 0, 3), hint_seed(5, 0, 3) != hint_seed(5, 1, 3)
    (True, True)
    """
    text = f"hint:{room_seed}:{seat}:{version}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def advise(game: Game, state: Any, seat: int, seed: int) -> Advice | None:
    """The Hard policy's move for `seat` from that seat's view alone (sampled worlds come
    from `game.shuffle_unseen(state, seat, rng)` with `rng = Rng(seed)`), or None when the
    seat has no decision now. Pure and deterministic: same view + same seed -> same
    Advice, whatever the other seats' hidden cards are."""
    legal = game.actions(state, seat)
    if not legal:
        return None
    rng = Rng(seed)
    situation = Situation(
        game=game,
        seat=seat,
        view=game.view(state, seat),
        legal=legal,
        difficulty="hard",
        rng=rng,
        sample_world=lambda: game.shuffle_unseen(state, seat, rng),
    )
    decision = policy_for(game.id).decide(situation)
    if decision is None or decision.action not in legal:
        return None
    return Advice(decision.action, decision.why or GENERIC_WHY)
