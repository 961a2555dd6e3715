"""RULINGS U13 in the room: the idle void, the first grab's shown hold, open_hands."""

from __future__ import annotations

from typing import Any

import pytest

from server.rooms.errors import RoomError
from tests.rooms.helpers import Env, Player


class WallPlayer(Player):
    """A player that notes the wall time each message arrived at."""

    def __init__(self, env: Env, **kw: Any) -> None:
        super().__init__(**kw)
        self.env = env
        self.walls: list[float] = []

    def listen(self, message: dict[str, Any]) -> None:
        self.walls.append(self.env.clock.now())
        super().listen(message)


def event_walls(player: WallPlayer, kind: str) -> list[float]:
    """Wall times of the messages carrying an event of `kind`."""
    return [
        wall
        for wall, message in zip(player.walls, player.messages, strict=True)
        if any(e["type"] == kind for e in message.get("events", []))
    ]


async def test_u13_a_table_where_no_human_acts_is_voided_after_idle_void_ms(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=3)
    player = await env.join(code, tokens, Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    await env.run(125_000)
    view = player.last["view"]
    assert view["phase"] == "void" and view["result"]["reason"] == "idle"
    assert view["exchanges"] < 10


async def test_u13_the_first_grab_holds_the_follow_up_clock_for_shown(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=2)
    player = WallPlayer(env, report_shown=False)
    await env.join(code, tokens, player)
    await env.manager.start_match(code, tokens[0])
    for _ in range(600):
        if event_walls(player, "first_grab") and event_walls(player, "grab"):
            break
        await env.run(500)
    first = event_walls(player, "first_grab")[0]
    follow = [w for w in event_walls(player, "grab") if w > first]
    # CPU follow-ups take at most 1 s of game time; the clock stood for the 1.5 s cap.
    assert follow and follow[0] - first >= 1500


async def test_u13_open_hands_naming_a_cpu_seat_is_refused(env: Env) -> None:
    with pytest.raises(RoomError, match="bad_option"):
        await env.usunoro(humans=1, options={"open_hands": [0, 1]})
    # An open seat nobody took becomes a CPU at the start: refused then.
    code, _, token = await env.manager.create_room(
        "usunoro", {"open_hands": [0, 1]}, ["host", "open", "cpu", "cpu"]
    )
    with pytest.raises(RoomError, match="bad_option"):
        await env.manager.start_match(code, token)


async def test_u13_a_cpu_covering_the_human_does_not_hold_off_the_idle_void(env: Env) -> None:
    options = {"idle_void_ms": 4_000, "mark_timeout_ms": 0}
    code, tokens = await env.usunoro(humans=1, seed=3, options=options)
    player = await env.join(code, tokens, Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    await env.manager.hand_to_cpu(code, tokens[0], 0)
    await env.run(5_000)
    view = player.last["view"]
    assert player.last["seats"][0]["presence"] == "covered"
    assert view["exchanges"] >= 2  # the covering CPU marked for seat 0
    assert view["phase"] == "void" and view["result"]["reason"] == "idle"


async def test_u13_each_human_act_restarts_the_idle_void_on_one_timer(env: Env) -> None:
    options = {"idle_void_ms": 4_000, "mark_timeout_ms": 0}
    code, tokens = await env.usunoro(humans=4, seed=5, options=options)
    players = [await env.join(code, [token], Player(plays=False)) for token in tokens]
    await env.manager.start_match(code, tokens[0])
    await env.run(100)
    env.manager.due.stop()  # the process's due sweeps set timers of their own
    timers_before = env.clock.timers_set
    mover = players[0]
    for _ in range(12):  # 12 s of marks and unmarks, each restarting the 4 s void
        card = next(a for a in mover.last["legal"][0] if a["type"] == "mark")
        await mover.move(0, card)
        await env.run(500)
        await mover.move(0, {"type": "unmark"})
        await env.run(500)
    # Moving the wake later does not replace the room's timer: the one set for the
    # earliest wake fires early and sets the next, once per void period, not per act.
    assert env.clock.timers_set - timers_before <= 5, env.clock.timers_set - timers_before
    await env.run(3_400)  # 3.9 s after the last act: still passing
    assert mover.view(0)["phase"] == "passing"
    await env.run(200)
    assert mover.view(0)["phase"] == "void" and mover.view(0)["result"]["reason"] == "idle"
