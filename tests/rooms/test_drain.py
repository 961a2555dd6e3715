"""A process draining before it stops (`RoomManager.drain`, on SIGTERM): every room it runs
is saved and its lease given up before its clients are told server_shutdown, no room is
created or loaded there any more, and another process serves the rooms at once."""

from __future__ import annotations

import pytest

from server.rooms.errors import RoomError
from server.store.store import StoreError
from tests.rooms.test_relay import Client, Process, humans_room, join, mark, pair

__all__ = ["pair"]  # the fixture, used by name


async def test_a_drained_process_hands_its_rooms_back_and_takes_no_new_ones(
    pair: tuple[Process, Process],
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    player = await join(a, code, tokens[:1])
    await player.att.move(0, 1, mark(player))  # type: ignore[union-attr]
    assert await a.manager.drain() == 1
    assert player.last["t"] == "closed" and player.last["code"] == "server_shutdown"
    assert a.manager.live_codes() == []
    assert await a.store.lease_holder(code) is None
    with pytest.raises(RoomError) as refused:
        await a.manager.create_room("usunoro", {}, ["host", "cpu", "cpu", "cpu"])
    assert refused.value.code == "server_shutdown"
    with pytest.raises(RoomError) as not_here:
        await a.manager.live.room(code)
    assert not_here.value.code == "server_shutdown"
    # Another process loads it at once, with the move made before the drain.
    again: Client = await join(b, code, tokens[:1])
    assert b.manager.live_codes() == [code]
    assert again.last["view"]["mark"] is not None


async def test_a_drain_goes_on_when_the_store_does_not_take_a_lease_back(
    pair: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = pair
    code, tokens = await humans_room(a, b)
    player = await join(a, code, tokens[:1])

    async def outage(code: str, owner: str) -> None:
        raise StoreError("the store does not answer")

    monkeypatch.setattr(a.store, "release_lease", outage)
    assert await a.manager.drain() == 1  # no exception: the process can still stop
    assert player.last["t"] == "closed" and player.last["code"] == "server_shutdown"
    assert a.manager.live_codes() == []
