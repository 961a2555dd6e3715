"""The Junocos table in real Chromium: draft and a whole round with a friend by link and
a CPU, and the Japanese table at phone size."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    card_texts,
    check_finished_match,
    english_left,
    host_in_japanese,
    host_room,
    join_by_link,
    page_width,
    play_until,
    start,
)

GAME = "junocos"
# Take a face-up card in the draft, else play any playable card (hand or open cards).
MOVES = ("#draft-row button.tcard.playable", ".my-hand button.tcard.playable")


def hand_cards(page: Page) -> list[str]:
    """The cards of this browser's own hand (not its open cards)."""
    return card_texts(page.locator(".my-hand").first.locator("[data-card]"))


def test_newcomer_and_a_friend_by_link_draft_and_play_a_whole_round(new_page, server_url) -> None:
    host = new_page(**DESKTOP)
    code = host_room(host, server_url, GAME, seats=3, friend_seats=(1,), cpu_pace="quick")
    friend = new_page()
    join_by_link(friend, server_url, code)
    start(host, friend)
    assert len(hand_cards(host)) == 9 and len(hand_cards(friend)) == 9
    assert host.locator("#draft-row [data-card]").count() == 13
    play_until([host, friend], "#trump-indicator", MOVES[:1], seconds=30)
    expect(host.locator("#trump-indicator [data-card]")).to_have_count(1)
    expect(host.locator("#my-open [data-card]")).to_have_count(4)
    expect(friend.locator('[data-seat="0"] .open-cards [data-card]')).to_have_count(4)
    play_until([host, friend], "#current-trick li", MOVES, seconds=15)
    screenshot(host, "junocos-trick-desktop")
    play_until([host, friend], "#round-result", MOVES, seconds=60)
    result = host.locator("#round-result")
    expect(result).to_contain_text("Round 1 result")
    expect(result.locator("li")).to_have_count(3)
    expect(host.locator(".table")).to_have_attribute("data-round", "2")
    assert host.locator("#junocos-scores tbody tr").count() == 2, "round 1 and the total"
    screenshot(host, "junocos-round-result-desktop")


def test_japanese_table_at_phone_size_offers_only_legal_cards(new_page, server_url) -> None:
    page = new_page(**PHONE)
    code = host_in_japanese(page, server_url, GAME, seats=3, cpu_pace="quick")
    expect(page.locator("#settings-button")).to_have_text("設定")
    assert english_left(page, code) == set()
    play_until([page], ".my-hand button.tcard.playable", MOVES[:1], seconds=30)
    playable = page.locator(".my-hand button.tcard.playable").count()
    assert 0 < playable <= page.locator(".my-hand button.tcard").count()
    assert english_left(page, code) == set()
    assert screenshot(page, "junocos-table-phone-ja").stat().st_size > 0
    width = page_width(page)
    assert width <= PHONE["width"], "the table fits the phone's width without sideways scrolling"


def test_finished_match_shows_places_to_players_and_spectators(new_page, server_url) -> None:
    check_finished_match(new_page(), server_url, GAME, 4)
