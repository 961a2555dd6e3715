"""Helpers for the Utsuke tests: rigged deals and quick ways through a round."""

from __future__ import annotations

from typing import Any

from server.games.utsuke import GAME, UtsukeState
from server.games.utsuke.cards import sort_cards


def rigged(
    hands: list[list[str]],
    lord: list[str],
    prince: list[str] | None = None,
    lord_seat: int = 0,
    **options: Any,
) -> UtsukeState:
    """A match whose first round has these hands (players, then NPC rows, left to right).

    With lord_seat=0 the Lord sits just right of seat 0, so it plays right before seat 0.
    """
    seats = len(hands)
    state = GAME.new(seats, GAME.resolve_options({"lord_seat": lord_seat, **options}), 1)
    state.hands = [sort_cards(h) for h in hands] + [list(lord)]
    if prince is not None:
        state.hands.append(list(prince))
    state.chip = lord[-1]
    return state


def guess_all(state: UtsukeState, guesses: list[int]) -> list[dict[str, Any]]:
    """Every player commits its guess, in seat order; returns all events."""
    events: list[dict[str, Any]] = []
    for seat, value in enumerate(guesses):
        events += GAME.apply(state, seat, {"type": "guess", "value": value}, 0)
    return events


def play(state: UtsukeState, seat: int, card: str) -> list[dict[str, Any]]:
    """Seat plays a card."""
    return GAME.apply(state, seat, {"type": "play", "card": card}, 0)


def played(events: list[dict[str, Any]]) -> list[list[Any]]:
    """[who, card] for every card played in these events."""
    return [[e["by"], e["card"]] for e in events if e["type"] == "played"]


def play_out(state: UtsukeState) -> list[dict[str, Any]]:
    """Finish the round: each player plays its first legal card."""
    events: list[dict[str, Any]] = []
    round_no = state.round
    while state.round == round_no and GAME.outcome(state) is None:
        seat = state.turn()
        assert seat is not None
        events += GAME.apply(state, seat, GAME.actions(state, seat)[0], 0)
    return events


def chip_deal() -> UtsukeState:
    """The Lord (chip on B9) takes trick 1 with P5, then leads B9 and Y7; seat 2 to play."""
    state = rigged(
        [["R1", "Y12", "R3"], ["G1", "G2", "G3"], ["R4", "R5", "R6"]], ["P5", "Y7", "B9"]
    )
    guess_all(state, [0, 0, 0])
    play(state, 0, "R1")
    play(state, 1, "G1")
    return state
