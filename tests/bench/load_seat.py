"""A lean websocket seat for the load generator: callbacks, no task per frame or per move.

The client library (`client.lib`) is built for correctness (reconnects, resends, one
future per move); driving thousands of moves a second through it costs the generator as
much CPU as the server spends. The generator shares a core with Redis, so what it spends
shows up as the server's save latency. `LoadSeat` speaks the protocol over a bare asyncio
`Protocol` with the cheapest websocket client that is still correct for this use, as the
peers' harness does (`../shared/peers-bench`, its "raw" client): a hand-written upgrade
request, a parser for the server's unmasked frames, client frames under a zero mask key
(RFC 6455 5.3 allows any key; zero leaves the payload as it is), and pongs for pings. A
view is decoded only when the seat needs it: to find its move's ack, or to choose its
next move; the other three views of a move are only kept as bytes. The seat asks for
view patches, as the browser does, so it keeps the frames since the last whole view and
merges them when it decodes.
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import urlsplit

import ormsgpack

# on_answer(seat, latency_s or None, error code or None) for each move answered.
Answer = Callable[["LoadSeat", float | None, str | None], None]
_OPTIONS = ormsgpack.OPT_NON_STR_KEYS
_MASK = b"\x00\x00\x00\x00"


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (zero key) of `opcode` carrying `payload`.

    >>> client_frame(0x2, b"ab")
    b'\\x82\\x82\\x00\\x00\\x00\\x00ab'
    """
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    return head + _MASK + payload


class LoadSeat(asyncio.Protocol):
    """One seat on its own connection; `move()` sends, the answer arrives by callback."""

    def __init__(
        self, url: str, token: str, seat: int, on_answer: Answer, patches: bool = True
    ) -> None:
        parts = urlsplit(url)
        self.host = parts.netloc
        self.path = f"{parts.path}?{parts.query}"
        self.token = token
        self.seat = seat
        self.on_answer = on_answer
        self.patches = patches
        # The view frames since the last one known to be whole (decoded, or the first of
        # them raw), oldest first: `view` merges the patches among them.
        self.raw_views: list[Any] = []
        self.busy = False
        self.seq = 0
        self.sent_at = 0.0
        self.view_times: dict[int, float] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False

    @property
    def view(self) -> dict[str, Any] | None:
        """The latest view message this seat received, decoded (patches merged)."""
        return self._fold()

    def _fold(self) -> dict[str, Any] | None:
        """Decode the kept frames and merge them into the latest view message, kept."""
        message: dict[str, Any] | None = None
        for raw in self.raw_views:
            frame = raw if isinstance(raw, dict) else ormsgpack.unpackb(raw, option=_OPTIONS)
            if "patch" in frame:
                assert message is not None  # a connection's first view is always whole
                frame["view"] = {**message["view"], **frame.pop("patch")}
                frame.setdefault("legal", message["legal"])
                frame.setdefault("seats", message["seats"])
            message = frame
        if message is not None:
            self.raw_views = [message]
        return message

    def _keep(self, payload: bytes) -> None:
        """Keep a view frame undecoded; fold them into one now and then (memory)."""
        self.raw_views.append(payload)
        if len(self.raw_views) > 32:
            self._fold()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not subclass asyncio.Transport, hence the cast.
        self.transport = cast(asyncio.Transport, transport)
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.ready.set_exception(ConnectionError(bytes(buffer[:200])))
                return
            del buffer[: end + 4]
            self.upgraded = True
            hello = {"t": "hello", "tokens": [self.token], "patches": self.patches}
            self._send(0x2, ormsgpack.packb(hello))
        at, size = 0, len(buffer)
        while size - at >= 2:
            length, head = buffer[at + 1] & 0x7F, 2
            if length == 126:
                if size - at < 4:
                    break
                length, head = int.from_bytes(buffer[at + 2 : at + 4], "big"), 4
            elif length == 127:
                if size - at < 10:
                    break
                length, head = int.from_bytes(buffer[at + 2 : at + 10], "big"), 10
            if size - at < head + length:
                break
            opcode = buffer[at] & 0x0F
            payload = bytes(buffer[at + head : at + head + length])
            at += head + length
            if opcode == 0x2:
                self._frame(payload)
            elif opcode == 0x9:  # the server's keepalive ping
                self._send(0xA, payload)
        if at:
            del buffer[:at]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("connection lost"))
        if self.busy:
            self.busy = False
            self.on_answer(self, None, "connection_lost")

    def move(self, action: dict[str, Any]) -> None:
        """Send a move now; `on_answer` is called when its ack or error arrives."""
        self.seq += 1
        self.busy = True
        self.sent_at = time.perf_counter()
        frame = {"t": "move", "seat": self.seat, "seq": self.seq, "action": action}
        self._send(0x2, ormsgpack.packb(frame))

    def close(self) -> None:
        """Drop the connection."""
        if self.transport is not None:
            self.transport.close()

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(opcode, payload))

    def _frame(self, payload: bytes) -> None:
        # A view (fixmap header, then "t": "view") is kept undecoded unless this seat
        # waits for its move's answer: the generator's main saving.
        if not self.busy and self.ready.done() and payload[1:8] == b"\xa1t\xa4view":
            self._keep(payload)
            return
        frame = ormsgpack.unpackb(payload, option=_OPTIONS)
        kind = frame["t"]
        if kind == "view":
            self._keep(payload)
            self.view_times[frame["version"]] = time.perf_counter()
            if len(self.view_times) > 32:
                del self.view_times[min(self.view_times)]
            if not self.ready.done():
                self.ready.set_result(None)
            ack = frame.get("ack")
            if self.busy and ack is not None and ack["seq"] == self.seq:
                self.busy = False
                self.on_answer(self, time.perf_counter() - self.sent_at, None)
        elif kind == "welcome":
            self.seq = frame["last_seq"].get(self.seat, 0)
        elif self.busy and frame.get("seq") == self.seq:
            self.busy = False
            if kind == "ack":
                seen = self.view_times.get(frame["version"], time.perf_counter())
                self.on_answer(self, seen - self.sent_at, None)
            else:
                self.on_answer(self, None, frame["code"])


async def open_seat(
    url: str, token: str, seat: int, on_answer: Answer, patches: bool = True
) -> LoadSeat:
    """Connect one seat to `ws://host:port/ws?room=...` and wait for its first view
    (`patches`: ask for view patches, as the browser does)."""
    parts = urlsplit(url)
    loop = asyncio.get_running_loop()
    _, seat_proto = await loop.create_connection(
        lambda: LoadSeat(url, token, seat, on_answer, patches), parts.hostname, parts.port
    )
    await asyncio.wait_for(seat_proto.ready, 30)
    return seat_proto
