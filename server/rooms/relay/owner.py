"""The owning end of a relay: a process serving links to the rooms it runs.

For each link an asker attaches, the owner attaches a listener to the room that
forwards every message the room sends that attachment (its views, then "closed") to the
asker's inbox, tagged with the asker's link id and numbered. The owner detaches a link
once publishing to its asker reaches nobody, and when the asker's sweep no longer lists
it.

Handover. A relayed move costs both processes more CPU than a local one, so a room
follows its clients. An attach says whether the asker may take the room (its manager
bounds how often); the owner with nobody else there (no attachment, none attaching, no
other link) stops running it and answers "take it" instead of serving a link, and the
asker loads it itself. Later, the owner's housekeeping may find every attachment of a
room is a link from one asker: it closes those links (room_moved, so their clients
reconnect, to the asker as before), stops the room and tells the asker to "take" it.
Which rooms move, and when, is the manager's call (`hand_over`, `hand_to`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Literal

from server.rooms.actor.room import Room
from server.rooms.actor.state import Attachment
from server.rooms.errors import RoomError
from server.rooms.relay.wire import MOVED, Send
from server.store.store import StoreError

# What an asker may have an owner's room do for it outside a link.
ROOM_CALLS = frozenset(
    {
        "take_seat",
        "start",
        "leave",
        "take_back",
        "rename",
        "reissue",
        "hand_to_cpu",
        "set_hints",
        "set_cpu_pace",
    }
)
# What the owner did with a room an asker may take: stopped it for that asker now
# ("given"), found it already stopping ("gone"), or kept it (None: serve a link).
Handed = Literal["given", "gone"] | None
log = logging.getLogger(__name__)


class _Served:
    """The owner's side of one link: the local attachment and what it forwarded."""

    __slots__ = ("owner", "asker", "link", "att", "sent", "gone")

    def __init__(self, owner: Owner, asker: str, link: int) -> None:
        self.owner = owner
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
        data = {"k": "view", "l": self.link, "n": self.sent, "m": message}
        self.owner.send(self.asker, data).add_done_callback(self._check)
        if message.get("t") == "closed":
            self.gone = True
            self.owner.forget(self)

    def _check(self, sent: asyncio.Future[int]) -> None:
        if sent.exception() is not None or sent.result() == 0:
            self.end()

    def end(self) -> None:
        """Nobody is listening at the asker any more: detach from the room."""
        self.gone = True
        self.owner.forget(self)
        if self.att is not None:
            self.att.detach()


class Owner:
    """This process's owning end: the links it serves to the rooms running here.

    `local_room(code)` gives the room running here, loading it if this process may take
    its lease, and raises RoomError (room_elsewhere, room_not_found, ...) otherwise.
    `hand_over(code, asker)` stops running the room here if nothing here needs it
    (`Handed`); without it, an attach never hands a room over.
    """

    def __init__(
        self,
        send: Send,
        local_room: Callable[[str], Awaitable[Room]],
        hand_over: Callable[[str, str], Awaitable[Handed]] | None = None,
    ) -> None:
        self.send = send
        self._local_room = local_room
        self._hand_over = hand_over
        self.given = 0  # rooms handed to other processes
        self.served: dict[tuple[str, int], _Served] = {}
        self._attaching: Counter[str] = Counter()  # attaches being served, by room
        self._tasks: set[asyncio.Task[None]] = set()
        # The bus messages this end handles, by kind.
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "attach": self._on_attach,
            "call": self._on_call,
            "move": self._on_link_call,
            "pause": self._on_link_call,
            "vacation": self._on_link_call,
            "hint": self._on_link_call,
            "talk": self._on_link_call,
            "review": self._on_link_call,
            "shown": self._on_link_post,
            "visible": self._on_link_post,
            "detach": self._on_detach,
            "ping": self._on_ping,
        }

    # -- handover: what the manager's housekeeping calls --------------------------------
    def attaching(self, code: str) -> int:
        """How many attaches to the room run here are being served for other processes."""
        return self._attaching[code]

    def links_by_room(self) -> dict[str, tuple[set[str], int]]:
        """For each room run here: the processes it serves links for, and how many links."""
        rooms: dict[str, tuple[set[str], int]] = {}
        for served in self.served.values():
            if served.att is not None:
                askers, n = rooms.get(served.att.code, (set(), 0))
                askers.add(served.asker)
                rooms[served.att.code] = (askers, n + 1)
        return rooms

    def close_served(self, code: str) -> None:
        """Close the links served for room `code` (room_moved: their clients reconnect)."""
        closed = {"t": "closed", "code": "room_moved", "message": MOVED}
        for served in list(self.served.values()):
            if served.att is not None and served.att.code == code:
                served.forward(closed)
                served.att.detach()

    def hand_to(self, asker: str, code: str) -> None:
        """Tell `asker` that the room `code`, stopped here, is its own to load."""
        self.given += 1
        self.send(asker, {"k": "take", "c": code})

    # -- life cycle and health -----------------------------------------------------------
    async def aclose(self) -> None:
        """Detach every link served, and stop serving the requests under way."""
        for served in list(self.served.values()):
            served.end()
        # Requests still being served have nobody left to answer (the rooms stopped).
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def greet(self) -> dict[str, asyncio.Future[int]]:
        """Greet each asker with the links served for it; by asker, whether it listened.

        The asker has those it gave up detached; `end_unreached` ends the rest.
        """
        askers: dict[str, list[int]] = {}
        for served in self.served.values():
            askers.setdefault(served.asker, []).append(served.link)
        return {asker: self.send(asker, {"k": "hi", "l": links}) for asker, links in askers.items()}

    async def end_unreached(self, greeted: dict[str, asyncio.Future[int]]) -> None:
        """Detach the links served for every asker `greet` found nobody listening for."""
        for asker, sent in greeted.items():
            try:
                reached = await sent
            except Exception:
                reached = 0
            if not reached:
                for served in list(self.served.values()):
                    if served.asker == asker:
                        served.end()

    def forget(self, served: _Served) -> None:
        """Drop a served link from the table (it ended)."""
        if self.served.get((served.asker, served.link)) is served:
            del self.served[(served.asker, served.link)]

    # -- serving requests ----------------------------------------------------------------
    def _reply(self, to: str, request: int, ok: Any = None, **extra: Any) -> None:
        self.send(to, {"k": "re", "r": request, "ok": ok, **extra})

    def _refuse(self, to: str, request: int, exc: RoomError, **extra: Any) -> None:
        self.send(to, {"k": "re", "r": request, "e": [exc.code, exc.message], **extra})

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
        self.served[(asker, served.link)] = served
        attached = {"seats": list(att.seats), "seqs": att.last_seqs(), "chat": att.take_history()}
        self._reply(asker, request, attached, n=served.sent)

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
        served = self.served.get((message["f"], message["l"]))
        if served is None or served.att is None:
            closed = RoomError("room_moved", MOVED)
            self._refuse(message["f"], message["r"], closed, n=-1)
            return
        work: Awaitable[Any]
        if message["k"] == "move":
            seat, seq, action = message["a"]
            work = served.att.move(seat, seq, action)
        elif message["k"] == "talk":
            work = served.att.talk(message["a"][0])
        elif message["k"] == "review":
            work = served.att.review(message["a"][0])
        elif message["k"] == "vacation":
            work = served.att.vacation(message["a"][0], message["a"][1])
        elif message["k"] == "hint":
            work = served.att.hint(message["a"][0])
        else:
            work = served.att.pause() if message["a"][0] else served.att.resume()
        self._spawn(self._serve_link_call(served, message["r"], work))

    async def _serve_link_call(self, served: _Served, request: int, work: Awaitable[Any]) -> None:
        try:
            result = await work
        except RoomError as exc:
            self._refuse(served.asker, request, exc, n=served.sent)
            return
        self._reply(served.asker, request, result, n=served.sent)

    def _on_link_post(self, message: dict[str, Any]) -> None:
        served = self.served.get((message["f"], message["l"]))
        if served is None or served.att is None:
            return
        if message["k"] == "shown":
            version = message["a"]
            served.att.shown(version if isinstance(version, int) else None)
        else:
            served.att.visible(bool(message["a"]))

    def _on_detach(self, message: dict[str, Any]) -> None:
        served = self.served.get((message["f"], message["l"]))
        if served is not None:
            served.end()

    def _on_ping(self, message: dict[str, Any]) -> None:
        asker, held = message["f"], set(message["l"])
        for served in list(self.served.values()):
            if served.asker == asker and served.link not in held:
                served.end()  # the asker forgot it (a lost detach)
        known = [link for link in held if (asker, link) in self.served]
        self._reply(asker, message["r"], known)


def _as_room_error(exc: Exception) -> RoomError:
    """The refusal to send back for a failure while serving a request."""
    if isinstance(exc, RoomError):
        return exc
    if isinstance(exc, StoreError):
        log.warning("relay: the store failed: %s", exc)
        return RoomError("store_error", "the room store cannot be reached; try again")
    log.exception("relay: serving a request failed")
    return RoomError("internal", "internal error")
