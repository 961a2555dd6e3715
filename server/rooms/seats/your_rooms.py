""" "Your rooms": for the seats a browser holds, what each room is doing now.

Read from the rooms' last saves (every accepted change is saved before anyone sees it,
so a save is as fresh as any view), without loading the rooms or reaching the process
that runs them. A seat's own legal moves are read from the game, for that seat only.
"""

from __future__ import annotations

from typing import Any

from server.games.contract import Game
from server.rooms.seats.seat import hash_token
from server.store import codec
from server.store.store import StoredRoom

# Entries one request may ask about.
MAX_ENTRIES = 20


def seat_status(stored: StoredRoom | None, code: str, token: str, game_of: Any) -> dict[str, Any]:
    """One entry of the answer: the room's state for the seat holding `token`.

    `game_of(game_id)` gives the game. A room that is gone, or a token that no longer
    holds a seat in it, gives {"code", "error"} (room_not_found, bad_token).
    """
    if stored is None:
        return {"code": code, "error": "room_not_found"}
    data = codec.unpack(stored.blob)
    digest = hash_token(token)
    seat = next(
        (i for i, s in enumerate(data["seats"]) if s["kind"] == "human" and s["token"] == digest),
        None,
    )
    if seat is None:
        return {"code": code, "error": "bad_token"}
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
