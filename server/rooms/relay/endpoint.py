"""Reaching a room that another server process runs, over the bus (pub/sub).

A room is run by one process, the holder of its lease (DESIGN.md "Scaling past one
machine"). When a client reaches another process, that process (the asker) relays to
the holder (the owner) through the bus; each process listens on its own inbox channel.
Only what the room gives one attachment travels on its link, as for a local client.

Every process is both: `Relay` is its end of the bus, which the manager uses. It
listens on the inbox and hands each message to the side that handles its kind: the
asking side (asker.py: `RemoteAttachment`, requests, failures) or the owning side
(owner.py: serving links, handover). What both share is in wire.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from server.rooms.actor.room import Room
from server.rooms.relay.asker import REQUEST_TIMEOUT_S, Asker, RemoteAttachment
from server.rooms.relay.owner import Handed, Owner
from server.rooms.relay.wire import inbox
from server.store import codec
from server.store.bus import Bus

__all__ = ["REQUEST_TIMEOUT_S", "Handed", "RemoteAttachment", "Relay", "inbox"]

log = logging.getLogger(__name__)


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
        self.asker = Asker(self._send, timeout_s, take)
        self.owner = Owner(self._send, local_room, hand_over)
        self._handlers = self.asker.handlers | self.owner.handlers
        self._sweeping = False
        # What the manager calls, answered by the side it concerns.
        self.attach = self.asker.attach
        self.call = self.asker.call
        self.attaching = self.owner.attaching
        self.links_by_room = self.owner.links_by_room
        self.close_served = self.owner.close_served
        self.hand_to = self.owner.hand_to

    @property
    def timeout_s(self) -> float:
        """How long a request waits for the owner's reply."""
        return self.asker.timeout_s

    @timeout_s.setter
    def timeout_s(self, seconds: float) -> None:
        self.asker.timeout_s = seconds

    # -- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        """Listen on this process's inbox."""
        await self.bus.subscribe(inbox(self.me), self._received, self.asker.reset)

    async def aclose(self) -> None:
        """Close every link this process asked for, detach those it served, stop listening.

        Call it once the rooms here are stopped (their links were told "closed").
        """
        self.asker.close("server_shutdown", "the server is shutting down")
        await self.owner.aclose()
        await self.bus.unsubscribe(inbox(self.me))

    def stats(self) -> dict[str, int]:
        """Figures for /metrics: links relayed and served now, handovers, timeouts."""
        return {
            "relay_links_out": len(self.asker.links),
            "relay_links_in": len(self.owner.served),
            "handovers_given": self.owner.given,
            "handovers_taken": self.asker.taken,
            "relay_timeouts": self.asker.timeouts,
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
            greeted = self.owner.greet()
            await self.asker.ping_owners()
            await self.owner.end_unreached(greeted)
        finally:
            self._sweeping = False

    # -- the wire ----------------------------------------------------------------------
    def _send(self, to: str, message: dict[str, Any]) -> asyncio.Future[int]:
        message["f"] = self.me
        return self.bus.publish(inbox(to), codec.pack(message))

    def _received(self, data: bytes) -> None:
        try:
            message = codec.unpack(data)
            self._handlers[message["k"]](message)
        except Exception:  # a malformed message must not stop the inbox
            log.exception("relay: could not handle a bus message")
