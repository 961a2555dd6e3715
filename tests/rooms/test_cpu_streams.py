"""The CPUs' random streams: keyed per match by the room's secret, like later deals.

A room made as players make them (no fixed seed) gives every player match 1's seed in
its file; the CPUs' draws (their reaction times, their choices between equal plans) must
not follow from it, in that match or any later one.
"""

from __future__ import annotations

from server.bots.usunoro import POLICY
from server.games.usunoro import GAME
from server.rooms.actor.core import RoomCore, RoomSettings
from server.rooms.actor.seeds import cpu_streams
from server.rooms.seats.seat import Seat
from tests.rooms.helpers import Env, Player


def started(seed: int, series_key: int) -> RoomCore:
    """A playing Usunoro room: seat 0 a human host ("tok"), seats 1-3 CPUs."""
    settings = RoomSettings("usunoro", GAME.resolve_options({}), seed, 0, series_key=series_key)
    seats = [Seat("human", "Hana", "tok")] + [Seat("cpu") for _ in range(3)]
    core = RoomCore(settings, seats, GAME, POLICY)
    core.start("tok", 0.0)
    return core


def plans(core: RoomCore) -> list[tuple[object, int | None]]:
    """Each CPU seat's planned move and when it falls due."""
    return [(core.pending[s].action, core.pending[s].due) for s in (1, 2, 3)]


def test_the_first_matchs_cpus_do_not_draw_from_the_room_seed_alone() -> None:
    # The same seed deals the same hands; only the secret key tells the CPUs apart.
    one, again, other = started(7, 11), started(7, 11), started(7, 12)
    assert one.state["hands"] == other.state["hands"]
    assert one.rngs == again.rngs and plans(one) == plans(again)
    assert one.rngs != other.rngs and plans(one) != plans(other)


async def test_every_match_starts_on_streams_keyed_for_it(env: Env) -> None:
    code, _, token = await env.manager.create_room(
        "usunoro", {"length": "short"}, ["host", "cpu", "cpu", "cpu"]
    )
    await env.join(code, [token], Player(grabs=True))
    for match in (1, 2):
        await env.manager.start_match(code, token)
        saved = await env.saved(code)
        seed, key = saved["settings"]["seed"], saved["settings"]["series_key"]
        assert key and saved["match"] == match
        keyed = cpu_streams(seed, match, 4, key)
        # Seat 0 is human and draws nothing, so its stream shows as the start keyed it
        # (the CPUs have drawn from theirs already); the seed alone does not give it.
        assert saved["rngs"][0] == keyed[0] != cpu_streams(seed, match, 4)[0]
        await env.play_out(code)
