"""Rooms that cannot be loaded (their game removed from this server, a corrupt dump): each
is tried again after a wait that doubles from `FIRST_RETRY_MS` up to `MOST_RETRY_MS`.

Without this, a days room listed in the due index whose load always fails would be
claimed and tried again at every lease's put-off, forever, and a player's every
reconnect would load it afresh. Between tries a player opening it is refused at once
with `room_unavailable`; each failure logs one WARNING naming the room, the reason and
the next try. A success forgets the room. Each process keeps its own count (a restart,
after a fix is deployed, tries at once).
"""

from __future__ import annotations

import logging

from server.rooms.actor.clock import Clock
from server.rooms.errors import RoomError

log = logging.getLogger(__name__)

FIRST_RETRY_MS = 30_000
MOST_RETRY_MS = 3_600_000
REASON_CHARS = 200  # a log line, not a dump
UNAVAILABLE = (
    "this room's saved state cannot be opened on this server right now; "
    "the operators have been told"
)


class LoadFailures:
    """Rooms whose last load failed, each with when it may be tried again."""

    def __init__(
        self, clock: Clock, first_ms: float = FIRST_RETRY_MS, most_ms: float = MOST_RETRY_MS
    ) -> None:
        self.clock = clock
        self.first_ms = first_ms
        self.most_ms = most_ms
        self._failed: dict[str, tuple[int, float]] = {}  # code: (failures, next try)

    def refused(self, code: str) -> RoomError | None:
        """The error to answer now, if the room failed and its next try has not come."""
        failed = self._failed.get(code)
        if failed is None or self.clock.now() >= failed[1]:
            return None
        return RoomError("room_unavailable", UNAVAILABLE)

    def retry_in_ms(self, code: str) -> float | None:
        """How long until the room may be tried again (None: not failing)."""
        failed = self._failed.get(code)
        return None if failed is None else max(0.0, failed[1] - self.clock.now())

    def failed(self, code: str, exc: BaseException) -> RoomError:
        """Count a failed load, log it with its next try, and give the error to answer."""
        count = self._failed.get(code, (0, 0.0))[0] + 1
        wait = min(self.first_ms * 2 ** (count - 1), self.most_ms)
        self._failed[code] = (count, self.clock.now() + wait)
        reason = f"{type(exc).__name__}: {exc}"[:REASON_CHARS]
        log.warning(
            "room %s cannot be loaded (%s); failure %d, next try in %d s",
            code,
            reason,
            count,
            wait / 1000,
            extra={"room": code, "event": "load_failed"},
        )
        return RoomError("room_unavailable", UNAVAILABLE)

    def loaded(self, code: str) -> None:
        """The room loaded (or is gone): forget its failures."""
        self._failed.pop(code, None)
