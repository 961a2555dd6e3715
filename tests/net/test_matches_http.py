"""The match history over HTTP against a real server: the list, match files (full for a
room's players, spectator for anyone else) and pages of replay steps."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import jsonschema

from server.rooms.history.match_file import SCHEMA_PATH, verify
from tests.net.conftest import ServerProcess
from tests.rooms.finished import finished_usunoro_room


def get(server: ServerProcess, path: str, token: str | None = None, raw: str | None = None) -> Any:
    """GET a JSON answer; a failure comes back as (status, error code)."""
    request = urllib.request.Request(server.url + path)
    if token is not None or raw is not None:
        request.add_header("Authorization", raw or f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())["code"]


async def test_players_get_the_full_file_and_any_seat_anyone_else_the_spectator_view(
    server: ServerProcess, redis_url: str
) -> None:
    code, (host, friend) = await finished_usunoro_room(redis_url, humans=2, seed=51)
    listing = get(server, f"/api/rooms/{code}/matches")
    (match,) = listing["matches"]
    assert listing["game"] == "usunoro" and match["match"] == 1
    assert len(match["places"]) == 4 and 1 in match["places"]
    assert match["winners"] == [s for s, p in enumerate(match["places"]) if p == 1]
    assert match["scores"] is not None and match["ended"] >= match["started"]
    assert [row["played"] for row in listing["standings"]] == [1, 1, 1, 1]

    full = get(server, f"/api/rooms/{code}/matches/1", token=friend)
    assert full["kind"] == "full" and full["inputs"] and full["seed"].isdigit()
    assert verify(full).match.outcome == full["outcome"]
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.validate(full, schema)
    spectator = get(server, f"/api/rooms/{code}/matches/1")
    assert spectator["kind"] == "spectator" and "seed" not in spectator
    jsonschema.validate(spectator, schema)
    assert all(step["view"]["hand"] is None for step in spectator["steps"])

    steps = f"/api/rooms/{code}/matches/1/steps"
    mine = get(server, steps + "?seat=1&count=5", token=friend)
    assert mine["perspective"] == 1 and len(mine["steps"]) == 5 and mine["next"] == 5
    assert mine["steps_total"] == len(full["inputs"]) + 1
    assert all(step["view"]["hand"] for step in mine["steps"])
    watcher = get(server, steps + "?seat=1&count=5")
    assert watcher["perspective"] is None
    assert all(step["view"]["hand"] is None for step in watcher["steps"])
    assert all("action" not in step for step in watcher["steps"])
    opened = get(server, steps + f"?seat=open&from={mine['steps_total'] - 1}", token=host)
    (last,) = opened["steps"]
    assert opened["next"] is None and last["outcome"]["places"] == match["places"]
    assert sorted(last["views"]) == ["0", "1", "2", "3"]
    assert get(server, steps + "?seat=open")["perspective"] is None


async def test_bad_history_requests_get_clear_errors(server: ServerProcess, redis_url: str) -> None:
    code, (host, _) = await finished_usunoro_room(redis_url, humans=2, seed=52)
    base = f"/api/rooms/{code}/matches"
    assert get(server, "/api/rooms/ZZZZZZ/matches") == (404, "room_not_found")
    assert get(server, base + "/2") == (404, "match_not_found")
    assert get(server, base + "/x") == (400, "bad_request")
    assert get(server, base + "/1", token="not-a-seat-token") == (403, "bad_token")
    assert get(server, base + "/1", raw="Basic abc") == (403, "bad_token")
    assert get(server, base + "/1/steps?seat=9", token=host) == (400, "bad_seat")
    assert get(server, base + "/1/steps?seat=-1", token=host) == (400, "bad_seat")
    assert get(server, base + "/1/steps?from=99999", token=host) == (400, "bad_request")
    assert get(server, base + "/1/steps?count=ten") == (400, "bad_request")
