"""Set-up helpers for the Shirokuro Jong tests: positions built from card texts."""

from __future__ import annotations

from typing import Any

from server.games import shirokuro_deck as deck
from server.games.shirokuro_jong import GAME
from server.games.shirokuro_jong.state import JongState, tables

DECK = deck.deck("A")


def assign(tokens: list[str]) -> list[int]:
    """Distinct cards for tokens, as held ints: "W2/B5" is that card held W2 upright, a
    bare value such as "B4" is any card held showing it (a bipartite matching, so bare
    values never use up a card another token needs).
    """
    options: list[list[int]] = []
    for token in tokens:
        if len(token) == 5:
            card, up = deck.parse_held(token)
            ids = [i for i, c in enumerate(DECK) if c == card]
        else:
            up, n = deck.parse_value(token)
            ids = [i for i, c in enumerate(DECK) if deck.value(c, up) == (up, n)]
        options.append([i * 2 + (0 if up == "W" else 1) for i in ids])
    owner: dict[int, int] = {}  # card id -> token index

    def place(t: int, seen: set[int]) -> bool:
        for h in options[t]:
            if h >> 1 not in seen:
                seen.add(h >> 1)
                if h >> 1 not in owner or place(owner[h >> 1], seen):
                    owner[h >> 1] = t
                    return True
        return False

    for t in range(len(tokens)):
        if not place(t, set()):
            raise ValueError(f"not enough cards for {tokens[t]}")
    held = {t: h for t in range(len(tokens)) for h in options[t] if owner.get(h >> 1) == t}
    return [held[t] for t in range(len(tokens))]


def table(
    hands: list[str],
    *,
    melds: dict[int, list[str]] | None = None,
    pile: list[str] | None = None,
    dora: str = "W6/B5",
    oya: int = 0,
    turn: int | None = None,
    options: dict[str, Any] | None = None,
    fill_pile: bool = True,
) -> JongState:
    """A position in the Oya's discard phase with the given hands, melds and pile.

    `pile` lists cards in the order they will be drawn; unused cards follow it unless
    `fill_pile` is False. The real deal is overwritten, so only what is given matters.
    """
    opts = {"rotation": False, "claim_timeout_ms": 0, **(options or {})}
    state = GAME.new(len(hands), opts, 0)
    meld_specs = [(seat, m) for seat, ms in (melds or {}).items() for m in ms]
    groups = [dora, *hands, *(m for _, m in meld_specs), " ".join(pile or [])]
    tokens = [t for g in groups for t in g.split()]
    cards = iter(assign(tokens))
    taken = [[next(cards) for _ in g.split()] for g in groups]
    state.dora = taken[0][0] >> 1
    state.hands = taken[1 : 1 + len(hands)]
    state.melds = [[] for _ in hands]
    for (seat, _), meld in zip(meld_specs, taken[1 + len(hands) : -1], strict=True):
        state.melds[seat].append(meld)
    order = [h >> 1 for h in taken[-1]]
    if fill_pile:
        used = {h >> 1 for g in taken for h in g}
        order += [c for c in range(len(DECK)) if c not in used]
    state.pile = order[::-1]  # draws pop from the end
    state.oya = oya
    state.turn = oya if turn is None else turn
    return state


def texts(state: JongState, seat: int) -> str:
    """A seat's concealed hand as held-card texts."""
    held = tables(state.options["deck"])[1]
    return " ".join(held[h] for h in state.hands[seat])


def values(state: JongState, seat: int) -> str:
    """A seat's concealed hand as upright values, such as "W1 W2 B3"."""
    return " ".join(t[:2] for t in texts(state, seat).split())


def auto_passed(state: JongState, seat: int, action: dict[str, Any]) -> bool:
    """Whether `action` is a pass the server already answered for `seat` (S13)."""
    return (
        action == {"type": "pass"}
        and state.phase == "claim"
        and seat not in state.pending
        and state.answers[seat] == {"type": "pass"}
    )


def close_window(state: JongState) -> list[dict[str, Any]]:
    """Let a claim window every seat has answered reach its uniform minimum (S13)."""
    if state.phase == "claim" and not state.pending:
        return GAME.expire(state, state.claim_min)
    return []


def play(state: JongState, *moves: tuple[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply moves in order at game time 0, letting each answered claim window close
    after its minimum; a pass the server already gave for a seat is skipped. Returns
    every event."""
    events: list[dict[str, Any]] = []
    for seat, action in moves:
        if not auto_passed(state, seat, action):
            events += GAME.apply(state, seat, action, 0)
        events += close_window(state)
    return events


def pass_all(state: JongState) -> list[dict[str, Any]]:
    """Every seat still asked in the claim window passes; the window closes."""
    events: list[dict[str, Any]] = []
    for seat in list(state.pending) if state.phase == "claim" else []:
        events += GAME.apply(state, seat, {"type": "pass"}, 0)
    return events + close_window(state)
