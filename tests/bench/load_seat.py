"""A lean websocket seat for the load generator: callbacks, no task per frame or per move.

The client library (`client.lib`) is built for correctness (reconnects, resends, one
future per move); driving thousands of moves a second through it costs the generator as
much CPU as the server spends. `LoadSeat` speaks the same protocol with websockets'
sans-I/O `ClientProtocol` inside an asyncio `Protocol`, so each frame costs one callback.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, cast

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from server.store import codec

# on_answer(seat, latency_s or None, error code or None) for each move answered.
Answer = Callable[["LoadSeat", float | None, str | None], None]


class LoadSeat(asyncio.Protocol):
    """One seat on its own connection; `move()` sends, the answer arrives by callback."""

    def __init__(self, url: str, token: str, seat: int, on_answer: Answer) -> None:
        self.proto = ClientProtocol(parse_uri(url))
        self.token = token
        self.seat = seat
        self.on_answer = on_answer
        self.view: dict[str, Any] | None = None
        self.busy = False
        self.seq = 0
        self.sent_at = 0.0
        self.view_times: dict[int, float] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not subclass asyncio.Transport, hence the cast.
        self.transport = cast(asyncio.Transport, transport)
        self.proto.send_request(self.proto.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.proto.receive_data(data)
        for event in self.proto.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.BINARY:
                self._frame(codec.unpack(event.data))
            elif not isinstance(event, Frame) and not self.ready.done():
                # The handshake response: say hello.
                self.proto.send_binary(codec.pack({"t": "hello", "tokens": [self.token]}))
        self._flush()

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
        self.proto.send_binary(codec.pack(frame))
        self._flush()

    def close(self) -> None:
        """Drop the connection."""
        if self.transport is not None:
            self.transport.close()

    def _frame(self, frame: dict[str, Any]) -> None:
        kind = frame["t"]
        if kind == "view":
            self.view = frame
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

    def _flush(self) -> None:
        if self.transport is not None:
            for data in self.proto.data_to_send():
                if data:
                    self.transport.write(data)


async def open_seat(url: str, token: str, seat: int, on_answer: Answer) -> LoadSeat:
    """Connect one seat to `ws://host:port/ws?room=...` and wait for its first view."""
    uri = parse_uri(url)
    loop = asyncio.get_running_loop()
    _, seat_proto = await loop.create_connection(
        lambda: LoadSeat(url, token, seat, on_answer), uri.host, uri.port
    )
    await asyncio.wait_for(seat_proto.ready, 30)
    return seat_proto
