"""Table talk in rooms: chat and reactions reach everyone, are kept (bounded) in Redis
beside the room, the host moderates, and Hachinin Meri deals are quiet by default."""

from __future__ import annotations

from typing import Any

import pytest

from server.rooms.errors import RoomError
from server.rooms.relay.endpoint import RemoteAttachment
from server.rooms.seats import talk
from server.rooms.seats.seat import Seat
from tests.rooms.helpers import Env, Player
from tests.rooms.test_relay import humans_room, join, running
from tests.store.helpers import until


def said(player: Player, kind: str = "chat") -> list[dict[str, Any]]:
    """The table-talk messages of `kind` a player was sent."""
    return [m for m in player.messages if m["t"] == kind]


async def lobby(env: Env, humans: int = 2) -> tuple[str, list[str], list[Player]]:
    """A Usunoro room in the lobby with `humans` humans attached, and a spectator last."""
    code, tokens = await env.usunoro(humans=humans, host_name="Hana")
    players = [await env.join(code, [token]) for token in tokens]
    players.append(await env.join(code, []))
    return code, tokens, players


async def test_a_message_reaches_players_and_spectators_and_takes_no_version(env: Env) -> None:
    code, _, (host, friend, watcher) = await lobby(env)
    version = host.last["version"]
    views = len(host.messages)
    assert host.att is not None
    await host.att.talk({"t": "chat", "text": "  hello <b>all</b>\x07 "})
    for player in (host, friend, watcher):
        (message,) = said(player)
        assert message == {
            "t": "chat",
            "seat": 0,
            "name": "Hana",
            "text": "hello <b>all</b>",
            "at": message["at"],
        }
        assert isinstance(message["at"], int) and message["at"] > 1_700_000_000_000
    # No view, no version: the match and its move numbers are untouched.
    assert len(host.messages) == views + 1
    assert env.manager.inspect(code)["version"] == version
    assert (await env.store.load(code)).version == version


async def test_spectators_chat_without_a_seat_but_cannot_react(env: Env) -> None:
    _, _, (host, _, watcher) = await lobby(env)
    assert watcher.att is not None
    await watcher.att.talk({"t": "chat", "text": "nice game"})
    assert said(host)[-1]["seat"] is None and said(host)[-1]["name"] == ""
    with pytest.raises(RoomError, match="not_your_seat"):
        await watcher.att.talk({"t": "react", "reaction": "nice"})


async def test_a_reaction_reaches_everyone_and_is_not_kept(env: Env) -> None:
    code, _, (host, friend, watcher) = await lobby(env)
    assert friend.att is not None
    await friend.att.talk({"t": "react", "reaction": "gg"})
    for player in (host, friend, watcher):
        assert said(player, "react") == [{"t": "react", "seat": 1, "reaction": "gg"}]
    with pytest.raises(RoomError, match="bad_chat"):
        await friend.att.talk({"t": "react", "reaction": "<script>"})
    assert await env.store.chat(code) == []


async def test_bad_messages_are_refused_and_change_nothing(env: Env) -> None:
    code, _, (host, friend, _) = await lobby(env)
    assert host.att is not None
    for text in ["", " \n\t ", "\x00\x1b", "x" * (talk.MAX_TEXT + 1)]:
        with pytest.raises(RoomError, match="bad_chat"):
            await host.att.talk({"t": "chat", "text": text})
    with pytest.raises(RoomError, match="not_your_seat"):
        await host.att.talk({"t": "chat", "text": "as seat 1", "seat": 1})
    await host.att.talk({"t": "chat", "text": "y" * talk.MAX_TEXT})
    assert [m["text"] for m in said(friend)] == ["y" * talk.MAX_TEXT]
    assert len(await env.store.chat(code)) == 1


async def test_chat_survives_a_restart_with_the_hosts_mutes(env: Env) -> None:
    code, tokens, (host, friend, _) = await lobby(env)
    assert host.att is not None and friend.att is not None
    await host.att.talk({"t": "chat", "text": "first"})
    await friend.att.talk({"t": "chat", "text": "second"})
    await host.att.talk({"t": "mute", "seat": 1, "muted": True})
    await env.manager.unload(code)
    env.new_manager("b")
    again = await env.join(code, [tokens[1]])
    assert again.att is not None
    history = again.att.take_history()
    assert [(m["seat"], m["text"]) for m in history] == [(0, "first"), (1, "second")]
    assert again.att.take_history() == []  # once, for the welcome
    assert again.last["room"]["talk"]["muted"] == [1]
    with pytest.raises(RoomError, match="muted"):
        await again.att.talk({"t": "chat", "text": "let me speak"})


async def test_the_history_keeps_the_last_200_messages(env: Env) -> None:
    code, tokens, (host, *_) = await lobby(env)
    assert host.att is not None
    for n in range(talk.HISTORY + 5):
        await host.att.talk({"t": "chat", "text": f"m{n}"})
    kept = [f"m{n}" for n in range(5, talk.HISTORY + 5)]
    assert [m["text"] for m in await env.store.chat(code)] == kept
    late = await env.join(code, [tokens[1]])
    assert late.att is not None
    assert [m["text"] for m in late.att.take_history()] == kept
    await env.manager.unload(code)
    env.new_manager("b")
    reloaded = await env.join(code, [])
    assert reloaded.att is not None
    assert [m["text"] for m in reloaded.att.take_history()] == kept


async def test_the_host_mutes_a_seat_and_the_spectators(env: Env) -> None:
    _, _, (host, friend, watcher) = await lobby(env)
    assert host.att is not None and friend.att is not None and watcher.att is not None
    assert watcher.last["room"]["talk"] is None
    with pytest.raises(RoomError, match="not_host"):
        await friend.att.talk({"t": "mute", "seat": 0, "muted": True})
    with pytest.raises(RoomError, match="bad_seat"):
        await host.att.talk({"t": "mute", "seat": 0, "muted": True})
    with pytest.raises(RoomError, match="bad_seat"):
        await host.att.talk({"t": "mute", "seat": 9, "muted": True})
    await host.att.talk({"t": "mute", "seat": 1, "muted": True})
    await host.att.talk({"t": "mute", "spectators": True, "muted": True})
    assert watcher.last["room"]["talk"] == {
        "text": True,
        "muted": [1],
        "spectators_muted": True,
        "deal_text": None,
    }
    for att, frame in [
        (friend.att, {"t": "chat", "text": "hi"}),
        (friend.att, {"t": "react", "reaction": "hurry"}),
        (watcher.att, {"t": "chat", "text": "hi"}),
    ]:
        with pytest.raises(RoomError, match="muted"):
            await att.talk(frame)
    await host.att.talk({"t": "chat", "text": "the host still talks"})
    await host.att.talk({"t": "mute", "seat": 1, "muted": False})
    await host.att.talk({"t": "mute", "spectators": True, "muted": False})
    assert watcher.last["room"]["talk"] is None  # all open again: views as small as before
    await friend.att.talk({"t": "chat", "text": "thanks"})
    assert [m["text"] for m in said(watcher)] == ["the host still talks", "thanks"]


async def test_a_mute_follows_its_player_through_a_match_and_not_past_a_leave(
    env: Env,
) -> None:
    code, tokens, (host, friend, _, watcher) = await lobby(env, humans=3)
    assert host.att is not None and friend.att is not None
    with pytest.raises(RoomError, match="bad_seat"):
        await host.att.talk({"t": "mute", "seat": 3, "muted": True})  # a CPU's seat
    await host.att.talk({"t": "mute", "seat": 3, "muted": False})  # nobody there: as asked
    await host.att.talk({"t": "mute", "seat": 1, "muted": True})
    await host.att.talk({"t": "mute", "seat": 2, "muted": True})
    await env.manager.start_match(code, tokens[0])
    # Handed to a CPU, the seat is still its player's, and so is the mute.
    await env.manager.hand_to_cpu(code, tokens[0], 1)
    assert watcher.last["room"]["talk"]["muted"] == [1, 2]
    with pytest.raises(RoomError, match="muted"):
        await friend.att.talk({"t": "chat", "text": "the CPU plays, I talk"})
    # Left during the match, a CPU plays seat 2 from now on: nobody there is muted.
    await env.manager.leave_seat(code, tokens[2])
    assert watcher.last["room"]["talk"]["muted"] == [1]
    await host.att.talk({"t": "mute", "seat": 1, "muted": False})
    assert watcher.last["room"]["talk"] is None
    assert (await env.saved(code))["talk"] is None  # the leaver's mute went with it


def test_mutes_saved_by_seat_number_load_as_those_seats_players() -> None:
    seats = [Seat("human", "Hana", "h0"), Seat("human", "Kei", "h1"), Seat("cpu")]
    saved = {"muted": [1, 2, 9], "spectators_muted": True, "deal_text": False}
    rules = talk.TalkRules.load(saved, seats)
    assert rules.muted == {"h1"} and rules.spectators_muted is True
    assert rules.muted_seats(seats) == [1]
    assert talk.TalkRules.load(rules.dump(), seats) == rules


async def hachinin_meri(env: Env) -> tuple[str, str, Player, Player]:
    """A Hachinin Meri room in the lobby: host and friend (seats 0, 1) attached, six CPUs;
    returns its code, the host's token and the two players."""
    seats = ["host", "open"] + ["cpu"] * 6
    code, _, token = await env.manager.create_room("hachinin_meri", {}, seats, seed=3)
    _, friend_token = await env.manager.take_seat(code, 1, "Kei")
    return code, token, await env.join(code, [token]), await env.join(code, [friend_token])


async def test_hachinin_meri_deals_are_quiet_unless_the_host_allows_text(env: Env) -> None:
    code, token, host, friend = await hachinin_meri(env)
    assert host.att is not None and friend.att is not None
    assert host.last["room"]["talk"]["deal_text"] is False
    await friend.att.talk({"t": "chat", "text": "ready when you are"})  # the lobby talks
    await env.manager.start_match(code, token)
    await env.manager.settled()
    assert friend.last["room"]["status"] == "playing"
    assert friend.last["room"]["talk"]["text"] is False
    with pytest.raises(RoomError, match="chat_off"):
        await friend.att.talk({"t": "chat", "text": "I hold the Robai"})
    await friend.att.talk({"t": "react", "reaction": "thinking"})  # reactions stay
    with pytest.raises(RoomError, match="not_host"):
        await friend.att.talk({"t": "deal_text", "allowed": True})
    await host.att.talk({"t": "deal_text", "allowed": True})
    assert friend.last["room"]["talk"] == {
        "text": True,
        "muted": [],
        "spectators_muted": False,
        "deal_text": True,
    }
    await friend.att.talk({"t": "chat", "text": "good luck"})
    assert [m["text"] for m in said(host)] == ["ready when you are", "good luck"]
    assert said(host, "react")[-1] == {"t": "react", "seat": 1, "reaction": "thinking"}
    assert (await env.saved(code))["talk"]["deal_text"] is True


async def test_other_games_have_no_quiet_deal_switch(env: Env) -> None:
    code, tokens, (host, *_) = await lobby(env)
    assert host.att is not None
    await env.manager.start_match(code, tokens[0])
    await host.att.talk({"t": "chat", "text": "mid-round talk is fine here"})
    with pytest.raises(RoomError, match="bad_request"):
        await host.att.talk({"t": "deal_text", "allowed": True})


@pytest.mark.parametrize("kind", ["redis", "cluster", "memory"])
async def test_talk_goes_through_the_relay_both_ways(
    kind: str, request: pytest.FixtureRequest
) -> None:
    url = "" if kind == "memory" else request.getfixturevalue(f"{kind}_url")
    async with running(kind, url) as (a, b):
        code, tokens = await humans_room(a, b)
        host = await join(a, code, [tokens[0]])
        assert host.att is not None
        await host.att.talk({"t": "chat", "text": "before you came"})
        remote = await join(b, code, [tokens[1]])
        assert isinstance(remote.att, RemoteAttachment)
        assert [m["text"] for m in remote.att.take_history()] == ["before you came"]
        await remote.att.talk({"t": "chat", "text": "from B"})
        await remote.att.talk({"t": "react", "reaction": "thanks"})
        await host.att.talk({"t": "mute", "seat": 1, "muted": True})
        with pytest.raises(RoomError, match="muted"):
            await remote.att.talk({"t": "chat", "text": "again"})
        await until(lambda: remote.last["room"]["talk"]["muted"] == [1])
        texts = [m["text"] for m in host.messages if m["t"] == "chat"]
        assert texts == ["before you came", "from B"]
        assert {"t": "react", "seat": 1, "reaction": "thanks"} in host.messages
        assert [m["text"] for m in remote.messages if m["t"] == "chat"] == ["from B"]
