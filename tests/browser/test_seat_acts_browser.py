"""Each seat's panel says what that seat did last (seat_acts.js), at a real table with a
friend in a second browser: the friend sees "drew" for a card drawn from the pile (never
the card), then "drew, discarded W3/B5" once it is discarded, in English and Japanese,
while the player who drew sees their own card named in their own panel. The words of
every game, from every seat's frames, are checked in test_move_log_browser.py."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import PHONE, host_room, join_by_link, start


def last_of(page: Page, seat: int):  # type: ignore[no-untyped-def]
    """The last-move line in `seat`'s panel on `page`'s table."""
    return page.locator(f'.seat[data-seat="{seat}"] .seat-last')


def shot(page: Page, name: str) -> None:
    """What the phone's one screen shows, saved as an artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_a_friend_sees_what_the_other_seat_did_last_never_a_hidden_card(
    new_page, server_url: str
) -> None:
    host, friend = new_page(**PHONE), new_page(**PHONE)
    code = host_room(host, server_url, "kokuto_rum", seats=2, friend_seats=(1,))
    join_by_link(friend, server_url, code)
    start(host, friend)
    host.click("#rotate-keep")
    friend.click("#rotate-keep")
    pages = [host, friend]
    for _ in range(400):  # the first seat to draw: its page offers the pile
        if any(p.locator("#draw-pile").count() for p in pages):
            break
        host.wait_for_timeout(50)
    mover_seat = 0 if host.locator("#draw-pile").count() else 1
    mover, watcher = pages[mover_seat], pages[1 - mover_seat]
    expect(mover.locator("#draw-pile")).to_be_visible()
    # Before any move of the turn, the mover's panel says nothing yet.
    expect(last_of(watcher, mover_seat)).to_have_count(0)

    mover.click("#draw-pile")
    drawn = mover.locator("#drawn-card").get_attribute("data-card")
    assert drawn
    # The watcher learns that a card was drawn, not which.
    expect(last_of(watcher, mover_seat)).to_have_text(re.compile(r"drew$"))
    expect(last_of(watcher, mover_seat)).not_to_contain_text("W")
    # The mover's own panel names the card they hold (loose form, white end first).
    loose = drawn if drawn[0] == "W" else f"{drawn[3:]}/{drawn[:2]}"
    expect(last_of(mover, mover_seat)).to_contain_text(f"drew {loose}")
    shot(watcher, "seat-acts-drew-watcher-390")

    mover.click(f'[data-hand="{mover_seat}"] [data-gap="0"]')
    mover.locator(f'[data-hand="{mover_seat}"] button.sk-card').nth(3).click()
    mover.click("#discard")
    top = watcher.locator("#discard-top")
    expect(top).to_be_visible()
    thrown = top.get_attribute("data-card")
    assert thrown
    expect(last_of(watcher, mover_seat)).to_have_text(
        re.compile(rf"drew, discarded {re.escape(thrown)}$")
    )
    shot(watcher, "seat-acts-discarded-watcher-390")

    watcher.click("#lang-toggle")
    ja = thrown.replace("W", "白").replace("B", "黒")
    expect(last_of(watcher, mover_seat)).to_have_text(
        re.compile(rf"山から引いた、{re.escape(ja)}を捨てた$")
    )
    shot(watcher, "seat-acts-discarded-watcher-390-ja")
    # A reload keeps the words (the new connection sends no past events).
    watcher.reload()
    expect(last_of(watcher, mover_seat)).to_contain_text(f"{ja}を捨てた")
