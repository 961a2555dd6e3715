"""Review together over real sockets and HTTP (a real server process): the review of a
finished match by HTTP, as each asker may see it; made as soon as a match run by the
server ends, before anyone asks; an ask while it is made answered at once with how far
it is, then the review; the session's frames over the websocket (malformed ones refused
as bad_frame, the leader's step reaching a spectator); PROTOCOL.md "Reviews" and
"Review together"."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

from client.lib import Client
from server.rooms.history.archive import review_key
from server.rooms.history.matches import finished_matches
from server.store import codec
from server.store.redis_store import RedisStore
from tests.net.conftest import ServerProcess
from tests.net.drive import play_all
from tests.net.test_talk import hello, next_of
from tests.rooms.finished import finished_usunoro_room, offline_env
from tests.rooms.review_support import finished_room

DEADLINE_S = 120.0  # a review on a loaded machine; the tests wait on answers, not on time


def review(port: int, code: str, token: str | None, seat: str) -> tuple[int, dict]:
    """GET the review of match 1 (status, answer)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"http://127.0.0.1:{port}/api/rooms/{code}/matches/1/review?seat={seat}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


async def made(port: int, code: str, token: str | None, seat: str) -> list[tuple[int, dict]]:
    """Every answer to asking for the review until it comes (202s, then the 200)."""
    answers = [await asyncio.to_thread(review, port, code, token, seat)]
    deadline = time.monotonic() + DEADLINE_S
    while answers[-1][0] == 202 and time.monotonic() < deadline:
        await asyncio.sleep(0.2)  # the pace of asking, as a client's Retry-After
        answers.append(await asyncio.to_thread(review, port, code, token, seat))
    return answers


async def test_a_review_over_http_and_its_session_over_the_websocket(
    server: ServerProcess, client: Client, redis_url: str
) -> None:
    code, (aki, ben) = await finished_usunoro_room(redis_url, humans=2, seed=41)
    status, mine = (await made(server.port, code, aki, "0"))[-1]
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


async def test_a_match_that_ends_on_the_server_has_its_review_made_before_anyone_asks(
    server: ServerProcess, client: Client, redis_url: str
) -> None:
    host = await client.create_room(
        "usunoro", seats=["host", "open", "cpu", "cpu"], options={"length": "short"}
    )
    friend = await client.take_seat(host.code)
    await client.start(host.code, host.token)
    async with await client.connect(host.code, [host.token, friend.token]) as both:
        await play_all(both)
    store = RedisStore(redis_url)
    await store.start()
    try:
        (match,) = finished_matches(await store.read_log(host.code))
        key = review_key(match)
        # Nobody asks: the store is read until the review the server queued is there.
        deadline = time.monotonic() + DEADLINE_S
        while (kept := await store.review(host.code, key)) is None:
            assert time.monotonic() < deadline, "the review was not made after the match"
            await asyncio.sleep(0.1)
    finally:
        await store.aclose()
    assert [p["seat"] for p in kept["players"]] == [0, 1] and kept["match"] == 1
    # The first ask finds it made: the review at once, no progress.
    status, mine = review(server.port, host.code, host.token, "0")
    assert status == 200 and mine["players"] == kept["players"]


async def test_an_ask_while_the_review_is_made_gets_its_progress_then_the_review(
    server: ServerProcess, redis_url: str
) -> None:
    # A Junocos match of two humans, played elsewhere: seconds of the CPU's looks, made
    # when first asked (the server never saw it end).
    async with offline_env(redis_url) as env:
        code, (aki, ben) = await finished_room(env, "junocos", seed=5)
    answers = await made(server.port, code, aki, "0")
    (status, first), *_ = answers
    assert status == 202  # answered at once, not after the seconds the making takes
    assert first == {"status": "preparing", "match": 1, "done": 0, "total": first["total"]}
    status, final = answers[-1]
    assert status == 200 and len(final["marks"]) == first["total"] > 0
    progress = [answer for status, answer in answers if status == 202]
    done = [answer["done"] for answer in progress]
    assert done == sorted(done) and all(a["total"] == first["total"] for a in progress)
    # Later asks, any perspective, read it made; what each may see is as ever.
    status, watched = review(server.port, code, None, "open")
    assert status == 200 and not any(
        {"cpu", "why", "card", "size"} & set(m) for m in watched["marks"]
    )


async def test_progress_shows_nothing_a_seat_may_not_see(
    server: ServerProcess, redis_url: str
) -> None:
    async with offline_env(redis_url) as env:
        code, (aki, ben) = await finished_room(env, "junocos", seed=6)
    status, mine = review(server.port, code, aki, "open")
    assert status == 202 and set(mine) == {"status", "match", "done", "total"}
    status, watched = review(server.port, code, None, "open")  # a spectator, while it is made
    assert status == 202 and set(watched) == {"status", "match", "done", "total"}
    assert review(server.port, code, "not-a-token", "0")[0] == 403
    assert review(server.port, code, ben, "9")[1]["code"] == "bad_seat"
    assert (await made(server.port, code, ben, "1"))[-1][0] == 200
