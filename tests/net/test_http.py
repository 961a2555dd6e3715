"""The HTTP API over a real server: each route's answer and its error codes."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from client.lib import Client, ZashikiError
from server.rooms.actor import room as room_module
from tests.net.conftest import ServerProcess


def refusal(server: ServerProcess, method: str, path: str, data: bytes | None) -> tuple[int, str]:
    """Send a request that must fail; returns its HTTP status and error code."""
    request = urllib.request.Request(server.url + path, data=data, method=method)
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=5)
    return answer.value.code, json.loads(answer.value.read())["code"]


async def test_games_lists_every_game_with_seat_counts(client: Client) -> None:
    games = {g["id"]: g for g in await client.games()}
    assert games["usunoro"]["min_seats"] == games["usunoro"]["max_seats"] == 4


async def test_games_tell_a_newcomer_what_each_game_is_and_where_its_rules_are(
    server: ServerProcess, client: Client
) -> None:
    for game in await client.games():
        assert set(game["summary"]) == {"en", "ja"} and all(game["summary"].values())
        length = game["typical_minutes"]
        assert 0 < length["min"] <= length["max"]
        assert game["rules"] == {lang: f"/rules/{game['id']}.{lang}.html" for lang in ("en", "ja")}
        for path in game["rules"].values():
            with urllib.request.urlopen(server.url + path, timeout=5) as page:
                assert page.headers["content-type"].startswith("text/html")
                assert f'data-game="{game["id"]}"' in page.read().decode()


async def test_games_listing_marks_options_whose_choices_depend_on_the_seat_count(
    client: Client,
) -> None:
    games = {g["id"]: g for g in await client.games()}
    lord = next(o for o in games["utsuke"]["options"] if o["name"] == "lord_seat")
    assert lord["per_seat"] is True and lord["choices"] == ["random", 0, 1, 2, 3, 4]
    assert not any(o["per_seat"] for o in games["usunoro"]["options"])


async def test_a_seat_option_past_the_seat_count_is_refused_at_create(client: Client) -> None:
    three = ["host", "cpu", "cpu"]
    with pytest.raises(ZashikiError) as refused:
        await client.create_room("utsuke", seats=three, options={"lord_seat": 3})
    message = "option lord_seat must be one of ['random', 0, 1, 2] with 3 seats"
    assert (refused.value.code, refused.value.message) == ("bad_option", message)
    host = await client.create_room("utsuke", seats=three, options={"lord_seat": 2})
    await client.start(host.code, host.token)  # the last seat is a valid choice


async def test_games_list_the_clock_choices_and_a_room_keeps_the_one_picked(
    client: Client,
) -> None:
    games = {g["id"]: g for g in await client.games()}
    for game in games.values():
        clock = game["clock"]
        assert clock["modes"] == ["relaxed", "live", "days"] and clock["default"] == "relaxed"
        assert clock["days"]["default"] in {p["id"] for p in clock["days"]["presets"]}
    assert games["shirokuro_jong"]["clock"]["live"]["default"] == "5+20"
    host = await client.create_room("kokuto_rum", clock="days", clock_preset="2d+7d")
    summary = await client.room(host.code)
    day = 24 * 3600 * 1000
    assert summary["clock"] == {
        "mode": "days",
        "move_ms": 2 * day,
        "bank_ms": 7 * day,
        "vacation_ms": 7 * day,
    }
    assert summary["cover_after_ms"] is None  # the clock replaces CPU cover
    relaxed = await client.room((await client.create_room("kokuto_rum")).code)
    assert relaxed["clock"] is None and relaxed["cover_after_ms"] == 60_000
    for bad in (
        {"clock": "blitz"},
        {"clock": "live", "clock_preset": "1d+3d"},
        {"clock": "live", "vacation_days": 2},
        {"clock": "days", "vacation_days": 31},
        {"clock_preset": "10+60"},
    ):
        with pytest.raises(ZashikiError) as refused:
            await client.create_room("kokuto_rum", **bad)  # type: ignore[arg-type]
        assert refused.value.code == "bad_option"


async def test_created_room_has_a_readable_code_and_a_128_bit_token(client: Client) -> None:
    host = await client.create_room("usunoro")
    assert len(host.code) == 6 and not set(host.code) & set("01OI")
    assert host.seat == 0 and len(host.token) >= 22  # 16 bytes in URL-safe base64


async def test_summary_shows_seats_without_tokens(client: Client) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    summary = await client.room(host.code.lower())
    assert [s["kind"] for s in summary["seats"]] == ["human", "open", "cpu", "cpu"]
    assert host.token not in json.dumps(summary)


async def test_public_room_is_listed_until_its_seats_are_taken(client: Client) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"], public=True)
    assert host.code in {r["code"] for r in await client.public_rooms()}
    await client.take_seat(host.code)
    assert host.code not in {r["code"] for r in await client.public_rooms()}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "no_such_game"}, "bad_game"),
        ({"game": "usunoro", "seats": ["host", "host", "cpu", "cpu"]}, "bad_seat"),
        ({"game": "usunoro", "options": {"length": "forever"}}, "bad_option"),
        ({"game": 7}, "bad_request"),
    ],
)
async def test_bad_room_request_is_refused_with_its_code(
    server: ServerProcess, body: dict[str, object], code: str
) -> None:
    assert refusal(server, "POST", "/api/rooms", json.dumps(body).encode()) == (400, code)


async def test_full_room_refuses_another_seat(client: Client) -> None:
    host = await client.create_room("usunoro", seats=["host", "cpu", "cpu", "cpu"])
    with pytest.raises(ZashikiError) as refused:
        await client.take_seat(host.code)
    assert refused.value.code == "room_full"


async def test_only_the_host_starts_the_match(client: Client) -> None:
    host = await client.create_room("usunoro", seats=["host", "open", "cpu", "cpu"])
    friend = await client.take_seat(host.code)
    with pytest.raises(ZashikiError) as refused:
        await client.start(host.code, friend.token)
    assert refused.value.code == "not_host"


async def test_unknown_room_is_404_room_not_found(server: ServerProcess) -> None:
    assert refusal(server, "GET", "/api/rooms/ZZZZZZ", None) == (404, "room_not_found")


async def test_body_that_is_not_json_is_bad_request(server: ServerProcess) -> None:
    assert refusal(server, "POST", "/api/rooms", b"{oops") == (400, "bad_request")


async def test_healthz_reports_the_store_reachable(server: ServerProcess) -> None:
    with urllib.request.urlopen(server.url + "/healthz", timeout=5) as answer:
        assert json.loads(answer.read()) == {"ok": True}


async def test_the_probes_say_live_and_ready(server: ServerProcess) -> None:
    with urllib.request.urlopen(server.url + "/livez", timeout=5) as answer:
        assert json.loads(answer.read()) == {"ok": True}
    with urllib.request.urlopen(server.url + "/readyz", timeout=5) as answer:
        assert json.loads(answer.read()) == {"ok": True, "store": True, "draining": False}


async def test_metrics_count_live_rooms_and_moves(server: ServerProcess, client: Client) -> None:
    await client.create_room("usunoro")
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        text = answer.read().decode()
    rooms = next(line for line in text.splitlines() if line.startswith("zashiki_rooms_live "))
    assert int(rooms.split()[1]) >= 1
    assert "zashiki_moves_total" in text and "zashiki_save_seconds_mean" in text


async def test_root_serves_the_browser_client(server: ServerProcess) -> None:
    with urllib.request.urlopen(server.url + "/", timeout=5) as answer:
        assert answer.status == 200 and b"<html" in answer.read().lower()


def test_the_log_says_whether_the_move_path_runs_compiled(server: ServerProcess) -> None:
    # The server runs from the tree this process imports from.
    compiled = not (room_module.__file__ or "").endswith(".py")
    expected = "move path: compiled" if compiled else "move path: interpreted"
    assert expected in server.output()
