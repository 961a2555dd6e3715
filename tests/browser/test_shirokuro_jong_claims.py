"""Shirokuro Jong's claim window in a live room: Pon, Chii, Ron and pass pressed in real
Chromium, on deals fixed by seed.

Each room is made straight in the suite's Redis with a chosen seed and started (seat 1
the human, seat 0 a Normal CPU and the first Oya), then opened in Chromium with the
seat's token, so the real `zashiki serve` process loads and runs it. The human keeps
their hand as dealt, the CPU Oya discards first, and that first claim window offers the
human the move under test.

Why a seed fixes that window: the deal comes from the seed, and so does each CPU seat's
random stream (`RoomCore.rngs`), and a CPU decides from its view and that stream
only. The CPU chooses its rotation once, whenever the human chooses theirs, and then
discards from the position both choices make, so the window depends on the seed and the
human's rotation alone. The claim timeout is off, so no timer races the test's clicks
(one test turns it on to watch the window run out).
`Replay` plays the same room with `RoomCore` itself (no clock, no I/O; some
milliseconds a room) and every test first asserts that its deal still offers its move,
so a change to the rules, the deal or the CPU fails here loudly. To choose new deals:
`python -m tests.browser.test_shirokuro_jong_claims pon chii ron`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from server.bots.registry import policy_for
from server.games import registry
from server.rooms.actor.core import RoomCore, RoomSettings
from server.rooms.seats.seat import Seat, hash_token
from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    card_texts,
    check_term_help,
    english_left,
    open_seat,
    page_width,
    seeded_room,
    shiro_hand,
    touch_page,
    watch_room,
)

GAME = "shirokuro_jong"
CPU, HUMAN = 0, 1
SEATS = ["cpu", "host"]
OPTIONS: dict[str, object] = {"claim_timeout_ms": 0}  # the table waits for every answer
CPU_WAIT = 20_000  # ms: the CPU's rotation and discard, each under 1.4 s of game time
STEP_MS = 3_600_000.0  # Replay's wall clock moves on this much per step: every CPU move is due

# (seed, the human rotates) whose first claim window offers the move; found with
# find_deals (see the module docstring).
PON_DEAL = (6, False)
CHII_DEAL = (1, False)  # one Chii only (seed 0 offers two)
RON_DEAL = (874, False)  # also offers two Chii: the fullest prompt


class Replay:
    """The prepared room replayed without a clock: the human's moves, and after each the
    CPU's until the human must answer again (or the round ends)."""

    def __init__(self, seed: int, rotate: bool) -> None:
        self.game = registry.get(GAME)
        token = hash_token("replay")
        seats = [Seat("human", "", token) if kind == "host" else Seat(kind) for kind in SEATS]
        settings = RoomSettings(GAME, self.game.resolve_options(OPTIONS), seed, HUMAN)
        self.core = RoomCore(settings, seats, self.game, policy_for(GAME))
        self.wall = 0.0
        self.seq = 0
        self.core.start(token, self.wall)
        self.core.set_running(True, self.wall)
        self.human({"type": "rotate", "flip": rotate})

    def human(self, action: dict[str, Any]) -> None:
        """Make the human's move, then every CPU move that follows from it."""
        self.seq += 1
        self.wall += STEP_MS
        self.core.move(HUMAN, self.seq, action, self.wall)
        self.wall += STEP_MS
        self.core.fire_due(self.wall)

    def legal(self) -> list[dict[str, Any]]:
        """The human's legal moves now."""
        return self.game.actions(self.core.state, HUMAN)

    def view(self, seat: int | None = HUMAN) -> dict[str, Any]:
        """What `seat` (None: a spectator) sees now."""
        return self.game.view(self.core.state, seat)

    def claim(self, kind: str) -> dict[str, Any]:
        """The human's first legal claim of `kind`, asserting there is one."""
        found = [a for a in self.legal() if a["type"] == kind]
        assert found, f"the deal no longer offers {kind}: choose another (module docstring)"
        return found[0]


def find_deals(kind: str, seeds: range) -> Iterator[tuple[int, bool]]:
    """The (seed, rotate) pairs whose first claim window offers the human `kind`."""
    for seed in seeds:
        for rotate in (False, True):
            if any(a["type"] == kind for a in Replay(seed, rotate).legal()):
                yield seed, rotate


def loose(text: str) -> str:
    """A card text white end first, however it is held: one text per physical card."""
    return text if text[0] == "W" else f"{text[3:]}/{text[:2]}"


def expect_cards(cards: Locator, texts: list[str]) -> None:
    """Wait until `cards` shows exactly the card texts `texts`, in order."""
    expect(cards).to_have_count(len(texts), timeout=CPU_WAIT)
    assert card_texts(cards) == texts


def claim_line(card: str, legal: list[dict[str, Any]], lang: str = "en") -> str:
    """The status line of a seat that may answer a claim on `card` with `legal`: it names
    the offered claims only, in priority order."""
    colour = {"en": {"W": "White ", "B": "Black "}, "ja": {"W": "白", "B": "黒"}}[lang]
    sep = {"en": " / ", "ja": "／"}[lang]
    name = f"{colour[card[0]]}{card[1]}{sep}{colour[card[3]]}{card[4]}"
    kinds = [k for k in ("ron", "pon", "chii") if any(a["type"] == k for a in legal)]
    if lang == "ja" and not kinds:
        return f"{name}は鳴きもロンもできません。見送ってください。"
    if lang == "ja":
        words = {"ron": "ロン", "pon": "ポン", "chii": "チー"}
        return f"{name}をどうしますか？{'・'.join(words[k] for k in kinds)}・見送り。"
    if not kinds:
        return f"Nothing to claim on {name}: pass."
    return f"Claim {name}? {', '.join(k.capitalize() for k in kinds)} or pass."


def check_awaited(page: Page, view: dict[str, Any], awaited: list[int]) -> None:
    """In a claim window no seat has the turn badge (the discarder's turn is over) and
    exactly the `awaited` seats are marked as answering."""
    expect(page.locator(f'[data-seat="{view["discarder"]}"]')).to_be_visible()
    assert page.locator(".sj-seat .name", has_text="▶").count() == 0, "a seat kept the turn badge"
    marked = page.locator(".sj-awaited").evaluate_all(
        "nodes => nodes.map(n => Number(n.closest('[data-seat]').dataset.seat))"
    )
    assert marked == awaited


def contrast(node: Locator) -> float:
    """WCAG contrast ratio of a text's colour against the first solid background behind it."""
    return node.evaluate(
        """el => {
          const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
          const lum = ([r, g, b]) => {
            const f = (v) => {
              v /= 255;
              return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
            };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
          };
          let back = el;
          const clear = (node) => rgb(getComputedStyle(node).backgroundColor)[3] === 0;
          while (back && clear(back)) back = back.parentElement;
          const a = lum(rgb(getComputedStyle(el).color));
          const b = lum(rgb(getComputedStyle(back || document.body).backgroundColor));
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }"""
    )


def open_at_first_claim(page: Page, server_url: str, redis_url: str, seed: int) -> str:
    """Prepare the room of `seed`, open it as the human, keep the hand as dealt and wait
    for the claim prompt on the CPU's first discard; returns the room code."""
    code, seat, token = seeded_room(redis_url, GAME, SEATS, seed=seed, options=OPTIONS)
    assert seat == HUMAN
    open_seat(page, server_url, code, seat, token)
    page.click("#rotate-keep")
    expect(page.locator("#claim-prompt #claim-pass")).to_be_visible(timeout=CPU_WAIT)
    return code


def check_prompt(page: Page, replay: Replay) -> None:
    """The prompt offers exactly the legal claims, on the right card, over the right hand."""
    view = replay.view()
    expect(page.locator("#claim-card")).to_have_attribute("data-card", view["claim_on"])
    assert shiro_hand(page, HUMAN) == view["hand"]
    buttons = page.locator("#claim-prompt .controls button")
    shown = buttons.evaluate_all("nodes => nodes.map(n => n.id)")
    wanted = [
        f"claim-{a['type']}-{a['index']}" if "index" in a else f"claim-{a['type']}"
        for a in replay.legal()
    ]
    assert sorted(shown) == sorted(wanted)
    expect(page.locator("#status-line")).to_have_text(claim_line(view["claim_on"], replay.legal()))
    check_awaited(page, view, [HUMAN])
    expect(page.locator("#claim-countdown")).to_contain_text("No time limit")
    assert contrast(page.locator("#claim-countdown")) >= 4.5, "the prompt's notes are legible"


def test_pon_shows_the_meld_to_everyone_and_the_caller_discards(
    new_page, server_url: str, redis_url: str
) -> None:
    replay = Replay(*PON_DEAL)
    pon = replay.claim("pon")
    page = new_page(**DESKTOP)
    code = open_at_first_claim(page, server_url, redis_url, PON_DEAL[0])
    spectator = new_page(**PHONE)
    watch_room(spectator, server_url, code)
    check_prompt(page, replay)
    expect(page.locator(f"#claim-pon-{pon['index']}")).to_contain_text("Pon with")
    pon_help = ["the colour and number of one end of it", "leave the discard"]
    check_term_help(page, "help-claims", "Ron, Pon, Chii or pass", pon_help, "pon")
    screenshot(page, "shirokuro-jong-claim-pon-desktop")
    expect(spectator.locator("#status-line")).to_contain_text("Claims on")
    check_awaited(spectator, replay.view(None), [HUMAN])
    waiting = spectator.locator("#claim-prompt").get_by_text("Waiting for the other players")
    expect(waiting).to_be_visible()
    assert contrast(waiting) >= 4.5, "the spectator's note in the prompt is legible"
    assert spectator.locator("#claim-prompt button:not(.term-help)").count() == 0, "cannot claim"

    replay.human(pon)
    called = replay.view()
    assert (called["phase"], called["turn"]) == ("discard", HUMAN)
    meld = called["melds"][HUMAN][0]
    page.click(f"#claim-pon-{pon['index']}")
    expect_cards(page.locator(".sk-mine .sj-melds [data-card]"), meld)
    expect_cards(spectator.locator(f'[data-melds="{HUMAN}"] [data-card]'), meld)
    # The caller skips the draw and must discard: no drawn card, the pile untouched.
    expect(page.locator("#status-line")).to_have_text("Your turn: discard a card.")
    assert page.locator("#drawn-card").count() == 0
    expect(page.locator("#pile-count")).to_have_text(f"Draw pile: {called['pile']}")
    assert shiro_hand(page, HUMAN) == called["hand"]
    # The spectator sees the meld face up and of the rest of the hand only how many.
    held = spectator.locator(f'[data-seat="{HUMAN}"]')
    expect(held).to_contain_text(f"{len(called['hand'])} cards")
    seen = {loose(t) for t in card_texts(spectator.locator("[data-card]"))}
    assert not seen & {loose(t) for t in called["hand"]}, "the caller's hand leaked"
    expect(spectator.locator(f'[data-seat="{HUMAN}"]')).to_contain_text("turn")
    screenshot(page, "shirokuro-jong-pon-called-desktop")
    screenshot(spectator, "shirokuro-jong-pon-called-spectator-phone")

    replay.human({"type": "discard", "index": 0})
    after = replay.view(None)
    # S13: the CPU's next discard offers the human no claim, so the server passes for
    # them and play goes on to the human's own draw.
    assert (after["phase"], after["turn"]) == ("insert", HUMAN), "the CPU did not play on"
    page.locator(f'[data-hand="{HUMAN}"] button.sk-card').first.click()
    page.click("#discard")
    expect(page.locator("#drawn-card")).to_be_visible(timeout=CPU_WAIT)
    for shown in (page, spectator):
        for seat in (CPU, HUMAN):
            discards = shown.locator(f'[data-discards="{seat}"] [data-card]')
            expect_cards(discards, after["discards"][seat])
        expect(shown.locator("#pile-count")).to_have_text(f"Draw pile: {after['pile']}")
    expect_cards(page.locator(".sk-mine .sj-melds [data-card]"), meld)


def test_pass_leaves_the_discard_and_play_goes_on(
    new_page, server_url: str, redis_url: str
) -> None:
    replay = Replay(*PON_DEAL)  # the same deal: the human could Pon, and passes
    replay.claim("pon")
    page = new_page(**PHONE)
    open_at_first_claim(page, server_url, redis_url, PON_DEAL[0])
    check_prompt(page, replay)
    screenshot(page, "shirokuro-jong-claim-pon-phone")
    assert page_width(page) <= PHONE["width"], "the prompt fits a phone"

    replay.human({"type": "pass"})
    drew = replay.view()
    assert (drew["phase"], drew["turn"]) == ("insert", HUMAN)
    page.click("#claim-pass")
    expect(page.locator("#drawn-card")).to_have_attribute("data-card", drew["drawn"])
    expect(page.locator("#status-line")).to_have_text("Put the card you drew into your hand.")
    expect(page.locator("#pile-count")).to_have_text(f"Draw pile: {drew['pile']}")
    expect_cards(page.locator(f'[data-discards="{CPU}"] [data-card]'), drew["discards"][CPU])
    assert page.locator(".sj-melds").count() == 0, "nobody called"


def test_a_timed_claim_window_counts_down_and_passes_for_the_silent_seat(
    new_page, server_url: str, redis_url: str
) -> None:
    replay = Replay(*PON_DEAL)  # the human could Pon, and says nothing
    replay.claim("pon")
    replay.human({"type": "pass"})  # what the server does for them when the window ends
    drew = replay.view()
    assert (drew["phase"], drew["turn"]) == ("insert", HUMAN)
    page = new_page(**DESKTOP)
    code, seat, token = seeded_room(
        redis_url, GAME, SEATS, seed=PON_DEAL[0], options={"claim_timeout_ms": 5000}
    )
    open_seat(page, server_url, code, seat, token)
    page.click("#rotate-keep")
    expect(page.locator("#claim-prompt #claim-pass")).to_be_visible(timeout=CPU_WAIT)
    expect(page.locator("#claim-countdown")).to_contain_text("s left")
    screenshot(page, "shirokuro-jong-claim-desktop")
    # Nobody clicks: at the end of the window the seat passes and draws.
    expect(page.locator("#claim-prompt")).to_have_count(0, timeout=CPU_WAIT)
    expect(page.locator("#drawn-card")).to_have_attribute("data-card", drew["drawn"])
    assert page.locator(".sj-melds").count() == 0, "nobody called"


def test_chii_exposes_the_run_and_the_caller_discards(
    new_page, server_url: str, redis_url: str
) -> None:
    replay = Replay(*CHII_DEAL)
    chii = replay.claim("chii")
    page = new_page(**DESKTOP)
    open_at_first_claim(page, server_url, redis_url, CHII_DEAL[0])
    check_prompt(page, replay)
    expect(page.locator(f"#claim-chii-{chii['index']}")).to_contain_text("Chii with")
    screenshot(page, "shirokuro-jong-claim-chii-desktop")

    replay.human(chii)
    called = replay.view()
    assert (called["phase"], called["turn"]) == ("discard", HUMAN)
    page.click(f"#claim-chii-{chii['index']}")
    meld = called["melds"][HUMAN][0]
    expect_cards(page.locator(".sk-mine .sj-melds [data-card]"), meld)
    expect_cards(page.locator(f'[data-discards="{CPU}"] [data-card]'), called["discards"][CPU])
    expect(page.locator("#status-line")).to_have_text("Your turn: discard a card.")
    assert page.locator("#drawn-card").count() == 0
    assert shiro_hand(page, HUMAN) == called["hand"]


def test_ron_on_the_first_discard_shows_the_win(new_page, server_url: str, redis_url: str) -> None:
    replay = Replay(*RON_DEAL)
    ron = replay.claim("ron")
    page = new_page(**DESKTOP)
    open_at_first_claim(page, server_url, redis_url, RON_DEAL[0])
    check_prompt(page, replay)
    expect(page.locator("#claim-ron")).to_have_text("Ron!")
    page.click("#lang-toggle")
    ja_line = claim_line(replay.view()["claim_on"], replay.legal(), "ja")
    expect(page.locator("#status-line")).to_have_text(ja_line)
    expect(page.locator(f'[data-seat="{HUMAN}"] .sj-awaited')).to_have_text("◷ 返答待ち")
    page.click("#lang-toggle")
    screenshot(page, "shirokuro-jong-claim-ron-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "shirokuro-jong-claim-ron-phone")
    assert page_width(page) <= PHONE["width"], "four claim buttons fit a phone"
    page.set_viewport_size(DESKTOP)

    replay.human(ron)
    result = replay.view()["result"]
    winner = result["winners"][0]
    assert (result["kind"], winner["seat"], winner["by"]) == ("win", HUMAN, "ron")
    page.click("#claim-ron")
    block = page.locator(f'#round-result [data-result-seat="{HUMAN}"]')
    expect(block.locator(".sk-explain")).to_have_text("Win by Ron: You, on a discard by CPU 1.")
    expect_cards(block.locator(".sk-row").first.locator("[data-card]"), winner["hand"])
    for name, points in winner["yaku"]:
        expect(block.locator(f'[data-yaku="{name}"] td')).to_have_text(
            "1 pt" if points == 1 else f"{points} pts"
        )
    expect(block.locator(".sj-yaku .total td")).to_have_text(f"{winner['points']} pts")
    expect(page.locator("#round-result .sj-deltas")).to_contain_text(
        f"You: +{winner['points']} → {winner['points']}"
    )
    expect(page.locator("#next-round")).to_be_visible()
    screenshot(page, "shirokuro-jong-ron-result-desktop")


if __name__ == "__main__":
    # The first few deals offering each kind of claim named on the command line.
    for wanted in sys.argv[1:] or ["pon", "chii", "ron"]:
        deals = find_deals(wanted, range(5000))
        print(wanted, [next(deals, None) for _ in range(3)])


CLAIM_HELP = {
    "en": (
        "Ron, Pon, Chii or pass",
        ["win with this discard", "make three numbers in a row in one colour", "leave the discard"],
        "Claim time",
        ["the other players answer Ron, Pon, Chii or pass"],
    ),
    "ja": (
        "ロン・ポン・チー・見送り",
        ["この捨て牌で手札が完成するなら", "同じ色の連続した三つの数字", "この捨て牌を取りません"],
        "受付時間",
        ["ほかの人がロン・ポン・チー・見送りを答えます"],
    ),
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_claim_prompt_explains_each_answer_on_offer(
    browser, new_page, server_url: str, redis_url: str, lang: str
) -> None:
    replay = Replay(*RON_DEAL)  # Ron, two Chii and pass: one sentence for each kind
    assert {a["type"] for a in replay.legal()} == {"ron", "chii", "pass"}
    name, lines, wait_name, wait_lines = CLAIM_HELP[lang]
    phone = touch_page(browser)
    try:
        for label, page in (("phone", phone), ("desktop", new_page(**DESKTOP))):
            if lang == "ja":
                page.goto(server_url + "/")
                page.click("#lang-toggle")
            code = open_at_first_claim(page, server_url, redis_url, RON_DEAL[0])
            check_term_help(page, "help-claims", name, lines, "ron", tap=label == "phone")
            if lang == "ja":
                assert english_left(page, code) == set()
            page.locator('button.term-help[data-key="help-claims"]').click()
            screenshot(page, f"shirokuro-jong-claim-help-{label}-{lang}")
            if label == "desktop":  # a spectator's prompt has no answers: what the wait is
                spectator = new_page(**PHONE)
                if lang == "ja":
                    spectator.goto(server_url + "/")
                    spectator.click("#lang-toggle")
                watch_room(spectator, server_url, code)
                check_term_help(spectator, "help-claims", wait_name, wait_lines, "claim")
    finally:
        phone.context.close()
