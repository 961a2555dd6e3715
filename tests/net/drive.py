"""Driving connections through a match with the plain player (see players.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from client.lib import Client, Connection, Seat, ZashikiError
from tests.net.players import choose, seat_view

MATCH_TIMEOUT_S = 60.0


async def play(conn: Connection) -> dict[str, Any]:
    """Play every seat `conn` holds until the match is over; returns the last view message.

    Each view is reported shown at once (so game clocks start without the 1.5 s cap), and
    decisions use the newest view received. Moves that lost a race are refused with
    illegal_action, which is part of real-time play and ignored here.
    """
    async for message in conn.views():
        message = conn.view or message
        await conn.send({"t": "shown", "version": message["version"]})
        if message["room"]["status"] == "over":
            return message
        for seat, legal in message["legal"].items():
            move = choose(seat_view(message, seat), legal)
            if move is None:
                continue
            try:
                await conn.move(move, seat=seat)
            except ZashikiError as exc:
                if exc.code != "illegal_action":
                    raise
    raise ConnectionError("the connection closed before the match ended")


async def play_all(*conns: Connection) -> list[dict[str, Any]]:
    """Play several connections at once, each in its own task, within MATCH_TIMEOUT_S.

    A match that does not end in time fails with where each connection stood, so a
    stall seen once under load can be read from the failure alone.
    """
    try:
        return await asyncio.wait_for(
            asyncio.gather(*(play(conn) for conn in conns)), MATCH_TIMEOUT_S
        )
    except TimeoutError:
        raise AssertionError(
            f"the match did not end in {MATCH_TIMEOUT_S:.0f} s:\n"
            + "\n".join(where(conn) for conn in conns)
        ) from None


def where(conn: Connection) -> str:
    """One line on where `conn` stands: its newest view, moves awaiting an answer, errors."""
    message = conn.view or {}
    view = message.get("view") or {}
    return (
        f"seats {conn.seats}: version {message.get('version')}, "
        f"status {message.get('room', {}).get('status')}, phase {view.get('phase')}, "
        f"legal {message.get('legal')}, moves unanswered {conn.unanswered}, "
        f"errors {conn.errors[-3:]}, reconnects {conn.reconnects}"
    )


async def view_at(conn: Connection, version: int) -> dict[str, Any]:
    """The first view message of at least `version` (the newest one already received too)."""
    while conn.view is None or conn.view["version"] < version:
        await conn.next_view()
    return conn.view


async def view_where(conn: Connection, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first view message (the newest already received included) that passes `test`."""
    while conn.view is None or not test(conn.view):
        await conn.next_view()
    return conn.view


async def humans_only_room(client: Client) -> list[Seat]:
    """A started Usunoro room whose four seats are all human: nothing moves unless we do."""
    host = await client.create_room("usunoro", seats=["host", "open", "open", "open"])
    seats = [host] + [await client.take_seat(host.code) for _ in range(3)]
    await client.start(host.code, host.token)
    return seats
