"""Whole Usunoro matches in a room on the virtual clock, saved to Redis."""

from __future__ import annotations

from server.games import registry
from server.rooms.history.replay import replay
from tests.rooms.helpers import Env, Player


async def test_one_human_and_three_cpus_play_a_match_to_the_end(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=3)
    player = await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.play_out(code)
    last = player.last
    assert last["room"]["status"] == "over"
    assert sorted(last["outcome"]["places"])[-1] == 4
    assert max(last["outcome"]["penalties"]) == 4


async def test_replaying_the_move_log_rebuilds_the_saved_state(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=5)
    await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.run(20_000)
    game = registry.get("usunoro")
    rebuilt = replay(game, await env.store.read_log(code))
    assert game.dump(rebuilt) == (await env.saved(code))["state"]


async def test_no_view_goes_out_before_its_version_is_saved(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=2)
    seen: list[tuple[int, int]] = []
    player = Player(grabs=True)
    original = player.listen

    def listen(message: dict) -> None:
        seen.append((message["version"], saved_version[0]))
        original(message)

    saved_version = [1]
    real_save = env.store.save

    async def save(
        code_: str, version: int, blob: bytes, log: list | None = None, delta: bool = False
    ) -> None:
        await real_save(code_, version, blob, log, delta)
        saved_version[0] = version

    env.store.save = save  # type: ignore[method-assign]
    player.listen = listen  # type: ignore[method-assign]
    await env.join(code, tokens, player)
    await env.manager.start_match(code, tokens[0])
    await env.run(10_000)
    assert len(seen) > 10
    assert all(version <= saved for version, saved in seen)
