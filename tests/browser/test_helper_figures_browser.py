"""Helper lines at their moves, in the browser (issue 45): each helper line about a move
shows its figure on the table at that move. Kokuto Rum: the hand score on the Keep and
Rotate buttons and on every gap a drawn card may go into, the knock's deadwood on the
card it discards (or the Knock button); Shirokuro Jong: the points on the gap a winning
draw goes into, and on the Tsumo button. The badge's figure is the one its line's
sentence gives, in English and Japanese, on phones and a desktop, the targets still
44 px and the table one screen.

Positions come from the engines (a seeded deal played on, or Jong's built from card
texts); the view frame the room would send that seat (its legal moves and helper
lines) is drawn by the table module with the page's hints module, as in a room.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from server.games import registry
from tests.browser.pages import render_table
from tests.games.shirokuro_jong_support import pass_all, play, table

SHOTS = Path("/work/shots/polish")
SIZES = [(390, 844), (360, 740), (1366, 800)]

# The figure each kind of line gives in its English sentence.
FIGURE = {
    "rotation": r"hand score (\d+)",
    "gap": r"hand score (\d+)",
    "knock": r"deadwood (\d+)",
    "yaku": r"scores (\d+) point",
    "no_yaku": r"would (score) 0",
}

# What the room page sets for its tables: the hints module given the frame.
WITH_HINTS = """async ([m, lang]) => {
  const { setLang } = await import('/i18n.js');
  const { createHints } = await import('/hints.js');
  const { setHints } = await import('/tables/frame.js');
  setLang(lang);
  const hints = createHints({ send() {}, redraw() {} });
  hints.onFrame(m);
  setHints(hints);
}"""

# Each badge and the element it sits on: the move that element makes, its box.
BADGES = """() => [...document.querySelectorAll('[data-figure]')].map((b) => {
  const at = b.parentElement;
  const box = (n) => { const r = n.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height}; };
  return {kind: b.dataset.figure, text: b.textContent, at: box(at), badge: box(b),
    action: at.dataset.action || null, gap: at.dataset.gap ?? null, index: at.dataset.index ?? null,
    label: at.getAttribute('aria-label') || ''};
})"""


def frame(game_id: str, state: Any, seat: int) -> dict[str, Any]:
    """The view frame a room with hints on sends `seat` at `state`."""
    game = registry.get(game_id)
    seats = game.seat_count(state)
    view = game.view(state, seat)
    return {
        "t": "view",
        "view": view,
        "legal": {seat: game.actions(state, seat)},
        "helpers": {seat: game.helpers(view)},
        "seats": [{"kind": "human", "name": "Aki"}] + [{"kind": "cpu"}] * (seats - 1),
        "you": [seat],
        "room": {"status": "playing", "hints": True, "match": 1},
    }


def kokuto_positions() -> dict[str, tuple[Any, int]]:
    """Kokuto Rum's rotation choice, an insert and a discard, seat 0 to move."""
    game = registry.get("kokuto_rum")
    state = game.new(2, game.resolve_options({}), 5)
    rotate = game.copy(state)
    for seat in (0, 1):
        game.apply(state, seat, {"type": "rotate", "flip": False}, 0)
    while state.turn != 0:  # seat 1 draws and discards until seat 0's turn
        for _ in range(2):
            game.apply(state, 1, game.actions(state, 1)[0], 0)
        if state.phase == "discard":
            game.apply(state, 1, [a for a in game.actions(state, 1) if not a.get("knock")][0], 0)
    game.apply(state, 0, {"type": "draw", "from": "pile"}, 0)
    insert = game.copy(state)
    game.apply(state, 0, game.actions(state, 0)[0], 0)
    return {"rotate": (rotate, 0), "insert": (insert, 0), "discard": (state, 0)}


def jong_positions() -> dict[str, tuple[Any, int]]:
    """Shirokuro Jong: seat 1 draws the White 5 that completes its hand, then may Tsumo."""
    state = table(["W6/B1 B6 B6 W1 W1 B2 B4 W6", "W1 W2 W3 B3 B3 B3 W5"], pile=["W5/B2"])
    play(state, (0, {"type": "discard", "index": 0}))
    state.discards[1], state.draws[1] = [state.discards[0][0]], 1  # not the first draw
    pass_all(state)
    game = registry.get("shirokuro_jong")
    insert = game.copy(state)
    (winning,) = [x["move"] for x in game.helpers(game.view(state, 1)) if "move" in x]
    play(state, (1, winning))
    return {"insert": (insert, 1), "tsumo": (state, 1)}


def figure_of(line: dict[str, Any]) -> str:
    """The figure the line's English sentence gives ("0" for a win with no yaku)."""
    found = re.search(FIGURE[line["id"]], line["en"])
    assert found, line
    return "0" if line["id"] == "no_yaku" else found.group(1)


def at_its_move(badge: dict[str, Any], move: dict[str, Any]) -> bool:
    """Whether the badge sits on an element that makes `move`."""
    place = move.get("pos", move.get("index"))
    if move["type"] == "insert":
        return badge["gap"] == str(place)
    if move["type"] == "discard":
        return badge["index"] == str(place)
    key = json.dumps(dict(sorted(move.items())), separators=(",", ":"), ensure_ascii=False)
    return badge["action"] == key  # tables/suggest.js actionKey


def check(page: Page, message: dict[str, Any], lang: str) -> list[str]:
    """Each helper line with a move has its figure at that move (and nothing else has)."""
    seat = message["you"][0]
    lines = [x for x in message["helpers"][seat] if "move" in x]
    badges = page.evaluate(BADGES)
    problems = []
    if not lines:
        problems.append("the position has no helper line with a move")
    for line in lines:
        mine = [b for b in badges if at_its_move(b, line["move"])]
        if not mine:
            problems.append(f"no badge at {line['move']} ({line['en']})")
        for badge in mine:
            if badge["text"] != line["short"][lang] or figure_of(line) not in badge["text"]:
                problems.append(f"badge {badge['text']!r} at {line['move']}: {line[lang]}")
            if line[lang] not in badge["label"]:
                problems.append(f"{line['move']}'s name lacks its line: {badge['label']}")
    for badge in badges:
        inside = all(badge["badge"][a] >= badge["at"][a] - 0.5 for a in ("left", "top")) and all(
            badge["badge"][a] <= badge["at"][a] + 0.5 for a in ("right", "bottom")
        )
        if badge["gap"] is not None and not inside:
            problems.append(f"gap {badge['gap']}'s badge {badge['text']!r} sticks out")
        if badge["index"] is None and min(badge["at"]["width"], badge["at"]["height"]) < 44:
            problems.append(f"{badge['label']} is under 44 px: {badge['at']}")
    if len(badges) < len(lines):
        problems.append(f"{len(badges)} badges for {len(lines)} lines")
    if not page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight + 1"):
        problems.append("the page scrolls")
    return problems


@pytest.mark.parametrize("game_id", ["kokuto_rum", "shirokuro_jong"])
def test_each_helper_line_shows_its_figure_at_its_move(
    new_page: Any, server_url: str, game_id: str
) -> None:
    positions = kokuto_positions() if game_id == "kokuto_rum" else jong_positions()
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for name, (state, seat) in positions.items():
        message = frame(game_id, state, seat)
        for width, height in SIZES:
            page = new_page(width=width, height=height)
            for lang in ("en", "ja"):
                page.goto(server_url + "/")
                page.evaluate(WITH_HINTS, [message, lang])
                render_table(page, server_url, game_id, message, fresh=False)
                found = check(page, message, lang)
                problems += [f"{game_id} {name} {lang} {width}: {p}" for p in found]
                page.screenshot(path=str(SHOTS / f"{game_id}-{name}-{lang}-{width}.png"))
            page.context.close()
    assert not problems, "\n".join(problems)
