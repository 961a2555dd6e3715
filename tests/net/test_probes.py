"""The probes in process: /livez answers while the process does, /readyz only while the
store answers and the process is not draining (set from the first moment of a SIGTERM)."""

from __future__ import annotations

import httpx

from server.web.app import create_app


async def test_readyz_turns_not_ready_while_draining_and_livez_stays() -> None:
    app = create_app()  # the in-process store
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://zashiki"
        ) as client,
    ):
        ready = await client.get("/readyz")
        assert ready.json() == {"ok": True, "store": True, "draining": False}
        app.state.services.draining = True
        answer = await client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {"ok": False, "store": True, "draining": True}
        assert (await client.get("/livez")).json() == {"ok": True}
        assert (await client.get("/healthz")).json() == {"ok": True}
