"""Where a room's inputs go: to the room run here (loaded on demand when this process may
take its lease), or, through the relay, to the process that runs it.

Without a relay a room another process runs is refused with `room_elsewhere`. An attach
may find the room handed over to this process instead of served from there (the other
process had no use for it, live.py's `hand_over`): then it is loaded and attached here.
"""

from __future__ import annotations

from typing import Any

from server.rooms.actor.room import Room
from server.rooms.actor.state import Attachment, Listener
from server.rooms.errors import RoomError
from server.rooms.live import LiveRooms
from server.rooms.relay.endpoint import Relay, RemoteAttachment
from server.rooms.seats.seat import normalize_code
from server.store.store import Store

# What an attach gives: a room run here, or one run by another process.
Attached = Attachment | RemoteAttachment

# Asks of the processes running a room per attach; the last one never takes the room over,
# so a room handed on again and again (a lost race each time) still gets its client.
ATTACH_ASKS = 3


class Routes:
    """Sends inputs and attaches to wherever each room runs."""

    def __init__(
        self, live: LiveRooms, store: Store, instance_id: str, relay: Relay | None
    ) -> None:
        self.live = live
        self.store = store
        self.instance_id = instance_id
        self.relay = relay

    async def call(self, code: str, kind: str, *args: Any) -> Any:
        """Have the room handle one input, here or at the process that runs it."""
        where = await self.where(code)
        if isinstance(where, Room):
            return await where.call(kind, *args)
        assert self.relay is not None
        return await self.relay.call(where, normalize_code(code), kind, list(args))

    async def attach(
        self, code: str, hashes: list[str], listener: Listener, patches: bool
    ) -> Attached:
        """Attach `listener` holding the seats of token digests `hashes`, here or through
        the relay (see `RoomManager.attach`)."""
        code = normalize_code(code)
        for ask in range(ATTACH_ASKS):
            where = await self.where(code)
            if isinstance(where, Room):
                attaching = self.live.attaching
                attaching[code] += 1
                try:
                    attached: Attachment = await where.call("attach", hashes, listener, patches)
                finally:
                    attaching[code] -= 1
                    if not attaching[code]:
                        del attaching[code]
                return attached
            assert self.relay is not None
            linked = await self.relay.attach(where, code, hashes, listener, ask < ATTACH_ASKS - 1)
            if linked is not None:
                return linked
            # Handed over (or already stopping there): the room is free to load here.
        raise RoomError("room_elsewhere", f"room {code} keeps moving between servers; retry")

    async def where(self, code: str) -> Room | str:
        """The room live here (loaded if we may take its lease), else who runs it.

        Another process's id comes back only with a relay to reach it; the lease may
        lapse while we look, so taking it is tried again a few times.
        """
        for _ in range(3):
            try:
                return await self.live.room(code)
            except RoomError as exc:
                if exc.code != "room_elsewhere" or self.relay is None:
                    raise
            holder = await self.store.lease_holder(normalize_code(code))
            if holder is not None and holder != self.instance_id:
                return holder
        raise RoomError("room_elsewhere", f"room {normalize_code(code)} is run by another server")
