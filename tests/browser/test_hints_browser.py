"""Hints in the browser, at phone size: in every game the Hint button at the player's
first decision asks the server, the table marks the move the server sent (the same mark
in every game) with its reason in the status line, and playing it is accepted; the
Hints sheet tells a spectator that hints are on. With hints off (the lobby's checkbox)
there is no Hint button nor sheet, and a forged hint frame is refused with hints_off."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket, expect
from websockets.sync.client import connect

from server.store import codec
from tests.browser.pages import (
    PHONE,
    finished_match_message,
    host_room,
    render_table,
    start,
    wait_until,
)

SHOTS = "/work/shots/hints"
# A move some games make in two steps: after the marked card or number, this button.
CONFIRM = {"usunoro": "#exchange", "utsuke": "#guess-confirm"}
GAMES = ["usunoro", "kokuto_rum", "shirokuro_jong", "junocos", "utsuke", "hachinin_meri"]


def action_key(action: dict[str, Any]) -> str:
    """The page's key of an action (tables/suggest.js actionKey): JSON, fields in order."""
    return json.dumps(dict(sorted(action.items())), separators=(",", ":"), ensure_ascii=False)


class Frames:
    """Every websocket frame the page sent and received, unpacked."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        page.on("websocket", self.watch)

    def watch(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: self.sent.append(unpacked(payload)))
        ws.on("framereceived", lambda payload: self.received.append(unpacked(payload)))

    def of(self, kind: str, frames: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        return [f for f in (self.received if frames is None else frames) if f.get("t") == kind]


def unpacked(payload: str | bytes) -> dict[str, Any]:
    frame = codec.unpack(payload if isinstance(payload, bytes) else payload.encode())
    return frame if isinstance(frame, dict) else {}


def matches(node: dict[str, str | None], move: dict[str, Any]) -> bool:
    """Whether a marked element stands for `move` (its data attributes)."""
    place = move.get("pos", move.get("index"))
    return (
        node["action"] == action_key(move)
        or (node["card"] is not None and node["card"] == move.get("card"))
        or (move["type"] == "insert" and node["gap"] == str(place))
        or (move["type"] == "discard" and node["index"] == str(place))
    )


MARKED = """() => [...document.querySelectorAll('[data-suggested]')].map((n) => ({
  action: n.dataset.action || null, card: n.dataset.card || null,
  gap: n.dataset.gap ?? null, index: n.dataset.index ?? null,
}))"""


@pytest.mark.parametrize("game_id", GAMES)
def test_the_hint_marks_the_servers_move_and_playing_it_is_accepted(
    new_page: Any, server_url: str, game_id: str
) -> None:
    page = new_page(**PHONE)
    frames = Frames(page)
    code = host_room(page, server_url, game_id)
    start(page)
    button = page.locator("#hint-button")
    expect(button).to_be_visible(timeout=30_000)
    # CPUs' moves redraw the table meanwhile: measure the button once it is there again.
    box = None
    for _ in range(100):
        if (box := button.bounding_box()) is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    expect(page.locator("#fold-hints > summary")).to_be_visible()
    button.click()
    wait_until(page, "() => document.querySelectorAll('[data-suggested]').length > 0", timeout_s=15)
    (hint,) = frames.of("hint")
    move = hint["move"]
    # The legal moves the page holds: those of the last view that carried them (a patch
    # after another seat's move leaves them out when they stay as they were).
    legal = [f["legal"] for f in frames.of("view") if "legal" in f][-1]
    assert hint["seat"] == 0 and move in legal[0]
    marked = page.evaluate(MARKED)
    assert marked and all(matches(node, move) for node in marked), (move, marked)
    expect(page.locator("#hint-why")).to_have_text("💡 " + hint["why"]["en"])
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight + 1")
    page.screenshot(path=f"{SHOTS}/{game_id}-390-hint.png")
    # Play it: the marked card or button, and the game's confirmation where it has one.
    page.locator("[data-suggested]").first.click()
    if game_id in CONFIRM:
        page.click(CONFIRM[game_id])
    wait_until(page, "() => !document.querySelector('[data-suggested]')", timeout_s=15)
    sent = frames.of("move", frames.sent)
    assert sent and sent[0]["action"] == move, (sent, move)
    seq = sent[0]["seq"]
    # The mark goes as the move is sent; its answer may come later on a busy machine.
    for _ in range(150):
        acks = [f for f in frames.of("view") if (f.get("ack") or {}).get("seq") == seq]
        acks += [f for f in frames.of("ack") if f.get("seq") == seq]
        refused = [f for f in frames.of("error") if f.get("seq") == seq]
        if acks or refused:
            break
        page.wait_for_timeout(100)
    assert acks and not refused, (acks, refused)
    # A spectator sees that hints are on (the sheet), and has no Hint button.
    if game_id == "kokuto_rum":
        watcher = new_page(**PHONE)
        watcher.goto(f"{server_url}/?room={code}")
        watcher.click("#watch")
        expect(watcher.locator("#fold-hints > summary")).to_be_visible()
        assert watcher.locator("#hint-button").count() == 0


def test_hints_off_no_button_and_a_forged_hint_is_refused(new_page: Any, server_url: str) -> None:
    page = new_page(**PHONE)
    page.goto(server_url + "/")
    page.locator('input[name="game"][value="kokuto_rum"]').check()
    page.uncheck("#hints")
    page.click("#host-button")
    page.wait_for_url(re.compile(r"\?room="))
    code = page.url.split("room=")[1].split("&")[0]
    expect(page.locator("#hints-toggle")).not_to_be_checked()
    start(page)
    expect(page.locator("#rotate-keep")).to_be_visible(timeout=20_000)
    assert page.locator("#hint-button").count() == 0
    assert page.locator("#fold-hints").count() == 0
    held = page.evaluate(f"() => localStorage.getItem('zashiki.seats.{code}')")
    token = json.loads(held)[0]["token"]
    ws_url = server_url.replace("http", "ws", 1) + f"/ws?room={code}"
    with connect(ws_url) as ws:
        ws.send(codec.pack({"t": "hello", "tokens": [token]}))
        ws.send(codec.pack({"t": "hint", "seat": 0}))
        while (frame := codec.unpack(ws.recv(timeout=10)))["t"] != "error":
            assert frame["t"] != "hint"
        assert frame["code"] == "hints_off"


# What the room page sets for a result's note: the hints module given the frame.
HINTS_NOTE = """async ([m, lang]) => {
  const { setLang } = await import('/i18n.js');
  const { seatLabel } = await import('/components.js');
  const { createHints } = await import('/hints.js');
  const { setRoundNote } = await import('/tables/round_end.js');
  setLang(lang);
  const hints = createHints({ send() {}, redraw() {} });
  hints.onFrame(m);
  setRoundNote(() => hints.usedLine((s) => seatLabel(m.seats, s, m.you)));
}"""


def test_the_result_says_how_many_hints_each_seat_used(new_page: Any, server_url: str) -> None:
    page = new_page(**PHONE)
    message = finished_match_message("kokuto_rum", 2, 0)
    message["t"] = "view"
    message["room"] = {"status": "over", "match": 1, "hints": True, "hints_used": [2, 0]}
    message["seats"] = [{"kind": "human", "name": "Aki"}, {"kind": "cpu", "name": ""}]
    lines = {"en": "Hints used: You 2 · CPU 2 0", "ja": "ヒント使用：あなた 2回 · CPU 2 0回"}
    for lang, line in lines.items():
        page.goto(server_url + "/")
        page.evaluate(HINTS_NOTE, [message, lang])
        render_table(page, server_url, "kokuto_rum", message, fresh=False)
        expect(page.locator("#round-note")).to_have_text(line)
