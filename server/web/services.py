"""What every HTTP and websocket handler shares, made in the app's lifespan."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from server.rooms.history.archive import Archive
from server.rooms.history.review_worker import NICE, ProcessWorker
from server.rooms.manager import RoomManager
from server.store.store import Store
from server.web.limits import Limits, RoomConnections
from server.web.metrics import Metrics
from server.web.push import PushSender
from server.web.ratelimit import KeyedLimiter


@dataclass
class Services:
    """The store, the room manager, the limits and the figures for /metrics."""

    store: Store
    manager: RoomManager
    limits: Limits
    metrics: Metrics = field(default_factory=Metrics)
    connections: RoomConnections = field(init=False)
    spectators: RoomConnections = field(init=False)
    # Per client address, by kind ("rooms", "seats", "lookups"); empty: no HTTP limits.
    rate_limiters: dict[str, KeyedLimiter] = field(init=False)
    # The open websockets' outboxes (ws.Outbox), for the goodbye at shutdown.
    outboxes: set[Any] = field(default_factory=set)
    archive: Archive = field(init=False)
    # Set when the process starts to stop: /readyz answers 503 from then on.
    draining: bool = False
    # Web Push "your move" (push.py); None when the server sends no pushes.
    push: PushSender | None = None
    # How much lower than this process's the review worker's priority is (--review-nice).
    review_nice: int = NICE

    def __post_init__(self) -> None:
        self.connections = RoomConnections(self.limits.connections_per_room)
        self.spectators = RoomConnections(self.limits.spectators_per_room)
        # Reviews are made in a worker process (one at a time), queued as matches end.
        self.archive = Archive(self.store, self.manager.game_of, ProcessWorker(self.review_nice))
        self.manager.on_match_over = self.archive.match_over
        self.rate_limiters = {
            kind: KeyedLimiter(per_minute / 60.0, burst)
            for kind, (per_minute, burst) in (self.limits.rate_limits or {}).items()
        }

    async def say_goodbye(self, timeout_s: float = 2.0) -> None:
        """Before the server closes its sockets: tell every websocket client, in a
        {"t": "closed", "code": "server_shutdown"} frame, then close it with 1012."""
        goodbyes = [
            outbox.goodbye("server_shutdown", "the server is restarting; reconnect")
            for outbox in list(self.outboxes)
        ]
        if goodbyes:
            await asyncio.wait([asyncio.ensure_future(g) for g in goodbyes], timeout=timeout_s)
