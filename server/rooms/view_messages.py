"""The view messages a room sends its attachments after a change: what each client may
see of the room, its seats and the game, built once per set of held seats.

A message is {"t": "view", "version", "room", "seats", "you", "view", "views" (two
seats only), "legal", "seqs", "events", "outcome" (at the end)}; the room adds "ack" to
the one a move of that attachment caused. Every message of one publish shares the same
`room`, `seats` and `events` objects (the websocket encoder packs them once).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.rooms import talk
from server.rooms.core import RoomCore


def room_facts(code: str, core: RoomCore, now: float) -> dict[str, Any]:
    """The room's public facts every view message carries."""
    return {
        "code": code,
        "game": core.settings.game_id,
        "status": core.status,
        "match": core.match,
        "paused": core.paused,
        "running": core.run_since is not None,
        "game_ms": core.now(now),
        "host": core.settings.host,
        "cover_after_ms": core.settings.cover_after_ms,
        "talk": talk.public(core.settings.game_id, core.status, core.talk, core.seats),
    }


def messages(
    core: RoomCore,
    held: Sequence[tuple[int, ...]],
    seats: list[dict[str, Any]],
    room: dict[str, Any],
    events: list[dict[str, Any]],
) -> dict[tuple[int, ...], dict[str, Any]]:
    """The message for each set of held seats in `held` (() for a spectator).

    Every seat's view is asked of the engine at once, so it may build what they show
    alike once.
    """
    kinds = set(held)
    wanted = sorted({s for h in kinds for s in h})
    views: dict[int | None, dict[str, Any]] = {}
    if core.state is not None:
        views = core.game.views(core.state, [*wanted, None] if () in kinds else wanted)
    return {h: message_for(core, h, seats, room, events, views) for h in kinds}


def message_for(
    core: RoomCore,
    held: tuple[int, ...],
    seats: list[dict[str, Any]],
    room: dict[str, Any],
    events: list[dict[str, Any]],
    views: dict[int | None, dict[str, Any]],
) -> dict[str, Any]:
    """The view message for a client holding `held` seats; `views` has each held
    seat's view (the spectator's, None, for no seat).

    "view" is the first held seat's view (the spectator view when none); with two
    seats "views" maps each held seat to its view. "legal" maps each held seat the
    client may move for to its legal actions; "seqs" each held seat's last accepted
    move number (a fresh client continues from it). "outcome" appears once the match
    ends.
    """
    game, state, seqs = core.game, core.state, core.seqs
    message: dict[str, Any] = {
        "t": "view",
        "version": core.version,
        "room": room,
        "seats": seats,
        "you": list(held),
        "view": None,
        "legal": {},
        "seqs": {s: seqs[s][0] for s in held if s in seqs},
        "events": events,
    }
    if state is None:
        return message
    if len(held) == 1:  # nearly every client: no comprehension to run
        seat = held[0]
        message["view"] = views[seat]
        if core.status == "playing":
            message["legal"] = {seat: game.actions(state, seat)}
            return message
    else:
        message["view"] = views[held[0] if held else None]
        if held:
            message["views"] = {s: views[s] for s in held}
        if core.status == "playing":
            message["legal"] = {s: game.actions(state, s) for s in held}
            return message
    message["outcome"] = game.outcome(state)
    return message
