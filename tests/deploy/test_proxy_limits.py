"""Behind the shipped proxy every client keeps limits of its own (issue 46, finding 3).

The README's three processes behind deploy/nginx.conf, with a small lookup limit;
clients on distinct loopback addresses (127.0.0.2, 127.0.0.3, ...: the whole of
127.0.0.0/8 is the loopback) look a room up through nginx, which sends every request for
that room to the same process. Each client is refused only past its own burst, whatever
X-Forwarded-For it sends itself: the servers believe the address nginx puts there, and
nginx puts the client's own.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.deploy.conftest import Site, block

BURST = 3


async def lookups(
    proxy: str, code: str, address: str, tries: int, forged: str | None = None
) -> list[int]:
    """The status of `tries` lookups of room `code` from `address`, one after another."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    headers = {"X-Forwarded-For": forged} if forged else {}
    async with httpx.AsyncClient(transport=transport, base_url=proxy, timeout=10) as h:
        return [
            (await h.get(f"/api/rooms/{code}", headers=headers)).status_code for _ in range(tries)
        ]


# The servers' trust: uvicorn's default (the README's processes, nginx on the loopback),
# and compose.yaml's (only the proxy reaches them, so it believes any address).
@pytest.mark.parametrize("trusted", ["127.0.0.1", "*"], ids=["readme", "compose"])
async def test_limits_are_per_client_through_nginx(
    site: Site, monkeypatch: pytest.MonkeyPatch, trusted: str
) -> None:
    monkeypatch.setenv("ZASHIKI_RATE_LIMITS", f"lookups=1/{BURST}")
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", trusted)
    site.run(block("start"))
    proxy = f"http://127.0.0.1:{site.proxy}"
    async with httpx.AsyncClient(base_url=proxy, timeout=10) as h:
        code = (await h.post("/api/rooms", json={"game": "usunoro"})).json()["code"]
    clients = [f"127.0.0.{n}" for n in range(2, 7)]
    try:
        answers = await asyncio.gather(*(lookups(proxy, code, a, BURST + 1) for a in clients))
        # A client forging X-Forwarded-For gets no fresh limits from it.
        forged = await lookups(proxy, code, clients[0], 2, forged="10.9.8.7")
    except Exception as exc:
        raise AssertionError(site.logs()) from exc
    for address, statuses in zip(clients, answers, strict=True):
        assert statuses == [200] * BURST + [429], (address, statuses)
    assert forged == [429, 429]
