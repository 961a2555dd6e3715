"""Utsuke's helper line for a seat (issue 45): the Lord's tricks so far against its guess.

Pure, from the seat's own view only (the public trick counts and the seat's own guess).
"""

from __future__ import annotations

from typing import Any

from server.games.contract import View


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def helpers(view: View) -> list[dict[str, Any]]:
    """One "lord_tricks" line once the seat has guessed, while the round is played."""
    guess = view.get("guess")
    if view.get("seat") is None or guess is None or view["phase"] != "play":
        return []
    lord = view["lord_tricks"]
    if lord < guess:
        en_more = f"he needs {guess - lord} more to match it"
        ja_more = f"あと{guess - lord}トリックで一致します"
    elif lord == guess:
        en_more = "exactly your guess so far"
        ja_more = "今のところ予想どおりです"
    else:
        en_more = f"{lord - guess} more than your guess"
        ja_more = f"予想より{lord - guess}多くなっています"
    return [
        {
            "id": "lord_tricks",
            "en": f"The Lord has taken {_tricks(lord)}; you guessed {guess}: {en_more}.",
            "ja": f"殿のトリックは{lord}、あなたの予想は{guess}：{ja_more}。",
        }
    ]
