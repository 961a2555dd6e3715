"""Run the app under uvicorn with the fast transports (uvloop, httptools, websockets)."""

from __future__ import annotations

import contextlib
import logging

import uvicorn

from server.rooms.manager import LEASE_MS
from server.web.app import create_app, describe_store
from server.web.limits import Limits

log = logging.getLogger("zashiki")


def serve(
    host: str,
    port: int,
    redis_url: str | None,
    limits: Limits | None = None,
    lease_ms: int = LEASE_MS,
) -> None:
    """Serve until SIGINT/SIGTERM; the app's lifespan saves and closes on the way out."""
    limits = limits or Limits()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    log.info(describe_store(redis_url))
    config = uvicorn.Config(
        create_app(redis_url, limits, lease_ms),
        host=host,
        port=port,
        loop="uvloop",
        http="httptools",
        ws="websockets-sansio",
        ws_max_size=limits.transport_max_frame,
        # Frames are small msgpack maps; compressing them costs more CPU than it saves.
        ws_per_message_deflate=False,
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    # uvicorn has already shut down gracefully (rooms saved) when it re-raises Ctrl-C.
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run()
