"""Usunoro's view patches: a patch applied to the view before equals the view after.

Random seeded playouts (marks, unmarks, grabs, next rounds and timers, in batches as a
room publishes them); after each batch, every seat's and the spectator's last view with
the batch's patch must equal its fresh view, whenever the engine offers patches.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.games.usunoro import GAME

VIEWERS: list[int | None] = [0, 1, 2, 3, None]


def playout(seed: int, options: dict[str, Any]) -> tuple[int, int]:
    """Play one seeded match in batches; returns (batches patched, batches in all)."""
    rnd = random.Random(seed)
    state = GAME.new(4, GAME.resolve_options(options), seed)
    before = GAME.views(state, VIEWERS)
    now, patched, batches = 0, 0, 0
    while GAME.outcome(state) is None and batches < 400:
        moves: list[tuple[int, dict[str, Any]]] = []
        events: list[dict[str, Any]] = []
        timed_out = False
        for _ in range(rnd.choice((1, 1, 1, 2, 3))):
            now += rnd.choice((5, 50, 500))
            deadline = GAME.deadline(state)
            if deadline is not None and deadline <= now:
                events += GAME.expire(state, deadline)
                timed_out = True
                continue
            seat = rnd.randrange(4)
            legal = GAME.actions(state, seat)
            if not legal:
                continue
            # Mostly marks, as in play; a grab now and then ends the passing.
            marks = [a for a in legal if a["type"] != "grab"] or legal
            action = rnd.choice(legal if rnd.random() < 0.05 else marks)
            apply = GAME.apply_cpu if rnd.random() < 0.3 else GAME.apply
            events += apply(state, seat, action, now)
            moves.append((seat, action))
        batches += 1
        after = GAME.views(state, VIEWERS)
        patches = None if timed_out else GAME.view_patches(state, VIEWERS, moves, events)
        if patches is not None:
            patched += 1
            for viewer in VIEWERS:
                assert {**before[viewer], **patches[viewer]} == after[viewer], (seed, viewer)
        before = after
    return patched, batches


@pytest.mark.parametrize(
    "options",
    [{}, {"open_hands": [1]}, {"idle_void_ms": 0, "direction": "previous"}, {"mark_timeout_ms": 0}],
)
def test_a_patch_on_the_view_before_is_the_view_after(options: dict[str, Any]) -> None:
    patched = batches = 0
    for seed in range(40):
        done = playout(seed, options)
        patched, batches = patched + done[0], batches + done[1]
    # Most batches are marks that run no exchange: the patches must be the usual case.
    assert patched > batches // 2, (patched, batches)


def test_anything_but_marking_sends_whole_views() -> None:
    state = GAME.new(4, GAME.resolve_options({}), 3)
    grab = {"type": "grab"}
    events = GAME.apply(state, 0, grab, 10)  # an early grab: the round ends
    assert GAME.view_patches(state, VIEWERS, [(0, grab)], events) is None
