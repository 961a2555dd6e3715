"""Stopping every room a process runs, for its shutdown or drain, in a bounded time.

Each room is unloaded (its last changes saved, its lease given up, its clients told) at
the same time as the others, waiting at most STOP_WAIT_S for the store: past it the room
is stopped anyway and named in the log, so that a process whose store is down still
stops every room and exits (each such room keeps its last save).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from server.rooms.actor.room import Room

log = logging.getLogger(__name__)

# At shutdown, how long a room may wait for the store to take its last save and lease.
STOP_WAIT_S = 5.0

Unload = Callable[[str, str], Awaitable[None]]


async def stop_all(rooms: dict[str, Room], unload: Unload) -> int:
    """Stop every room of `rooms` at once through `unload(code, "server_shutdown")`, each
    within STOP_WAIT_S; the rooms whose last changes the store did not take are named in
    the log. Returns how many rooms were stopped."""
    codes = list(rooms)
    saved = await asyncio.gather(*(_stop_within(rooms, unload, code) for code in codes))
    unsaved = [code for code, ok in zip(codes, saved, strict=True) if not ok]
    if unsaved:
        log.error(
            "%d rooms stopped without their last changes saved (the store did not take"
            " them within %.0f s; each keeps its last save): %s",
            len(unsaved),
            STOP_WAIT_S,
            " ".join(unsaved),
            extra={"event": "unsaved"},
        )
    return len(codes)


async def _stop_within(rooms: dict[str, Room], unload: Unload, code: str) -> bool:
    """Stop one room for shutdown; False when the store did not take its last save."""
    room = rooms.get(code)
    if room is None:
        return True
    try:
        await asyncio.wait_for(unload(code, "server_shutdown"), STOP_WAIT_S)
    except TimeoutError:  # its save still unanswered: stopped all the same
        room.halt()
        return False
    return room.retry_at is None and not room.dirty
