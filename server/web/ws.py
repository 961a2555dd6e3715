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
from collections.abc import Awaitable
from typing import Any, cast

from starlette.websockets import WebSocket, WebSocketDisconnect

from server.rooms.errors import RoomError
from server.rooms.manager import Attached, Attachment
from server.store.store import StoreError
from server.web import frames
from server.web.frames import Close, FrameError
from server.web.http_io import STORE_DOWN, RateLimited, spend
from server.web.limits import TokenBucket
from server.web.services import Services
from server.web.ws_protocol import (
    DIRECT_RECEIVE,
    DIRECT_SEND,
    READ_AHEAD,
    DirectSend,
    HoldReading,
)

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
# Table-talk frames, handed to the room as they are (server/rooms/seats/talk.py checks them).
TALK_KINDS = frozenset({"chat", "react", "mute", "deal_text"})
# Review-together frames, handed to the room (server/rooms/actor/review_session.py).
REVIEW_KINDS = frozenset({"review_open", "review_step", "review_close"})


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
        # A list, not a deque: it is empty nearly always, and an empty deque costs 624
        # bytes a connection against a list's 56.
        self.queue: list[bytes] = []
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
        self.queue.insert(0, first)
        self._started = True
        self._direct = self.websocket.scope.get("extensions", {}).get(DIRECT_SEND)
        self._flush()

    def push(self, data: bytes) -> None:
        """Queue one frame; never blocks. A client too far behind is cut off."""
        if self.close_code is not None:
            return
        direct = self._direct  # set by start(): nothing goes out before the welcome frame
        if direct is not None and not self.queue and not self._sending and direct(data):
            return  # the usual case: nothing waiting, the transport takes it now
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
            sent = 0
            for data in queue:
                if not direct(data):
                    break
                sent += 1
            del queue[:sent]
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
                    await send(self.queue.pop(0))
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

    def stop(self) -> None:
        """Stop the writer now (frames still queued for a departed client are dropped,
        and so is anything pushed later, e.g. the answer to a move still being saved)."""
        if self.close_code is None:
            self.close_code = Close.NORMAL
        if self.task is not None:
            self.task.cancel()

    async def aclose(self) -> None:
        """`stop`, then wait until the writer has ended."""
        self.stop()
        if self.task is not None:
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
    except FrameError as bad:
        await refuse(websocket, bad.code, bad.message, Close.BAD_HELLO)
        return
    try:
        spend(websocket, "lookups")
    except RateLimited as limited:
        await refuse(websocket, limited.code, limited.message, Close.TRY_AGAIN_LATER)
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
        await serve_attached(websocket, services, room, tokens, hello.get("patches", False))
    finally:
        counted.leave(room)


async def serve_attached(
    websocket: WebSocket, services: Services, room: str, tokens: list[str], patches: bool
) -> None:
    """Attach to the room, welcome the client, then handle its frames until it leaves."""
    outbox = Outbox(websocket, services.limits.outbox_frames)
    try:
        attachment = await services.manager.attach(room, tokens, outbox.push_view, patches)
    except RoomError as refused:
        close = ATTACH_CLOSE.get(refused.code, Close.TRY_AGAIN_LATER)
        await refuse(websocket, refused.code, refused.message, close)
        return
    except StoreError as failed:
        log.warning("websocket to room %s: the store failed: %s", room, failed)
        await refuse(websocket, "store_error", STORE_DOWN, Close.TRY_AGAIN_LATER)
        return
    metrics = services.metrics
    metrics.connections += 1
    services.outboxes.add(outbox)
    try:
        outbox.start(frames.encode(welcome(attachment)))
        await FrameReader(services, attachment, outbox).run(websocket)
    finally:
        services.outboxes.discard(outbox)
        metrics.connections -= 1
        attachment.detach()
        # Not awaited here: compiled by mypyc, an await inside `finally` can raise an
        # exception caught earlier once it returns (setup.py). A writer stopped while
        # an error leaves ends by itself at the loop's next turn.
        outbox.stop()
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


class FrameReader:
    """One connection's frames after the hello: each checked, carried out in order, and
    answered (an ack or a reply frame) or refused with an error frame.

    Two ways to read, one behaviour. Under our protocol (`DIRECT_RECEIVE`) with the room
    run here, frames arrive by a synchronous callback and go straight into the room's
    queue; the answer comes back as a done-callback, so no task wakes for a frame.
    Reading pauses while `ws_protocol.READ_AHEAD` frames wait for their answers. Otherwise
    (another server, or a room run by another process) `read_awaited` takes one frame
    at a time and awaits its answer.
    """

    def __init__(self, services: Services, attachment: Attached, outbox: Outbox) -> None:
        self.limits = services.limits
        self.metrics = services.metrics
        self.attachment = attachment
        self.outbox = outbox
        now = time.monotonic()
        self.bucket = TokenBucket(self.limits.frames_per_second, self.limits.frame_burst, now)
        self.talk_bucket = TokenBucket(self.limits.talk_per_second, self.limits.talk_burst, now)
        self.hint_bucket = TokenBucket(self.limits.hint_per_second, self.limits.hint_burst, now)
        # Frames read directly whose answers are not sent yet, oldest first: (frame or
        # None if unparsable, started, the room's answer to come or None, refusal).
        self.waiting: list[
            tuple[dict[str, Any] | None, float, asyncio.Future[Any] | None, BaseException | None]
        ] = []
        self._hold: HoldReading | None = None

    async def run(self, websocket: WebSocket) -> None:
        """Read and answer frames until the client goes."""
        receive_directly = websocket.scope.get("extensions", {}).get(DIRECT_RECEIVE)
        if receive_directly is None or not isinstance(self.attachment, Attachment):
            await self.read_awaited(websocket)
            return
        self._hold = receive_directly(self.on_frame)
        while await receive_frame(websocket) is not None:
            pass  # only the disconnect comes this way now

    async def read_awaited(self, websocket: WebSocket) -> None:
        """The receive loop: one frame at a time, each answered or refused."""
        while True:
            data = await receive_frame(websocket)
            if data is None:
                return
            frame, started = None, time.monotonic()
            try:
                frame = self.parse(data, started)
                self.within_rates(frame, started)
                work = self.start(frame)
                result = None if work is None else await work
            except (FrameError, RoomError, StoreError) as exc:
                self.refuse(exc, frame)
                continue
            self.answer(frame, result, started)

    def on_frame(self, data: bytes | str) -> None:
        """The protocol's receiver: check and start the frame in `data`. Answers go out
        in the order of the frames, so one that waits on the room holds back the answers
        of those after it (`_send_ready`)."""
        frame, started = None, time.monotonic()
        work: asyncio.Future[Any] | None = None
        refused: BaseException | None = None
        try:
            frame = self.parse(data, started)
            self.within_rates(frame, started)
            # Read directly only with a room run here, whose answers are futures.
            work = cast("asyncio.Future[Any] | None", self.start(frame))
        except (FrameError, RoomError, StoreError) as exc:
            refused = exc
        if work is None and not self.waiting:
            self.settle(frame, started, None, refused)
            return
        self.waiting.append((frame, started, work, refused))
        if work is not None:
            work.add_done_callback(self._send_ready)
        if len(self.waiting) == READ_AHEAD and self._hold is not None:
            self._hold(True)

    def _send_ready(self, _: object = None) -> None:
        """Answer the waiting frames whose turn has come, oldest first."""
        waiting = self.waiting
        while waiting:
            frame, started, work, refused = waiting[0]
            if work is not None:
                if not work.done():
                    break
                if work.cancelled():
                    waiting.pop(0)
                    continue
                refused = work.exception()
                result = None if refused else work.result()
            else:
                result = None
            waiting.pop(0)
            if len(waiting) == READ_AHEAD - 1 and self._hold is not None:
                self._hold(False)
            self.settle(frame, started, result, refused)

    def settle(
        self,
        frame: dict[str, Any] | None,
        started: float,
        result: Any,
        refused: BaseException | None,
    ) -> None:
        """Send one frame's answer: its reply, or its error frame if it was refused."""
        if refused is None:
            assert frame is not None
            self.answer(frame, result, started)
        elif isinstance(refused, (FrameError, RoomError, StoreError)):
            self.refuse(refused, frame)
        else:
            raise refused  # a bug: the loop logs it

    def parse(self, data: bytes | str, now: float) -> dict[str, Any]:
        """The frame in `data`, parsed and checked (FrameError). A malformed frame
        spends a token of the frame rate too, so a flood of them is refused as one."""
        try:
            return frames.parse(data, self.limits.max_frame)
        except FrameError:
            self._spend_frame(now)
            raise

    def within_rates(self, frame: dict[str, Any], now: float) -> None:
        """FrameError unless `frame` is within the connection's rates. Checked once the
        frame is parsed, so that a refused move's error names its seat and seq."""
        self._spend_frame(now)
        if frame["t"] in frames.TALK_FRAMES and not self.talk_bucket.take(now):
            raise FrameError(frames.RATE_LIMITED, "too many chat messages; slow down")
        if frame["t"] == "hint" and not self.hint_bucket.take(now):
            raise FrameError(frames.RATE_LIMITED, "too many hints; wait a few seconds")

    def _spend_frame(self, now: float) -> None:
        """Take one frame's token from the connection's rate, or raise RATE_LIMITED."""
        if not self.bucket.take(now):
            raise FrameError(frames.RATE_LIMITED, "too many frames; slow down")

    def start(self, frame: dict[str, Any]) -> Awaitable[Any] | None:
        """Carry out one checked frame: the room's answer still to come, or None when
        it is done already."""
        attachment, kind = self.attachment, frame["t"]
        if kind == "move":
            return attachment.move(frame["seat"], frame["seq"], frame["action"])
        if kind == "pause":
            return attachment.pause()
        if kind == "resume":
            return attachment.resume()
        if kind == "vacation":
            return attachment.vacation(frame["seat"], frame["on"])
        if kind == "hint":
            return attachment.hint(frame["seat"])
        if kind in TALK_KINDS:
            return attachment.talk(frame)
        if kind in REVIEW_KINDS:
            return attachment.review(frame)
        if kind == "shown":
            version = frame.get("version")
            attachment.shown(version if isinstance(version, int) else None)
        elif kind == "visible":
            attachment.visible(frame["visible"])
        elif kind == "hello":
            raise FrameError(frames.BAD_FRAME, "already authenticated")
        return None

    def answer(self, frame: dict[str, Any], result: Any, started: float) -> None:
        """Send the reply a carried-out frame has, if any: an ack (unless the view the
        move caused carried it) or a pong."""
        kind = frame["t"]
        if kind == "move":
            now = time.monotonic()
            self.metrics.move_done(now, now - started)
            reply = {
                "t": "ack",
                "seat": frame["seat"],
                "seq": frame["seq"],
                "version": result["version"],
            }
            if not self.outbox.carried(reply):
                self.outbox.push(frames.encode(reply))
        elif kind == "ping":
            self.outbox.push(frames.encode({"t": "pong"}))
        elif kind == "hint":
            self.outbox.push(frames.encode(result))

    def refuse(
        self, exc: FrameError | RoomError | StoreError, frame: dict[str, Any] | None
    ) -> None:
        """Send the error frame for a refused frame (a move's names its seat and seq)."""
        if isinstance(exc, StoreError):
            log.warning("websocket to room %s: the store failed: %s", self.attachment.code, exc)
            code, message = "store_error", STORE_DOWN
        else:
            code, message = exc.code, exc.message
        self.metrics.errors[code] += 1
        context = {}
        if frame is not None and frame["t"] == "move":
            context = {"seat": frame["seat"], "seq": frame["seq"]}
        self.outbox.push(frames.error(code, message, **context))
