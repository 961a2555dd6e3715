"""The Kokuto Rum table in real Chromium: a round against a CPU, a friend by link, Japanese."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    english_left,
    host_in_japanese,
    host_room,
    join_by_link,
    open_seat,
    page_width,
    seeded_room,
    shiro_hand,
    start,
)
from tests.browser.test_phone_layout import SETTLED

CPU_WAIT = 20_000  # ms: a CPU turn is three moves of 0.5-1.5 s each


def wait_for_my_draw_or_result(page: Page) -> bool:
    """Wait until it is our turn to draw (True) or the round is over (False)."""
    either = page.locator("#draw-pile, #round-result")
    expect(either.first).to_be_visible(timeout=CPU_WAIT)
    return page.locator("#round-result").count() == 0


def test_newcomer_plays_a_round_to_its_result(new_page, server_url) -> None:
    page = new_page(**DESKTOP)
    host_room(page, server_url, "kokuto_rum", seats=2)
    start(page)
    # K10: the first discard is turned up once every seat has chosen its rotation.
    expect(page.locator("#discard-later")).to_have_text("Turned up once every player has chosen")
    expect(page.locator("#discard-top")).to_have_count(0)
    page.click("#rotate-keep")
    expect(page.locator("#discard-later")).to_have_count(0, timeout=CPU_WAIT)
    if wait_for_my_draw_or_result(page):
        # Turn 1: draw from the pile, flip the card, drag it into the hand, discard.
        page.click("#draw-pile")
        drawn = page.locator("#drawn-card")
        before = drawn.get_attribute("data-card")
        page.click("#flip-drawn")
        flipped = drawn.get_attribute("data-card")
        assert flipped == f"{before[3:]}/{before[:2]}", "Flip turns the card to insert around"
        screenshot(page, "kokuto-rum-insert-desktop")
        drawn.drag_to(page.locator('[data-hand="0"] .sk-card').nth(2))
        expect(page.locator("#discard")).to_be_visible()
        cards = shiro_hand(page, 0)
        assert len(cards) == 9 and flipped in cards, "the dragged card went in, flipped"
        page.locator('[data-hand="0"] button.sk-card').first.click()
        page.click("#discard")
        expect(page.locator('[data-hand="0"] .sk-card')).to_have_count(8)
    if wait_for_my_draw_or_result(page):
        # Turn 2: take the top discard, tap the first gap, knock with nine cards.
        taken = page.locator("#discard-top").get_attribute("data-card")
        page.click("#take-discard")
        page.click('[data-hand="0"] [data-gap="0"]')
        expect(page.locator("#knock")).to_be_visible()
        assert taken in (shiro_hand(page, 0)[0], f"{taken[3:]}/{taken[:2]}")
        page.click("#knock")
    result = page.locator("#round-result")
    expect(result).to_be_visible(timeout=CPU_WAIT)
    expect(result.locator("[data-result-seat]")).to_have_count(2)
    expect(result.locator(".sk-explain").first).to_be_visible()
    expect(result).to_contain_text("VP")
    screenshot(page, "kokuto-rum-result-desktop")
    if page.locator('.table[data-phase="over"]').count():
        # An Underknock against a low hand can take a CPU past 30 VP at once.
        expect(result).to_contain_text("Match over")
        return
    page.click("#close-result")
    expect(page.locator("#round-result")).to_have_count(0)
    expect(page.locator("#round-badge")).to_have_text("Round 2")


def test_friend_joins_by_link_and_each_sees_only_their_own_hand(new_page, server_url) -> None:
    host = new_page(**DESKTOP)
    code = host_room(host, server_url, "kokuto_rum", seats=2, friend_seats=(1,))
    friend = new_page(**PHONE)
    join_by_link(friend, server_url, code)
    start(host, friend)
    expect(friend.locator("#rotate-keep")).to_be_visible()
    mine, theirs = shiro_hand(host, 0), shiro_hand(friend, 1)
    assert len(mine) == len(theirs) == 8
    assert host.locator('[data-hand="1"]').count() == 0
    assert friend.locator('[data-hand="0"]').count() == 0
    screenshot(friend, "kokuto-rum-rotation-phone")
    friend.click("#rotate-flip")
    expect(friend.locator("#rotation-choice")).to_contain_text("rotated")
    host.click("#rotate-keep")
    expect(friend.locator("#status-line")).not_to_contain_text("rotate")
    flipped = [f"{c[3:]}/{c[:2]}" for c in theirs]
    assert shiro_hand(friend, 1) == flipped, "rotating turns every card, order kept"
    screenshot(friend, "kokuto-rum-table-phone")
    width = page_width(friend)
    assert width <= PHONE["width"], "the table fits a phone without sideways scrolling"


def test_japanese_mode_leaves_no_english_on_the_table(new_page, server_url) -> None:
    page = new_page(**PHONE)
    code = host_in_japanese(page, server_url, "kokuto_rum", seats=3)
    assert english_left(page, code) == set()
    page.click("#rotate-keep")
    if wait_for_my_draw_or_result(page):
        page.click("#draw-pile")
        expect(page.locator("#drawn-card")).to_be_visible()
        assert english_left(page, code) == set()
        page.click('[data-hand="0"] [data-gap="8"]')
        page.click("#knock")
    expect(page.locator("#round-result")).to_be_visible(timeout=CPU_WAIT)
    assert english_left(page, code) == set()
    screenshot(page, "kokuto-rum-result-phone-ja")


# Where each card and gap of the hand being inserted into lies: inside the dock's box and
# the window, and whether the hand or the dock scrolls inside itself to show them.
INSERT_FIT = """() => {
  const hand = document.querySelector('#dock .sk-hand.inserting');
  const dock = document.querySelector('#dock');
  if (!hand || !dock) return null;
  const d = dock.getBoundingClientRect();
  const cut = [...hand.children].filter((n) => {
    const r = n.getBoundingClientRect();
    return r.top < d.top - 0.5 || r.bottom > d.bottom + 0.5 || r.bottom > innerHeight + 0.5
      || r.left < -0.5 || r.right > innerWidth + 0.5;
  }).map((n) => n.dataset.gap !== undefined ? `gap ${n.dataset.gap}` : n.dataset.card);
  return {
    cut, parts: hand.children.length,
    handScrolls: hand.scrollHeight > hand.clientHeight + 1,
    dockScrolls: dock.scrollHeight > dock.clientHeight + 1,
    pageScrolls: document.documentElement.scrollHeight > innerHeight,
  };
}"""


def test_the_whole_hand_shows_while_inserting_on_a_phone(new_page, server_url, redis_url) -> None:
    """Inserting, the hand has a gap beside every card (three rows on a phone): every card
    and gap is on screen at 390x844 and 360x740, in English and Japanese, with nothing
    scrolling inside the hand or the dock."""
    code, seat, token = seeded_room(redis_url, "kokuto_rum", ["host", "cpu", "cpu"], seed=7)
    page = new_page(width=390, height=844)
    open_seat(page, server_url, code, seat, token)
    page.click("#rotate-keep")
    assert wait_for_my_draw_or_result(page), "the round ended before the host's first turn"
    page.click("#draw-pile")
    expect(page.locator("#dock .sk-hand.inserting [data-gap]")).to_have_count(9)
    for lang in ("en", "ja"):
        if lang == "ja":
            page.click("#lang-toggle")
            expect(page.locator("#status-line")).to_contain_text("手札")
        for width, height in ((390, 844), (360, 740)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLED)
            fit = page.evaluate(INSERT_FIT)
            page.screenshot(path=str(ARTIFACTS / f"kokuto-rum-insert-{width}-{lang}.png"))
            assert fit["parts"] == 17, fit
            assert fit["cut"] == [], f"{width}x{height} {lang}: cut at the edge {fit}"
            assert not fit["handScrolls"], f"{width}x{height} {lang}: the hand scrolls {fit}"
            assert not fit["dockScrolls"], f"{width}x{height} {lang}: the dock scrolls {fit}"
            assert not fit["pageScrolls"], f"{width}x{height} {lang}: the page scrolls {fit}"
