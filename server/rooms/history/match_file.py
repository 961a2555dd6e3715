"""The match file: a finished match exported as JSON, and its verification.

Format "zashiki-match", version 1 (JSON Schema: `match.schema.json` beside this module;
described in server/web/PROTOCOL.md). Two kinds:

- "full" (for the room's players): the seed (a decimal string; files from before that
  hold an integer, also read), options, seats (and which a CPU played from the deal)
  and every engine input, with
  the results recorded when it was exported (the scoreboard at the end of every round)
  and the outcome. Anyone can re-run it through the engine: `verify` does, and
  `zashiki replay FILE` prints it as text.
- "spectator" (for anyone else): no seed and no inputs, only the spectator view at every
  step, so it tells nothing a spectator could not see.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.games import registry
from server.games.contract import Game
from server.rooms.history.matches import MatchRecord, Replayer, ReplayError, round_of, scoreboard

FORMAT = "zashiki-match"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("match.schema.json")


class MatchFileError(ValueError):
    """A match file that is malformed or does not re-run to what it records."""


def export_full(game: Game, code: str, match: MatchRecord, replayer: Replayer) -> dict[str, Any]:
    """The players' match file: everything needed to re-run and check the match."""
    return {
        **_header(game, code, match, "full"),
        # A decimal string: JSON numbers past 2**53 do not survive most parsers (RFC 8259
        # calls them not interoperable), and a seed is up to 62 bits.
        "seed": str(match.seed),
        "cpu": match.cpu,
        "inputs": [_input(e) for e in match.entries],
        "results": replayer.results(),
    }


def export_spectator(
    game: Game, code: str, match: MatchRecord, replayer: Replayer
) -> dict[str, Any]:
    """The spectators' match file: the spectator view and the public events of every step."""
    steps = [replayer.step(i, state, None) for i, state in replayer.states(0)]
    return {**_header(game, code, match, "spectator"), "steps": steps}


def _header(game: Game, code: str, match: MatchRecord, kind: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "game": game.id,
        "room": code,
        "match": match.number,
        "started": match.started,
        "ended": match.ended,
        "seats": [{"kind": s.get("kind", ""), "name": s.get("name", "")} for s in match.seats],
        "options": match.options,
        "outcome": match.outcome,
    }


def _input(entry: dict[str, Any]) -> dict[str, Any]:
    if entry["k"] == "m":
        move = {"k": "m", "s": entry["s"], "a": entry["a"], "t": entry["t"]}
        return {**move, "cpu": True} if entry.get("cpu") else move
    return {"k": "x", "t": entry["t"]}


@dataclass
class Verified:
    """A match file that re-ran to exactly what it records, and its text."""

    game: Game
    match: MatchRecord
    lines: list[str] = field(default_factory=list)


def load_file(path: str | Path) -> dict[str, Any]:
    """The JSON object in a match file; MatchFileError if it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise MatchFileError(f"cannot read {path}: {exc}") from None
    except ValueError as exc:
        raise MatchFileError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise MatchFileError(f"{path} does not hold a JSON object")
    return data


def verify(data: dict[str, Any]) -> Verified:
    """Re-run a full match file through its engine, checking every input applies and
    every recorded result and the outcome come out the same; the match as text.

    Raises MatchFileError naming the first thing that does not hold.
    """
    game, match = _parse(data)
    replayer = Replayer(game, match)
    lines = [f"{game.title} — room {data.get('room', '?')}, match {match.number}"]
    seat_names = [_seat_name(i, s) for i, s in enumerate(match.seats)]
    lines.append("Seats: " + ", ".join(seat_names))
    current: Any = object()
    scores: Any = None
    final: dict[str, Any] | None = None
    try:
        for step, state in replayer.states(0):
            public = game.view(state, None)
            now = round_of(public)
            if now != current:
                if step > 0:
                    lines.append(f"  scores: {json.dumps(scores, ensure_ascii=False)}")
                current = now
                lines.append(f"Round {now}:" if now is not None else "Deal:")
                for seat in range(match.n):
                    hand = game.view(state, seat).get("hand")
                    lines.append(f"  {seat_names[seat]} holds {_cards(hand)}")
            if step > 0:
                lines.append("    " + _move_text(match.entries[step - 1], seat_names))
            scores = scoreboard(public)
            final = game.outcome(state)
    except ReplayError as exc:
        raise MatchFileError(f"{exc} ({json.dumps(exc.entry, ensure_ascii=False)[:200]})") from None
    lines.append(f"  scores: {json.dumps(scores, ensure_ascii=False)}")
    recorded = data.get("results")
    if recorded is not None:
        rebuilt = replayer.results()
        for want, got in zip(recorded, rebuilt, strict=False):
            if want != got:
                raise MatchFileError(
                    f"recorded result at step {want.get('step')} (round {want.get('round')}) "
                    f"is {json.dumps(want.get('scores'))}, the engine gives {json.dumps(got)}"
                )
        if len(recorded) != len(rebuilt):
            raise MatchFileError(
                f"{len(recorded)} round results are recorded, the engine gives {len(rebuilt)}"
            )
    if final is None:
        raise MatchFileError("the inputs end before the match is over")
    if final != match.outcome:
        raise MatchFileError(
            f"the recorded outcome {json.dumps(match.outcome)} differs from the engine's "
            f"{json.dumps(final)}"
        )
    places = final.get("places", [])
    lines.append("Result: " + ", ".join(f"{seat_names[s]} place {p}" for s, p in enumerate(places)))
    return Verified(game, match, lines)


def _parse(data: dict[str, Any]) -> tuple[Game, MatchRecord]:
    if data.get("format") != FORMAT:
        raise MatchFileError(f"not a Zashiki match file (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise MatchFileError(f"match file version {data.get('version')!r}; this reads {VERSION}")
    if data.get("kind") != "full":
        raise MatchFileError(
            "a spectator match file holds views only, no seed or moves, so it cannot be re-run"
        )
    try:
        game = registry.get(str(data.get("game")))
    except KeyError:
        raise MatchFileError(f"unknown game {str(data.get('game'))[:40]!r}") from None
    seats, inputs = data.get("seats"), data.get("inputs")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise MatchFileError("'seats' must be a list of objects")
    if not isinstance(inputs, list) or not all(isinstance(e, dict) for e in inputs):
        raise MatchFileError("'inputs' must be a list of objects")
    seed, options, outcome = data.get("seed"), data.get("options"), data.get("outcome")
    cpu = data.get("cpu", [])
    if not isinstance(cpu, list) or not all(
        isinstance(s, int) and 0 <= s < len(seats) for s in cpu
    ):
        raise MatchFileError("'cpu' must list seat numbers")
    # A decimal string; files from before that hold a JSON integer.
    if isinstance(seed, str) and seed.isdigit() and seed.isascii() and len(seed) <= 20:
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise MatchFileError("'seed' must be a whole number as a decimal string")
    if not isinstance(options, dict) or not isinstance(outcome, dict):
        raise MatchFileError("'options' and 'outcome' must be objects")
    try:
        game.check_options(game.resolve_options(options), len(seats), cpu)
    except ValueError as exc:
        raise MatchFileError(f"bad options: {exc}") from None
    if not game.min_seats <= len(seats) <= game.max_seats:
        raise MatchFileError(f"{game.id} takes {game.min_seats} to {game.max_seats} seats")
    match = MatchRecord(
        number=int(data.get("match") or 1),
        n=len(seats),
        options=options,
        seed=seed,
        seats=seats,
        started=data.get("started"),
        ended=data.get("ended"),
        outcome=outcome,
        entries=inputs,
        cpu=cpu,
    )
    return game, match


def _seat_name(seat: int, info: dict[str, Any]) -> str:
    name = str(info.get("name") or "")[:40]
    kind = "CPU" if info.get("kind") == "cpu" else ""
    label = f"seat {seat + 1}"
    return f"{label} ({name or kind})" if name or kind else label


def _cards(hand: Any) -> str:
    if isinstance(hand, list):
        return " ".join(str(c) for c in hand) or "nothing"
    return json.dumps(hand, ensure_ascii=False)


def _move_text(entry: dict[str, Any], seat_names: list[str]) -> str:
    at = f"{entry['t'] / 1000:6.1f} s"
    if entry["k"] == "x":
        return f"{at}  rule timer fires"
    return f"{at}  {seat_names[entry['s']]}: {json.dumps(entry['a'], ensure_ascii=False)}"
