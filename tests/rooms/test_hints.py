"""Hints in rooms: the Hard CPU's move for the asking seat, to that attachment alone,
from the seat's view and the match's seed and step; refusals; each seat's count, public
and saved; the host's setting in the lobby; helpers in the views while hints are on."""

from __future__ import annotations

from typing import Any

import pytest

from server.bots.advice import advise, hint_seed
from server.games import registry
from server.rooms.errors import RoomError
from tests.rooms.helpers import Env, Player
from tests.rooms.test_relay import anchor, join, running

KOKUTO = registry.get("kokuto_rum")


async def kokuto(env: Env, **kw: Any) -> tuple[str, str, Player, Player]:
    """A started Kokuto room, the host (seat 0) against a CPU, with the host and a
    spectator attached."""
    code, _, token = await env.manager.create_room(
        "kokuto_rum", {}, ["host", "cpu"], "normal", seed=11, **kw
    )
    host = await env.join(code, [token])
    watcher = await env.join(code, [])
    await env.manager.start_match(code, token)
    await env.settle()
    return code, token, host, watcher


def expected(env: Env, code: str, seat: int) -> dict[str, Any]:
    """The hint a room should give `seat` now, worked out here from its core."""
    core = env.manager.live.rooms[code].core
    seed = hint_seed(core.seed_of_match(), seat, core.step())
    advice = advise(core.game, core.state, seat, seed)
    assert advice is not None
    return {"t": "hint", "seat": seat, "move": advice.action, "why": advice.why}


async def test_a_hint_goes_to_the_asker_alone_and_counts_once_per_decision(env: Env) -> None:
    code, _, host, watcher = await kokuto(env)
    assert host.att is not None
    assert host.last["room"]["hints"] is True and "hints_used" not in host.last["room"]
    version, heard = env.manager.inspect(code)["version"], len(watcher.messages)
    want = expected(env, code, 0)
    hint = await host.att.hint(0)
    assert hint == want
    assert hint["move"] in host.last["legal"][0]
    assert set(hint["why"]) == {"en", "ja"}
    # Asked again at the same decision: the same answer, counted once; nobody else heard.
    assert await host.att.hint(0) == want
    await env.manager.settled()
    assert len(watcher.messages) == heard
    assert env.manager.inspect(code)["version"] == version
    assert env.manager.inspect(code)["hints_used"] == [1, 0]
    # The move it names is accepted, and the count is public and saved with the room.
    await host.move(0, hint["move"])
    await env.manager.settled()
    assert watcher.last["room"]["hints_used"] == [1, 0]
    assert (await env.saved(code))["hints_used"] == [1, 0]


async def test_refusals(env: Env) -> None:
    code, token, host, watcher = await kokuto(env)
    assert host.att is not None and watcher.att is not None
    with pytest.raises(RoomError, match="not_your_seat"):
        await host.att.hint(1)
    with pytest.raises(RoomError, match="not_your_seat"):
        await watcher.att.hint(0)
    # Play until the host has nothing to decide (the CPU's turn), then ask.
    for _ in range(50):
        if not host.last["legal"].get(0):
            break
        await host.move(0, (await host.att.hint(0))["move"])
        await env.manager.settled()
    else:
        pytest.fail("the host always had a move")
    with pytest.raises(RoomError, match="not_your_decision"):
        await host.att.hint(0)
    with pytest.raises(RoomError, match="already_started"):
        await env.manager.set_hints(code, token, False)
    off, _, off_token = await env.manager.create_room(
        "kokuto_rum", {}, ["host", "cpu"], seed=11, hints=False
    )
    player = await env.join(off, [off_token])
    await env.manager.start_match(off, off_token)
    await env.settle()
    assert player.att is not None and player.last["room"]["hints"] is False
    with pytest.raises(RoomError, match="hints_off"):
        await player.att.hint(0)
    assert "helpers" not in player.last


async def test_the_host_sets_hints_in_the_lobby(env: Env) -> None:
    code, (host_token, friend_token) = await env.usunoro(humans=2)
    friend = await env.join(code, [friend_token])
    with pytest.raises(RoomError, match="not_host"):
        await env.manager.set_hints(code, friend_token, False)
    await env.manager.set_hints(code, host_token, False)
    await env.manager.settled()
    assert (await env.manager.room_summary(code))["hints"] is False
    assert friend.last["room"]["hints"] is False
    assert (await env.saved(code))["settings"]["hints"] is False
    await env.manager.start_match(code, host_token)
    await env.settle()
    assert friend.att is not None
    with pytest.raises(RoomError, match="hints_off"):
        await friend.att.hint(1)


async def test_views_carry_each_seats_helpers_while_hints_are_on(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    def helpers(self: Any, view: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": "deadwood", "en": f"{len(view['hand'])} cards", "ja": "手札"}]

    monkeypatch.setattr(type(KOKUTO), "helpers", helpers)
    code, _, host, watcher = await kokuto(env)
    hand = len(host.last["view"]["hand"])
    assert host.last["helpers"] == {0: [{"id": "deadwood", "en": f"{hand} cards", "ja": "手札"}]}
    assert "helpers" not in watcher.last
    await host.move(0, host.last["legal"][0][0])
    await env.manager.settled()
    assert host.last["helpers"][0][0]["en"] == f"{len(host.last['view']['hand'])} cards"


async def test_a_hint_through_another_process() -> None:
    async with running("memory", "") as (a, b):
        code, _, token = await a.manager.create_room("kokuto_rum", {}, ["host", "cpu"], seed=11)
        await anchor(a, code)
        await a.manager.start_match(code, token)
        await a.manager.settled()
        client = await join(b, code, [token])
        assert a.manager.live_codes() == [code] and b.manager.live_codes() == []
        core = a.manager.live.rooms[code].core
        seed = hint_seed(core.seed_of_match(), 0, core.step())
        advice = advise(core.game, core.state, 0, seed)
        assert advice is not None
        hint = await client.att.hint(0)
        assert hint == {"t": "hint", "seat": 0, "move": advice.action, "why": advice.why}
        with pytest.raises(RoomError, match="not_your_seat"):
            await client.att.hint(1)
