"""A seeded match played through a real server by one websocket per seat, every seat a
human making seeded random legal moves, with every view frame each seat received kept.

The move log test (test_move_log_browser.py) feeds these frames to the browser's sentence
builder. It runs on a thread of its own (Playwright's sync API holds the main thread's
event loop), like pages.seeded_room.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from client.lib import Client, Connection, ZashikiError
from tests.net.players import choose

MATCH_TIMEOUT_S = 240.0
# Who sits where: named players, and one without a name (the tables say "Seat N").
NAMES = ["Aki", "Ben", "", "Dai", "Emi", "Fumi", "Gen", "Hana"]

# Card texts of each game, to collect what a seat has seen (views and events).
CARD = {
    "usunoro": re.compile(r"^[SHCD][1-9]$"),
    "hachinin_meri": re.compile(r"^[PIKOG](?:[1-9]|So|Ka|Re|Ro|Un|Su)$"),
    "utsuke": re.compile(r"^[RYGBP](?:[1-9]|1[0-2])$"),
    "junocos": re.compile(r"^[RYGB][0-9S]$"),
    "kokuto_rum": re.compile(r"^[WB][1-6]/[WB][1-6]$"),
    "shirokuro_jong": re.compile(r"^[WB][1-6]/[WB][1-6]$"),
}


def canonical(game: str, card: str) -> str:
    """One text per physical card: a Shirokuro card white end first, whichever way held."""
    if game in ("kokuto_rum", "shirokuro_jong") and card[0] == "B":
        return f"{card[3:]}/{card[:2]}"
    return card


def deck(game: str) -> list[str]:
    """Every card text of `game` (Shirokuro: every white/black pair, loose form)."""
    if game == "usunoro":
        return [f"{s}{r}" for s in "SHCD" for r in range(1, 5)]
    if game == "hachinin_meri":
        from server.games.hachinin_meri.cards import DECK

        return list(DECK)
    if game == "utsuke":
        from server.games.utsuke.cards import CARDS

        return list(CARDS)
    if game == "junocos":
        return sorted({f"{c}{v}" for c in "RYGB" for v in "01234567S"})
    return [f"W{w}/B{b}" for w in range(1, 7) for b in range(1, 7)]


def cards_in(game: str, value: Any) -> set[str]:
    """Every card text anywhere in `value` (nested lists and maps)."""
    found: set[str] = set()
    stack = [value]
    pattern = CARD[game]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if pattern.match(item):
                found.add(canonical(game, item))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def slim(frame: dict[str, Any]) -> dict[str, Any]:
    """What the move log reads of a view frame."""
    return {
        "t": "view",
        "version": frame["version"],
        "room": {"game": frame["room"]["game"], "status": frame["room"]["status"]},
        "seats": [{"kind": s["kind"], "name": s["name"]} for s in frame["seats"]],
        "you": frame["you"],
        "view": frame["view"],
        "events": frame["events"],
    }


class SeatPlayer:
    """One seat's connection: keeps every view frame, moves at random (seeded)."""

    def __init__(self, game: str, seat: int, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        self.frames: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.conn: Connection | None = None

    def on_view(self, frame: dict[str, Any]) -> None:
        self.frames.append(slim(frame))
        self.changed.set()

    def pick(self, message: dict[str, Any]) -> dict[str, Any] | None:
        legal = message["legal"].get(self.seat) or message["legal"].get(str(self.seat)) or []
        if not legal:
            return None
        if self.game == "usunoro":
            # The plain player (matching hands get grabbed), with an early grab now and then.
            if self.rng.random() < 0.04 and any(a["type"] == "grab" for a in legal):
                return {"type": "grab"}
            return choose(message["view"], legal)
        return self.rng.choice(legal)

    async def play(self) -> None:
        assert self.conn is not None
        while True:
            self.changed.clear()
            message = self.conn.view
            if message is None or message["room"]["status"] == "over":
                if message is not None:
                    return
            else:
                if self.game == "usunoro" and any(
                    e["type"] == "hand_shown" for e in message["events"]
                ):
                    await self.conn.send({"t": "shown", "version": message["version"]})
                move = self.pick(message)
                if move is not None:
                    try:
                        await self.conn.move(move, seat=self.seat)
                        continue
                    except ZashikiError as exc:
                        if exc.code == "rate_limited":
                            await asyncio.sleep(0.3)
                            continue
                        if exc.code not in ("illegal_action", "match_over"):
                            raise
            await asyncio.wait_for(self.changed.wait(), 30)


async def _record(
    server_url: str, redis_url: str, game: str, seats: int, seed: int
) -> list[SeatPlayer]:
    from server.rooms.actor.clock import RealClock
    from server.rooms.manager import RoomManager
    from server.store.redis_store import RedisStore

    store = RedisStore(redis_url)
    await store.start()
    manager = RoomManager(store, RealClock(), instance_id=f"move-log-test-{os.getpid()}")
    try:
        code, _, host_token = await manager.create_room(
            game, None, ["host"] + ["open"] * (seats - 1), seed=seed, host_name=NAMES[0]
        )
    finally:
        await manager.aclose()
        await store.aclose()
    client = Client(server_url)
    tokens = [host_token] + [
        (await client.take_seat(code, seat, name=NAMES[seat])).token for seat in range(1, seats)
    ]
    rng = random.Random(seed)
    players = [SeatPlayer(game, seat, random.Random(rng.random())) for seat in range(seats)]
    for player, token in zip(players, tokens, strict=True):
        player.conn = await client.connect(code, [token], on_view=player.on_view)
    try:
        await client.start(code, host_token)
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), MATCH_TIMEOUT_S)
    finally:
        for player in players:
            assert player.conn is not None
            await player.conn.close()
    return players


async def _record_all(
    server_url: str, redis_url: str, matches: list[tuple[str, int, int]]
) -> list[list[SeatPlayer] | BaseException]:
    return await asyncio.gather(
        *(_record(server_url, redis_url, game, seats, seed) for game, seats, seed in matches),
        return_exceptions=True,
    )


def record_matches(
    server_url: str, redis_url: str, matches: list[tuple[str, int, int]]
) -> dict[str, list[list[dict[str, Any]]] | BaseException]:
    """Play seeded matches, given as (game, seats, seed), all at the same time: game ->
    each seat's view frames in the order received, or what went wrong in that match.

    At the same time, not one after another: a match's pace is mostly the game's own
    timers (a Shirokuro Jong claim window lasts a second), not the machine's work, so
    together they take about as long as the longest alone."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        played = pool.submit(asyncio.run, _record_all(server_url, redis_url, matches)).result(
            timeout=MATCH_TIMEOUT_S + 30
        )
    return {
        game: outcome if isinstance(outcome, BaseException) else [p.frames for p in outcome]
        for (game, _, _), outcome in zip(matches, played, strict=True)
    }
