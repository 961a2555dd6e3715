"""The match archive: rooms' finished matches read from the store, replayed on demand.

Any process can answer for any room: the history lives in the store's move log, so
nothing here needs the room's lease. What it reads is cached per process: the cut log of
a room (kept while the log's length is unchanged; one cheap length query per request),
and a `Replayer` per match with its checkpoints and built files (finished matches never
change). Both caches are bounded (least recently used out).

Who is a player: whoever holds a current seat token of the room (sent as a bearer
token); players may replay from any seat or with every hand open and get the full match
file. Anyone else gets the spectator view and the spectator file only, and nothing
when the room's host refuses spectators.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.games.contract import Game
from server.rooms.errors import RoomError
from server.rooms.history import review
from server.rooms.history.match_file import export_full, export_spectator
from server.rooms.history.matches import (
    MatchRecord,
    Replayer,
    ReplayError,
    finished_matches,
    perspective_of,
    standings,
)
from server.rooms.history.review_queue import Job, ReviewQueue
from server.rooms.history.review_worker import ThreadWorker, Worker
from server.rooms.seats.seat import hash_token, normalize_code
from server.store import codec
from server.store.store import Store

ROOMS_CACHED = 64
REPLAYS_CACHED = 32
PAGE_MAX = 100
PAGE_BUDGET_S = 0.02
"""CPU one page of replay steps may take (it stops early and says where to go on)."""
log = logging.getLogger(__name__)


@dataclass
class RoomHistory:
    """A room's finished matches as last read, with who holds its seats."""

    game: Game
    log_length: int
    matches: list[MatchRecord]
    token_hashes: frozenset[str]
    spectators: bool = True  # whether the host lets people without a seat watch


@dataclass
class CachedReplay:
    """A match's replayer and the files built from it (each built once)."""

    replayer: Replayer
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The match's review (review.py) once made or read.
    review: dict[str, Any] | None = None


class Archive:
    """Finished matches of rooms in `store`; `game_of(game_id)` finds the engine.
    Reviews are made one at a time (`reviews`) by `worker` (default: in a thread; the
    server gives it a worker process, review_worker.py)."""

    def __init__(
        self, store: Store, game_of: Callable[[str], Game], worker: Worker | None = None
    ) -> None:
        self.store = store
        self.game_of = game_of
        self.worker: Worker = worker or ThreadWorker()
        self.reviews = ReviewQueue(self._make_review, self.worker.idle)
        self._rooms: OrderedDict[str, RoomHistory] = OrderedDict()
        self._replays: OrderedDict[tuple[str, int], CachedReplay] = OrderedDict()

    async def aclose(self) -> None:
        """Stop making reviews and the worker that makes them."""
        await self.reviews.aclose()
        await self.worker.aclose()

    def review_stats(self) -> dict[str, int]:
        """The review queue's figures (`ReviewQueue.stats`) and `worker_alive`: 1 while
        the worker process runs."""
        return {**self.reviews.stats(), "worker_alive": int(self.worker.alive)}

    async def history(self, code: str) -> RoomHistory:
        """The room's finished matches; RoomError room_not_found."""
        code = normalize_code(code)
        stored = await self.store.load(code)
        if stored is None:
            raise RoomError("room_not_found", f"no room {code}")
        data = codec.unpack(stored.blob)
        tokens = frozenset(
            s["token"] for s in data["seats"] if s.get("kind") == "human" and s.get("token")
        )
        length = await self.store.log_length(code)
        cached = self._rooms.get(code)
        if cached is None or cached.log_length != length:
            log = await self.store.read_log(code)
            game = self.game_of(data["settings"]["game_id"])
            cached = RoomHistory(game, len(log), finished_matches(log), tokens)
            self._rooms[code] = cached
            while len(self._rooms) > ROOMS_CACHED:
                self._rooms.popitem(last=False)
        else:
            cached.token_hashes = tokens  # a seat re-issued since: the old token is out
        cached.spectators = bool(data["settings"].get("spectators", True))
        self._rooms.move_to_end(code)
        return cached

    async def listing(self, code: str) -> dict[str, Any]:
        """The room's match list and standings across the series (public facts)."""
        history = await self.history(code)
        return {
            "code": normalize_code(code),
            "game": history.game.id,
            "matches": [m.summary() for m in history.matches],
            "standings": standings(history.matches),
        }

    def is_player(self, history: RoomHistory, token: str | None) -> bool:
        """Whether `token` holds a seat of the room; RoomError bad_token for a wrong one,
        no_spectators for none in a room whose host refuses spectators."""
        if token is None:
            if not history.spectators:
                raise RoomError("no_spectators", "the host does not allow spectators here")
            return False
        if hash_token(token) not in history.token_hashes:
            raise RoomError("bad_token", "that seat token does not belong to this room")
        return True

    def replay(self, code: str, history: RoomHistory, number: int) -> CachedReplay:
        """The cached replay of match `number`; RoomError match_not_found."""
        code = normalize_code(code)
        match = next((m for m in history.matches if m.number == number), None)
        if match is None:
            raise RoomError("match_not_found", f"room {code} has no finished match {number}")
        key = (code, number)
        cached = self._replays.get(key)
        if cached is None or cached.replayer.match.seed != match.seed:
            cached = CachedReplay(Replayer(history.game, match))
            self._replays[key] = cached
            while len(self._replays) > REPLAYS_CACHED:
                self._replays.popitem(last=False)
        self._replays.move_to_end(key)
        return cached

    async def match_file(self, code: str, number: int, token: str | None) -> dict[str, Any]:
        """Match `number`'s file: full for a player, spectator otherwise. Built once per
        match, in a worker thread (a whole rebuild; the event loop keeps serving)."""
        history = await self.history(code)
        kind = "full" if self.is_player(history, token) else "spectator"
        cached = self.replay(code, history, number)
        built = cached.files.get(kind)
        if built is None:
            build = export_full if kind == "full" else export_spectator
            args = (history.game, normalize_code(code), cached.replayer.match, cached.replayer)
            built = await asyncio.to_thread(build, *args)
            cached.files[kind] = built
        return built

    async def steps(
        self,
        code: str,
        number: int,
        token: str | None,
        asked: str | None,
        start: int,
        count: int,
    ) -> dict[str, Any]:
        """A page of match `number`'s steps from the perspective `asked` (a seat number,
        "open" or "spectator"; see `history.perspective_of`), at most PAGE_MAX steps and
        PAGE_BUDGET_S of CPU."""
        history = await self.history(code)
        player = self.is_player(history, token)
        replayer = self.replay(code, history, number).replayer
        try:
            perspective = perspective_of(asked, replayer.match.n, player)
        except ValueError as exc:
            raise RoomError("bad_seat", str(exc)) from None
        if not 0 <= start < replayer.steps:
            raise RoomError("bad_request", f"step {start} is outside 0..{replayer.steps - 1}")
        count = max(1, min(count, PAGE_MAX))
        page, following = replayer.page(start, count, perspective, PAGE_BUDGET_S)
        return {
            "match": number,
            "steps_total": replayer.steps,
            "perspective": "open" if perspective == "open" else perspective,
            "seats": replayer.match.seats,
            "steps": page,
            "next": following,
        }

    def match_over(self, code: str, number: int) -> None:
        """Room `code`'s match `number` just ended here: queue its review, so it is
        usually made before anyone asks (the room calls this; it never raises)."""
        self.reviews.add(normalize_code(code), number)

    async def review(
        self, code: str, number: int, token: str | None, asked: str | None, wait: bool = True
    ) -> dict[str, Any]:
        """Match `number`'s review (the Hard CPU's opinion on every human move) as the
        perspective `asked` may see it (`review.for_viewer`). Made once per match (queued
        when the match ended here, or first when asked: `reviews`) and kept in the store
        with the room's history; every later ask (this process or another) reads it.
        Not made yet: with `wait` the review once made, else at once how far its making
        is: {"status": "preparing", "match", "done", "total"} (moves marked of those to
        mark, both public)."""
        history = await self.history(code)
        player = self.is_player(history, token)
        cached = self.replay(code, history, number)
        match = cached.replayer.match
        try:
            perspective = perspective_of(asked, match.n, player)
        except ValueError as exc:
            raise RoomError("bad_seat", str(exc)) from None
        if cached.review is None:
            code = normalize_code(code)
            job = self.reviews.find(code, number)
            if job is None:
                cached.review = await self.store.review(code, review_key(match))
            if cached.review is None:
                job = self.reviews.ask(code, number)
                if not wait and not job.result.done():
                    done, total = job.done, review.to_mark(match)
                    return {"status": "preparing", "match": number, "done": done, "total": total}
                cached.review = await asyncio.shield(job.result)
        seats = [{"kind": s.get("kind", ""), "name": s.get("name", "")} for s in match.seats]
        return {**review.for_viewer(cached.review, perspective), "seats": seats}

    async def _make_review(self, job: Job) -> dict[str, Any]:
        """The queue's job: the stored review of the match, or one made now and stored."""
        history = await self.history(job.code)
        match = next((m for m in history.matches if m.number == job.number), None)
        if match is None:
            raise RoomError("match_not_found", f"room {job.code} has no match {job.number}")
        key = review_key(match)
        stored = await self.store.review(job.code, key)
        if stored is not None:
            return stored
        try:
            made = await self.worker.analyse(history.game, match, job.progress)
        except ReplayError as exc:
            log.warning("room %s match %d cannot be reviewed: %s", job.code, match.number, exc)
            raise RoomError("match_not_found", "this match cannot be replayed") from None
        await self.store.save_review(job.code, key, made)
        return made


def review_key(match: MatchRecord) -> str:
    """Where the store keeps a match's review: its number, seed and the review's version."""
    return f"{match.number}:{match.seed}:v{review.VERSION}"
