""" "Your rooms": for the seats a browser holds, what each room is doing now.

Read from the rooms' saves (every accepted change is saved before anyone sees it, so a
save is as fresh as any view): the manager gives the room as its last full save and the
journal records after it make it, without running the room or reaching the process that
runs it. A seat's own legal moves are read from the game, for that seat only.

A room that does not exist and a token that holds no seat in one that does are answered
alike (NOT_YOURS), so that the answer cannot tell a guessed room code from a wrong one.
A room whose save cannot be read (its game removed, a corrupt save) is answered
UNAVAILABLE for its entries alone: the other rooms are answered as usual, and the browser
keeps its seat for a room the operators may yet mend. That a room exists is no secret
there (its summary, public, says as much).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from server.games.contract import Game
from server.rooms.seats.seat import hash_token, normalize_code
from server.rooms.seats.timebank import ClockRules, TimeBanks
from server.store.store import Store, StoredRoom

# Entries one request may ask about.
MAX_ENTRIES = 20
# The one error of an entry: no room by that code, or no seat of that token in it.
NOT_YOURS = "not_your_seat"
# The error of an entry whose room exists but cannot be read now.
UNAVAILABLE = "room_unavailable"


async def your_rooms(
    store: Store,
    held: list[tuple[str, str]],
    latest: Callable[[StoredRoom], dict[str, Any]],
    game_of: Any,
    unix_ms: float,
) -> list[dict[str, Any]]:
    """For each (code, token) a browser holds, in the order asked: its `seat_status`.

    Each room is loaded once and made up to date by `latest(stored)` (its last full save
    and the journal after it); a room that cannot be (`latest` or reading its seat
    raises) gives {"code", "error": UNAVAILABLE} for its entries, not a failure of the
    whole answer.
    """
    codes = [normalize_code(code) for code, _ in held]
    asked = list(dict.fromkeys(codes))
    stored = await asyncio.gather(*(store.load(code) for code in asked))
    rooms: dict[str, dict[str, Any] | None] = {}
    unreadable = set()
    for code, room in zip(asked, stored, strict=True):
        try:
            rooms[code] = None if room is None else latest(room)
        except Exception:  # any unreadable save is this room's alone
            unreadable.add(code)
    entries = []
    for code, (_, token) in zip(codes, held, strict=True):
        if code not in unreadable:
            try:
                entries.append(seat_status(rooms[code], code, token, game_of, unix_ms))
                continue
            except Exception:  # a saved state its game cannot read, as above
                pass
        entries.append({"code": code, "error": UNAVAILABLE})
    return entries


def seat_status(
    data: dict[str, Any] | None, code: str, token: str, game_of: Any, unix_ms: float = 0.0
) -> dict[str, Any]:
    """One entry of the answer: the room's state for the seat holding `token`.

    `data` is the room as saved (`RoomCore.dump`), None when there is none; `game_of(
    game_id)` gives the game; `unix_ms` the time now (a days clock runs in it; a live
    clock is as last saved). A room that is gone, or a token that holds no seat in it,
    gives {"code", "error": NOT_YOURS}. `to_move` lists every seat with a move to make
    (several in a simultaneous phase), `clock` the room's clock and every seat's (null
    when relaxed), `last_events` the public events of the last move, for the client's
    move log to say in words.
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
    to_move: list[int] = []
    if status == "playing" and data["state"] is not None:
        game: Game = game_of(settings["game_id"])
        state = game.load(data["state"])
        to_move = [s for s in range(len(data["seats"])) if game.actions(state, s)]
        your_turn = seat in to_move
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
        "to_move": to_move,
        "clock": clock_of(settings.get("clock"), data.get("banks"), data["game_ms"], unix_ms),
        "last_events": data.get("last_events") or [],
    }


def clock_of(
    rules_data: dict[str, Any] | None, banks: dict[str, Any] | None, game_ms: float, unix_ms: float
) -> dict[str, Any] | None:
    """The room's clock rules and each seat's clock (as views show them), or None."""
    rules = ClockRules.load(rules_data)
    if rules is None:
        return None
    facts: dict[str, Any] = rules.dump()
    seats = None
    if banks is not None:
        seats = TimeBanks.load(rules, banks).public(unix_ms if rules.wall else game_ms)
        if not rules.wall:  # a live clock waits for its players to come back
            for each in seats:
                each["running"] = False
    facts["seats"] = seats
    return facts
