"""Steps every browser test shares: hosting from the lobby, joining by link, reading
hands, checks."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
ALLOWED_LATIN = {"Zashiki", "English", "CPU"}


def host_room(
    page: Page,
    server_url: str,
    game_id: str,
    *,
    seats: int | None = None,
    friend_seats: tuple[int, ...] = (),
    same_device: bool = False,
    cpu_pace: str = "relaxed",
) -> str:
    """From the lobby, host a room of `game_id` (others CPUs) at `cpu_pace` (tests not
    about the pace pass "quick": they wait less for CPUs); returns the room code."""
    page.goto(server_url + "/")
    page.locator(f'input[name="game"][value="{game_id}"]').check()
    if seats is not None and page.locator("#seat-count").count():
        page.select_option("#seat-count", str(seats))
    for seat in friend_seats:
        page.select_option(f"#seat-kind-{seat}", "open")
    if same_device:
        page.check("#same-device")
    if cpu_pace != "relaxed":
        page.select_option("#cpu-pace", cpu_pace)
    page.click("#host-button")
    page.wait_for_url(re.compile(r"\?room="))
    return page.url.split("room=")[1].split("&")[0]


def join_by_link(page: Page, server_url: str, code: str) -> None:
    """Open a room link as a friend and take the open seat."""
    page.goto(f"{server_url}/?room={code}")
    page.click("#take-seat")
    expect(page.locator("#seat-list")).to_contain_text("You")


def start(page: Page, *others: Page) -> None:
    """Press Start as the host and wait for the table (on the `others` pages too)."""
    page.click("#start-button")
    for shown in (page, *others):
        expect(shown.locator(".table")).to_be_visible()


def host_in_japanese(
    page: Page, server_url: str, game_id: str, seats: int | None = None, cpu_pace: str = "relaxed"
) -> str:
    """Switch the lobby to Japanese, host a room of `game_id` with CPUs at `cpu_pace` and
    start it; returns the room code."""
    page.goto(server_url + "/")
    page.click("#lang-toggle")
    code = host_room(page, server_url, game_id, seats=seats, cpu_pace=cpu_pace)
    start(page)
    return code


def open_sheet(page: Page, name: str) -> None:
    """Open one of a table's sheets (scores, last trick, log, players) from its button in
    the head row, as a player taps it; it stays open through the table's next renders."""
    if page.locator(f"#fold-{name}[open]").count() == 0:
        page.click(f"#fold-{name} > summary")
    expect(page.locator(f"#fold-{name} .sheet-body")).to_be_visible()


def close_sheet(page: Page, name: str) -> None:
    """Close a table's sheet if it is open (back to the table)."""
    if page.locator(f"#fold-{name}[open]").count():
        page.click(f"#fold-{name} .sheet-close")
        # Closed before the caller goes on: a tap meant for the table must not land on
        # the sheet still over it.
        expect(page.locator(f"#fold-{name}[open]")).to_have_count(0)


def card_texts(cards: Locator) -> list[str]:
    """The data-card texts of the card elements `cards` finds, in page order."""
    return cards.evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def own_hand(page: Page) -> list[str]:
    """The cards of this browser's own hand on a trick table."""
    return card_texts(page.locator(".my-hand [data-card]"))


def shiro_hand(page: Page, seat: int) -> list[str]:
    """The held-card texts of a seat's hand on a Shirokuro table, in order."""
    return card_texts(page.locator(f'[data-hand="{seat}"] .sk-card'))


def page_width(page: Page) -> int:
    """The width of the page's content: more than the window's means sideways scrolling."""
    return int(page.evaluate("document.documentElement.scrollWidth"))


def english_left(page: Page, code: str = "") -> set[str]:
    """Words of three or more Latin letters in the visible text, labels and text fields."""
    text = page.evaluate(
        """() => {
          const parts = [document.body.innerText];
          for (const node of document.querySelectorAll('[aria-label]'))
            parts.push(node.getAttribute('aria-label'));
          for (const node of document.querySelectorAll('input[type=text]:not([readonly])'))
            parts.push(node.value);
          return parts.join(' ');
        }"""
    )
    return {w for w in ENGLISH_WORD.findall(text) if w not in ALLOWED_LATIN and w not in code}


def click_first(page: Page, selectors: tuple[str, ...]) -> bool:
    """Click the first enabled element matching one of `selectors`, if any is there now.

    Tables move on by themselves (CPUs play in real time), so a target may vanish
    between finding and clicking it: that counts as not clicked, and the caller retries.
    """
    for selector in selectors:
        target = page.locator(selector).first
        if target.count():
            try:
                target.click(timeout=500)
                return True
            except PlaywrightError:
                return False
    return False


def play_until(
    pages: list[Page],
    done: str,
    moves: tuple[str, ...],
    seconds: float,
    stall_s: float | None = None,
) -> None:
    """Keep clicking the first available move on each page until `done` shows on the
    first page (or `seconds` pass; the caller then asserts on `done`).

    With `stall_s`, the budget follows the machine's own pace: play goes on while moves
    keep being made, and stops after `stall_s` without one (or at `seconds` in all); a
    long match on a busy machine is slow, not stuck."""
    start = last_move = time.monotonic()
    while not pages[0].locator(done).count():
        now = time.monotonic()
        if now - start > seconds or (stall_s is not None and now - last_move > stall_s):
            return
        if any([click_first(page, moves) for page in pages]):
            last_move = now
        else:
            pages[0].wait_for_timeout(100)


def render_table(
    page: Page,
    server_url: str,
    game_id: str,
    message: dict,
    before: dict | None = None,
    fresh: bool = True,
    topbar: bool = False,
) -> str:
    """Draw one view frame with a game's table module directly (no room, no socket);
    returns the table's text. For states a test cannot reach quickly through play, such
    as a finished match. `before`: a frame the same table draws first (the page saw the
    game get there). `fresh` False draws in the page as it is (a test set the page's
    hooks on it first) instead of loading it again. `topbar` keeps the page's top bar
    above the table, as a room's page has its room bar (as tall: both hold 44 px controls)."""
    if fresh:
        page.goto(server_url + "/")
    return page.evaluate(
        """async ([gameId, m, before, topbar]) => {
          const module = await import(`/tables/${gameId}.js`);
          const { addStrings } = await import('/i18n.js');
          const { seatLabel } = await import('/components.js');
          addStrings(module.STRINGS || {});
          // The page's own lobby may still be drawing into #main: draw somewhere else,
          // one screen as at a room's table.
          const root = document.createElement('div');
          root.id = 'table-root';
          const holder = document.createElement('main');
          holder.append(root);
          const bar = topbar ? document.querySelector('header.topbar') : null;
          document.body.replaceChildren(...(bar ? [bar, holder] : [holder]));
          document.body.classList.add('table-page');
          const table = module.create(root);
          for (const f of before ? [before, m] : [m]) {
            table.render({
              message: f, you: f.you, seats: f.seats, room: f.room || {}, move() {}, send() {},
              seatLabel: (s) => seatLabel(f.seats, s, f.you), openSettings() {}, notify() {},
            });
          }
          return root.innerText;
        }""",
        [game_id, message, before, topbar],
    )


def finished_match_message(game_id: str, seats: int, seat: int | None, seed: int = 1) -> dict:
    """A view frame, as the room would send it to `seat` (None: a spectator), of a match
    played to its end with seeded random legal moves."""
    from server.games import registry

    game = registry.get(game_id)
    state = game.new(seats, {}, seed)
    pick = random.Random(seed)
    now = 0
    while game.outcome(state) is None:
        movers = [s for s in range(seats) if game.actions(state, s)]
        if not movers:  # only a rule timer can move the game on (a claim window's minimum)
            now = max(now, game.deadline(state))
            game.expire(state, now)
            continue
        game.apply(state, movers[0], pick.choice(game.actions(state, movers[0])), now)
    return {
        "view": game.view(state, seat),
        "outcome": game.outcome(state),
        "legal": {},
        "seats": [{"kind": "cpu"}] * seats,
        "you": [] if seat is None else [seat],
        "room": {},
    }


def check_finished_match(page: Page, server_url: str, game_id: str, seats: int) -> None:
    """Draw a finished match for seat 0 and for a spectator: both see "Match over" and
    every seat's place; only the player sees a hand of their own."""
    for seat in (0, None):
        text = render_table(page, server_url, game_id, finished_match_message(game_id, seats, seat))
        assert "Match over" in text
        assert page.locator("#match-places li").count() == seats
        assert (page.locator(".my-hand").count() > 0) == (seat is not None), "own hand only"


def seeded_room(
    redis_url: str,
    game_id: str,
    seats: list[str],
    *,
    seed: int,
    options: dict[str, object] | None = None,
    difficulty: str = "normal",
) -> tuple[str, int, str]:
    """Create a room with a fixed deal in the store the browser tests' server uses, and
    start its match; returns (code, host seat, host token).

    A RoomManager of this process makes the room and closes at once, giving up the
    room's lease, so the server loads it when a page opens it. Nothing moves meanwhile:
    game time runs only while a human seat's page shows the table. The work runs on a
    thread of its own, since Playwright's sync API holds this thread's event loop.
    """
    from server.rooms.actor.clock import RealClock
    from server.rooms.manager import RoomManager
    from server.store.redis_store import RedisStore

    async def create() -> tuple[str, int, str]:
        store = RedisStore(redis_url)
        await store.start()
        manager = RoomManager(store, RealClock(), instance_id=f"browser-test-{os.getpid()}")
        try:
            code, seat, token = await manager.create_room(
                game_id, options, seats, difficulty, seed=seed
            )
            await manager.start_match(code, token)
        finally:
            await manager.aclose()
            await store.aclose()
        return code, seat, token

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, create()).result(timeout=30)


def open_seat(page: Page, server_url: str, code: str, seat: int, token: str) -> None:
    """Open a room's table holding `seat`, as the browser that created the room would
    (the client keeps seat tokens in localStorage, see net.js seatStore)."""
    page.goto(server_url + "/")
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))",
        [f"zashiki.seats.{code}", [{"seat": seat, "token": token}]],
    )
    page.goto(f"{server_url}/?room={code}")
    expect(page.locator(".table")).to_be_visible()


def watch_room(page: Page, server_url: str, code: str) -> None:
    """Open a room's table as a spectator (no seat)."""
    page.goto(f"{server_url}/?room={code}&watch=1")
    expect(page.locator(".table")).to_be_visible()


def long_press(page: Page, target: Locator, ms: int = 700) -> None:
    """Hold a finger on `target` for `ms` (Chromium's touch input through CDP: a
    touch-capable page, see touch_page), then lift it."""
    # A table redrawn by another seat's move replaces its elements: the locator finds the
    # new one, so ask again rather than press where nothing is.
    box = None
    for _ in range(20):
        target.wait_for(state="visible")
        box = target.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(50)
    assert box is not None, "nothing to press"
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        page.wait_for_timeout(ms)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def touch_page(browser, size: dict[str, int] = PHONE) -> Page:  # type: ignore[no-untyped-def]
    """A page on a touch screen (taps, no mouse) in a fresh context of `browser`."""
    context = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def hosted_on_phone_and_desktop(  # type: ignore[no-untyped-def]
    browser, new_page, server_url: str, game_id: str, lang: str, **host: Any
) -> Iterator[tuple[str, Page, str]]:
    """Host and start a room of `game_id` in `lang` on a touch phone, then on desktop;
    yields ("phone" or "desktop", the page, the room code) for each."""
    phone = touch_page(browser)
    try:
        for label, page in (("phone", phone), ("desktop", new_page(**DESKTOP))):
            page.goto(server_url + "/")
            if lang == "ja":
                page.click("#lang-toggle")
            code = host_room(page, server_url, game_id, **host)
            start(page)
            yield label, page, code
    finally:
        # A test that fails mid-loop leaves this generator to be closed when collected,
        # perhaps after Playwright has stopped (and closed the context with the browser).
        with contextlib.suppress(PlaywrightError):
            phone.context.close()


def check_term_help(
    page: Page, key: str, name: str, lines: list[str], term: str, *, tap: bool = False
) -> None:
    """Press a table's "?" (`key`; tapped when `tap`, else clicked): the explanation panel
    names `name`, says each of `lines` (one part of each sentence, in order) and links to
    How to play at `term`; pressed again, it closes. Then the keyboard: Enter opens it,
    Escape closes it."""
    button = page.locator(f'button.term-help[data-key="{key}"]')
    panel = page.locator("#explain")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "false")
    if tap:
        button.tap()
    else:
        button.click()
    expect(panel).to_be_visible()
    expect(page.locator("#explain-name")).to_have_text(name)
    roles = panel.locator(".explain-role")
    expect(roles).to_have_count(len(lines))
    for role, text in zip(roles.all(), lines, strict=True):
        expect(role).to_contain_text(text)
    expect(panel.locator("a.explain-more")).to_have_attribute("data-rules-term", term)
    expect(page.locator(f'button.term-help[data-key="{key}"]')).to_have_attribute(
        "aria-expanded", "true"
    )
    if tap:
        page.locator(f'button.term-help[data-key="{key}"]').tap()
    else:
        page.locator(f'button.term-help[data-key="{key}"]').click()
    expect(panel).to_be_hidden()
    page.locator(f'button.term-help[data-key="{key}"]').focus()
    page.keyboard.press("Enter")
    expect(panel).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()


def wait_until(page: Page, expression: str, arg: Any = None, timeout_s: float = 10.0) -> None:
    """Wait until the page's JavaScript `expression` (a function of `arg`) is truthy.

    Not Playwright's `wait_for_function`: it compiles its predicate inside the page,
    which the page's Content-Security-Policy (no 'unsafe-eval') refuses; `evaluate` is
    sent through the debugger protocol, which the policy does not govern.
    """
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        assert time.monotonic() < deadline, f"never true: {expression}"
        page.wait_for_timeout(50)
