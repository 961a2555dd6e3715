"""The service routes: health, liveness and readiness probes, and /metrics (Prometheus
text), with their OpenAPI descriptions."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from server.web.openapi import Described, Schema, json_answer, ref

SCHEMAS: dict[str, Schema] = {
    "Health": {
        "type": "object",
        "required": ["ok"],
        "properties": {"ok": {"type": "boolean"}},
    },
    "Readiness": {
        "type": "object",
        "required": ["ok", "store", "draining"],
        "properties": {
            "ok": {"type": "boolean"},
            "store": {"type": "boolean", "description": "the store answers"},
            "draining": {"type": "boolean", "description": "the process is stopping"},
        },
    },
}


async def store_answers(request: Request) -> bool:
    """Whether the store answers a ping."""
    try:
        return bool(await request.app.state.services.store.ping())
    except Exception:  # any failure to reach the store is "unhealthy", never a 500
        return False


async def healthz(request: Request) -> Response:
    """200 when the store answers, 503 when it does not."""
    ok = await store_answers(request)
    return JSONResponse({"ok": ok}, 200 if ok else 503)


async def livez(request: Request) -> Response:
    """200 while the process answers at all (a liveness probe: a Redis outage must not
    restart every server)."""
    return JSONResponse({"ok": True})


async def readyz(request: Request) -> Response:
    """200 when the store answers and the process is not draining (a readiness probe:
    send it new clients); else 503, saying which."""
    draining = request.app.state.services.draining
    store = await store_answers(request)
    ok = store and not draining
    return JSONResponse({"ok": ok, "store": store, "draining": draining}, 200 if ok else 503)


async def metrics(request: Request) -> Response:
    """Prometheus text: rooms live, connections, moves, move and save latency, reviews."""
    services = request.app.state.services
    stats = services.manager.stats(), services.archive.review_stats()
    text = services.metrics.render(time.monotonic(), *stats)
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4")


routes = [
    Described(
        "/healthz",
        healthz,
        {
            "get": {
                "operationId": "health",
                "summary": "Whether the store answers",
                "responses": {
                    "200": json_answer("the store answers", ref("Health")),
                    "503": json_answer("the store does not answer", ref("Health")),
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/livez",
        livez,
        {
            "get": {
                "operationId": "liveness",
                "summary": "Whether the process answers (a liveness probe; the store is not asked)",
                "responses": {"200": json_answer("the process answers", ref("Health"))},
            }
        },
        SCHEMAS,
    ),
    Described(
        "/readyz",
        readyz,
        {
            "get": {
                "operationId": "readiness",
                "summary": "Whether to send this process clients: the store answers and it is "
                "not draining (stopping)",
                "responses": {
                    "200": json_answer("ready", ref("Readiness")),
                    "503": json_answer("the store does not answer, or draining", ref("Readiness")),
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/metrics",
        metrics,
        {
            "get": {
                "operationId": "metrics",
                "summary": "Prometheus text format (PROTOCOL.md lists the series)",
                "responses": {
                    "200": {
                        "description": "the figures",
                        "content": {"text/plain": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
    ),
]
