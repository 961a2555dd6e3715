"""A bounded, seeded fuzz run against a real server process (issue 18).

At least 20,000 websocket frames across all six games (legal moves, mutated moves, junk
maps, junk bytes) and 2,000 HTTP bodies across every route /openapi.json describes, with
seat tokens right, wrong and junk (POST /api/your-rooms with a real seat among the
entries; the match routes for a room whose match is over, as a player and not). It
asserts that the server stays up, that no answer is a 500 or `internal`, and that no
refused frame changes a room's version.

Every room is humans-only (each seat held by one of the test's connections), its CPU
cover off and its boards hidden (`visible` false), so nothing moves unless a frame of the
test moves it: one driver per room sends a frame, then a ping, and reads that
connection's answers up to the pong. A refused frame must leave the version as it was.
"""

from __future__ import annotations

import asyncio
import random
import string
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.games import registry
from server.store import codec
from tests.net.conftest import ServerProcess
from tests.rooms.finished import finished_usunoro_room

SEED = 1818
YOURS = "/api/your-rooms"
MATCHES = "/api/rooms/{code}/matches"
WS_FRAMES = 20_000
HTTP_BODIES = 2_000
ROOMS_PER_GAME = 4


@pytest.fixture(scope="module")
def fuzz_server(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server whose per-connection frame limit and per-address limits do not stand in
    the way."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZASHIKI_FRAME_RATE", "100000/100000")
        # Bodies past the per-address limits would all get 429 and reach no handler.
        patch.setenv("ZASHIKI_RATE_LIMITS", "off")
        proc = ServerProcess(redis_url, tmp_path_factory.mktemp("fuzz") / "server.log")
        proc.start()
    yield proc
    proc.stop()


# -- junk --------------------------------------------------------------------------------
def junk(rng: random.Random, depth: int = 0) -> Any:
    """One value of any shape a client could send."""
    pick = rng.randrange(16)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, 1, -1, 7, 2**31, 2**53, 2**62 - 1, 2**63 - 1, -(2**63), 2**64 - 1])
    if pick == 3:
        return rng.choice([1.5, -0.0, float("inf"), float("nan"), 1e300])
    if pick == 4:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(12)))
    if pick == 5:
        return "x" * rng.randrange(100, 3000)
    if pick == 6:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(16)))
    if pick == 7:
        nested: Any = rng.choice(["x", 1, {}])
        for _ in range(rng.randrange(5, 120)):
            nested = [nested] if rng.random() < 0.5 else {"type": nested}
        return nested
    if pick in (8, 9) and depth < 3:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick in (10, 11) and depth < 3:
        return {junk_key(rng): junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    return rng.choice(["S1", "H3", "grab", "mark", "next", "play", "pass", "draw", "", "∅"])


def junk_key(rng: random.Random) -> Any:
    return rng.choice(["type", "card", "cards", "seat", "value", "t", "action", "", 1, "x" * 40])


def mutated(rng: random.Random, action: dict[str, Any]) -> dict[str, Any]:
    """A legal action with one field changed, added or removed."""
    changed = dict(action)
    keys = list(changed)
    roll = rng.random()
    if roll < 0.5 and keys:
        changed[rng.choice(keys)] = junk(rng)
    elif roll < 0.8:
        changed[junk_key(rng)] = junk(rng)
    elif keys:
        del changed[rng.choice(keys)]
    return changed


# -- websocket fuzzing -------------------------------------------------------------------
class Conn:
    """One websocket of the fuzz run: its frames go to a queue read by the room's driver."""

    def __init__(self, ws: ClientConnection, seats: list[int]) -> None:
        self.ws = ws
        self.seats = seats
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.seq = {seat: 0 for seat in seats}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self.queue.put_nowait(codec.unpack(data))
        except ConnectionClosed:
            pass
        self.queue.put_nowait(None)

    async def until_pong(self, pongs: int = 1) -> list[dict[str, Any]]:
        """Every frame up to the `pongs`-th next pong."""
        got = []
        while True:
            frame = await self.next()
            if frame.get("t") == "pong":
                pongs -= 1
                if not pongs:
                    return got
            else:
                got.append(frame)

    async def until_answer(self) -> list[dict[str, Any]]:
        """Every frame up to the answer of a frame that always gets one: an error, an
        ack, a pong, or the view carrying the ack of the move."""
        got = []
        while True:
            frame = await self.next()
            got.append(frame)
            if frame.get("t") in ("error", "ack", "pong") or "ack" in frame:
                return got

    async def next(self) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.queue.get(), 30)
        assert frame is not None, f"the server closed a fuzz connection: {self.ws.close_code}"
        return frame


class Totals:
    def __init__(self) -> None:
        self.frames = 0
        self.refused = 0
        self.accepted_moves = 0
        self.codes: dict[str, int] = {}


def fuzz_frame(rng: random.Random, conn: Conn) -> tuple[bytes | str, bool]:
    """A frame to send and whether it is a move the driver expects an answer to."""
    legal: list[dict[str, Any]] = []
    seat = rng.choice(conn.seats) if conn.seats else rng.randrange(3)
    if conn.view is not None:
        legal = conn.view.get("legal", {}).get(seat, [])
    roll = rng.random()
    if roll < 0.30 and legal:
        conn.seq[seat] = conn.seq.get(seat, 0) + 1
        move = {"t": "move", "seat": seat, "seq": conn.seq[seat], "action": rng.choice(legal)}
        return codec.pack(move), True
    if roll < 0.45:
        action = mutated(rng, rng.choice(legal)) if legal else {"type": junk(rng)}
        move = {"t": "move", "seat": seat, "seq": conn.seq.get(seat, 0) + 1, "action": action}
        if rng.random() < 0.3:
            move[rng.choice(["seat", "seq", "action"])] = junk(rng)
        return codec.pack(move), True
    if roll < 0.55:
        action = {junk_key(rng): junk(rng) for _ in range(rng.randrange(1, 4))}
        move = {
            "t": "move",
            "seat": seat,
            "seq": rng.choice([0, 1, 10**6, 2**40]),
            "action": action,
        }
        return codec.pack(move), True
    if roll < 0.65:
        version = rng.choice([conn.version, conn.version + 1, junk(rng)])
        return codec.pack({"t": "shown", "version": version}), False
    if roll < 0.70:
        return codec.pack(
            hidden({"t": "visible", "visible": rng.choice([False, junk(rng)])})
        ), False
    if roll < 0.75:
        return codec.pack({"t": rng.choice(["pause", "resume"])}), False
    if roll < 0.85:
        frame = {junk_key(rng): junk(rng) for _ in range(rng.randrange(4))}
        if rng.random() < 0.6:
            frame["t"] = rng.choice(
                ["move", "hello", "shown", "visible", "ping", "chat", "react", "mute", "nope", 3]
            )
        return codec.pack(hidden(frame)), False
    if roll < 0.92:
        return codec.pack(junk(rng)), False
    if roll < 0.97:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))), False
    return "".join(rng.choice(string.ascii_letters) for _ in range(8)), False


def hidden(frame: dict[str, Any]) -> dict[str, Any]:
    """Never a board shown: game time must stand still (or timers would change rooms)."""
    if frame.get("t") == "visible" and frame.get("visible") is True:
        frame["visible"] = False
    return frame


# Frames that may get no answer frame when accepted (chat and reactions are broadcast).
MAYBE_UNANSWERED = ("shown", "visible", "pause", "resume", "chat", "react", "mute", "deal_text")


def answered(data: bytes | str) -> bool:
    """True for a frame the server always answers with exactly one error, ack or pong
    frame (or a view carrying an ack): all but those of MAYBE_UNANSWERED's kinds."""
    try:
        frame = codec.unpack(data) if isinstance(data, bytes) else None
    except codec.DecodeError:
        return True
    return not (isinstance(frame, dict) and frame.get("t") in MAYBE_UNANSWERED)


def frame_fits(data: bytes | str) -> bool:
    """Frames past the transport's 64 KB cap close the socket by design: not sent."""
    return len(data) < 60_000


async def drive_room(conns: list[Conn], rng: random.Random, quota: int, totals: Totals) -> None:
    sent = 0
    # The room's version as the driver knows it: every accepted change reaches the
    # connection that made it before that connection's pong (other connections may
    # read their copy of the view later).
    room_version = max(conn.version for conn in conns)
    while sent < quota:
        conn = rng.choice(conns)
        data, _ = fuzz_frame(rng, conn)
        if not frame_fits(data):
            continue
        before = room_version
        await conn.ws.send(data)
        sent += 1
        if answered(data):
            answers = await conn.until_answer()
        else:  # shown, visible, pause, resume: a ping after it marks where its answers end
            await conn.ws.send(codec.pack({"t": "ping"}))
            answers = await conn.until_pong()
        errors = [a for a in answers if a.get("t") == "error"]
        for error in errors:
            totals.codes[error["code"]] = totals.codes.get(error["code"], 0) + 1
            assert error["code"] != "internal", error
        views = [a for a in answers if a.get("t") == "view"]
        newest = max((v["version"] for v in views), default=before)
        if errors:
            totals.refused += 1
            shown = [(a.get("t"), a.get("version"), a.get("events"), a.get("ack")) for a in answers]
            assert newest <= before, f"a refused frame changed the version: {data!r} {shown}"
        if any("ack" in v for v in views):
            totals.accepted_moves += 1
        if views:
            conn.view = views[-1]
            conn.version = max(conn.version, newest)
        room_version = max(room_version, newest)
        # The other connections of the room see the same views: keep them read.
        for other in conns:
            if other is not conn:
                while not other.queue.empty():
                    frame = other.queue.get_nowait()
                    assert frame is not None, "the server closed a fuzz connection"
                    if frame.get("t") == "view":
                        other.view = frame
                        other.version = max(other.version, frame["version"])
    totals.frames += sent


async def make_room(h: httpx.AsyncClient, game_id: str, seats: int) -> tuple[str, list[str]]:
    body = {"game": game_id, "seats": ["host"] + ["open"] * (seats - 1), "cover_after_s": "wait"}
    made = (await h.post("/api/rooms", json=body)).json()
    tokens = [made["token"]]
    for _ in range(seats - 1):
        tokens.append((await h.post(f"/api/rooms/{made['code']}/seats", json={})).json()["token"])
    started = await h.post(f"/api/rooms/{made['code']}/start", json={"token": made["token"]})
    assert started.status_code == 200, started.text
    return made["code"], tokens


async def open_conn(server: ServerProcess, code: str, tokens: list[str]) -> Conn:
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws?room={code}", compression=None, max_size=None
    )
    await ws.send(codec.pack({"t": "hello", "tokens": tokens}))
    welcome = codec.unpack(await ws.recv())
    assert welcome["t"] == "welcome", welcome
    conn = Conn(ws, list(welcome["seats"]))
    # Hidden boards: game time stands still, so only the test's frames change the room.
    await ws.send(codec.pack({"t": "visible", "visible": False}))
    await ws.send(codec.pack({"t": "ping"}))
    for frame in await conn.until_pong():
        if frame.get("t") == "view":
            conn.view, conn.version = frame, max(conn.version, frame["version"])
    return conn


async def fuzz_websockets(server: ServerProcess, rng: random.Random) -> Totals:
    totals = Totals()

    async def room_of(game_id: str, seats: int) -> list[Conn]:
        code, tokens = await make_room(h, game_id, seats)
        conns = [await open_conn(server, code, [t]) for t in tokens]
        return [*conns, await open_conn(server, code, [])]

    async with httpx.AsyncClient(base_url=server.url, timeout=30) as h:
        games = [g for g in registry.games().values() for _ in range(ROOMS_PER_GAME)]
        rooms = await asyncio.gather(*(room_of(g.id, g.min_seats) for g in games))
    quota = -(-WS_FRAMES // len(rooms))
    try:
        await asyncio.gather(
            *(drive_room(conns, random.Random(rng.random()), quota, totals) for conns in rooms)
        )
    finally:
        for conns in rooms:
            for conn in conns:
                await conn.ws.close()
                await conn.reader
    return totals


# -- HTTP fuzzing ------------------------------------------------------------------------
def junk_body(rng: random.Random, template: dict[str, Any]) -> bytes:
    roll = rng.random()
    if roll < 0.4 and template:
        body = dict(template)
        body[rng.choice([*template, "x", "seats", "options", "token", "seat"])] = junk(rng)
        return _json(body)
    if roll < 0.6:
        return _json({junk_key(rng): junk(rng) for _ in range(rng.randrange(5))})
    if roll < 0.7:
        return _json(junk(rng))
    if roll < 0.8:
        depth = rng.randrange(10, 3000)
        return b"[" * depth + b"]" * depth
    if roll < 0.9:
        return rng.choice([b"1e400", b"1" * 5000, b'{"a": NaN}', b"\xff\xfe", b"{", b'"x"', b""])
    return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))


def _json(value: Any) -> bytes:
    import json

    def plain(v: Any) -> Any:
        if isinstance(v, bytes):
            return v.decode("latin-1")
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        return v

    try:
        return json.dumps(plain(value)).encode()
    except (RecursionError, ValueError):
        return b"[[[]]]"


TEMPLATES: dict[str, dict[str, Any]] = {
    "/api/rooms": {"game": "usunoro", "seats": ["host", "open", "cpu", "cpu"], "public": True},
    "/api/rooms/{code}/seats": {"seat": 1, "name": "ann"},
    "/api/rooms/{code}/start": {"token": "t"},
    "/api/rooms/{code}/name": {"token": "t", "name": "bo"},
    # The real room with a finished match and its host's token go in (`held`).
    "/api/your-rooms": {"seats": [{"code": "ABCDEF", "token": "t"}]},
}
# Query parameters the routes read, and others.
QUERY_NAMES = ["limit", "after", "seat", "from", "count", "download", "x"]


def fill(path: str, rng: random.Random, codes: list[str]) -> str:
    code = rng.choice([*codes, "ZZZZZZ", "abc", "%00", "A" * 40, "🀄"])
    seat = rng.choice(["0", "1", "7", "300", "-1", "x"])
    number = rng.choice(["1", "1", "2", "0", "-1", "x", "9" * 30])
    return path.replace("{code}", code).replace("{seat}", seat).replace("{n}", number)


def your_rooms_body(rng: random.Random, code: str, token: str) -> bytes:
    """A your-rooms body mixing the real seat with wrong, missing and junk entries."""
    entries: list[Any] = []
    for _ in range(rng.randrange(1, 24)):
        roll = rng.random()
        if roll < 0.3:
            entries.append({"code": code, "token": token})
        elif roll < 0.5:
            entries.append({"code": rng.choice([code, code.lower(), "ZZZZZZ"]), "token": "t"})
        else:
            entries.append({junk_key(rng): junk(rng), "code": junk(rng), "token": junk(rng)})
    return _json({"seats": entries})


async def fuzz_http(server: ServerProcess, rng: random.Random) -> int:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as h:
        document = (await h.get("/openapi.json")).json()
        calls = [
            (method.upper(), path)
            for path, operations in document["paths"].items()
            for method in operations
            if method in ("get", "post", "put", "delete", "patch")
        ]
        # A room whose first match is over (the match routes answer for it), and a new one.
        finished, tokens = await finished_usunoro_room(server.redis_url, humans=2, seed=SEED)
        codes = [finished, (await h.post("/api/rooms", json={"game": "usunoro"})).json()["code"]]
        sent, answered = 0, Counter[str]()

        async def one(method: str, path: str, content: bytes, query: dict[str, str]) -> None:
            url = fill(path, rng, codes)
            printable = str(junk(rng))[:80].encode("ascii", "replace").decode()
            bearer = rng.choice([None, tokens[0], tokens[1], "t", printable])
            headers = {} if bearer is None else {"Authorization": f"Bearer {bearer}"}
            try:
                answer = await h.request(
                    method, url, content=content, params=query, headers=headers
                )
            except httpx.LocalProtocolError:  # a header value httpx itself will not send
                return
            assert answer.status_code != 500, (method, url, content[:200], answer.text[:200])
            if url.startswith("/api/") and answer.status_code >= 400:
                assert answer.json()["code"] != "internal", (method, url, answer.text)
            if answer.status_code == 200 and (path.startswith(MATCHES) or path == YOURS):
                answered[path] += 1

        while sent < HTTP_BODIES:
            batch = []
            for _ in range(16):
                method, path = rng.choice(calls)
                if path == YOURS and rng.random() < 0.5:
                    content = your_rooms_body(rng, finished, tokens[0])
                else:
                    content = junk_body(rng, TEMPLATES.get(path, {}))
                query = {}
                if rng.random() < 0.5:
                    query = {rng.choice(QUERY_NAMES): str(junk(rng))[:50]}
                batch.append(one(method, path, content, query))
            await asyncio.gather(*batch)
            sent += len(batch)
        # Bodies reached the handlers of "your rooms" and of every match route, not only
        # their refusals.
        assert answered[YOURS] > 0, answered
        assert len([p for p in answered if p.startswith(MATCHES)]) >= 3, answered
        # Every route was asked at least once (2,000 draws over a few dozen routes).
        return sent


async def test_fuzzed_frames_and_bodies_never_crash_answer_500_or_change_a_refused_room(
    fuzz_server: ServerProcess,
) -> None:
    rng = random.Random(SEED)
    started = time.monotonic()
    totals = await fuzz_websockets(fuzz_server, rng)
    ws_spent = time.monotonic() - started
    bodies = await fuzz_http(fuzz_server, rng)
    spent = time.monotonic() - started
    print(
        f"fuzz: {totals.frames} frames ({totals.refused} refused, {totals.accepted_moves} "
        f"moves accepted) in {ws_spent:.1f} s, {bodies} HTTP bodies in {spent - ws_spent:.1f} s;"
        f" codes {totals.codes}"
    )
    assert totals.frames >= WS_FRAMES and bodies >= HTTP_BODIES
    assert totals.accepted_moves > 0 and totals.refused > 0
    assert fuzz_server.alive()
    assert "Traceback" not in fuzz_server.output(), fuzz_server.output()[-3000:]
