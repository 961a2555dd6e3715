"""A room whose save the server cannot load (its game withdrawn, a corrupt save; the
server answers `room_unavailable`, server/rooms/load_failures.py), as a player sees it:
the room's page says in English or Japanese that the room cannot be opened right now,
with the way back to the lobby, and asks again once a minute, not every few seconds; the
lobby's "Your rooms" shows the other rooms and marks that one, keeping its seat.

Each save is spoiled in the test's own Redis, the one the browser tests' server uses. The
minute is Playwright's fake clock (`page.clock`), moved on by the test.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Locator, Page, expect

from server.store import codec
from server.store.redis_store import RedisStore
from tests.browser.conftest import screenshot
from tests.browser.pages import english_left, seeded_room

RETRY_MS = 60_000  # net.js UNAVAILABLE_RETRY_MS


def spoil(redis_url: str, code: str, *, corrupt: bool) -> None:
    """Save the room as a game this server does not have or, `corrupt`, as bytes that are
    not msgpack at all (the room's summary then fails too)."""

    async def save() -> None:
        store = RedisStore(redis_url)
        await store.start()
        try:
            stored = await store.load(code)
            assert stored is not None
            data = codec.unpack(stored.blob)
            data["settings"]["game_id"] = "withdrawn_game"
            blob = b"\xc1 not msgpack" if corrupt else codec.pack(data)
            await store.save(code, stored.version + 1, blob)
        finally:
            await store.aclose()

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, save()).result(timeout=30)


def spoiled_room(redis_url: str, *, corrupt: bool) -> tuple[str, str]:
    """A started Kokuto Rum room (host and a CPU) whose save cannot be loaded: (code, the
    host's token)."""
    code, _, token = seeded_room(redis_url, "kokuto_rum", ["host", "cpu"], seed=3)
    spoil(redis_url, code, corrupt=corrupt)
    return code, token


def hold(page: Page, server_url: str, code: str, token: str) -> None:
    """Keep the host seat of room `code` in this browser, as taking it would."""
    page.goto(server_url + "/")
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))",
        [f"zashiki.seats.{code}", [{"seat": 0, "token": token}]],
    )


def open_unavailable(
    page: Page, server_url: str, code: str, token: str, says: tuple[str, str], back: str
) -> Locator:
    """Open room `code` (its host seat held) on Playwright's fake clock and check its
    notice says both of `says`, with the way back to the lobby labelled `back`. Returns
    the notice."""
    page.clock.install()
    hold(page, server_url, code, token)
    page.goto(f"{server_url}/?room={code}")
    notice = page.locator("#room-unavailable")
    for text in says:
        expect(notice).to_contain_text(text)
    expect(page.locator("#room-unavailable-lobby")).to_have_text(back)
    return notice


def held_tokens(page: Page, code: str) -> list[str]:
    """The seat tokens this browser keeps for room `code`."""
    return page.evaluate(
        "(key) => JSON.parse(localStorage.getItem(key) || '[]').map((s) => s.token)",
        f"zashiki.seats.{code}",
    )


def test_a_room_that_cannot_load_says_so_and_asks_again_once_a_minute(
    new_page, server_url: str, redis_url: str
) -> None:
    # Its game withdrawn: the summary answers, the websocket gets room_unavailable and 1013.
    code, token = spoiled_room(redis_url, corrupt=False)
    page = new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    says = ("can't be opened right now", "Your seat is kept")
    notice = open_unavailable(page, server_url, code, token, says, back="Back to lobby")
    assert "room_unavailable" not in page.locator("main").inner_text()
    screenshot(page, "room-unavailable-en")
    # Not every few seconds: nothing more for most of a minute (the old client reconnected
    # at 0.3, 0.6, 1.2, ... 8 s), and the page keeps saying so throughout.
    tried = len(sockets)
    assert tried == 1
    page.clock.run_for(RETRY_MS - 10_000)
    page.wait_for_timeout(300)  # a socket it were to open would show by now
    assert len(sockets) == tried
    page.clock.run_for(10_000)
    for _ in range(100):
        if len(sockets) > tried:
            break
        page.wait_for_timeout(50)
    assert len(sockets) == tried + 1
    page.wait_for_timeout(300)
    expect(notice).to_be_visible()
    assert held_tokens(page, code) == [token]


def test_a_corrupt_room_is_explained_in_japanese_and_retried(
    new_page, server_url: str, redis_url: str
) -> None:
    # Not msgpack: the summary itself answers room_unavailable (503).
    code, token = spoiled_room(redis_url, corrupt=True)
    page = new_page(locale="ja-JP")
    summaries: list[str] = []
    page.on("request", lambda r: summaries.append(r.url) if f"/api/rooms/{code}" in r.url else None)
    says = ("この部屋はいま開けません", "1分ごとに再試行")
    notice = open_unavailable(page, server_url, code, token, says, back="ロビーへ戻る")
    assert not english_left(page, code), english_left(page, code)
    screenshot(page, "room-unavailable-ja")
    asked = len(summaries)
    page.clock.run_for(RETRY_MS)
    for _ in range(100):
        if len(summaries) > asked:
            break
        page.wait_for_timeout(50)
    assert len(summaries) == asked + 1
    expect(notice).to_contain_text("この部屋はいま開けません")


def test_your_rooms_shows_the_other_rooms_and_marks_the_one_that_cannot_load(
    new_page, server_url: str, redis_url: str
) -> None:
    good, _, good_token = seeded_room(redis_url, "kokuto_rum", ["host", "cpu"], seed=4)
    broken, broken_token = spoiled_room(redis_url, corrupt=True)
    for locale, note in (("en-US", "can't be opened right now"), ("ja-JP", "いまは開けません")):
        page = new_page(locale=locale)
        hold(page, server_url, good, good_token)
        hold(page, server_url, broken, broken_token)
        page.goto(server_url + "/")
        expect(page.locator(f'[data-unavailable="{broken}"]')).to_have_text(note)
        expect(page.locator(f'#your-rooms-list li[data-room="{good}"]')).to_contain_text(
            "Kokuto Rum" if locale == "en-US" else "黒糖"
        )
        expect(page.locator(f'[data-key="resume-{broken}"]')).to_be_visible()
        assert held_tokens(page, broken) == [broken_token]
        assert "room_unavailable" not in page.locator("#your-rooms").inner_text()
        screenshot(page, f"your-rooms-unavailable-{locale}")
