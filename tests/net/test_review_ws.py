"""Review together over real sockets and HTTP (a real server process): the review of a
finished match by HTTP, as each asker may see it; the session's frames over the
websocket (malformed ones refused as bad_frame, the leader's step reaching a spectator);
PROTOCOL.md "Reviews" and "Review together"."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from client.lib import Client
from server.store import codec
from tests.net.conftest import ServerProcess
from tests.net.test_talk import hello, next_of
from tests.rooms.finished import finished_usunoro_room


def review(port: int, code: str, token: str | None, seat: str) -> tuple[int, dict]:
    """GET the review of match 1 (status, answer)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"http://127.0.0.1:{port}/api/rooms/{code}/matches/1/review?seat={seat}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


async def test_a_review_over_http_and_its_session_over_the_websocket(
    server: ServerProcess, client: Client, redis_url: str
) -> None:
    code, (aki, ben) = await finished_usunoro_room(redis_url, humans=2, seed=41)
    status, mine = review(server.port, code, aki, "0")
    assert status == 200 and [p["seat"] for p in mine["players"]] == [0, 1]
    status, watched = review(server.port, code, None, "open")  # a spectator gets its own
    assert status == 200 and watched["players"] == mine["players"]
    assert not any({"cpu", "why", "card", "size"} & set(m) for m in watched["marks"])
    assert review(server.port, code, "not-a-token", "0")[0] == 403
    assert review(server.port, code, aki, "9")[1]["code"] == "bad_seat"

    leader, _ = await hello(server.port, code, [aki])
    watcher, _ = await hello(server.port, code, [])
    await leader.send(codec.pack({"t": "review_step", "step": "two"}))
    assert (await next_of(leader, "error"))["code"] == "bad_frame"
    await watcher.send(codec.pack({"t": "review_open", "match": 1}))
    assert (await next_of(watcher, "error"))["code"] == "not_your_seat"
    await leader.send(codec.pack({"t": "review_open", "match": 1}))
    opened = await next_of(leader, "review_state")
    assert opened["lead"] and opened["match"] == 1 and opened["step"] == 0
    told = await next_of(watcher, "review_state")  # told of it, not in it yet
    assert told["open"] and not told["following"]
    await watcher.send(codec.pack({"t": "review_open", "match": 1}))
    assert (await next_of(watcher, "review_state"))["following"]
    await leader.send(codec.pack({"t": "review_step", "step": 5}))
    state = await next_of(watcher, "review_state")
    assert (state["step"], state["leader"], state["lead"]) == (5, 0, False)
    await leader.close()  # the only player goes: the session ends
    assert await next_of(watcher, "review_state") == {"t": "review_state", "open": False}
    await watcher.close()
