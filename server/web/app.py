"""The starlette application: routes, shared resources made and closed in the lifespan.

`create_app(redis_url)` builds the app; the store, the room manager and the metrics live
on `app.state.services` from start-up to shutdown, and the manager reaches the other
server processes through a bus made beside the store. Shutdown closes the manager first
(it saves what is pending and tells remote links), then the bus, and the store last.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Match, Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from server.rooms.actor import room as room_module
from server.rooms.actor.clock import RealClock
from server.rooms.history.review_worker import NICE as REVIEW_NICE
from server.rooms.manager import DAYS_UNLOAD_AFTER_MS, LEASE_MS, RoomManager
from server.store.bus import Bus, MemoryBus
from server.store.memory_store import MemoryStore
from server.store.store import Store
from server.web import (
    app_shell,
    games_api,
    http_io,
    learn_api,
    matches_api,
    openapi,
    probes,
    push_api,
    rooms_api,
    seats_api,
    ws,
)
from server.web.limits import Limits
from server.web.push import PushConfig, PushSender
from server.web.security import SecurityHeaders
from server.web.services import Services

log = logging.getLogger("zashiki")

# Young collections far less often, and so full ones too: with thousands of connections
# a full collection walks every live object (a pause of 100+ ms, the p99 under load).
# Moves allocate about as much as they free, so at 3,000 moves/s no collection runs at
# all; garbage cycles (closed connections) still trigger them as they pile up.
GC_THRESHOLDS = (20_000, 20, 10)
STATIC_DIR = Path(__file__).resolve().parents[2] / "client" / "web"


class ClientMount(Mount):
    """The browser client's files, mounted at / but never answering for /api/...: there a
    wrong method gets the API route's own 405 (with its Allow header) and an unknown path
    a 404, instead of the static files' "GET, HEAD"."""

    # Its OpenAPI description (see openapi.Described), as GET /.
    operations = {
        "get": {
            "operationId": "browserClient",
            "summary": "The browser client (static files from client/web/, when present)",
            "responses": {
                "200": {"description": "the page", "content": {"text/html": {"schema": {}}}},
                "404": {"description": "no browser client in this installation"},
            },
        }
    }

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        """No match under /api/; elsewhere as a Mount."""
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def describe_store(redis_url: str | None) -> str:
    """The log line naming where rooms are kept."""
    if redis_url:
        # Never log a password given in the URL.
        parts = urlsplit(redis_url)
        shown = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
        return f"store: Redis at {shown}"
    return "store: in-process memory (no Redis address given; rooms end with the process)"


def describe_build() -> str:
    """The log line saying whether the move path runs compiled (setup.py's
    ZASHIKI_COMPILE=1 build) or as Python source: the server's CPU per move differs."""
    if not (room_module.__file__ or "").endswith(".py"):
        return "move path: compiled by mypyc"
    return "move path: interpreted (ZASHIKI_COMPILE=1 compiles it; see setup.py)"


def make_store(redis_url: str | None, durability: str | None = None) -> Store:
    """The Redis store when an address is given, else the in-process one; `durability`
    as `--durability` (None: the store's default for that address)."""
    if not redis_url:
        return MemoryStore()
    from server.store.redis_store import RedisStore

    return RedisStore(redis_url, durability=durability)  # type: ignore[arg-type]


def make_bus(redis_url: str | None) -> Bus:
    """Redis pub/sub between the processes sharing a Redis (sharded pub/sub on a Redis
    Cluster); else an in-process bus."""
    if not redis_url:
        return MemoryBus()
    from server.store.cluster_bus import redis_bus

    return redis_bus(redis_url)


def create_app(
    redis_url: str | None = None,
    limits: Limits | None = None,
    lease_ms: int = LEASE_MS,
    node_id: str | None = None,
    durability: str | None = None,
    push: PushConfig | None = None,
    days_idle_ms: float = DAYS_UNLOAD_AFTER_MS,
    review_nice: int = REVIEW_NICE,
) -> Starlette:
    """The whole server as one ASGI app.

    `lease_ms` is how long a room's lease lasts unrenewed: after a crash, another
    process takes the room over that much later. `push` says whether and how it sends
    Web Push notifications (on, to https push services, by default). A days room idle
    `days_idle_ms` is unloaded, for the due sweep to load it again when it must act.
    Reviews are made in a process `review_nice` lower in priority than this one.
    """
    push = push or PushConfig()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = make_store(redis_url, durability)
        await store.start()
        bus = make_bus(redis_url)
        await bus.start()
        # The lease owner id. A stable one (`serve` gives host:port) lets a process
        # restarted in place take its rooms back at once instead of waiting out its own
        # leases; two processes can never share it while both listen (the port), and
        # even then a save's version check lets only one of them go on with a room.
        owner = node_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        clock = RealClock(asyncio.get_running_loop())
        sender = PushSender(store, push) if push.enabled else None
        if sender is not None:
            await sender.start()
        manager = RoomManager(
            store,
            clock,
            instance_id=owner,
            lease_ms=lease_ms,
            bus=bus,
            notifier=sender,
            days_unload_after_ms=days_idle_ms,
        )
        await manager.start()
        services = Services(store, manager, limits or Limits(), review_nice=review_nice)
        services.push = sender
        app.state.services = services
        # Everything made so far lives as long as the process: keep it out of the
        # collector's generations so full collections stay short under load.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        services.metrics.gc.install()
        try:
            yield
        finally:
            services.metrics.gc.uninstall()
            await manager.aclose()
            await services.archive.aclose()
            if services.push is not None:
                await services.push.aclose()
            await bus.aclose()
            await store.aclose()
            log.info("rooms saved; store closed")

    routes = [
        *games_api.routes,
        *rooms_api.routes,
        *learn_api.routes,
        *seats_api.routes,
        *matches_api.routes,
        *push_api.routes,
        *probes.routes,
        *openapi.routes,
        WebSocketRoute("/ws", ws.play),
    ]
    if STATIC_DIR.is_dir():
        routes.append(app_shell.route(STATIC_DIR))
        routes.append(ClientMount("/", StaticFiles(directory=STATIC_DIR, html=True), name="client"))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=http_io.exception_handlers,
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.openapi = openapi.document(routes)
    return app
