"""A room's match history: its finished matches read from the move log, and their replays.

The store's move log of a room holds every match of its play-again series one after
another: a start entry {"k": "start", "n", "options", "seed", "cpu", "match", "seats",
"at"}, the engine inputs (moves "m", with "cpu": true on a CPU's; rule timers "x"), and
once the match is over an end entry {"k": "end", "match", "outcome", "at"}.
`finished_matches` cuts the log into one `MatchRecord` per finished match; a match still
being played (no end yet) is not history.

A `Replayer` rebuilds a finished match step by step: step 0 is the deal, step i the state
after the match's i-th input. It keeps a dump of the state every `CHECKPOINT_EVERY` steps,
so reaching any step later costs at most that many inputs. Views of a step come from the
engine's own `view`, so a replay from a seat's eyes shows exactly what the rules let that
seat see, and `perspective_of` decides which perspectives a caller may have.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from server.games.contract import Event, Game, IllegalAction

CHECKPOINT_EVERY = 32
SCORE_KEYS = ("scores", "penalties", "vp", "score", "homare")
ROUND_KEYS = ("hand_no", "deal", "round")


class ReplayError(ValueError):
    """An input of a match that does not apply: `step` is the 1-based input number."""

    def __init__(self, step: int, entry: dict[str, Any], reason: str) -> None:
        super().__init__(f"input {step} does not apply: {reason}")
        self.step = step
        self.entry = entry
        self.reason = reason


@dataclass
class MatchRecord:
    """One finished match: what it was dealt from, who sat, its inputs and its outcome."""

    number: int
    n: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    started: float | None
    ended: float | None
    outcome: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    cpu: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """What the room's match list shows: number, dates, seats, places, winners, scores."""
        places = list(self.outcome.get("places", []))
        return {
            "match": self.number,
            "started": self.started,
            "ended": self.ended,
            "seats": self.seats,
            "places": places,
            "winners": [s for s, place in enumerate(places) if place == 1],
            "scores": scores_of(self.outcome, self.n),
            "steps": len(self.entries) + 1,
        }


def scores_of(outcome: dict[str, Any], n: int) -> list[Any] | None:
    """The outcome's per-seat score list (scores, penalties or victory points), if any."""
    for key in SCORE_KEYS:
        value = outcome.get(key)
        if isinstance(value, list) and len(value) == n:
            return value
    return None


def finished_matches(log: list[dict[str, Any]]) -> list[MatchRecord]:
    """Every finished match in a room's move log, in play order."""
    matches: list[MatchRecord] = []
    current: MatchRecord | None = None
    for entry in log:
        kind = entry.get("k")
        if kind == "start":
            current = MatchRecord(
                number=int(entry.get("match", len(matches) + 1)),
                n=entry["n"],
                options=entry["options"],
                seed=entry["seed"],
                seats=list(entry.get("seats") or [{"kind": "", "name": ""}] * entry["n"]),
                started=entry.get("at"),
                ended=None,
                outcome={},
                cpu=list(entry.get("cpu", ())),
            )
        elif current is None:
            continue
        elif kind == "end":
            current.outcome = entry["outcome"]
            current.ended = entry.get("at")
            matches.append(current)
            current = None
        else:
            current.entries.append(entry)
    return matches


def standings(matches: list[MatchRecord]) -> list[dict[str, Any]]:
    """Per seat across the series: matches played, wins (first places) and the mean place."""
    if not matches:
        return []
    n = matches[-1].n
    table = []
    for seat in range(n):
        places = [m.outcome["places"][seat] for m in matches if seat < len(m.outcome["places"])]
        table.append(
            {
                "seat": seat,
                "name": matches[-1].seats[seat].get("name", ""),
                "played": len(places),
                "wins": sum(1 for p in places if p == 1),
                "mean_place": round(sum(places) / len(places), 2) if places else None,
            }
        )
    return table


def round_of(view: dict[str, Any]) -> Any:
    """The round (hand, deal) a spectator view is in, as the game numbers it."""
    for key in ROUND_KEYS:
        if view.get(key) is not None:
            return view[key]
    return None


def trick_of(view: dict[str, Any]) -> int | None:
    """How many tricks of the round have been played, for trick-taking games; else None."""
    trick, tricks = view.get("trick"), view.get("tricks")
    if isinstance(trick, int) and not isinstance(trick, bool):
        return trick
    if isinstance(tricks, list):
        if all(isinstance(t, int) for t in tricks):
            return sum(tricks)
        return len(tricks)
    return None


def scoreboard(view: dict[str, Any]) -> Any:
    """The running scores a spectator view shows (whatever the game keeps), or None."""
    for key in SCORE_KEYS:
        if view.get(key) is not None:
            return view[key]
    return None


def apply_entry(game: Game, state: Any, step: int, entry: dict[str, Any]) -> list[Event]:
    """Feed one recorded input to the engine and return its events (the public facts the
    room sent with it); ReplayError if it does not apply."""
    kind = entry.get("k")
    t = entry.get("t")
    if not isinstance(t, int) or isinstance(t, bool) or t < 0:
        raise ReplayError(step, entry, "its game time 't' is not a whole number of ms")
    if kind == "m":
        seat, action = entry.get("s"), entry.get("a")
        if not isinstance(seat, int) or not 0 <= seat < game.seat_count(state):
            raise ReplayError(step, entry, f"there is no seat {seat!r}")
        if not isinstance(action, dict):
            raise ReplayError(step, entry, "its action is not an object")
        apply = game.apply_cpu if entry.get("cpu") is True else game.apply
        try:
            return apply(state, seat, action, t)
        except IllegalAction as exc:
            raise ReplayError(step, entry, f"seat {seat} may not {action}: {exc.message}") from None
    if kind == "x":
        due = game.deadline(state)
        if due != t:
            raise ReplayError(step, entry, f"no rule timer is due at {t} ms (next: {due})")
        return game.expire(state, t)
    raise ReplayError(step, entry, f"unknown input kind {kind!r}")


class Replayer:
    """The steps of one finished match, rebuilt on demand from checkpoints."""

    def __init__(self, game: Game, match: MatchRecord) -> None:
        self.game = game
        self.match = match
        self.steps = len(match.entries) + 1
        self._checkpoints: dict[int, dict[str, Any]] = {}
        # Each step's events, kept as the steps are rebuilt (a checkpoint's step was
        # rebuilt in the pass that dumped it, so its events are here too).
        self._events: dict[int, list[Event]] = {0: []}

    def states(self, start: int = 0) -> Iterator[tuple[int, Any]]:
        """(step, state) from `start` to the last step; the state is changed in place
        between yields, so copy it to keep it."""
        base = max((c for c in self._checkpoints if c <= start), default=None)
        if base is None:
            match = self.match
            state = self.game.new(match.n, match.options, match.seed, cpu_seats=match.cpu)
            base = 0
        else:
            state = self.game.load(self._checkpoints[base])
        for step in range(base, self.steps):
            if step > base:
                self._events[step] = apply_entry(
                    self.game, state, step, self.match.entries[step - 1]
                )
            if step % CHECKPOINT_EVERY == 0 and step not in self._checkpoints:
                self._checkpoints[step] = self.game.dump(state)
            if step >= start:
                yield step, state

    def step(self, step: int, state: Any, perspective: int | str | None) -> dict[str, Any]:
        """One step as a replay shows it from `perspective` (a seat, None: a spectator,
        "open": every seat's view), with the moves the seat (every seat, when open) could
        make then, and the step's events (public facts, as the room sent them live; call
        it on a state from `states`). A move's action is shown only to its own seat (and
        with every hand open); others see who moved."""
        game, seats = self.game, range(self.match.n)
        public = game.view(state, None)
        record: dict[str, Any] = {
            "step": step,
            "kind": "deal",
            "t": 0,
            "round": round_of(public),
            "trick": trick_of(public),
            "events": self._events.get(step, []),
        }
        if step > 0:
            entry = self.match.entries[step - 1]
            record["t"] = entry["t"]
            if entry["k"] == "m":
                record["kind"], record["seat"] = "move", entry["s"]
                if perspective == "open" or perspective == entry["s"]:
                    record["action"] = entry["a"]
            else:
                record["kind"] = "timer"
        if perspective == "open":
            record["views"] = {s: game.view(state, s) for s in seats}
            record["legal"] = {s: game.actions(state, s) for s in seats}
        elif perspective is None:
            record["view"] = public
        else:
            assert isinstance(perspective, int)  # `perspective_of` gives a seat, None or "open"
            record["view"] = game.view(state, perspective)
            record["legal"] = game.actions(state, perspective)
        if step == self.steps - 1:
            record["outcome"] = game.outcome(state)
        return record

    def page(
        self, start: int, count: int, perspective: int | str | None, budget_s: float
    ) -> tuple[list[dict[str, Any]], int | None]:
        """Up to `count` steps from `start`, stopping early once `budget_s` of CPU is
        spent (at least one step is always given); returns (steps, next start or None)."""
        began = time.process_time()
        out: list[dict[str, Any]] = []
        for step, state in self.states(start):
            out.append(self.step(step, state, perspective))
            if len(out) >= count or time.process_time() - began >= budget_s:
                break
        following = start + len(out)
        return out, (following if following < self.steps else None)

    def results(self) -> list[dict[str, Any]]:
        """The recorded results: the scoreboard at the last step of every round."""
        results: list[dict[str, Any]] = []
        last: tuple[int, Any, Any] | None = None
        for step, state in self.states(0):
            public = self.game.view(state, None)
            now = round_of(public)
            if last is not None and now != last[1]:
                results.append({"step": last[0], "round": last[1], "scores": last[2]})
            last = (step, now, scoreboard(public))
        if last is not None:
            results.append({"step": last[0], "round": last[1], "scores": last[2]})
        return results


def perspective_of(asked: str | None, seats: int, is_player: bool) -> int | str | None:
    """The perspective a caller gets: a seat number, "open" (every hand, players only) or
    None (the spectator view). Anyone who holds no seat of the room gets only the
    spectator view, whatever they ask; ValueError for a perspective that does not exist."""
    if asked in (None, "", "spectator"):
        return None
    if asked == "open":
        return "open" if is_player else None
    if not asked.isdigit() or int(asked) >= seats:
        raise ValueError(f"no seat {asked[:8]!r}: ask for a seat number, open or spectator")
    return int(asked) if is_player else None
