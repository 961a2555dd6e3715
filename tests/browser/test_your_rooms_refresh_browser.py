"""The lobby's "Your rooms" keeps itself current while the lobby is open: a room that
started (or a seat taken in another tab) shows when the page is seen again (it comes back
into view, or gets focus) and, in a tab left open in view, every 30 s; never in a hidden
tab, never in a loop, and not at all once the lobby is left.

The 30 s are Playwright's fake clock (`page.clock`), moved on by the test: nothing waits
for real time to pass.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import PHONE
from tests.browser.test_seats_browser import post

REFRESH_MS = 30_000  # your_rooms.js REFRESH_MS


def new_room(server_url: str) -> dict[str, str]:
    """A Kokuto Rum room not started yet: the host at seat 0, a CPU at seat 1."""
    return post(server_url, "/api/rooms", {"game": "kokuto_rum", "seats": ["host", "cpu"]})


def hold(page: Page, room: dict[str, str]) -> None:
    """Keep the room's host seat in this browser, as taking it in another tab would."""
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))",
        [f"zashiki.seats.{room['code']}", [{"seat": 0, "token": room["token"]}]],
    )


def set_hidden(page: Page, hidden: bool) -> None:
    """Hide or show the tab as a switch to another tab would (visibilitychange)."""
    page.evaluate(
        """(hidden) => {
          Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
          Object.defineProperty(document, 'visibilityState', {
            configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
          document.dispatchEvent(new Event('visibilitychange'));
        }""",
        hidden,
    )


def asks(page: Page) -> dict[str, int]:
    """Counts of the page's requests for "Your rooms" from now on, and of their answers."""
    seen = {"asked": 0, "answered": 0}

    def count(key: str, url: str) -> None:
        if url.endswith("/api/your-rooms"):
            seen[key] += 1

    page.on("request", lambda r: count("asked", r.url))
    page.on("requestfinished", lambda r: count("answered", r.url))
    return seen


def run_for(page: Page, seen: dict[str, int], ms: int, *, asking: bool = True) -> None:
    """Move the page's clock on by `ms` in steps of the refresh period; when `asking`,
    wait at each step for its ask and its answer (real time would leave the answer that
    long to come)."""
    for _ in range(ms // REFRESH_MS):
        before = seen["asked"]
        page.clock.run_for(REFRESH_MS)
        if not asking:
            continue
        for _ in range(200):
            if seen["asked"] > before and seen["answered"] == seen["asked"]:
                break
            page.wait_for_timeout(50)
        assert seen["asked"] > before, "no ask in a refresh period"
        assert seen["answered"] == seen["asked"], "an ask was never answered"


def lobby_holding_a_new_room(
    new_page: Callable[..., Page], server_url: str
) -> tuple[Page, dict[str, str], Locator]:
    """A phone's lobby on Playwright's fake clock, holding the host seat of a room not
    started yet: the page, the room, and its row in "Your rooms"."""
    page = new_page(**PHONE)
    page.clock.install()
    page.goto(server_url + "/")
    room = new_room(server_url)
    hold(page, room)
    page.reload()
    row = page.locator(f'#your-rooms [data-room="{room["code"]}"]')
    expect(row).to_contain_text("waiting to start")
    return page, room, row


def test_your_rooms_refreshes_when_the_lobby_is_seen_again(new_page, server_url: str) -> None:
    page, first, row = lobby_holding_a_new_room(new_page, server_url)

    # Started elsewhere while this tab was in the background: back in view, it says so.
    set_hidden(page, True)
    post(server_url, f"/api/rooms/{first['code']}/start", {"token": first["token"]})
    set_hidden(page, False)
    expect(row).to_contain_text("playing")
    expect(row.locator(".your-turn")).to_have_text("Your turn")

    # A seat taken in another tab shows when this window gets focus (a focus right after
    # an answer asks nothing: a tab switch fires both events).
    second = new_room(server_url)
    hold(page, second)
    page.clock.run_for(3_000)
    page.evaluate("() => window.dispatchEvent(new Event('focus'))")
    expect(page.locator(f'#your-rooms [data-room="{second["code"]}"]')).to_be_visible()
    screenshot(page, "your-rooms-refreshed-phone")


def test_your_rooms_refreshes_on_a_modest_interval_only_in_view(new_page, server_url: str) -> None:
    page, room, row = lobby_holding_a_new_room(new_page, server_url)
    seen = asks(page)

    post(server_url, f"/api/rooms/{room['code']}/start", {"token": room["token"]})
    run_for(page, seen, REFRESH_MS)
    expect(row).to_contain_text("playing")
    # Ten minutes in view: one ask each 30 s, no more (no loop).
    run_for(page, seen, 10 * 60_000)
    in_view = seen["asked"]
    # The page's clock also runs on by itself meanwhile (a slow machine: a step more).
    assert 21 <= in_view <= 24, f"{in_view} asks in 10.5 minutes in view"

    # A hidden tab asks nothing.
    set_hidden(page, True)
    hidden_from = seen["asked"]
    run_for(page, seen, 10 * 60_000, asking=False)
    page.wait_for_timeout(300)  # an ask made anyway would be on its way by now
    assert seen["asked"] == hidden_from, "a hidden tab kept asking"
    set_hidden(page, False)

    # Once the lobby is left (the room opened), the lobby's panel asks no more.
    row.locator("button", has_text="Resume").click()
    expect(page.locator(".table")).to_be_visible()
    left_at = seen["asked"]
    run_for(page, seen, 5 * 60_000, asking=False)
    page.wait_for_timeout(300)
    assert seen["asked"] == left_at, "the lobby's panel kept asking from the room"
    print(f"your-rooms asks: {in_view} in 10.5 min in view, 0 hidden, 0 after leaving")
