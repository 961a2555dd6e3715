"""Hachinin Meri's helper line for a seat (issue 45): its team's points this deal.

Pure, from the seat's own view only (the public deal score and the seat's team).
"""

from __future__ import annotations

from typing import Any

from server.games.contract import View


def helpers(view: View) -> list[dict[str, Any]]:
    """One "team_points" line while the deal's tricks are played."""
    if view.get("seat") is None or view["phase"] != "play":
        return []
    ours, theirs = view["deal_score"][view["team"]], view["deal_score"][1 - view["team"]]
    return [
        {
            "id": "team_points",
            "en": f"Your team's points this deal: {ours} (the other team: {theirs}).",
            "ja": f"この配のあなたのチームの点：{ours}（相手チーム：{theirs}）。",
        }
    ]
