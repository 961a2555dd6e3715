"""Play a first match's deal (server/rooms/first_match.py) without a clock, and find deals.

`play_first_round` runs the room core itself (no clock, no I/O) on the deal: the learner
at seat 0 makes the move the coach's hint gives it (`hinted`: asked when its legal moves
change, as coach.js asks) shortly after, unless a CPU move is due first, until the first
round is over. It records the coach's moments in the order they first came up, with the
same rules as client/web/coach.js (`momentOf`), and the game time the round took.

To choose new seeds, when a change to an engine or a policy loses a deal's moments
(tests/rooms/test_first_deals.py says which)::

    python -m tests.rooms.first_deals GAME [FIRST_SEED] [LAST_SEED]

prints the seeds whose first round has every moment, the shortest rounds last; put the
best in FIRST_DEALS.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

from server.bots.advice import advise, hint_seed
from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import Action, View
from server.games.usunoro import is_matching
from server.rooms.actor.core import RoomCore
from server.rooms.first_match import FIRST_DEALS, LEARNER, FirstDeal
from server.rooms.seats.seat import RoomSettings, Seat, hash_token

TOKEN = hash_token("learner")
# The learner answers this long (game ms) after its move opens: a quick reader.
ANSWER_MS = 300
MAX_STEPS = 5000
CLAIMS = ("pon", "chii", "ron")


def moment(game_id: str, view: View, legal: list[Action]) -> str | None:
    """The coach's moment for the learner's view and legal moves now, if any (coach.js
    `momentOf`)."""
    kinds = {a["type"] for a in legal}
    if game_id == "usunoro":
        if "grab" in kinds and (view["phase"] == "race" or is_matching(view["hand"])):
            return "grab"
        return "pass" if "mark" in kinds and view["mark"] is None else None
    if game_id == "utsuke":
        return "guess" if "guess" in kinds else "play" if "play" in kinds else None
    if game_id == "junocos":
        if "pick" in kinds:
            return "declare" if not view["open"][view["seat"]] else None
        return "play" if "play" in kinds else None
    if game_id == "hachinin_meri":
        if "declare" in kinds:
            return "declare"
        return "discard" if "discard" in kinds else "play" if "play" in kinds else None
    if game_id == "kokuto_rum":
        if any(a.get("knock") for a in legal):
            return "knock"
        return next((k for k in ("rotate", "draw", "insert") if k in kinds), None)
    if game_id == "shirokuro_jong":
        if kinds & {"ron", "tsumo"}:
            return "win"
        if kinds & set(CLAIMS):
            return "claim"
        return next((k for k in ("rotate", "insert", "discard") if k in kinds), None)
    return None


def round_over(game_id: str, view: View) -> bool:
    """Whether the learner's view shows the first round finished (coach.js `roundOver`)."""
    if game_id == "usunoro":
        return view["phase"] in ("done", "void")
    if game_id in ("utsuke", "kokuto_rum"):
        return view["last_round"] is not None
    if game_id == "junocos":
        return bool(view["history"])
    if game_id == "hachinin_meri":
        return view["previous"] is not None
    return view["phase"] in ("round_over", "over")


def hinted(core: RoomCore, legal: list[Action]) -> Action | None:
    """The move a hint gives the learner now, as the room works it out
    (server/rooms/actor/hints.py)."""
    if not legal:
        return None
    seed = hint_seed(core.seed_of_match(), LEARNER, core.step())
    advice = advise(core.game, core.state, LEARNER, seed)
    return advice.action if advice is not None else None


@dataclass
class Played:
    """A first round played: its moments in order, the learner's moves, the game time."""

    moments: list[str]
    learner_moves: int
    game_ms: int
    finished: bool


def play_first_round(
    game_id: str, deal: FirstDeal, seen_by_learner: list[tuple[View, list[Action]]] | None = None
) -> Played:
    """Play `deal`'s first round with the learner following the hints (module docstring);
    each (view, legal moves) the learner had is added to `seen_by_learner` if given."""
    game = registry.get(game_id)
    seats = [
        Seat("human", "", TOKEN) if kind == "host" else Seat(kind, "", "", deal.difficulty)
        for kind in deal.seats
    ]
    settings = RoomSettings(
        game_id, game.resolve_options(deal.options), deal.seed, LEARNER, difficulty=deal.difficulty
    )
    core = RoomCore(settings, seats, game, policy_for(game_id))
    wall, seq = 0.0, 0
    core.start(TOKEN, wall)
    core.set_running(True, wall)
    seen: list[str] = []
    asked: list[Action] | None = None  # the legal moves the last hint was asked for
    action: Action | None = None  # that hint's move
    for _ in range(MAX_STEPS):
        view = game.view(core.state, LEARNER)
        if core.status != "playing" or round_over(game_id, view):
            return Played(seen, seq, core.now(wall), True)
        legal = game.actions(core.state, LEARNER)
        if seen_by_learner is not None:
            seen_by_learner.append((view, legal))
        now = moment(game_id, view, legal)
        if now is not None and now not in seen:
            seen.append(now)
        if legal != asked:  # the coach asks for a hint when the learner's moves change
            asked, action = legal, hinted(core, legal)
        due = core.next_due()
        if action is not None and (due is None or due > core.now(wall) + ANSWER_MS):
            wall += ANSWER_MS
            core.fire_due(wall)
            if action in game.actions(core.state, LEARNER):
                seq += 1
                core.move(LEARNER, seq, action, wall)
            action = None
        elif due is not None:
            wall += max(1, due - core.now(wall))
            core.fire_due(wall)
        else:
            break
    return Played(seen, seq, core.now(wall), False)


def search(game_id: str, seeds: range) -> list[tuple[int, Played]]:
    """Seeds of `game_id`'s first deal whose first round has every moment, longest first."""
    deal = FIRST_DEALS[game_id]
    found = []
    for seed in seeds:
        played = play_first_round(game_id, replace(deal, seed=seed))
        if played.finished and set(deal.moments) <= set(played.moments):
            found.append((seed, played))
    return sorted(found, key=lambda item: -item[1].game_ms)


def main(argv: list[str]) -> None:
    """`GAME [FIRST_SEED] [LAST_SEED]`: print the seeds that fit, the shortest last."""
    game_id = argv[0]
    first = int(argv[1]) if len(argv) > 1 else 1
    last = int(argv[2]) if len(argv) > 2 else first + 99
    for seed, played in search(game_id, range(first, last + 1)):
        print(
            f"seed {seed}: {played.game_ms / 1000:.1f} s of game time, "
            f"{played.learner_moves} learner moves, moments {' '.join(played.moments)}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
