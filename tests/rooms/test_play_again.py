"""Play again: the host's start on a finished room begins the next match in the same room."""

from __future__ import annotations

import pytest

from server.games.usunoro import Usunoro
from server.rooms.actor.seeds import match_seed
from server.rooms.errors import RoomError
from server.rooms.history.replay import replay
from server.store import codec
from tests.rooms.helpers import Env, Player, undated

SHORT = {"length": "short"}


async def finished_room(env: Env, seed: int = 21, humans: int = 1) -> tuple[str, list[str], Player]:
    """A short Usunoro room whose first match was played to its end by a grabbing player."""
    code, tokens = await env.usunoro(humans=humans, seed=seed, options=SHORT)
    player = await env.join(code, tokens[:1], Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.play_out(code)
    return code, tokens, player


def starts(log: list[dict]) -> list[int]:
    """Indexes of the start entries of a move log."""
    return [i for i, entry in enumerate(log) if entry["k"] == "start"]


async def test_the_hosts_start_on_a_finished_room_deals_a_new_match(env: Env) -> None:
    code, tokens, player = await finished_room(env)
    first = await env.saved(code)
    assert first["status"] == "over" and first["match"] == 1 and first["game_ms"] > 0
    assert "outcome" in player.last
    seq = player.att.last_seqs()[0]
    assert seq > 0

    await env.manager.start_match(code, tokens[0])

    summary = await env.manager.room_summary(code)
    assert summary["status"] == "playing" and summary["match"] == 2
    last = player.last
    assert last["room"]["status"] == "playing" and last["room"]["match"] == 2
    assert last["room"]["game_ms"] == 0 and "outcome" not in last and last["legal"][0]
    assert {"type": "match_started", "match": 2} in last["events"]
    second = env.manager.inspect(code)
    assert second is not None and second["game_ms"] == 0
    assert second["state"]["hands"] != first["state"]["hands"]
    assert second["state"]["penalties"] == [0, 0, 0, 0] and second["state"]["round"] == 1
    assert player.att.last_seqs() == {0: seq}


async def test_the_next_match_deals_from_the_seed_of_its_number_and_replays_from_the_log(
    env: Env,
) -> None:
    code, tokens, player = await finished_room(env, seed=22)
    await env.manager.start_match(code, tokens[0])
    await env.run(1_500)
    log = await env.store.read_log(code)
    first, second = starts(log)
    assert first == 0 and log[first]["seed"] == 22 and log[second]["seed"] == match_seed(22, 2)
    assert any(entry["k"] == "m" for entry in log[second:])
    # Game time starts again at 0: the second match's entries are timed from its start.
    assert max(entry["t"] for entry in log[second + 1 :]) <= 1_500
    live = env.manager.inspect(code)
    assert live is not None and live["status"] == "playing"
    assert Usunoro().dump(replay(Usunoro(), log)) == live["state"]


async def test_move_numbers_go_on_across_matches(env: Env) -> None:
    code, tokens, player = await finished_room(env, seed=23)
    seq = player.att.last_seqs()[0]
    await env.manager.start_match(code, tokens[0])
    mark = next(a for a in player.last["legal"][0] if a["type"] == "mark")
    with pytest.raises(RoomError, match="stale_seq"):
        await player.att.move(0, seq - 1, mark)
    repeated = await player.att.move(0, seq, mark)  # the old answer, not a new move
    assert repeated["seq"] == seq and env.manager.inspect(code)["state"]["marks"][0] is None
    assert (await player.att.move(0, seq + 1, mark))["ok"]
    assert player.att.last_seqs() == {0: seq + 1}


async def test_only_the_host_starts_the_next_match_and_not_while_one_is_played(env: Env) -> None:
    code, tokens, _ = await finished_room(env, seed=24, humans=2)
    with pytest.raises(RoomError, match="not_host"):
        await env.manager.start_match(code, tokens[1])
    assert (await env.manager.room_summary(code))["status"] == "over"
    await env.manager.start_match(code, tokens[0])
    with pytest.raises(RoomError, match="already_started"):
        await env.manager.start_match(code, tokens[0])
    summary = await env.manager.room_summary(code)
    assert summary["status"] == "playing" and summary["match"] == 2
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "cpu", "cpu"]


async def play_two_matches(env: Env, seed: int, crash_at_ms: float | None) -> list[dict]:
    """Two matches; with `crash_at_ms`, the room is dropped that far into the second one
    and resumed by manager b. The store's whole log."""
    code, tokens, player = await finished_room(env, seed=seed)
    await env.manager.start_match(code, tokens[0])
    if crash_at_ms is not None:
        await env.run(crash_at_ms)
        saved = await env.saved(code)
        assert saved["status"] == "playing"
        await env.manager.unload(code)
        env.new_manager("b")
        player.att = None
        env.players.remove(player)
        player = await env.join(code, tokens, player)
        loaded = env.manager.inspect(code)
        assert loaded is not None and loaded["match"] == 2
        for key in ("state", "cpu", "game_ms", "rngs", "seqs", "seats"):
            assert loaded[key] == saved[key], key
    await env.play_out(code)
    return await env.store.read_log(code)


async def test_a_room_reloaded_mid_second_match_plays_on_exactly(env: Env) -> None:
    reference = await play_two_matches(env, seed=25, crash_at_ms=None)
    resumed = await play_two_matches(env, seed=25, crash_at_ms=1_234)
    # Match starts and ends carry the wall time they happened at; the rest is identical.
    assert len(starts(resumed)) == 2 and undated(resumed) == undated(reference)


async def test_a_save_from_before_play_again_loads_as_match_one(env: Env) -> None:
    code, tokens, _ = await finished_room(env, seed=26)
    await env.manager.unload(code)
    stored = await env.store.load(code)
    old = codec.unpack(stored.blob)
    del old["match"]
    await env.store.save(code, stored.version + 1, codec.pack(old), [])
    env.new_manager("b")
    assert (await env.manager.room_summary(code))["match"] == 1
    await env.manager.start_match(code, tokens[0])
    log = await env.store.read_log(code)
    assert log[starts(log)[1]]["seed"] == match_seed(26, 2)
    assert (await env.manager.room_summary(code))["match"] == 2


async def test_a_finished_match_cannot_be_paused_so_the_next_one_starts_running(env: Env) -> None:
    code, tokens, player = await finished_room(env, seed=26)
    with pytest.raises(RoomError, match="match_over"):
        await player.att.pause()
    await env.manager.start_match(code, tokens[0])
    assert player.last["room"]["paused"] is False
