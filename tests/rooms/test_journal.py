"""Saves between full saves are journal records: what the store holds, replayed, is the
room that was saved, at every save of whole matches of every game, and after a failed
save too."""

from __future__ import annotations

from typing import Any

import pytest

from server.games import registry
from server.rooms.actor import journal
from server.rooms.actor.dumps import dump
from server.rooms.actor.room import Room
from server.rooms.history.replay import replay
from server.store.store import StoreError
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, Recorder, play_matches


def comparable(dump: dict[str, Any]) -> dict[str, Any]:
    """A room's dump without its unbanked clock (a live room's runs, a loaded one's not)."""
    return {key: value for key, value in dump.items() if key != "clock"}


class CheckedSaves:
    """Wraps the store's save: after each, loads the room back from the store and
    compares it with the live room (whose task waits in the save: it is what was saved).
    With `fail_after`, the first record of CPU moves alone past that version fails."""

    def __init__(self, env: Env, game_id: str, fail_after: int | None = None) -> None:
        self.env, self.game_id, self.fail_after = env, game_id, fail_after
        self.kinds = {"full": 0, "record": 0}
        self.mismatches: list[int] = []
        self.failed: int | None = None
        self.failed_room: Room | None = None
        self.real_save = env.store.save
        env.store.save = self.save  # type: ignore[method-assign]

    async def save(
        self, code: str, version: int, blob: bytes, log: Any = None, delta: bool = False
    ) -> None:
        env = self.env
        if (
            self.fail_after is not None
            and self.failed is None
            and delta
            and version > self.fail_after
            and log
            and all(entry.get("cpu") for entry in log)
        ):
            self.failed, self.failed_room = version, env.manager.live.rooms[code]
            raise StoreError("Redis: refused by the test")
        await self.real_save(code, version, blob, log, delta)
        self.kinds["record" if delta else "full"] += 1
        live = env.manager.live.rooms[code]
        stored = await env.store.load(code)
        assert stored is not None and stored.version == version
        assert len(stored.deltas) <= journal.JOURNAL_MOST
        loaded = Room.from_stored(stored, env.manager.room_deps(self.game_id))
        if comparable(dump(loaded.core, 0.0)) != comparable(dump(live.core, env.clock.now())):
            self.mismatches.append(version)


@pytest.mark.parametrize("game_id", GAMES)
async def test_every_save_loads_back_as_the_room_that_made_it(env: Env, game_id: str) -> None:
    saves = CheckedSaves(env, game_id)
    await play_matches(env, game_id, seed=41, matches=2)
    assert saves.mismatches == []
    # Most saves were records (moves and timers), and some full (starts, ends, the cap).
    assert saves.kinds["record"] > saves.kinds["full"] > 2, saves.kinds


async def test_a_failed_save_between_records_rolls_back_and_play_goes_on(env: Env) -> None:
    saves = CheckedSaves(env, "hachinin_meri", fail_after=20)
    code, _, _ = await play_matches(env, "hachinin_meri", seed=43, matches=1)
    assert saves.failed is not None, "no save was refused"
    assert saves.mismatches == []
    # Rolled back to the version saved, the room went on here (not dropped as stale)...
    assert env.manager.live.rooms[code] is saves.failed_room
    # ... from the very room saved: the move log, played back, ends where the room did.
    game = registry.get("hachinin_meri")
    logged = game.dump(replay(game, await env.store.read_log(code)))
    assert logged == (await env.saved(code))["state"]
    assert (await env.manager.room_summary(code))["status"] == "over"


async def test_cpu_cover_coming_and_going_is_saved_in_full(env: Env) -> None:
    saves = CheckedSaves(env, "kokuto_rum")
    code, _, host = await env.manager.create_room(
        "kokuto_rum", {}, ["host", "open"], host_name="Hana", cover_after_ms=2_000
    )
    _, guest = await env.manager.take_seat(code, None, "Kai")
    await env.join(code, [host], Recorder(seed=44))
    await env.manager.start_match(code, host)
    # Cover comes with a timer tick, goes with an attach: inputs a record could carry,
    # but not the change of seat they make.
    await env.run(2_500)
    assert (await env.manager.room_summary(code))["seats"][1]["covered"]
    await env.join(code, [guest], Recorder(seed=45))
    await env.run(5_000)
    assert not (await env.manager.room_summary(code))["seats"][1]["covered"]
    assert saves.mismatches == []
    assert saves.kinds["record"] > 0


async def test_a_change_to_another_rooms_seats_leaves_this_rooms_saves_records(
    env: Env,
) -> None:
    saves: list[tuple[str, bool]] = []
    real_save = env.store.save

    async def save(
        code: str, version: int, blob: bytes, log: Any = None, delta: bool = False
    ) -> None:
        await real_save(code, version, blob, log, delta)
        saves.append((code, delta))

    env.store.save = save  # type: ignore[method-assign]
    # A fixed deal that lasts past the test (some deals end within its first seconds).
    code, _, host = await env.manager.create_room("kokuto_rum", {}, ["host", "cpu", "cpu"], seed=7)
    await env.join(code, [host], Recorder(seed=46))
    await env.manager.start_match(code, host)
    await env.run(2_000)
    other, _, _ = await env.manager.create_room("kokuto_rum", {}, ["host", "open"])
    await env.manager.take_seat(other, None, "Kai")
    before = len(saves)
    await env.run(2_000)
    after = [delta for room, delta in saves[before:] if room == code]
    assert after and all(after), after
