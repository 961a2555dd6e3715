"""First matches over HTTP: `POST /api/learn/{game}` on a real server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.lib import Client, ZashikiError
from server.games import registry
from server.rooms.first_match import FIRST_DEALS
from tests.net.conftest import ServerProcess
from tests.net.drive import view_where


def learn_refused(server: ServerProcess, game: str, body: bytes = b"") -> tuple[int, str]:
    """A first-match request that must fail: its HTTP status and error code."""
    request = urllib.request.Request(f"{server.url}/api/learn/{game}", body, method="POST")
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=5)
    return answer.value.code, json.loads(answer.value.read())["code"]


async def test_a_first_match_is_the_games_fixed_deal_already_playing(
    server: ServerProcess, client: Client
) -> None:
    deal = FIRST_DEALS["kokuto_rum"]
    seat = await client.first_match("kokuto_rum", name="Aiko")
    assert seat.seat == 0
    summary = await client.room(seat.code)
    assert summary["status"] == "playing" and summary["game"] == "kokuto_rum"
    assert [s["kind"] for s in summary["seats"]] == ["human", "cpu"]
    assert summary["seats"][0]["name"] == "Aiko"
    assert summary["difficulty"] == "easy" and not summary["public"]
    assert not summary["spectators"] and summary["cover_after_ms"] is None
    game = registry.get("kokuto_rum")
    assert summary["options"] == game.resolve_options(deal.options)
    async with await client.connect(seat.code, [seat.token]) as conn:
        view = await view_where(conn, lambda m: bool(m["legal"].get(0)))
        # The deal is the seed's: the learner's hand is the one the engine deals.
        options = game.resolve_options(deal.options)
        dealt = game.view(game.new(2, options, deal.seed, cpu_seats=[1]), 0)
        assert view["view"]["hand"] == dealt["hand"]


async def test_a_game_without_a_first_match_and_bad_bodies_are_refused(
    server: ServerProcess, client: Client
) -> None:
    assert learn_refused(server, "chess") == (400, "bad_game")
    assert learn_refused(server, "usunoro", b"[1]") == (400, "bad_request")
    assert learn_refused(server, "usunoro", b'{"name": 5}') == (400, "bad_request")
    with pytest.raises(ZashikiError) as refused:
        await client.connect((await client.first_match("utsuke")).code)
    assert refused.value.code == "no_spectators"


@pytest.fixture
def limited_server(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    """A server allowing a client 3 rooms at once."""
    monkeypatch.setenv("ZASHIKI_RATE_LIMITS", "rooms=6/3")
    proc = ServerProcess(redis_url, tmp_path / "limited.log")
    proc.start()
    yield proc
    proc.stop()


async def test_first_matches_spend_the_room_creation_allowance(
    limited_server: ServerProcess,
) -> None:
    client = Client(limited_server.url)
    await client.create_room("usunoro")
    await client.first_match("usunoro")
    await client.first_match("junocos")
    with pytest.raises(ZashikiError) as refused:
        await client.first_match("usunoro")
    assert refused.value.code == "rate_limited"
