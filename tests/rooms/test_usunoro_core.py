"""Usunoro in the room's core (no actor, no store): how the room plays its CPU moves.

The CPUs here mark their first card a fixed time after each new hand and never grab, so
the tests know exactly which CPU moves fall due, and when.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.bots.contract import Decision, Policy, Situation
from server.games.usunoro import GAME
from server.rooms.actor import seat_admin
from server.rooms.actor.core import RoomCore, RoomSettings
from server.rooms.history.matches import MatchRecord, Replayer
from server.rooms.history.replay import replay
from server.rooms.seats.seat import Seat

DELAY_MS = 1_000


class MarkFirst(Policy):
    """Marks the first card of a fresh hand DELAY_MS after seeing it; nothing else."""

    game_id = "usunoro"

    def decide(self, situation: Situation) -> Decision | None:
        marks = [a for a in situation.legal if a["type"] == "mark"]
        if situation.view["mark"] is not None or not marks:
            return None
        return Decision(marks[0], DELAY_MS)


def started(seed: int, options: dict[str, Any] | None = None, humans: int = 1) -> RoomCore:
    """A playing room: seat 0 a human host ("tok"), then `humans` - 1 more humans ("tok1",
    ...), the rest CPUs, game time from 0."""
    settings = RoomSettings("usunoro", GAME.resolve_options(options), seed, host=0)
    seats = [Seat("human", "Hana", "tok")]
    seats += [Seat("human", "", f"tok{i}") for i in range(1, humans)]
    seats += [Seat("cpu") for _ in range(4 - humans)]
    core = RoomCore(settings, seats, GAME, MarkFirst())
    core.set_running(True, 0.0)
    core.start("tok", 0.0)
    return core


def test_u10_cpu_moves_due_together_fire_in_the_deals_tie_order() -> None:
    core = started(seed=3)
    order = [s for s in GAME.view(core.state, None)["tie_order"] if s != 0]
    assert order != sorted(order)  # seat order would not pass for the tie order here
    core.fire_due(float(DELAY_MS))  # the three CPU marks all fall due now
    assert [e["s"] for e in core.log if e["k"] == "m"] == order


@pytest.mark.parametrize("how", ["covered", "left"])
def test_u13_a_cpu_playing_a_human_seat_does_not_restart_the_idle_void(how: str) -> None:
    # A second human, covered by a CPU too: the last human leaving would close the room.
    core = started(seed=3, options={"idle_void_ms": 10_000, "mark_timeout_ms": 0}, humans=2)
    core.set_covered(1, True, 0.0)
    if how == "covered":
        core.set_covered(0, True, 0.0)
    else:
        seat_admin.leave(core, "tok", 0.0)
    core.fire_due(10_500.0)
    view = GAME.view(core.state, None)
    assert view["exchanges"] >= 5  # the CPU marked for seat 0 all along
    assert (view["phase"], view["result"]) == ("void", {"penalised": None, "reason": "idle"})
    # The log says which moves a CPU made, so the match plays back the same.
    assert GAME.dump(replay(GAME, core.log)) == GAME.dump(core.state)
    start = core.log[0]
    inputs = [e for e in core.log if e["k"] in ("m", "x")]
    record = MatchRecord(1, 4, start["options"], start["seed"], start["seats"], None, None, {})
    record.entries, record.cpu = inputs, start["cpu"]
    *_, (_, last) = Replayer(GAME, record).states(0)
    assert GAME.dump(last) == GAME.dump(core.state)
