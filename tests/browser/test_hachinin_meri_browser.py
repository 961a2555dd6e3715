"""The Hachinin Meri table in real Chromium: a whole deal with friends by link, Japanese.

CPUs take 0.5-1.5 s per move in real time, so a deal against seven of them would take
over a minute; the whole-deal test seats the newcomer with five friends (two CPUs).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    check_finished_match,
    check_term_help,
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

GAME = "hachinin_meri"
# Declare/pass, then any playable card of our hand (discard or play).
MOVES = ("#declare-prompt button", ".my-hand button.tcard.playable")
MY_TURN = ".my-hand button.tcard.playable"


def test_newcomer_and_friends_by_link_play_a_whole_deal(new_page, server_url) -> None:
    host = new_page(**DESKTOP)
    code = host_room(host, server_url, GAME, friend_seats=(1, 2, 3, 4, 5), cpu_pace="quick")
    friends = [new_page() for _ in range(5)]
    for friend in friends:
        join_by_link(friend, server_url, code)
    start(host, *friends)
    pages = [host, *friends]
    hands = [set(own_hand(page)) for page in pages]
    assert all(len(h) >= 9 for h in hands)
    assert len(set().union(*hands)) == sum(len(h) for h in hands), "each sees only their own hand"
    expect(host.locator('[data-seat="0"] .team-badge')).to_have_text("◆ Team A")
    expect(friends[0].locator('[data-seat="1"] .team-badge')).to_have_text("● Team B")
    expect(host.locator("#okie [data-card]")).to_have_count(1)
    play_until(pages, "#current-trick li", MOVES, seconds=30)
    screenshot(host, "hachinin_meri-trick-desktop")
    # Six browsers play nine tricks: 117 s at load 20. So no fixed budget: on while moves
    # are made, up to 40 s without one (CPUs take 1.5 s at most), within the test's limit.
    play_until(pages, "#round-result", MOVES, seconds=240, stall_s=40)
    expect(host.locator("#round-result")).to_contain_text("Deal 1 result")
    expect(host.locator(".table")).to_have_attribute("data-deal", "2")
    screenshot(host, "hachinin_meri-deal-result-desktop")
    last = host.locator("#last-trick")
    expect(last).to_contain_text("trick 9")
    assert last.locator("[data-card]").count() == 8, "every card of the last trick is shown"
    assert last.locator(".tcard.back").count() == 0, "trick 9 is revealed at once"
    open_sheet(host, "scores")  # the score table is a sheet over the table
    cells = host.locator("#deal-history tbody td").all_inner_texts()
    assert sum(int(x) for x in cells) == 9, "the two teams' deal scores sum to nine"


def test_japanese_table_at_phone_size_offers_only_legal_cards(new_page, server_url) -> None:
    page = new_page(**PHONE)
    code = host_in_japanese(page, server_url, GAME, cpu_pace="quick")
    expect(page.locator("#settings-button")).to_have_text("設定")
    assert english_left(page, code) == set()
    play_until([page], MY_TURN, ("#declare-prompt button",), seconds=30)
    cards = page.locator(".my-hand button.tcard")
    assert 0 < page.locator(MY_TURN).count() <= cards.count()
    assert english_left(page, code) == set()
    assert screenshot(page, "hachinin_meri-table-phone-ja").stat().st_size > 0
    width = page_width(page)
    assert width <= PHONE["width"], "the table fits the phone's width without sideways scrolling"


def test_finished_match_shows_places_to_players_and_spectators(new_page, server_url) -> None:
    check_finished_match(new_page(), server_url, GAME, 8)


HELP = {
    "en": (
        "Before Meri, Meri and Monchi",
        [
            "until a trick is led with a trump, you may play any card",
            "Holding a trump, you must play one, face up",
            "holding none of the led suit, play any card",
        ],
    ),
    "ja": (
        "メリ前・メリ・モンチ",
        [
            "どのカードを出してもかまいません",
            "表向きで出します",
            "台の紋を持っていなければ何を出しても",
        ],
    ),
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_meri_and_monchi_line_is_explained_by_tap_on_a_phone_and_click_on_desktop(
    browser, new_page, server_url, lang: str
) -> None:
    name, lines = HELP[lang]
    tables = hosted_on_phone_and_desktop(browser, new_page, server_url, GAME, lang)
    for label, page, code in tables:
        expect(page.locator("#meri-state")).to_contain_text(
            "Declaring" if lang == "en" else "宣言中"
        )
        check_term_help(page, "help-meri", name, lines, "meri", tap=label == "phone")
        page.locator('button.term-help[data-key="help-meri"]').click()
        if lang == "ja":
            assert english_left(page, code) == set()
        screenshot(page, f"hachinin_meri-help-{label}-{lang}")
        if label == "desktop":
            # The language switched from the keyboard while it is open (a pointer
            # elsewhere closes it): it shows again in the other language.
            other = "ja" if lang == "en" else "en"
            page.focus("#lang-toggle")
            page.keyboard.press("Enter")
            expect(page.locator("#explain-name")).to_have_text(HELP[other][0])
            expect(page.locator("#explain-role")).to_contain_text(HELP[other][1][0])
            page.keyboard.press("Enter")
            expect(page.locator("#explain-name")).to_have_text(name)
