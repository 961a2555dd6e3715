"""Websocket frames however TCP cuts them: the server finds frame boundaries itself for
short binary frames and pongs (ws_protocol.py) and hands websockets every other frame
whole.

A raw socket does the handshake and writes frames byte by byte, so every frame is split
at every possible place; control frames, text frames and a fragmented message are mixed
in. Each frame must get its own answer, in order. A second test drives the protocol
without a socket and checks which bytes websockets' parser is given: exactly the frames
the protocol does not take itself.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from client.lib import Client
from server.store import codec
from server.web.ws_protocol import DIRECT_RECEIVE, DIRECT_SEND, DirectSendProtocol
from tests.net.conftest import ServerProcess
from tests.net.drive import humans_only_room

PING, PONG, TEXT, BINARY, CONTINUATION = 0x9, 0xA, 0x1, 0x2, 0x0


def client_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A masked client frame (RFC 6455 5.2)."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if size < 126:
        head += bytes([0x80 | size])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawSocket:
    """A websocket client on a bare TCP stream."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, server: ServerProcess, code: str) -> RawSocket:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            f"GET /ws?room={code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        response = await reader.readuntil(b"\r\n\r\n")
        assert response.startswith(b"HTTP/1.1 101"), response
        return cls(reader, writer)

    async def send_bytewise(self, data: bytes) -> None:
        for i in range(len(data)):
            self.writer.write(data[i : i + 1])
            await self.writer.drain()
            await asyncio.sleep(0)

    async def frame(self) -> tuple[int, bytes]:
        """The next server frame: (opcode, payload)."""
        first, second = await self.reader.readexactly(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return first & 0x0F, await self.reader.readexactly(size)

    async def message(self) -> dict[str, Any]:
        """The next server frame that is a binary message, unpacked."""
        while True:
            opcode, payload = await asyncio.wait_for(self.frame(), 10)
            if opcode == BINARY:
                return codec.unpack(payload)


async def test_frames_cut_at_every_byte_are_each_answered_in_order(
    server: ServerProcess, client: Client
) -> None:
    seats = await humans_only_room(client)
    ws = await RawSocket.open(server, seats[0].code)
    await ws.send_bytewise(
        client_frame(BINARY, codec.pack({"t": "hello", "tokens": [seats[0].token]}))
    )
    assert (await ws.message())["t"] == "welcome"
    assert (await ws.message())["t"] == "view"
    stream = b"".join(
        [
            client_frame(BINARY, codec.pack({"t": "ping", "n": 1})),
            client_frame(PING, b"are you there"),
            client_frame(TEXT, b"hello there"),
            client_frame(BINARY, codec.pack({"t": "ping", "pad": "x" * 200})),  # 16-bit length
            client_frame(BINARY, b"\xc1"),
        ]
    )
    await ws.send_bytewise(stream)
    assert await asyncio.wait_for(ws.frame(), 10) == (BINARY, codec.pack({"t": "pong"}))
    assert await asyncio.wait_for(ws.frame(), 10) == (PONG, b"are you there")
    assert (await ws.message())["code"] == "bad_frame"  # the text frame
    assert (await ws.message()) == {"t": "pong"}
    assert (await ws.message())["code"] == "bad_frame"
    # A message in two fragments, then a short frame: each answered.
    ping = codec.pack({"t": "ping"})
    fragmented = client_frame(BINARY, ping[:2], fin=False) + client_frame(CONTINUATION, ping[2:])
    await ws.send_bytewise(fragmented + client_frame(BINARY, ping))
    assert (await ws.message()) == {"t": "pong"}
    assert (await ws.message()) == {"t": "pong"}
    ws.writer.close()


class FakeTransport:
    """Just enough of an asyncio transport for the protocol (no socket)."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


async def accepted_protocol(
    taken: list[bytes | str],
) -> tuple[DirectSendProtocol, list[bytes]]:
    """Our protocol on a fake transport, past the handshake, its app taking data frames
    into `taken`; and the list of bytes websockets' parser is then given."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        scope["extensions"][DIRECT_RECEIVE](taken.append)
        while (await receive())["type"] != "websocket.disconnect":
            pass

    config = Config(app, ws=DirectSendProtocol, ws_per_message_deflate=False, lifespan="off")
    config.load()
    protocol = DirectSendProtocol(config, ServerState(), {}, asyncio.get_running_loop())
    protocol.connection_made(FakeTransport())  # type: ignore[arg-type]
    fed: list[bytes] = []
    receive_data = protocol.conn.receive_data
    protocol.conn.receive_data = lambda data: (fed.append(bytes(data)), receive_data(data))[1]  # type: ignore[method-assign]
    key = base64.b64encode(os.urandom(16)).decode()
    protocol.data_received(
        f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    for _ in range(5):
        await asyncio.sleep(0)  # the app accepts and takes frames directly
    assert protocol.handshake_complete
    fed.clear()
    return protocol, fed


async def test_websockets_reads_only_the_frames_the_protocol_does_not_take() -> None:
    taken: list[bytes | str] = []
    protocol, fed = await accepted_protocol(taken)
    # uvicorn's keep-alive ping; the client's pong comes back among the frames below.
    protocol.send_keepalive_ping()
    ping_payload = protocol.transport.written[-1][2:]  # type: ignore[attr-defined]
    assert protocol.pending_ping_payload == ping_payload and protocol.pong_timer is not None
    short = [client_frame(BINARY, bytes([n]) * n) for n in (1, 125)]
    pong = client_frame(PONG, ping_payload)
    others = [
        client_frame(PING, b"\x82\x85" * 3),  # bytes that look like a short frame's header
        client_frame(TEXT, b"hi"),
        client_frame(BINARY, b"y" * 126),  # a 16-bit length: websockets reads it
    ]
    stream = short[0] + others[0] + short[1] + pong + others[1] + others[2] + short[0]
    for i in range(len(stream)):  # one byte at a time
        protocol.data_received(stream[i : i + 1])
    assert b"".join(fed) == b"".join(others), "websockets read a frame the protocol took"
    assert taken == [b"\x01", b"}" * 125, "hi", b"y" * 126, b"\x01"]
    # The pong, read by the protocol itself, still answered the keep-alive ping.
    assert protocol.pending_ping_payload is None and protocol.pong_timer is None
    assert protocol.ping_timer is not None  # the next ping is on its way
    protocol.connection_lost(None)  # the app hears the disconnect and returns
    for _ in range(5):
        await asyncio.sleep(0)
    assert not protocol.tasks, "the app did not finish"


async def test_a_short_frame_inside_a_fragmented_message_is_a_protocol_error(
    server: ServerProcess, client: Client
) -> None:
    seats = await humans_only_room(client)
    ws = await RawSocket.open(server, seats[0].code)
    await ws.send_bytewise(client_frame(BINARY, codec.pack({"t": "hello", "tokens": []})))
    assert (await ws.message())["t"] == "welcome"
    ping = codec.pack({"t": "ping"})
    # RFC 6455 5.4: a new data frame may not start before the fragmented message ends.
    await ws.send_bytewise(client_frame(BINARY, ping[:2], fin=False) + client_frame(BINARY, ping))
    while True:
        opcode, payload = await asyncio.wait_for(ws.frame(), 10)
        if opcode == 0x8:  # close
            break
        assert codec.unpack(payload).get("t") != "pong", "the short frame was read"
    assert struct.unpack("!H", payload[:2])[0] == 1002
    ws.writer.close()


async def test_views_are_written_directly_only_while_the_transport_takes_them() -> None:
    protocol, _ = await accepted_protocol([])
    send = protocol.scope["extensions"][DIRECT_SEND]
    written = protocol.transport.written  # type: ignore[attr-defined]
    assert send(b"one") and written[-1] == b"\x82\x03one"
    protocol.pause_writing()  # the transport's buffer is above its high-water mark
    assert not send(b"two")
    protocol.resume_writing()
    assert send(b"three") and written[-1] == b"\x82\x05three"
    protocol.close_sent = True  # as uvicorn marks it when it sends a close frame
    assert not send(b"four")
    protocol.close_sent = False
    assert send(b"five")
    protocol.connection_lost(None)
    assert not send(b"six")
    for _ in range(5):
        await asyncio.sleep(0)
