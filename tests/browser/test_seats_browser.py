"""Seats that follow the player, in real Chromium (issue 16): presence and CPU cover,
seat links, the host's re-issue, leaving, "your rooms", names as text, turn signals and
starting with open seats.

Rooms are made over HTTP (with a short cover delay) and opened by seat links, the way a
host's other device would; friends take their seats in the page.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    PHONE,
    click_first,
    close_sheet,
    english_left,
    host_room,
    open_sheet,
    wait_until,
)

COVER_S = 3
HACHININ_MOVES = ("#declare-prompt button", ".my-hand button.tcard.playable")


def post(server_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server_url + path, data=json.dumps(body).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def seat_moves(redis_url: str, code: str, seat: int) -> int:
    """How many moves the room's saved log holds for `seat` (a human's or its CPU's)."""
    from server.store.redis_store import RedisStore

    async def count() -> int:
        store = RedisStore(redis_url)
        await store.start()
        try:
            log = await store.read_log(code)
        finally:
            await store.aclose()
        return sum(1 for e in log if e["k"] == "m" and e["s"] == seat)

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, count()).result(timeout=30)


def make_room(server_url: str, game: str, seats: list[str], cover: int | str) -> dict[str, Any]:
    body = {"game": game, "seats": seats, "cover_after_s": cover, "host_name": "Hana"}
    return post(server_url, "/api/rooms", body)


def open_link(page: Page, link: str) -> None:
    page.goto(link)
    expect(page.locator("#connection-status")).to_contain_text("Connected")


def seat_link(server_url: str, code: str, seat: int, token: str) -> str:
    return f"{server_url}/?room={code}#seat={seat}&token={token}"


def take_seat_named(page: Page, server_url: str, code: str, name: str) -> str:
    """Open the room as a friend, give a name, take the open seat; returns the seat link."""
    page.goto(f"{server_url}/?room={code}")
    page.fill("#my-name", name)
    page.click("#take-seat")
    expect(page.locator("#seat-list")).to_contain_text("You")
    link = page.locator("[id^=seat-link-]:not([id$=-copy])").first.input_value()
    assert "#seat=" in link and "token=" in link and "?room=" in link
    assert "token" not in link.split("#")[0], "the token is in the fragment only"
    return link


def presence(page: Page, seat: int):  # type: ignore[no-untyped-def]
    return page.locator(f'[data-presence-text="{seat}"]')


def test_an_away_friend_is_covered_after_the_delay_and_gets_the_seat_back(
    new_page, server_url: str, redis_url: str
) -> None:
    room = make_room(server_url, "hachinin_meri", ["host", "open"] + ["cpu"] * 6, COVER_S)
    code = room["code"]
    host, friend = new_page(), new_page(**PHONE)
    open_link(host, seat_link(server_url, code, 0, room["token"]))
    assert "#" not in host.url, "the fragment is wiped from the address bar"
    link = take_seat_named(friend, server_url, code, "Kai")
    expect(host.locator("#seat-list")).to_contain_text("Kai")
    host.click("#start-button")
    for page in (host, friend):
        expect(page.locator(".table")).to_be_visible()
    expect(presence(host, 1)).to_have_text("here")
    expect(host.locator('.seat[data-seat="1"] .presence-word')).to_have_text("here")
    open_sheet(host, "people")  # the players' details and the host's buttons: a sheet
    expect(host.locator('[data-presence-seat="0"] .host-badge')).to_be_visible()
    close_sheet(host, "people")
    before = seat_moves(redis_url, code, 1)

    friend.context.close()  # the friend closes the page mid-deal

    expect(presence(host, 1)).to_contain_text("away")
    expect(presence(host, 1)).to_contain_text("CPU plays for them in")
    screenshot(host, "seats-friend-away")
    expect(presence(host, 1)).to_have_text("CPU playing for Kai", timeout=COVER_S * 1000 + 10_000)
    # The host plays on; the table moves past the away seat, which its CPU plays.
    deadline = time.monotonic() + 60
    while seat_moves(redis_url, code, 1) == before and time.monotonic() < deadline:
        if not click_first(host, HACHININ_MOVES):
            host.wait_for_timeout(200)
    assert seat_moves(redis_url, code, 1) > before, "the CPU plays the away friend's seat"
    screenshot(host, "seats-friend-covered")

    back = new_page(**PHONE)
    open_link(back, link)  # the seat link, in a new browser
    expect(back.locator(".table")).to_be_visible()
    expect(back.locator(".my-hand [data-card]").first).to_be_visible()
    expect(presence(host, 1)).to_have_text("here")
    expect(presence(back, 1)).to_have_text("here")
    screenshot(back, "seats-friend-back-phone")
    moves = seat_moves(redis_url, code, 1)
    back.wait_for_timeout(4000)  # CPUs move within 1.5 s: none may move for seat 1
    assert seat_moves(redis_url, code, 1) == moves, "the CPU stopped playing the seat"


def test_with_wait_the_table_waits_for_an_away_friend_and_says_so(
    new_page, server_url: str, redis_url: str
) -> None:
    room = make_room(server_url, "kokuto_rum", ["host", "open"], "wait")
    code = room["code"]
    host, friend = new_page(), new_page()
    open_link(host, seat_link(server_url, code, 0, room["token"]))
    expect(host.locator("#cover-note")).to_have_text(
        "If a player is away, the table waits for them."
    )
    link = take_seat_named(friend, server_url, code, "Kai")
    host.click("#start-button")
    expect(friend.locator(".table")).to_be_visible()
    friend.context.close()
    expect(presence(host, 1)).to_contain_text("the table waits for them")
    expect(host.locator("#table-waits")).to_have_text("Waiting for Kai to come back.")
    host.wait_for_timeout((COVER_S + 2) * 1000)
    expect(presence(host, 1)).to_contain_text("away")
    assert seat_moves(redis_url, code, 1) == 0, "nobody plays the waiting seat"
    screenshot(host, "seats-table-waits")
    back = new_page()
    open_link(back, link)
    expect(presence(host, 1)).to_have_text("here")
    expect(host.locator("#table-waits")).to_have_count(0)


def test_a_reissued_link_revokes_the_old_one(new_page, server_url: str) -> None:
    room = make_room(server_url, "kokuto_rum", ["host", "open"], COVER_S)
    code = room["code"]
    host, friend = new_page(**PHONE), new_page()
    open_link(host, seat_link(server_url, code, 0, room["token"]))
    old = take_seat_named(friend, server_url, code, "Kai")
    host.click("#reissue-1")
    fresh = host.locator("#reissued-link").input_value()
    screenshot(host, "seats-waiting-room-reissued-phone")
    assert fresh != old and "#seat=1&token=" in fresh
    expect(friend.locator("#seat-revoked")).to_contain_text("The host gave this seat a new link")
    old_token = old.split("token=")[1]
    answer = post(server_url, "/api/your-rooms", {"seats": [{"code": code, "token": old_token}]})
    assert answer["rooms"] == [{"code": code, "error": "not_your_seat"}]
    stale = new_page()
    stale.goto(old)
    expect(stale.locator("#seat-revoked")).to_be_visible()
    again = new_page()
    open_link(again, fresh)
    expect(again.locator("#seat-list")).to_contain_text("You (Kai)")


def test_leaving_opens_the_seat_in_the_lobby_and_makes_it_a_cpu_mid_match(
    new_page, server_url: str
) -> None:
    room = make_room(server_url, "kokuto_rum", ["host", "open"], COVER_S)
    code = room["code"]
    host, friend = new_page(), new_page()
    open_link(host, seat_link(server_url, code, 0, room["token"]))
    take_seat_named(friend, server_url, code, "Kai")
    friend.click("#leave-seat")
    expect(friend.locator("#leave-text")).to_have_text(
        "Leave your seat? It opens again for someone else."
    )
    friend.click("#leave-yes")
    friend.wait_for_url(re.compile(r"/$"))
    expect(host.locator('#seat-list [data-seat-row="1"]')).to_contain_text("open for a friend")

    take_seat_named(friend, server_url, code, "Kai")
    host.click("#start-button")
    expect(friend.locator(".table")).to_be_visible()
    friend.click("#settings-button")
    friend.click("#leave-seat")
    expect(friend.locator("#leave-text")).to_have_text(
        "Leave your seat? A CPU plays it from now on."
    )
    friend.click("#leave-yes")
    friend.wait_for_url(re.compile(r"/$"))
    left = host.locator('#presence [data-presence-seat="1"]')
    expect(left).to_have_attribute("data-presence", "cpu")
    expect(left.locator(".seat-name")).to_have_text("CPU 2")
    expect(friend.locator("#your-rooms")).not_to_contain_text(code)


def test_your_rooms_shows_your_turn_and_resume_opens_the_room(new_page, server_url: str) -> None:
    room = make_room(server_url, "kokuto_rum", ["host", "cpu"], COVER_S)
    code = room["code"]
    post(server_url, f"/api/rooms/{code}/start", {"token": room["token"]})
    page = new_page(**PHONE)
    page.goto(seat_link(server_url, code, 0, room["token"]))
    expect(page.locator(".table")).to_be_visible()
    page.goto(server_url + "/")
    row = page.locator(f'#your-rooms [data-room="{code}"]')
    expect(row.locator(".your-turn")).to_have_text("Your turn")
    expect(row).to_contain_text("Kokuto Rum")
    screenshot(page, "seats-your-rooms-phone")
    row.locator("button", has_text="Resume").click()
    expect(page.locator(".table")).to_be_visible()
    assert f"room={code}" in page.url
    # Hidden tab, own move: the title says so.
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    wait_until(page, "() => document.title.startsWith('● Your move')")


def test_names_are_shown_as_text_never_as_markup(new_page, server_url: str) -> None:
    room = make_room(server_url, "kokuto_rum", ["host", "open"], COVER_S)
    code = room["code"]
    host, friend = new_page(), new_page()
    open_link(host, seat_link(server_url, code, 0, room["token"]))
    friend.goto(f"{server_url}/?room={code}")
    friend.evaluate("() => localStorage.setItem('zashiki.name', '<img src=x onerror=pwn()>')")
    friend.goto(f"{server_url}/?room={code}")
    host.evaluate("() => { window.pwned = false; window.pwn = () => { window.pwned = true; }; }")
    friend.click("#take-seat")
    name = host.locator('#seat-list [data-seat-row="1"] .seat-name')
    expect(name).to_have_text("<img src=x onerror=pwn()")  # cut at 24 characters
    assert host.locator("#seat-list img").count() == 0
    host.click("#start-button")
    expect(host.locator('#presence [data-presence-seat="1"] .seat-name')).to_have_text(
        "<img src=x onerror=pwn()"
    )
    assert host.locator("#presence img, .table img").count() == 0
    assert host.evaluate("() => window.pwned") is False


def test_starting_with_an_open_seat_asks_first(new_page, server_url: str) -> None:
    host = new_page(**PHONE)
    code = host_room(host, server_url, "kokuto_rum", seats=2, friend_seats=(1,))
    host.click("#start-button")
    expect(host.locator("#start-open-text")).to_have_text(
        "Seat 2 is still open for a friend: start with a CPU there?"
    )
    screenshot(host, "seats-start-confirm-phone")
    host.click("#keep-waiting")
    expect(host.locator("#start-button")).to_be_visible()
    host.click("#lang-toggle")
    host.click("#start-button")
    expect(host.locator("#start-open-text")).to_have_text(
        "2番席がまだ友だち用に空いています。CPUを入れて始めますか？"
    )
    assert english_left(host, code) == set()
    host.click("#start-with-cpu")
    expect(host.locator(".table")).to_be_visible()
    assert english_left(host, code) == set()
    screenshot(host, "seats-table-ja-phone")
