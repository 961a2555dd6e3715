"""感想戦 (review together): the Hard CPU's opinion on every human move of a finished match.

`analyse` replays the match (`Replayer`) and, before each move a human made, asks
`server.bots.advice.advise` for that seat with the seed a hint would have had then
(`hint_seed(match seed, seat, step)`, the step being how many inputs came before): the
CPU's move from that seat's view alone. Each move is marked agree (the CPU makes the same
move) or differ (with the CPU's move, the card it names and its `why`). A move the CPU
would not make at all (`advise` gives None: it would let the time run) is marked with no
opinion and left out of the agreement rate. CPU seats' moves (and a covering CPU's) are
not marked.

How large a difference is. The Hard policies give a move, not a value for each move, so
there is no point loss to rank by. What the policy can tell is how firm its choice was:
a difference is asked again with `ALSO_ASKED` other seeds (other samples of the cards the
seat cannot see) and its `size` is the share of all the asks that did not choose the
player's move (from 1/(ALSO_ASKED + 1) to 1). The largest differences are a player's
`LARGEST` differences of largest size, earliest first among equals. A policy that samples
nothing gives 1 to every difference; its largest are then simply the first ones.

What a viewer may see (`for_viewer`): the marks of the seat they look from in full;
every other seat's marks only as agree or differ with the size (never the CPU's move,
card or reason: those come from that seat's hand), unless the player looks with every
hand open; a spectator gets agree or differ only. The players' agreement rates and the
steps of their largest differences are public, as the result of a match is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from server.bots.advice import advise, hint_seed
from server.games.contract import Action, Game
from server.rooms.history.matches import MatchRecord, Replayer

VERSION = 1
"""Kept with each stored review: a review made by another version is made again."""
ALSO_ASKED = 3
LARGEST = 3
HIDDEN_KEYS = ("cpu", "card", "why")  # what only the marked seat (or open hands) may see


def also_seed(seed: int, k: int) -> int:
    """The k-th other seed a difference is asked again with (64 bits).

    >>> also_seed(5, 1) != also_seed(5, 2)
    True
    """
    text = f"review:{seed}:{k}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def card_of(view: dict[str, Any], action: Action) -> Any:
    """The card `action` names, as the seat's `view` shows it: its "card", or the hand's
    card at its "index" for a discard by position (Shirokuro Jong); None if it names none."""
    if "card" in action:
        return action["card"]
    hand, index = view.get("hand"), action.get("index")
    if action.get("type") == "discard" and isinstance(hand, list) and isinstance(index, int):
        return hand[index] if 0 <= index < len(hand) else None
    return None


Progress = Callable[[int, int], None]
"""Told (moves marked so far, moves to mark) as a review is made."""


def humans_of(match: MatchRecord) -> list[int]:
    """The match's human seats."""
    return [s for s, info in enumerate(match.seats) if info.get("kind") == "human"]


def marked(entry: dict[str, Any], humans: list[int]) -> bool:
    """Whether the review marks this input: a move a human made (not a CPU's for them)."""
    return entry.get("k") == "m" and entry.get("cpu") is not True and entry.get("s") in humans


def to_mark(match: MatchRecord) -> int:
    """How many moves the review of `match` marks (as public as the marks themselves)."""
    humans = humans_of(match)
    return sum(1 for entry in match.entries if marked(entry, humans))


def analyse(game: Game, match: MatchRecord, progress: Progress | None = None) -> dict[str, Any]:
    """The review of a finished match: a mark per human move, and per human seat its
    agreement rate and largest differences (see the module docstring). `progress` is
    told how far it is after each mark (and once before the first)."""
    humans = humans_of(match)
    total = to_mark(match)
    marks: list[dict[str, Any]] = []
    replayer = Replayer(game, match)
    entries = match.entries
    if progress is not None:
        progress(0, total)
    for step, state in replayer.states(0):
        if step >= len(entries):
            break
        entry = entries[step]  # the input that leads to step + 1
        if not marked(entry, humans):
            continue
        seat, played = entry["s"], entry["a"]
        seed = hint_seed(match.seed, seat, step)
        advice = advise(game, state, seat, seed)
        mark: dict[str, Any] = {"step": step + 1, "seat": seat}
        if advice is None:
            mark["agree"] = None
        elif advice.action == played:
            mark["agree"] = True
        else:
            others = [advise(game, state, seat, also_seed(seed, k)) for k in range(ALSO_ASKED)]
            away = 1 + sum(1 for a in others if a is None or a.action != played)
            view = game.view(state, seat)
            mark.update(
                agree=False,
                cpu=advice.action,
                card=card_of(view, advice.action),
                why=advice.why,
                size=round(away / (ALSO_ASKED + 1), 4),
            )
        marks.append(mark)
        if progress is not None:
            progress(len(marks), total)
    players = rates(marks, humans)
    return {"version": VERSION, "match": match.number, "marks": marks, "players": players}


def rates(marks: list[dict[str, Any]], humans: list[int]) -> list[dict[str, Any]]:
    """Per human seat: moves with an opinion, how many the CPU agreed with, the rate, and
    the steps of its largest differences."""
    players = []
    for seat in humans:
        judged = [m for m in marks if m["seat"] == seat and m["agree"] is not None]
        agreed = sum(1 for m in judged if m["agree"])
        differ = [m for m in judged if not m["agree"]]
        differ.sort(key=lambda m: (-m["size"], m["step"]))
        players.append(
            {
                "seat": seat,
                "moves": len(judged),
                "agreed": agreed,
                "rate": round(agreed / len(judged), 4) if judged else None,
                "largest": [m["step"] for m in differ[:LARGEST]],
            }
        )
    return players


def for_viewer(review: dict[str, Any], perspective: int | str | None) -> dict[str, Any]:
    """What one viewer is sent of `review`: `perspective` a seat (that seat's marks in
    full, the others' agree/differ and size), "open" (everything: players only, as
    `perspective_of` decides) or None (a spectator: agree/differ only)."""
    if perspective == "open":
        return review
    marks = []
    for mark in review["marks"]:
        if perspective is not None and mark["seat"] == perspective:
            marks.append(mark)
            continue
        hidden = HIDDEN_KEYS if perspective is not None else (*HIDDEN_KEYS, "size")
        marks.append({k: v for k, v in mark.items() if k not in hidden})
    return {**review, "marks": marks}
