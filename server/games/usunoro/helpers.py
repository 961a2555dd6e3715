"""Usunoro's helper line for a seat (issue 45): the rank it is closest to four of.

Pure, from the seat's own view only (its hand), while cards are being passed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from server.games.card_names import french_rank, join
from server.games.contract import View

COUNT_EN = {1: "one", 2: "two", 3: "three", 4: "four"}


def helpers(view: View) -> list[dict[str, Any]]:
    """One "closest_four" line while passing: the rank(s) held most and how many more."""
    hand = view.get("hand")
    if view.get("seat") is None or not hand or view["phase"] != "passing":
        return []
    counts = Counter(card[1:] for card in hand)
    most = max(counts.values())
    held_most = sorted(r for r, n in counts.items() if n == most)
    names = [french_rank(r, plural=most > 1) for r in held_most]
    ranks = join([{"en": n["en"], "ja": f"「{n['ja']}」"} for n in names])
    if most == 4:
        return [
            {
                "id": "closest_four",
                "en": f"You hold four {ranks['en']}: grab now!",
                "ja": f"{ranks['ja']}が4枚そろいました。今すぐ取りましょう！",
            }
        ]
    need = 4 - most
    return [
        {
            "id": "closest_four",
            "en": f"Closest to four: {ranks['en']} (you hold {COUNT_EN[most]}, "
            f"{COUNT_EN[need]} more to go).",
            "ja": f"4枚そろいに近いのは{ranks['ja']}（{most}枚、あと{need}枚）。",
        }
    ]
