"""Kokuto Rum's helper lines for a seat (issue 45): what each choice would score.

Pure, from the seat's own view only. Every score is the engine's own (`scoring.score`,
the least sum of upright numbers outside melds):

- while the seat chooses its rotation: the hand's score kept as dealt and rotated;
- with a drawn card to insert: for each gap, the hand's score with the card there
  (the better way up) and what the best discard would then leave;
- with a card to discard: "You can knock now (deadwood N)", N the least score a knock
  now can have (after the best discard, or with all nine cards when the room lets a
  player knock before discarding), with that knock as the line's move.

Each line about one move carries it as "move", and its figure in a few characters as
"short" (en/ja), for the table to show at that move.
"""

from __future__ import annotations

from typing import Any

from server.games.card_names import shiro_card, shiro_value
from server.games.contract import View
from server.games.kokuto_rum import scoring

Value = tuple[str, int]
# A gap's short figure names the drawn card's upright colour as its Flip button does.
UP_JA = {"W": "白", "B": "黒"}


def value(held: str) -> Value:
    """The upright value of a held-card text ("B5/W2" -> ("B", 5))."""
    return held[0], int(held[1])


def turned(held: str) -> str:
    """The same card held the other way up ("B5/W2" -> "W2/B5")."""
    return f"{held[3:]}/{held[:2]}"


def figure(score: int) -> dict[str, str]:
    """A hand score as a line's short figure (the same in both languages)."""
    return {"en": str(score), "ja": str(score)}


def best_after_discard(hand: list[Value], kept: int | None = None) -> int:
    """The least score the hand can keep after discarding one card (not the one at
    position `kept`, a card the room does not let the seat discard)."""
    return min(scoring.score(hand[:i] + hand[i + 1 :]) for i in range(len(hand)) if i != kept)


def rotation_lines(hand: list[str]) -> list[dict[str, Any]]:
    """The hand's score kept as dealt and rotated, each with its rotate move."""
    kept = scoring.score([value(t) for t in hand])
    rotated = scoring.score([value(turned(t)) for t in hand])
    return [
        {
            "id": "rotation",
            "en": f"Keep as dealt: hand score {kept}.",
            "ja": f"そのまま：手札の点数{kept}。",
            "move": {"type": "rotate", "flip": False},
            "short": figure(kept),
        },
        {
            "id": "rotation",
            "en": f"Rotate your hand: hand score {rotated}.",
            "ja": f"手札を回転：手札の点数{rotated}。",
            "move": {"type": "rotate", "flip": True},
            "short": figure(rotated),
        },
    ]


def gap_lines(hand: list[str], drawn: str, keep_drawn: bool) -> list[dict[str, Any]]:
    """For each gap, the better way up of the drawn card there and the scores it gives.

    "Better" is the lower score once the best discard is made, then the lower score with
    nine cards, white end up on a tie. With `keep_drawn` the drawn card may not be
    discarded this turn (RULINGS K3 option)."""
    values = [value(t) for t in hand]
    lines = []
    for pos in range(len(hand) + 1):
        choices = []
        for held in (drawn, turned(drawn)):
            trial = [*values[:pos], value(held), *values[pos:]]
            after = best_after_discard(trial, pos if keep_drawn else None)
            choices.append((after, scoring.score(trial), held))
        after, now, held = min(choices, key=lambda c: (c[0], c[1], c[2][0] != "W"))
        name = shiro_value(held)
        lines.append(
            {
                "id": "gap",
                "en": f"Position {pos + 1}, {name['en']} up: hand score {now}, "
                f"{after} after your best discard.",
                "ja": f"{pos + 1}番目に{name['ja']}を上に：手札の点数{now}、"
                f"いちばん良い捨て札のあと{after}。",
                "move": {"type": "insert", "pos": pos, "card": held},
                "short": {"en": f"{held[0]}↑{now}", "ja": f"{UP_JA[held[0]]}↑{now}"},
            }
        )
    return lines


def knock_line(view: View) -> dict[str, Any] | None:
    """ "You can knock now (deadwood N)" with the knock that leaves the least N."""
    hand = view["hand"]
    values = [value(t) for t in hand]
    # RULINGS K3 option: the card taken this turn stays (that card only, not its twins).
    kept = None if view["options"]["discard_taken_card"] else view["taken_at"]
    best: tuple[int, dict[str, Any]] | None = None
    for pos, held in enumerate(hand):
        if pos == kept:
            continue
        score = scoring.score(values[:pos] + values[pos + 1 :])
        if best is None or score < best[0]:
            best = (score, {"type": "discard", "pos": pos, "card": held, "knock": True})
    if view["options"]["knock_before_discard"]:
        nine = scoring.score(values)
        if best is None or nine < best[0]:
            best = (nine, {"type": "knock"})
    if best is None:
        return None
    deadwood, move = best
    if move["type"] == "knock":
        how = {"en": "with all nine cards", "ja": "9枚のまま"}
    else:
        card = shiro_card(move["card"])
        how = {"en": f"discarding {card['en']}", "ja": f"{card['ja']}を捨てて"}
    return {
        "id": "knock",
        "en": f"You can knock now (deadwood {deadwood}, {how['en']}).",
        "ja": f"今ノックできます（{how['ja']}、手札の点数{deadwood}）。",
        "move": move,
        "short": {"en": f"knock {deadwood}", "ja": f"ノック{deadwood}"},
    }


def helpers(view: View) -> list[dict[str, Any]]:
    """The seat's helper lines (see the module docstring); none for a spectator."""
    seat, hand = view.get("seat"), view.get("hand")
    if seat is None or not hand:
        return []
    phase = view["phase"]
    if phase == "rotate":
        return rotation_lines(hand) if view["rotation"] is None else []
    if view["turn"] != seat:
        return []
    if phase == "insert" and view["drawn"]:
        keep = view["drawn_from"] == "discard" and not view["options"]["discard_taken_card"]
        return gap_lines(hand, view["drawn"], keep)
    if phase == "discard":
        line = knock_line(view)
        return [line] if line else []
    return []
