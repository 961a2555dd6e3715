"""What a table tells the player as they play, one behaviour each: why a card may not be
played (in their language), where keyboard focus goes after a move, the guess kept in
view, Usunoro's confirmation before a first grab without four of a kind, the countdowns
of timers that act for the player, and the round-end screen that folds away by itself
unless kept open.

Rooms are seeded and made straight in the suite's Redis (seat 0 the human); states that
take minutes of play are made by the engine and drawn by the table module itself.
"""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

from server.games import registry
from tests.browser.pages import PHONE, open_seat, render_table, seeded_room


def seeded_table(
    new_page, server_url: str, redis_url: str, game_id: str, seats: list[str], seed: int, ready: str
) -> Page:  # type: ignore[no-untyped-def]
    """A seeded room's table at phone size for seat 0, once `ready` shows."""
    code, seat, token = seeded_room(redis_url, game_id, seats, seed=seed)
    page = new_page(**PHONE)
    open_seat(page, server_url, code, seat, token)
    expect(page.locator(ready)).to_be_visible()
    return page


def utsuke_table(new_page, server_url: str, redis_url: str) -> Page:  # type: ignore[no-untyped-def]
    return seeded_table(
        new_page, server_url, redis_url, "utsuke", ["host", "cpu", "cpu"], 5, "#guess-pad"
    )


def test_a_card_that_may_not_be_played_says_why_in_the_players_language(
    new_page, server_url, redis_url
) -> None:
    page = utsuke_table(new_page, server_url, redis_url)
    card = page.locator("#my-hand button.tcard").first
    expect(card).to_have_attribute("aria-disabled", "true")
    tap_until_told(page, card, "First make your secret guess.")
    page.click("#lang-toggle")
    tap_until_told(page, card, "先に秘密の予想をしてください。")


def tap_until_told(page: Page, card, text: str) -> None:  # type: ignore[no-untyped-def]
    """Tap `card` until the dock's refusal says `text` (a tap during a re-render may miss)."""
    refusal = page.locator("#refusal")
    for _ in range(3):
        card.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
        if refusal.count() and refusal.inner_text() == text:
            return
        page.wait_for_timeout(500)
    expect(refusal).to_have_text(text)


def test_focus_stays_in_the_dock_after_a_move_and_the_guess_stays_in_view(
    new_page, server_url, redis_url
) -> None:
    page = utsuke_table(new_page, server_url, redis_url)
    page.focus('[data-guess="2"]')
    page.keyboard.press("Enter")
    expect(page.locator('[data-guess="2"]')).to_be_focused()
    page.focus("#guess-confirm")
    page.keyboard.press("Enter")
    expect(page.locator("#guess-pad")).to_have_count(0)
    in_dock = "() => Boolean(document.activeElement && document.activeElement.closest('#dock'))"
    assert page.evaluate(in_dock), "focus went to the page top after the guess"
    reminder = page.locator("#guess-reminder")
    expect(reminder).to_contain_text("the Lord takes 2", timeout=20_000)
    expect(reminder).to_be_in_viewport()


def usunoro_table(new_page, server_url: str, redis_url: str) -> Page:  # type: ignore[no-untyped-def]
    seats = ["host", "cpu", "cpu", "cpu"]
    ready = '.table[data-phase="passing"]'
    return seeded_table(new_page, server_url, redis_url, "usunoro", seats, 2, ready)


def test_usunoro_asks_before_a_first_grab_without_four_of_a_kind(
    new_page, server_url, redis_url
) -> None:
    page = usunoro_table(new_page, server_url, redis_url)
    cards = page.locator("#my-hand [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert len({c[1:] for c in cards}) > 1, "seed 2 deals seat 0 no four of a kind"
    grab = page.locator('[data-grab="0"]')
    expect(page.locator("#exchange")).to_be_visible()
    apart = page.evaluate(
        """() => document.querySelector('[data-grab="0"]').getBoundingClientRect().left
                 - document.querySelector('#exchange').getBoundingClientRect().right"""
    )
    assert apart >= 16, "Grab stands apart from Exchange"
    grab.click()
    expect(page.locator("#grab-confirm")).to_be_visible()
    page.click("#grab-cancel")
    expect(page.locator("#grab-confirm")).to_have_count(0)
    expect(page.locator(".table")).to_have_attribute("data-phase", "passing")
    grab.click()
    page.check("#grab-confirm-off")
    page.click("#grab-anyway")
    result = page.locator("#round-result")
    expect(result).to_contain_text("grabbed early")
    expect(result).to_contain_text("Penalties: You 1 · CPU 2 0")
    expect(result.locator("#waiting-for")).to_have_text("The table waits for you to go on.")
    page.click("#next-round")
    expect(page.locator('.table[data-phase="passing"]')).to_be_visible()
    page.locator('[data-grab="0"]').click()  # turned off: no question this time
    expect(page.locator("#round-result")).to_contain_text("Penalties: You 2")


def test_usunoro_shows_the_countdown_of_the_automatic_pass(new_page, server_url, redis_url) -> None:
    page = usunoro_table(new_page, server_url, redis_url)
    timer = page.locator("#usunoro-countdown")
    expect(timer).to_contain_text("s to choose: then a card is passed for you")
    first = timer.locator(".seconds").inner_text()
    expect(timer.locator(".seconds")).not_to_have_text(first, timeout=5_000)
    expect(timer).to_be_in_viewport()


def after_first_round(game_id: str, seats: int, seed: int = 1) -> tuple[dict, dict]:
    """View frames for seat 0 during the first round (its last move still to come) and
    just after it ended and the next began, from seeded random legal moves."""
    game = registry.get(game_id)
    state = game.new(seats, {}, seed)
    pick = random.Random(seed)
    frames = []
    while True:
        view = game.view(state, 0)
        frames.append(frame_of(game, state, view, seats))
        if view.get("last_round") and game.outcome(state) is None:
            break
        seat = next(s for s in range(seats) if game.actions(state, s))
        game.apply(state, seat, pick.choice(game.actions(state, seat)), 0)
    return frames[-2], frames[-1]


def frame_of(game: Any, state: Any, view: dict, seats: int) -> dict:
    """A view frame for seat 0 (the others CPUs)."""
    return {
        "view": view,
        "outcome": None,
        "legal": {0: game.actions(state, 0)},
        "seats": [{"kind": "human"}] + [{"kind": "cpu"}] * (seats - 1),
        "you": [0],
        "room": {"game_ms": 0, "running": True},
    }


def test_a_result_the_game_moved_on_from_counts_down_then_folds_unless_kept(
    new_page, server_url
) -> None:
    before, message = after_first_round("kokuto_rum", 2)
    page = new_page(**PHONE)
    page.add_init_script("window.ZASHIKI_RESULT_MS = 1500")
    render_table(page, server_url, "kokuto_rum", message, before=before)
    result = page.locator("#round-result")
    expect(result).to_contain_text("Round 1 result")
    expect(page.locator("#result-countdown")).to_contain_text("Closes in")
    expect(result).to_have_count(0, timeout=5_000)
    expect(page.locator("#fold-last-result")).to_contain_text("Round 1 result")

    kept = new_page(**PHONE)
    kept.add_init_script("window.ZASHIKI_RESULT_MS = 5000")
    render_table(kept, server_url, "kokuto_rum", message, before=before)
    result = kept.locator("#round-result")
    kept.click("#keep-result")
    expect(kept.locator("#result-countdown")).to_have_count(0)
    kept.wait_for_timeout(6_000)  # longer than the countdown would have run
    expect(result).to_be_visible()
    kept.click("#close-result")
    expect(result).to_have_count(0)


def test_a_result_from_before_the_page_came_starts_folded(new_page, server_url) -> None:
    """A page that opens (a reload, another device) after a round's result, while the next
    round is played, shows that result folded below the table, not over it."""
    _, message = after_first_round("kokuto_rum", 2)
    page = new_page(**PHONE)
    render_table(page, server_url, "kokuto_rum", message)
    expect(page.locator("#round-result")).to_have_count(0)
    expect(page.locator("#fold-last-result")).to_contain_text("Round 1 result")


def test_a_reload_during_the_next_round_leaves_the_last_result_folded(
    new_page, server_url, redis_url
) -> None:
    """A real room: the page that saw a round end shows its result on top; reloaded while
    the next round is played, it shows that result only folded below the table."""
    code, seat, token = seeded_room(redis_url, "kokuto_rum", ["host", "cpu"], seed=7)
    page = new_page(**PHONE)
    page.add_init_script("window.ZASHIKI_RESULT_MS = 600000")
    open_seat(page, server_url, code, seat, token)
    # A CPU plays the host's seat too, so the round ends by itself.
    hand_over = urllib.request.Request(
        f"{server_url}/api/rooms/{code}/seats/{seat}/cpu",
        data=json.dumps({"token": token}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(hand_over, timeout=30) as answer:
        assert answer.status == 200
    result = page.locator("#round-result")
    expect(result).to_contain_text("Round 1 result", timeout=90_000)
    expect(page.locator("#round-badge")).to_contain_text("Round 2")
    page.reload()
    expect(page.locator("#round-badge")).to_contain_text("Round 2")
    expect(page.locator("#fold-last-result")).to_contain_text("Round 1 result")
    expect(result).to_have_count(0)


def test_the_round_end_says_whom_it_waits_for_in_a_sentence(new_page, server_url) -> None:
    """Any one of several may go on (Usunoro's next hand), or each must (Jong's "next")."""
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async () => {
          const { roundEnds } = await import('/tables/round_end.js');
          const { setLang } = await import('/i18n.js');
          const out = [];
          for (const lang of ['en', 'ja']) {
            setLang(lang, { remember: false });
            const cases = [[false, true], [true, true], [true, false], [false, false]];
            for (const [waitAll, waitsForMe] of cases) {
              const { top } = roundEnds(() => {}).show({
                key: 'r', title: 'Round over', body: [], waitingFor: ['Ben', 'CPU 3'],
                waitsForMe, waitAll,
              });
              out.push(top.querySelector('#waiting-for').textContent);
            }
          }
          return out;
        }"""
    )
    assert said == [
        "Waiting for you, Ben or CPU 3 to go on.",
        "Waiting for you, Ben and CPU 3 to go on.",
        "Waiting for Ben and CPU 3 to go on.",
        "Waiting for Ben or CPU 3 to go on.",
        "あなた、BenかCPU 3のだれかが「次へ」を押すのを待っています。",
        "あなた、BenとCPU 3の「次へ」を待っています。",
        "BenとCPU 3の「次へ」を待っています。",
        "BenかCPU 3のだれかが「次へ」を押すのを待っています。",
    ]
