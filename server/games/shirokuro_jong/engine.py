"""The Shirokuro Jong game: the contract methods over JongState and the rules module."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games import shirokuro_deck as deck
from server.games.contract import Action, Event, Game, IllegalAction, Option, View
from server.games.rng import Rng
from server.games.shirokuro_jong import rules
from server.games.shirokuro_jong.helpers import helpers as jong_helpers
from server.games.shirokuro_jong.state import JongState, plain_copy, rounds_total, tables

OPTIONS = (
    Option(
        "deck",
        deck.DEFAULT_COMPOSITION,
        deck.COMPOSITIONS,
        "Deck composition: A = every white/black pair once, B = six w+b=7 cards x5 (S1)",
    ),
    Option("rotation", True, (True, False), "Offer the one-time hand rotation each round"),
    Option(
        "claim_timeout_ms",
        15000,
        (0, 5000, 10000, 15000, 30000, 60000),
        "Claim window length after each discard; unanswered seats pass (0 = wait)",
    ),
    Option(
        "dora",
        "upright_value",
        ("upright_value", "either_number"),
        "Dora: the indicator's white number in white or black number in black (S2), "
        "or any upright card with either number",
    ),
    Option(
        "yaku_reading",
        "usual",
        ("usual", "literal"),
        "Iipeikou/Doujun as identical/same-number Shuntsu (S6), or the literal reading",
    ),
    Option("min_yaku", 0, (0, 2), "Advanced: a win needs at least this many yaku"),
    Option("payments", False, (True, False), "Advanced: the discarder (Ron) or all (Tsumo) pay"),
    Option("renchan", False, (True, False), "Advanced: the Oya deals again after winning"),
)


class ShirokuroJong(Game):
    """Two-colour mahjong for 2-3 players on the 30-card Shirokuro deck."""

    id = "shirokuro_jong"
    title = "Shirokuro Jong"
    min_seats = 2
    max_seats = 3
    options = OPTIONS

    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> JongState:
        """A fresh match: seat 0 is the first Oya; the first round is dealt at once."""
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction("bad_seats", "Shirokuro Jong is for 2 or 3 players")
        state = JongState(seats, self.resolve_options(options), Rng.from_seed(seed).state)
        rules.deal(state)
        return state

    def actions(self, state: JongState, seat: int) -> list[Action]:
        """The moves `seat` may make now (claim windows ask every other seat at once)."""
        return rules.moves(state, seat)

    def apply(self, state: JongState, seat: int, action: Action, now: int) -> list[Event]:
        """Check a move against the legal moves, then apply it."""
        if not isinstance(action, dict):
            raise IllegalAction("bad_action", "a move is a map with a type")
        legal = rules.moves(state, seat) if isinstance(seat, int) else []
        if not legal:
            raise IllegalAction("not_your_turn", "that seat has no move to make now")
        if action not in legal:
            raise IllegalAction("illegal_move", f"{action.get('type')!r} is not allowed now")
        move = legal[legal.index(action)]
        kind = move["type"]
        if kind == "rotate":
            return rules.choose_rotation(state, seat, move["flip"])
        if kind == "insert":
            return rules.insert(state, seat, move["index"], move["up"])
        if kind == "discard":
            return rules.discard(state, seat, move["index"], now)
        if kind == "tsumo":
            return rules.win(state, [seat], tsumo=True)
        if kind == "next":
            return rules.ready(state, seat)
        return rules.answer(state, seat, move, now)

    def deadline(self, state: JongState) -> int | None:
        """When the open claim window closes by itself: its uniform minimum once every
        seat has answered, or the claim timeout (S13)."""
        return rules.claim_due(state)

    def expire(self, state: JongState, now: int) -> list[Event]:
        """Close a claim window that ran out: seats that did not answer pass."""
        due = rules.claim_due(state)
        if due is None or now < due:
            return []
        return rules.settle(state)

    def view(self, state: JongState, seat: int | None) -> View:
        """Public facts plus, for a seat, its own hand, drawn card and answers."""
        _, held, card_text = tables(state.options["deck"])
        last = None
        if state.phase == "claim":
            last = card_text[state.discards[state.discarder][-1]]
        view: View = {
            "seat": seat,
            "seats": state.seats,
            "options": dict(state.options),
            "phase": state.phase,
            "round": state.round,
            "rounds": rounds_total(state.seats),
            "hand_no": state.hand_no,
            "oya": state.oya,
            "turn": state.turn,
            "scores": list(state.scores),
            "dora": None if state.phase == "rotate" else card_text[state.dora],  # S14
            "pile": len(state.pile),
            "hand_sizes": [len(h) for h in state.hands],
            "discards": [[card_text[c] for c in row] for row in state.discards],
            "melds": [[[held[h] for h in m] for m in ms] for ms in state.melds],
            "discarder": state.discarder if state.discarder >= 0 else None,
            "claim_on": last,
            "claim_deadline": state.deadline,
            "result": plain_copy(state.result),
            # Whom a finished round waits for ("next"): public, unlike claim answers.
            "next_pending": sorted(state.pending) if state.phase == "round_over" else [],
        }
        if seat is not None and 0 <= seat < state.seats:
            view["hand"] = [held[h] for h in state.hands[seat]]
            mine = state.turn == seat and state.drawn >= 0
            view["drawn"] = card_text[state.drawn] if mine else None
            # Whether this discard turn follows the seat's own draw (or the Oya's deal):
            # only then may it declare Tsumo, not after a Pon or Chii (helpers.py).
            view["self_drawn"] = state.phase == "discard" and state.turn == seat and state.can_tsumo
            view["rotation"] = state.flips[seat]
            view["claim_answer"] = plain_copy(state.answers[seat])
            view["waiting_for_me"] = seat in state.pending
        return view

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """Tenpai, waits and what a win would score, from the seat's view (helpers.py)."""
        return jong_helpers(view)

    def shuffle_unseen(self, state: JongState, seat: int | None, rng: Any) -> JongState:
        """Re-deal the pile, the drawn card and every hand `seat` cannot see.

        Other seats' secret answers (rotation, claims) are forgotten too, so a sampled
        world carries nothing the seat does not know; they will answer again there.
        """
        world = state.copy()
        hidden = [s for s in range(state.seats) if s != seat and s not in state.revealed]
        pool = list(world.pile) + [h >> 1 for s in hidden for h in world.hands[s]]
        drawn_hidden = world.drawn >= 0 and world.turn != seat
        if drawn_hidden:
            pool.append(world.drawn)
        dora_hidden = world.phase == "rotate"  # S14: not turned up yet
        if dora_hidden:
            pool.append(world.dora)
        pool.sort()  # so the world depends only on which cards are unseen, not where they are
        rng.shuffle(pool)
        forget = world.phase in ("rotate", "claim")
        for s in hidden:
            world.hands[s] = [pool.pop() * 2 + int(rng.random() < 0.5) for _ in world.hands[s]]
            if forget and s != world.discarder and s not in world.pending:
                world.pending.append(s)
                world.flips[s] = None
                world.answers[s] = None
        world.pending.sort()
        if drawn_hidden:
            world.drawn = pool.pop()
        if dora_hidden:
            world.dora = pool.pop()
        world.pile = pool
        world.rng = Rng(int(rng.random() * 2**53)).state  # future deals stay unknown
        if world.phase == "claim":
            rules.refresh_claims(world)
        return world

    def dump(self, state: JongState) -> dict[str, Any]:
        """Plain msgpack-safe data."""
        return state.dump()

    def load(self, data: dict[str, Any]) -> JongState:
        """The state `dump` produced."""
        return JongState.load(data)

    def copy(self, state: JongState) -> JongState:
        """A fast independent copy for search."""
        return state.copy()

    def seat_count(self, state: JongState) -> int:
        """Number of seats in this match."""
        return state.seats

    def outcome(self, state: JongState) -> dict[str, Any] | None:
        """Places by total points once every round is played; equal totals share."""
        if state.phase != "match_over":
            return None
        scores = state.scores
        places = [1 + sum(1 for t in scores if t > s) for s in scores]
        return {"places": places, "scores": list(scores)}
