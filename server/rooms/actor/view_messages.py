"""The view messages a room sends its attachments after a change: what each client may
see of the room, its seats and the game, built once per set of held seats.

A message is {"t": "view", "version", "room", "seats", "you", "view", "views" (two
seats only), "legal", "helpers" (hints on), "seqs", "events", "outcome" (at the end)};
the room adds "ack" to the one a move of that attachment caused. Every message of one
publish shares the same `room`, `seats` and `events` objects (the websocket encoder
packs them once).

A client that asked for patches, holds at most one seat and was sent the previous
publish may get "patch" instead of "view": the fields of its view that changed, when
the engine can say so (`Game.view_patches`). Such a message leaves out "legal" when
the engine says the seat's legal moves are the ones it was last sent
(`Game.actions_kept`), and "seats" when they equal the previous publish's (the room
compares those: four small maps). The view itself is not compared here: working out
a change costs more than packing it, so only the engine, which knows what a move did,
names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.contract import Game
from server.rooms.actor.core import RoomCore
from server.rooms.seats import talk


def room_facts(code: str, core: RoomCore, now: float, clock_t: float = 0.0) -> dict[str, Any]:
    """The room's public facts every view message carries (`clock_t`: the time the
    seat clocks count, see turns.py; a room without a clock leaves "clock" out, and one
    where nobody asked for a hint "hints_used", which keeps most frames as small as they
    were)."""
    facts: dict[str, Any] = {
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
        "hints": core.settings.hints,
        "cpu_pace": core.settings.cpu_pace,
    }
    if any(core.hints_used):  # left out until a seat asks (most frames stay as small)
        facts["hints_used"] = list(core.hints_used)
    if core.clock_rules is not None:
        facts["clock"] = clock_facts(core, clock_t)
    return facts


def clock_facts(core: RoomCore, clock_t: float) -> dict[str, Any]:
    """The room's clock rules and every seat's clock (a room with a clock). A live seat
    clock runs only while game time does (`running`)."""
    rules = core.clock_rules
    assert rules is not None
    facts: dict[str, Any] = rules.dump()
    seats = core.banks.public(clock_t) if core.banks is not None else None
    if seats is not None and not rules.wall and core.run_since is None:
        for seat in seats:
            seat["running"] = False
    facts["seats"] = seats
    return facts


def messages(
    core: RoomCore,
    held: Sequence[tuple[int, ...]],
    patched: Sequence[tuple[int, ...]],
    seats: list[dict[str, Any]],
    room: dict[str, Any],
    events: list[dict[str, Any]],
    seats_kept: bool = False,
) -> tuple[dict[tuple[int, ...], dict[str, Any]], dict[tuple[int, ...], dict[str, Any]]]:
    """(whole, patch): the message for each set of held seats in `held` (() for a
    spectator) with the whole view, and for each in `patched` (none of two seats) with
    a patch when the engine gives patches; the sets of `patched` without one are in
    `whole` then. `seats_kept`: `seats` equals the previous publish's, so patch
    messages leave it out.

    Every seat's view (or patch) is asked of the engine at once, so it may build what
    they show alike once.
    """
    whole_kinds, patch_kinds = set(held), set(patched)
    changes = None
    if patch_kinds and core.state is not None and core.view_moves is not None:
        changes = core.game.view_patches(
            core.state, [h[0] if h else None for h in patch_kinds], core.view_moves, events
        )
    patches: dict[tuple[int, ...], dict[str, Any]] = {}
    if changes is None:
        whole_kinds |= patch_kinds
    else:
        patches = {
            h: message_for(core, h, None if seats_kept else seats, room, events, changes, "patch")
            for h in patch_kinds
        }
    if not whole_kinds:
        return {}, patches
    wanted = sorted({s for h in whole_kinds for s in h})
    views: dict[int | None, dict[str, Any]] = {}
    if core.state is not None:
        views = core.game.views(core.state, [*wanted, None] if () in whole_kinds else wanted)
    whole = {h: message_for(core, h, seats, room, events, views) for h in whole_kinds}
    return whole, patches


def message_for(
    core: RoomCore,
    held: tuple[int, ...],
    seats: list[dict[str, Any]] | None,
    room: dict[str, Any],
    events: list[dict[str, Any]],
    views: dict[int | None, dict[str, Any]],
    field: str = "view",
) -> dict[str, Any]:
    """The view message for a client holding `held` seats; `views` has each held
    seat's view (the spectator's, None, for no seat), or its patch for `field` "patch".

    "view" is the first held seat's view (the spectator view when none); with two
    seats "views" maps each held seat to its view. "legal" maps each held seat the
    client may move for to its legal actions; "seqs" each held seat's last accepted
    move number (a fresh client continues from it). "outcome" appears once the match
    ends. With `seats` None (a patch, seats unchanged) the message has no "seats".
    "helpers" maps each held seat to the engine's helper lines for its view
    (`Game.helpers`), while a match is played in a room with hints on, for a game that
    has any.
    """
    game, state, seqs = core.game, core.state, core.seqs
    message: dict[str, Any] = {
        "t": "view",
        "version": core.version,
        "room": room,
        "seats": seats,
        "you": list(held),
        field: None,
        "legal": {},
        "seqs": {s: seqs[s][0] for s in held if s in seqs},
        "events": events,
    }
    if seats is None:
        del message["seats"]
    if state is None:
        return message
    if len(held) == 1:  # nearly every client: no comprehension to run
        seat = held[0]
        message[field] = views[seat]
        if core.status == "playing":
            moves = core.view_moves  # a patch is only made while the room notes them
            if (
                field == "patch"
                and moves is not None
                and game.actions_kept(state, seat, moves, events)
            ):
                del message["legal"]  # unchanged: the client keeps the last ones
            else:
                message["legal"] = {seat: game.actions(state, seat)}
            if core.settings.hints and gives_helpers(game):
                message["helpers"] = helpers(core, held, views, field)
            return message
    else:
        message[field] = views[held[0] if held else None]
        if held:
            message["views"] = {s: views[s] for s in held}
        if core.status == "playing":
            message["legal"] = {s: game.actions(state, s) for s in held}
            if held and core.settings.hints and gives_helpers(game):
                message["helpers"] = helpers(core, held, views, field)
            return message
    message["outcome"] = game.outcome(state)
    return message


def gives_helpers(game: Game) -> bool:
    """Whether the engine has helper lines (overrides `Game.helpers`, whose are none)."""
    return type(game).helpers is not Game.helpers


def helpers(
    core: RoomCore, held: tuple[int, ...], views: dict[int | None, Any], field: str
) -> dict[int, list[dict[str, Any]]]:
    """Each held seat's helper lines, from its whole view (asked again for a patch)."""
    game, state = core.game, core.state
    return {s: game.helpers(views[s] if field == "view" else game.view(state, s)) for s in held}
