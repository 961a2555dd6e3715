"""Usunoro's rule constants and pure rule helpers (RULINGS.md section 1).

The state is one plain dict; cards are their text form ("S1"). `TIMING` is the public CPU
reaction table (per difficulty, from the rules text) the CPU policy reads too.
"""

from __future__ import annotations

from typing import Any

from server.games import cards

SEATS = 4
RANKS = 4
TOKENS = SEATS - 1
EXCHANGE_CAP = 100
RACE_VOID_MS = 8000
PENALTY_LIMIT = {"standard": 4, "short": 1}
PASSING, RACE, DONE, VOID = "passing", "race", "done", "void"

# CPU reaction windows in ms, both ends included (spec item 15, uniform per U10).
TIMING: dict[str, dict[str, list[int]]] = {
    "easy": {"first_grab": [650, 1050], "follow_up": [550, 1000]},
    "normal": {"first_grab": [590, 990], "follow_up": [490, 940]},
    "hard": {"first_grab": [540, 940], "follow_up": [440, 880]},
}

State = dict[str, Any]


def is_matching(hand: list[str]) -> bool:
    """Four cards of one rank (spec item 5).

    >>> is_matching(["S2", "H2", "C2", "D2"]), is_matching(["S1", "S2", "S3", "S4"])
    (True, False)
    """
    return len(hand) == SEATS and len({cards.rank(c) for c in hand}) == 1


def suggested_pass(hand: list[str], rng: Any) -> str:
    """The CPU passing rule (spec item 14): keep the rank held most, pass another card.

    Tied plans (which rank to keep, which other card to give) are chosen at random with
    `rng` (anything with `randrange`). A matching hand has no other card, so any goes.

    >>> from server.games.rng import Rng
    >>> suggested_pass(["S3", "H3", "C3", "D1"], Rng(1))
    'D1'
    """
    counts = cards.ranks_held(hand)
    most = max(counts.values())
    keep_ranks = sorted(r for r, n in counts.items() if n == most)
    keep = keep_ranks[rng.randrange(len(keep_ranks))]
    others = [c for c in hand if cards.rank(c) != keep] or list(hand)
    return others[rng.randrange(len(others))]


def deadline(state: State) -> int | None:
    """The 8 s race void (U6), the marking timeout (U2) or the idle void (U7).

    The earliest of `Usunoro._timers`, worked out without building them: every view of
    every move asks for it.
    """
    phase = state["phase"]
    if phase == RACE:
        return state["void_at"]
    if phase != PASSING:
        return None
    options = state["options"]
    mark_ms, idle_ms = options["mark_timeout_ms"], options["idle_void_ms"]
    due = state["hand_at"] + mark_ms if mark_ms else None
    if idle_ms and (due is None or state["active_at"] + idle_ms < due):
        due = state["active_at"] + idle_ms
    return due
