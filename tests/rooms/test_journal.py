"""Saves between full saves are journal records: what the store holds, replayed, is the
room that was saved, at every save of a whole match of every game."""

from __future__ import annotations

from typing import Any

import pytest

from server.rooms import journal
from server.rooms.room import Room
from server.rooms.seats import Watched
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, play_matches


def comparable(dump: dict[str, Any]) -> dict[str, Any]:
    """A room's dump without its unbanked clock (a live room's runs, a loaded one's not)."""
    return {key: value for key, value in dump.items() if key != "clock"}


@pytest.mark.parametrize("game_id", GAMES)
async def test_every_save_loads_back_as_the_room_that_made_it(env: Env, game_id: str) -> None:
    kinds = {"full": 0, "record": 0}
    mismatches: list[int] = []
    real_save = env.store.save

    async def save(
        code: str, version: int, blob: bytes, log: Any = None, delta: bool = False
    ) -> None:
        await real_save(code, version, blob, log, delta)
        kinds["record" if delta else "full"] += 1
        # The room's task waits here: its core is exactly what was just saved.
        live = env.manager._rooms[code]
        stored = await env.store.load(code)
        assert stored is not None and stored.version == version
        assert len(stored.deltas) <= journal.JOURNAL_MOST
        # Loading makes seats, which counts as a change of seats (`Watched`) and would
        # make the next save full: the count is put back, as nothing live changed.
        changes = Watched.changes
        loaded = Room.from_stored(stored, env.manager._room_deps(game_id))
        Watched.changes = changes
        if comparable(loaded.core.dump(0.0)) != comparable(live.core.dump(env.clock.now())):
            mismatches.append(version)

    env.store.save = save  # type: ignore[method-assign]
    await play_matches(env, game_id, seed=41, matches=2)
    assert mismatches == []
    # Most saves were records (moves and timers), and some full (starts, ends, the cap).
    assert kinds["record"] > kinds["full"] > 2, kinds
