"""A tiny trick game used to test the conformance suite itself.

`ToyGame(leak=True)` shows each seat its neighbour's hand, and
`ToyGame(pool_in_place=True)` samples worlds from the hidden cards in the order they lie:
the suite must catch both.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from server.games.contract import Game, IllegalAction
from server.games.rng import Rng


class ToyGame(Game):
    """Each seat holds 3 of the cards 1..12; in turn each plays one; high card wins."""

    id = "toy"
    title = "Toy"
    min_seats = 2
    max_seats = 4

    def __init__(self, leak: bool = False, pool_in_place: bool = False) -> None:
        self.leak = leak
        self.pool_in_place = pool_in_place

    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> dict[str, Any]:
        rng = Rng.from_seed(seed)
        deck = list(range(1, 13))
        rng.shuffle(deck)
        hands = [sorted(deck[i * 3 : (i + 1) * 3]) for i in range(seats)]
        return {
            "seats": seats,
            "rng": rng.state,
            "hands": hands,
            "stock": deck[seats * 3 :],
            "table": [],
            "turn": 0,
            "tricks": [0] * seats,
        }

    def actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if self.outcome(state) is not None or seat != state["turn"]:
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]

    def apply(self, state: dict[str, Any], seat: int, action: Any, now: int) -> list[Any]:
        if action not in self.actions(state, seat):
            raise IllegalAction("illegal_action", "that move is not allowed now")
        state["hands"][seat].remove(action["card"])
        state["table"].append([seat, action["card"]])
        events: list[Any] = [{"type": "played", "seat": seat, "card": action["card"]}]
        state["turn"] = (seat + 1) % state["seats"]
        if len(state["table"]) == state["seats"]:
            winner = max(state["table"], key=lambda sc: sc[1])[0]
            state["tricks"][winner] += 1
            state["table"] = []
            state["turn"] = winner
            events.append({"type": "trick", "winner": winner})
        return events

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        view = {
            "table": copy.deepcopy(state["table"]),
            "turn": state["turn"],
            "tricks": list(state["tricks"]),
            "counts": [len(h) for h in state["hands"]],
        }
        if seat is not None:
            view["hand"] = list(state["hands"][seat])
            if self.leak:
                view["neighbour"] = list(state["hands"][(seat + 1) % state["seats"]])
        return view

    def shuffle_unseen(self, state: dict[str, Any], seat: int | None, rng: Any) -> Any:
        other = copy.deepcopy(state)
        places = [s for s in range(state["seats"]) if s != seat]
        pool = other["stock"] + [c for s in places for c in other["hands"][s]]
        if not self.pool_in_place:
            pool.sort()
        rng.shuffle(pool)
        for s in places:
            n = len(other["hands"][s])
            other["hands"][s], pool = sorted(pool[:n]), pool[n:]
        other["stock"] = pool
        return other

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(data)

    def outcome(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if any(state["hands"]) or state["table"]:
            return None
        tricks = state["tricks"]
        return {
            "tricks": list(tricks),
            "places": [1 + sum(t > mine for t in tricks) for mine in tricks],
        }
