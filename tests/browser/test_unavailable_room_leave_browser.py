"""A way out of a room that cannot be opened (room_unavailable), on a phone, in English and
Japanese: "Back to lobby" keeps the seat (the lobby's Your rooms still marks the room), and
"Leave this room", once confirmed, forgets the room's seats on this device and returns to
the lobby, where Your rooms shows the player's other room and not that one. Cancel keeps
everything. The server cannot load the room, so it is not told (a leave would be refused).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.layout import layout_problems
from tests.browser.pages import PHONE, english_left, seeded_room
from tests.browser.test_unavailable_rooms_browser import (
    held_tokens,
    hold,
    open_unavailable,
    spoiled_room,
)

WORDS = {
    "en-US": {
        "says": ("can't be opened right now", "Your seat is kept"),
        "back": "Back to lobby",
        "leave": "Leave this room",
        "confirm": "Forget your seat in this room on this device?",
        "cancel": "Cancel",
        "marked": "can't be opened right now",
        "left": "is no longer in Your rooms",
    },
    "ja-JP": {
        "says": ("この部屋はいま開けません", "あなたの席はそのまま残っています"),
        "back": "ロビーへ戻る",
        "leave": "この部屋を離れる",
        "confirm": "この端末からこの部屋の席を消しますか？",
        "cancel": "やめる",
        "marked": "いまは開けません",
        "left": "を参加中の部屋から外しました",
    },
}


def check_phone_layout(page: Page, *must_see: str) -> None:
    """No sideways scroll; each of `must_see` on screen, uncovered, of a touch size."""
    assert not layout_problems(page, must_see), layout_problems(page, must_see)


def leave_on_a_phone(new_page, server_url: str, redis_url: str, locale: str) -> None:  # type: ignore[no-untyped-def]
    """The whole way out in `locale`: back to the lobby and in again, Leave, Cancel,
    Leave and confirm; the lobby then holds only the other room."""
    words = WORDS[locale]
    good, _, good_token = seeded_room(redis_url, "kokuto_rum", ["host", "cpu"], seed=5)
    broken, token = spoiled_room(redis_url, corrupt=locale == "ja-JP")
    page = new_page(**PHONE, locale=locale)
    hold(page, server_url, good, good_token)
    open_unavailable(page, server_url, broken, token, words["says"], back=words["back"])
    leave = page.locator("#room-unavailable-leave")
    expect(leave).to_have_text(words["leave"])
    check_phone_layout(page, "#room-unavailable-leave", "#room-unavailable-lobby")
    if locale == "ja-JP":
        assert not english_left(page, broken), english_left(page, broken)
    screenshot(page, f"room-unavailable-leave-{locale}")

    # Back to the lobby: the seat kept, the room marked there; Resume opens it again.
    page.locator("#room-unavailable-lobby").click()
    expect(page.locator(f'[data-unavailable="{broken}"]')).to_have_text(words["marked"])
    assert held_tokens(page, broken) == [token]
    page.locator(f'[data-key="resume-{broken}"]').click()
    expect(leave).to_be_visible()

    # Leave asks first; Cancel keeps the seat.
    leave.click()
    confirm = page.locator("#room-unavailable-leave-confirm")
    expect(confirm).to_contain_text(words["confirm"])
    expect(page.locator("#room-unavailable-leave-no")).to_have_text(words["cancel"])
    check_phone_layout(page, "#room-unavailable-leave-yes", "#room-unavailable-leave-no")
    if locale == "ja-JP":
        assert not english_left(page, broken), english_left(page, broken)
    screenshot(page, f"room-unavailable-leave-confirm-{locale}")
    page.locator("#room-unavailable-leave-no").click()
    expect(confirm).to_have_count(0)
    assert held_tokens(page, broken) == [token]

    # Leave, confirmed: the seat forgotten here, the lobby shows only the other room.
    leave.click()
    page.locator("#room-unavailable-leave-yes").click()
    expect(page.locator("#your-rooms-list li[data-room]")).to_have_count(1)
    expect(page.locator(f'#your-rooms-list li[data-room="{good}"]')).to_be_visible()
    expect(page.locator("#toast")).to_contain_text(words["left"])
    assert page.url.rstrip("/") == server_url
    assert held_tokens(page, broken) == []
    assert held_tokens(page, good) == [good_token]
    screenshot(page, f"room-unavailable-left-{locale}")
    page.reload()  # and after a reload: nothing of it comes back
    expect(page.locator(f'#your-rooms-list li[data-room="{good}"]')).to_be_visible()
    expect(page.locator(f'#your-rooms-list li[data-room="{broken}"]')).to_have_count(0)


def test_leave_an_unavailable_room_on_a_phone_in_english(
    new_page, server_url: str, redis_url: str
) -> None:
    leave_on_a_phone(new_page, server_url, redis_url, "en-US")


def test_leave_an_unavailable_room_on_a_phone_in_japanese(
    new_page, server_url: str, redis_url: str
) -> None:
    leave_on_a_phone(new_page, server_url, redis_url, "ja-JP")
