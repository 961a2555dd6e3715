"""A room's core as plain data: what a full save holds (`dump`), and the core made again
from it (`load`).

The dump splits in two: the settings and seats (`dump_fixed`), which change only when
one of them does, so a save may keep them packed (journal.py), and the rest
(`dump_moving`), which a move or a timer may change. Game time is banked up to the
wall time of the dump; a loaded core is stopped until the actor says it runs.
"""

from __future__ import annotations

from typing import Any

from server.bots.contract import Policy
from server.games.contract import Game
from server.rooms.actor.core import RoomCore
from server.rooms.actor.cpus import Pending
from server.rooms.seats.seat import RoomSettings, Seat
from server.rooms.seats.talk import TalkRules
from server.rooms.seats.timebank import TimeBanks


def dump(core: RoomCore, wall: float, *, packing: bool = False) -> dict[str, Any]:
    """The whole room as plain data (game time banked up to `wall`). `packing`: it is
    packed at once, so the game's state may be shared (`Game.packable`)."""
    return {**dump_fixed(core), **dump_moving(core, wall, packing=packing)}


def dump_fixed(core: RoomCore) -> dict[str, Any]:
    """The part of `dump` read from the settings and seats alone: it changes only when
    one of them does (`Watched`), so a save may keep it packed."""
    return {"settings": core.settings.dump(), "seats": [s.dump() for s in core.seats]}


def dump_moving(core: RoomCore, wall: float, *, packing: bool = False) -> dict[str, Any]:
    """The rest of `dump`: what a move or a timer may change."""
    state = core.state
    if state is not None:
        state = core.game.packable(state) if packing else core.game.dump(state)
    return {
        "version": core.version,
        "status": core.status,
        "match": core.match,
        "state": state,
        "paused": core.paused,
        "game_ms": core.now(wall),
        # Game time unbanked, for replaying a journal over this dump (journal.py).
        "clock": [core.game_ms, core.run_since],
        "cpu": [[s, p.action, p.due] for s, p in sorted(core.pending.items())],
        "rngs": list(core.rngs),
        "seqs": [[s, v[0], v[1]] for s, v in sorted(core.seqs.items())],
        "created": core.created,
        "last_move": core.last_move,
        "log_lengths": list(core.log_lengths),
        "talk": core.talk.dump(),
        "banks": None if core.banks is None else core.banks.dump(),
        "last_events": core.last_events,
        "hints_used": list(core.hints_used),
    }


def load(data: dict[str, Any], version: int, game: Game, policy: Policy) -> RoomCore:
    """The room `dump` produced, stopped (its clock starts when the actor says so)."""
    core = RoomCore(
        RoomSettings(**data["settings"]), [Seat.load(s) for s in data["seats"]], game, policy
    )
    core.version = version
    core.status = data["status"]
    core.match = data.get("match", 1)  # saves from before "play again" had one match
    core.state = None if data["state"] is None else game.load(data["state"])
    core.paused = data["paused"]
    core.game_ms = float(data["game_ms"])
    core.rngs = list(data["rngs"])
    core.seqs = {s: [seq, result] for s, seq, result in data["seqs"]}
    core.created = data["created"]
    core.last_move = data["last_move"]
    core.log_lengths = list(data.get("log_lengths", ()))  # untracked before history
    core.talk = TalkRules.load(data.get("talk"), core.seats)
    core.last_events = list(data.get("last_events") or ())
    # Absent in saves from before hints.
    core.hints_used = list(data.get("hints_used") or [0] * len(core.seats))
    banks = data.get("banks")  # absent in saves from before seat clocks
    if banks is not None and core.clock_rules is not None:
        core.banks = TimeBanks.load(core.clock_rules, banks)
    for s, action, due in data["cpu"]:
        core.pending[s] = Pending(action, due, game.actions(core.state, s))
    return core
