"""Review together in a live room (server/rooms/actor/review_session.py): the first player
to open leads, the leader's steps reach everyone, the next player leads when the leader
goes, and a spectator follows but never leads."""

from __future__ import annotations

from typing import Any

import pytest

from server.rooms.errors import RoomError
from tests.rooms.helpers import Env, Player


def state(player: Player) -> dict[str, Any]:
    """The latest review_state a player received."""
    return next(m for m in reversed(player.messages) if m["t"] == "review_state")


async def test_the_leaders_steps_move_everyone_and_the_next_player_leads_after_them(
    env: Env,
) -> None:
    code, tokens = await env.usunoro(humans=2, seed=4, options={"length": "short"})
    await env.join(code, tokens, Player(grabs=True))
    with pytest.raises(RoomError, match="match_not_found"):
        await env.players[0].att.review({"t": "review_open", "match": 1})  # still being played
    await env.manager.start_match(code, tokens[0])
    await env.play_out(code)
    aki, ben, guest = Player(plays=False), Player(plays=False), Player(plays=False)
    for player, held in ((aki, [tokens[0]]), (ben, [tokens[1]]), (guest, [])):
        await env.join(code, held, player)

    with pytest.raises(RoomError, match="no_review"):
        await ben.att.review({"t": "review_step", "step": 3})
    with pytest.raises(RoomError, match="not_your_seat"):
        await guest.att.review({"t": "review_open", "match": 1})  # spectators only follow
    with pytest.raises(RoomError, match="match_not_found"):
        await aki.att.review({"t": "review_open", "match": 2})

    await aki.att.review({"t": "review_open", "match": 1})
    assert state(aki) == {
        "t": "review_state",
        "open": True,
        "match": 1,
        "step": 0,
        "leader": 0,
        "lead": True,
        "following": True,
        "members": 1,
    }
    assert state(guest)["open"] and not state(guest)["following"]  # told, so it can join
    await ben.att.review({"t": "review_open", "match": 1})
    await guest.att.review({"t": "review_open", "match": 1})
    with pytest.raises(RoomError, match="not_leader"):
        await ben.att.review({"t": "review_step", "step": 3})
    await aki.att.review({"t": "review_step", "step": 7})
    for player in (aki, ben, guest):
        assert (state(player)["step"], state(player)["leader"]) == (7, 0)
    assert not state(ben)["lead"] and state(ben)["following"] and state(guest)["members"] == 3

    # A connection made now learns of the session at once.
    late = Player(plays=False)
    await env.join(code, [], late)
    assert state(late)["step"] == 7 and not state(late)["following"]

    aki.att.detach()  # the leader goes: Ben, the next player in, leads
    await env.settle()
    assert state(ben)["lead"] and state(guest)["leader"] == 1 and state(guest)["step"] == 7
    await ben.att.review({"t": "review_step", "step": 2})
    assert state(guest)["step"] == 2
    await ben.att.review({"t": "review_close"})  # no player left in it: it ends
    assert state(guest) == {"t": "review_state", "open": False}
    assert state(ben) == {"t": "review_state", "open": False}
