"""The room's match history: every finished match of a play-again series is kept, and a
replay from a seat's eyes is exactly what that seat was sent live, for every game."""

from __future__ import annotations

from typing import Any

import pytest

from server.games import registry
from server.rooms.actor import core
from server.rooms.actor.seeds import match_seed
from server.rooms.errors import RoomError
from server.rooms.history.archive import Archive
from server.rooms.history.matches import Replayer, finished_matches, perspective_of, standings
from server.rooms.history.replay import replay
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, HUMAN, Recorder, play_matches


def follows(live: list[dict[str, Any]], replayed: list[dict[str, Any]]) -> int:
    """How many of the `live` views appear, in order, among the `replayed` ones (a view
    message can follow several inputs, and several messages can show one state)."""
    at = 0
    for matched, view in enumerate(live):
        while at < len(replayed) and replayed[at] != view:
            at += 1
        if at == len(replayed):
            return matched
    return len(live)


@pytest.mark.parametrize("game_id", GAMES)
async def test_two_matches_are_kept_and_seat_2s_replay_is_what_it_saw_live(
    env: Env, game_id: str
) -> None:
    code, _, recorder = await play_matches(env, game_id, seed=31, matches=2)
    game = registry.get(game_id)
    matches = finished_matches(await env.store.read_log(code))

    assert [m.number for m in matches] == [1, 2]
    assert matches[0].seed != matches[1].seed
    assert all(m.seats[HUMAN] == {"kind": "human", "name": "Hana"} for m in matches)
    assert all(
        m.started is not None and m.ended is not None and m.ended >= m.started for m in matches
    )
    for match in matches:
        replayer = Replayer(game, match)
        states = list(replayer.states(0))
        assert len(states) == replayer.steps == len(match.entries) + 1
        replayed = [replayer.step(i, s, HUMAN)["view"] for i, s in replayer.states(0)]
        live = recorder.seen[match.number]
        assert len(live) > 1
        assert follows(live, replayed) == len(live), (
            f"match {match.number}: a live view is not replayed"
        )
        assert live[-1] == replayed[-1] and live[0] == replayed[0]
        # Each step carries its events: together, the ones seat 2 was sent live.
        events = [e for i, s in replayer.states(0) for e in replayer.step(i, s, HUMAN)["events"]]
        assert events == recorder.events[match.number]
        # Later requests start from the checkpoints the first pass kept: same views.
        for start in {replayer.steps - 1, replayer.steps // 2, 33 % replayer.steps}:
            page, _ = replayer.page(start, 2, HUMAN, budget_s=1.0)
            assert [s["view"] for s in page] == replayed[start : start + 2]
        # The recorded result is the one the room announced when the match ended.
        outcome = replayer.step(replayer.steps - 1, states[-1][1], HUMAN)["outcome"]
        assert outcome == match.outcome
        assert match.summary()["places"] == match.outcome["places"]
    table = standings(matches)
    assert [row["played"] for row in table] == [2] * matches[0].n
    wins = [sum(1 for m in matches if m.outcome["places"][s] == 1) for s in range(matches[0].n)]
    assert [row["wins"] for row in table] == wins


async def test_a_match_still_being_played_is_not_history(env: Env) -> None:
    code, token, _ = await play_matches(env, "kokuto_rum", seed=32, matches=1)
    await env.manager.start_match(code, token)
    await env.run(3_000)
    log = await env.store.read_log(code)
    assert sum(1 for e in log if e["k"] == "start") == 2
    assert [m.number for m in finished_matches(log)] == [1]


def test_only_players_choose_a_perspective() -> None:
    assert perspective_of("2", 4, is_player=True) == 2
    assert perspective_of("open", 4, is_player=True) == "open"
    assert perspective_of("2", 4, is_player=False) is None
    assert perspective_of("open", 4, is_player=False) is None
    assert perspective_of(None, 4, is_player=True) is None
    with pytest.raises(ValueError, match="no seat"):
        perspective_of("4", 4, is_player=True)
    with pytest.raises(ValueError, match="no seat"):
        perspective_of("-1", 4, is_player=True)


async def test_a_finished_matchs_seed_in_its_file_does_not_tell_the_next_deal(env: Env) -> None:
    # A room made as players make them (no fixed seed): the file of match 1 holds the
    # room's own seed, and match 2's seed must not follow from it.
    code, _, token = await env.manager.create_room("kokuto_rum", {}, ["host", "cpu", "cpu"])
    await env.join(code, [token], Recorder(seed=1))
    for _ in range(2):
        await env.manager.start_match(code, token)
        await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
    first, second = finished_matches(await env.store.read_log(code))
    assert second.seed not in (match_seed(first.seed, 2), first.seed)
    saved = await env.saved(code)
    assert saved["settings"]["series_key"] != 0
    assert second.seed == match_seed(first.seed, 2, saved["settings"]["series_key"])


async def test_the_archive_gives_players_the_full_file_and_refuses_spectators_if_the_host_does(
    env: Env,
) -> None:
    manager = env.manager
    code, _, token = await manager.create_room(
        "kokuto_rum", {}, ["host", "cpu", "cpu"], seed=33, spectators=False
    )
    await env.join(code, [token], Recorder(seed=3))
    await manager.start_match(code, token)
    await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)
    archive = Archive(env.store, registry.get)

    assert (await archive.match_file(code, 1, token))["kind"] == "full"
    with pytest.raises(RoomError, match="no_spectators"):
        await archive.match_file(code, 1, None)
    with pytest.raises(RoomError, match="no_spectators"):
        await archive.steps(code, 1, None, "spectator", 0, 5)
    with pytest.raises(RoomError, match="bad_token"):
        await archive.match_file(code, 1, "someone-else")
    with pytest.raises(RoomError, match="match_not_found"):
        await archive.match_file(code, 2, token)
    page = await archive.steps(code, 1, token, "0", 0, 500)
    assert page["perspective"] == 0 and 1 <= len(page["steps"]) <= 100
    assert (await archive.listing(code))["matches"][0]["match"] == 1


async def test_the_log_keeps_the_latest_matches_only(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(core, "MAX_MATCHES_KEPT", 2)
    code, token, _ = await play_matches(env, "kokuto_rum", seed=34, matches=2)
    log = await env.store.read_log(code)
    assert [m.number for m in finished_matches(log)] == [1, 2]
    await env.manager.start_match(code, token)
    await env.play_out(code, limit_ms=24 * 3_600_000, step=5_000)

    log = await env.store.read_log(code)
    assert log[0]["k"] == "start" and log[0]["match"] == 2
    assert [m.number for m in finished_matches(log)] == [2, 3]
    assert len(log) == sum((await env.saved(code))["log_lengths"])
    game = registry.get("kokuto_rum")
    assert game.dump(replay(game, log)) == (await env.saved(code))["state"]
