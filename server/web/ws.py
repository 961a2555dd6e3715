"""The websocket endpoint `/ws?room=CODE`: hello, then moves in and views out.

One handler per connection: it authenticates with the first frame, attaches to the room
(the manager calls back with each fresh view), and then reads frames one at a time. Views
go out through an `Outbox`, a per-connection writer, so the room never waits on a slow
socket. A refused frame gets an error frame and changes nothing; only a failed hello
closes the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from server.rooms.errors import RoomError
from server.rooms.manager import Attached
from server.store.store import StoreError
from server.web import frames
from server.web.api import STORE_DOWN, RateLimited, spend
from server.web.frames import Close, FrameError
from server.web.limits import TokenBucket
from server.web.metrics import Metrics
from server.web.services import Services
from server.web.ws_protocol import DIRECT_SEND, DirectSend

log = logging.getLogger("zashiki")

# Close code for a RoomError raised while attaching; any other code (room_elsewhere,
# server_shutdown, ...) is passing, so the client is told to try again later.
ATTACH_CLOSE = {
    "room_not_found": Close.ROOM_NOT_FOUND,
    "bad_token": Close.BAD_TOKEN,
    "no_spectators": Close.NO_SPECTATORS,
}
# Close code when the room stops running here ({"t": "closed"} from the room).
# A seat left or given a new token (by the host) closes its connections for good.
ROOM_CLOSED = {
    "server_shutdown": Close.SERVICE_RESTART,
    "seat_left": Close.BAD_TOKEN,
    "seat_reissued": Close.BAD_TOKEN,
}
# Table-talk frames, handed to the room as they are (server/rooms/talk.py checks them).
TALK_KINDS = frozenset({"chat", "react", "mute", "deal_text"})


class Outbox:
    """Frames waiting to go out on one websocket, written in order by one task.

    Nothing is written before `start()`, so frames queued while attaching (the first
    view) follow the welcome frame. Then frames go straight to the transport
    (`DIRECT_SEND`, server/web/ws_protocol.py) while it takes them: every view of every
    move on a client that keeps up costs one write and no task. A writer task is made
    only when a frame must wait (the client's socket is full, or another server gives
    no direct path) and to close the socket; it sleeps on a bare future, the cheapest
    thing to wake.
    """

    def __init__(self, websocket: WebSocket, limit: int) -> None:
        self.websocket = websocket
        self.limit = limit
        self.queue: deque[bytes] = deque()
        self.close_code: int | None = None
        self.task: asyncio.Task[None] | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._started = False
        # The transport's synchronous writer (absent under other servers, e.g. tests'
        # in-process client), and whether the writer task has a frame in flight.
        self._direct: DirectSend | None = None
        self._sending = False
        # seat -> seq of the last move acknowledged inside a view this outbox queued.
        self._acked: dict[int, int] = {}

    def start(self, first: bytes) -> None:
        """Send `first` ahead of anything queued, then everything in order."""
        self.queue.appendleft(first)
        self._started = True
        self._direct = self.websocket.scope.get("extensions", {}).get(DIRECT_SEND)
        self._flush()

    def push(self, data: bytes) -> None:
        """Queue one frame; never blocks. A client too far behind is cut off."""
        if self.close_code is not None:
            return
        if len(self.queue) >= self.limit:
            self.queue.clear()
            self.close_code = Close.TOO_SLOW
        else:
            self.queue.append(data)
        if self._started:
            self._flush()

    def _flush(self) -> None:
        """Write what is queued while the transport takes it directly; leave the rest,
        and the closing of the socket, to the writer task."""
        direct, queue = self._direct, self.queue
        if direct is not None and not self._sending:
            while queue and direct(queue[0]):
                queue.popleft()
        if queue or self.close_code is not None:
            if self.task is None:
                self.task = asyncio.create_task(self._write())
            else:
                waiter = self._waiter
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)

    def push_view(self, message: dict[str, Any]) -> None:
        """The room's listener: pack this connection's message once and queue it.

        A "closed" message (the room stopped running here) is the last frame; the
        connection is then closed so the client reconnects, possibly elsewhere.
        """
        self.push(frames.encode_view(message))
        ack = message.get("ack")
        if ack is not None:
            self._acked[ack["seat"]] = ack["seq"]
        if message.get("t") == "closed" and self.close_code is None:
            self.close_code = ROOM_CLOSED.get(message.get("code", ""), Close.ROOM_MOVED)
            if self._started:
                self._flush()  # the writer closes the socket

    def carried(self, reply: dict[str, Any]) -> bool:
        """True if `reply` is an ack already sent inside the view its move caused.

        Each such ack is claimed once, so a later resend of the same move (answered
        without a new view) still gets its own ack frame.
        """
        if reply["t"] != "ack":
            return False
        return self._acked.pop(reply["seat"], None) == reply["seq"]

    async def _write(self) -> None:
        send = self.websocket.send_bytes
        loop = asyncio.get_running_loop()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                while self.queue:
                    self._sending = True
                    await send(self.queue.popleft())
                    self._sending = False
                if self.close_code is not None:
                    await self.websocket.close(self.close_code)
                    return
                self._waiter = loop.create_future()
                await self._waiter
                self._waiter = None

    async def goodbye(self, code: str, message: str) -> None:
        """Send a last {"t": "closed"} frame, close with 1012, and wait for the writer
        (the server is shutting down)."""
        self.push(frames.encode({"t": "closed", "code": code, "message": message}))
        if self.close_code is None:
            self.close_code = Close.SERVICE_RESTART
            if self._started:
                self._flush()
        if self.task is not None:
            await asyncio.wait([self.task])

    async def aclose(self) -> None:
        """Stop the writer (frames still queued for a departed client are dropped)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def receive_frame(websocket: WebSocket) -> bytes | str | None:
    """The next client frame's payload, or None once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    data = message.get("bytes")
    return data if data is not None else message.get("text", "")


async def refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    """Send one error frame, then close with a named close code."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_bytes(frames.error(code, message))
        await websocket.close(close)


async def play(websocket: WebSocket) -> None:
    """The endpoint: see the module docstring and PROTOCOL.md."""
    services = websocket.app.state.services
    limits = services.limits
    room = websocket.query_params.get("room", "").strip().upper()
    await websocket.accept()
    try:
        data = await asyncio.wait_for(receive_frame(websocket), limits.hello_timeout_s)
    except TimeoutError:
        await refuse(websocket, frames.BAD_FRAME, "no hello frame in time", Close.HELLO_TIMEOUT)
        return
    if data is None:
        return
    try:
        hello = frames.parse(data, limits.max_frame)
        if hello["t"] != "hello":
            raise FrameError(frames.BAD_FRAME, "the first frame must be a hello")
    except FrameError as exc:
        await refuse(websocket, exc.code, exc.message, Close.BAD_HELLO)
        return
    try:
        spend(websocket, "lookups")
    except RateLimited as exc:
        await refuse(websocket, exc.code, exc.message, Close.TRY_AGAIN_LATER)
        return
    # Seat holders and spectators are counted apart: spectators never keep a player out.
    tokens = hello["tokens"]
    counted = services.connections if tokens else services.spectators
    if not counted.enter(room):
        cap = f"{counted.limit} {'seat holder' if tokens else 'spectator'} connections"
        await refuse(
            websocket,
            frames.TOO_MANY_CONNECTIONS,
            f"a room takes at most {cap}",
            Close.TOO_MANY_CONNECTIONS,
        )
        return
    try:
        await serve_attached(websocket, services, room, tokens)
    finally:
        counted.leave(room)


async def serve_attached(
    websocket: WebSocket, services: Services, room: str, tokens: list[str]
) -> None:
    """Attach to the room, welcome the client, then handle its frames until it leaves."""
    outbox = Outbox(websocket, services.limits.outbox_frames)
    try:
        attachment = await services.manager.attach(room, tokens, outbox.push_view)
    except RoomError as exc:
        close = ATTACH_CLOSE.get(exc.code, Close.TRY_AGAIN_LATER)
        await refuse(websocket, exc.code, exc.message, close)
        return
    except StoreError as exc:
        log.warning("websocket to room %s: the store failed: %s", room, exc)
        await refuse(websocket, "store_error", STORE_DOWN, Close.TRY_AGAIN_LATER)
        return
    metrics = services.metrics
    metrics.connections += 1
    services.outboxes.add(outbox)
    try:
        outbox.start(frames.encode(welcome(attachment)))
        await read_frames(websocket, services, attachment, outbox)
    finally:
        services.outboxes.discard(outbox)
        metrics.connections -= 1
        attachment.detach()
        await outbox.aclose()


def welcome(attachment: Attached) -> dict[str, Any]:
    """The first frame after a good hello: the room, the seats held, their last move seq,
    and the room's kept chat (oldest first).

    `last_seq` lets a client that lost its counter (a reloaded page) go on numbering.
    """
    return {
        "t": "welcome",
        "room": attachment.code,
        "seats": list(attachment.seats),
        "last_seq": attachment.last_seqs(),
        "chat": attachment.take_history(),
    }


async def read_frames(
    websocket: WebSocket, services: Services, attachment: Attached, outbox: Outbox
) -> None:
    """The receive loop: one frame at a time, each answered or refused."""
    limits, metrics = services.limits, services.metrics
    bucket = TokenBucket(limits.frames_per_second, limits.frame_burst, time.monotonic())
    talk_bucket = TokenBucket(limits.talk_per_second, limits.talk_burst, time.monotonic())
    while True:
        data = await receive_frame(websocket)
        if data is None:
            return
        context: dict[str, Any] = {}
        try:
            frame = frames.parse(data, limits.max_frame)
            if frame["t"] == "move":
                context = {"seat": frame["seat"], "seq": frame["seq"]}
            if not bucket.take(time.monotonic()):
                raise FrameError(frames.RATE_LIMITED, "too many frames; slow down")
            if frame["t"] in frames.TALK_FRAMES and not talk_bucket.take(time.monotonic()):
                raise FrameError(frames.RATE_LIMITED, "too many chat messages; slow down")
            reply = await handle(frame, attachment, metrics)
        except (FrameError, RoomError) as exc:
            metrics.errors[exc.code] += 1
            outbox.push(frames.error(exc.code, exc.message, **context))
            continue
        except StoreError as exc:
            log.warning("websocket to room %s: the store failed: %s", attachment.code, exc)
            metrics.errors["store_error"] += 1
            outbox.push(frames.error("store_error", STORE_DOWN, **context))
            continue
        if reply is not None and not outbox.carried(reply):
            outbox.push(frames.encode(reply))


async def handle(
    frame: dict[str, Any], attachment: Attached, metrics: Metrics
) -> dict[str, Any] | None:
    """Carry out one checked frame; returns the reply frame, if the frame has one."""
    kind = frame["t"]
    if kind == "move":
        started = time.monotonic()
        answer = await attachment.move(frame["seat"], frame["seq"], frame["action"])
        now = time.monotonic()
        metrics.move_done(now, now - started)
        seat, seq = frame["seat"], frame["seq"]
        return {"t": "ack", "seat": seat, "seq": seq, "version": answer["version"]}
    if kind == "shown":
        version = frame.get("version")
        attachment.shown(version if isinstance(version, int) else None)
    elif kind == "visible":
        attachment.visible(frame["visible"])
    elif kind == "pause":
        await attachment.pause()
    elif kind == "resume":
        await attachment.resume()
    elif kind == "ping":
        return {"t": "pong"}
    elif kind in TALK_KINDS:
        await attachment.talk(frame)
    elif kind == "hello":
        raise FrameError(frames.BAD_FRAME, "already authenticated")
    return None
