"""A listed days room that cannot be loaded (its game removed from the server) is tried
again after waits that double (rooms/load_failures.py), not at every sweep; each try logs
one WARNING naming the room; a player opening it is refused with `room_unavailable`; the
other due rooms keep being woken on time.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator

import pytest

from server.rooms.errors import RoomError
from server.rooms.load_failures import FIRST_RETRY_MS, MOST_RETRY_MS
from server.rooms.manager import RoomManager
from server.store import codec
from server.store.redis_store import RedisStore
from server.web.http_io import failure
from tests.rooms.clocked import EPOCH_S, clocked_env, clocked_manager, clocked_room, late_moves
from tests.rooms.helpers import Env
from tests.rooms.test_due_rooms import RUNS_OUT_MS, another_process, due_at, left_alone

SWEEP_MS = 5 * 60_000


@pytest.fixture(params=["redis", "cluster"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    """A started manager ("a") on a virtual clock, over a real Redis or a Redis Cluster."""
    url = request.getfixturevalue(f"{request.param}_url")
    async with clocked_env(RedisStore(url, prefix=f"t{uuid.uuid4().hex[:12]}:")) as made:
        yield made


def sweeper(env: Env) -> RoomManager:
    """A process, not started, whose due claims are put off by the usual 30 s lease."""
    made = clocked_manager(env.store, env.clock, "b", lease_ms=30_000)
    env.managers.append(made)
    return made


async def remove_its_game(env: Env, code: str) -> None:
    """Save the room as a game this server does not have (as after the game was removed)."""
    stored = await env.store.load(code)
    assert stored is not None
    data = codec.unpack(stored.blob)
    data["settings"]["game_id"] = "withdrawn_game"
    await env.store.save(code, stored.version + 1, codec.pack(data))


def failures(caplog: pytest.LogCaptureFixture, code: str) -> list[str]:
    """The WARNING lines about the room's failed loads."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and getattr(r, "event", None) == "load_failed"
        if getattr(r, "room", None) == code
    ]


async def test_a_room_that_cannot_load_backs_off_and_the_rest_go_on(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    broken, broken_token = await left_alone(env)
    env.manager = another_process(env.store, env.clock, "a2")
    env.managers.append(env.manager)
    await env.manager.start()
    good, _ = await left_alone(env)
    await remove_its_game(env, broken)
    sweeping = sweeper(env)
    caplog.set_level(logging.INFO)
    await env.clock.advance(RUNS_OUT_MS + 1)
    assert await sweeping.due.sweep() == [good]  # the broken room stops no other
    await sweeping.settled()
    assert len(late_moves(await env.store.read_log(good))) == 1
    assert len(failures(caplog, broken)) == 1
    assert await env.store.lease_holder(broken) is None  # given up for a later try
    # Put off until its next try, not the claim's 30 s.
    now_ms = EPOCH_S * 1000 + env.clock.now()
    assert await due_at(env.store, broken) == pytest.approx(now_ms + FIRST_RETRY_MS, abs=1000)
    # A player opening it is told at once, with no new try.
    with pytest.raises(RoomError) as refused:
        await sweeping.attach(broken, [broken_token], lambda message: None)
    assert refused.value.code == "room_unavailable"
    assert len(failures(caplog, broken)) == 1
    # Sweeping every 5 virtual minutes for half a day: tried at waits that double, up to
    # an hour, not at each of the 144 sweeps.
    tries_at = []
    for _ in range(144):
        await env.clock.advance(SWEEP_MS)
        await sweeping.due.sweep()
        if len(failures(caplog, broken)) > len(tries_at) + 1:
            tries_at.append(env.clock.now())
    waits = [b - a for a, b in zip(tries_at, tries_at[1:], strict=False)]
    assert len(tries_at) < 30
    assert waits[-1] >= MOST_RETRY_MS
    assert all(b >= a for a, b in zip(waits, waits[1:], strict=False))
    # Listed by its next try, so sweeps meanwhile do not even claim it.
    last_try_ms = EPOCH_S * 1000 + tries_at[-1]
    assert await due_at(env.store, broken) == pytest.approx(last_try_ms + MOST_RETRY_MS, abs=1000)
    lines = failures(caplog, broken)
    assert "withdrawn_game" in lines[0] and f"room {broken}" in lines[0]
    assert all(broken_token not in r.getMessage() for r in caplog.records)
    assert sweeping.live_codes() == [good]


async def test_a_corrupt_save_is_refused_with_room_unavailable_not_a_crash(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    code, token, player = await clocked_room(env, "days", "12h+1d")
    assert player.att is not None
    player.att.detach()
    await env.manager.unload(code)
    stored = await env.store.load(code)
    assert stored is not None
    await env.store.save(code, stored.version + 1, b"\xc1 not msgpack")
    for opening in (
        env.manager.room_summary(code),
        env.manager.attach(code, [token], lambda message: None),
        env.manager.attach(code, [token], lambda message: None),  # refused, not tried
    ):
        with pytest.raises(RoomError) as refused:
            await opening
        assert refused.value.code == "room_unavailable"
        assert failure(refused.value.code, refused.value.message).status_code == 503
    assert len(failures(caplog, code)) == 1
    assert await env.store.lease_holder(code) is None


async def test_your_rooms_answers_the_other_rooms_and_marks_the_unreadable_one(
    env: Env,
) -> None:
    good, good_token, _ = await clocked_room(env, "days", "12h+1d")
    corrupt, corrupt_token, _ = await clocked_room(env, "days", "12h+1d")
    withdrawn, withdrawn_token, _ = await clocked_room(env, "days", "12h+1d")
    for code in (corrupt, withdrawn):
        await env.manager.unload(code)
    stored = await env.store.load(corrupt)
    assert stored is not None
    await env.store.save(corrupt, stored.version + 1, b"\xc1 not msgpack")
    await remove_its_game(env, withdrawn)
    held = [(corrupt, corrupt_token), (good, good_token), (withdrawn, withdrawn_token)]
    answer = await env.manager.your_rooms([*held, (good, "not a token")])
    assert answer[0] == {"code": corrupt, "error": "room_unavailable"}
    assert answer[1]["code"] == good and answer[1]["seat"] == 0
    assert answer[2] == {"code": withdrawn, "error": "room_unavailable"}
    assert answer[3] == {"code": good, "error": "not_your_seat"}
