"""Golden transcript: one whole seeded standard Usunoro match, replayed move by move.

The transcript was recorded by `record` below: seats 1-3 are CPUs (easy, normal, hard)
and seat 0 is an idle human who never marks (the marking timeout marks for it) but grabs
like a hard CPU. Regenerated for RULINGS U13 (2026-12-01): the engine is told seats 1-3
are CPUs, so their marks no longer hold off the idle void. The test replays the recorded
inputs and checks every event, the outcome and the final dump. Regenerate only on purpose, with
    ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_usunoro_golden.py
"""

from __future__ import annotations

from typing import Any

from server.bots.contract import Situation
from server.bots.usunoro import POLICY
from server.games.rng import Rng
from server.games.usunoro import GAME
from tests.games.golden import golden as stored

SEED = 2026
OPTIONS: dict[str, Any] = {}
CPU_SEATS = [1, 2, 3]
DIFFICULTIES = ["hard", "easy", "normal", "hard"]


def test_golden_usunoro_match_replays_identically() -> None:
    golden = stored("usunoro_match.json", lambda: record(SEED), layout="compact")
    options = GAME.resolve_options(golden["options"])
    state = GAME.new(4, options, golden["seed"], cpu_seats=golden["cpu_seats"])
    for step, (now, seat, action, events) in enumerate(golden["steps"]):
        got = GAME.expire(state, now) if seat is None else GAME.apply(state, seat, action, now)
        assert got == events, f"step {step} at {now} ms"
    assert GAME.outcome(state) == golden["outcome"]
    assert GAME.dump(state) == golden["final"]


def record(seed: int) -> dict[str, Any]:
    """Play the match with CPU policies on game time and record every input and event.

    A seat's pending decision is kept until the next hand is shown or the first grab is
    made (as the room does); equal due times fire in the deal's tie order.
    """
    state = GAME.new(4, GAME.resolve_options(OPTIONS), seed, cpu_seats=CPU_SEATS)
    rngs = [Rng.from_seed(seed + s) for s in range(4)]
    pending: dict[int, tuple[int, dict[str, Any]]] = {}
    steps: list[list[Any]] = []
    now = 0
    while GAME.outcome(state) is None:
        for s in range(4):
            if s in pending or not GAME.actions(state, s):
                continue
            view = GAME.view(state, s)
            if s == 0 and view["phase"] == "passing" and view["hand"]:
                view = {**view, "mark": "idle"}  # the idle human never marks
            situation = Situation(
                GAME, s, view, GAME.actions(state, s), DIFFICULTIES[s], rngs[s], lambda: None
            )
            decision = POLICY.decide(situation)
            if decision is not None:
                pending[s] = (now + decision.delay_ms, decision.action)
        order = state["tie_order"]
        due = GAME.deadline(state)
        if pending:
            seat = min(pending, key=lambda s: (pending[s][0], order.index(s)))
            at, action = pending[seat]
            if due is None or at < due:
                now = at
                del pending[seat]
                if action in GAME.actions(state, seat):
                    events = GAME.apply(state, seat, action, now)
                    steps.append([now, seat, action, events])
                    if any(e["type"] in ("hand_shown", "first_grab") for e in events):
                        pending.clear()
                continue
        if due is not None:
            now = max(now, due)
            events = GAME.expire(state, now)
            steps.append([now, None, None, events])
            pending.clear()
            continue
        events = GAME.apply(state, 0, {"type": "next"}, now)
        steps.append([now, 0, {"type": "next"}, events])
        pending.clear()
    return {
        "seed": seed,
        "options": OPTIONS,
        "cpu_seats": CPU_SEATS,
        "steps": steps,
        "outcome": GAME.outcome(state),
        "final": GAME.dump(state),
    }
