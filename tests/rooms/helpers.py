"""Room test helpers: an environment (store, virtual clock, managers) and scripted players."""

from __future__ import annotations

from typing import Any

from server.games.usunoro import is_matching
from server.rooms.actor.clock import VirtualClock
from server.rooms.actor.dumps import dump
from server.rooms.actor.room import Room
from server.rooms.errors import RoomError
from server.rooms.manager import Attached, RoomManager
from server.store import codec
from server.store.store import Store

GRAB = {"type": "grab"}
NEXT = {"type": "next"}


def undated(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A move log without the wall-clock dates of match starts and ends (runs differ there)."""
    return [{k: v for k, v in entry.items() if k != "at"} for entry in log]


class Player:
    """A scripted client: keeps the latest message, reports every view shown at once.

    Usunoro script: press "next" between rounds, mark the first markable card while
    unmarked, and grab only when `grabs` is set and the race is on (or its hand matches).
    With `plays` unset it never moves; with `report_shown` unset it never reports "shown".
    """

    def __init__(self, grabs: bool = False, report_shown: bool = True, plays: bool = True) -> None:
        self.grabs = grabs
        self.plays = plays
        self.report_shown = report_shown
        self.messages: list[dict[str, Any]] = []
        self.att: Attached | None = None
        self.seqs: dict[int, int] = {}
        self.acted: set[tuple[int, int]] = set()

    def listen(self, message: dict[str, Any]) -> None:
        """The listener handed to `attach`."""
        self.messages.append(message)
        if self.report_shown and self.att is not None and message["t"] == "view":
            self.att.shown(message["version"])

    @property
    def last(self) -> dict[str, Any]:
        """The latest message received."""
        return self.messages[-1]

    def view(self, seat: int) -> dict[str, Any]:
        """The latest view of one held seat."""
        last = self.last
        return last["views"][seat] if "views" in last else last["view"]

    async def move(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """Send a move with the next sequence number."""
        assert self.att is not None
        self.seqs[seat] = self.seqs.get(seat, 0) + 1
        return await self.att.move(seat, self.seqs[seat], action)

    def choose(self, seat: int) -> dict[str, Any] | None:
        """The scripted move for `seat` on the latest view, if any."""
        legal = self.last.get("legal", {}).get(seat, [])
        if NEXT in legal:
            return NEXT
        view = self.view(seat)
        if self.grabs and GRAB in legal:
            hand = view["hand"]
            if view["phase"] == "race" or is_matching(hand):
                return GRAB
        if view["phase"] == "passing" and view["mark"] is None:
            marks = [a for a in legal if a["type"] == "mark"]
            return marks[0] if marks else None
        return None

    async def act(self) -> bool:
        """Make the scripted moves on the latest view (once per view and seat)."""
        if not self.plays or not self.messages or self.last["t"] != "view" or self.att is None:
            return False
        moved = False
        for seat in self.last["you"]:
            key = (self.last["version"], seat)
            if key in self.acted:
                continue
            self.acted.add(key)
            action = self.choose(seat)
            if action is not None:
                try:
                    await self.move(seat, action)
                    moved = True
                except RoomError as exc:
                    if exc.code != "illegal_action":
                        raise
        return moved


class Env:
    """A store, a virtual clock and managers over them, plus players to drive."""

    def __init__(self, store: Store, clock: VirtualClock, manager: RoomManager) -> None:
        self.store = store
        self.clock = clock
        self.manager = manager
        self.players: list[Player] = []
        self.managers = [manager]

    def new_manager(self, instance_id: str) -> RoomManager:
        """Another process's manager on the same store (with its own fresh clock)."""
        self.clock = VirtualClock(start_ms=5_000_000.0)
        self.manager = RoomManager(self.store, self.clock, instance_id=instance_id)
        self.managers.append(self.manager)
        return self.manager

    async def close(self) -> None:
        """Stop every manager."""
        for manager in self.managers:
            await manager.aclose()

    async def usunoro(
        self, humans: int = 1, difficulty: str = "normal", seed: int = 1, **kw: Any
    ) -> tuple[str, list[str]]:
        """A Usunoro room with `humans` human seats (0..), the rest CPUs; returns code, tokens."""
        seats = ["host"] + ["open"] * (humans - 1) + ["cpu"] * (4 - humans)
        options = kw.pop("options", {})
        code, _, token = await self.manager.create_room(
            "usunoro", options, seats, difficulty, seed=seed, **kw
        )
        tokens = [token]
        for seat in range(1, humans):
            tokens.append((await self.manager.take_seat(code, seat, f"p{seat}"))[1])
        return code, tokens

    async def join(self, code: str, tokens: list[str], player: Player | None = None) -> Player:
        """Attach a player holding `tokens`."""
        player = player or Player()
        player.att = await self.manager.attach(code, tokens, player.listen)
        if player.report_shown:
            player.att.shown()
        self.players.append(player)
        return player

    async def settle(self) -> None:
        """Let rooms finish their inputs and players react, until nothing moves."""
        while True:
            await self.manager.settled()
            moved = False
            for player in self.players:
                if player.att is not None and not player.att.detached:
                    moved = await player.act() or moved
            await self.manager.settled()
            if not moved:
                return

    async def run(self, ms: float) -> None:
        """Let `ms` of wall time pass with players reacting at every instant."""
        await self.clock.advance(ms, settle=self.settle)

    async def saved(self, code: str) -> dict[str, Any]:
        """The room as last saved in the store (its journal replayed over its full save)."""
        stored = await self.store.load(code)
        assert stored is not None
        deps = self.manager.room_deps(codec.unpack(stored.blob)["settings"]["game_id"])
        return dump(Room.from_stored(stored, deps).core, 0.0)

    async def play_out(self, code: str, limit_ms: float = 3_600_000, step: float = 500) -> None:
        """Run until the match is over (or fail past `limit_ms`)."""
        spent = 0.0
        while (await self.manager.room_summary(code))["status"] != "over":
            assert spent < limit_ms, "the match did not end"
            await self.run(step)
            spent += step
