"""Taps do what the table asks, and cards move, in real Chromium on a touch phone: a tap
that plays or selects a card opens no explanation, a long press explains without playing,
the "?" mode explains instead of playing; a refusal says why and stays until the next
action; a move animates the cards (Web Animations) except under reduced motion."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import long_press, open_seat, seeded_room, touch_page

COUNT_ANIMATIONS = """() => { window.cardAnimations = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.matches('[data-card], .motion-ghost')) window.cardAnimations += 1;
    return animate.apply(this, args);
  }; }"""


def usunoro_phone(
    browser, server_url: str, redis_url: str, reduced_motion: str = "no-preference"
) -> Page:  # type: ignore[no-untyped-def]
    """An Usunoro table (seat 0, CPUs elsewhere) on a touch phone, in its passing phase."""
    code, seat, token = seeded_room(redis_url, "usunoro", ["host", "cpu", "cpu", "cpu"], seed=3)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        reduced_motion=reduced_motion,
    )
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    open_seat(page, server_url, code, seat, token)
    expect(page.locator("#dock .hand button.card").first).to_be_visible()
    return page


def test_a_tap_selects_without_explaining_and_a_long_press_explains_without_selecting(
    browser, server_url, redis_url
) -> None:
    page = usunoro_phone(browser, server_url, redis_url)
    cards = page.locator("#dock .hand button.card")
    first, second = cards.nth(0), cards.nth(1)
    first.tap()
    expect(first).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(600)  # longer than a long press: still nothing explained
    expect(page.locator("#explain")).to_be_hidden()
    long_press(page, second)
    expect(page.locator("#explain")).to_be_visible()
    expect(page.locator("#explain-name")).to_have_text(second.get_attribute("aria-label") or "")
    expect(second).to_have_attribute("aria-pressed", "false")
    expect(first).to_have_attribute("aria-pressed", "true")
    # The "?" mode: a tap explains and selects nothing; off again, a tap selects.
    page.locator("#explain-mode").tap()
    expect(page.locator("#explain-mode")).to_have_attribute("aria-pressed", "true")
    third = cards.nth(2)
    third.tap()
    expect(page.locator("#explain-name")).to_have_text(third.get_attribute("aria-label") or "")
    expect(third).to_have_attribute("aria-pressed", "false")
    page.locator("#explain-mode").tap()
    expect(page.locator("#explain")).to_be_hidden()
    third.tap()
    expect(third).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#explain")).to_be_hidden()
    page.context.close()


def test_a_refused_tap_says_why_until_the_next_action(browser, server_url, redis_url) -> None:
    # Kokuto Rum's rotation choice first: a card of the hand does nothing yet, and says so.
    code, seat, token = seeded_room(redis_url, "kokuto_rum", ["host", "cpu"], seed=3)
    page = touch_page(browser, {"width": 390, "height": 844})
    open_seat(page, server_url, code, seat, token)
    card = page.locator("#dock .sk-hand .sk-card").first
    expect(page.locator("#rotate-keep")).to_be_visible()
    card.tap(force=True)  # aria-disabled: Playwright would wait for it to be enabled
    refusal = page.locator("#refusal")
    expect(refusal).to_have_text("First choose whether to rotate your hand.")
    expect(page.locator("#explain")).to_be_hidden()
    page.wait_for_timeout(3000)  # no toast that fades: it stays
    expect(refusal).to_be_visible()
    page.click("#lang-toggle")
    card.tap(force=True)
    expect(refusal).to_have_text("先に手札を回転するかどうか選んでください。")
    page.locator("#rotate-keep").tap()
    expect(refusal).to_be_hidden()
    page.context.close()


def test_a_move_moves_the_cards_but_nothing_moves_under_reduced_motion(
    browser, server_url, redis_url
) -> None:
    for reduced in (False, True):
        page = usunoro_phone(
            browser, server_url, redis_url, reduced_motion="reduce" if reduced else "no-preference"
        )
        page.evaluate(COUNT_ANIMATIONS)
        page.locator("#dock .hand button.card").first.tap()
        page.locator("#exchange").tap()
        # The exchange runs once the CPUs have marked: a card leaves, another arrives.
        expect(page.locator("#my-hand")).to_contain_text("Last passed", timeout=15_000)
        count = page.evaluate("window.cardAnimations")
        if reduced:
            assert count == 0, f"{count} card animations under reduced motion"
        else:
            assert count > 0, "no card moved"
        page.context.close()
