"""感想戦 in real Chromium: two players and a spectator review a finished Kokuto match
together. The first to open it leads and their steps move the others' reviews; the
marks say agree or differ; the summary's agreement rates equal a recomputation from the
players' match file (engine + advise, tests/rooms/review_support.py); when the leader
leaves, the other player leads. One player on a phone in English, the other on a
desktop in Japanese, the spectator on a small phone in Japanese. A review the server is
still making shows how far it is ("Preparing the review… 3 of 64 moves" and a bar), in
English and in Japanese, until it comes.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.layout import axe_problems, layout_problems
from tests.browser.pages import PHONE, english_left, open_seat, open_sheet, watch_room
from tests.rooms.review_support import HUMANS, finished_room_sync, recomputed_rates

SHOTS = Path("/work/shots/review")
SMALL_PHONE = {"width": 360, "height": 740}


def shot(page: Page, name: str) -> None:
    """A screenshot to look at (not in the repo)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def match_file(server_url: str, code: str, token: str) -> dict:
    """The players' full match file, as the room's Download gives it."""
    request = urllib.request.Request(
        f"{server_url}/api/rooms/{code}/matches/1", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def at_step(page: Page, step: int, timeout: float = 5_000) -> None:
    expect(page.locator("#review-step")).to_have_attribute("data-step", str(step), timeout=timeout)


def fits(page: Page, *must_see: str) -> None:
    """One screen (no page scroll), `must_see` wholly on screen and uncovered, controls
    big enough to touch, and no serious axe-core finding."""
    # A toast fading in is measured once it is in (axe reads a half-faded one as faint).
    page.evaluate(
        "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))"
    )
    problems = layout_problems(page, must_see, table=True) + axe_problems(page)
    assert not problems, "\n".join(problems)


def test_two_players_and_a_spectator_review_a_match_together(
    new_page, server_url: str, redis_url: str
) -> None:
    code, tokens = finished_room_sync(redis_url, "kokuto_rum", seed=21)
    aki = new_page(**PHONE)
    ben = new_page(1280, 860, locale="ja-JP")
    guest = new_page(**SMALL_PHONE)
    for page in (ben, guest):
        page.goto(server_url + "/")
        page.evaluate("localStorage.setItem('zashiki.lang', 'ja')")
    open_seat(aki, server_url, code, HUMANS[0], tokens[0])
    open_seat(ben, server_url, code, HUMANS[1], tokens[1])
    watch_room(guest, server_url, code)
    expect(guest.locator("#review-open")).to_have_count(0)  # spectators only follow
    shot(aki, "result_en_390")

    aki.locator("#review-open").click()  # the first to open leads
    expect(aki.locator("#review")).to_be_visible()
    at_step(aki, 0)
    # The server makes the review at this first ask (the match was played elsewhere):
    # seconds of the CPU's looks, minutes on a loaded machine. Until then there are no
    # differences to go to.
    expect(aki.locator("#review-progress")).to_have_count(0, timeout=120_000)
    expect(aki.locator("#review-forward")).to_be_enabled()
    for page in (ben, guest):
        page.locator("#review-join").click()
        at_step(page, 0)
        expect(page.locator("#review-forward")).to_have_count(0)  # followers do not lead
    expect(ben.locator("#review-leader")).to_contain_text("進行中")

    for _ in range(3):
        aki.locator("#review-forward").click()
    for page in (aki, ben, guest):
        at_step(page, 3)
    aki.locator("#review-next-diff").click()
    step = int(aki.locator("#review-step").get_attribute("data-step"))
    assert step > 3
    for page in (ben, guest):
        at_step(page, step)
    # A difference: the mark says so to everyone; the CPU's move only to whose seat it is.
    for page in (aki, ben, guest):
        expect(page.locator("#review-mark")).to_have_attribute("data-agree", "false")
    data = match_file(server_url, code, tokens[0])
    mover = data["inputs"][step - 1]["s"]
    looker, other = (aki, ben) if mover == HUMANS[0] else (ben, aki)
    expect(looker.locator("#review-mark .review-why")).to_have_count(1)
    expect(other.locator("#review-mark .review-why")).to_have_count(0)
    expect(guest.locator("#review-mark .review-why")).to_have_count(0)
    assert english_left(ben, code) == set()  # the Japanese review says it all in Japanese
    shot(aki, "difference_en_390")
    shot(ben, "difference_ja_desktop")
    shot(guest, "difference_ja_360")
    for page in (aki, guest):
        fits(page, "#review-step", "#review-mark", "#review-close")
    aki.set_viewport_size({"width": 740, "height": 360})  # a phone on its side
    fits(aki, "#review-step", "#review-mark", "#review-close")
    shot(aki, "difference_en_740x360")
    aki.set_viewport_size(PHONE)

    # The last step shows the summary: agreement rates as the match file recomputes them.
    aki.locator("#review-last").click()
    counts = recomputed_rates(data)
    for page in (aki, ben, guest):
        for seat in HUMANS:
            agreed, moves = counts[seat]
            row = page.locator(f"#review-rate-{seat}")
            expect(row).to_have_attribute("data-agreed", str(agreed))
            expect(row).to_have_attribute("data-moves", str(moves))
            expect(row).to_contain_text(f"{round(agreed / moves * 100)}%")
    expect(ben.locator("#review-summary")).to_contain_text("CPUとの一致率")
    assert english_left(ben, code) == set()
    shot(aki, "summary_en_390")
    shot(ben, "summary_ja_desktop")
    fits(aki, "#review-step", "#review-close")

    # The chat sits beside it: the sheet opens over the review and a message goes out.
    aki.locator("#talk > summary").click()
    aki.locator("#talk input[type=text], #talk textarea").first.fill("good game")
    aki.locator("#talk input[type=text], #talk textarea").first.press("Enter")
    expect(ben.locator("#talk")).to_contain_text("good game")
    aki.locator("#talk > summary").click()

    # The leader leaves: Ben, the next player in, leads; the spectator follows him.
    aki.locator("#review-close").click()
    expect(aki.locator("#review")).to_have_count(0)
    expect(ben.locator("#review-first")).to_be_enabled()
    ben.locator("#review-first").click()
    at_step(guest, 0)
    ben.locator("#review-forward").click()
    at_step(guest, 1)
    expect(aki.locator("#review-join")).to_be_visible()  # Aki may come back as a follower


def test_an_older_match_is_reviewed_together_from_the_match_history(
    new_page, server_url: str, redis_url: str
) -> None:
    # Two finished matches: the history lists both with Review together for a player
    # (not for a spectator); the older one's opens its review, which the spectator joins.
    code, tokens = finished_room_sync(redis_url, "utsuke", seed=7, matches=2)
    aki = new_page(**SMALL_PHONE)
    guest = new_page(**SMALL_PHONE)
    open_seat(aki, server_url, code, HUMANS[0], tokens[0])
    watch_room(guest, server_url, code)
    open_sheet(guest, "history")
    expect(guest.locator("#match-list .match-row")).to_have_count(2)
    expect(guest.locator("[data-review-match]")).to_have_count(0)  # spectators only follow
    open_sheet(aki, "history")
    expect(aki.locator("[data-review-match]")).to_have_count(2)
    older = aki.locator('[data-review-match="1"]')
    expect(older).to_have_accessible_name("Review match 1 together")
    older.scroll_into_view_if_needed()
    box = older.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 360
    shot(aki, "history_review_en_360")
    older.click()
    expect(aki.locator("#review-title")).to_have_text("Review of match 1")
    expect(aki.locator("#fold-history")).not_to_have_attribute("open", "")
    at_step(aki, 0, timeout=30_000)  # the review is worked out when first opened
    aki.locator("#review-forward").click()
    guest.locator("#fold-history .sheet-close").click()
    guest.locator("#review-join").click()
    expect(guest.locator("#review-title")).to_have_text("Review of match 1")
    at_step(guest, 1)
    fits(aki, "#review-step", "#review-close")


def test_a_review_still_being_made_shows_its_progress_in_english_and_japanese(
    new_page, server_url: str, redis_url: str
) -> None:
    # Matches played elsewhere: the server makes each review when first asked (seconds
    # of the CPU's looks), answering the asks meanwhile with how far it is.
    for language, seed, words in (
        ("en", 3, r"Preparing the review… \d+ of (\d+) moves"),
        ("ja", 4, r"感想戦を準備中…(\d+)手中\d+手"),
    ):
        code, tokens = finished_room_sync(redis_url, "utsuke", seed=seed)
        page = new_page(**PHONE, locale="ja-JP" if language == "ja" else "en-US")
        page.goto(server_url + "/")
        page.evaluate(f"localStorage.setItem('zashiki.lang', '{language}')")
        open_seat(page, server_url, code, HUMANS[0], tokens[0])
        page.locator("#review-open").click()
        line = page.locator("#review-mark #review-progress-text")
        expect(line).to_have_text(re.compile(words), timeout=30_000)
        total = re.search(words, line.inner_text()).group(1)
        bar = page.locator("#review-mark progress#review-progress")
        expect(bar).to_have_attribute("max", total)
        if language == "ja":
            assert english_left(page, code) - {"Ben"} == set()  # the other player's name
        fits(page, "#review-step", "#review-mark", "#review-close")
        shot(page, f"preparing_{language}_390")
        # Then the review itself: the step's mark, no progress left.
        expect(page.locator("#review-mark")).not_to_have_attribute(
            "data-agree", "loading", timeout=120_000
        )
        expect(page.locator("#review-progress")).to_have_count(0)
