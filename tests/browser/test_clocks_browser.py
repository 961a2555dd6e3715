"""Seat clocks in real Chromium (issue 44): the create-room clock choice, a days room's
clocks in the seat panels and the players' line, a vacation, and "Your rooms" as the home
of turn-based play (your move first, your clock, the last move in words, the count)."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import ALLOWED_LATIN, ENGLISH_WORD, PHONE, english_left, open_sheet
from tests.browser.test_seats_browser import post, seat_link

RAW_KEY = re.compile(r"\b(clock|vacation|dur|ml|your)_[a-z_]+\b")


def days_room(server_url: str) -> dict[str, str]:
    """A started Kokuto Rum room with a days clock: the host at seat 0, a CPU at seat 1."""
    body = {
        "game": "kokuto_rum",
        "seats": ["host", "cpu"],
        "host_name": "Hana",
        "clock": "days",
        "clock_preset": "1d+3d",
        "vacation_days": 7,
    }
    room = post(server_url, "/api/rooms", body)
    post(server_url, f"/api/rooms/{room['code']}/start", {"token": room["token"]})
    return room


def cpu_has_moved(server_url: str, room: dict[str, str]) -> None:
    """Wait (up to 10 s) until the CPU at seat 1 has chosen its rotation, the match's first
    move: it thinks for 0.5-1.5 s after the start, and "Your rooms" says the last move only
    once there is one (the panel reads the rooms once, when the lobby opens)."""
    ask = {"seats": [{"code": room["code"], "token": room["token"]}]}
    deadline = time.monotonic() + 10
    while 1 in post(server_url, "/api/your-rooms", ask)["rooms"][0]["to_move"]:
        assert time.monotonic() < deadline, "the CPU never chose its rotation"
        time.sleep(0.05)


def phone_shot(page: Page, name: str) -> None:
    """What the phone's one screen shows (not the whole page), saved as an artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def no_raw_keys(page: Page) -> None:
    text = page.locator("main").inner_text()
    assert not RAW_KEY.search(text), RAW_KEY.search(text)


def test_the_host_picks_a_days_clock_and_the_waiting_room_says_it(new_page, server_url) -> None:
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    page.locator('[data-key="game-kokuto_rum"]').check()
    expect(page.locator("#cover-after")).to_be_visible()
    page.select_option("#clock-mode", "days")
    expect(page.locator("#cover-after")).to_have_count(0)  # the clock replaces CPU cover
    page.select_option("#clock-preset", "2d+7d")
    page.select_option("#clock-vacation", "3")
    page.click("#host-button")
    expect(page.locator("#cover-note")).to_contain_text("Days clock: 2 d a move, then a 7 d bank")
    expect(page.locator("#cover-note")).to_contain_text("3 d of vacation")


def test_a_days_room_shows_every_seat_clock_and_a_vacation(new_page, server_url) -> None:
    room = days_room(server_url)
    page = new_page(**PHONE)
    page.goto(seat_link(server_url, room["code"], 0, room["token"]))
    expect(page.locator(".table")).to_be_visible()
    mine = page.locator('#presence [data-seat-clock="0"]')
    expect(mine).to_have_text(re.compile(r"^⏱ (1 d|23 h 59 min) \+ 3 d$"))
    expect(page.locator('#presence [data-seat-clock="1"]')).to_have_count(0)  # a CPU has none
    # In the table's seat panel too (folded away on a phone's one screen).
    expect(page.locator('.table [data-seat="0"] .seat-clock')).to_have_count(1)
    open_sheet(page, "people")  # the vacation is the player's, in the players' sheet
    expect(page.locator("#vacation")).to_have_text("Take a vacation (7 d left)")
    no_raw_keys(page)
    expect(page.locator("#toast.show")).to_have_count(0, timeout=5000)  # the seat-link note
    page.evaluate("window.scrollTo(0, 0)")
    phone_shot(page, "clocks-days-room-phone")
    page.click("#vacation")
    expect(mine).to_have_text("⏸ on vacation")
    expect(page.locator("#vacation")).to_have_text("Back from vacation")
    page.click("#vacation")
    expect(mine).to_contain_text("⏱")
    expect(page.locator("#vacation")).to_contain_text("Take a vacation")


def test_your_rooms_puts_your_move_first_with_your_clock(new_page, server_url) -> None:
    waiting = days_room(server_url)
    other = post(server_url, "/api/rooms", {"game": "kokuto_rum", "seats": ["host", "open"]})
    page = new_page(**PHONE)
    # The page holds both seats (the second room waits in its lobby: not your move).
    page.goto(seat_link(server_url, other["code"], 0, other["token"]))
    expect(page.locator("#seat-list")).to_be_visible()
    page.goto(seat_link(server_url, waiting["code"], 0, waiting["token"]))
    expect(page.locator(".table")).to_be_visible()
    cpu_has_moved(server_url, waiting)
    page.goto(server_url + "/")
    expect(page.locator("#your-rooms-waiting")).to_have_text("1 waiting for you")
    rows = page.locator("#your-rooms [data-room]")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-room", waiting["code"])
    first = rows.first
    expect(first.locator(".your-turn")).to_have_text("Your turn")
    expect(first.locator(f'[data-your-clock="{waiting["code"]}"]')).to_contain_text("Your clock:")
    expect(first.locator(".last-move-words")).to_contain_text("Last:")
    no_raw_keys(page)
    phone_shot(page, "clocks-your-rooms-phone")


def test_the_clocks_speak_japanese(new_page, server_url) -> None:
    room = days_room(server_url)
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    page.click("#lang-toggle")  # before the seat link, whose note is said in the language
    expect(page.locator("#lang-toggle")).to_have_text("English")
    page.goto(seat_link(server_url, room["code"], 0, room["token"]))
    expect(page.locator(".table")).to_be_visible()
    expect(page.locator('#presence [data-seat-clock="0"]')).to_contain_text("3日")
    open_sheet(page, "people")
    expect(page.locator("#vacation")).to_have_text("休暇をとる（残り7日）")
    assert english_left(page, room["code"]) <= {"CPU", "Hana"}
    cpu_has_moved(server_url, room)
    page.goto(server_url + "/")
    row = page.locator(f'#your-rooms [data-room="{room["code"]}"]')
    expect(row).to_contain_text("あなたの持ち時間")
    expect(row.locator(".last-move-words")).to_contain_text("直前：")
    # The row alone: the lobby also lists other tests' public rooms by their codes.
    words = set(ENGLISH_WORD.findall(row.inner_text())) - ALLOWED_LATIN
    assert {w for w in words if w not in room["code"]} == set()
