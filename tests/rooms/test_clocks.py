"""Game time in rooms: CPU reaction windows, pause, hidden boards, the "shown" gate."""

from __future__ import annotations

import statistics

import pytest

from server.games.usunoro import TIMING
from tests.rooms.helpers import Env, Player


def reaction_times(messages: list[dict]) -> tuple[list[int], list[int]]:
    """(first-grab waits since the hand was shown, follow-up waits since the first grab)."""
    first, follow = [], []
    shown_at = grab_at = None
    for message in messages:
        at = message["room"]["game_ms"]
        for event in message["events"]:
            kind = event["type"]
            if kind == "hand_shown":
                shown_at = at
            elif kind == "first_grab" and shown_at is not None:
                first.append(at - shown_at)
                grab_at = at
            elif kind == "grab" and grab_at is not None:
                follow.append(at - grab_at)
    return first, follow


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
async def test_cpu_reactions_fall_inside_the_difficulty_windows(env: Env, difficulty: str) -> None:
    first: list[int] = []
    follow: list[int] = []
    for seed in range(4):
        code, tokens = await env.usunoro(humans=1, difficulty=difficulty, seed=seed)
        player = await env.join(code, tokens, Player(grabs=False))
        await env.manager.start_match(code, tokens[0])
        await env.play_out(code)
        got = reaction_times(player.messages)
        first += got[0]
        follow += got[1]
        player.att.detach()
    windows = TIMING[difficulty]
    for samples, (low, high) in ((first, windows["first_grab"]), (follow, windows["follow_up"])):
        assert len(samples) >= 12
        assert low <= min(samples) and max(samples) <= high
        assert abs(statistics.mean(samples) - (low + high) / 2) < (high - low) / 4


async def test_pause_stops_every_clock_and_resume_keeps_the_remaining_waits(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=4)
    player = await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.run(200)
    await player.att.pause()
    before = await env.saved(code)
    assert before["paused"] and before["cpu"]
    await env.run(60_000)
    after = await env.saved(code)
    assert (after["cpu"], after["game_ms"], after["state"]) == (
        before["cpu"],
        before["game_ms"],
        before["state"],
    )
    await player.att.resume()
    await env.run(0)
    first_due = min(due for _, action, due in before["cpu"] if action is not None)
    await env.run(first_due - before["game_ms"] + 1)
    log = await env.store.read_log(code)
    assert log[-1]["k"] == "m" and log[-1]["t"] == first_due


async def test_only_the_host_pauses_when_humans_use_several_devices(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, seed=1)
    await env.join(code, tokens[:1])
    guest = await env.join(code, tokens[1:])
    await env.manager.start_match(code, tokens[0])
    with pytest.raises(Exception, match="not_host"):
        await guest.att.pause()


async def test_a_hidden_board_stops_the_clock_until_shown_again(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=6)
    player = await env.join(code, tokens, Player(grabs=True))
    await env.manager.start_match(code, tokens[0])
    await env.run(100)
    player.att.visible(False)
    await env.run(0)
    hidden = await env.saved(code)
    await env.run(30_000)
    assert (await env.saved(code))["version"] == hidden["version"]
    player.att.visible(True)
    await env.run(2_000)
    assert (await env.saved(code))["version"] > hidden["version"]


async def test_a_new_hand_clock_waits_for_shown_reports_up_to_the_cap(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=8)
    await env.join(code, tokens, Player(report_shown=False, plays=False))
    await env.manager.start_match(code, tokens[0])
    due = min(d for _, a, d in (await env.saved(code))["cpu"] if a is not None)
    await env.run(1500 + due - 1)
    assert len(await env.store.read_log(code)) == 1
    await env.run(2)
    assert len(await env.store.read_log(code)) == 2


async def test_a_shown_report_starts_the_clock_at_once(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1, seed=8)
    player = await env.join(code, tokens, Player(report_shown=False, plays=False))
    await env.manager.start_match(code, tokens[0])
    due = min(d for _, a, d in (await env.saved(code))["cpu"] if a is not None)
    player.att.shown()
    await env.run(due)
    assert len(await env.store.read_log(code)) == 2
