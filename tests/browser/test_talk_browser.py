"""Table talk in real Chromium: host and friend chat and react in a live room (English,
then Japanese at a Hachinin Meri table), a spectator sees it, the host mutes the friend,
and markup in a message stays text."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    PHONE,
    english_left,
    host_room,
    join_by_link,
    page_width,
    start,
)

MARKUP = '<b id="bold">hi</b><img src=x onerror="document.title=\'owned\'">'


def say(page: Page, text: str) -> None:
    """Type a message in the chat panel and send it."""
    page.fill("#talk-input", text)
    page.click("#talk-send")


def open_talk(page: Page) -> None:
    """Unfold the chat panel (folded on phones; a sheet over a table)."""
    if page.locator("#talk").get_attribute("open") is None:
        page.click("#talk-summary")


def test_host_and_friend_chat_and_react_a_spectator_watches_and_a_muted_friend_cannot_send(
    new_page, server_url: str
) -> None:
    host, friend = new_page(), new_page(**PHONE)
    code = host_room(host, server_url, "usunoro", friend_seats=(1,))
    join_by_link(friend, server_url, code)
    watcher = new_page()
    watcher.goto(f"{server_url}/?room={code}&watch=1")
    expect(watcher.locator("#talk")).to_be_visible()

    # On the phone the panel is folded; a message says so on its one line.
    expect(friend.locator("#talk")).not_to_have_attribute("open", "")
    say(host, MARKUP)
    expect(friend.locator("#talk-unread")).to_have_text("1 new")
    open_talk(friend)
    for page in (host, friend, watcher):
        line = page.locator("#talk-log .talk-line").last
        expect(line.locator(".talk-text")).to_have_text(MARKUP)
        expect(page.locator("#talk-log #bold, #talk-log img")).to_have_count(0)
        assert page.title() != "owned"
    expect(friend.locator("#talk-log .talk-who").last).to_have_text("Seat 1")
    expect(host.locator("#talk-log .talk-who").last).to_have_text("You")

    say(friend, "hello from the phone")
    expect(watcher.locator("#talk-log .talk-line").last).to_contain_text("hello from the phone")
    start(host, friend)
    open_talk(friend)  # at a table the chat (and its reactions) is a sheet
    friend.click('[data-reaction="gg"]')
    for page in (host, watcher):
        expect(page.locator("#talk-strip")).to_have_text("Seat 2: 🤝 Good game")
        expect(page.locator('.reaction-bubble[data-seat="1"]')).to_have_text("🤝 Good game")
    screenshot(host, "talk_host_desktop")
    screenshot(friend, "talk_friend_phone")
    assert page_width(friend) <= PHONE["width"]
    # Spectators have no seat to react from, and get no reactions bar.
    expect(watcher.locator("#talk-reactions button")).to_have_count(0)

    open_talk(host)  # at a table the chat (and its reactions) is a sheet
    host.click("#talk-host summary")
    host.check("#talk-mute-1")
    expect(friend.locator("#talk-note")).to_have_text("The host has muted you.")
    expect(friend.locator("#talk-input")).to_be_disabled()
    expect(friend.locator('[data-reaction="nice"]')).to_be_disabled()
    screenshot(friend, "talk_friend_muted_phone")
    # A muted friend cannot send, even by going around the page: the server refuses it.
    friend.evaluate("document.getElementById('talk-input').disabled = false")
    friend.evaluate("document.getElementById('talk-send').disabled = false")
    say(friend, "let me speak")
    expect(friend.locator("#toast")).to_have_text("The host has muted you.")
    expect(watcher.locator("#talk-log")).not_to_contain_text("let me speak")
    host.uncheck("#talk-mute-1")
    expect(friend.locator("#talk-input")).to_be_enabled()
    say(friend, "thanks")
    expect(watcher.locator("#talk-log .talk-line").last).to_contain_text("thanks")


def test_in_japanese_a_hachinin_meri_deal_is_quiet_until_the_host_allows_text(
    new_page, server_url: str
) -> None:
    host, friend = new_page(locale="ja-JP"), new_page(locale="ja-JP", **PHONE)
    code = host_room(host, server_url, "hachinin_meri", friend_seats=(1,))
    friend.goto(f"{server_url}/?room={code}")
    friend.click("#take-seat")
    expect(friend.locator("#seat-list")).to_contain_text("あなた")
    open_talk(friend)
    say(friend, "よろしくお願いします")
    expect(host.locator("#talk-log .talk-line").last).to_contain_text("よろしくお願いします")
    start(host, friend)

    expect(friend.locator("#talk-note")).to_have_text(
        "八人メリの配り中は会話なし。リアクションのみです。"
    )
    expect(friend.locator("#talk-input")).to_be_disabled()
    open_talk(friend)  # at a table the chat (and its reactions) is a sheet
    friend.click('[data-reaction="thanks"]')
    expect(host.locator("#talk-strip")).to_have_text("2番席：🙏 ありがとう")
    screenshot(friend, "talk_hachinin_meri_quiet_ja_phone")
    assert not english_left(friend, code), english_left(friend, code)

    open_talk(host)  # at a table the chat (and its reactions) is a sheet
    host.click("#talk-host summary")
    host.check("#talk-deal-text")
    expect(friend.locator("#talk-input")).to_be_enabled()
    say(friend, "がんばりましょう")
    expect(host.locator("#talk-log .talk-line").last).to_contain_text("がんばりましょう")
    screenshot(host, "talk_hachinin_meri_allowed_ja_desktop")
    assert not english_left(host, code), english_left(host, code)
