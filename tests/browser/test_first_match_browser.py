"""First matches ("Learn by playing") in real Chromium at phone size: each game's first
match played to the end of its coached round by following the coach, and the way out.

Every game's match is opened from "/?learn=GAME" in a page of its own (one more plays
Usunoro in Japanese); the pages are played side by side, so the six matches take about
as long as the longest round (Hachinin Meri's eight tricks of eight). Following the
coach means pressing "Play it" on its card: the move its hint gives, the same the
deal was chosen with (tests/rooms/first_deals.py), so every moment of the game's deal
(server/rooms/first_match.py) comes up; the page records each moment's line as the card
shows it, checked against the coach's strings in the page's language. At each moment
the test's turn round the pages catches, the table is still one screen with the card,
the hand and the moves in sight, at 390x844 and 360x740. At the end the card offers
"Play a real match", which opens the lobby's create form with the game chosen.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import replace
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from server.rooms.first_match import FIRST_DEALS
from tests.browser.conftest import ARTIFACTS
from tests.browser.layout import layout_problems
from tests.browser.pages import PHONE, wait_until
from tests.rooms.first_deals import moment, play_first_round, round_over

SMALL = {"width": 360, "height": 740}
OTHER_SEEDS = (1, 2, 3, 6, 8)  # more first rounds to hold coach.js's moments against
BUDGET_S = 300  # for all matches together; a busy machine is slow, not stuck
STALL_S = 60  # without a coach moment or a move on any page this long, play stops
# The status, the hand and the moves stay in sight with the coach's card in the dock (at
# 390x844 the card itself too; on a smaller phone it may leave its room to the table).
MUST_SEE = ("#status-line", "#my-hand", "#coach-card")
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# Every line the coach's card shows, recorded in the page as it appears (a moment may
# last less than the test's turn round the pages: Usunoro's race after a CPU's grab).
RECORDER = """window.__coach = [];
new MutationObserver(() => {
  const card = document.getElementById('coach-card');
  if (card && !window.__coach.some((e) => e.moment === card.dataset.moment))
    window.__coach.push({moment: card.dataset.moment, text: card.textContent});
}).observe(document, {subtree: true, childList: true, attributes: true});"""
# One frame's worth of what the test reads from a page.
READ = """() => {
  const card = document.getElementById('coach-card');
  const play = document.getElementById('coach-play');
  return card ? {moment: card.dataset.moment,
    play: play ? (play.getClientRects().length ? 'card' : 'sheet') : null} : null;
}"""


class Learner:
    """One page playing one game's first match by the coach."""

    def __init__(self, page: Page, game: str, lang: str) -> None:
        self.page, self.game, self.lang = page, game, lang
        self.checked: set[str] = set()  # moments whose table the test has measured
        self.problems: list[str] = []
        self.done = False

    def step(self) -> bool:
        """Read the card, check a new moment, press Play it; True if anything happened."""
        card: dict[str, Any] | None = self.page.evaluate(READ)
        if card is None:
            return False
        moved = False
        if card["moment"] not in self.checked:
            self.checked.add(card["moment"])
            self.check_layout(card["moment"])
            moved = True
        if card["moment"] == "end":
            self.done = True
        elif card["play"]:
            moved = self.play(card["play"]) or moved
        return moved

    def play(self, where: str) -> bool:
        """Press Play it: on the card, or in the Coach sheet where the card has no room."""
        try:
            if where == "sheet":
                self.page.click("#fold-coach > summary", timeout=500)
                self.page.click("#coach-play-sheet", timeout=500)
            else:
                self.page.click("#coach-play", timeout=500)
            return True
        except PlaywrightError:  # drawn again meanwhile (a CPU moved): next time
            return False
        finally:  # the sheet closes with its Play it; closed here when that missed
            self.close_coach_sheet()

    def close_coach_sheet(self) -> None:
        """Close the Coach sheet if it is open, by its Close button: a click on its
        summary toggles, and one landing just after the page closed the sheet (its Play
        it does) opens it again. A redraw may replace the button mid-click: look again."""
        sheet = self.page.locator("#fold-coach[open]")
        for _ in range(20):
            if not sheet.count():
                return
            with contextlib.suppress(PlaywrightError):
                self.page.click("#fold-coach[open] .sheet-close", timeout=500)
        expect(sheet).to_have_count(0)

    def check_layout(self, moment: str) -> None:
        """One screen at both phone sizes, card, hand and moves in sight; a screenshot."""
        self.close_coach_sheet()  # the table as the learner sees it between moves
        name = f"first-{self.game}-{self.lang}-{moment}"
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        for size in (SMALL, PHONE):
            self.page.set_viewport_size(size)
            self.page.evaluate(TWO_FRAMES)  # the card fits itself to the new size first
            must = MUST_SEE if moment != "end" else ("#coach-card",)
            if size is SMALL:  # the card may give its room to the table (its sheet has it)
                must = tuple(m for m in must if m != "#coach-card")
            found = layout_problems(self.page, must, table=True)
            self.problems += [f"{name} {size['width']}: {p}" for p in found]


def expected_lines(page: Page, lang: str) -> dict[str, str]:
    """The coach's strings in `lang`, as the page has them."""
    return page.evaluate(
        "async (lang) => (await import('/coach_strings.js')).COACH_STRINGS[lang]", lang
    )


def test_every_first_match_follows_its_coach_to_the_end(new_page, server_url) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    learners = [Learner(new_page(**PHONE), game, "en") for game in sorted(FIRST_DEALS)] + [
        Learner(new_page(**PHONE, locale="ja-JP"), "usunoro", "ja")
    ]
    for learner in learners:
        learner.page.add_init_script(RECORDER)
        learner.page.goto(f"{server_url}/?learn={learner.game}")
    for learner in learners:
        expect(learner.page.locator(".table")).to_be_visible(timeout=20_000)
    start = last = time.monotonic()
    while not all(learner.done for learner in learners):
        now = time.monotonic()
        if now - start > BUDGET_S or now - last > STALL_S:
            break
        if any([learner.step() for learner in learners if not learner.done]):
            last = now
        else:
            learners[0].page.wait_for_timeout(100)
    print(f"\nfirst matches: {time.monotonic() - start:.0f} s for {len(learners)} pages")

    for learner in learners:
        lines = {e["moment"]: e["text"] for e in learner.page.evaluate("window.__coach")}
        strings = expected_lines(learner.page, learner.lang)
        wanted = [*FIRST_DEALS[learner.game].moments, "end"]
        assert learner.done, f"{learner.game} ({learner.lang}) stopped at {list(lines)}"
        assert set(wanted) <= set(lines), (learner.game, list(lines))
        for each in wanted:
            key = "coach_end" if each == "end" else f"coach_{learner.game}_{each}"
            assert strings[key] in lines[each], (learner.game, each)
        assert not learner.problems, learner.problems
        if learner.lang == "ja":
            assert "コーチ" in lines["pass"] and "Coach" not in lines["pass"]
    ja = learners[-1]
    expect(ja.page.locator("#coach-real")).to_have_text("本番の対局へ")

    # Play a real match: the lobby's create form, this game chosen.
    kokuto = next(learner for learner in learners if learner.game == "kokuto_rum")
    kokuto.page.click("#coach-real")
    wait_until(kokuto.page, "() => location.search === '?host=kokuto_rum'")
    expect(kokuto.page.locator('input[name="game"][value="kokuto_rum"]')).to_be_checked()
    expect(kokuto.page.locator("#host-button")).to_be_visible()


def test_skip_ends_the_coaching_and_the_match_goes_on(new_page, server_url) -> None:
    page = new_page(**PHONE)
    page.goto(f"{server_url}/?learn=kokuto_rum")
    expect(page.locator("#coach-card")).to_have_attribute("data-moment", "rotate")
    page.click("#coach-skip")
    expect(page.locator("#coach-card")).to_have_count(0)
    # The match goes on: the player's own move is taken, the CPU answers.
    page.click("#rotate-keep")
    expect(page.locator("#draw-pile")).to_be_enabled(timeout=20_000)
    # Skipped for good: a reload shows no coach.
    page.reload()
    expect(page.locator(".table")).to_be_visible()
    expect(page.locator("#coach-card")).to_have_count(0)


def test_the_coach_card_fits_again_when_the_table_redraws_itself(new_page, server_url) -> None:
    # At Kokuto's insert on a small phone the card gives some of its room to the table.
    # Flipping the drawn card is the table's own redraw (no frame from the room): the card
    # drawn afresh fits itself again, at once, rather than at the room's next frame.
    page = new_page(**PHONE)
    page.goto(f"{server_url}/?learn=kokuto_rum")
    learner = Learner(page, "kokuto_rum", "en")
    deadline = time.monotonic() + STALL_S
    while (page.evaluate(READ) or {}).get("moment") != "insert":
        assert time.monotonic() < deadline, "no insert moment"
        if not learner.step():
            page.wait_for_timeout(100)
    expect(page.locator("#coach-play")).to_have_count(1)  # the hint is in: no frame to come
    page.set_viewport_size({"width": 360, "height": 640})
    page.evaluate(TWO_FRAMES)
    fitted = page.locator("#coach-card").get_attribute("data-fit")
    assert fitted != "0", "the card had its full room: nothing to check"
    for _ in range(2):
        page.click("#flip-drawn")
        page.evaluate(TWO_FRAMES)
        assert page.locator("#coach-card").get_attribute("data-fit") == fitted
        problems = layout_problems(page, ("#status-line", "#my-hand", "#flip-drawn"), table=True)
        assert not problems, problems


def test_the_lobby_and_the_rules_pages_lead_to_a_first_match(new_page, server_url) -> None:
    page = new_page(**PHONE, locale="ja-JP")
    page.goto(f"{server_url}/rules/utsuke.ja.html")
    page.click("#learn-by-playing")
    expect(page.locator("#coach-card")).to_have_attribute("data-moment", "guess")
    # The intro opens the first line (on the card when it has the room, always in the sheet).
    assert "ウツケの最初の一局" in (page.locator("#coach-card").text_content() or "")
    page.goto(f"{server_url}/")
    page.click("#learn-link-junocos")
    expect(page.locator("#coach-card")).to_have_attribute("data-moment", "declare")


def test_the_coach_finds_the_moments_the_deals_were_chosen_by(new_page, server_url) -> None:
    """coach.js's momentOf and roundOver agree with first_deals.py's moment and round_over
    on every view the learner has in each first round (and one step past its end), of
    the chosen deal and of a few others (other paths: a learner's own four of a kind)."""
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    for game in sorted(FIRST_DEALS):
        seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        for seed in (FIRST_DEALS[game].seed, *OTHER_SEEDS):
            play_first_round(game, replace(FIRST_DEALS[game], seed=seed), seen)
        wanted = [[moment(game, view, legal), round_over(game, view)] for view, legal in seen]
        found = page.evaluate(
            """async ([game, seen]) => {
              const { momentOf, roundOver } = await import('/coach.js');
              return seen.map(([view, legal]) =>
                [momentOf(game, view, legal), roundOver(game, view)]);
            }""",
            [game, seen],
        )
        assert found == wanted, game
