"""What every HTTP and websocket handler shares, made in the app's lifespan."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.rooms.manager import RoomManager
from server.store.store import Store
from server.web.limits import Limits, RoomConnections
from server.web.metrics import Metrics


@dataclass
class Services:
    """The store, the room manager, the limits and the figures for /metrics."""

    store: Store
    manager: RoomManager
    limits: Limits
    metrics: Metrics = field(default_factory=Metrics)
    connections: RoomConnections = field(init=False)

    def __post_init__(self) -> None:
        self.connections = RoomConnections(self.limits.connections_per_room)
