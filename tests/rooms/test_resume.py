"""A room dropped mid-round and loaded again from Redis continues exactly, on one Redis and
on a Redis Cluster."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from server.rooms.errors import RoomError
from tests.rooms.conftest import started_env
from tests.rooms.helpers import Env, Player, undated


@pytest.fixture(params=["redis", "cluster"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    """conftest's env, on one Redis and on the session's Redis Cluster."""
    async with started_env(request.getfixturevalue(f"{request.param}_url")) as made:
        yield made


async def play(env: Env, seed: int, crash_at_ms: float | None) -> list[dict]:
    """A full match; with `crash_at_ms`, the room is dropped then and resumed by manager b."""
    code, tokens = await env.usunoro(humans=1, seed=seed)
    player = await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    if crash_at_ms is not None:
        await env.run(crash_at_ms)
        saved = await env.saved(code)
        await env.manager.unload(code)
        env.new_manager("b")
        player = await env.join(code, tokens, player)
        loaded = env.manager.inspect(code)
        assert loaded is not None
        for key in ("state", "cpu", "game_ms", "rngs", "seqs", "seats"):
            assert loaded[key] == saved[key], key
        assert not player.last["room"]["running"] or player.last["room"]["game_ms"] == 0
    await env.play_out(code)
    return await env.store.read_log(code)


async def test_a_room_resumed_mid_round_plays_on_exactly_as_without_the_crash(env: Env) -> None:
    reference = await play(env, seed=11, crash_at_ms=None)
    resumed = await play(env, seed=11, crash_at_ms=4_321)
    assert undated(resumed) == undated(reference)


async def test_a_resumed_room_waits_for_its_human_to_be_shown_the_board(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=12)
    await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.run(900)
    await env.manager.unload(code)
    env.new_manager("b")
    player = await env.join(code, tokens, Player(report_shown=False, plays=False))
    before = len(await env.store.read_log(code))
    await env.run(1_400)
    assert len(await env.store.read_log(code)) == before
    player.att.shown()
    await env.run(1_100)
    assert len(await env.store.read_log(code)) > before


async def test_another_process_cannot_run_a_room_whose_lease_is_held(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=1)
    first = env.manager
    env.new_manager("b")
    with pytest.raises(RoomError, match="room_elsewhere"):
        await env.manager.attach(code, tokens, lambda message: None)
    await first.unload(code)
    await env.join(code, tokens)
    assert env.manager.live_codes() == [code]


async def test_a_room_nobody_is_attached_to_is_unloaded_and_loads_again(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=1)
    player = await env.join(code, tokens)
    player.att.detach()
    await env.run(env.manager.live.unload_after_ms + env.manager.live.lease_ms)
    assert env.manager.live_codes() == []
    await env.join(code, tokens)
    assert env.manager.live_codes() == [code]


async def test_an_input_queued_while_the_room_stops_is_refused_not_left_waiting(
    env: Env,
) -> None:
    code, tokens = await env.usunoro(humans=1, seed=14)
    player = await env.join(code, tokens, Player())
    await env.manager.start_match(code, tokens[0])
    await env.settle()
    stopping = asyncio.create_task(env.manager.unload(code))
    await asyncio.sleep(0)  # the stop marker is queued; the room has not reached it yet
    assert player.att is not None
    with pytest.raises(RoomError, match="room_moved"):
        await asyncio.wait_for(player.att.pause(), timeout=5)
    await stopping
