"""Helpers shared by the Kokuto Rum rules tests: positions, moves, round ends."""

from __future__ import annotations

import re
from typing import Any

from server.games.kokuto_rum import GAME
from server.games.kokuto_rum.state import DRAW, State, tables


def held(text: str, composition: str = "A", used: set[int] | None = None) -> int:
    """The held int of a held-card text, skipping card ids already in `used`."""
    t = tables(composition)
    for h, ht in enumerate(t.held_text):
        if ht == text and (used is None or h // 2 not in used):
            if used is not None:
                used.add(h // 2)
            return h
    raise ValueError(f"no free card {text!r}")


def position(
    hands: list[list[str]],
    *,
    discards: list[str] | None = None,
    pile: list[str] | None = None,
    turn: int = 0,
    options: dict[str, Any] | None = None,
    vp: list[int] | None = None,
) -> State:
    """A state in the draw phase with these hands (held texts) and piles (card texts).

    Without `discards` the discard pile holds one unnamed card; without `pile` every
    card not named forms the pile, else unnamed cards are left out of play.
    """
    opts = GAME.resolve_options(options)
    state = GAME.new(len(hands), opts, 0)
    used: set[int] = set()
    state.hands = [[held(t, opts["deck"], used) for t in hand] for hand in hands]
    state.known = [[False] * len(h) for h in hands]
    if discards is None:
        state.discards = [next(c for c in range(29, -1, -1) if c not in used)]
        used.add(state.discards[0])
    else:
        state.discards = [held(t, opts["deck"], used) // 2 for t in discards]
    if pile is None:
        rest = [c for c in range(30) if c not in used]
        state.pile = rest
    else:
        state.pile = [held(t, opts["deck"], used) // 2 for t in pile]
    state.phase = DRAW
    state.flips = [False] * len(hands)
    state.turn = turn
    if vp is not None:
        state.vp = list(vp)
    return state


def do(state: State, seat: int, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply the moves in order for `seat`; returns all their events."""
    events: list[dict[str, Any]] = []
    for action in actions:
        events.extend(GAME.apply(state, seat, action, 0))
    return events


def take_turn(
    state: State, seat: int, source: str = "pile", pos: int = 0, discard_pos: int = 0
) -> list[dict[str, Any]]:
    """Draw, insert white-up at `pos`, discard the card at `discard_pos` (no knock)."""
    events = do(state, seat, {"type": "draw", "from": source})
    events += do(state, seat, {"type": "insert", "pos": pos, "card": drawn_texts(state)[0]})
    card = tables(state.options["deck"]).held_text[state.hands[seat][discard_pos]]
    events += do(state, seat, {"type": "discard", "pos": discard_pos, "card": card, "knock": False})
    return events


def drawn_texts(state: State) -> list[str]:
    """The two held texts the drawn card can be inserted as."""
    assert state.drawn is not None
    texts = tables(state.options["deck"]).held_text
    return [texts[state.drawn * 2], texts[state.drawn * 2 + 1]]


OPTS = GAME.resolve_options({})
CARD_RE = re.compile(r"[WB][1-6]/[WB][1-6]")


def fresh(seats: int = 2, seed: int = 0, **options: Any) -> State:
    """A new match with every seat having declined to rotate (play has started)."""
    state = GAME.new(seats, GAME.resolve_options(options), seed)
    for s in range(seats):
        do(state, s, {"type": "rotate", "flip": False})
    return state


def finish_round_by_knock(state: State) -> list[dict[str, Any]]:
    """The seat to move draws from the pile, inserts at 0 and knocks before discarding."""
    seat = state.turn
    do(state, seat, {"type": "draw", "from": "pile"})
    do(state, seat, {"type": "insert", "pos": 0, "card": drawn_texts(state)[0]})
    return do(state, seat, {"type": "knock"})


def round_end(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The round_end event among `events`."""
    return next(e for e in events if e["type"] == "round_end")


def values(texts: str) -> list[tuple[str, int]]:
    """Values from a space-separated value text list such as "W2 W2 B3"."""
    return [(t[0], int(t[1])) for t in texts.split()]


def pile_out_round(vp: list[int], hands: list[list[str]]) -> State:
    """Seat 0 draws the last pile card and discards it; the round ends by pile-out."""
    state = position(hands, pile=["W2/B5"], vp=vp)
    do(state, 0, {"type": "draw", "from": "pile"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W2/B5"})
    do(state, 0, {"type": "discard", "pos": 0, "card": "W2/B5", "knock": False})
    return state
