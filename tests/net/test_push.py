"""Web Push "your move" over real sockets: a real `zashiki serve` (--push loopback) on the
suite's Redis pushes to a stand-in push service on loopback (push_service.py), which checks
each push's VAPID token against the server's public key and decrypts it with the
subscription's private key, made here.

A seat holder with no connection open is pushed when it becomes their move; the payload
names the room, the game and the seat, never a card; a subscription the push service
answers 410 ends; a re-issued seat's subscriptions end and get nothing more. The routes
refuse what they must (a bad endpoint, a wrong token) and change nothing then.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

from client.lib import Client, ZashikiError
from server.store.redis_store import RedisStore
from server.store.store import Store
from server.web.push import PushConfig, PushSender
from tests.net.conftest import CLEAN_EXIT, ServerProcess
from tests.net.push_service import PushService, Subscriber, b64url

# A card of any deck the games use, as views write them (S3, HK, R7, ...): none may be
# in a push.
CARD = re.compile(r"\b[A-Z]{1,2}(10|[0-9AJQK])\b")
PAYLOAD_KEYS = {"v", "kind", "room", "seat", "game", "name", "player", "lang"}


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    with PushService() as service:
        yield service


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that may push to http://127.0.0.1 (the stand-in)."""
    proc = ServerProcess(redis_url, tmp_path_factory.mktemp("push") / "server.log")
    with mock.patch.dict(os.environ, {"ZASHIKI_PUSH": "loopback"}):
        proc.start()
    yield proc
    assert proc.alive(), f"the server died:\n{proc.output()}"
    assert proc.stop() in CLEAN_EXIT, proc.output()


async def call(client: Client, method: str, path: str, body: Any = None) -> Any:
    return await client._call(method, path, body)


async def refused(client: Client, path: str, body: dict[str, Any]) -> str:
    with pytest.raises(ZashikiError) as answer:
        await call(client, "POST", path, body)
    return answer.value.code


async def eventually(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "not so in time"
        await asyncio.sleep(0.05)


async def test_a_seat_away_is_pushed_its_move_and_a_gone_or_reissued_subscription_ends(
    client: Client, server: ServerProcess, push_service: PushService, redis_url: str
) -> None:
    key = (await call(client, "GET", "/api/push/key"))["key"]
    assert key == (await call(client, "GET", "/api/push/key"))["key"]  # one key, kept
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    guest = await client.take_seat(host.code, 1, name="Aki")
    phone, gone = (
        Subscriber(push_service.endpoint("phone")),
        Subscriber(push_service.endpoint("old")),
    )
    push_service.answers["old"] = 410
    route = f"/api/rooms/{host.code}/push"
    for device in (phone, gone):
        body = {"token": guest.token, "subscription": device.subscription(), "lang": "ja"}
        assert await call(client, "POST", route, body) == {
            "code": host.code,
            "seat": 1,
            "push": True,
        }
    store = RedisStore(redis_url)
    try:
        assert len(await store.push_subscriptions(host.code)) == 2
        async with await client.connect(host.code, [host.token]) as conn:
            await client.start(host.code, host.token)
            pushes = {}
            for _ in range(2):  # the guest is away and may mark a card now
                push = push_service.next()
                pushes[push.name] = push
            assert set(pushes) == {"phone", "old"}
            for name, device in (("phone", phone), ("old", gone)):
                pushed = pushes[name]
                assert pushed.headers["topic"] == f"{host.code}-1"
                payload = device.read(pushed, key, push_service.origin)
                assert set(payload) == PAYLOAD_KEYS
                assert payload["kind"] == "move" and payload["room"] == host.code
                assert (payload["seat"], payload["game"], payload["player"]) == (
                    1,
                    "usunoro",
                    "Aki",
                )
                assert payload["lang"] == "ja" and not CARD.search(str(payload.values()))

            # The push service said the second subscription is gone: it ends.
            async def one_left() -> bool:
                return len(await store.push_subscriptions(host.code)) == 1

            await eventually(one_left)
            # No card of the guest's hand is in the payload the phone read.
            async with await client.connect(host.code, [guest.token]) as seen:
                hand = (await seen.next_view())["view"]["hand"]
            # Whole words: a room code or an address may hold "S3" inside it by chance.
            assert hand and not any(re.search(rf"\b{card}\b", str(payload)) for card in hand)
            # The host re-issues the guest's seat: the old holder's phone gets nothing more,
            # and its subscription ends.
            await client.reissue_seat(host.code, host.token, 1)
            await conn.next_view()

            async def none_left() -> bool:
                return not await store.push_subscriptions(host.code)

            await eventually(none_left)
            assert push_service.none_within(1.0) == []
    finally:
        await store.aclose()
    assert guest.token not in server.output()


async def test_the_push_routes_refuse_bad_input_and_change_nothing(
    client: Client, push_service: PushService, redis_url: str
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    device = Subscriber(push_service.endpoint("refused"))
    route = f"/api/rooms/{host.code}/push"
    good = device.subscription()
    bad_endpoints = [
        "http://10.0.0.8/x",
        "https://127.0.0.1/x",
        "ftp://push.example.net/x",
        "https://localhost/x",
        "https://push.example.net:8443/x",
        "x" * 3000,
    ]
    for endpoint in bad_endpoints:
        body = {"token": host.token, "subscription": {**good, "endpoint": endpoint}}
        assert await refused(client, route, body) == "bad_subscription"
    for keys in (
        {"p256dh": "AAAA", "auth": good["keys"]["auth"]},
        {"p256dh": good["keys"]["p256dh"], "auth": "!!"},
        {"p256dh": b64url(b"\x04" + b"\x01" * 64), "auth": good["keys"]["auth"]},
    ):
        body = {"token": host.token, "subscription": {**good, "keys": keys}}
        assert await refused(client, route, body) == "bad_subscription"
    assert (
        await refused(client, route, {"token": "x" * 22, "subscription": good}) == "not_your_seat"
    )
    assert await refused(client, route, {"token": host.token}) == "bad_request"
    body = {"token": host.token, "subscription": good, "lang": "fr"}
    assert await refused(client, route, body) == "bad_request"
    missing = {"token": host.token, "subscription": good}
    assert await refused(client, "/api/rooms/NOROOM/push", missing) == "not_your_seat"
    store = RedisStore(redis_url)
    try:
        assert await store.push_subscriptions(host.code) == {}
        # On, then off again: nothing is kept.
        await call(client, "POST", route, {"token": host.token, "subscription": good})
        assert len(await store.push_subscriptions(host.code)) == 1
        off = {"token": host.token, "endpoint": good["endpoint"]}
        answer = await call(client, "POST", route + "/off", off)
        assert answer == {"code": host.code, "seat": 0, "push": False}
        assert await store.push_subscriptions(host.code) == {}
    finally:
        await store.aclose()


async def test_a_seat_is_pushed_at_most_once_a_gap_and_a_withdrawn_push_never_goes(
    push_service: PushService, redis_url: str
) -> None:
    """The sender alone, in this process: offers within the gap wait for its end (the
    newest kept), and one withdrawn meanwhile is never sent."""
    store: Store = RedisStore(redis_url, prefix=f"gap{os.getpid()}:")
    sender = PushSender(store, PushConfig(mode="loopback", gap_s=1.0))
    await store.start()
    await sender.start()
    device = Subscriber(push_service.endpoint("gap"))
    await store.create("GAPROOM", b"room")
    sub = device.subscription()
    entry = {
        "seat": 2,
        "token": "t1",
        "endpoint": sub["endpoint"],
        "lang": "en",
        "p256dh": sub["keys"]["p256dh"],
        "auth": sub["keys"]["auth"],
    }
    await store.add_push("GAPROOM", "2:gap", entry)
    facts = {"kind": "move", "game": "usunoro", "name": "", "player": "Ben"}
    try:
        key = await sender.public_key()
        offered = time.monotonic()
        sender.offer("GAPROOM", 2, "t1", facts)
        await asyncio.to_thread(push_service.next)  # the first goes at once
        sender.offer("GAPROOM", 2, "t1", facts)
        sender.offer("GAPROOM", 2, "t1", {**facts, "kind": "over"})
        second = await asyncio.to_thread(push_service.next)
        # Not before the gap is over (a lower bound, however busy the machine).
        assert second.at >= offered + 1.0
        assert device.read(second, key, push_service.origin)["kind"] == "over"
        sender.offer("GAPROOM", 2, "t1", facts)
        sender.withdraw("GAPROOM", 2)
        assert await asyncio.to_thread(push_service.none_within, 1.5) == []
        await sender.settled()
        assert sender.counts["sent"] == 2
    finally:
        await sender.aclose()
        await store.delete("GAPROOM")
        await store.aclose()
