"""The asking end of a relay: a process relaying its clients to a room run elsewhere.

- attach: the asker chooses a link id and asks the owner to attach; the owner forwards
  every message the room sends that attachment, tagged with the link id and numbered,
  and the asker hands them to the client's listener in order. The asker's
  `RemoteAttachment` behaves as a local `Attachment`: a move returns after the view
  carrying its ack has reached the listener (the owner publishes that view before the
  reply, over one ordered bus), and the owner's RoomErrors come back as RoomErrors.
- take_seat, start and the seat calls (leave, take_back, rename, reissue, hand_to_cpu):
  one request and its reply. The asker makes any new seat token and sends only digests,
  so no token crosses the bus.

Failures. A request unanswered within `timeout_s`, or published to an inbox nobody
listens on (the owner died), fails: attach, take_seat and start with `room_elsewhere`,
a link's move or pause by closing the link. A closed link gets {"t": "closed", "code":
"room_moved"} so the client reconnects; by then another process may run the room (but
one closed because its seat was left or re-issued keeps that code: the token is dead). Links
close when the owner stops the room, when a message is missing (each reply and message
carries the owner's count, so a gap shows), when the bus subscription broke, and when
`sweep` (the manager's housekeeping) finds the owner gone or no longer knowing the
link.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from typing import Any

from server.games.contract import Action
from server.rooms.actor.state import Listener
from server.rooms.errors import RoomError
from server.rooms.relay.wire import MOVED, Send

REQUEST_TIMEOUT_S = 5.0
# "closed" codes passed on as they are: the seat was left or its token re-issued.
SEAT_CLOSED = frozenset({"seat_left", "seat_reissued"})
log = logging.getLogger(__name__)


class _Unreachable(Exception):
    """A request the owner did not answer: nobody listens there, a timeout, a lost bus."""


class RemoteAttachment:
    """A client's link to a room run by another process; used as an `Attachment` is."""

    def __init__(self, asker: Asker, owner: str, code: str, link: int, listener: Listener) -> None:
        self.asker = asker
        self.owner = owner
        self.code = code
        self.link = link
        self.listener = listener
        self.seats: tuple[int, ...] = ()
        self.detached = False
        self.attached = False  # the owner's answer came (until then a sweep spares it)
        self.received = 0  # messages of this link delivered so far
        self.seqs: dict[int, int] = {}
        self.history: list[dict[str, Any]] = []  # the chat as of the attach

    async def move(self, seat: int, seq: int, action: Action) -> dict[str, Any]:
        """As `Attachment.move`: returns after the view carrying the ack was delivered."""
        result: dict[str, Any] = await self.asker.link_call(self, "move", [seat, seq, action])
        if seat in self.seats:
            self.seqs[seat] = max(self.seqs.get(seat, 0), result["seq"])
        return result

    def last_seqs(self) -> dict[int, int]:
        """Each held seat's last accepted move number, as of the latest view."""
        return {seat: seq for seat, seq in self.seqs.items() if seat in self.seats}

    def shown(self, version: int | None = None) -> None:
        """The client has displayed the view of `version` (default: the latest sent)."""
        self.asker.link_post(self, "shown", version)

    def visible(self, visible: bool) -> None:
        """The client's board became visible or hidden."""
        self.asker.link_post(self, "visible", bool(visible))

    async def talk(self, frame: dict[str, Any]) -> None:
        """A table-talk frame, as `Attachment.talk`."""
        await self.asker.link_call(self, "talk", [frame])

    async def review(self, frame: dict[str, Any]) -> None:
        """A review-together frame, as `Attachment.review`."""
        await self.asker.link_call(self, "review", [frame])

    def take_history(self) -> list[dict[str, Any]]:
        """The chat said before the attach, once (as `Attachment.take_history`)."""
        history, self.history = self.history, []
        return history

    async def pause(self) -> None:
        """Pause the game clock (same rules as a local attachment)."""
        await self.asker.link_call(self, "pause", [True])

    async def resume(self) -> None:
        """Resume the game clock."""
        await self.asker.link_call(self, "pause", [False])

    async def hint(self, seat: int) -> dict[str, Any]:
        """The Hard CPU's move for a held seat, as `Attachment.hint`."""
        result: dict[str, Any] = await self.asker.link_call(self, "hint", [seat])
        return result

    async def vacation(self, seat: int, on: bool) -> None:
        """Start or end a held seat's vacation."""
        await self.asker.link_call(self, "vacation", [seat, on])

    def detach(self) -> None:
        """Disconnect; the listener gets nothing more. Safe to call twice."""
        if not self.detached:
            self.asker.drop_link(self)


class Asker:
    """This process's asking end: its links to rooms run elsewhere, and its requests.

    `take(code)` is told of a room another process handed to this one.
    """

    def __init__(
        self, send: Send, timeout_s: float, take: Callable[[str], None] | None = None
    ) -> None:
        self.send = send
        self.timeout_s = timeout_s
        self._take = take
        # Rooms handed to this process; requests that timed out.
        self.taken = self.timeouts = 0
        self._ids = itertools.count(1)
        # Requests awaiting their reply: the future, the owner asked, the link if any.
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], str, int | None]] = {}
        self.links: dict[int, RemoteAttachment] = {}
        # The bus messages this end handles, by kind.
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "view": self._on_view,
            "re": self._on_reply,
            "hi": self._on_hi,
            "take": self._on_take,
        }

    # -- what the manager calls --------------------------------------------------------
    async def attach(
        self, owner: str, code: str, token_hashes: list[str], listener: Listener, take: bool
    ) -> RemoteAttachment | None:
        """Attach to `code` at `owner`; raises the owner's RoomError, or room_elsewhere.

        With `take`, the owner may stop running the room instead: None, and the lease is
        free for this process to load the room itself.
        """
        link = RemoteAttachment(self, owner, code, next(self._ids), listener)
        self.links[link.link] = link
        ask = {"k": "attach", "c": code, "t": token_hashes, "l": link.link, "h": take}
        try:
            reply = await self._request(owner, ask, link.link)
        except _Unreachable:
            self.links.pop(link.link, None)
            raise RoomError(
                "room_elsewhere", f"the server running room {code} did not answer"
            ) from None
        except BaseException:
            self.drop_link(link)
            raise
        if "e" in reply:
            self.links.pop(link.link, None)
            raise RoomError(*reply["e"])
        if "take" in reply:
            self.links.pop(link.link, None)
            self.taken += reply["take"] == "given"
            return None
        if _lost(reply):
            self.drop_link(link)
            raise RoomError("room_elsewhere", f"messages of room {code} were lost; try again")
        link.seats = tuple(reply["ok"]["seats"])
        link.seqs = dict(reply["ok"]["seqs"])
        link.history = reply["ok"].get("chat", [])
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

    # -- what a RemoteAttachment calls ---------------------------------------------------
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
        if _lost(reply) and not link.detached:
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
            self.send(link.owner, {"k": kind, "l": link.link, "a": value})

    def drop_link(self, link: RemoteAttachment) -> None:
        """The client left: forget the link and tell the owner to detach."""
        link.detached = True
        if self.links.pop(link.link, None) is not None:
            self.send(link.owner, {"k": "detach", "l": link.link})

    # -- life cycle and health -----------------------------------------------------------
    def close(self, code: str = "room_moved", why: str = MOVED) -> None:
        """Close every link (the client is told `code`) and give up every request."""
        for link in list(self.links.values()):
            self._close_link(link, code, why)
        self._fail_pending()

    def reset(self) -> None:
        """The bus lost our inbox's subscription: messages may be lost, so start over."""
        log.warning("relay: bus subscription lost; closing %d remote links", len(self.links))
        self.close()

    async def ping_owners(self) -> None:
        """Ping each owner with the links held there (attaching ones included, so the
        owner keeps them); attached links it does not know, or all of them if it does
        not answer, are closed with room_moved."""
        owners: dict[str, list[RemoteAttachment]] = {}
        for link in self.links.values():
            owners.setdefault(link.owner, []).append(link)
        await asyncio.gather(*(self._ping(o, links) for o, links in owners.items()))

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

    # -- internals -----------------------------------------------------------------------
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
                reached = await self.send(owner, message)
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

    def _on_view(self, message: dict[str, Any]) -> None:
        link = self.links.get(message["l"])
        if link is None:
            # A link we gave up (a timed-out attach): make the owner drop it too.
            self.send(message["f"], {"k": "detach", "l": message["l"]})
            return
        link.received += 1
        if message["n"] != link.received:
            self._close_link(link)
            return
        view = message["m"]
        if view.get("t") == "closed":
            link.detached = True
            self.links.pop(link.link, None)
            if view.get("code") in SEAT_CLOSED:
                _deliver(link, view)  # the seat's token stopped working: say so, not "moved"
                return
            # The owner stopped the room; reconnecting finds where it runs now.
            _deliver(link, {"t": "closed", "code": "room_moved", "message": MOVED})
            return
        seqs = view.get("seqs")
        if seqs:
            link.seqs.update(seqs)
        _deliver(link, view)

    def _on_hi(self, message: dict[str, Any]) -> None:
        """An owner's greeting: have it detach the links served for us that we gave up."""
        for link in message["l"]:
            if link not in self.links:
                self.send(message["f"], {"k": "detach", "l": link})

    def _on_reply(self, message: dict[str, Any]) -> None:
        pending = self._pending.get(message["r"])
        if pending is not None and not pending[0].done():
            link = self.links.get(pending[2]) if pending[2] is not None else None
            if link is not None:
                # The count now, as the reply arrives: the owner sent its n messages
                # before it (one ordered bus). By the time the waiting coroutine runs,
                # later messages of the same read may have been counted too.
                message["got"] = link.received
            pending[0].set_result(message)

    def _on_take(self, message: dict[str, Any]) -> None:
        """An owner handed a room over to this process (its housekeeping moved it)."""
        if self._take is not None:
            self.taken += 1
            self._take(message["c"])


def _lost(reply: dict[str, Any]) -> bool:
    """True if a link's messages sent before `reply` did not all arrive before it."""
    return "n" in reply and reply.get("got", -1) != reply["n"]


def _deliver(link: RemoteAttachment, message: dict[str, Any]) -> None:
    """Call a link's listener; a failing listener is detached (as rooms do locally)."""
    try:
        link.listener(message)
    except Exception:
        log.exception("listener of room %s failed; detaching it", link.code)
        link.detach()
