"""The move log says every move in words (issue 43 item 2), from what the seat may know.

Per game, a seeded match is played through the real server by one websocket per seat
(recorded_match.py; the games' matches at the same time, once for the module); then, in
one real Chromium page, the client's own sentence builder (/move_log.js, as the server
serves it) turns every frame each seat received into sentences. Every event gets a
sentence in English and in Japanese, with no raw key, no "undefined" and no unfilled
{placeholder}; and no sentence names a card that the seat had not seen by then in its
views or events.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.layout import axe_problems
from tests.browser.pages import open_seat, seeded_room
from tests.browser.recorded_match import NAMES, cards_in, deck, record_matches

# (game, seats, seed)
MATCHES = [
    ("usunoro", 4, 11),
    ("hachinin_meri", 8, 12),
    ("utsuke", 2, 13),
    ("junocos", 3, 14),
    ("kokuto_rum", 3, 15),
    ("shirokuro_jong", 2, 16),
]
RAW_KEY = re.compile(r"\b(?:ml|us|ut|uno|sk|jc|hm|sj|kr|u|tc|colour|card|rank|suit)_[a-z0-9_]+\b")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
BROKEN = ("undefined", "null", "NaN", "[object", "{", "}")

# Runs in the page: every seat's frames through the builder, each seat's log as the room
# page keeps it (the view before a frame is that seat's previous one). The frames come as
# JSON text: Playwright checks and converts an argument value by value in Python, which
# took longer than the match itself for Hachinin Meri's eight seats.
SENTENCES_JS = """async ([game, framesJson, cards]) => {
  const log = await import("/move_log.js");
  const frames = JSON.parse(framesJson);
  const prevs = [];
  let prev = null;
  const out = frames.map((frame) => {
    const lines = log.frameSentences(game, frame, prev);
    prev = frame.view;
    return lines;
  });
  const names = {};
  for (const code of cards) {
    names[code] = { en: log.cardName(game, code, "en"), ja: log.cardName(game, code, "ja") };
  }
  return { out, names };
}"""


@pytest.fixture(scope="module")
def page(browser, server_url: str) -> Page:  # type: ignore[no-untyped-def]
    """One page for the whole module: the builder is imported once, then only evaluated."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server_url + "/")
    yield page
    context.close()


@pytest.fixture(scope="module")
def recorded(server_url: str, redis_url: str) -> dict[str, Any]:
    """Every game's match, played at the same time: game -> each seat's frames (or the
    exception that match ended with)."""
    return record_matches(server_url, redis_url, MATCHES)


def name_pattern(name: str) -> re.Pattern[str]:
    """A card name as a whole (not "red 1" inside "red 12")."""
    return re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])")


def check_seat(
    game: str,
    seat: int,
    frames: list[dict[str, Any]],
    said: list[list[dict[str, Any]]],
    names: dict[str, dict[str, str]],
) -> int:
    """Assert every event of `frames` got a good sentence naming only seen cards; returns
    how many sentences there were."""
    patterns = {
        lang: [(code, name_pattern(n[lang])) for code, n in names.items()] for lang in ("en", "ja")
    }
    seen: set[str] = set()
    count = 0
    for frame, lines in zip(frames, said, strict=True):
        seen |= cards_in(game, frame["view"]) | cards_in(game, frame["events"])
        assert len(lines) == len(frame["events"]), (seat, frame["events"])
        for event, line in zip(frame["events"], lines, strict=True):
            where = f"{game} seat {seat} v{frame['version']} {event}"
            assert line["known"], f"no sentence for {where}"
            for lang in ("en", "ja"):
                text = line[lang]
                assert text and text.strip(), where
                assert not RAW_KEY.search(text), f"raw key in {lang} {text!r} ({where})"
                assert not any(b in text for b in BROKEN), f"broken {lang} {text!r} ({where})"
                assert bool(JAPANESE.search(text)) == (lang == "ja"), (
                    f"{lang} sentence {text!r} ({where})"
                )
                if lang == "ja":  # no English left in it but the players' names
                    bare = text.replace("CPU", "")
                    for name in NAMES:
                        bare = bare.replace(name, "") if name else bare
                    assert not ENGLISH_WORD.search(bare), f"English in {text!r} ({where})"
                named = {code for code, pattern in patterns[lang] if pattern.search(text)}
                assert named <= seen, (
                    f"{lang} {text!r} names unseen {sorted(named - seen)} ({where})"
                )
            count += 1
    return count


@pytest.mark.parametrize(("game", "seats", "seed"), MATCHES, ids=[m[0] for m in MATCHES])
def test_every_event_said_without_hidden_cards(
    page: Page, recorded: dict[str, Any], game: str, seats: int, seed: int
) -> None:
    per_seat = recorded[game]
    if isinstance(per_seat, BaseException):
        raise per_seat
    assert len(per_seat) == seats
    total = 0
    kinds: set[str] = set()
    for seat, frames in enumerate(per_seat):
        assert frames[-1]["room"]["status"] == "over", f"{game} seat {seat}: the match did not end"
        answer = page.evaluate(SENTENCES_JS, [game, json.dumps(frames), deck(game)])
        total += check_seat(game, seat, frames, answer["out"], answer["names"])
        kinds |= {e["type"] for f in frames for e in f["events"]}
    assert total > 0
    print(f"{game}: {total} sentences over {seats} seats; event types {sorted(kinds)}")


def test_latest_move_at_the_table_and_the_whole_log_as_a_sheet(
    new_page, server_url: str, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    """At a table with CPUs, the newest move is said at the table in a polite live region
    (shown where the table has a place for it), the Log button opens every line as a
    sheet, and the page stays axe-clean."""
    code, seat, token = seeded_room(redis_url, "junocos", ["host", "cpu", "cpu"], seed=21)
    page = new_page(width=390, height=844)
    open_seat(page, server_url, code, seat, token)
    line = page.locator("#latest-move-line")
    expect(line).to_have_attribute("role", "log")
    expect(line).to_have_attribute("aria-live", "polite")
    expect(line).to_contain_text("Each move is said here as it is made.")
    page.locator("button.tcard.playable").first.click()  # seat 0 picks first in the draft
    picked = re.compile(r"(You|CPU \d) took the .+ from the row\.")
    expect(line.locator(".move-line").first).to_have_text(picked)
    if page.locator("#latest-move").count():  # the table's place for it: shown, in view
        expect(line).to_be_in_viewport()
    expect(page.locator("#open-log")).to_be_in_viewport()
    screenshot(page, "move-log-junocos-phone")
    page.locator("#open-log").click()
    sheet = page.locator("dialog#move-log")
    expect(sheet).to_be_visible()
    assert sheet.locator("li").count() >= 1
    expect(sheet.locator("li").first).to_have_text(picked)
    first = sheet.locator("li").first.inner_text()
    screenshot(page, "move-log-sheet-junocos-phone")
    assert axe_problems(page) == []
    page.locator("#close-log").click()
    expect(sheet).to_be_hidden()
    # A reload keeps this match's log (the new connection sends no past events).
    page.reload()
    page.locator("#open-log").click()
    expect(page.locator("dialog#move-log li").first).to_have_text(first)


# Runs in the page: one seat's frames through the seat panels' words (seat_acts.js), as
# the room page keeps them; after each frame, every seat's words in both languages.
SEAT_ACTS_JS = """async ([game, framesJson, cards, seats]) => {
  const { createSeatActs, shortCard } = await import("/seat_acts.js");
  const frames = JSON.parse(framesJson);
  const acts = createSeatActs();
  const out = frames.map((frame) => {
    acts.update({ ...frame, t: "view" }, game);
    const both = (s) => ({
      en: acts.text(s, "en"), ja: acts.text(s, "ja"), earlier: acts.earlier(s),
    });
    return Object.fromEntries(seats.map((s) => [s, both(s)]));
  });
  const names = {};
  for (const code of cards) {
    names[code] = { en: shortCard(game, code, "en"), ja: shortCard(game, code, "ja") };
  }
  return { out, names };
}"""
# What each game's panels must have said at some point in its match, in English.
SEAT_WORDS = {
    "usunoro": "grabbed",
    "hachinin_meri": "played",
    "utsuke": "played",
    "junocos": "took",
    "kokuto_rum": "discarded",
    "shirokuro_jong": "discarded",
}
SEAT_RAW_KEY = re.compile(r"\b(?:sa|us|ut|uno|sk|colour|card|rank|suit)_[a-z0-9_]+\b")


@pytest.mark.parametrize(("game", "seats", "seed"), MATCHES, ids=[m[0] for m in MATCHES])
def test_seat_panels_say_each_seats_last_move_without_hidden_cards(
    page: Page, recorded: dict[str, Any], game: str, seats: int, seed: int
) -> None:
    """Each seat's panel words (its last move, short) from every frame every seat got: in
    English and Japanese, no raw key, and never a card the viewing seat had not seen; once
    a trick is taken, every card said played is marked as from an earlier trick."""
    per_seat = recorded[game]
    if isinstance(per_seat, BaseException):
        raise per_seat
    keys = [str(s) for s in range(seats)] + (["lord", "prince"] if game == "utsuke" else [])
    said_words: set[str] = set()
    count = 0
    for viewer, frames in enumerate(per_seat):
        answer = page.evaluate(SEAT_ACTS_JS, [game, json.dumps(frames), deck(game), keys])
        patterns = {
            lang: [(code, name_pattern(n[lang])) for code, n in answer["names"].items()]
            for lang in ("en", "ja")
        }
        seen: set[str] = set()
        for frame, panels in zip(frames, answer["out"], strict=True):
            seen |= cards_in(game, frame["view"]) | cards_in(game, frame["events"])
            taken = bool(frame["events"]) and frame["events"][-1]["type"] == "trick"
            for seat, words in panels.items():
                where = f"{game} viewer {viewer} v{frame['version']} seat {seat}"
                assert not (taken and words["en"]) or words["earlier"], f"not earlier: {where}"
                assert bool(words["en"]) == bool(words["ja"]), (where, words)
                if not words["en"]:
                    continue
                count += 1
                said_words.add(words["en"])
                for lang in ("en", "ja"):
                    text = words[lang]
                    assert not SEAT_RAW_KEY.search(text), f"raw key in {lang} {text!r} ({where})"
                    assert not any(b in text for b in BROKEN), f"broken {lang} {text!r} ({where})"
                    assert bool(JAPANESE.search(text)) == (lang == "ja"), f"{text!r} ({where})"
                    named = {code for code, pattern in patterns[lang] if pattern.search(text)}
                    assert named <= seen, f"{lang} {text!r} names unseen {named - seen} ({where})"
    assert any(SEAT_WORDS[game] in w for w in said_words), sorted(said_words)[:20]
    print(f"{game}: {count} panel words; e.g. {sorted(said_words)[:6]}")
