"""Learning the games inside Zashiki, in real Chromium: every game's How-to-play page
opened from the lobby and from a live table (English and Japanese, phone and desktop),
its glossary resolving, no raw option key in the lobby, the settings or the results, and
a tapped card explaining itself on a touch screen."""

from __future__ import annotations

import json
import re
import urllib.request

import msgpack
import pytest
from playwright.sync_api import Frame, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    english_left,
    finished_match_message,
    host_room,
    long_press,
    render_table,
    start,
    touch_page,
)

GAMES = ("usunoro", "hachinin_meri", "utsuke", "kokuto_rum", "shirokuro_jong", "junocos")
SEATS = dict(usunoro=4, hachinin_meri=8, utsuke=3, kokuto_rum=2, shirokuro_jong=2, junocos=3)
YAKU = ["oya", "tsumo", "dora", "chin-itsu", "tanyao", "toitoi", "haitei", "houtei"] + [
    "iipeikou",
    "ikkitsuukan",
    "two-colour-doujun",
    "two-colour-doukou",
    "suutoitsu",
    "tenhou",
    "chiihou",
    "renhou",
]
# The glossary terms the client marks on cards and table labels (data-term), per game.
CLIENT_TERMS = {
    "usunoro": {"card", "token", "penalty"},
    "hachinin_meri": {"numeral", "sota", "kaba", "rei", "robai", "un", "sun", "tenka"}
    | {"dealer", "okie", "trump-suit"},
    "utsuke": {"card", "chip", "trump"},
    "kokuto_rum": {"upright", "dealer", "vp"},
    "shirokuro_jong": {"upright", "dora-indicator", "dora", "oya"} | {f"yaku-{y}" for y in YAKU},
    "junocos": {"card", "skip", "super", "trump-number", "trump-suit", "start-player", "indicator"},
}
# A word in snake_case, or a bare true/false: an option key or value shown raw.
RAW_KEY = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b(?:true|false|True|False)\b|\b\d{4,}\b")


def to_japanese(page: Page) -> None:
    """Switch the page to Japanese with the top bar's toggle (it says "English" after)."""
    page.click("#lang-toggle")
    expect(page.locator("#lang-toggle")).to_have_text("English")


def rules_frame(page: Page, game_id: str, lang: str) -> Frame:
    """The Rules panel's page, once it has drawn its cards; checks it is `game_id`'s in `lang`."""
    expect(page.locator("#rules-panel")).to_be_visible()
    frame = page.locator("#rules-frame").element_handle().content_frame()
    assert frame is not None
    frame.wait_for_selector(".deck [data-card]")
    main = frame.locator("main.rules")
    assert (main.get_attribute("data-game"), main.get_attribute("data-lang")) == (game_id, lang)
    return frame


def glossary_problems(frame: Frame | Page, terms: set[str]) -> dict[str, list[str]]:
    """Links that lead nowhere, glossary entries without an anchor or text, card slots
    left undrawn, and `terms` the page has no entry for."""
    found = frame.evaluate(
        """(terms) => {
          const ids = new Set([...document.querySelectorAll('[id]')].map((n) => n.id));
          const dts = [...document.querySelectorAll('dl.glossary dt')];
          return {
            broken: [...document.querySelectorAll('a[href^="#"]')]
              .map((a) => a.getAttribute('href').slice(1)).filter((id) => !ids.has(id)),
            no_anchor: dts.filter((d) => !d.id.startsWith('g-')).map((d) => d.textContent),
            no_text: dts.filter((d) => !(d.nextElementSibling
              && d.nextElementSibling.tagName === 'DD'
              && d.nextElementSibling.textContent.trim())).map((d) => d.id),
            undrawn: [...document.querySelectorAll('[data-face]')]
              .filter((s) => !s.querySelector('[data-card]')).map((s) => s.dataset.face),
            missing: terms.filter((term) => !ids.has('g-' + term)),
          };
        }""",
        sorted(terms),
    )
    return {k: v for k, v in found.items() if v}


def lobby_term_links(page: Page) -> set[str]:
    """The glossary terms the lobby's option help links to, for the chosen game."""
    return set(page.locator("a.term-link").evaluate_all("ns => ns.map(n => n.dataset.rulesTerm)"))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_rules_page_opens_from_the_lobby_and_its_glossary_resolves(
    new_page, server_url: str, lang: str, size: dict[str, int]
) -> None:
    page = new_page(**size)
    page.goto(server_url + "/")
    if lang == "ja":
        to_japanese(page)
    for game_id in GAMES:
        page.locator(f'input[name="game"][value="{game_id}"]').check()
        help_terms = lobby_term_links(page)
        page.click(f"#rules-link-{game_id}")
        frame = rules_frame(page, game_id, lang)
        assert not glossary_problems(frame, CLIENT_TERMS[game_id] | help_terms), game_id
        if lang == "ja":
            assert english_left(frame) == set(), game_id  # type: ignore[arg-type]
        assert frame.evaluate("document.documentElement.scrollWidth") <= size["width"], game_id
        page.click("#close-rules")
        expect(page.locator("#rules-panel")).to_have_count(0)
        expect(page.locator(f"#rules-link-{game_id}")).to_be_focused()


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_pages_at_phone_width_for_people_to_look_at(
    new_page, server_url: str, game_id: str
) -> None:
    page = new_page(**PHONE)
    for lang in ("en", "ja"):
        page.goto(f"{server_url}/rules/{game_id}.{lang}.html")
        page.wait_for_selector(".deck [data-card]")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not glossary_problems(page, CLIENT_TERMS[game_id])
        screenshot(page, f"rules-{game_id}-{lang}-phone")


def sent_frames(page: Page) -> list[dict]:
    """Every frame this page sends on its websocket from now on, decoded."""
    frames: list[dict] = []

    def watch(ws) -> None:  # type: ignore[no-untyped-def]
        ws.on("framesent", lambda payload: frames.append(msgpack.unpackb(payload)))

    page.on("websocket", watch)
    return frames


def settings_lines(page: Page) -> list[str]:
    """The room's settings as the Settings dialog lists them (then closes it)."""
    page.click("#settings-button")
    lines = page.locator("#room-settings li").all_inner_texts()
    page.click("#close-settings")
    return lines


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_open_over_a_live_table_which_keeps_running(
    new_page, server_url: str, game_id: str
) -> None:
    page = new_page(**PHONE)
    sent = sent_frames(page)
    code = host_room(page, server_url, game_id, seats=SEATS[game_id])
    start(page)
    for lang, size in (("en", PHONE), ("en", DESKTOP), ("ja", DESKTOP), ("ja", PHONE)):
        if lang == "ja" and page.locator("#lang-toggle").inner_text() != "English":
            to_japanese(page)
        page.set_viewport_size(size)
        lines = settings_lines(page)
        assert lines and not [line for line in lines if RAW_KEY.search(line)], lines
        if lang == "ja":
            assert english_left(page, code) == set(), game_id
        opened_at = len(sent)
        page.click("#rules-button")
        frame = rules_frame(page, game_id, lang)
        assert not glossary_problems(frame, CLIENT_TERMS[game_id])
        if size is PHONE:
            screenshot(page, f"rules-panel-{game_id}-{lang}")
        # The table goes on: the page stays connected and never reports itself hidden.
        expect(page.locator("#connection-status")).to_have_text(re.compile("Connected|接続済み"))
        assert any(frame.get("t") == "hello" for frame in sent[:opened_at])  # frames are seen
        assert {"t": "visible", "visible": False} not in sent[opened_at:]
        page.keyboard.press("Escape")
        expect(page.locator("#rules-panel")).to_have_count(0)
        expect(page.locator(".table")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_raw_option_key_in_the_lobby(new_page, server_url: str, lang: str) -> None:
    with urllib.request.urlopen(server_url + "/api/games", timeout=5) as answer:
        games = {g["id"]: g for g in json.load(answer)["games"]}
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    if lang == "ja":
        to_japanese(page)
    for game_id, game in games.items():
        page.locator(f'input[name="game"][value="{game_id}"]').check()
        panel = page.locator("section[aria-labelledby=host-title]")
        text = panel.inner_text()
        assert not RAW_KEY.search(text), (game_id, RAW_KEY.search(text))
        for option in game["options"]:
            select = page.locator(f"#opt-{option['name']}")
            if option["name"] == "open_hands":  # offered as "two players on this device"
                assert select.count() == 0
                continue
            expect(select).to_be_visible()
            expect(page.locator(f"#help-{option['name']}")).not_to_be_empty()
            labels = select.locator("option").all_inner_texts()
            assert not {str(c) for c in option["choices"]} & set(labels), (option["name"], labels)
        if lang == "ja":
            assert english_left(page) == set(), game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_no_raw_key_in_the_results(new_page, server_url: str, game_id: str) -> None:
    page = new_page(**PHONE)
    for seat in (0, None):
        message = finished_match_message(game_id, SEATS[game_id], seat)
        text = render_table(page, server_url, game_id, message)
        assert not RAW_KEY.search(text), (game_id, RAW_KEY.search(text))
        assert "{" not in text and "undefined" not in text


def check_tap_explains(page: Page, card_selector: str, game_id: str) -> None:
    """Hold a finger on the first card `card_selector` finds (a long press: a tap would
    play or select it): the explanation names it in full and gives its glossary entry's
    text."""
    card = page.locator(card_selector).first
    expect(card).to_be_visible()
    name, term = card.get_attribute("aria-label"), card.get_attribute("data-term")
    long_press(page, card)
    expect(page.locator("#explain")).to_be_visible()
    expect(page.locator("#explain-name")).to_have_text(name or "")
    entry = page.evaluate(
        """async ([game, term]) => {
          const html = await (await fetch(`/rules/${game}.en.html`)).text();
          const doc = new DOMParser().parseFromString(html, 'text/html');
          return doc.getElementById('g-' + term).nextElementSibling.textContent.trim();
        }""",
        [game_id, term],
    )
    expect(page.locator("#explain-role")).to_contain_text(entry)
    screenshot(page, f"explain-{game_id}-touch")


@pytest.mark.parametrize(
    ("game_id", "card_selector"),
    [
        ("usunoro", ".my-hand [data-card], [data-card][data-term='card']"),  # French cards
        ("utsuke", "#lord-hand [data-term]"),  # the trick-taking decks (cards_tricks.js)
        ("kokuto_rum", ".sk-card[data-term]"),  # the Shirokuro deck
    ],
)
def test_a_long_press_on_a_card_on_a_touch_screen_shows_its_name_and_role(
    browser, server_url: str, game_id: str, card_selector: str
) -> None:
    page = touch_page(browser)
    try:
        host_room(page, server_url, game_id, seats=SEATS[game_id])
        start(page)
        check_tap_explains(page, card_selector, game_id)
    finally:
        page.context.close()


def test_the_keyboard_explains_a_card_on_focus_or_with_the_question_mark_key(
    new_page, server_url: str
) -> None:
    # A card that is a move (the face-up row's, the hand's) explains on "?"; one that is
    # not (an open card, the trump indicator) on focus.
    page = new_page(**PHONE)
    host_room(page, server_url, "junocos", seats=3)
    start(page)
    page.locator("#rules-button").focus()
    for _ in range(80):
        page.keyboard.press("Tab")
        # A card: a glossary term named by its aria-label (the seat panels' badges, such
        # as the start player's, are terms too, named by their text).
        if page.evaluate(
            "(a => !!(a && a.dataset.term && a.getAttribute('aria-label')))(document.activeElement)"
        ):
            break
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    if page.evaluate("document.activeElement.tagName") == "BUTTON":
        page.keyboard.press("?")
    expect(page.locator("#explain-name")).to_have_text(label)
    expect(page.locator("#explain-role")).not_to_be_empty()


def test_sentences_about_you_read_right(new_page, server_url: str) -> None:
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async () => {
          const { addStrings, setLang, t } = await import('/i18n.js');
          for (const id of ['kokuto_rum', 'shirokuro_jong']) {
            addStrings((await import(`/tables/${id}.js`)).STRINGS);
          }
          const say = (key) => [t(key, { who: t('you') }), t(key, { who: 'CPU 2' })];
          const en = ['u_round_penalty', 'kr_st_insert', 'sj_st_turn'].map(say);
          setLang('ja', { remember: false });
          return [en, say('u_round_penalty')];
        }"""
    )
    assert said == [
        [
            [
                "You were left without a token: +1 penalty.",
                "CPU 2 was left without a token: +1 penalty.",
            ],
            ["You are placing a card…", "CPU 2 is placing a card…"],
            ["Your turn…", "CPU 2's turn…"],
        ],
        ["あなたが札を取れませんでした：罰点+1。", "CPU 2が札を取れませんでした：罰点+1。"],
    ]
