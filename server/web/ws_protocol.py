"""uvicorn's sans-I/O websocket protocol, with a synchronous send path for views.

Every accepted move fans out a view to each connection of its room. Through ASGI each
of those is an awaited chain (starlette's `WebSocket.send`, uvicorn's `send`, websockets'
framing) run by a writer task per connection. This subclass (uvicorn takes it as
`Config(ws=...)`) offers the app one more callable in the ASGI scope's extensions,
`DIRECT_SEND`: it frames data frames and writes them to the transport at once, or
returns False when the connection cannot take them now (closing, or its write buffer
above the transport's high-water mark), so the caller queues them instead. Handshake,
receive, ping, close and back-pressure otherwise stay uvicorn's.

Reading: uvicorn pauses the socket after every received message until the app has
taken it (two epoll changes per frame). Here it pauses only when `READ_AHEAD` messages
wait, which bounds a flooding client the same way.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

# scope["extensions"][DIRECT_SEND]: Callable[[bytes], bool], see `write_binary`.
DIRECT_SEND = "zashiki.direct_send"
DirectSend = Callable[[bytes], bool]
READ_AHEAD = 4  # received messages held for the app before reading pauses

_OPCODE_BINARY_FIN = 0x82
_SHORT = struct.Struct("!BB").pack
_MEDIUM = struct.Struct("!BBH").pack
_LONG = struct.Struct("!BBQ").pack


def binary_frame(data: bytes) -> bytes:
    """One unmasked, unfragmented binary frame (RFC 6455 5.2), as a server sends it.

    websockets' `send_binary` makes the same bytes; writing the two-to-ten-byte header
    here costs a sixth of it, which counts four times per move.

    >>> binary_frame(b"ab"), binary_frame(b"x" * 300)[:4]
    (b'\\x82\\x02ab', b'\\x82~\\x01,')
    """
    size = len(data)
    if size < 126:
        return _SHORT(_OPCODE_BINARY_FIN, size) + data
    if size < 65536:
        return _MEDIUM(_OPCODE_BINARY_FIN, 126, size) + data
    return _LONG(_OPCODE_BINARY_FIN, 127, size) + data


class DirectSendProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol plus `DIRECT_SEND` and lazier read pausing."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: dict[str, Any] | None = getattr(self, "scope", None)
        if scope is not None:  # the upgrade was accepted: the app runs next
            scope["extensions"][DIRECT_SEND] = self.write_binary

    def write_binary(self, data: bytes) -> bool:
        """Write `data` as one binary frame now; False if the connection cannot take it
        now (not yet accepted, closing, or paused by the transport's back-pressure)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(binary_frame(data))
        return True

    def send_receive_event_to_app(self) -> None:
        # As uvicorn's, for binary messages, but reading pauses only once READ_AHEAD
        # messages wait (uvicorn's receive() resumes it when the app has taken them all).
        if self.curr_msg_data_type != "bytes" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
        if not self.read_paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()
