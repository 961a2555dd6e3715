"""The phone sweep: every game's table through its phases at 360x740, 390x844, 740x360
(a phone on its side) and 1366x800. A table is one screen: the page does not scroll
(scrollHeight <= innerHeight), and the status line, the hand, every enabled move and each
game's must-see parts (the other seats, the trick, Jong's every pond, Kokuto's top discard
when taking it is offered, the Okie, the Lord's hand, Usunoro's revealed hands at the
round's end...) are wholly on screen and not covered (elementFromPoint at their middle);
touch-size controls on phones, and no serious or critical axe-core finding in English or
Japanese; the lobby and the waiting room too (pages that may scroll).

One seeded room per game (seat 0 the human, the rest CPUs, made straight in the suite's
Redis) is opened in one page; at each new state of the table (phase, a result on top,
a prompt) the page is resized through the four sizes and checked, then the test makes
a move from the dock and goes on. The ends of rounds that take minutes of CPU play
(Hachinin Meri, Utsuke, Junocos, Shirokuro Jong) are checked on a match played to its
end by the engine and drawn by the table module (`finished_match_message`).
Phone screenshots of each state go to artifacts/screenshots/sweep-*.png.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.layout import SIZES, axe_problems, layout_problems
from tests.browser.pages import (
    click_first,
    finished_match_message,
    host_room,
    long_press,
    open_seat,
    render_table,
    seeded_room,
    touch_page,
)
from tests.rooms.history_support import HUMAN, finished_room_sync

# game -> (seats, options, moves at step n: selectors tried in order, first present wins)
Moves = Callable[[int], tuple[str, ...]]
CARD = "#dock button.tcard.playable"
GAMES: dict[str, tuple[list[str], dict[str, object], Moves]] = {
    # Two exchanges, then a first grab without four of a kind: the confirmation, then
    # "Grab anyway" ends the round with the early-grab penalty.
    "usunoro": (
        ["host", "cpu", "cpu", "cpu"],
        {},
        lambda n: (
            ("#exchange:not([disabled])", "#dock .hand button.card")
            if n < 4
            else ("#grab-anyway", "[data-grab]:not([disabled])")
        ),
    ),
    "hachinin_meri": (
        ["host"] + ["cpu"] * 7,
        {},
        lambda n: ("#pass-button", "#declare-button", CARD),
    ),
    "utsuke": (
        ["host", "cpu", "cpu"],
        {},
        lambda n: ("#guess-confirm:not([disabled])", '[data-guess="2"]', CARD),
    ),
    "junocos": (["host", "cpu", "cpu"], {}, lambda n: ("#draft-row button.tcard.playable", CARD)),
    # Rotation, a draw, an insert, then a discard with a knock: the round's result.
    "kokuto_rum": (
        ["host", "cpu"],
        {},
        lambda n: (
            "#rotate-keep",
            "#draw-pile",
            '#dock [data-gap="0"]',
            "#discard-knock:not([disabled])",
            "#dock button.sk-card",
        ),
    ),
    "shirokuro_jong": (
        ["host", "cpu"],
        {"claim_timeout_ms": 15000},
        lambda n: (
            "#rotate-keep",
            "#claim-pass",
            '#dock [data-gap="0"]',
            "#discard:not([disabled])",
            "#dock button.sk-card",
            "#next-round",
        ),
    ),
}
# Which of the `over` parts (selectors, each part on screen) meet which `under` parts:
# their boxes overlap by more than half a pixel. "a | b (a's top–bottom vs b's)".
MEETS = """([over, under]) => {
  const parts = (sels) => sels.flatMap((s) => [...document.querySelectorAll(s)].map((n) => [s, n]))
    .filter(([, n]) => { const r = n.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight; });
  const found = [];
  for (const [a, m] of parts(over)) for (const [b, n] of parts(under)) {
    const p = m.getBoundingClientRect(), q = n.getBoundingClientRect();
    const span = (r) => `${Math.round(r.top)}–${Math.round(r.bottom)}`;
    if (p.bottom > q.top + 0.5 && p.top < q.bottom - 0.5 && p.right > q.left && p.left < q.right)
      found.push(`${a} | ${b} (${span(p)} vs ${span(q)})`);
  }
  return found;
}"""
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# Cards still moving (motion.js, at most 300 ms) are measured where they come to rest.
SETTLED = "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))"
STEPS = 8  # moves per game: through the first phases without playing whole rounds
SECONDS = 60  # at most this long per game, CPUs' thinking included
# States to see before a game's sweep stops early (at least two are required).
GOAL = {
    "usunoro": 3,
    "kokuto_rum": 5,
    "shirokuro_jong": 3,
    "junocos": 3,
    "utsuke": 3,
    "hachinin_meri": 4,
}


def state_of(page: Page) -> str:
    """What the table shows now, for "is this a state not yet checked"."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('.table');
          const parts = [table ? table.dataset.phase : 'none'];
          for (const [sel, tag] of [['#round-result', 'result'], ['#grab-confirm', 'confirm'],
                                    ['#claim-prompt', 'claim'], ['#guess-panel', 'guess'],
                                    ['#current-trick li', 'trick']])
            if (document.querySelector(sel)) parts.push(tag);
          return parts.join('+');
        }"""
    )


# What each table must show wholly and uncovered while a round is played: always, and
# when present (a phase's part: the guess pad, the claim, the draft...).
MUST_SEE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "usunoro": (("#seat-strip", "#tokens-left"), ()),
    "hachinin_meri": (("#seat-strip", "#okie"), ("#current-trick", "#declare-prompt")),
    "utsuke": (("#seat-strip", "#lord-hand"), ("#current-trick", "#guess-pad", "#prince-hand")),
    "junocos": (("#seat-strip",), ("#current-trick", "#trump-indicator", "#draft-row")),
    "kokuto_rum": (("#seat-strip", "#pile-count"), ("#discard-top", "#drawn-card")),
    "shirokuro_jong": (
        ("#seat-strip", "#dora", "[data-discards]"),
        ("[data-melds]", "#claim-card"),
    ),
}
# The player's hand: every row of cards of it in the dock (a long one scrolls inside itself).
HAND = "#dock :is(.hand, .sk-hand)"
# At a round's end, over the middle: its heading, and what the game shows with it.
RESULT_SEE = {"usunoro": ("#revealed-hands",)}


def must_see(page: Page, game_id: str, state: str) -> tuple[str, ...]:
    """The selectors the table must show now (every match of each)."""
    seen: tuple[str, ...] = ("#status-line", HAND)
    if "result" in state:
        return seen + ("#round-result h2",) + RESULT_SEE.get(game_id, ())
    always, present = MUST_SEE[game_id]
    return seen + always + tuple(sel for sel in present if page.locator(sel).count())


def check_sizes(page: Page, label: str, must: Callable[[], tuple[str, ...]]) -> list[str]:
    """Resize through SIZES, checking the table's layout at each (`must()` gives what must
    be seen at that moment); phone screenshots saved."""
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)
        page.evaluate(SETTLED)
        found = layout_problems(page, must(), table=True)
        problems += [f"{label} at {width}x{height}: {p}" for p in found]
        if width <= 390 or height <= 400:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"sweep-{label}-{width}x{height}.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    return problems


# Tables whose seats' last-move words do not fit a phone yet (test_a_table_with_every_
# seat_talking_fits_phones says so, strictly): the phase sweep looks at them without.
WORDS_DO_NOT_FIT = ("hachinin_meri",)
HIDE_SEAT_WORDS = """() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('.seat .seat-last { display: none !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}"""


@pytest.mark.parametrize("game_id", list(GAMES))
def test_table_fits_phones_through_its_phases(new_page, server_url, redis_url, game_id) -> None:
    seats, options, moves = GAMES[game_id]
    code, seat, token = seeded_room(redis_url, game_id, seats, seed=3, options=options)
    page = new_page(width=390, height=844)
    open_seat(page, server_url, code, seat, token)
    expect(page.locator("#my-hand")).to_be_visible()
    if game_id in WORDS_DO_NOT_FIT:
        # What this sweep sees would depend on whether a seat has spoken yet when it
        # looks; the talking test below records that the words do not fit.
        page.evaluate(HIDE_SEAT_WORDS)
    problems: list[str] = []
    seen: list[str] = []
    deadline = time.monotonic() + SECONDS
    step = 0
    while step < STEPS and time.monotonic() < deadline and len(seen) < GOAL.get(game_id, 2):
        state = state_of(page)
        if state not in seen:
            seen.append(state)
            problems += check_sizes(
                page, f"{game_id}-{state}", lambda: must_see(page, game_id, state_of(page))
            )
            if len(seen) == 1:
                # Mid-round: axe-core in English, then Japanese.
                problems += [f"{game_id} en: {p}" for p in axe_problems(page)]
                page.click("#lang-toggle")
                problems += [f"{game_id} ja: {p}" for p in axe_problems(page)]
                page.click("#lang-toggle")
        if click_first(page, moves(step)):
            step += 1
        page.wait_for_timeout(150)
    assert len(seen) >= 2, f"the sweep saw one state only: {seen}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_finished_match_fits_phones(new_page, server_url, game_id) -> None:
    seats = len(GAMES[game_id][0])
    page = new_page(width=390, height=844)
    render_table(page, server_url, game_id, finished_match_message(game_id, seats, 0))
    problems = check_sizes(page, f"{game_id}-finished", lambda: ("#round-result h2",))
    problems += axe_problems(page)
    assert not problems, "\n".join(problems)


def page_sizes(page: Page, label: str) -> list[str]:
    """A page that may scroll (the lobby, the waiting room) through SIZES: no sideways
    scroll, controls big enough."""
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)
        problems += [f"{label} at {width}x{height}: {p}" for p in layout_problems(page, ())]
    page.set_viewport_size({"width": 390, "height": 844})
    return problems


def test_lobby_and_waiting_room_fit_phones(new_page, server_url) -> None:
    page = new_page(width=390, height=844)
    page.goto(server_url + "/")
    problems: list[str] = []
    for game_id in GAMES:
        page.locator(f'input[name="game"][value="{game_id}"]').check()
        problems += page_sizes(page, f"lobby-{game_id}")
    for lang in ("en", "ja"):
        problems += [f"lobby {lang}: {p}" for p in axe_problems(page)]
        page.click("#lang-toggle")
    host_room(page, server_url, "usunoro", friend_seats=(1,))
    expect(page.locator("#seat-list")).to_be_visible()
    problems += page_sizes(page, "waiting-room")
    for lang in ("en", "ja"):
        problems += [f"waiting room {lang}: {p}" for p in axe_problems(page)]
        page.click("#lang-toggle")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_pages_fit_phones_and_pass_axe(new_page, server_url, lang) -> None:
    # Links inside the pages' sentences are inline targets (WCAG 2.5.8 exempts them), so
    # the table's target-size check does not apply; width and axe-core do.
    page = new_page(width=360, height=740)
    problems: list[str] = []
    for game_id in GAMES:
        page.goto(f"{server_url}/rules/{game_id}.{lang}.html")
        page.wait_for_load_state("networkidle")
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        if width[0] > width[1]:
            problems.append(f"rules {game_id} {lang}: {width[0]} px wide in {width[1]}")
        problems += [f"rules {game_id} {lang}: {p}" for p in axe_problems(page)]
    assert not problems, "\n".join(problems)


def meets(page: Page, over: list[str], under: list[str]) -> list[str]:
    """The pairs of on-screen parts of `over` and `under` whose boxes overlap."""
    return page.evaluate(MEETS, [over, under])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_replays_controls_and_round_end_stay_clear_of_the_dock(
    new_page, server_url, redis_url, lang
) -> None:
    # A replay is a page that scrolls (its controls above the table): the dock lies in
    # the flow after the table, so neither the controls nor the round's result meet it.
    code, token = finished_room_sync(redis_url, "utsuke", seed=61)
    problems: list[str] = []
    for width, height in [(390, 844), (1366, 800)]:
        page = new_page(width=width, height=height)
        page.goto(server_url + "/")
        page.evaluate(
            "([key, held, lang]) => { localStorage.setItem(key, JSON.stringify(held));"
            " localStorage.setItem('zashiki.lang', lang); }",
            [f"zashiki.seats.{code}", [{"seat": HUMAN, "token": token}], lang],
        )
        page.goto(f"{server_url}/?room={code}&replay=1")
        expect(page.locator("#replay-step")).to_have_attribute("data-step", "0")
        page.evaluate(TWO_FRAMES)
        problems += meets(page, ["#replay-bar", ".replay-controls button"], ["#dock"])
        page.click("#replay-last")
        expect(page.locator("#round-result h2")).to_be_visible()
        page.evaluate(TWO_FRAMES)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"replay-round-end-{lang}-{width}.png"))
        found = meets(page, ["#round-result", ".replay-controls button"], ["#dock"])
        problems += [f"{width}: {p}" for p in found]
        page.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_explanation_panel_leaves_the_headers_the_dock_and_its_card_in_sight(
    browser, server_url, redis_url, lang
) -> None:
    # A card of the hand (in the dock) explained on a phone by a long press: the panel
    # goes above the dock, below the page's and the table's header rows, its close in reach.
    code, seat, token = seeded_room(redis_url, "usunoro", ["host", "cpu", "cpu", "cpu"], seed=3)
    page = touch_page(browser, {"width": 390, "height": 844})
    page.goto(server_url + "/")
    page.evaluate("(lang) => localStorage.setItem('zashiki.lang', lang)", lang)
    open_seat(page, server_url, code, seat, token)
    card = page.locator("#dock [data-term]").first
    expect(card).to_be_visible()
    page.evaluate(TWO_FRAMES)
    long_press(page, card)
    expect(page.locator("#explain")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"explain-phone-{lang}.png"))
    problems = meets(page, ["#explain"], [".topbar", ".table-head", "#dock"])
    close = page.evaluate(
        """() => { const x = document.querySelector('#explain .explain-x');
          const r = x.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return r.top >= 0 && r.bottom <= innerHeight && (hit === x || x.contains(hit)); }"""
    )
    assert close, "the explanation's close button is off screen or covered"
    page.locator("#explain .explain-x").tap()
    expect(page.locator("#explain")).to_be_hidden()
    page.context.close()
    assert not problems, "\n".join(problems)


# The events that give a seat its last-move words (seat_acts.js), per game; Usunoro's
# come with its grabs, which end the round.
WORDS = {
    "hachinin_meri": ("play", "discard"),
    "utsuke": ("played",),
    "junocos": ("play", "pick"),
    "kokuto_rum": ("draw", "discard"),
    "shirokuro_jong": ("drew", "discarded", "chii", "pon"),
}
NEW_ROUND = ("deal", "round", "dealt", "round_end")
# Moves that end a round or a match: a mid-round position is reached without them.
ENDING = ("grab", "tsumo", "ron", "next")


def mid_round_frames(game_id: str, seats: int, seed: int) -> list[dict]:
    """The events and views seat 0 gets while a match is played on with seeded random
    legal moves (none that ends a round) until seat 0 has a move to make and every seat
    has done something its panel tells; the last frame holds seat 0's moves."""
    from server.games import registry

    game = registry.get(game_id)
    state = game.new(seats, game.resolve_options({}), seed)
    pick = random.Random(seed)
    told: set[int] = set()
    frames: list[dict] = []
    now = 0
    for _ in range(3000):
        legal = game.actions(state, 0)
        told_all = game_id not in WORDS or told >= set(range(seats))
        if frames and told_all and any(a.get("type") not in ENDING for a in legal):
            break
        movers = [s for s in range(seats) if game.actions(state, s)]
        if movers:
            mover = pick.choice(movers)
            moves = [
                a
                for a in game.actions(state, mover)
                if a.get("type") not in ENDING and not a.get("knock")
            ]
            events = game.apply(state, mover, pick.choice(moves or game.actions(state, mover)), now)
        else:  # only a rule timer moves the game on
            now = max(now, game.deadline(state) or now)
            events = game.expire(state, now)
        for event in events:
            if event.get("type") in NEW_ROUND:
                told.clear()
            if event.get("type") in WORDS.get(game_id, ()):
                told.add(event.get("seat", event.get("by")))
        frames.append({"t": "view", "view": game.view(state, 0), "events": events})
    else:
        raise AssertionError(f"{game_id}: no such position in 3000 moves")
    assert game.outcome(state) is None, f"{game_id}: the match ended first"
    last = {"t": "view", "view": game.view(state, 0), "events": [], "legal": {0: legal}}
    frames.append(last)
    return frames


# The room page's decorations, set on the frame before the table is drawn (render_table
# draws it without the room page): every seat's last-move words from the frames
# (seat_acts.js), the host's star on seat 0 (the room's CPUs have no presence word) and
# the move log's latest line.
DECORATED = """async ([game, frames, lang]) => {
  const { setLang } = await import('/i18n.js');
  const { el } = await import('/components.js');
  const { createSeatActs } = await import('/seat_acts.js');
  const frame = await import('/tables/frame.js');
  setLang(lang);
  const acts = createSeatActs();
  for (const f of frames) acts.update(f, game);
  const last = frames[frames.length - 1];
  frame.setSeatDecor((panel, seat) => {
    acts.decorate(panel, seat);
    if (!last.you.includes(Number(seat))) return;
    (panel.querySelector('.name') || panel).append(el('span', { class: 'seat-presence' },
      el('span', { class: 'presence-dot', 'aria-hidden': 'true' }),
      el('span', { class: 'host-mark' }, '★')));
  });
  frame.setLatestMove(() => el('div', { class: 'latest-move-line' },
    el('p', { class: 'move-line' }, acts.text(1) + ' · ' + acts.text(0))));
  // The room's head row adds the Hints sheet and the Log button to the table's controls.
  const { t } = await import('/i18n.js');
  await import('/hints.js');
  const log = (await import('/move_log.js')).createMoveLog();
  frame.setHeadControls(() => [frame.fold('hints', t('hints_on')), log.openButton()]);
}"""
# Every point of a part a player reads whole (its middle and the middle of each edge, a
# pixel or two in) is the part itself, not the dock over it or the edge of a box that
# clips it; and its text is not cut inside it.
WHOLE = """(sels) => {
  const found = [];
  for (const sel of sels) for (const n of document.querySelectorAll(sel)) {
    const r = n.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const round = (a, b) => `${Math.round(a)}–${Math.round(b)}`;
    const what = `${sel} ${n.textContent.trim().slice(0, 24)}`;
    const points = [[cx, cy], [r.left + 2, cy], [r.right - 2, cy], [cx, r.top + 2],
                    [cx, r.bottom - 2]];
    const hidden = points.filter(([x, y]) => { const hit = document.elementFromPoint(x, y);
      return !hit || !(hit === n || n.contains(hit)); });
    const span = `${round(r.left, r.right)} x ${round(r.top, r.bottom)}`;
    if (!r.width || hidden.length)
      found.push(`${what} (${span} of ${innerWidth}x${innerHeight}): not whole`);
    else if (n.scrollWidth > n.clientWidth + 1) found.push(`${what}: its text is cut`);
  }
  return found;
}"""
# Utsuke's parts a player reads whole on a phone: every seat (its last move too), and the
# head row's badges (the trump colour) beside the controls the room adds.
WHOLE_SEE = {"utsuke": ("#seat-strip", ".table-head .head-badges .badge")}
# Hachinin Meri's eight seats with their words do not fit a phone yet: on its side the
# strip takes three rows and pushes the trick and the Okie below the screen (259-373 px
# of 360), upright the dock covers the Okie. Recorded strictly: mended, this fails.
TALKING = [
    pytest.param(
        game,
        marks=pytest.mark.xfail(
            strict=True,
            reason="Hachinin Meri's eight seats with their words do not fit a phone yet",
        ),
    )
    if game in WORDS_DO_NOT_FIT
    else game
    for game in GAMES
]


@pytest.mark.parametrize("game_id", TALKING)
def test_a_table_with_every_seat_talking_fits_phones(new_page, server_url, game_id) -> None:
    # What a table says changes with its moment: here every seat has its last-move words
    # (the sweep meets them or not, by timing), in both languages, and the table is still
    # one screen with every must-see part on it, upright and on its side. Utsuke's seats
    # and head badges are checked whole (WHOLE_SEE), not only at their middle.
    seats = len(GAMES[game_id][0])
    frames = mid_round_frames(game_id, seats, seed=3)
    people = [{"kind": "human", "name": "Aki", "host": True}] + [{"kind": "cpu"}] * (seats - 1)
    for f in frames:
        f.update(room={"game": game_id, "status": "playing", "match": 1}, seats=people, you=[0])
    page = new_page(width=740, height=360)
    problems: list[str] = []
    for lang in ("en", "ja"):
        page.goto(server_url + "/")
        page.evaluate(DECORATED, [game_id, frames, lang])
        render_table(page, server_url, game_id, frames[-1], fresh=False, topbar=True)
        if game_id in WORDS:
            expect(page.locator(".seat-last")).to_have_count(seats)
        shown = state_of(page)  # nothing moves: the state is the same at every size
        problems += check_sizes(
            page, f"talking-{game_id}-{lang}", lambda s=shown: must_see(page, game_id, s)
        )
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(TWO_FRAMES)
            found = page.evaluate(WHOLE, list(WHOLE_SEE.get(game_id, ())))
            problems += [f"talking-{game_id}-{lang} at {width}x{height}: {p}" for p in found]
    assert not problems, "\n".join(problems)
