"""The Utsuke table in real Chromium: a round to its judging, a friend by link, Japanese."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    check_finished_match,
    check_term_help,
    close_sheet,
    english_left,
    host_in_japanese,
    host_room,
    hosted_on_phone_and_desktop,
    join_by_link,
    open_sheet,
    own_hand,
    page_width,
    play_until,
    start,
)

GAME = "utsuke"
# Commit a picked guess, else pick one, else play any playable card.
MOVES = ("#guess-confirm:enabled", "#guess-pad button", ".my-hand button.tcard.playable")


def test_newcomer_plays_a_round_until_the_judging_shows(new_page, server_url) -> None:
    page = new_page(**DESKTOP)
    host_room(page, server_url, GAME, seats=2, cpu_pace="quick")
    start(page)
    expect(page.locator("#lord-hand [data-card]")).to_have_count(15)
    expect(page.locator("#prince-hand [data-card]")).to_have_count(15)
    expect(page.locator("#lord-hand .tcard.chip")).to_have_count(1)
    chip = page.locator("#lord-hand [data-card]").last
    expect(chip).to_have_class(re.compile(r"\bchip\b"), timeout=1000)
    page.click('#guess-pad button[data-guess="4"]')
    page.click("#guess-confirm")
    # Waiting for the CPU's guess the panel says ours; if the CPU had guessed first,
    # play has begun and the reminder above the hand says it.
    expect(page.locator("#my-guess, #guess-reminder")).to_contain_text(
        re.compile(r"Your guess: (the Lord takes )?4\b")
    )
    play_until([page], "#current-trick li", MOVES, seconds=15)
    screenshot(page, "utsuke-trick-desktop")
    play_until([page], "#round-result", MOVES, seconds=45)
    result = page.locator("#round-result")
    expect(result).to_contain_text("Judging of round 1")
    expect(result).to_contain_text("The Lord took")
    expect(result.locator("#judging li").first).to_contain_text("guessed 4")
    expect(page.locator(".table")).to_have_attribute("data-round", "2")
    screenshot(page, "utsuke-judging-desktop")


def test_friend_joins_by_link_and_sees_only_that_the_host_guessed(new_page, server_url) -> None:
    host = new_page()
    code = host_room(host, server_url, GAME, seats=3, friend_seats=(1,))
    friend = new_page()
    join_by_link(friend, server_url, code)
    start(host, friend)
    assert len(own_hand(host)) == 15 and len(own_hand(friend)) == 15
    assert not set(own_hand(host)) & set(own_hand(friend)), "each sees only their own hand"
    host.click('#guess-pad button[data-guess="7"]')
    host.click("#guess-confirm")
    expect(friend.locator('[data-seat="0"]')).to_contain_text("guessed")
    assert "7" not in friend.locator('[data-seat="0"]').inner_text()
    expect(friend.locator("#guess-pad")).to_be_visible()


def test_japanese_table_at_phone_size(new_page, server_url) -> None:
    page = new_page(**PHONE)
    code = host_in_japanese(page, server_url, GAME, seats=2)
    expect(page.locator("#settings-button")).to_have_text("設定")
    assert english_left(page, code) == set()
    play_until([page], ".my-hand button.tcard.playable", MOVES[:2], seconds=15)
    assert english_left(page, code) == set()
    assert screenshot(page, "utsuke-table-phone-ja").stat().st_size > 0
    width = page_width(page)
    assert width <= PHONE["width"], "the table fits the phone's width without sideways scrolling"


def test_finished_match_shows_places_to_players_and_spectators(new_page, server_url) -> None:
    check_finished_match(new_page(), server_url, GAME, 3)


def test_lobby_offers_only_lord_seats_the_chosen_seat_count_has(new_page, server_url) -> None:
    page = new_page(**DESKTOP)
    page.goto(server_url + "/")
    page.locator(f'input[name="game"][value="{GAME}"]').check()
    lord = page.locator("#opt-lord_seat")
    offered = lord.locator("option")
    expect(offered).to_have_count(6)  # five seats: random or one of them
    lord.select_option("4")
    page.select_option("#seat-count", "3")
    expect(offered).to_have_count(4)
    assert offered.evaluate_all("nodes => nodes.map(n => n.value)") == ["random", "0", "1", "2"]
    expect(lord).to_have_value("random")  # seat 5 is gone: back to the default
    lord.select_option("2")
    page.select_option("#seat-count", "4")
    expect(offered).to_have_count(5)
    expect(lord).to_have_value("2")  # still a seat: kept
    page.click("#host-button")
    page.wait_for_url(re.compile(r"\?room="))
    code = page.url.split("room=")[1]
    room = page.request.get(f"{server_url}/api/rooms/{code}").json()
    assert len(room["seats"]) == 4 and room["options"]["lord_seat"] == 2


HELP = {
    "en": ("Homare and Uchikubi", ["exactly for 2", "more tricks than the Lord"]),
    "ja": ("誉れと打ち首", ["ぴったり当てると2つ", "殿より多くトリックを取ると1つ"]),
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_homare_and_uchikubi_are_explained_by_tap_on_a_phone_and_click_on_desktop(
    browser, new_page, server_url, lang: str
) -> None:
    name, lines = HELP[lang]
    tables = hosted_on_phone_and_desktop(browser, new_page, server_url, GAME, lang, seats=3)
    for label, page, code in tables:
        open_sheet(page, "scores")  # the scores (and their "?") are a sheet over the table
        check_term_help(page, "help-homare", name, lines, "homare", tap=label == "phone")
        close_sheet(page, "scores")
        # The seat lines' words are glossary terms too: a tap (or focus) explains them.
        uchikubi = page.locator('[data-seat="0"] [data-term="uchikubi"]')
        if label == "phone":
            uchikubi.tap()
        else:
            uchikubi.focus()
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")
        expect(page.locator("#explain-role")).to_contain_text(lines[1])
        if lang == "ja":
            assert english_left(page, code) == set()
        screenshot(page, f"utsuke-help-{label}-{lang}")
