"""Moves through a room: sequence numbers, racing inputs, refused moves, stale saves."""

from __future__ import annotations

import asyncio

import pytest

from server.rooms.errors import RoomError
from tests.rooms.helpers import Env, Player


async def started(env: Env, seed: int = 1, humans: int = 1) -> tuple[str, list[str], Player]:
    code, tokens = await env.usunoro(humans=humans, seed=seed)
    player = await env.join(code, tokens, Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    return code, tokens, player


def marks(player: Player) -> list[dict]:
    return [a for a in player.last["legal"][0] if a["type"] == "mark"]


async def test_a_repeated_sequence_number_gets_the_same_answer_and_applies_once(env: Env) -> None:
    code, _, player = await started(env)
    first, second = marks(player)[:2]
    answer = await player.att.move(0, 7, first)
    again = await player.att.move(0, 7, second)
    assert again == answer
    saved = await env.saved(code)
    assert saved["version"] == answer["version"]
    assert saved["state"]["marks"][0] == first["card"]


async def test_a_resend_after_a_restart_gets_the_answer_of_the_seats_last_move(
    env: Env,
) -> None:
    # Each seat's last move and answer are saved with the room (packed once per move):
    # the save after a seat's second move must carry that move, not the first.
    code, tokens, player = await started(env)
    await player.att.move(0, 1, marks(player)[0])
    second = await player.att.move(0, 2, marks(player)[1])
    assert (await env.saved(code))["seqs"] == [[0, 2, second]]
    await env.manager.unload(code)
    env.new_manager("b")
    again = await env.join(code, tokens, Player(plays=False))
    assert await again.att.move(0, 2, marks(again)[0]) == second  # answered, not replayed
    with pytest.raises(RoomError, match="stale_seq"):
        await again.att.move(0, 1, marks(again)[0])


async def test_an_older_sequence_number_is_refused(env: Env) -> None:
    _, _, player = await started(env)
    await player.att.move(0, 5, marks(player)[0])
    with pytest.raises(RoomError, match="stale_seq"):
        await player.att.move(0, 4, marks(player)[1])


async def test_moves_queued_together_are_applied_in_order_under_one_save_and_one_view(
    env: Env,
) -> None:
    code, _, player = await started(env)
    first, second = marks(player)[:2]
    before = (await env.saved(code))["version"]
    seen = len(player.messages)
    one, bad, two = await asyncio.gather(
        player.att.move(0, 1, first),
        player.att.move(0, 2, {"type": "mark", "card": "ZZ"}),
        player.att.move(0, 3, second),
        return_exceptions=True,
    )
    assert isinstance(bad, RoomError) and bad.code == "illegal_action"
    assert one["version"] == two["version"] == before + 1
    saved = await env.saved(code)
    assert saved["version"] == before + 1
    assert saved["state"]["marks"][0] == second["card"]  # the later mark stands
    views = [m for m in player.messages[seen:] if m["t"] == "view"]
    assert len(views) == 1
    assert views[0]["ack"] == {"seat": 0, "seq": 3, "version": before + 1}
    assert views[0]["view"]["marks"][0] == second["card"]


async def test_an_illegal_move_is_refused_and_changes_nothing(env: Env) -> None:
    code, _, player = await started(env)
    before = await env.saved(code)
    with pytest.raises(RoomError, match="illegal_action"):
        await player.att.move(0, 1, {"type": "mark", "card": "ZZ"})
    assert await env.saved(code) == before


async def test_a_move_for_a_seat_not_held_is_refused(env: Env) -> None:
    _, _, player = await started(env)
    with pytest.raises(RoomError, match="not_your_seat"):
        await player.att.move(1, 1, {"type": "grab"})


async def test_a_malformed_move_is_refused(env: Env) -> None:
    _, _, player = await started(env)
    with pytest.raises(RoomError, match="bad_request"):
        await player.att.move(0, "one", {"type": "grab"})  # type: ignore[arg-type]


async def test_a_save_on_a_stale_version_is_refused_and_the_room_stops(env: Env) -> None:
    code, _, player = await started(env)
    stored = await env.store.load(code)
    assert stored is not None
    await env.store.save(code, stored.version + 1, stored.blob)  # another process saved
    with pytest.raises(RoomError, match="room_moved"):
        await player.att.move(0, 1, marks(player)[0])
    await env.manager.settled()
    assert env.manager.live_codes() == []
    assert player.last == {
        "t": "closed",
        "code": "room_moved",
        "message": "the room stopped on this server",
    }
    assert (await env.store.load(code)).version == stored.version + 1  # type: ignore[union-attr]


async def test_moves_before_the_start_are_refused(env: Env) -> None:
    code, tokens = await env.usunoro(humans=1)
    player = await env.join(code, tokens, Player(plays=False))
    with pytest.raises(RoomError, match="not_started"):
        await player.att.move(0, 1, {"type": "grab"})


async def test_the_view_a_move_caused_carries_its_ack_to_the_mover_only(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2)
    host = await env.join(code, tokens[:1], Player(plays=False))
    friend = await env.join(code, tokens[1:], Player(plays=False))
    await env.manager.start_match(code, tokens[0])
    answer = await host.att.move(0, 3, marks(host)[0])
    assert host.last["ack"] == {"seat": 0, "seq": 3, "version": answer["version"]}
    assert host.last["version"] == answer["version"]
    assert friend.last["version"] == answer["version"] and "ack" not in friend.last


async def test_a_repeated_move_causes_no_view(env: Env) -> None:
    _, _, player = await started(env)
    mark = marks(player)[0]
    await player.att.move(0, 1, mark)
    count = len(player.messages)
    await player.att.move(0, 1, mark)
    assert len(player.messages) == count


async def test_a_save_the_store_refuses_before_sending_fails_like_any_failed_save(
    env: Env,
) -> None:
    # The Redis store hands back a future, but it may raise before it has one (a value
    # it cannot pack): the move is refused, nothing is shown, and the room goes on.
    code, _, player = await started(env)
    real_save = env.store.save
    version = player.last["version"]

    def refusing_save(*args: object, **kwargs: object) -> None:
        raise ValueError("cannot pack that")

    env.store.save = refusing_save  # type: ignore[assignment,method-assign]
    with pytest.raises(RoomError, match="store_error"):
        await player.att.move(0, 1, marks(player)[0])
    assert player.last["version"] == version
    assert (await env.saved(code))["version"] == version
    env.store.save = real_save  # type: ignore[method-assign]
    answer = await player.att.move(0, 2, marks(player)[0])
    assert answer["version"] == version + 1 == (await env.saved(code))["version"]
