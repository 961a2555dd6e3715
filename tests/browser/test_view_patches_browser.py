"""The browser asks for view patches and draws the table from them: after marks and an
exchange sent as patches, the hand it shows is the hand a whole view holds."""

from __future__ import annotations

import msgpack
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from websockets.sync.client import connect

from tests.browser.conftest import screenshot
from tests.browser.pages import DESKTOP, PHONE, host_room, page_width, start
from tests.browser.test_usunoro_browser import hand_cards, pass_choice


def received_views(page: Page) -> list[dict]:
    """Every view frame this page receives on its websocket from now on, decoded."""
    views: list[dict] = []

    def watch(ws) -> None:  # type: ignore[no-untyped-def]
        def received(payload: bytes | str) -> None:
            frame = msgpack.unpackb(payload, strict_map_key=False)
            if isinstance(frame, dict) and frame.get("t") == "view":
                views.append(frame)

        ws.on("framereceived", received)

    page.on("websocket", watch)
    return views


def whole_view(server_url: str, code: str, token: str) -> dict:
    """The seat's view as a connection that asks for no patches gets it first."""
    url = "ws" + server_url.removeprefix("http") + f"/ws?room={code}"
    with connect(url, compression=None) as ws:
        ws.send(msgpack.packb({"t": "hello", "tokens": [token]}))
        while True:
            frame = msgpack.unpackb(ws.recv(timeout=10), strict_map_key=False)
            if frame["t"] == "view":
                return frame["view"]


@pytest.mark.parametrize(
    ("label", "size", "locale"), [("phone-en", PHONE, "en-US"), ("desktop-ja", DESKTOP, "ja-JP")]
)
def test_the_hand_drawn_from_patches_is_the_hand_of_a_whole_view(
    new_page, server_url, label: str, size: dict[str, int], locale: str
) -> None:
    page = new_page(**size, locale=locale)
    views = received_views(page)
    code = host_room(page, server_url, "usunoro")
    start(page)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('zashiki.seats.{code}'))[0].token")
    # Pass cards until an exchange has come as a patch (the new hands in a few fields).
    # A card is chosen only while the Exchange button shows (seat 0 has sent nothing):
    # a tap on the card already sent takes it back. A CPU dealt four of a kind grabs at
    # once and ends the round before any exchange: then the next round is dealt.
    for _ in range(300):
        if any("hand" in v.get("patch", {}) for v in views):
            break
        try:  # CPUs move the table on meanwhile: a target may vanish, then try again
            if page.locator("#next-round").count():
                page.click("#next-round", timeout=300)
            elif page.locator("#exchange").count():
                cards = hand_cards(page, 0)
                if cards and page.locator("#exchange:enabled").count() == 0:
                    page.click(f'[data-hand="0"] [data-card="{pass_choice(cards)}"]', timeout=300)
                page.locator("#exchange:enabled").click(timeout=300)
        except PlaywrightError:
            pass
        page.wait_for_timeout(100)
    assert any("hand" in v.get("patch", {}) for v in views), "no exchange came as a patch"
    assert "view" in views[0] and "patch" not in views[0], "a connection's first view is whole"
    # Nobody passes for seat 0 now, so its hand holds still: compare what is drawn.
    for _ in range(20):
        shown = hand_cards(page, 0)
        whole = whole_view(server_url, code, token)
        if shown == hand_cards(page, 0):  # not redrawn meanwhile (a new round)
            break
    assert sorted(shown) == sorted(whole["hand"])
    assert screenshot(page, f"usunoro-after-patches-{label}").stat().st_size > 0
    assert page_width(page) <= size["width"], "the table fits the screen width"
