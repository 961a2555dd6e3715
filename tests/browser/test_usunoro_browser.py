"""The browser client in real Chromium: lobby, rooms by link, the Usunoro table."""

from __future__ import annotations

import re
from collections import Counter

import msgpack
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    card_texts,
    english_left,
    finished_match_message,
    host_room,
    join_by_link,
    page_width,
    render_table,
    start,
)


def host_usunoro(
    page: Page, server_url: str, *, friend_seat: int | None = None, same_device: bool = False
) -> str:
    """From the lobby, host a Usunoro room; returns the room code."""
    friends = () if friend_seat is None else (friend_seat,)
    return host_room(page, server_url, "usunoro", friend_seats=friends, same_device=same_device)


def hand_cards(page: Page, seat: int) -> list[str]:
    """The cards shown in a seat's hand block."""
    return card_texts(page.locator(f'[data-hand="{seat}"] [data-card]'))


def pass_choice(cards: list[str]) -> str:
    """The card a sensible player passes: not of the rank held most."""
    ranks = Counter(card[1:] for card in cards)
    keep = max(ranks, key=lambda r: (ranks[r], r))
    return next((c for c in cards if c[1:] != keep), cards[0])


def test_newcomer_hosts_plays_a_round_and_presses_next_round(new_page, server_url) -> None:
    page = new_page()
    host_usunoro(page, server_url)
    start(page)
    result = page.locator("#round-result")
    for _ in range(400):
        if result.count():
            break
        phase = page.locator(".table").get_attribute("data-phase")
        cards = hand_cards(page, 0)
        matching = len(cards) == 4 and len({c[1:] for c in cards}) == 1
        try:  # the table moves on by itself (CPUs), so a target may vanish: try again
            if phase == "race" or matching:
                page.locator('[data-grab="0"]:enabled').click(timeout=300)
            elif phase == "passing" and page.locator("#exchange").count() and cards:
                page.click(f'[data-hand="0"] [data-card="{pass_choice(cards)}"]', timeout=300)
                page.locator("#exchange:enabled").click(timeout=300)
        except PlaywrightError:
            pass
        page.wait_for_timeout(60)
    expect(result).to_be_visible()
    screenshot(page, "usunoro-round-result-desktop")
    assert len(page.locator("[data-hand]").all()) == 4, "every hand is revealed at round end"
    page.click("#next-round")
    expect(page.locator(".badge", has_text="Round 2")).to_be_visible()
    expect(page.locator("#round-result")).to_have_count(0)


def test_friend_joins_by_link_and_each_sees_only_their_own_hand(new_page, server_url) -> None:
    host = new_page()
    code = host_usunoro(host, server_url, friend_seat=1)
    friend = new_page()
    join_by_link(friend, server_url, code)
    expect(friend.locator("#seat-list")).to_contain_text("Seat 2 — You")
    expect(host.locator("#seat-list")).not_to_contain_text("open for a friend")
    start(host, friend)
    assert hand_cards(host, 0) and hand_cards(friend, 1)
    assert host.locator('[data-hand="1"]').count() == 0
    assert friend.locator('[data-hand="0"]').count() == 0
    assert not set(hand_cards(host, 0)) & set(hand_cards(friend, 1))


def press_grab(page, key: str) -> None:  # type: ignore[no-untyped-def]
    """Grab with a player's key; a first grab without four of a kind is confirmed first."""
    page.keyboard.press(key)
    either = page.locator("#grab-confirm, #round-result")
    expect(either.first).to_be_visible()
    if page.locator("#grab-confirm").count():
        page.click("#grab-anyway")
    expect(page.locator("#round-result")).to_be_visible()


def test_same_device_f_and_j_grab_for_players_one_and_two(new_page, server_url) -> None:
    page = new_page()
    host_usunoro(page, server_url, same_device=True)
    start(page)
    assert hand_cards(page, 0) and hand_cards(page, 1), "both hands are open on one screen"
    press_grab(page, "f")
    player_one = page.locator('[data-seat="0"]')
    assert ("Taken" in player_one.inner_text()) or ("Penalties: 1" in player_one.inner_text())
    page.click("#next-round")
    expect(page.locator(".badge", has_text="Round 2")).to_be_visible()
    press_grab(page, "j")
    player_two = page.locator('[data-seat="1"]')
    assert ("Taken" in player_two.inner_text()) or ("Penalties: 1" in player_two.inner_text())


def test_escape_and_second_tap_deselect_the_card_to_pass(new_page, server_url) -> None:
    page = new_page()
    host_usunoro(page, server_url, same_device=True)
    start(page)
    card = page.locator('[data-hand="0"] [data-card]').first
    card.click()
    expect(page.locator('[data-hand="0"] .card.selected')).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator('[data-hand="0"] .card.selected')).to_have_count(0)
    page.locator('[data-hand="1"] [data-card]').first.click()
    page.locator('[data-hand="1"] .card.selected').click()
    expect(page.locator('[data-hand="1"] .card.selected')).to_have_count(0)


def test_reload_mid_round_brings_back_the_same_seat_and_hand(new_page, server_url) -> None:
    page = new_page()
    code = host_usunoro(page, server_url)
    start(page)
    before = hand_cards(page, 0)
    assert before
    page.reload()
    expect(page.locator(".table")).to_be_visible()
    assert page.url.endswith(f"room={code}")
    assert hand_cards(page, 0) == before
    expect(page.locator('[data-seat="0"]')).to_contain_text("You")


def test_japanese_mode_leaves_no_english_in_lobby_and_table(new_page, server_url) -> None:
    page = new_page()
    page.goto(server_url + "/")
    expect(page.locator("#host-button")).to_be_visible()
    page.click("#lang-toggle")
    expect(page.locator("#host-button")).to_have_text("部屋を作る")
    assert english_left(page) == set()
    page.click("#host-button")
    page.wait_for_url(re.compile(r"\?room="))
    code = page.url.split("room=")[1]
    start(page)
    assert english_left(page, code) == set()
    page.reload()
    expect(page.locator("#settings-button")).to_have_text("設定")
    page.click("#lang-toggle")
    expect(page.locator("#settings-button")).to_have_text("Settings")


def test_screenshots_of_lobby_and_table_at_phone_and_desktop(new_page, server_url) -> None:
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(**size)
        page.goto(server_url + "/")
        expect(page.locator("#host-button")).to_be_visible()
        assert screenshot(page, f"lobby-{label}").stat().st_size > 0
        host_usunoro(page, server_url)
        start(page)
        assert screenshot(page, f"usunoro-table-{label}").stat().st_size > 0
        width = page_width(page)
        assert width <= size["width"], "the table fits the screen width without sideways scrolling"


def test_settings_dialog_shows_the_room_settings_and_closes(new_page, server_url) -> None:
    page = new_page()
    host_usunoro(page, server_url)
    start(page)
    page.click("#settings-button")
    expect(page.locator("#room-settings")).to_contain_text("Standard (until 4 penalties)")
    expect(page.locator("#room-settings")).to_contain_text("CPU difficulty: Normal")
    page.click("#close-settings")
    expect(page.locator("#settings")).to_have_count(0)


def test_a_finished_match_says_match_over_in_the_status_line(new_page, server_url) -> None:
    page = new_page()
    render_table(page, server_url, "usunoro", finished_match_message("usunoro", 4, 0))
    expect(page.locator("#status-line")).to_have_text("Match over")


def sent_moves(page: Page) -> list[dict]:
    """Every move this page sends on its websocket from now on, decoded."""
    moves: list[dict] = []

    def watch(ws) -> None:  # type: ignore[no-untyped-def]
        def sent(payload: bytes | str) -> None:
            frame = msgpack.unpackb(payload) if isinstance(payload, bytes) else {}
            if frame.get("t") == "move":
                moves.append(frame)

        ws.on("framesent", sent)

    page.on("websocket", watch)
    return moves


def press_grab_keys(page: Page, moves: list[dict], where: str) -> None:
    """Press F and J with focus `where`: nothing is grabbed (no move, no "Grab anyway?")."""
    page.keyboard.press("f")
    page.keyboard.press("j")
    page.wait_for_timeout(150)
    assert moves == [], (where, moves)
    assert page.locator("#grab-confirm").count() == 0, where


def test_grab_keys_act_only_on_the_table_not_in_other_panels(new_page, server_url) -> None:
    page = new_page()
    moves = sent_moves(page)
    host_usunoro(page, server_url, same_device=True)
    start(page)
    # The Rules panel: on its Close button, on its title (focus on the page body), and
    # inside the rules page itself.
    page.click("#rules-button")
    expect(page.locator("#close-rules")).to_be_focused()
    press_grab_keys(page, moves, "Rules panel's Close")
    page.click("#rules-panel-title")
    press_grab_keys(page, moves, "Rules panel's title")
    page.frame_locator("#rules-frame").locator("main").click()
    press_grab_keys(page, moves, "the rules page")
    page.click("#close-rules")
    expect(page.locator("#rules-panel")).to_have_count(0)
    # The Settings dialog; the chat (its summary, then typing in it); Ctrl+F (find).
    page.click("#settings-button")
    page.locator("#settings-title").click()
    press_grab_keys(page, moves, "Settings dialog")
    page.click("#close-settings")
    page.locator("#talk-summary").focus()
    press_grab_keys(page, moves, "chat summary")
    page.evaluate("document.getElementById('talk').open = true")
    page.click("#talk-input")
    press_grab_keys(page, moves, "chat input")
    page.locator("#status-line").click()
    page.keyboard.press("Control+f")
    page.keyboard.press("Control+j")
    page.wait_for_timeout(150)
    assert moves == [] and page.locator("#grab-confirm").count() == 0, "Ctrl+F / Ctrl+J"
    # On the table the keys still grab: F for Player 1, J for Player 2 (a grab without
    # four of a kind asks first).
    for key, seat in (("f", 0), ("j", 1)):
        page.locator("#status-line").click()
        page.keyboard.press(key)
        expect(page.locator("#grab-confirm").or_(page.locator("#round-result"))).to_be_visible()
        if page.locator("#grab-confirm").count():
            page.click("#grab-cancel")
        else:
            assert moves and moves[-1]["seat"] == seat
            break
