"""A plain Usunoro player for end-to-end tests and the load generator.

It grabs when it may (a matching hand, or the race is on), otherwise marks a card of a
rank it holds least of, and starts the next round when one is over.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def rank(card: str) -> str:
    """The rank of a card text such as "S3"."""
    return card[1:]


def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """This seat's move now, or None to wait (e.g. its mark is already placed)."""
    kinds = {move["type"] for move in legal}
    if "next" in kinds:
        return {"type": "next"}
    hand = view["hand"] or []
    if "grab" in kinds and (view["phase"] == "race" or len({rank(c) for c in hand}) == 1):
        return {"type": "grab"}
    if view["phase"] == "passing" and view["mark"] is None and hand:
        counts = Counter(rank(c) for c in hand)
        return {"type": "mark", "card": min(hand, key=lambda c: (counts[rank(c)], c))}
    return None


def seat_view(message: dict[str, Any], seat: int) -> dict[str, Any]:
    """The view of `seat` inside a view message (same-device messages carry several)."""
    views = message.get("views")
    return views[seat] if views else message["view"]
