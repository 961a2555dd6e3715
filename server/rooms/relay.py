"""Reaching a room that another server process runs, over the bus (pub/sub).

A room is run by one process, the holder of its lease (DESIGN.md "Scaling past one
machine"). When a client reaches another process, that process (the asker) relays to
the holder (the owner) through the bus; each process listens on its own inbox channel.

- attach: the owner attaches a listener that forwards every message the room sends that
  attachment (its views, then "closed") to the asker's inbox, tagged with a link id the
  asker chose and numbered; the asker hands them to the client's listener in order. The
  asker's `RemoteAttachment` behaves as a local `Attachment`: a move returns after the
  view carrying its ack has reached the listener (the owner publishes that view before
  the reply, over one ordered bus), and the owner's RoomErrors come back as RoomErrors.
- take_seat, start: one request and its reply. The asker makes the seat token and sends
  only its digest, so no token crosses the bus.
- Only what the room gives one attachment travels on its link, as for a local client.

Handover. A relayed move costs both processes more CPU than a local one, so a room
follows its clients. An attach says whether the asker may take the room (its manager
bounds how often); the owner with nobody else there (no attachment, none attaching, no
other link) stops running it and answers "take it" instead of serving a link, and the
asker loads it itself. Later, the owner's housekeeping may find every attachment of a
room is a link from one asker: it closes those links (room_moved, so their clients
reconnect, to the asker as before), stops the room and tells the asker to "take" it.
Which rooms move, and when, is the manager's call (`hand_over`, `hand_to`).

Failures. A request unanswered within `timeout_s`, or published to an inbox nobody
listens on (the owner died), fails: attach, take_seat and start with `room_elsewhere`,
a link's move or pause by closing the link. A closed link gets {"t": "closed", "code":
"room_moved"} so the client reconnects; by then another process may run the room. Links
close when the owner stops the room, when a message is missing (each reply and message
carries the owner's count, so a gap shows), when the bus subscription broke, and when
`sweep` (the manager's housekeeping) finds the owner gone or no longer knowing the
link. The owner detaches a link once publishing to its asker reaches nobody, and when
the asker's sweep no longer lists it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Literal

from server.games.contract import Action
from server.rooms.errors import RoomError
from server.rooms.room import Attachment, Listener, Room
from server.store import codec
from server.store.bus import Bus

__all__ = ["RemoteAttachment", "Relay", "inbox"]

REQUEST_TIMEOUT_S = 5.0
# What an asker may have an owner's room do for it outside a link.
ROOM_CALLS = frozenset({"take_seat", "start"})
MOVED = "the room moved to another server; reconnect"
# What the owner did with a room an asker may take: stopped it for that asker now
# ("given"), found it already stopping ("gone"), or kept it (None: serve a link).
Handed = Literal["given", "gone"] | None
log = logging.getLogger(__name__)


def inbox(instance_id: str) -> str:
    """The bus channel a process listens on."""
    return f"bus:{instance_id}"


class _Unreachable(Exception):
    """A request the owner did not answer: nobody listens there, a timeout, a lost bus."""


class RemoteAttachment:
    """A client's link to a room run by another process; used as an `Attachment` is."""

    def __init__(self, relay: Relay, owner: str, code: str, link: int, listener: Listener) -> None:
        self.relay = relay
        self.owner = owner
        self.code = code
        self.link = link
        self.listener = listener
        self.seats: tuple[int, ...] = ()
        self.detached = False
        self.attached = False  # the owner's answer came (until then a sweep spares it)
        self.received = 0  # messages of this link delivered so far
        self.seqs: dict[int, int] = {}

    async def move(self, seat: int, seq: int, action: Action) -> dict[str, Any]:
        """As `Attachment.move`: returns after the view carrying the ack was delivered."""
        result: dict[str, Any] = await self.relay.link_call(self, "move", [seat, seq, action])
        if seat in self.seats:
            self.seqs[seat] = max(self.seqs.get(seat, 0), result["seq"])
        return result

    def last_seqs(self) -> dict[int, int]:
        """Each held seat's last accepted move number, as of the latest view."""
        return {seat: seq for seat, seq in self.seqs.items() if seat in self.seats}

    def shown(self, version: int | None = None) -> None:
        """The client has displayed the view of `version` (default: the latest sent)."""
        self.relay.link_post(self, "shown", version)

    def visible(self, visible: bool) -> None:
        """The client's board became visible or hidden."""
        self.relay.link_post(self, "visible", bool(visible))

    async def pause(self) -> None:
        """Pause the game clock (same rules as a local attachment)."""
        await self.relay.link_call(self, "pause", [True])

    async def resume(self) -> None:
        """Resume the game clock."""
        await self.relay.link_call(self, "pause", [False])

    def detach(self) -> None:
        """Disconnect; the listener gets nothing more. Safe to call twice."""
        if not self.detached:
            self.relay.drop_link(self)


class _Served:
    """The owner's side of one link: the local attachment and what it forwarded."""

    __slots__ = ("relay", "asker", "link", "att", "sent", "gone")

    def __init__(self, relay: Relay, asker: str, link: int) -> None:
        self.relay = relay
        self.asker = asker
        self.link = link
        self.att: Attachment | None = None
        self.sent = 0
        self.gone = False

    def forward(self, message: dict[str, Any]) -> None:
        """The room's listener for this link: send the message on to the asker."""
        if self.gone:
            return
        self.sent += 1
        data = {"k": "view", "f": self.relay.me, "l": self.link, "n": self.sent, "m": message}
        self.relay.bus.publish(inbox(self.asker), codec.pack(data)).add_done_callback(self._check)
        if message.get("t") == "closed":
            self.gone = True
            self.relay.forget(self)

    def _check(self, sent: asyncio.Future[int]) -> None:
        if sent.exception() is not None or sent.result() == 0:
            self.end()

    def end(self) -> None:
        """Nobody is listening at the asker any more: detach from the room."""
        self.gone = True
        self.relay.forget(self)
        if self.att is not None:
            self.att.detach()


class Relay:
    """One process's end of the bus: asks other owners, and serves the rooms it runs.

    `local_room(code)` gives the room running here, loading it if this process may take
    its lease, and raises RoomError (room_elsewhere, room_not_found, ...) otherwise.
    `hand_over(code, asker)` stops running the room here if nothing here needs it
    (`Handed`); `take(code)` is told of a room another process handed to this one.
    Without them, rooms never move.
    """

    def __init__(
        self,
        bus: Bus,
        instance_id: str,
        local_room: Callable[[str], Awaitable[Room]],
        timeout_s: float = REQUEST_TIMEOUT_S,
        *,
        hand_over: Callable[[str, str], Awaitable[Handed]] | None = None,
        take: Callable[[str], None] | None = None,
    ) -> None:
        self.bus = bus
        self.me = instance_id
        self.timeout_s = timeout_s
        self._local_room = local_room
        self._hand_over = hand_over
        self._take = take
        # Rooms handed to other processes, and to this one; requests that timed out.
        self.given = self.taken = self.timeouts = 0
        self._ids = itertools.count(1)
        # Requests awaiting their reply: the future, the owner asked, the link if any.
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, int | None]] = {}
        self._links: dict[int, RemoteAttachment] = {}
        self._served: dict[tuple[str, int], _Served] = {}
        self._attaching: Counter[str] = Counter()  # attaches being served, by room
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeping = False
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "view": self._on_view,
            "re": self._on_reply,
            "hi": self._on_hi,
            "attach": self._on_attach,
            "call": self._on_call,
            "move": self._on_link_call,
            "pause": self._on_link_call,
            "shown": self._on_link_post,
            "visible": self._on_link_post,
            "detach": self._on_detach,
            "ping": self._on_ping,
            "take": self._on_take,
        }

    # -- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        """Listen on this process's inbox."""
        await self.bus.subscribe(inbox(self.me), self._received, self._reset)

    async def aclose(self) -> None:
        """Close every link this process asked for, detach those it served, stop listening.

        Call it once the rooms here are stopped (their links were told "closed").
        """
        for link in list(self._links.values()):
            self._close_link(link, "server_shutdown", "the server is shutting down")
        self._fail_pending()
        for served in list(self._served.values()):
            served.end()
        # Requests still being served have nobody left to answer (the rooms stopped).
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.bus.unsubscribe(inbox(self.me))

    # -- asking: what the manager calls ----------------------------------------------
    async def attach(
        self, owner: str, code: str, token_hashes: list[str], listener: Listener, take: bool
    ) -> RemoteAttachment | None:
        """Attach to `code` at `owner`; raises the owner's RoomError, or room_elsewhere.

        With `take`, the owner may stop running the room instead: None, and the lease is
        free for this process to load the room itself.
        """
        link = RemoteAttachment(self, owner, code, next(self._ids), listener)
        self._links[link.link] = link
        ask = {"k": "attach", "c": code, "t": token_hashes, "l": link.link, "h": take}
        try:
            reply = await self._request(owner, ask)
        except _Unreachable:
            self._links.pop(link.link, None)
            raise RoomError(
                "room_elsewhere", f"the server running room {code} did not answer"
            ) from None
        except BaseException:
            self.drop_link(link)
            raise
        if "e" in reply:
            self._links.pop(link.link, None)
            raise RoomError(*reply["e"])
        if "take" in reply:
            self._links.pop(link.link, None)
            self.taken += reply["take"] == "given"
            return None
        if reply["n"] != link.received:
            self.drop_link(link)
            raise RoomError("room_elsewhere", f"messages of room {code} were lost; try again")
        link.seats = tuple(reply["ok"]["seats"])
        link.seqs = dict(reply["ok"]["seqs"])
        link.attached = True
        return link

    async def call(self, owner: str, code: str, kind: str, args: list[Any]) -> Any:
        """Have `owner`'s room `code` handle one input (take_seat, start); its answer."""
        try:
            reply = await self._request(owner, {"k": "call", "c": code, "i": kind, "a": args})
        except _Unreachable:
            raise RoomError(
                "room_elsewhere", f"the server running room {code} did not answer"
            ) from None
        if "e" in reply:
            raise RoomError(*reply["e"])
        return reply["ok"]

    async def link_call(self, link: RemoteAttachment, kind: str, args: list[Any]) -> Any:
        """One input on a link (move, pause) and its answer; a failure closes the link."""
        if link.detached:
            raise RoomError("room_moved", MOVED)
        try:
            reply = await self._request(
                link.owner, {"k": kind, "l": link.link, "a": args}, link.link
            )
        except _Unreachable:
            self._close_link(link)
            raise RoomError("room_moved", MOVED) from None
        if reply["n"] != link.received and not link.detached:
            self._close_link(link)  # a message went missing: the client must catch up
        if "e" in reply:
            code, message = reply["e"]
            if code == "room_moved":
                self._close_link(link)
            raise RoomError(code, message)
        return reply["ok"]

    def link_post(self, link: RemoteAttachment, kind: str, value: Any) -> None:
        """An input on a link that nobody waits for (shown, visible)."""
        if not link.detached:
            self._send(link.owner, {"k": kind, "l": link.link, "a": value})

    def drop_link(self, link: RemoteAttachment) -> None:
        """The client left: forget the link and tell the owner to detach."""
        link.detached = True
        if self._links.pop(link.link, None) is not None:
            self._send(link.owner, {"k": "detach", "l": link.link})

    # -- handover: what the manager's housekeeping calls --------------------------------
    def attaching(self, code: str) -> int:
        """How many attaches to the room run here are being served for other processes."""
        return self._attaching[code]

    def links_by_room(self) -> dict[str, tuple[set[str], int]]:
        """For each room run here: the processes it serves links for, and how many links."""
        rooms: dict[str, tuple[set[str], int]] = {}
        for served in self._served.values():
            if served.att is not None:
                askers, n = rooms.get(served.att.code, (set(), 0))
                askers.add(served.asker)
                rooms[served.att.code] = (askers, n + 1)
        return rooms

    def close_served(self, code: str) -> None:
        """Close the links served for room `code` (room_moved: their clients reconnect)."""
        closed = {"t": "closed", "code": "room_moved", "message": MOVED}
        for served in list(self._served.values()):
            if served.att is not None and served.att.code == code:
                served.forward(closed)
                served.att.detach()

    def hand_to(self, asker: str, code: str) -> None:
        """Tell `asker` that the room `code`, stopped here, is its own to load."""
        self.given += 1
        self._send(asker, {"k": "take", "c": code})

    def stats(self) -> dict[str, int]:
        """Figures for /metrics: links relayed and served now, handovers, timeouts."""
        return {
            "relay_links_out": len(self._links),
            "relay_links_in": len(self._served),
            "handovers_given": self.given,
            "handovers_taken": self.taken,
            "relay_timeouts": self.timeouts,
        }

    # -- health: the manager's housekeeping calls this -------------------------------
    async def sweep(self) -> None:
        """Find links whose other end is gone, on both sides, and end them.

        As owner: greet each asker with the links served for it; an inbox nobody
        listens on detaches them all, and the asker has those it gave up detached. As
        asker: ping each owner with the links held there (attaching ones included, so
        the owner keeps them); attached links it does not know, or all of them if it
        does not answer, are closed with room_moved.
        """
        if self._sweeping:
            return
        self._sweeping = True
        try:
            askers: dict[str, list[int]] = {}
            for served in self._served.values():
                askers.setdefault(served.asker, []).append(served.link)
            greeted = {
                asker: self._send(asker, {"k": "hi", "l": links}) for asker, links in askers.items()
            }
            owners: dict[str, list[RemoteAttachment]] = {}
            for link in self._links.values():
                owners.setdefault(link.owner, []).append(link)
            await asyncio.gather(*(self._ping(o, links) for o, links in owners.items()))
            for asker, sent in greeted.items():
                try:
                    reached = await sent
                except Exception:
                    reached = 0
                if not reached:
                    for served in list(self._served.values()):
                        if served.asker == asker:
                            served.end()
        finally:
            self._sweeping = False

    async def _ping(self, owner: str, links: list[RemoteAttachment]) -> None:
        try:
            reply = await self._request(owner, {"k": "ping", "l": [k.link for k in links]})
            known = set(reply.get("ok") or ())
        except _Unreachable:
            known = set()
            # Nobody answers there: what else waits on that owner waits in vain.
            self._fail_pending(lambda asked, link: asked == owner)
        for link in links:
            # A link still attaching may not be known yet; its attach ends by itself.
            if link.attached and link.link not in known:
                self._close_link(link)

    # -- asker side internals ----------------------------------------------------------
    async def _request(
        self, owner: str, message: dict[str, Any], link: int | None = None
    ) -> dict[str, Any]:
        """Send a request to `owner` and wait for its reply; _Unreachable if none comes."""
        request = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request] = (future, owner, link)
        message["r"] = request
        try:
            try:
                reached = await self._send(owner, message)
            except Exception as exc:
                raise _Unreachable(f"the bus failed: {exc}") from None
            if not reached:
                raise _Unreachable(f"nobody listens at {owner}")
            try:
                async with asyncio.timeout(self.timeout_s):
                    return await future
            except TimeoutError:
                self.timeouts += 1
                raise _Unreachable(f"{owner} did not answer in time") from None
        finally:
            self._pending.pop(request, None)

    def _send(self, to: str, message: dict[str, Any]) -> asyncio.Future[int]:
        message["f"] = self.me
        return self.bus.publish(inbox(to), codec.pack(message))

    def _close_link(
        self, link: RemoteAttachment, code: str = "room_moved", why: str = MOVED
    ) -> None:
        """End a link from this side: the client is told to reconnect."""
        if link.detached:
            return
        self.drop_link(link)
        self._fail_pending(lambda owner, asked_for: asked_for == link.link)
        _deliver(link, {"t": "closed", "code": code, "message": why})

    def _fail_pending(self, which: Callable[[str, int | None], bool] = lambda o, k: True) -> None:
        """Give up the pending requests `which(owner, link)` picks: no answer will come."""
        for future, owner, link in self._pending.values():
            if not future.done() and which(owner, link):
                future.set_exception(_Unreachable("gave up waiting"))
                future.exception()

    def _reset(self) -> None:
        """The bus lost our inbox's subscription: messages may be lost, so start over."""
        log.warning("relay: bus subscription lost; closing %d remote links", len(self._links))
        for link in list(self._links.values()):
            self._close_link(link)
        self._fail_pending()

    def _on_view(self, message: dict[str, Any]) -> None:
        link = self._links.get(message["l"])
        if link is None:
            # A link we gave up (a timed-out attach): make the owner drop it too.
            self._send(message["f"], {"k": "detach", "l": message["l"]})
            return
        link.received += 1
        if message["n"] != link.received:
            self._close_link(link)
            return
        view = message["m"]
        if view.get("t") == "closed":
            # The owner stopped the room; reconnecting finds where it runs now.
            link.detached = True
            self._links.pop(link.link, None)
            _deliver(link, {"t": "closed", "code": "room_moved", "message": MOVED})
            return
        seqs = view.get("seqs")
        if seqs:
            link.seqs.update(seqs)
        _deliver(link, view)

    def _on_hi(self, message: dict[str, Any]) -> None:
        """An owner's greeting: have it detach the links served for us that we gave up."""
        for link in message["l"]:
            if link not in self._links:
                self._send(message["f"], {"k": "detach", "l": link})

    def _on_reply(self, message: dict[str, Any]) -> None:
        pending = self._pending.get(message["r"])
        if pending is not None and not pending[0].done():
            pending[0].set_result(message)

    # -- owner side ------------------------------------------------------------------
    def forget(self, served: _Served) -> None:
        """Drop a served link from the table (it ended)."""
        if self._served.get((served.asker, served.link)) is served:
            del self._served[(served.asker, served.link)]

    def _reply(self, to: str, request: int, ok: Any = None, **extra: Any) -> None:
        self._send(to, {"k": "re", "r": request, "ok": ok, **extra})

    def _refuse(self, to: str, request: int, exc: RoomError, **extra: Any) -> None:
        self._send(to, {"k": "re", "r": request, "e": [exc.code, exc.message], **extra})

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_attach(self, message: dict[str, Any]) -> None:
        self._spawn(self._serve_attach(message))

    async def _serve_attach(self, message: dict[str, Any]) -> None:
        asker, request, code = message["f"], message["r"], message["c"]
        served = _Served(self, asker, message["l"])
        self._attaching[code] += 1
        try:
            if message.get("h") and self._hand_over is not None:
                handed = await self._hand_over(code, asker)
                if handed is not None:
                    if handed == "given":
                        self.given += 1
                    self._reply(asker, request, take=handed)
                    return
            room = await self._local_room(code)
            att: Attachment = await room.call("attach", list(message["t"]), served.forward)
        except Exception as exc:
            self._refuse(asker, request, _as_room_error(exc), n=served.sent)
            return
        finally:
            self._attaching[code] -= 1
            if not self._attaching[code]:
                del self._attaching[code]
        served.att = att
        if served.gone:  # the asker vanished, or the room stopped, while attaching
            att.detach()
            return
        self._served[(asker, served.link)] = served
        self._reply(
            asker, request, {"seats": list(att.seats), "seqs": att.last_seqs()}, n=served.sent
        )

    def _on_call(self, message: dict[str, Any]) -> None:
        self._spawn(self._serve_call(message))

    async def _serve_call(self, message: dict[str, Any]) -> None:
        asker, request, kind = message["f"], message["r"], message["i"]
        try:
            if kind not in ROOM_CALLS:
                raise RoomError("bad_request", f"{kind!r} cannot be relayed")
            room = await self._local_room(message["c"])
            self._reply(asker, request, await room.call(kind, *message["a"]))
        except Exception as exc:
            self._refuse(asker, request, _as_room_error(exc))

    def _on_link_call(self, message: dict[str, Any]) -> None:
        served = self._served.get((message["f"], message["l"]))
        if served is None or served.att is None:
            closed = RoomError("room_moved", MOVED)
            self._refuse(message["f"], message["r"], closed, n=-1)
            return
        if message["k"] == "move":
            seat, seq, action = message["a"]
            work = served.att.move(seat, seq, action)
        else:
            work = served.att.pause() if message["a"][0] else served.att.resume()
        self._spawn(self._serve_link_call(served, message["r"], work))

    async def _serve_link_call(
        self, served: _Served, request: int, work: Coroutine[Any, Any, Any]
    ) -> None:
        try:
            result = await work
        except RoomError as exc:
            self._refuse(served.asker, request, exc, n=served.sent)
            return
        self._reply(served.asker, request, result, n=served.sent)

    def _on_link_post(self, message: dict[str, Any]) -> None:
        served = self._served.get((message["f"], message["l"]))
        if served is None or served.att is None:
            return
        if message["k"] == "shown":
            version = message["a"]
            served.att.shown(version if isinstance(version, int) else None)
        else:
            served.att.visible(bool(message["a"]))

    def _on_detach(self, message: dict[str, Any]) -> None:
        served = self._served.get((message["f"], message["l"]))
        if served is not None:
            served.end()

    def _on_ping(self, message: dict[str, Any]) -> None:
        asker, held = message["f"], set(message["l"])
        for served in list(self._served.values()):
            if served.asker == asker and served.link not in held:
                served.end()  # the asker forgot it (a lost detach)
        known = [link for link in held if (asker, link) in self._served]
        self._reply(asker, message["r"], known)

    def _on_take(self, message: dict[str, Any]) -> None:
        """An owner handed a room over to this process (its housekeeping moved it)."""
        if self._take is not None:
            self.taken += 1
            self._take(message["c"])

    # -- the inbox ---------------------------------------------------------------------
    def _received(self, data: bytes) -> None:
        try:
            message = codec.unpack(data)
            self._handlers[message["k"]](message)
        except Exception:  # a malformed message must not stop the inbox
            log.exception("relay: could not handle a bus message")


def _as_room_error(exc: Exception) -> RoomError:
    """The refusal to send back for a failure while serving a request."""
    if isinstance(exc, RoomError):
        return exc
    log.exception("relay: serving a request failed")
    return RoomError("internal", f"internal error: {exc}")


def _deliver(link: RemoteAttachment, message: dict[str, Any]) -> None:
    """Call a link's listener; a failing listener is detached (as rooms do locally)."""
    try:
        link.listener(message)
    except Exception:
        log.exception("listener of room %s failed; detaching it", link.code)
        link.detach()
