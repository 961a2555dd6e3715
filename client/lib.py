"""The Python client for a Zashiki server: rooms over HTTP, play over the websocket.

    client = Client("http://127.0.0.1:8000")
    host = await client.create_room("usunoro")          # one human seat, CPUs fill the rest
    await client.start(host.code, host.token)
    async with await client.connect(host.code, [host.token]) as conn:
        async for view in conn.views():
            legal = view["legal"].get(host.seat, [])      # this seat's legal moves
            if legal:
                await conn.move(legal[0])

A `Connection` reconnects by itself when the socket drops and resends every move that was
not yet acknowledged with its original sequence number; the server answers a repeated
number again without applying the move twice. Frames are described in server/web/PROTOCOL.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, cast

import websockets
from websockets.asyncio.client import ClientConnection, connect

from server.store import codec

# About 40 s in all: long enough for a restarted server, or a lapsed room lease.
RECONNECT_DELAYS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.0, *(2.0,) * 18)
# The close code of a server that is restarting (RFC 6455 "Service Restart").
SERVICE_RESTART = 1012
# Refusals on reconnecting that mean "not now" rather than "never".
RETRYABLE = frozenset({"room_elsewhere", "room_moved", "server_shutdown", "store_error"})
# The server's default for create-room's `cover_after_s` (PROTOCOL.md "Rooms").
COVER_AFTER_S_DEFAULT = 60


class ZashikiError(Exception):
    """An error answered by the server: `code` is stable, `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class GameOption(TypedDict):
    """One option of a game: its name, default, allowed values and what it does."""

    name: str
    default: Any
    choices: list[Any]
    description: str
    per_seat: bool


class GameInfo(TypedDict):
    """A game the server hosts (GET /api/games)."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    options: list[GameOption]


class SeatSummary(TypedDict):
    """A seat in a room's summary: "human", "cpu" or "open", its name, CPU-covered."""

    kind: str
    name: str
    covered: bool


class RoomSummary(TypedDict):
    """A room's public summary (PROTOCOL.md; the OpenAPI document's RoomSummary)."""

    code: str
    game: str
    name: str
    public: bool
    host: int
    difficulty: str
    options: dict[str, Any]
    status: str  # "lobby", "playing" or "over"
    match: int
    version: int
    seats: list[SeatSummary]
    open_seats: int
    cover_after_ms: int | None
    spectators: bool
    hints: bool
    cpu_pace: str  # "relaxed" or "quick"


class YourRoom(TypedDict, total=False):
    """One held seat's room as POST /api/your-rooms answers it (PROTOCOL.md "Your
    rooms"): everything but `error`, or only `code` and `error` ("not_your_seat": the
    room is gone, or the seat was left or re-issued)."""

    code: str
    seat: int
    game: str
    name: str
    status: str
    match: int
    host: int
    your_turn: bool
    turn: int | None
    seats: list[SeatSummary]
    last_activity: float
    error: str


class ViewMessage(TypedDict, total=False):
    """A `view` frame: the room as this connection may see it (PROTOCOL.md, asyncapi.yaml;
    `view`, `legal` actions, `events` and `outcome` follow server/web/schemas/GAME.json).
    Seat-number keys of `legal` and `views` are ints. The connection asks for view
    patches and merges each into the view before, so `view` is always whole here."""

    t: str
    version: int
    room: dict[str, Any]
    seats: list[dict[str, Any]]
    you: list[int]
    view: dict[str, Any]
    views: dict[int, dict[str, Any]]
    legal: dict[int, list[dict[str, Any]]]
    events: list[dict[str, Any]]
    outcome: dict[str, Any]
    ack: dict[str, int]


@dataclass(frozen=True)
class Seat:
    """A seat held in a room: the room code, the seat number and its secret token."""

    code: str
    seat: int
    token: str


class Client:
    """The HTTP side: games, rooms and seats. Cheap to create; holds no connection."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000") -> None:
        self.base_url = base_url.rstrip("/")

    async def games(self) -> list[GameInfo]:
        """Every game the server hosts, with seat counts and options."""
        return cast(list[GameInfo], (await self._call("GET", "/api/games"))["games"])

    async def create_room(
        self,
        game: str,
        *,
        seats: list[str] | None = None,
        options: dict[str, Any] | None = None,
        difficulty: str = "normal",
        public: bool = False,
        name: str = "",
        host_name: str = "",
        cover_after_s: int | Literal["wait"] = COVER_AFTER_S_DEFAULT,
        spectators: bool = True,
        clock: Literal["relaxed", "live", "days"] = "relaxed",
        clock_preset: str | None = None,
        vacation_days: int | None = None,
        hints: bool = True,
        cpu_pace: Literal["relaxed", "quick"] = "relaxed",
    ) -> Seat:
        """Create a room and hold its host seat.

        `seats` lists each seat as "host", "open" (for a friend) or "cpu"; by default the
        host is seat 0 and every other seat is open. Open seats left when the match
        starts are played by CPUs of `difficulty`. `name` is the room's, `host_name` the
        host's display name (both cleaned by the server; `bad_name` if far too long).
        `cover_after_s` is how long (1 to 86,400 whole seconds) a human may be away
        before a CPU plays for them, or "wait" for the table to wait (`bad_option`
        otherwise). With `spectators` False, connections without a seat token are
        refused (`no_spectators`). `clock` gives every seat a clock ("live" or "days",
        with one of the game's `clock_preset`s from `games()` and, for days, the
        `vacation_days` each seat has per match); see PROTOCOL "Seat clocks". With
        `hints` False, seats may not ask for hints (`hints_off`) and see no helpers.
        `cpu_pace` "quick" has CPUs move sooner (PROTOCOL "CPU pace").
        """
        body: dict[str, Any] = {"game": game, "difficulty": difficulty, "public": public}
        if seats is not None:
            body["seats"] = seats
        if options is not None:
            body["options"] = options
        # Left at their defaults these are not sent, so the server's own defaults apply.
        if name:
            body["name"] = name
        if host_name:
            body["host_name"] = host_name
        if cover_after_s != COVER_AFTER_S_DEFAULT:
            body["cover_after_s"] = cover_after_s
        if spectators is not True:
            body["spectators"] = spectators
        if clock != "relaxed":
            body["clock"] = clock
        if clock_preset is not None:
            body["clock_preset"] = clock_preset
        if vacation_days is not None:
            body["vacation_days"] = vacation_days
        if hints is not True:
            body["hints"] = hints
        if cpu_pace != "relaxed":
            body["cpu_pace"] = cpu_pace
        answer = await self._call("POST", "/api/rooms", body)
        return Seat(answer["code"], answer["seat"], answer["token"])

    async def first_match(self, game: str, *, name: str = "") -> Seat:
        """Start `game`'s first match ("Learn by playing"): its fixed deal against Easy
        CPUs in a private room, already playing; hold the learner's seat (seat 0)."""
        body = {"name": name} if name else {}
        answer = await self._call("POST", f"/api/learn/{game}", body)
        return Seat(answer["code"], answer["seat"], answer["token"])

    async def public_rooms(self) -> list[RoomSummary]:
        """Public rooms that still have a seat open."""
        return cast(list[RoomSummary], (await self._call("GET", "/api/rooms"))["rooms"])

    async def room(self, code: str) -> RoomSummary:
        """A room's public summary: game, seats, whether the match started."""
        return cast(RoomSummary, await self._call("GET", f"/api/rooms/{code}"))

    async def take_seat(self, code: str, seat: int | None = None, *, name: str = "") -> Seat:
        """Take an open seat (the lowest one if `seat` is None) under the display name
        `name` (cleaned by the server; `bad_name` if far too long)."""
        body: dict[str, Any] = {} if seat is None else {"seat": seat}
        if name:
            body["name"] = name
        answer = await self._call("POST", f"/api/rooms/{code}/seats", body)
        return Seat(code, answer["seat"], answer["token"])

    async def start(self, code: str, token: str) -> RoomSummary:
        """Start the match (host only); still-open seats become CPUs.

        On a room whose match is over this is "play again": the next match starts with
        the same seats (tokens and move numbers go on); the summary's `match` numbers it.
        """
        return cast(
            RoomSummary, await self._call("POST", f"/api/rooms/{code}/start", {"token": token})
        )

    async def leave_seat(self, code: str, token: str) -> RoomSummary:
        """Leave one's seat: open again in the lobby, a CPU's during or after a match.

        The token stops working (`bad_token`) and connections holding the seat are closed
        with `seat_left`; a leaving host passes the host's role to the lowest other human.
        """
        return await self._summary(code, "leave", {"token": token})

    async def take_back_seat(self, code: str, token: str) -> RoomSummary:
        """Play one's seat again: the CPU covering it (away, or handed over) stops at once."""
        return await self._summary(code, "back", {"token": token})

    async def rename_seat(self, code: str, token: str, name: str) -> RoomSummary:
        """Change the display name at one's seat (the server cleans it; `bad_name` if
        it is far too long)."""
        return await self._summary(code, "name", {"token": token, "name": name})

    async def reissue_seat(self, code: str, host_token: str, seat: int) -> Seat:
        """The host gives a human seat a new token, to pass on (a seat link for another
        device or person); the old token stops working and its connections are closed."""
        path = f"/api/rooms/{code}/seats/{seat}/reissue"
        answer = await self._call("POST", path, {"token": host_token})
        return Seat(answer["code"], answer["seat"], answer["token"])

    async def hand_to_cpu(self, code: str, host_token: str, seat: int) -> RoomSummary:
        """The host has a CPU play a human seat now, during a match, until its human
        moves or takes it back (`not_started` / `match_over` outside a match)."""
        return await self._summary(code, f"seats/{seat}/cpu", {"token": host_token})

    async def set_hints(self, code: str, host_token: str, on: bool) -> RoomSummary:
        """The host turns hints on or off, in the waiting room only (`already_started`
        after the first match started, `not_host` for another seat's token)."""
        return await self._summary(code, "hints", {"token": host_token, "hints": on})

    async def set_cpu_pace(
        self, code: str, host_token: str, pace: Literal["relaxed", "quick"]
    ) -> RoomSummary:
        """The host sets how quickly CPUs move, in the waiting room only (as `set_hints`)."""
        return await self._summary(code, "cpu-pace", {"token": host_token, "cpu_pace": pace})

    async def your_rooms(self, held: list[Seat]) -> list[YourRoom]:
        """Each held seat's room in one call, in the order given (at most 20 seats)."""
        body = {"seats": [{"code": s.code, "token": s.token} for s in held]}
        return cast(list[YourRoom], (await self._call("POST", "/api/your-rooms", body))["rooms"])

    async def connect(
        self,
        code: str,
        tokens: list[str] | None = None,
        *,
        record: bool = False,
        on_view: Callable[[dict[str, Any]], None] | None = None,
    ) -> Connection:
        """Open a play connection holding `tokens` (none: spectator, two: same device).

        With `record`, the connection keeps every frame it receives, as bytes, in `raw`.
        With `on_view`, each view is handed to that callback instead of being queued for
        `views()`/`next_view()` (`view` still holds the latest).
        """
        ws_url = "ws" + self.base_url.removeprefix("http") + f"/ws?room={code}"
        conn = Connection(ws_url, list(tokens or []), record=record, on_view=on_view)
        await conn.open()
        return conn

    async def _summary(self, code: str, route: str, body: dict[str, Any]) -> RoomSummary:
        """POST to one of a room's seat routes that answer with its summary."""
        return cast(RoomSummary, await self._call("POST", f"/api/rooms/{code}/{route}", body))

    async def _call(self, method: str, path: str, body: Any = None) -> Any:
        return await asyncio.to_thread(self._call_blocking, method, path, body)

    def _call_blocking(self, method: str, path: str, body: Any) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read())
            except ValueError:
                answer = {"code": f"http_{exc.code}", "message": exc.reason}
            raise ZashikiError(answer["code"], answer["message"]) from None


class Connection:
    """One websocket to one room; see the module docstring for reconnect and resend."""

    def __init__(
        self,
        url: str,
        tokens: list[str],
        record: bool = False,
        on_view: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.url = url
        self.on_view = on_view
        self.tokens = tokens
        self.seats: list[int] = []
        self.view: dict[str, Any] | None = None
        self.reconnects = 0
        self.errors: list[dict[str, Any]] = []  # error frames not answering a pending move
        self.raw: list[bytes] | None = [] if record else None
        self._ws: ClientConnection | None = None
        self._views: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._pending: dict[tuple[int, int], tuple[bytes, asyncio.Future[dict[str, Any]]]] = {}
        self._next_seq: dict[int, int] = {}
        self._reader: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def unanswered(self) -> list[tuple[int, int]]:
        """The (seat, seq) of each move sent and not yet acknowledged, in order: what a
        reconnect would send again."""
        return sorted(self._pending)

    async def open(self) -> None:
        """Connect and authenticate; raises ZashikiError if the server refuses.

        A refusal that means "not now" (RETRYABLE: room_elsewhere, store_error, ...) or
        an unreachable server is tried again with the reconnect pauses, as after a drop;
        the last such failure is raised once they run out.
        """
        delays = (0.0, *RECONNECT_DELAYS)
        for attempt, delay in enumerate(delays, 1):
            await asyncio.sleep(delay)
            last = attempt == len(delays)
            try:
                await self._handshake()
                break
            except ZashikiError as exc:
                if exc.code not in RETRYABLE or last:
                    raise
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                if last:
                    raise
        self._reader = asyncio.create_task(self._read_forever())

    async def __aenter__(self) -> Connection:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def move(
        self, action: dict[str, Any], seat: int | None = None, seq: int | None = None
    ) -> dict[str, Any]:
        """Send a move and wait for its acknowledgement (the move is saved by then).

        `seat` defaults to this connection's first seat and `seq` to the next number for
        that seat; an error frame for the move raises ZashikiError.
        """
        seat = self.seats[0] if seat is None else seat
        if seq is None:
            seq = self._next_seq.get(seat, 1)
        self._next_seq[seat] = max(self._next_seq.get(seat, 1), seq + 1)
        frame = codec.pack({"t": "move", "seat": seat, "seq": seq, "action": action})
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[(seat, seq)] = (frame, done)
        await self._send(frame)
        return await done

    async def send(self, frame: dict[str, Any]) -> None:
        """Send any other frame (shown, visible, pause, resume, ping) as is."""
        await self._send(codec.pack(frame))

    async def next_view(self, timeout: float | None = 10.0) -> ViewMessage:
        """The next view frame the server sends; raises ConnectionError once closed."""
        view = await asyncio.wait_for(self._views.get(), timeout)
        if view is None:
            self._views.put_nowait(None)
            raise ConnectionError("connection closed")
        return cast(ViewMessage, view)

    async def views(self) -> AsyncIterator[ViewMessage]:
        """Every view frame, in order, until the connection is closed."""
        while True:
            try:
                yield await self.next_view(timeout=None)
            except ConnectionError:
                return

    async def drop(self) -> None:
        """Cut the socket without a closing handshake, as a network failure would."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def close(self) -> None:
        """Close for good; pending moves fail with ConnectionError."""
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader
        self._fail_pending(ConnectionError("connection closed"))

    async def _handshake(self) -> None:
        self._ws = await connect(self.url, compression=None, max_size=2**22)
        await self._ws.send(codec.pack({"t": "hello", "tokens": self.tokens, "patches": True}))
        data = await self._ws.recv()
        if self.raw is not None:
            self.raw.append(data)
        first = codec.unpack(data)
        if first.get("t") == "error":
            await self._ws.close()
            raise ZashikiError(first["code"], first["message"])
        self.seats = list(first["seats"])
        for seat, last in first.get("last_seq", {}).items():
            self._next_seq[int(seat)] = max(self._next_seq.get(int(seat), 1), last + 1)

    async def _send(self, frame: bytes) -> None:
        # A send on a dropped socket is not an error: the reader reconnects and resends.
        if self._ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._ws.send(frame)

    async def _read_forever(self) -> None:
        while True:
            try:
                assert self._ws is not None
                async for data in self._ws:
                    if self.raw is not None:
                        self.raw.append(data)
                    self._dispatch(codec.unpack(data))
            except websockets.ConnectionClosed:
                pass
            restarting = self._ws is not None and self._ws.close_code == SERVICE_RESTART
            if self._closing or not await self._reconnect(at_once=restarting):
                break
        self._views.put_nowait(None)
        self._fail_pending(ConnectionError("connection lost"))

    async def _reconnect(self, at_once: bool = False) -> bool:
        """Connect again with the reconnect pauses; False once they run out (or on a
        refusal that is not RETRYABLE). `at_once`: the server closed with 1012 (it is
        restarting and has already given its rooms up for another process to load), so
        the first try goes without a pause."""
        delays = (0.0, *RECONNECT_DELAYS[1:]) if at_once else RECONNECT_DELAYS
        for delay in delays:
            await asyncio.sleep(delay)
            if self._closing:
                return False
            try:
                await self._handshake()
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                continue
            except ZashikiError as exc:
                if exc.code in RETRYABLE:
                    continue
                return False
            if self._closing:  # closed while this handshake was under way
                await self._ws.close()  # type: ignore[union-attr]
                return False
            self.reconnects += 1
            for frame, _ in list(self._pending.values()):
                await self._send(frame)
            return True
        return False

    def _dispatch(self, frame: dict[str, Any]) -> None:
        kind = frame.get("t")
        if kind == "view":
            if "patch" in frame:  # the changed fields of the view before (PROTOCOL.md)
                assert self.view is not None  # a connection's first view is always whole
                frame["view"] = {**self.view["view"], **frame.pop("patch")}
                for kept in ("legal", "seats"):  # left out: unchanged
                    frame.setdefault(kept, self.view[kept])
            self.view = frame
            if self.on_view is not None:
                self.on_view(frame)
            else:
                self._views.put_nowait(frame)
            if "ack" in frame:  # the view a move caused also acknowledges it
                self._dispatch({"t": "ack", **frame["ack"]})
        elif kind in ("ack", "error"):
            key = (frame.get("seat"), frame.get("seq"))
            entry = self._pending.pop(key, None)  # type: ignore[arg-type]
            if entry is None or entry[1].done():
                if kind == "error":
                    self.errors.append(frame)
                return
            done = entry[1]
            if kind == "ack":
                done.set_result(frame)
            else:
                done.set_exception(ZashikiError(frame["code"], frame["message"]))

    def _fail_pending(self, exc: Exception) -> None:
        for _, done in self._pending.values():
            if not done.done():
                done.set_exception(exc)
        self._pending.clear()
