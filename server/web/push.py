"""Web Push "your move": the deployment's VAPID key and the sender.

A room offers a push when a seat holder who has no connection open gets something to
answer (a move, a claim, a declaration), or when the match ends; the room hands it over
(`offer`) and goes on: everything after that happens here, in tasks of this sender,
never on the room's move path. Offers queue (bounded: past `QUEUE_MAX` they are dropped
and counted); a few workers read the seat's subscriptions from the store, encrypt the
payload for each (RFC 8291, aes128gcm: pywebpush and http_ece), sign a VAPID token
(RFC 8292: py_vapid) and POST it to the push service (RFC 8030) with a timeout. A room
and seat gets at most one push per `gap_s`: one offered sooner waits for the gap's end
(the newest replaces an older one waiting) and is withdrawn if the seat connects or no
longer has anything to answer; the `Topic` header lets the push service replace one
not yet delivered as well.

A subscription ends with its seat's token: one kept for another token (the seat was
left or re-issued) is dropped instead of sent to, and so is one the push service
answers 404 or 410 (RFC 8030: gone). The payload names the room, the game, the seat and
the seat's name, never a card.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPusher

from server.store.store import Store

log = logging.getLogger("zashiki.push")

# Offers waiting for a worker; more are dropped (and counted) rather than let a flood of
# offers grow the process.
QUEUE_MAX = 1024
WORKERS = 2
# A push service that has not answered in this long is given up on (the push is lost).
SEND_TIMEOUT_S = 10.0
STORE_TIMEOUT_S = 5.0
# The push service keeps an undelivered push this long (a phone that is off for a night
# still learns it is its move in the morning).
TTL_S = 24 * 3600
# A VAPID token is signed for this long and signed again when less than an hour is left.
VAPID_HOURS = 12
# Send times remembered per room, seat and token, swept once there are this many; signed
# VAPID tokens kept per push service, all dropped past this many.
REMEMBERED_MAX = 10_000
AUDIENCES_MAX = 64

T = TypeVar("T")


@dataclass(frozen=True)
class PushConfig:
    """How the server pushes: `mode` "on" (https endpoints only), "off" (no push routes
    answer but the key's, with not_found), or "loopback" (for tests: http://127.0.0.1
    endpoints too); `contact` the VAPID `sub` (mailto: or https:), `gap_s` the least time
    between two pushes to one room and seat."""

    mode: str = "on"
    contact: str = "mailto:push@zashiki.invalid"
    gap_s: float = 180.0

    @property
    def enabled(self) -> bool:
        """Whether push routes answer and rooms offer pushes."""
        return self.mode != "off"


def b64url(raw: bytes) -> str:
    """Unpadded URL-safe base64, as Web Push writes keys."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_private_key() -> bytes:
    """A fresh P-256 key (PKCS#8 DER), a candidate for the deployment's VAPID key."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def public_key_of(private_der: bytes) -> str:
    """The application server key browsers subscribe with: the uncompressed point of the
    VAPID key's public half, unpadded base64url (65 bytes)."""
    key = serialization.load_der_private_key(private_der, password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    raw = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def audience(endpoint: str) -> str:
    """The VAPID `aud` of an endpoint: its scheme, host and port."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def topic(code: str, seat: int) -> str:
    """The RFC 8030 Topic of a room and seat (base64url characters, at most 32): a push
    not yet delivered is replaced by the next one for the same seat."""
    return f"{code}-{seat}"


Job = tuple[str, int, str, dict[str, Any]]  # room code, seat, token digest, facts


class PushSender:
    """Sends the pushes rooms offer, off their path (see the module's docstring)."""

    def __init__(self, store: Store, config: PushConfig) -> None:
        self.store = store
        self.config = config
        self._key_der: bytes | None = None
        self._public: str | None = None
        self._vapid: Vapid02 | None = None
        self._signed: dict[str, tuple[float, dict[str, str]]] = {}
        self._queue: asyncio.Queue[Job] = asyncio.Queue(QUEUE_MAX)
        self._workers: list[asyncio.Task[None]] = []
        self._session: aiohttp.ClientSession | None = None
        self._last: dict[tuple[str, int, str], float] = {}
        self._held: dict[tuple[str, int], asyncio.TimerHandle] = {}
        # What happened, for logs and tests: pushes accepted by a push service, ended
        # subscriptions (404/410, or of a token no longer the seat's), failures, offers
        # dropped on a full queue.
        self.counts = {"sent": 0, "ended": 0, "failed": 0, "dropped": 0}

    async def start(self) -> None:
        """Start the workers (in the server's event loop)."""
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=SEND_TIMEOUT_S))
        self._workers = [asyncio.create_task(self._work()) for _ in range(WORKERS)]

    async def aclose(self) -> None:
        """Stop sending: offers still waiting are dropped (a push is a courtesy)."""
        for handle in self._held.values():
            handle.cancel()
        self._held.clear()
        for worker in self._workers:
            worker.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    async def public_key(self) -> str:
        """The deployment's application server key (made and stored on first use)."""
        await self._load_key()
        assert self._public is not None
        return self._public

    async def _load_key(self) -> None:
        if self._key_der is None:
            der = await self.store.push_key(new_private_key())
            key = serialization.load_der_private_key(der, password=None)
            self._vapid = Vapid02(private_key=key)
            self._public = public_key_of(der)
            self._key_der = der

    # -- what rooms call: never awaits, never raises ---------------------------------
    def offer(self, code: str, seat: int, token_hash: str, facts: dict[str, Any]) -> None:
        """Push `facts` ({"kind", "game", "name", "player"}) to the seat's subscriptions:
        now, or when the seat's gap is over (an offer waiting for the same seat is
        replaced)."""
        self.withdraw(code, seat)
        loop = asyncio.get_running_loop()
        job: Job = (code, seat, token_hash, facts)
        last = self._last.get((code, seat, token_hash))
        now = loop.time()
        if last is not None and now - last < self.config.gap_s:
            at = last + self.config.gap_s
            self._held[(code, seat)] = loop.call_at(at, self._enqueue, job)
        else:
            self._enqueue(job)

    def withdraw(self, code: str, seat: int) -> None:
        """Forget an offer for the seat still waiting for its gap (the seat is back, or
        has nothing to answer any more)."""
        handle = self._held.pop((code, seat), None)
        if handle is not None:
            handle.cancel()

    def _enqueue(self, job: Job) -> None:
        code, seat, token_hash, _ = job
        self._held.pop((code, seat), None)
        if len(self._last) >= REMEMBERED_MAX:
            self._forget_old()
        self._last[(code, seat, token_hash)] = asyncio.get_running_loop().time()
        try:
            self._queue.put_nowait(job)
        except asyncio.QueueFull:
            self.counts["dropped"] += 1
            log.warning("push queue full: a push for room %s seat %d dropped", code, seat)

    def _forget_old(self) -> None:
        horizon = asyncio.get_running_loop().time() - self.config.gap_s
        self._last = {key: at for key, at in self._last.items() if at > horizon}

    # -- the workers -------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            job = await self._queue.get()
            try:
                await self._send(*job)
            except Exception:  # one bad push must not stop the sender
                self.counts["failed"] += 1
                log.exception("push for room %s seat %d failed", job[0], job[1])
            finally:
                self._queue.task_done()

    async def settled(self) -> None:
        """Wait until every queued offer has been sent or given up (for tests)."""
        await self._queue.join()

    async def _send(self, code: str, seat: int, token_hash: str, facts: dict[str, Any]) -> None:
        await self._load_key()
        kept = await _within(self.store.push_subscriptions(code), STORE_TIMEOUT_S)
        ended = []
        for key, entry in kept.items():
            if entry.get("seat") != seat:
                continue
            if entry.get("token") != token_hash:
                ended.append(key)  # the seat was left or re-issued since
                continue
            status = await self._post(code, seat, entry, facts)
            if status in (404, 410):
                ended.append(key)
            elif status is not None and 200 <= status < 300:
                self.counts["sent"] += 1
            else:
                self.counts["failed"] += 1
                log.warning(
                    "push for room %s seat %d: the push service answered %s", code, seat, status
                )
        if ended:
            self.counts["ended"] += len(ended)
            await _within(self.store.drop_push(code, ended), STORE_TIMEOUT_S)

    async def _post(
        self, code: str, seat: int, entry: dict[str, Any], facts: dict[str, Any]
    ) -> int | None:
        """POST one encrypted push; the push service's status (None: no answer)."""
        payload = json.dumps(
            {"v": 1, "room": code, "seat": seat, "lang": entry.get("lang", "en"), **facts},
            ensure_ascii=False,
        ).encode()
        subscription = {
            "endpoint": entry["endpoint"],
            "keys": {"p256dh": entry["p256dh"], "auth": entry["auth"]},
        }
        # The ECDH and AES work runs in a thread: the loop serves rooms meanwhile.
        encoded = await asyncio.to_thread(WebPusher(subscription).encode, payload, "aes128gcm")
        headers = {
            "TTL": str(TTL_S),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Topic": topic(code, seat),
            "Urgency": "normal",
            **self._vapid_headers(audience(entry["endpoint"])),
        }
        assert self._session is not None
        try:
            async with self._session.post(
                entry["endpoint"], data=encoded["body"], headers=headers, allow_redirects=False
            ) as answer:
                return int(answer.status)
        except (TimeoutError, OSError) as exc:
            log.warning("push for room %s seat %d: no answer (%s)", code, seat, type(exc).__name__)
            return None
        except Exception as exc:  # aiohttp's own errors: a push service that misbehaves
            log.warning("push for room %s seat %d: %s", code, seat, type(exc).__name__)
            return None

    def _vapid_headers(self, aud: str) -> dict[str, str]:
        """The Authorization header for a push service (RFC 8292), signed once per
        audience and reused while it has an hour left."""
        now = time.time()
        signed = self._signed.get(aud)
        if signed is None or signed[0] - now < 3600:
            assert self._vapid is not None
            if len(self._signed) >= AUDIENCES_MAX:
                self._signed.clear()
            expires = int(now) + VAPID_HOURS * 3600
            claims = {"aud": aud, "exp": expires, "sub": self.config.contact}
            signed = (float(expires), dict(self._vapid.sign(claims)))
            self._signed[aud] = signed
        return signed[1]


async def _within(work: Awaitable[T], seconds: float) -> T:
    return await asyncio.wait_for(work, seconds)
