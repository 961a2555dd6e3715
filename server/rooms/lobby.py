"""A new room's settings and seats, from what its creator asked for, checked.

Everything a creator sends is checked here before a room exists: the game's options
(the engine's own `resolve_options` and `check_options`), the seat count and kinds,
the CPUs' difficulty; names are cleaned. Refusals are RoomError (bad_option, bad_seat).
"""

from __future__ import annotations

import secrets
from typing import Any

from server.games.contract import DIFFICULTIES, Game, IllegalAction
from server.rooms.actor.cpus import check_pace
from server.rooms.errors import RoomError
from server.rooms.seats.names import ROOM_NAME_MAX, clean_name, clean_text
from server.rooms.seats.seat import RoomSettings, Seat, hash_token


def new_room(
    game_id: str,
    game: Game,
    options: dict[str, Any] | None,
    seats: list[str],
    difficulty: str,
    *,
    token: str,
    public: bool,
    name: str,
    host_name: str,
    cover_after_ms: int | None,
    spectators: bool,
    seed: int | None,
    clock: dict[str, Any] | None = None,
    hints: bool = True,
    cpu_pace: str = "relaxed",
) -> tuple[RoomSettings, list[Seat], int]:
    """The settings, seats and host seat of a new room of `game` (see
    `RoomManager.create_room`); the host's seat holds `token`."""
    try:
        resolved = game.resolve_options(options)
        game.check_options(resolved, len(seats), [i for i, k in enumerate(seats) if k == "cpu"])
    except IllegalAction as exc:
        raise RoomError("bad_option", exc.message) from None
    if not game.min_seats <= len(seats) <= game.max_seats:
        raise RoomError("bad_seat", f"{game_id} takes {game.min_seats} to {game.max_seats} seats")
    if seats.count("host") != 1 or not set(seats) <= {"host", "open", "cpu"}:
        raise RoomError("bad_seat", 'seats must be "host", "open" or "cpu", one "host"')
    if difficulty not in DIFFICULTIES:
        raise RoomError("bad_option", f"difficulty must be one of {list(DIFFICULTIES)}")
    check_pace(cpu_pace)
    host_name = clean_name(host_name)
    seat_list = []
    for kind in seats:
        if kind == "host":
            seat_list.append(Seat("human", host_name, hash_token(token), difficulty))
        else:
            seat_list.append(Seat(kind, "", "", difficulty))
    host = seats.index("host")
    settings = RoomSettings(
        game_id=game_id,
        options=resolved,
        seed=secrets.randbits(62) if seed is None else seed,
        # A fixed seed (tests) fixes every match; else the later ones are secret too.
        series_key=secrets.randbits(62) if seed is None else 0,
        host=host,
        public=bool(public),
        name=clean_text(name, ROOM_NAME_MAX),
        difficulty=difficulty,
        # A live or days clock replaces the CPU cover of away players.
        cover_after_ms=cover_after_ms if clock is None else None,
        spectators=bool(spectators),
        hints=bool(hints),
        cpu_pace=cpu_pace,
        clock=clock,
    )
    return settings, seat_list, host
