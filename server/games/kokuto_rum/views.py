"""What each seat may see of a Kokuto Rum match, and possible worlds for a seat.

Public (RULINGS section 5, hidden information): hand sizes, the discard pile and this
round's log (every discard, and whether each draw came from the pile or the discard
pile, naming the card only in the latter case), the draw pile count, VP, the rotation
choices made (not what they were), and the last round's revealed hands. Private to a
seat: its hand in order with orientations, its rotation choice, the card it drew from
the pile, and where it put the card it took from the discard pile this turn. Cards
taken from the discard pile and still held are public knowledge (``known``); with
``physical_fidelity`` their positions are too, never orientations. While seats choose
their rotation the discard pile is empty: its first card is still the unseen top of the
draw pile, turned up once every seat has chosen (RULINGS K10).
"""

from __future__ import annotations

from typing import Any

from server.games.kokuto_rum import scoring
from server.games.kokuto_rum.state import DISCARD, INSERT, OVER, ROTATE, State, tables


def _known(state: State, seat: int) -> list[Any]:
    """Known cards in `seat`'s hand: slots (fidelity) or a sorted list of card texts."""
    card_text = tables(state.options["deck"]).card_text
    hand, known = state.hands[seat], state.known[seat]
    if state.options["physical_fidelity"]:
        return [card_text[h // 2] if k else None for h, k in zip(hand, known, strict=True)]
    return sorted(card_text[h // 2] for h, k in zip(hand, known, strict=True) if k)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may know; `seat=None` is a spectator."""
    t = tables(state.options["deck"])
    own = seat is not None and 0 <= seat < state.seats
    drawn_visible = state.drawn is not None and (
        state.drawn_from == "discard" or seat == state.turn
    )
    out: dict[str, Any] = {
        "game": "kokuto_rum",
        "seat": seat,
        "seats": state.seats,
        "options": dict(state.options),
        "round": state.round,
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": None if state.phase in (ROTATE, OVER) else state.turn,
        "vp": list(state.vp),
        "target": 30,
        "hand_sizes": [len(h) for h in state.hands],
        "known": [_known(state, s) for s in range(state.seats)],
        "rotation_chosen": [f is not None for f in state.flips],
        "pile_count": len(state.pile),
        "discards": [t.card_text[c] for c in state.discards],
        "drawn_from": state.drawn_from if state.phase == INSERT else None,
        "drawn": t.card_text[state.drawn] if drawn_visible and state.drawn is not None else None,
        "log": [dict(e) for e in state.log],
        "last_round": state.last_round,
        "hand": None,
        "rotation": None,
        "score": None,
        "taken_at": None,
    }
    if own:
        assert seat is not None
        hand = state.hands[seat]
        out["hand"] = [t.held_text[h] for h in hand]
        out["rotation"] = state.flips[seat]
        out["score"] = scoring.score([t.values[h] for h in hand])
        if state.phase == DISCARD and state.turn == seat and state.taken is not None:
            # Where the seat put the card it took: a twin of it (deck B) may be discarded.
            out["taken_at"] = next(i for i, h in enumerate(hand) if h // 2 == state.taken)
    return out


def shuffle_unseen(state: State, seat: int | None, rng: Any) -> State:
    """A copy with every card `seat` cannot see re-dealt among the places it cannot see.

    Kept: `seat`'s own hand, the discard pile, and cards known to be in other hands.
    Re-dealt: the draw pile, other hands' unknown cards, a card another seat drew from
    the pile; other hands' orientations and (without physical fidelity) the order of
    their known cards; other seats' rotation choices; the generator for future deals.
    `rng` may be a `random.Random` or an `Rng` (only shuffle/randrange are used).
    """
    other = state.copy()
    others = [s for s in range(state.seats) if s != seat]
    pool = list(other.pile)
    for s in others:
        pool.extend(h // 2 for h, k in zip(other.hands[s], other.known[s], strict=True) if not k)
    hidden_drawn = other.drawn is not None and other.drawn_from == "pile" and other.turn != seat
    if hidden_drawn:
        assert other.drawn is not None
        pool.append(other.drawn)
    pool.sort()  # so the world depends only on which cards are unseen, not where they are
    rng.shuffle(pool)
    for s in others:
        hand, known = other.hands[s], other.known[s]
        slots = [(h, k) for h, k in zip(hand, known, strict=True)]
        if not other.options["physical_fidelity"]:
            # Where the known cards sit is unseen: start from the view's order (known
            # cards sorted, then the unknown slots) so the world does not depend on it.
            slots.sort(key=lambda hk: (not hk[1], hk[0] // 2 if hk[1] else 0))
            rng.shuffle(slots)
        other.hands[s] = [(h // 2 if k else pool.pop()) * 2 + rng.randrange(2) for h, k in slots]
        other.known[s] = [k for _, k in slots]
        if other.flips[s] is not None:
            other.flips[s] = bool(rng.randrange(2))
    if hidden_drawn:
        other.drawn = pool.pop()
    other.pile = pool
    other.rng = rng.randrange(1 << 64)
    return other
