"""The Shirokuro Jong table in real Chromium: a round against a CPU, a friend, Japanese."""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    english_left,
    host_in_japanese,
    host_room,
    join_by_link,
    page_width,
    shiro_hand,
    start,
)

CPU_WAIT = 20_000  # ms


def play_until_result(page: Page, seat: int = 0) -> set[str]:
    """Click legal moves (win when offered, else pass claims, insert at the end, discard
    the first card) until the round's result shows; returns the prompts met."""
    met: set[str] = set()
    result = page.locator("#round-result")
    for _ in range(2000):
        if result.count():
            return met
        try:  # CPUs move on by themselves, so a target may vanish: try again
            if page.locator("#rotate-keep").count():
                page.click("#rotate-keep", timeout=300)
            elif page.locator("#claim-ron, #tsumo").count():
                page.locator("#claim-ron, #tsumo").first.click(timeout=300)
            elif page.locator("#claim-pass").count():
                met.add("claim")
                page.click("#claim-pass", timeout=300)
            elif page.locator("#drawn-card").count():
                met.add("insert")
                page.locator(f'[data-hand="{seat}"] [data-gap]').last.click(timeout=300)
            elif page.locator("#discard").count():
                met.add("discard")
                page.locator(f'[data-hand="{seat}"] button.sk-card').first.click(timeout=300)
                page.click("#discard:enabled", timeout=300)
        except PlaywrightError:
            pass
        page.wait_for_timeout(50)
    raise AssertionError("the round did not end")


def test_newcomer_plays_a_round_to_its_result(new_page, server_url) -> None:
    page = new_page(**DESKTOP)
    host_room(page, server_url, "shirokuro_jong", seats=2, cpu_pace="quick")
    start(page)
    # S14: the Dora indicator is turned up once every seat has chosen its rotation.
    expect(page.locator("#dora")).to_be_visible()
    expect(page.locator("#dora [data-card]")).to_have_count(0)
    met = play_until_result(page)
    expect(page.locator("#dora [data-card]")).to_be_visible()
    # The deal is random, so a claim window may not come up (test_shirokuro_jong_claims
    # plays claims on fixed deals); a round that ends in a win shows its yaku.
    assert {"insert", "discard"} <= met or page.locator("[data-yaku]").count()
    result = page.locator("#round-result")
    expect(result.locator(".sk-explain").first).to_be_visible()
    if result.locator("[data-result-seat] .sj-yaku").count():
        expect(result.locator(".sj-yaku .total")).to_contain_text("Total")
    screenshot(page, "shirokuro-jong-result-desktop")
    page.click("#lang-toggle")
    assert english_left(page, page.url.split("room=")[1]) == set()
    page.click("#lang-toggle")
    page.click("#next-round")
    expect(page.locator("#round-result")).to_have_count(0, timeout=CPU_WAIT)
    expect(page.locator("#round-badge")).to_have_text("Round 2 of 4")


def test_friend_joins_by_link_and_each_sees_only_their_own_hand(new_page, server_url) -> None:
    host = new_page(**DESKTOP)
    code = host_room(host, server_url, "shirokuro_jong", seats=2, friend_seats=(1,))
    friend = new_page(**PHONE)
    join_by_link(friend, server_url, code)
    start(host)
    expect(friend.locator("#rotate-keep")).to_be_visible()
    mine, theirs = shiro_hand(host, 0), shiro_hand(friend, 1)
    assert sorted((len(mine), len(theirs))) == [7, 8], "the Oya holds 8 cards, the other 7"
    assert host.locator('[data-hand="1"]').count() == 0
    assert friend.locator('[data-hand="0"]').count() == 0
    assert not set(mine) & set(theirs)
    host.click("#rotate-keep")
    friend.click("#rotate-keep")
    expect(friend.locator("#status-line")).not_to_contain_text("rotate")
    screenshot(friend, "shirokuro-jong-table-phone")
    width = page_width(friend)
    assert width <= PHONE["width"], "the table fits a phone without sideways scrolling"


def test_japanese_mode_leaves_no_english_on_the_table(new_page, server_url) -> None:
    page = new_page(**PHONE)
    code = host_in_japanese(page, server_url, "shirokuro_jong", seats=3, cpu_pace="quick")
    assert english_left(page, code) == set()
    page.click("#rotate-keep")
    prompt = page.locator("#claim-pass, #discard")
    expect(prompt.first).to_be_visible(timeout=CPU_WAIT)
    assert english_left(page, code) == set()
    screenshot(page, "shirokuro-jong-table-phone-ja")
