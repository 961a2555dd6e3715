"""uvicorn's sans-I/O websocket protocol, with a synchronous send path for views.

Every accepted move fans out a view to each connection of its room. Through ASGI each
of those is an awaited chain (starlette's `WebSocket.send`, uvicorn's `send`, websockets'
framing) run by a writer task per connection. This subclass (uvicorn takes it as
`Config(ws=...)`) offers the app one more callable in the ASGI scope's extensions,
`DIRECT_SEND`: it frames data frames and writes them to the transport at once, or
returns False when the connection cannot take them now (closing, or its write buffer
above the transport's high-water mark), so the caller queues them instead. Handshake,
receive, ping, close and back-pressure otherwise stay uvicorn's.

Reading frames: a client's moves are small binary frames, and websockets' sans-I/O
parser costs more per frame than the rest of the receive path. Once the handshake is
read, this protocol finds frame boundaries itself: a short, final, masked binary frame
(nearly every frame a client sends) is unmasked here, and so is a short pong (the
answer to uvicorn's keep-alive ping); every other frame (text, ping, close, fragments,
anything long or malformed) is passed whole to websockets, which so always reads from
a frame boundary and keeps its state, checks and replies.

Receiving: a second extension, `DIRECT_RECEIVE`, lets the app take data messages as
they arrive, handed to a synchronous callback instead of queued for `receive()` (which
then returns only the disconnect), so no task wakes per frame; the app pauses and
resumes reading itself while its work is under way (see `receive_directly`). Otherwise
uvicorn pauses the socket after every received message until the app has taken it (two
epoll changes per frame); here it pauses only when `READ_AHEAD` messages wait, which
bounds a flooding client the same way.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

try:  # the C version websockets itself uses, when it is built
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

# scope["extensions"][DIRECT_SEND]: Callable[[bytes], bool], see `ViewSender.write`.
DIRECT_SEND = "zashiki.direct_send"
DirectSend = Callable[[bytes], bool]
# scope["extensions"][DIRECT_RECEIVE]: Callable[[Receiver], HoldReading], see
# `receive_directly`.
DIRECT_RECEIVE = "zashiki.direct_receive"
Receiver = Callable[[bytes | str], None]
HoldReading = Callable[[bool], None]
READ_AHEAD = 4  # received messages held for the app before reading pauses

_OPCODE_BINARY_FIN = 0x82
_OPCODE_PONG_FIN = 0x8A
_MASKED = 0x80
_SHORT_MAX = 125  # payload lengths held in the frame's second byte
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


class ViewSender:
    """`DIRECT_SEND` for one connection: writes a binary frame to its transport at once
    while the connection takes views (accepted, no close sent, not lost, not paused by
    the transport's back-pressure), else returns False.

    The protocol keeps these flags here (`DirectSendProtocol`'s properties), so each
    view sent reads native fields instead of four attributes of the protocol, which is a
    plain Python object.
    """

    def __init__(self) -> None:
        self.transport: Any = None
        self.handshake_complete = False
        self.close_sent = False
        self.disconnected = False
        self.write_paused = False

    def write(self, data: bytes) -> bool:
        """Write `data` as one binary frame now; False if the connection cannot take it
        now."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.write_paused
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(binary_frame(data))
        return True


class MessageQueue:
    """The part of `asyncio.Queue` uvicorn's protocol uses, for one reader, in a list.

    An asyncio.Queue holds three deques and an Event, about 3 KB; this about 0.2 KB, on
    every open connection. It holds the connect and disconnect events, and data
    messages only until the app reads them directly.
    """

    __slots__ = ("_items", "_getter")

    def __init__(self) -> None:
        self._items: list[dict[str, Any]] = []
        self._getter: asyncio.Future[None] | None = None

    def put_nowait(self, item: dict[str, Any]) -> None:
        """Add `item` and wake the reader."""
        self._items.append(item)
        getter = self._getter
        if getter is not None and not getter.done():
            getter.set_result(None)

    async def get(self) -> dict[str, Any]:
        """The oldest item, once there is one."""
        while not self._items:
            self._getter = asyncio.get_running_loop().create_future()
            try:
                await self._getter
            finally:
                self._getter = None
        return self._items.pop(0)

    def get_nowait(self) -> dict[str, Any]:
        """The oldest item; asyncio.QueueEmpty if there is none."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    def empty(self) -> bool:
        """True if nothing waits."""
        return not self._items

    def qsize(self) -> int:
        """How many items wait."""
        return len(self._items)


class DirectSendProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol plus `DIRECT_SEND`, `DIRECT_RECEIVE`, lazier
    read pausing, and less held per open connection."""

    receiver: Receiver | None = None
    # Set once the handshake is read: frames are then found by `_take_frames`.
    _framing = False
    _partial = b""  # the start of a frame not yet all received
    _passing = 0  # bytes of the frame websockets is reading, still to hand it

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # First: uvicorn's __init__ sets the flags the sender holds (the properties below).
        self.sender = ViewSender()
        super().__init__(*args, **kwargs)
        self.queue = MessageQueue()  # type: ignore[assignment]

    # uvicorn's own flags, set in many places of its protocol, kept in the sender.
    @property
    def handshake_complete(self) -> bool:
        return self.sender.handshake_complete

    @handshake_complete.setter
    def handshake_complete(self, value: bool) -> None:
        self.sender.handshake_complete = value

    @property
    def close_sent(self) -> bool:
        return self.sender.close_sent

    @close_sent.setter
    def close_sent(self, value: bool) -> None:
        self.sender.close_sent = value

    @property
    def disconnected(self) -> bool:
        return self.sender.disconnected

    @disconnected.setter
    def disconnected(self, value: bool) -> None:
        self.sender.disconnected = value

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.sender.transport = transport

    def data_received(self, data: bytes) -> None:
        if self._framing:
            self._take_frames(data)
            return
        handshaking = not self.handshake_initiated
        super().data_received(data)
        # Take over only from a clean boundary: the request read and nothing after it.
        self._framing = (
            handshaking
            and self.handshake_initiated
            and not self.close_sent
            and not self.conn.reader.buffer
            and data.endswith(b"\r\n\r\n")
        )

    def _take_frames(self, data: bytes) -> None:
        """Deliver the short binary frames in `data`; hand websockets all else, whole."""
        buf = self._partial + data if self._partial else data
        self._partial = b""
        pos, end = 0, len(buf)
        while pos < end:
            if self._passing:
                take = min(self._passing, end - pos)
                self._passing -= take
                super().data_received(buf[pos : pos + take])
                pos += take
                if self.conn.state in (State.CLOSING, State.CLOSED):
                    self._framing = False  # websockets finishes the close on its own
                    if pos < end:
                        super().data_received(buf[pos:])
                    return
                continue
            if end - pos < 2:
                break
            first, second = buf[pos], buf[pos + 1]
            size = second & 0x7F
            if first == _OPCODE_BINARY_FIN and second & _MASKED and size <= _SHORT_MAX:
                if end - pos < 6 + size:
                    break
                start = pos + 6
                self.frames = [apply_mask(buf[start : start + size], buf[pos + 2 : start])]
                self.curr_msg_data_type = "bytes"
                pos = start + size
                self.send_receive_event_to_app()
                continue
            if first == _OPCODE_PONG_FIN and second & _MASKED and size <= _SHORT_MAX:
                if end - pos < 6 + size:
                    break
                start = pos + 6
                payload = apply_mask(buf[start : start + size], buf[pos + 2 : start])
                pos = start + size
                # websockets does nothing with a pong but hand it on; uvicorn's keep-alive
                # matches it to its ping.
                self.handle_pong(Frame(Opcode.PONG, payload))
                continue
            extended = 2 if size == 126 else 8 if size == 127 else 0
            header = 2 + extended + (4 if second & _MASKED else 0)
            if end - pos < header:
                break
            if extended:
                size = int.from_bytes(buf[pos + 2 : pos + 2 + extended], "big")
            self._passing = header + size
            if first & 0x80 == 0:
                # A fragmented message: websockets reads the rest of the connection, so
                # that no short frame can cut into it.
                self._framing = False
                super().data_received(buf[pos:])
                return
        if pos < end:
            self._partial = buf[pos:]

    def start_keepalive(self) -> None:
        # uvicorn calls this once the accept is written: the handshake's request and
        # response (their headers, 2 KB and more) are not read again.
        self.request = self.response = None  # type: ignore[assignment]
        super().start_keepalive()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: dict[str, Any] | None = getattr(self, "scope", None)
        if scope is not None:  # the upgrade was accepted: the app runs next
            scope["extensions"][DIRECT_SEND] = self.sender.write
            scope["extensions"][DIRECT_RECEIVE] = self.receive_directly

    def pause_writing(self) -> None:
        super().pause_writing()
        self.sender.write_paused = True

    def resume_writing(self) -> None:
        super().resume_writing()
        self.sender.write_paused = False

    def receive_directly(self, receiver: Receiver) -> HoldReading:
        """From now on give every data message to `receiver` as it arrives (those already
        queued first, in order); `receive()` then returns only the disconnect.

        Returns the app's switch for reading: True pauses it (the app has enough under
        way), False resumes it. A close by the app resumes it as uvicorn does.
        """
        self.receiver = receiver
        kept = []
        while not self.queue.empty():
            message = self.queue.get_nowait()
            if message["type"] == "websocket.receive":
                data = message.get("bytes")
                receiver(data if data is not None else message.get("text") or "")
            else:
                kept.append(message)
        for message in kept:
            self.queue.put_nowait(message)
        self.hold_reading(False)
        return self.hold_reading

    def hold_reading(self, hold: bool) -> None:
        """Pause (True) or resume (False) reading from the socket."""
        if hold != self.read_paused and not self.transport.is_closing():
            self.read_paused = hold
            if hold:
                self.transport.pause_reading()
            else:
                self.transport.resume_reading()

    def send_receive_event_to_app(self) -> None:
        # As uvicorn's, but straight to the app's receiver if it gave one; and else, for
        # binary messages, reading pauses only once READ_AHEAD messages wait (uvicorn's
        # receive() resumes it when the app has taken them all).
        receiver = self.receiver
        if self.close_sent or (receiver is None and self.curr_msg_data_type != "bytes"):
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if receiver is not None:
            if self.curr_msg_data_type == "bytes":
                receiver(data)
                return
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.conn.send_close(1007)  # as uvicorn: invalid UTF-8 closes the socket
                self.handle_parser_exception()
                return
            receiver(text)
            return
        self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
        if not self.read_paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()
