"""HTTP routes for Web Push "your move": the server's application key, and turning
notifications on or off for one seat on one device, with their OpenAPI descriptions.
See PROTOCOL.md.

A subscription is kept per room, seat and push endpoint (one device's browser), with the
digest of the seat's token: when the token stops being the seat's (left, re-issued) the
sender drops it. Each route spends one of the client's "seats" actions.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import time
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.rooms.errors import RoomError
from server.rooms.load_failures import UNAVAILABLE
from server.rooms.seats.seat import hash_token, normalize_code
from server.rooms.seats.your_rooms import UNAVAILABLE as UNAVAILABLE_ENTRY
from server.web.http_io import Handler, body, field, spend, translated
from server.web.openapi import (
    CODE_PARAMETER,
    COMMON_ERRORS,
    EXAMPLE_TOKEN,
    Described,
    Schema,
    error_answer,
    json_answer,
    json_body,
    ref,
)
from server.web.push import PushSender

ENDPOINT_MAX = 2048
# Devices kept per seat; a seat subscribed on more has its oldest dropped.
PER_SEAT = 8
LANGS = ("en", "ja")


class PushOff(RoomError):
    """This server sends no pushes (`zashiki serve --push off`): answered 404."""

    def __init__(self) -> None:
        super().__init__("push_off", "this server sends no push notifications")


def sender(request: Request) -> PushSender:
    """The server's push sender; PushOff when it sends no pushes."""
    push = request.app.state.services.push
    if push is None:
        raise PushOff()
    return push


def answering_push_off(handler: Handler) -> Handler:
    """`translated(handler)`, with PushOff answered 404 rather than 400."""
    inner = translated(handler)

    async def run(request: Request) -> Response:
        if request.app.state.services.push is None:
            error = PushOff()
            return JSONResponse({"code": error.code, "message": error.message}, 404)
        return await inner(request)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def endpoint_problem(endpoint: str, loopback: bool) -> str | None:
    """Why `endpoint` is not a push service's URL this server posts to, or None.

    An https URL on a host name (not an address, nor localhost), on the default port:
    push services are public web services, and the server must not be made to post
    into its own network. With `loopback` (tests), http://127.0.0.1:PORT/... too.

    >>> endpoint_problem("https://push.example.net/send/abc", False) is None
    True
    >>> endpoint_problem("https://10.0.0.8/x", False)
    'the endpoint must be an https URL of a push service'
    >>> endpoint_problem("http://127.0.0.1:8123/p/1", True) is None
    True
    """
    bad = "the endpoint must be an https URL of a push service"
    if len(endpoint) > ENDPOINT_MAX:
        return f"the endpoint is longer than {ENDPOINT_MAX} characters"
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return bad
    host = parts.hostname or ""
    if loopback and parts.scheme == "http" and host == "127.0.0.1" and port:
        return None
    if parts.scheme != "https" or not host or port not in (None, 443) or parts.username:
        return bad
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return bad
    if host == "localhost" or host.endswith(".localhost") or "." not in host:
        return bad
    return None


def decoded_key(value: Any, name: str, size: int) -> str:
    """A subscription key: unpadded base64url of `size` bytes (RoomError otherwise)."""
    if not isinstance(value, str) or len(value) > 128:
        raise RoomError("bad_subscription", f"keys.{name} must be base64url text")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        raise RoomError("bad_subscription", f"keys.{name} must be base64url text") from None
    if len(raw) != size:
        raise RoomError("bad_subscription", f"keys.{name} must be {size} bytes")
    if name == "p256dh":
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError:
            raise RoomError("bad_subscription", "keys.p256dh is not a P-256 public key") from None
    return value.rstrip("=")


def subscription_of(data: dict[str, Any], loopback: bool) -> dict[str, str]:
    """The checked {endpoint, p256dh, auth} of a body's "subscription" (as a browser's
    PushSubscription.toJSON() gives it)."""
    sub = field(data, "subscription", dict)
    endpoint = field(sub, "endpoint", str)
    problem = endpoint_problem(endpoint, loopback)
    if problem is not None:
        raise RoomError("bad_subscription", problem)
    keys = field(sub, "keys", dict)
    return {
        "endpoint": endpoint,
        "p256dh": decoded_key(keys.get("p256dh"), "p256dh", 65),
        "auth": decoded_key(keys.get("auth"), "auth", 16),
    }


def entry_key(seat: int, endpoint: str) -> str:
    """Where a seat's subscription on one device is kept."""
    return f"{seat}:{hashlib.sha256(endpoint.encode()).hexdigest()[:24]}"


async def seat_of(request: Request, code: str, token: str) -> int:
    """The seat `token` holds in room `code` (as "your rooms" reads it); not_your_seat
    for a wrong token and a missing room alike, room_unavailable for a save that cannot
    be read now."""
    if len(token) > 64 or len(code) > 16:
        raise RoomError("not_your_seat", "that token holds no seat in this room")
    [entry] = await request.app.state.services.manager.your_rooms([(code, token)])
    if entry.get("error") == UNAVAILABLE_ENTRY:
        raise RoomError("room_unavailable", UNAVAILABLE)
    if "error" in entry:
        raise RoomError("not_your_seat", "that token holds no seat in this room")
    return int(entry["seat"])


async def push_key(request: Request) -> Response:
    """The application server key browsers subscribe with (VAPID, RFC 8292)."""
    spend(request, "lookups")
    key = await sender(request).public_key()
    return JSONResponse({"key": key})


async def push_on(request: Request) -> Response:
    """Turn on "your move" notifications for the token's seat on one device."""
    push = sender(request)
    data = await body(request)
    spend(request, "seats")
    code = normalize_code(request.path_params["code"])
    token = field(data, "token", str)
    sub = subscription_of(data, push.config.mode == "loopback")
    lang = field(data, "lang", str, "en")
    if lang not in LANGS:
        raise RoomError("bad_request", 'field "lang" must be "en" or "ja"')
    seat = await seat_of(request, code, token)
    store = request.app.state.services.store
    kept = await store.push_subscriptions(code)
    key = entry_key(seat, sub["endpoint"])
    others = sorted(
        (entry.get("at", 0), k)
        for k, entry in kept.items()
        if entry.get("seat") == seat and k != key
    )
    if len(others) >= PER_SEAT:
        await store.drop_push(code, [k for _, k in others[: len(others) - PER_SEAT + 1]])
    entry = {**sub, "seat": seat, "token": hash_token(token), "lang": lang, "at": int(time.time())}
    await store.add_push(code, key, entry)
    return JSONResponse({"code": code, "seat": seat, "push": True})


async def push_off(request: Request) -> Response:
    """Turn them off for the token's seat on the device of `endpoint`."""
    sender(request)
    data = await body(request)
    spend(request, "seats")
    code = normalize_code(request.path_params["code"])
    token = field(data, "token", str)
    endpoint = field(data, "endpoint", str)
    if len(endpoint) > ENDPOINT_MAX:
        raise RoomError(
            "bad_subscription", f"the endpoint is longer than {ENDPOINT_MAX} characters"
        )
    seat = await seat_of(request, code, token)
    await request.app.state.services.store.drop_push(code, [entry_key(seat, endpoint)])
    return JSONResponse({"code": code, "seat": seat, "push": False})


EXAMPLE_SUBSCRIPTION: Schema = {
    "endpoint": "https://push.example.net/send/dGhpcyBpcyBhbiBleGFtcGxl",
    "keys": {
        "p256dh": "BJgJsu6WfrDRy8ryCfPMHhxLgwqmK-aDrO0RRmKt9oTBd9lNYyr_Ldx99pxx"
        "ZYyPAvC7VC7svkT94rukcsxj86U",
        "auth": "tBHItJI5svbpez7KI4CCXg",
    },
}
PUSH_OFF = error_answer("push_off: this server sends no push notifications (--push off)")
PUSH_ERRORS: Schema = {
    **COMMON_ERRORS,
    "400": error_answer(
        "bad_request (a field missing or mistyped, lang not en or ja) or bad_subscription "
        "(an endpoint that is not an https URL of a push service, or keys that are not a "
        "P-256 point and a 16-byte secret)"
    ),
    "403": error_answer("not_your_seat: the token holds no seat here (or no such room)"),
    "404": PUSH_OFF,
}


def push_answer(description: str) -> Schema:
    """The answer of turning notifications on or off: the seat and its new state."""
    return json_answer(description, ref("PushState"))


SCHEMAS: dict[str, Schema] = {
    "PushOn": {
        "type": "object",
        "required": ["token", "subscription"],
        "properties": {
            "token": {"type": "string", "description": "the seat's token"},
            "subscription": {
                "type": "object",
                "description": "the browser's PushSubscription.toJSON()",
                "required": ["endpoint", "keys"],
                "properties": {
                    "endpoint": {"type": "string", "maxLength": 2048},
                    "keys": {
                        "type": "object",
                        "required": ["p256dh", "auth"],
                        "properties": {
                            "p256dh": {"type": "string"},
                            "auth": {"type": "string"},
                        },
                    },
                },
            },
            "lang": {
                "enum": ["en", "ja"],
                "default": "en",
                "description": "the language the notifications speak",
            },
        },
    },
    "PushOff": {
        "type": "object",
        "required": ["token", "endpoint"],
        "properties": {
            "token": {"type": "string"},
            "endpoint": {"type": "string", "maxLength": 2048},
        },
    },
    "PushState": {
        "type": "object",
        "required": ["code", "seat", "push"],
        "properties": {
            "code": {"type": "string"},
            "seat": {"type": "integer", "minimum": 0},
            "push": {"type": "boolean", "description": "whether this device is notified"},
        },
    },
}


routes = [
    Described(
        "/api/push/key",
        answering_push_off(push_key),
        {
            "get": {
                "operationId": "pushKey",
                "summary": "The application server key browsers subscribe to pushes with (VAPID)",
                "responses": {
                    "200": json_answer(
                        "the key: an uncompressed P-256 point, unpadded base64url",
                        {
                            "type": "object",
                            "required": ["key"],
                            "properties": {
                                "key": {"type": "string", "pattern": "^[A-Za-z0-9_-]{87}$"}
                            },
                        },
                    ),
                    "404": PUSH_OFF,
                    **COMMON_ERRORS,
                },
            }
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/push",
        answering_push_off(push_on),
        {
            "post": {
                "operationId": "pushOn",
                "summary": 'Turn on "your move" notifications for the token\'s seat on one device',
                "parameters": [CODE_PARAMETER],
                "requestBody": json_body(
                    ref("PushOn"),
                    {"token": EXAMPLE_TOKEN, "subscription": EXAMPLE_SUBSCRIPTION, "lang": "en"},
                    True,
                ),
                "responses": {"200": push_answer("notifications are on"), **PUSH_ERRORS},
            }
        },
        SCHEMAS,
    ),
    Described(
        "/api/rooms/{code}/push/off",
        answering_push_off(push_off),
        {
            "post": {
                "operationId": "pushOff",
                "summary": "Turn them off for the token's seat on the device of an endpoint",
                "parameters": [CODE_PARAMETER],
                "requestBody": json_body(
                    ref("PushOff"),
                    {"token": EXAMPLE_TOKEN, "endpoint": EXAMPLE_SUBSCRIPTION["endpoint"]},
                    True,
                ),
                "responses": {"200": push_answer("notifications are off"), **PUSH_ERRORS},
            }
        },
        SCHEMAS,
    ),
]
