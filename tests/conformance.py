"""The conformance checks every registered game must pass (see DESIGN.md, game contract).

`check_match` plays one seeded random match and raises AssertionError on the first
breach: a listed action that is refused, junk or another seat's move that is accepted or
that changes the state, non-determinism, a dump/load round trip that changes anything,
a view that differs once unseen cards are re-dealt, data that is not msgpack-safe, a
view, legal action, event or outcome that does not match the game's JSON Schema
(server/web/schemas/), or a match that does not end within the bound.

`check_worlds` takes a position (`positions` draws some from a random match): a sampled
world, or a CPU's decision at any level, that changes when the cards the seat cannot see
are rearranged (its view kept) is a breach too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from jsonschema.exceptions import best_match

from server.bots.registry import policy_for
from server.games.contract import DIFFICULTIES, Game, IllegalAction
from server.games.rng import Rng
from server.store import codec
from server.web import schemas
from tests.bench.bot_arena import situation

MAX_STEPS = 20_000
JUNK: list[Any] = [
    None,
    0,
    "grab",
    [],
    {},
    {"type": None},
    {"type": "no_such_move"},
    {"type": 7},
    {"type": "pass", "card": "ZZ9"},
    {"type": "play", "card": ["S1"]},
]


# How many values each part's schema has validated in this process (reported by the suite).
VALIDATED: Counter[str] = Counter()


def conforms(game: Game, part: str, value: Any) -> None:
    """Assert `value` matches the game's schema for `part` (games without a schema file,
    such as the suite's toy game, are not checked here; the suite requires one for every
    registered game)."""
    if not (schemas.HERE / f"{game.id}.json").is_file():
        return
    VALIDATED[part] += 1
    if schemas.fast_validator(game.id, part).is_valid(value):
        return
    error = best_match(schemas.validator(game.id, part).iter_errors(value))
    if error is not None:
        at = "/".join(str(p) for p in error.absolute_path)
        raise AssertionError(
            f"{game.id} {part} does not match server/web/schemas/{game.id}.json at "
            f"/{at}: {error.message}"
        )
    raise AssertionError(f"{game.id} {part} fails jsonschema-rs but not jsonschema: {value!r}")


def plain(value: Any, where: str) -> None:
    """Assert `value` survives msgpack unchanged (so no tuples, sets or objects)."""
    assert codec.unpack(codec.pack(value)) == value, f"{where} is not plain msgpack data"


def mutations(action: dict[str, Any]) -> list[Any]:
    """Near-miss variants of a legal action: each field replaced by something wrong."""
    out: list[Any] = []
    for key, value in action.items():
        for bad in (None, "??", -1, 10_000, [value], {"x": value}):
            if bad != value:
                out.append({**action, key: bad})
        out.append({k: v for k, v in action.items() if k != key})
    return out


def seats_to_move(game: Game, state: Any, seats: int) -> dict[int, list[dict[str, Any]]]:
    """Every seat's legal actions, for the seats that have some."""
    found = {}
    for s in range(seats):
        acts = game.actions(state, s)
        for a in acts:
            plain(a, f"action {a!r}")
        if acts:
            found[s] = acts
    return found


def check_refusals(
    game: Game,
    state: Any,
    seats: int,
    legal: dict[int, list[dict[str, Any]]],
    now: int,
    rng: random.Random,
) -> None:
    """Junk, near misses and other seats' moves raise IllegalAction and change nothing."""
    before = codec.pack(game.dump(state))
    candidates: list[Any] = list(JUNK)
    for acts in legal.values():
        sample = rng.sample(acts, min(3, len(acts)))
        candidates.extend(sample)
        for a in sample:
            candidates.extend(rng.sample(mutations(a), min(4, len(mutations(a)))))
    for seat in [*range(seats), seats, -1]:
        own = legal.get(seat, [])
        for cand in candidates:
            if cand in own:
                continue
            try:
                game.apply(state, seat, cand, now)
            except IllegalAction as exc:
                assert isinstance(exc.code, str) and exc.code, "IllegalAction needs a code"
            else:
                raise AssertionError(f"seat {seat} was allowed {cand!r}, not in its actions")
            assert codec.pack(game.dump(state)) == before, f"refused {cand!r} changed state"


def check_views(
    game: Game, state: Any, seats: int, rng: random.Random
) -> dict[int | None, dict[str, Any]]:
    """Views are plain data and identical after re-dealing what the viewer cannot see;
    `views` (all seats at once, as the room asks) equals `view` seat by seat. Returns
    every seat's view (the spectator's under None)."""
    before = codec.pack(game.dump(state))
    everyone = [*range(seats), None]
    together = game.views(state, everyone)
    assert list(together) == everyone, "views must answer for exactly the seats asked"
    for seat in everyone:
        view = game.view(state, seat)
        assert together[seat] == view, f"views() and view() differ for seat {seat}"
        plain(view, f"view of seat {seat}")
        conforms(game, "view", view)
        other = game.shuffle_unseen(state, seat, random.Random(rng.random()))
        assert game.view(other, seat) == view, (
            f"view of seat {seat} changes when unseen cards are re-dealt: it shows "
            "something that seat may not see"
        )
    assert codec.pack(game.dump(state)) == before, "view or shuffle_unseen changed the state"
    return together


def check_patches(
    game: Game,
    state: Any,
    before: dict[int | None, dict[str, Any]],
    legal_before: dict[int, list[Any]],
    move: tuple[int, dict[str, Any]],
    events: list[Any],
) -> None:
    """Where the game gives view patches for a move, each patched view before the move
    equals the view after it (so a patch shows no more than the view), and a seat whose
    legal moves the game calls kept (`actions_kept`) has the same ones as before."""
    everyone = list(before)
    patches = game.view_patches(state, everyone, [move], events)
    if patches is None:
        return
    assert list(patches) == everyone, "view_patches must answer for exactly the seats asked"
    for seat in everyone:
        plain(patches[seat], f"patch of seat {seat}")
        patched = {**before[seat], **patches[seat]}
        assert patched == game.view(state, seat), f"patched view of seat {seat} is wrong"
    for seat, legal in legal_before.items():
        if game.actions_kept(state, seat, [move], events):
            assert game.actions(state, seat) == legal, f"seat {seat}'s legal moves changed"


def check_events(game: Game, events: list[Any], checks: bool) -> None:
    """Each event matches the game's event schema (when checking)."""
    if checks:
        for event in events:
            conforms(game, "event", event)


def play(
    game: Game,
    seats: int,
    options: dict[str, Any],
    seed: int,
    *,
    checks: bool,
    roundtrip: bool,
    visit: Callable[[Any, dict[int, list[dict[str, Any]]]], None] | None = None,
) -> tuple[list[Any], bytes]:
    """One random match driven by `seed`; returns the event log and the final dump.

    `visit(state, legal)` is called at every step with the seats' legal moves (it must
    not change the state)."""
    driver = random.Random(seed)
    checker = random.Random(~seed)  # its own stream, so checks never change the match
    state = game.new(seats, game.resolve_options(options), seed)
    log: list[Any] = []
    now = 0
    for _ in range(MAX_STEPS):
        if roundtrip:
            data = game.dump(state)
            plain(data, "dump")
            state = game.load(codec.unpack(codec.pack(data)))
            assert codec.pack(game.dump(state)) == codec.pack(data), "dump(load(d)) != d"
            assert codec.pack(game.packable(state)) == codec.pack(data), "packable != dump"
        result = game.outcome(state)
        if result is not None:
            plain(result, "outcome")
            if checks:
                conforms(game, "outcome", result)
                for view in (game.view(state, s) for s in [*range(seats), None]):
                    conforms(game, "view", view)
            places = result.get("places")
            assert isinstance(places, list) and len(places) == seats, "outcome needs places"
            assert all(isinstance(p, int) and 1 <= p <= seats for p in places), places
            return log, codec.pack(game.dump(state))
        legal = seats_to_move(game, state, seats)
        if visit is not None:
            visit(state, legal)
        views: dict[int | None, dict[str, Any]] = {}
        legal_before = {s: game.actions(state, s) for s in range(seats)} if checks else {}
        if checks:
            for action in (a for acts in legal.values() for a in acts):
                conforms(game, "action", action)
            views = check_views(game, state, seats, checker)
            check_refusals(game, state, seats, legal, now, checker)
        due = game.deadline(state)
        if legal and (due is None or driver.random() < 0.97):
            now += driver.randrange(0, 400)
            if due is not None and now >= due:
                events = game.expire(state, now)
                log.append(["expire", now, events])
                check_events(game, events, checks)
                continue
            seat = driver.choice(sorted(legal))
            action = driver.choice(legal[seat])
            try:
                events = game.apply(state, seat, action, now)
            except IllegalAction as exc:
                raise AssertionError(
                    f"listed action {action!r} of seat {seat} refused: {exc}"
                ) from exc
            plain(events, "events")
            check_events(game, events, checks)
            if checks:
                check_patches(game, state, views, legal_before, (seat, action), events)
            log.append([seat, action, events])
        else:
            assert due is not None, "nobody can move, no timer runs, yet the match is not over"
            now = max(now, due)
            events = game.expire(state, now)
            plain(events, "events")
            check_events(game, events, checks)
            log.append(["expire", now, events])
    raise AssertionError(f"match did not end within {MAX_STEPS} steps")


def check_match(game: Game, seats: int, options: dict[str, Any], seed: int) -> None:
    """Every conformance check on one seeded random match."""
    log, final = play(game, seats, options, seed, checks=True, roundtrip=False)
    again_log, again_final = play(game, seats, options, seed, checks=False, roundtrip=False)
    assert (again_log, again_final) == (log, final), "same seed and inputs gave another match"
    rt_log, rt_final = play(game, seats, options, seed, checks=False, roundtrip=True)
    assert (rt_log, rt_final) == (log, final), "a dump/load round trip changed the match"


def positions(
    game: Game, seats: int, options: dict[str, Any], seed: int, count: int
) -> list[tuple[Any, int]]:
    """`count` (state, seat) positions of the random match of `seed` where that seat has
    a choice of moves, drawn evenly from the whole match (reservoir sampling)."""
    picker = random.Random(seed * 7 + 1)
    chosen: list[tuple[Any, int]] = []
    seen = 0

    def visit(state: Any, legal: dict[int, list[dict[str, Any]]]) -> None:
        nonlocal seen
        for seat, acts in legal.items():
            if len(acts) < 2:
                continue
            seen += 1
            if len(chosen) < count:
                chosen.append((game.copy(state), seat))
            elif (at := picker.randrange(seen)) < count:
                chosen[at] = (game.copy(state), seat)

    play(game, seats, options, seed, checks=False, roundtrip=False, visit=visit)
    return chosen


def decide(game: Game, state: Any, seat: int, difficulty: str, seed: int) -> Any:
    """The CPU's decision for `seat` as the room asks for it (one generator for the
    policy and its sampled worlds), and the generator's state after it."""
    rng = Rng.from_seed(seed)
    decision = policy_for(game.id).decide(situation(game, state, seat, difficulty, rng, rng))
    return decision, rng.state


def check_worlds(game: Game, state: Any, seat: int, seed: int) -> None:
    """What a seat samples and decides depends on its view (and its generator) alone.

    The cards `seat` cannot see are rearranged once (by `shuffle_unseen` itself, which
    keeps the view); from both arrangements, the same sampling generator must give the
    same world, and the CPU at every level the same decision.
    """
    other = game.shuffle_unseen(state, seat, random.Random(seed))
    assert game.view(other, seat) == game.view(state, seat), "the rearrangement shows"
    for make in (random.Random, Rng.from_seed):
        worlds = [
            codec.pack(game.dump(game.shuffle_unseen(s, seat, make(~seed)))) for s in (state, other)
        ]
        assert worlds[0] == worlds[1], (
            f"seat {seat}'s sampled world depends on where the cards it cannot see are, "
            "not on its view and the sampling generator alone"
        )
    for level in DIFFICULTIES:
        mine, theirs = (decide(game, s, seat, level, seed) for s in (state, other))
        assert mine == theirs, (
            f"the {level} CPU at seat {seat} decides differently when the cards it cannot "
            f"see are rearranged: {mine[0]} against {theirs[0]}"
        )
