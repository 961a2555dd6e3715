"""Telling seat holders who are away that the room waits for them ("your move" by Web
Push, sent by whatever the manager was given: server/web/push.py).

After every publish the room looks at its human seats that no connection holds and no
CPU covers: one that now has something to answer (a move, a claim, a declaration: any
legal move) is offered to the notifier once, until it no longer has or a connection
holds it again (then the offer is withdrawn, in case the notifier still holds it back);
when the match ends, each of them is offered "over". A seat whose token changed (left,
re-issued) is offered afresh under the new token, which tells the notifier to drop what
the old token subscribed.

The check costs a look at each seat's kind, cover and connection per publish; the
engine is asked for legal moves only for seats that are away, so a table where everyone
is present pays nothing more.
"""

from __future__ import annotations

from typing import Any, Protocol

from server.rooms.actor.core import RoomCore


class Notifier(Protocol):
    """What the room hands its offers to; both calls return at once and never raise."""

    def offer(self, code: str, seat: int, token_hash: str, facts: dict[str, Any]) -> None:
        """Tell the seat's holder `facts` ({"kind": "move" | "over", "game", "name",
        "player"}), now or when the notifier's own pace allows."""

    def withdraw(self, code: str, seat: int) -> None:
        """Forget an offer for the seat not sent yet."""


class Nudges:
    """One room's offers: which away seats were offered their move, under which token."""

    def __init__(self, notifier: Notifier, status: str) -> None:
        self.notifier = notifier
        self.offered: dict[int, str] = {}
        # A room loaded after its match ended has told its players already.
        self.was_over = status == "over"

    def after_publish(self, code: str, core: RoomCore, seats: list[dict[str, Any]]) -> None:
        """Offer or withdraw after a publish that showed `seats` (presence's public seats)."""
        over = core.status == "over"
        ended = over and not self.was_over
        self.was_over = over
        waiting = core.status == "playing" and not core.paused and core.state is not None
        offered = self.offered
        for i, seat in enumerate(core.seats):
            away = seat.kind == "human" and not seat.covered and not seats[i]["connected"]
            if away and ended:
                offered.pop(i, None)
                self.notifier.offer(code, i, seat.token_hash, facts(core, i, "over"))
            elif away and waiting and core.game.actions(core.state, i):
                if offered.get(i) != seat.token_hash:
                    offered[i] = seat.token_hash
                    self.notifier.offer(code, i, seat.token_hash, facts(core, i, "move"))
            elif i in offered:
                del offered[i]
                self.notifier.withdraw(code, i)


def facts(core: RoomCore, seat: int, kind: str) -> dict[str, Any]:
    """What a push may say: the room's game and name and the seat's player, never a card."""
    settings = core.settings
    return {
        "kind": kind,
        "game": settings.game_id,
        "name": settings.name,
        "player": core.seats[seat].name,
    }
