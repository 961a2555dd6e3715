"""A stand-in push service on loopback, speaking RFC 8030 as the server sees it, and what a
browser holds for a subscription (its keys), so tests can read what the server pushed.

`PushService` is a real HTTP server on 127.0.0.1 in a thread: a POST to /push/NAME is a
push message for the subscription NAME. It refuses a push without a TTL header (400, as
RFC 8030 5.2 asks), answers each subscription with the status the test set (201 Created
with a Location by default; 404 or 410 to say the subscription is gone) and keeps every
push it was sent. `Subscriber` holds a subscription's private key and auth secret, made
with `cryptography`, and reads a push: the VAPID token checked against the server's
public key (RFC 8292), the body decrypted (RFC 8291, with http_ece).
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Push:
    """One POST the stand-in received."""

    name: str
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.monotonic)


class PushService:
    """The stand-in push service (see the module docstring); use as a context manager."""

    def __init__(self) -> None:
        self.received: queue.Queue[Push] = queue.Queue()
        self.answers: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                name = self.path.removeprefix("/push/")
                if self.headers.get("TTL") is None:
                    self.send_response(400)
                    self.end_headers()
                    return
                headers = {key.lower(): value for key, value in self.headers.items()}
                service.received.put(Push(name, headers, body))
                status = service.answers.get(name, 201)
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"/message/{name}/{time.monotonic_ns()}")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def endpoint(self, name: str) -> str:
        """The push endpoint of subscription `name`."""
        return f"{self.origin}/push/{name}"

    def next(self, timeout: float = 10.0) -> Push:
        """The next push received (fails the test after `timeout` seconds)."""
        try:
            return self.received.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no push arrived within {timeout} s") from None

    def none_within(self, seconds: float) -> list[Push]:
        """Every push that arrives within `seconds` (a test expecting none asserts [])."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(self.received.get(timeout=left))
            except queue.Empty:
                break
        return got


class Subscriber:
    """A browser's side of one subscription: its P-256 key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict[str, Any]:
        """As PushSubscription.toJSON() gives it."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def read(self, push: Push, server_key: str, audience: str) -> dict[str, Any]:
        """The push's payload, after checking its headers and VAPID token: signed by
        `server_key` (the server's application key) for `audience`, not expired."""
        assert push.headers["content-encoding"] == "aes128gcm"
        assert int(push.headers["ttl"]) > 0
        scheme, _, params = push.headers["authorization"].partition(" ")
        assert scheme == "vapid"
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        assert fields["k"] == server_key
        claims = verify_jwt(fields["t"], unb64url(server_key))
        assert claims["aud"] == audience
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600
        assert claims["sub"].startswith(("mailto:", "https:"))
        plain = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def verify_jwt(token: str, public_point: bytes) -> dict[str, Any]:
    """The claims of an ES256 JWT, its signature checked against the P-256 public key
    `public_point` (uncompressed); raises InvalidSignature otherwise."""
    head, claims, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public_point)
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims))
