"""Play again in real Chromium: the host's button on a finished match deals the next one.

The room (Usunoro, short, seats 0 and 1 human) is played to its end offline, straight in
the suite's Redis (tests/rooms/finished.py); the server process loads it when the pages
open it. Neither human marks a card in the new match, so its hands stay as dealt until
the test has read them.
"""

from __future__ import annotations

from playwright.sync_api import expect

from server.games.usunoro import Usunoro
from server.rooms.actor.seeds import match_seed
from tests.browser.conftest import screenshot
from tests.browser.pages import card_texts, open_seat
from tests.rooms.finished import finished_usunoro_room_sync

SEED = 41


def test_the_host_plays_again_and_both_humans_see_a_fresh_deal(
    new_page, server_url: str, redis_url: str
) -> None:
    code, tokens = finished_usunoro_room_sync(redis_url, humans=2, seed=SEED)
    dealt = Usunoro().new(4, {"length": "short"}, match_seed(SEED, 2))["hands"]
    host, friend = new_page(), new_page()
    for seat, page in enumerate((host, friend)):
        open_seat(page, server_url, code, seat, tokens[seat])
        expect(page.locator("#round-result")).to_contain_text("Match over")
    expect(host.locator("#play-again-button")).to_have_text("Play again")
    expect(friend.locator("#play-again-waiting")).to_have_text(
        "Waiting for the host to start another match…"
    )
    expect(friend.locator("#play-again-button")).to_have_count(0)
    screenshot(host, "play_again_host_over")

    host.click("#play-again-button")

    for seat, page in enumerate((host, friend)):
        expect(page.locator("#play-again")).to_have_count(0)
        expect(page.locator("#round-result")).to_have_count(0)  # no stale result panel
        expect(page.locator("#match-number")).to_have_text(" · Match 2")
        expect(page.locator(".table")).to_have_attribute("data-phase", "passing")
        expect(page.locator("#status-line")).to_have_text("Passing: choose one card to pass")
        hand = page.locator(f'[data-hand="{seat}"] [data-card]')
        expect(hand).to_have_count(4)
        assert card_texts(hand) == dealt[seat]
    screenshot(friend, "play_again_friend_new_deal")
