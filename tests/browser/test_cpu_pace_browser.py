"""The room's CPU pace in the browser, at phone size, in English and Japanese: the host
chooses it in the create form, sees it and changes it in the waiting room (the room
takes it at once), a friend reads it there in words, and everyone finds it in the
settings sheet once the match is on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import PHONE, page_width, start

SHOTS = "/work/shots/cpu_pace"
WORDS = {
    "en": {"title": "CPU pace", "quick": "Quick: CPUs move", "relaxed": "Relaxed: CPUs take"},
    "ja": {"title": "CPUの速さ", "quick": "速い：CPUが", "relaxed": "ゆっくり：CPUは"},
}


def summary_pace(page: Page, server_url: str, code: str) -> str:
    """The room's pace as the server's summary says it."""
    answer = page.request.get(f"{server_url}/api/rooms/{code}")
    assert answer.ok
    return str(answer.json()["cpu_pace"])


def fits(page: Page, selector: str) -> None:
    """The element is in view and within the phone's width (no sideways scrolling)."""
    box = page.locator(selector).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page_width(page) <= PHONE["width"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_host_chooses_and_changes_the_cpu_pace(
    new_page: Any, server_url: str, lang: str
) -> None:
    words = WORDS[lang]
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    if lang == "ja":
        page.click("#lang-toggle")
    page.locator('input[name="game"][value="usunoro"]').check()
    page.select_option("#seat-kind-1", "open")
    expect(page.locator('label[for="cpu-pace"]')).to_have_text(words["title"])
    expect(page.locator("#cpu-pace option:checked")).to_contain_text(words["relaxed"])
    fits(page, "#cpu-pace")
    page.select_option("#cpu-pace", "quick")
    page.click("#host-button")
    page.wait_for_url("**/?room=*")
    code = page.url.split("room=")[1].split("&")[0]
    assert summary_pace(page, server_url, code) == "quick"
    # The waiting room: the host's chooser shows the room's pace and changes it at once.
    expect(page.locator("#cpu-pace option:checked")).to_contain_text(words["quick"])
    fits(page, "#cpu-pace")
    page.select_option("#cpu-pace", "relaxed")
    expect(page.locator("#cpu-pace option:checked")).to_contain_text(words["relaxed"])
    assert summary_pace(page, server_url, code) == "relaxed"
    # A friend reads it in words, and sees it change when the host changes it.
    friend = new_page(**PHONE)
    friend.goto(server_url + "/")
    if lang == "ja":
        friend.click("#lang-toggle")
    friend.goto(f"{server_url}/?room={code}")
    friend.click("#take-seat")
    expect(friend.locator("#cpu-pace-state")).to_contain_text(words["relaxed"])
    assert friend.locator("#cpu-pace").count() == 0
    page.select_option("#cpu-pace", "quick")
    expect(friend.locator("#cpu-pace-state")).to_contain_text(words["quick"])
    fits(friend, "#cpu-pace-state")
    page.screenshot(path=f"{SHOTS}/{lang}-390-waiting-room.png", full_page=True)
    start(page, friend)
    # At the table: the settings sheet lists the pace with the room's other settings.
    page.click("#settings-button")
    expect(page.locator("#cpu-pace-row")).to_contain_text(words["title"])
    expect(page.locator("#cpu-pace-row")).to_contain_text(words["quick"])
    fits(page, "#cpu-pace-row")
    page.click("#close-settings")
