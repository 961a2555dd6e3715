"""The replay viewer in real Chromium: a finished Utsuke match stepped through from two
seats and with every hand open, in English and Japanese, at phone and desktop size; a
visitor without a seat gets the spectator view only. The player's Download saves the
full match file, which re-runs through the engine.

The room (seat 2 a human, the host; CPUs elsewhere) is played to its end offline in the
suite's Redis (tests/rooms/history_support.py); what each step must show comes from
the same match rebuilt here through the engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from server.rooms.history.match_file import verify
from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    english_left,
    open_sheet,
    own_hand,
    page_width,
    wait_until,
)
from tests.rooms.history_support import HUMAN, finished_room_sync, replay_steps_sync

SMALL_PHONE = {"width": 360, "height": 740}


def hand_of(step: dict, seat: int) -> list[str]:
    return step["views"][seat]["hand"]


def at_step(page: Page, index: int, perspective: str | None = None) -> None:
    """Wait until the viewer shows step `index` (from `perspective`, when given)."""
    expect(page.locator("#replay-step")).to_have_attribute("data-step", str(index))
    if perspective is not None:
        expect(page.locator("#replay-step")).to_have_attribute("data-perspective", perspective)


def opened(page: Page, server_url: str, code: str, token: str | None, lang: str) -> None:
    """Open the room as the browser holding seat 2 (or none), in `lang`, then its replay."""
    page.goto(server_url + "/")
    held = [] if token is None else [{"seat": HUMAN, "token": token}]
    page.evaluate(
        "([key, held, lang]) => { localStorage.setItem(key, JSON.stringify(held));"
        " localStorage.setItem('zashiki.lang', lang); }",
        [f"zashiki.seats.{code}", held, lang],
    )


@pytest.mark.parametrize(
    ("lang", "size"),
    [("en", DESKTOP), ("en", PHONE), ("ja", SMALL_PHONE), ("ja", DESKTOP)],
    ids=["en-desktop", "en-phone", "ja-phone-360", "ja-desktop"],
)
def test_a_player_steps_through_a_match_from_two_seats_and_all_hands_open(
    new_page, server_url: str, redis_url: str, lang: str, size: dict
) -> None:
    name = "花子" if lang == "ja" else "Hana"
    code, token = finished_room_sync(redis_url, "utsuke", seed=61, host_name=name)
    steps = replay_steps_sync(redis_url, code)
    tag = f"replay_{lang}_{size['width']}"
    page = new_page(**size)
    opened(page, server_url, code, token, lang)

    page.goto(f"{server_url}/?room={code}")
    expect(page.locator("#match-list li")).to_have_count(1)
    expect(page.locator("#standings li")).to_have_count(3)
    open_sheet(page, "history")  # the room's matches: a sheet in its bar
    # The match's line names whose score is whose (seat 2 is this player).
    scores, you = ("Scores: CPU 1 ", "You") if lang == "en" else ("得点：CPU 1 ", "あなた")
    expect(page.locator("#match-list .match-scores")).to_contain_text(scores)
    expect(page.locator("#match-list .match-scores")).to_contain_text(f" · {you} ")
    screenshot(page, f"{tag}_room_history")
    with page.expect_download() as download:
        page.locator('#match-list [data-key="download"]').click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["kind"] == "full" and len(saved["inputs"]) == len(steps) - 1
    verify(saved)  # the downloaded file re-runs to what it records
    page.locator('#match-list [data-key="replay"]').click()
    page.wait_for_url(f"**/?room={code}&replay=1")

    # Seat 2's own eyes: its hand as dealt, then step by step.
    at_step(page, 0, str(HUMAN))
    expect(page.locator("#replay-perspective")).to_have_value(str(HUMAN))
    assert own_hand(page) == hand_of(steps[0], HUMAN)
    page.click("#replay-forward")
    at_step(page, 1)
    # Each step says its move as the move log does: the first is somebody's guess.
    guessed = {
        "en": r"(made a secret guess|You guessed \d+)\.",
        "ja": r"(予想を伏せました|予想は\d+です)",
    }
    expect(page.locator("#replay-step")).to_contain_text(re.compile(guessed[lang]))
    page.click("#replay-next-trick")
    first_trick_done = next(
        i
        for i, s in enumerate(steps)
        if (s["round"], s["trick"]) != (steps[1]["round"], steps[1]["trick"])
    )
    at_step(page, first_trick_done)
    assert own_hand(page) == hand_of(steps[first_trick_done], HUMAN)
    took = "took the trick." if lang == "en" else "トリックを取りました。"
    expect(page.locator("#replay-step")).to_contain_text(took)
    page.click("#replay-back")
    at_step(page, first_trick_done - 1)
    page.click("#replay-next-round")
    next_round = next(i for i, s in enumerate(steps) if s["round"] != steps[0]["round"])
    at_step(page, next_round)
    assert own_hand(page) == hand_of(steps[next_round], HUMAN)
    screenshot(page, f"{tag}_seat2")
    page.click("#replay-prev-round")
    at_step(page, 0)

    # Another seat's eyes: seat 0's hand, never seat 2's.
    page.select_option("#replay-perspective", "0")
    at_step(page, 0, "0")
    expect(page.locator(".my-hand [data-card]")).to_have_count(len(hand_of(steps[0], 0)))
    assert own_hand(page) == hand_of(steps[0], 0)
    page.click("#replay-next-round")
    at_step(page, next_round)
    assert own_hand(page) == hand_of(steps[next_round], 0)
    screenshot(page, f"{tag}_seat0")

    # Every hand open: each seat's hand as that seat saw it at this step.
    page.select_option("#replay-perspective", "open")
    at_step(page, next_round, "open")
    expect(page.locator("#replay-hands .replay-hand")).to_have_count(3)
    for seat in range(3):
        cards = page.locator(f'#replay-hands [data-seat="{seat}"] [data-card]')
        expect(cards).to_have_count(len(hand_of(steps[next_round], seat)))
        got = cards.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        assert got == hand_of(steps[next_round], seat)
    screenshot(page, f"{tag}_open")

    # Played at a speed, then paused; the last step shows the result.
    page.select_option("#replay-speed", "8")
    page.click("#replay-play")
    expect(page.locator("#replay-step")).not_to_have_attribute("data-step", str(next_round))
    step = "Number(document.querySelector('#replay-step').dataset.step)"
    wait_until(page, f"() => {step} >= {next_round + 4}")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    page.click("#replay-last")
    at_step(page, len(steps) - 1)
    expect(page.locator("#match-places li")).to_have_count(3)
    screenshot(page, f"{tag}_last")

    assert page_width(page) <= size["width"], "the replay scrolls sideways"
    if lang == "ja":
        assert english_left(page, code) == set()


def test_a_visitor_without_a_seat_gets_the_spectator_view_only(
    new_page, server_url: str, redis_url: str
) -> None:
    code, _ = finished_room_sync(redis_url, "utsuke", seed=62)
    page = new_page(**PHONE)
    opened(page, server_url, code, None, "en")
    page.goto(f"{server_url}/?room={code}&replay=1")
    at_step(page, 0)
    expect(page.locator("#replay-spectator-only")).to_be_visible()
    expect(page.locator("#replay-perspective")).to_have_count(0)
    page.click("#replay-next-round")
    expect(page.locator("#replay-step")).not_to_have_attribute("data-step", "0")
    expect(page.locator(".my-hand [data-card]")).to_have_count(0)
    screenshot(page, "replay_spectator_phone")
