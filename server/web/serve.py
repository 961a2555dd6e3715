"""Run the app under uvicorn with the fast transports (uvloop, httptools, websockets)."""

from __future__ import annotations

import contextlib
import logging
import logging.config
import socket
import time

import uvicorn
from starlette.applications import Starlette
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from server import logs
from server.rooms.history.review_worker import NICE as REVIEW_NICE
from server.rooms.manager import DAYS_UNLOAD_AFTER_MS, LEASE_MS
from server.web import ws
from server.web.app import create_app, describe_build, describe_store
from server.web.limits import Limits
from server.web.push import PushConfig
from server.web.ws_protocol import DirectSendProtocol

log = logging.getLogger("zashiki")


class GoodbyeServer(uvicorn.Server):
    """uvicorn's server, draining the rooms before it closes the clients' sockets.

    On SIGTERM (or Ctrl-C) the process turns not ready (/readyz answers 503), stops
    accepting connections (a proxy sends new ones to the other processes), and stops
    every room it runs: each is saved, its lease given up, and its clients are told to
    reconnect ("closed" with server_shutdown, then close code 1012), so another process
    on the same store serves them at once. Then every other websocket gets the same
    goodbye, and uvicorn's own shutdown (the lifespan closes the manager and the store).
    """

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        services = getattr(self.app.state, "services", None)
        if services is not None:
            services.draining = True
            for server in self.servers:
                server.close()
            began = time.monotonic()
            rooms = await services.manager.drain()
            log.info(
                "drained: %d rooms stopped here (saved, leases given up) in %.3f s",
                rooms,
                time.monotonic() - began,
                extra={"event": "drained"},
            )
            await services.say_goodbye()
        await super().shutdown(sockets)


class WebsocketFirst:
    """The ASGI app uvicorn runs: websockets to `/ws` go straight to the endpoint, all
    else to the starlette app.

    Starlette's middleware and router do nothing for that route, but their coroutines
    would stay on the stack of every open websocket for its whole life: about 4.5 KB a
    connection (tracemalloc, 1,000 connections).
    """

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == scope.get("root_path", "") + "/ws":
            scope["app"] = self.app
            await ws.play(WebSocket(scope, receive, send))
            return
        await self.app(scope, receive, send)


def serve(
    host: str,
    port: int,
    redis_url: str | None,
    limits: Limits | None = None,
    lease_ms: int = LEASE_MS,
    node_id: str | None = None,
    log_level: str = "info",
    log_format: str = "text",
    access_log: bool = False,
    durability: str | None = None,
    push: PushConfig | None = None,
    days_idle_ms: float = DAYS_UNLOAD_AFTER_MS,
    review_nice: int = REVIEW_NICE,
) -> None:
    """Serve until SIGINT/SIGTERM; the app's lifespan saves and closes on the way out.

    Logs go to stderr at `log_level` and above, as `log_format` ("text" or "json"),
    uvicorn's lines too; `access_log` adds a line per HTTP request and websocket."""
    limits = limits or Limits()
    # The node id names this process in room leases and on the bus; the same one after a
    # restart in place takes its rooms back at once.
    node_id = node_id or f"{socket.gethostname()}:{port}"
    log_config = logs.config(log_level, log_format, node_id, access_log)
    logging.config.dictConfig(log_config)
    logging.captureWarnings(True)
    log.info(describe_store(redis_url))
    log.info(describe_build())
    app = create_app(
        redis_url, limits, lease_ms, node_id, durability, push, days_idle_ms, review_nice
    )
    config = uvicorn.Config(
        WebsocketFirst(app),
        host=host,
        port=port,
        loop="uvloop",
        http="httptools",
        # uvicorn's websockets-sansio protocol with a synchronous send path for views.
        ws=DirectSendProtocol,
        ws_max_size=limits.transport_max_frame,
        ws_ping_interval=limits.ping_interval_s,
        ws_ping_timeout=limits.ping_interval_s,
        # Frames are small msgpack maps; compressing them costs more CPU than it saves.
        ws_per_message_deflate=False,
        lifespan="on",
        log_config=log_config,
        access_log=access_log,
        timeout_graceful_shutdown=5,
        # Idle keep-alive HTTP connections; slow headers are the proxy's to cut
        # (deploy/README.md).
        timeout_keep_alive=5,
    )
    # uvicorn has already shut down gracefully (rooms saved) when it re-raises Ctrl-C.
    with contextlib.suppress(KeyboardInterrupt):
        GoodbyeServer(config, app).run()
