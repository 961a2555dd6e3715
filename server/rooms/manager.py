"""The room manager: the one object the web layer drives.

It creates rooms, loads them from the store on demand (when this process can take the
room's lease), runs one `Room` actor per live room, renews leases, and unloads rooms
nobody is attached to. Every method raises `RoomError` (stable `code`) on refusal.

Given a `bus`, it also serves rooms that another process runs (the lease holder): attach,
take_seat and start_match go there through the relay (relay/), and the rooms run here
serve the other processes' clients. Without one, such a room is refused with
`room_elsewhere`. Rooms run here take the same path as without a bus.

A relayed room moves to where its clients are (a relayed move costs more CPU than a
local one). At attach, a process running a room that nothing there needs (no attachment,
none attaching) hands it to the asker, which loads it and attaches locally. In
housekeeping, a room that has been here a housekeeping period or more, with no local
attachment and every link from one other process, is handed to that process: its links
close with room_moved and their clients reconnect there. A room with nobody attached
stays where it is.

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

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Coroutine
from typing import Any

from server.bots.contract import Policy
from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import DIFFICULTIES, Game, IllegalAction
from server.rooms.actor import journal
from server.rooms.actor.attachment import Attachment, Listener
from server.rooms.actor.clock import Clock, TimerHandle
from server.rooms.actor.room import Room, RoomSettings, summary_of_blob
from server.rooms.errors import RoomError
from server.rooms.relay.endpoint import REQUEST_TIMEOUT_S, Handed, Relay, RemoteAttachment
from server.rooms.seats.names import ROOM_NAME_MAX, clean_name, clean_text
from server.rooms.seats.seat import Seat, hash_token, new_code, new_token, normalize_code
from server.rooms.seats.your_rooms import MAX_ENTRIES, seat_status
from server.store.bus import Bus
from server.store.store import RoomExists, Store, StoreError

__all__ = ["Attached", "Attachment", "Listener", "RemoteAttachment", "RoomManager"]

# What `attach` gives: a room run here, or one run by another process.
Attached = Attachment | RemoteAttachment

log = logging.getLogger(__name__)

LEASE_MS = 30_000
UNLOAD_AFTER_MS = 5 * 60_000
# Asks of the processes running a room per attach; the last one never takes the room over,
# so a room handed on again and again (a lost race each time) still gets its client.
ATTACH_ASKS = 3


class RoomManager:
    """Owns the live rooms of this process.

    `store` persists rooms, `clock` drives game time and timers (RealClock in production,
    VirtualClock in tests), `instance_id` names this process in room leases and on the
    `bus` (None: rooms run by another process are refused); relayed requests wait
    `relay_timeout_s` for an answer. `games` adds games beyond the registry and
    `policies` overrides the CPU policy per game id (tests); otherwise
    `registry.get(game_id)` and `policy_for(game_id)` are used.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        instance_id: str,
        lease_ms: int = LEASE_MS,
        unload_after_ms: int = UNLOAD_AFTER_MS,
        policies: dict[str, Policy] | None = None,
        games: dict[str, Game] | None = None,
        bus: Bus | None = None,
        relay_timeout_s: float = REQUEST_TIMEOUT_S,
    ) -> None:
        self.store = store
        self.clock = clock
        self.instance_id = instance_id
        self.lease_ms = lease_ms
        self.unload_after_ms = unload_after_ms
        self._policies = dict(policies or {})
        self._games = dict(games or {})
        self._rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        # Rooms being stopped here: loading them again waits until they are.
        self._leaving: dict[str, asyncio.Event] = {}
        self._attaching: Counter[str] = Counter()  # local attaches under way, by room
        self._arrived: dict[str, float] = {}  # when each live room started running here
        self._housekeeping: TimerHandle | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._closed = False
        self.relay = None
        if bus is not None:
            self.relay = Relay(
                bus,
                instance_id,
                self._room,
                relay_timeout_s,
                hand_over=self._hand_over,
                take=self._take,
            )
        # Counters of rooms already unloaded, so stats() totals never go down.
        self._retired = {"moves": 0.0, "saves": 0.0, "save_seconds": 0.0}

    # -- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        """Listen on the bus; start background work (leases, idle rooms, relay links)."""
        if self.relay is not None:
            await self.relay.start()
        self._schedule_housekeeping()

    async def aclose(self) -> None:
        """Finish queued inputs, stop every room and give up its lease."""
        self._closed = True
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        while self._background:
            await asyncio.gather(*self._background)
        for code in list(self._rooms):
            await self._unload(code, "server_shutdown")
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
    ) -> tuple[str, int, str]:
        """Create a room in the lobby; returns (code, host seat, host token).

        `seats` gives one entry per seat: "host" (exactly one: the creator's seat),
        "open" (for a friend to take) or "cpu". `difficulty` applies to every CPU.
        `public` lists the room while it has open seats. `cover_after_ms` (None: off)
        lets a CPU play for a human who has been away that long, until they return.
        `spectators` False refuses connections without a seat token (no_spectators).
        `seed` fixes the deal (tests); by default it is random.
        """
        game = self._game(game_id)
        try:
            resolved = game.resolve_options(options)
            game.check_options(resolved, len(seats), [i for i, k in enumerate(seats) if k == "cpu"])
        except IllegalAction as exc:
            raise RoomError("bad_option", exc.message) from None
        if not game.min_seats <= len(seats) <= game.max_seats:
            raise RoomError(
                "bad_seat", f"{game_id} takes {game.min_seats} to {game.max_seats} seats"
            )
        if seats.count("host") != 1 or not set(seats) <= {"host", "open", "cpu"}:
            raise RoomError("bad_seat", 'seats must be "host", "open" or "cpu", one "host"')
        if difficulty not in DIFFICULTIES:
            raise RoomError("bad_option", f"difficulty must be one of {list(DIFFICULTIES)}")
        token = new_token()
        host_name = clean_name(host_name)
        seat_list = []
        for kind in seats:
            if kind == "host":
                seat_list.append(Seat("human", host_name, hash_token(token), difficulty))
            else:
                seat_list.append(Seat(kind, "", "", difficulty))
        host = seats.index("host")
        settings = RoomSettings(
            game_id=game_id,
            options=resolved,
            seed=secrets.randbits(62) if seed is None else seed,
            # A fixed seed (tests) fixes every match; else the later ones are secret too.
            series_key=secrets.randbits(62) if seed is None else 0,
            host=host,
            public=bool(public),
            name=clean_text(name, ROOM_NAME_MAX),
            difficulty=difficulty,
            cover_after_ms=cover_after_ms,
            spectators=bool(spectators),
        )
        for _ in range(20):
            code = new_code()
            room = Room.create(code, settings, seat_list, self._room_deps(game_id))
            try:
                await self.store.create(code, room.blob())
            except RoomExists:
                continue
            await self.store.acquire_lease(code, self.instance_id, self.lease_ms)
            self._rooms[code] = room
            self._arrived[code] = self.clock.now()
            room.start()
            await room.publish_listing()
            return code, host, token
        raise RoomError("busy", "could not find a free room code")

    async def take_seat(self, code: str, seat: int | None, name: str = "") -> tuple[int, str]:
        """Take an open seat (`None`: the first open one); returns (seat, token)."""
        token = new_token()
        taken = await self._call(code, "take_seat", seat, clean_name(name), hash_token(token))
        return taken, token

    async def leave_seat(self, code: str, token: str) -> int:
        """Give up a seat: open again in the lobby, a CPU's during or after a match.

        Connections holding it are closed ("closed" with code seat_left). Returns the seat.
        """
        return int(await self._call(code, "leave", hash_token(token)))

    async def take_back_seat(self, code: str, token: str) -> int:
        """Play one's seat again at once, after a CPU covered it; returns the seat."""
        return int(await self._call(code, "take_back", hash_token(token)))

    async def rename_seat(self, code: str, token: str, name: str) -> int:
        """Change the display name at one's seat (cleaned); returns the seat."""
        return int(await self._call(code, "rename", hash_token(token), clean_name(name)))

    async def reissue_seat(self, code: str, host_token: str, seat: int) -> str:
        """The host gives a human seat a new token (returned); the old one stops working
        and connections holding it are closed ("closed" with code seat_reissued). Again
        within seconds (a double click), the same token (`seat_admin.reissue`)."""
        return await self._call(code, "reissue", hash_token(host_token), seat, new_token())

    async def hand_to_cpu(self, code: str, host_token: str, seat: int) -> None:
        """The host has a CPU play a human seat at once (until its human moves again)."""
        await self._call(code, "hand_to_cpu", hash_token(host_token), seat)

    async def start_match(self, code: str, token: str) -> None:
        """Start the match (host only): every still-open seat becomes a CPU."""
        await self._call(code, "start", hash_token(token))

    async def room_summary(self, code: str) -> dict[str, Any]:
        """Public facts about a room: game, name, status, seats (without tokens), host."""
        code = normalize_code(code)
        room = self._rooms.get(code)
        if room is not None:
            return room.summary()
        stored = await self.store.load(code)
        if stored is None:
            raise RoomError("room_not_found", f"no room {code}")
        return {"code": code, **summary_of_blob(stored.blob, stored.version)}

    async def your_rooms(self, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """For each (code, token) a browser holds: the room's state for that seat (see
        `your_rooms.seat_status`), in the order asked; at most `MAX_ENTRIES`."""
        if len(held) > MAX_ENTRIES:
            raise RoomError("bad_request", f"ask about at most {MAX_ENTRIES} seats at once")
        codes = [normalize_code(code) for code, _ in held]
        asked = list(dict.fromkeys(codes))
        stored = await asyncio.gather(*(self.store.load(code) for code in asked))
        rooms = {
            code: None if room is None else journal.latest(room, self._game_and_policy)
            for code, room in zip(asked, stored, strict=True)
        }
        return [
            seat_status(rooms[code], code, token, self._game)
            for code, (_, token) in zip(codes, held, strict=True)
        ]

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
        code = normalize_code(code)
        for ask in range(ATTACH_ASKS):
            where = await self._where(code)
            if isinstance(where, Room):
                self._attaching[code] += 1
                try:
                    attached: Attachment = await where.call("attach", hashes, listener, patches)
                finally:
                    self._attaching[code] -= 1
                    if not self._attaching[code]:
                        del self._attaching[code]
                return attached
            assert self.relay is not None
            linked = await self.relay.attach(where, code, hashes, listener, ask < ATTACH_ASKS - 1)
            if linked is not None:
                return linked
            # Handed over (or already stopping there): the room is free to load here.
        raise RoomError("room_elsewhere", f"room {code} keeps moving between servers; retry")

    # -- introspection -------------------------------------------------------------------
    def stats(self) -> dict[str, float]:
        """Counters for /metrics: live rooms, attachments, moves and saves done, save time.

        Also the relay's (zero without a bus): links relayed to other processes
        (relay_links_out) and served for them (relay_links_in), rooms handed over
        (handovers_given, handovers_taken), relay requests timed out (relay_timeouts).
        """
        rooms = list(self._rooms.values())
        relay = self.relay.stats() if self.relay is not None else {}
        return {
            "rooms_live": len(rooms),
            "attachments": sum(len(r.attachments) for r in rooms),
            "moves": sum(r.moves for r in rooms) + self._retired["moves"],
            "saves": sum(r.saves for r in rooms) + self._retired["saves"],
            "save_seconds": sum(r.save_seconds for r in rooms) + self._retired["save_seconds"],
            "relay_links_out": relay.get("relay_links_out", 0),
            "relay_links_in": relay.get("relay_links_in", 0),
            "handovers_given": relay.get("handovers_given", 0),
            "handovers_taken": relay.get("handovers_taken", 0),
            "relay_timeouts": relay.get("relay_timeouts", 0),
        }

    def inspect(self, code: str) -> dict[str, Any] | None:
        """The live room's whole state as it would be saved now (tests, debugging)."""
        room = self._rooms.get(normalize_code(code))
        return None if room is None else room.core.dump(self.clock.now())

    def live_codes(self) -> list[str]:
        """Codes of the rooms this process runs now."""
        return sorted(self._rooms)

    async def settled(self) -> None:
        """Wait until housekeeping and every live room's queued inputs are done (tests)."""
        while self._background:
            await asyncio.gather(*self._background)
        for room in list(self._rooms.values()):
            await room.settled()

    async def unload(self, code: str) -> None:
        """Stop running a room here (it stays in the store); tests use it to simulate a crash."""
        await self._unload(normalize_code(code), "unloaded")

    def game_of(self, game_id: str) -> Game:
        """The engine of a game id (one given to this manager, else the registry's)."""
        return self._game(game_id)

    # -- internals -------------------------------------------------------------------------
    def _game(self, game_id: str) -> Game:
        game = self._games.get(game_id)
        if game is not None:
            return game
        try:
            return registry.get(game_id)
        except KeyError:
            raise RoomError("bad_game", f"no game called {game_id!r}") from None

    def _game_and_policy(self, game_id: str) -> tuple[Game, Policy]:
        return self._game(game_id), self._policies.get(game_id) or policy_for(game_id)

    def _room_deps(self, game_id: str) -> dict[str, Any]:
        return {
            "game": self._game(game_id),
            "store": self.store,
            "clock": self.clock,
            "policy": self._policies.get(game_id) or policy_for(game_id),
            "on_lost": self._on_lost,
            "wall": time.time,
        }

    async def _call(self, code: str, kind: str, *args: Any) -> Any:
        """Have the room handle one input, here or at the process that runs it."""
        where = await self._where(code)
        if isinstance(where, Room):
            return await where.call(kind, *args)
        assert self.relay is not None
        return await self.relay.call(where, normalize_code(code), kind, list(args))

    async def _where(self, code: str) -> Room | str:
        """The room live here (loaded if we may take its lease), else who runs it.

        Another process's id comes back only with a bus to reach it; the lease may
        lapse while we look, so taking it is tried again a few times.
        """
        for _ in range(3):
            try:
                return await self._room(code)
            except RoomError as exc:
                if exc.code != "room_elsewhere" or self.relay is None:
                    raise
            holder = await self.store.lease_holder(normalize_code(code))
            if holder is not None and holder != self.instance_id:
                return holder
        raise RoomError("room_elsewhere", f"room {normalize_code(code)} is run by another server")

    async def _room(self, code: str) -> Room:
        """The live room, loading it from the store if needed (never another process's)."""
        if self._closed:
            raise RoomError("server_shutdown", "the server is shutting down")
        code = normalize_code(code)
        while True:
            room = self._rooms.get(code)
            if room is not None:
                return room
            loading = self._loading.get(code)
            if loading is not None:
                return await asyncio.shield(loading)
            leaving = self._leaving.get(code)
            if leaving is None:
                break
            await leaving.wait()  # its last save first; then see who runs it
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            room = await self._load(code)
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # marked retrieved: waiters re-raise it themselves
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str) -> Room:
        if not await self.store.acquire_lease(code, self.instance_id, self.lease_ms):
            raise RoomError("room_elsewhere", f"room {code} is run by another server")
        stored = await self.store.load(code)
        if stored is None:
            await self.store.release_lease(code, self.instance_id)
            raise RoomError("room_not_found", f"no room {code}")
        room = Room.from_stored(stored, self._room_deps_for(stored.blob))
        room.chat.extend(await self.store.chat(code))
        # The first room of a game loads its modules (a second or so on a busy machine):
        # take the lease afresh, so it cannot lapse before housekeeping first renews it.
        if not await self.store.acquire_lease(code, self.instance_id, self.lease_ms):
            raise RoomError("room_elsewhere", f"room {code} is run by another server")
        self._rooms[code] = room
        self._arrived[code] = self.clock.now()
        room.start()
        return room

    def _room_deps_for(self, blob: bytes) -> dict[str, Any]:
        return self._room_deps(summary_of_blob(blob, 0)["game"])

    def _on_lost(self, room: Room) -> None:
        """A room found it was taken over (stale save): drop it without saving."""
        if self._rooms.get(room.code) is room:
            self._spawn(self._unload(room.code, "room_moved"))

    async def _unload(self, code: str, reason: str, release: bool | None = None) -> None:
        """Stop running a room here; give up its lease unless it was taken (`release`)."""
        room = self._rooms.pop(code, None)
        if room is None:
            return
        del self._arrived[code]
        self._leaving[code] = leaving = asyncio.Event()
        try:
            await room.stop(reason)
            for key in self._retired:
                self._retired[key] += getattr(room, key)
            if release is None:
                release = reason != "room_moved"
            if release:
                await self.store.release_lease(code, self.instance_id)
        finally:
            del self._leaving[code]
            leaving.set()

    # -- handover --------------------------------------------------------------------------
    async def _hand_over(self, code: str, asker: str) -> Handed:
        """Stop running `code` here for `asker` to run it, if nothing here needs it.

        The relay calls it when `asker` asks to attach: "given" if the room had no
        attachment and no other attach under way (so it stopped, every change saved, and
        its lease is free), "gone" if it was stopping anyway, None to serve a link.
        """
        leaving = self._leaving.get(code)
        if leaving is not None:
            await leaving.wait()
            return "gone"
        room = self._rooms.get(code)
        assert self.relay is not None
        if (
            room is None
            or room.attachments
            or self._attaching[code]
            or self.relay.attaching(code) > 1
        ):
            return None
        # No await between the checks and the stop: no attach can slip in before it.
        await self._unload(code, "room_moved", release=True)
        return "given"

    def _take(self, code: str) -> None:
        """A room was handed to this process: load it now, for its clients reconnecting."""
        if not self._closed:
            self._spawn(self._take_room(code))

    async def _take_room(self, code: str) -> None:
        # Someone else may run it by now (or it ended): its clients find it there.
        with contextlib.suppress(RoomError):
            await self._room(code)

    async def _hand_over_linked(self, now: float) -> None:
        """Hand each room whose every attachment is a link from one process to it."""
        assert self.relay is not None
        period = self.lease_ms / 3
        for code, (askers, links) in self.relay.links_by_room().items():
            room = self._rooms.get(code)
            if (
                room is None
                or len(askers) != 1
                or links != len(room.attachments)  # some attachment is local (or leaving)
                or now - self._arrived[code] < period  # just arrived: no ping-pong
                or self._attaching[code]
                or self.relay.attaching(code)
            ):
                continue
            # Detaching the links first banks the game time in a last save.
            self.relay.close_served(code)
            await self._unload(code, "room_moved", release=True)
            self.relay.hand_to(askers.pop(), code)

    def _schedule_housekeeping(self) -> None:
        if self._closed:
            return
        self._housekeeping = self.clock.call_at(self.clock.now() + self.lease_ms / 3, self._wake)

    def _wake(self) -> None:
        self._spawn(self._housekeep())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run background work, kept until done so `settled`/`aclose` can wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    async def _housekeep(self) -> None:
        """Renew leases, drop lost and idle rooms, hand relayed ones over, check links."""
        try:
            codes = self.live_codes()
            if codes:
                lost = await self.store.renew_leases(codes, self.instance_id, self.lease_ms)
                for code in lost:
                    await self._unload(code, "room_moved")
            now = self.clock.now()
            for code, room in list(self._rooms.items()):
                if room.idle_since is not None and now - room.idle_since >= self.unload_after_ms:
                    await self._unload(code, "idle")
            if self.relay is not None:
                await self._hand_over_linked(now)
                # Apart, so an owner slow to answer never delays the lease renewals.
                self._spawn(self.relay.sweep())
        except StoreError as exc:  # an outage: the next round tries again
            log.warning("housekeeping: the store failed (%s)", exc)
        finally:
            self._schedule_housekeeping()


def _log_failure(task: asyncio.Task[None]) -> None:
    """Log a background task's failure (a store outage, mostly) instead of losing it."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.warning("background work failed: %r", exc)
