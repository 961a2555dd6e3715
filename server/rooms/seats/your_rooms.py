""" "Your rooms": for the seats a browser holds, what each room is doing now.

Read from the rooms' saves (every accepted change is saved before anyone sees it, so a
save is as fresh as any view): the manager gives the room as its last full save and the
journal records after it make it, without running the room or reaching the process that
runs it. A seat's own legal moves are read from the game, for that seat only.

A room that does not exist and a token that holds no seat in one that does are answered
alike (NOT_YOURS), so that the answer cannot tell a guessed room code from a wrong one.
"""

from __future__ import annotations

from typing import Any

from server.games.contract import Game
from server.rooms.seats.seat import hash_token

# Entries one request may ask about.
MAX_ENTRIES = 20
# The one error of an entry: no room by that code, or no seat of that token in it.
NOT_YOURS = "not_your_seat"


def seat_status(data: dict[str, Any] | None, code: str, token: str, game_of: Any) -> dict[str, Any]:
    """One entry of the answer: the room's state for the seat holding `token`.

    `data` is the room as saved (`RoomCore.dump`), None when there is none; `game_of(
    game_id)` gives the game. A room that is gone, or a token that holds no seat in it,
    gives {"code", "error": NOT_YOURS}.
    """
    digest = hash_token(token)
    seat = (
        None
        if data is None
        else next(
            (
                i
                for i, s in enumerate(data["seats"])
                if s["kind"] == "human" and s["token"] == digest
            ),
            None,
        )
    )
    if data is None or seat is None:
        return {"code": code, "error": NOT_YOURS}
    settings, status = data["settings"], data["status"]
    your_turn, turn = False, None
    if status == "playing" and data["state"] is not None:
        game: Game = game_of(settings["game_id"])
        state = game.load(data["state"])
        your_turn = bool(game.actions(state, seat))
        public_turn = game.view(state, None).get("turn")
        turn = public_turn if isinstance(public_turn, int) else None
    return {
        "code": code,
        "seat": seat,
        "game": settings["game_id"],
        "name": settings["name"],
        "status": status,
        "match": data.get("match", 1),
        "host": settings["host"],
        "your_turn": your_turn,
        "turn": turn,
        "seats": [
            {"kind": s["kind"], "name": s["name"], "covered": s["covered"]} for s in data["seats"]
        ],
        "last_activity": max(data["last_move"], data["created"]),
    }
