"""Junocos' helper line for a seat (issue 45): tricks taken against its target.

Pure, from the seat's own view only. The target is the number on the open card the seat
keeps to the end (its declaration, RULINGS section 4 item 7): while several are left,
the line names them all.
"""

from __future__ import annotations

from typing import Any

from server.games.card_names import join
from server.games.contract import View


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def helpers(view: View) -> list[dict[str, Any]]:
    """One "target" line while tricks are played."""
    seat = view.get("seat")
    if seat is None or view["phase"] != "play":
        return []
    won = view["won"][seat]
    numbers = [int(card[1]) for card in view["open"][seat]]
    if len(numbers) > 1:
        shown = join([{"en": str(n), "ja": str(n)} for n in numbers], {"en": "and", "ja": "、"})
        return [
            {
                "id": "target",
                "en": f"You have taken {_tricks(won)}; your open cards show {shown['en']}: "
                "the one you keep to the end is your target.",
                "ja": f"取ったトリックは{won}。公開札は{shown['ja']}：最後に残した札が目標です。",
            }
        ]
    target = numbers[0]
    if won < target:
        en_more, ja_more = f"{target - won} more to make it", f"あと{target - won}"
    elif won == target:
        en_more, ja_more = "exactly on target", "ぴったりです"
    else:
        en_more, ja_more = f"{won - target} over", f"{won - target}超過"
    return [
        {
            "id": "target",
            "en": f"You have taken {_tricks(won)} against your target of {target}: {en_more}.",
            "ja": f"取ったトリックは{won}、目標は{target}：{ja_more}。",
        }
    ]
