"""Whole matches over real sockets: a newcomer, two remote humans, one shared device
(CPUs quick: these tests are not about the CPUs' pace)."""

from __future__ import annotations

from typing import Any

from client.lib import Client
from server.store import codec
from tests.net.drive import play_all
from tests.net.players import seat_view

SHORT = {"length": "short"}
PRIVATE = {"seat", "hand", "mark", "last_sent", "last_received", "hands", "marks"}


async def test_newcomer_plays_a_usunoro_match_to_the_end(client: Client) -> None:
    host = await client.create_room("usunoro", options=SHORT, cpu_pace="quick")
    summary = await client.start(host.code, host.token)
    assert [s["kind"] for s in summary["seats"]] == ["human", "cpu", "cpu", "cpu"]
    async with await client.connect(host.code, [host.token]) as conn:
        (last,) = await play_all(conn)
    places = last["outcome"]["places"]
    assert sorted(places)[0] == 1 and len(places) == 4
    assert (await client.room(host.code))["status"] == "over"


def with_views(raws: list[bytes]) -> list[tuple[bytes, dict[str, Any]]]:
    """Each frame of one connection as sent and decoded, a view patch merged into the
    view before it (as the client does), so every view message holds its whole view."""
    frames, view = [], None
    for raw in raws:
        message = codec.unpack(raw)
        if message["t"] == "view":
            if "patch" in message:
                assert view is not None, "a patch came before any whole view"
                message["view"] = {**view, **message["patch"]}
            view = message["view"]
        frames.append((raw, message))
    return frames


def forbidden_cards(message: dict[str, Any], deck: set[str]) -> set[str]:
    """Cards this client may not know while a round is in play: all but its own and sent."""
    view = message["view"]
    if view["seat"] is None:
        return deck  # a spectator knows no card until the round ends
    known = set(view["hand"]) | {view["last_sent"], view["last_received"], view["mark"]}
    return deck - known


async def test_two_remote_humans_each_see_only_their_own_hand_and_a_spectator_none(
    client: Client,
) -> None:
    host = await client.create_room(
        "usunoro", seats=["host", "open", "cpu", "cpu"], options=SHORT, cpu_pace="quick"
    )
    friend = await client.take_seat(host.code)
    await client.start(host.code, host.token)
    a = await client.connect(host.code, [host.token], record=True)
    b = await client.connect(host.code, [friend.token], record=True)
    spectator = await client.connect(host.code, [], record=True)
    async with a, b, spectator:
        await play_all(a, b)
    frames = {
        name: with_views(conn.raw or [])
        for name, conn in (("a", a), ("b", b), ("spectator", spectator))
    }
    views = [m for pairs in frames.values() for _, m in pairs if m["t"] == "view"]
    # Every hand is revealed when the round ends, so the frames name the whole deck.
    deck = {card for m in views for hand in m["view"]["hands"] if hand for card in hand}
    assert len(deck) == 16
    scanned = patches = 0
    for pairs in frames.values():
        for raw, message in pairs:
            if message["t"] != "view" or message["view"]["phase"] not in ("passing", "race"):
                continue  # round over: every hand is revealed to everyone
            for card in forbidden_cards(message, deck):
                assert codec.pack(card) not in raw, f"a frame names the hidden card {card}"
            # The scan does find cards that are there: the client's own hand, when sent.
            sent = message.get("patch", message["view"])
            assert all(codec.pack(card) in raw for card in sent.get("hand") or [])
            scanned += 1
            patches += "patch" in message
    assert scanned > 10 and patches > 5
    by_version = [
        {m["version"]: m for _, m in frames[name] if m["t"] == "view"} for name in ("a", "b")
    ]
    common = set(by_version[0]) & set(by_version[1])
    assert common
    for version in common:
        ma, mb = by_version[0][version], by_version[1][version]
        public_a = {k: v for k, v in ma["view"].items() if k not in PRIVATE}
        public_b = {k: v for k, v in mb["view"].items() if k not in PRIVATE}
        assert public_a == public_b


async def test_same_device_connection_sees_both_hands_and_moves_for_both(
    client: Client,
) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"], options=SHORT)
    friend = await client.take_seat(host.code)
    await client.start(host.code, host.token)
    async with await client.connect(host.code, [host.token, friend.token]) as conn:
        assert conn.seats == [0, 1]
        message = await conn.next_view()
        hands = {seat: seat_view(message, seat)["hand"] for seat in (0, 1)}
        assert all(len(hand) == 4 for hand in hands.values())
        assert set(message["legal"]) == {0, 1}
        for seat in (0, 1):
            ack = await conn.move({"type": "mark", "card": hands[seat][0]}, seat=seat)
            assert (ack["seat"], ack["seq"]) == (seat, 1)
        after = conn.view
        assert after is not None
        # Both marks are on the table, or they already went round in an exchange.
        before = message["view"]
        assert after["view"]["marked"][:2] == [True, True] or (
            after["view"]["exchanges"] > before["exchanges"]
        )
