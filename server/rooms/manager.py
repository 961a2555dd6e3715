"""The room manager: the one object the web layer drives.

It creates rooms, has the live rooms (live.py) load them from the store on demand, and
hands each input to the room's `Room` actor, here or at the process that runs it.
Every method raises `RoomError` (stable `code`) on refusal.

Given a `bus`, it also serves rooms that another process runs (the lease holder): attach,
take_seat and start_match go there through the relay (relay/), and the rooms run here
serve the other processes' clients. Without one, such a room is refused with
`room_elsewhere`. Rooms run here take the same path as without a bus. Where each input
goes is routing.py's; which rooms run here, their leases and their handover between
processes are live.py's; a new room's settings are checked by lobby.py.

Typical use by the web layer::

    manager = RoomManager(store, RealClock(), instance_id="web-1")
    await manager.start()
    code, seat, token = await manager.create_room("usunoro", {}, ["host", "cpu", "cpu", "cpu"])
    att = await manager.attach(code, [token], listener)   # listener(message) gets views
    await manager.start_match(code, token)
    result = await att.move(seat, 1, {"type": "grab"})     # after the save
    att.detach()
    await manager.aclose()
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from server.bots.contract import Policy
from server.bots.registry import policies, policy_for
from server.games import registry
from server.games.contract import Game
from server.logs import room_event
from server.rooms.actor import dumps, journal
from server.rooms.actor.clock import Clock
from server.rooms.actor.nudges import Notifier
from server.rooms.actor.room import Room, summary_of_blob
from server.rooms.actor.state import Attachment, Listener
from server.rooms.due import SWEEP_MS, DueSweep
from server.rooms.errors import RoomError
from server.rooms.live import DAYS_UNLOAD_AFTER_MS, LEASE_MS, UNLOAD_AFTER_MS, LiveRooms
from server.rooms.load_failures import UNAVAILABLE
from server.rooms.lobby import new_room
from server.rooms.relay.endpoint import REQUEST_TIMEOUT_S, Relay, RemoteAttachment
from server.rooms.routing import Attached, Routes
from server.rooms.seats.names import clean_name
from server.rooms.seats.seat import hash_token, new_code, new_token, normalize_code
from server.rooms.seats.your_rooms import MAX_ENTRIES, your_rooms
from server.store.bus import Bus
from server.store.store import RoomExists, Store

log = logging.getLogger(__name__)

__all__ = ["LEASE_MS", "Attached", "Attachment", "Listener", "RemoteAttachment", "RoomManager"]

# The relay's counters in `RoomManager.stats`.
RELAY_STATS = (
    "relay_links_out",
    "relay_links_in",
    "handovers_given",
    "handovers_taken",
    "relay_timeouts",
)


class RoomManager:
    """Owns the live rooms of this process.

    `store` persists rooms, `clock` drives game time and timers (RealClock in production,
    VirtualClock in tests), `instance_id` names this process in room leases and on the
    `bus` (None: rooms run by another process are refused); relayed requests wait
    `relay_timeout_s` for an answer. `games` adds games beyond the registry and
    `policies` overrides the CPU policy per game id (tests); otherwise
    `registry.get(game_id)` and `policy_for(game_id)` are used. `notifier` is told when a
    seat holder who is away has a move to make (actor/nudges.py; Web Push).
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        instance_id: str,
        lease_ms: int = LEASE_MS,
        unload_after_ms: int = UNLOAD_AFTER_MS,
        days_unload_after_ms: float = DAYS_UNLOAD_AFTER_MS,
        policies: dict[str, Policy] | None = None,
        games: dict[str, Game] | None = None,
        bus: Bus | None = None,
        relay_timeout_s: float = REQUEST_TIMEOUT_S,
        notifier: Notifier | None = None,
        wall: Callable[[], float] = time.time,
        due_sweep_ms: float = SWEEP_MS,
    ) -> None:
        self.store = store
        self.notifier = notifier
        # Unix time in seconds (days clocks and dates; tests give a virtual one).
        self.wall = wall
        self.clock = clock
        self.instance_id = instance_id
        self._policies = dict(policies or {})
        self._games = dict(games or {})
        idle_ms = (unload_after_ms, days_unload_after_ms)  # idle time to unload: any room, days
        self.live = LiveRooms(store, clock, instance_id, self.room_deps, lease_ms, *idle_ms)
        # Days rooms no process runs, loaded on time (every `due_sweep_ms` on average).
        self.due = DueSweep(self.live, wall, due_sweep_ms)
        self.relay = None
        if bus is not None:
            self.relay = self.live.relay = Relay(
                bus,
                instance_id,
                self.live.room,
                relay_timeout_s,
                hand_over=self.live.hand_over,
                take=self.live.take,
            )
        self.routes = Routes(self.live, store, instance_id, self.relay)
        # Told (code, match number) when a match run here ends (the web layer queues
        # its review); it must return at once and never raise.
        self.on_match_over: Callable[[str, int], None] | None = None

    # -- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        """Listen on the bus; start background work (leases, idle rooms, relay links,
        due rooms). Every game's CPU policy is loaded first: the first rooms handed to a
        process just started (a rolling restart) do not wait for its modules."""
        policies()
        if self.relay is not None:
            await self.relay.start()
        self.live.start()
        self.due.start()

    async def drain(self) -> int:
        """Before stopping: create and load no more rooms, and stop every room run here
        (saved, lease given up, clients told to reconnect), so other processes on the
        same store serve them at once. Returns how many rooms it stopped."""
        return await self.live.drain()

    async def aclose(self) -> None:
        """Finish queued inputs, stop every room and give up its lease."""
        self.due.stop()
        await self.live.aclose()
        if self.relay is not None:
            await self.relay.aclose()

    # -- rooms -------------------------------------------------------------------------
    async def create_room(
        self,
        game_id: str,
        options: dict[str, Any] | None,
        seats: list[str],
        difficulty: str = "normal",
        public: bool = False,
        name: str = "",
        *,
        host_name: str = "",
        cover_after_ms: int | None = None,
        spectators: bool = True,
        seed: int | None = None,
        clock: dict[str, Any] | None = None,
        hints: bool = True,
        cpu_pace: str = "relaxed",
    ) -> tuple[str, int, str]:
        """Create a room in the lobby; returns (code, host seat, host token).

        `seats` gives one entry per seat: "host" (exactly one: the creator's seat),
        "open" (for a friend to take) or "cpu". `difficulty` applies to every CPU.
        `public` lists the room while it has open seats. `cover_after_ms` (None: off)
        lets a CPU play for a human who has been away that long, until they return.
        `spectators` False refuses connections without a seat token (no_spectators).
        `seed` fixes the deal (tests); by default it is random. `clock` is the seat
        clocks' rules (`timebank.ClockRules.dump`; None: relaxed); a clock replaces the
        CPU cover of away players. `hints` lets seats ask for the Hard CPU's move and
        see helpers (the host may change it in the waiting room: `set_hints`).
        `cpu_pace` "quick" has CPUs move sooner (the host may change it: `set_cpu_pace`).
        """
        if self.live.closed:
            raise RoomError("server_shutdown", "this server is stopping; create the room again")
        token = new_token()
        settings, seat_list, host = new_room(
            game_id,
            self.game_of(game_id),
            options,
            seats,
            difficulty,
            token=token,
            public=public,
            name=name,
            host_name=host_name,
            cover_after_ms=cover_after_ms,
            spectators=spectators,
            seed=seed,
            clock=clock,
            hints=hints,
            cpu_pace=cpu_pace,
        )
        for _ in range(20):
            code = new_code()
            room = Room.create(code, settings, seat_list, self.room_deps(game_id))
            try:
                await self.store.create(code, room.blob())
            except RoomExists:
                continue
            await self.store.acquire_lease(code, self.instance_id, self.live.lease_ms)
            self.live.run(code, room)
            room_event(log, code, "created", "room %s created (%s)", code, game_id)
            await room.saver.publish_listing()
            return code, host, token
        raise RoomError("busy", "could not find a free room code")

    async def take_seat(self, code: str, seat: int | None, name: str = "") -> tuple[int, str]:
        """Take an open seat (`None`: the first open one); returns (seat, token)."""
        token = new_token()
        taken = await self.routes.call(code, "take_seat", seat, clean_name(name), hash_token(token))
        return taken, token

    async def leave_seat(self, code: str, token: str) -> int:
        """Give up a seat: open again in the lobby, a CPU's during or after a match.

        Connections holding it are closed ("closed" with code seat_left). Returns the seat.
        """
        return int(await self.routes.call(code, "leave", hash_token(token)))

    async def take_back_seat(self, code: str, token: str) -> int:
        """Play one's seat again at once, after a CPU covered it; returns the seat."""
        return int(await self.routes.call(code, "take_back", hash_token(token)))

    async def rename_seat(self, code: str, token: str, name: str) -> int:
        """Change the display name at one's seat (cleaned); returns the seat."""
        return int(await self.routes.call(code, "rename", hash_token(token), clean_name(name)))

    async def reissue_seat(self, code: str, host_token: str, seat: int) -> str:
        """The host gives a human seat a new token (returned); the old one stops working
        and connections holding it are closed ("closed" with code seat_reissued). Again
        within seconds (a double click), the same token (`seat_admin.reissue`)."""
        return await self.routes.call(code, "reissue", hash_token(host_token), seat, new_token())

    async def hand_to_cpu(self, code: str, host_token: str, seat: int) -> None:
        """The host has a CPU play a human seat at once (until its human moves again)."""
        await self.routes.call(code, "hand_to_cpu", hash_token(host_token), seat)

    async def set_hints(self, code: str, host_token: str, on: bool) -> None:
        """The host turns hints on or off (in the waiting room only)."""
        await self.routes.call(code, "set_hints", hash_token(host_token), bool(on))

    async def set_cpu_pace(self, code: str, host_token: str, pace: str) -> None:
        """The host sets the CPU pace, "relaxed" or "quick" (in the waiting room only)."""
        await self.routes.call(code, "set_cpu_pace", hash_token(host_token), pace)

    async def start_match(self, code: str, token: str) -> None:
        """Start the match (host only): every still-open seat becomes a CPU."""
        await self.routes.call(code, "start", hash_token(token))

    async def room_summary(self, code: str) -> dict[str, Any]:
        """Public facts about a room: game, name, status, seats (without tokens), host."""
        code = normalize_code(code)
        room = self.live.rooms.get(code)
        if room is not None:
            return room.summary()
        stored = await self.store.load(code)
        if stored is None:
            raise RoomError("room_not_found", f"no room {code}")
        try:
            return {"code": code, **summary_of_blob(stored.blob, stored.version)}
        except Exception as exc:  # a corrupt save: the load's backing off tells more
            raise RoomError("room_unavailable", UNAVAILABLE) from exc

    async def your_rooms(self, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """For each (code, token) a browser holds: the room's state for that seat (see
        `your_rooms.seat_status`; a room that cannot be read: `your_rooms.UNAVAILABLE`), in
        the order asked; at most `MAX_ENTRIES`."""
        if len(held) > MAX_ENTRIES:
            raise RoomError("bad_request", f"ask about at most {MAX_ENTRIES} seats at once")
        return await your_rooms(
            self.store,
            held,
            lambda room: journal.latest(room, self._game_and_policy),
            self.game_of,
            self.wall() * 1000.0,
        )

    async def public_rooms(self) -> list[dict[str, Any]]:
        """Summaries of the public rooms that are waiting for players."""
        return await self.store.public_rooms()

    async def attach(
        self, code: str, tokens: list[str], listener: Listener, patches: bool = False
    ) -> Attached:
        """Connect a listener to a room, holding the seats of `tokens`.

        No tokens: a spectator. Two tokens: same-device play (one combined view).
        `listener(message)` is called synchronously with the current view at once and
        then after every saved change: {"t": "view", "version", "room", "seats", "you",
        "view", "views" (two seats only), "legal", "seqs", "events", "outcome" (at the
        end), "ack" (only in the view a move of this attachment caused)}; see
        `view_messages.message_for` and `Attachment.move`. With `patches`, a listener
        of at most one seat may get "patch" (the changed fields) instead of "view"
        after its first message, while the room runs here (a link through the bus
        always gets whole views). When the room
        stops here it gets {"t": "closed", "code", "message"}. A room run by another
        process gives a `RemoteAttachment` that behaves alike (a link through the bus);
        when that link ends, "closed" comes with code room_moved. That process may hand
        the room over instead (nothing there needs it): then it runs here. Raises
        RoomError (room_not_found, bad_token, room_elsewhere: no process that runs it
        answers).
        """
        hashes = [hash_token(t) for t in tokens]
        return await self.routes.attach(code, hashes, listener, patches)

    # -- introspection -------------------------------------------------------------------
    def stats(self) -> dict[str, float]:
        """Counters for /metrics: live rooms, attachments, moves and saves done, save time;
        and the relay's (`RELAY_STATS`, zero without a bus): links relayed to other
        processes and served for them, rooms handed over each way, requests timed out."""
        relay = self.relay.stats() if self.relay is not None else {}
        return {**self.live.stats(), **{key: relay.get(key, 0) for key in RELAY_STATS}}

    def inspect(self, code: str) -> dict[str, Any] | None:
        """The live room's whole state as it would be saved now (tests, debugging)."""
        room = self.live.rooms.get(normalize_code(code))
        return None if room is None else dumps.dump(room.core, self.clock.now())

    def live_codes(self) -> list[str]:
        """Codes of the rooms this process runs now."""
        return sorted(self.live.rooms)

    async def settled(self) -> None:
        """Wait until housekeeping and every live room's queued inputs are done (tests)."""
        await self.live.settled()

    async def unload(self, code: str) -> None:
        """Stop running a room here (it stays in the store); tests use it to simulate a crash."""
        await self.live.unload(normalize_code(code), "unloaded")

    def game_of(self, game_id: str) -> Game:
        """The engine of a game id (one given to this manager, else the registry's)."""
        game = self._games.get(game_id)
        if game is not None:
            return game
        try:
            return registry.get(game_id)
        except KeyError:
            raise RoomError("bad_game", f"no game called {game_id!r}") from None

    # -- internals -------------------------------------------------------------------------
    def _game_and_policy(self, game_id: str) -> tuple[Game, Policy]:
        return self.game_of(game_id), self._policies.get(game_id) or policy_for(game_id)

    def room_deps(self, game_id: str) -> dict[str, Any]:
        """What a `Room` of `game_id` is made with: its game, CPU policy, store, clock."""
        return {
            "game": self.game_of(game_id),
            "store": self.store,
            "clock": self.clock,
            "policy": self._policies.get(game_id) or policy_for(game_id),
            "on_lost": self.live.on_lost,
            "wall": self.wall,
            "notifier": self.notifier,
            "match_over": self._match_over,
        }

    def _match_over(self, code: str, match: int) -> None:
        if self.on_match_over is not None:
            self.on_match_over(code, match)
