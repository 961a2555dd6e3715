"""Rooms with seat clocks, as test_seat_clocks, test_due_rooms and test_unloadable_rooms
build them: managers on a virtual clock whose wall time follows it (days clocks count
wall time), leases and due sweeps far apart so virtual days pass in few round trips, and a
started Kokuto Rum room with a human seat 0 who never moves and a CPU at seat 1.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from server.rooms.actor.clock import VirtualClock
from server.rooms.manager import RoomManager
from server.rooms.seats.timebank import rules_from_options
from server.store.store import Store
from tests.rooms.helpers import Env, Player

# Unix time at the virtual clock's 0.
EPOCH_S = 1_800_000_000.0
LONG_LEASE_MS = 6 * 3_600_000  # few housekeeping rounds over virtual days
DUE_SWEEP_MS = 10 * 60_000  # and few due sweeps (rooms/due.py)


def clocked_manager(
    store: Store,
    clock: VirtualClock,
    instance_id: str,
    wall: Callable[[], float] | None = None,
    **kw: Any,
) -> RoomManager:
    """A process's manager; its wall time follows the virtual clock from EPOCH_S unless
    `wall` is given; `kw` goes to RoomManager (a notifier, other timings)."""
    kw.setdefault("lease_ms", LONG_LEASE_MS)
    kw.setdefault("due_sweep_ms", DUE_SWEEP_MS)
    return RoomManager(
        store,
        clock,
        instance_id=instance_id,
        wall=wall or (lambda: EPOCH_S + clock.now() / 1000.0),
        **kw,
    )


@contextlib.asynccontextmanager
async def clocked_env(store: Store) -> AsyncIterator[Env]:
    """The store started, and a started manager ("a") over it on a fresh virtual clock;
    every manager and the store closed after."""
    await store.start()
    clock = VirtualClock()
    manager = clocked_manager(store, clock, "a")
    await manager.start()
    env = Env(store, clock, manager)
    try:
        yield env
    finally:
        await env.close()
        await store.aclose()


async def clocked_room(env: Env, clock: str, preset: str, **kw: Any) -> tuple[str, str, Player]:
    """A started Kokuto Rum room (human seat 0, CPU seat 1) with a player that never moves."""
    made = rules_from_options("kokuto_rum", clock, preset, kw.get("vacation_days"))
    assert made is not None
    code, _, token = await env.manager.create_room(
        "kokuto_rum", None, ["host", "cpu"], seed=3, clock=made.dump()
    )
    player = await env.join(code, [token], Player(plays=False))
    await env.manager.start_match(code, token)
    await env.run(0)
    return code, token, player


def late_moves(log: list[dict[str, Any]], seat: int = 0) -> list[dict[str, Any]]:
    """The moves the CPU made for `seat` because its time ran out."""
    return [e for e in log if e["k"] == "m" and e["s"] == seat and e.get("late")]
