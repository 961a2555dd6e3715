"""Issue 46 in real Chromium: the match file a player downloads is the server's bytes as
they are (a 62-bit seed intact, so `zashiki replay` verifies it), and the page's
Content-Security-Policy keeps an injected inline script or handler from running while
the page's own lobby, room and rules pages need nothing it refuses."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.browser.pages import DESKTOP, open_sheet
from tests.rooms.history_support import HUMAN, finished_room_sync

ROOT = Path(__file__).resolve().parents[2]
SEED = 308398354124923978  # past 2^53: a parsed and rewritten file has ...970


def test_the_downloaded_match_file_is_the_servers_bytes_and_verifies(
    new_page, server_url: str, redis_url: str, tmp_path: Path
) -> None:
    code, token = finished_room_sync(redis_url, "usunoro", seed=SEED)
    page = new_page(**DESKTOP)
    page.goto(server_url + "/")
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))",
        [f"zashiki.seats.{code}", [{"seat": HUMAN, "token": token}]],
    )
    page.goto(f"{server_url}/?room={code}")
    open_sheet(page, "history")  # the room's matches: a sheet in its bar
    with page.expect_download() as download:
        page.locator('#match-list [data-key="download"]').click()
    saved = Path(download.value.path()).read_bytes()
    ask = urllib.request.Request(
        f"{server_url}/api/rooms/{code}/matches/1", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(ask, timeout=10) as answer:
        assert saved == answer.read()
    assert str(SEED).encode() in saved
    path = tmp_path / "downloaded.json"
    path.write_bytes(saved)
    replay = subprocess.run(
        [sys.executable, "-m", "server", "replay", "--quiet", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replay.returncode == 0, replay.stderr


def test_an_injected_inline_script_or_handler_does_not_run_and_the_page_is_clean(
    new_page, server_url: str
) -> None:
    page = new_page(**DESKTOP)
    refused: list[str] = []
    page.on(
        "console",
        lambda msg: refused.append(msg.text) if "Content Security" in msg.text else None,
    )
    page.goto(server_url + "/")
    page.wait_for_selector("#your-rooms")
    page.evaluate(
        """() => {
        const script = document.createElement("script");
        script.textContent = "window.injectedRan = true";
        document.body.append(script);
        const holder = document.createElement("div");
        holder.innerHTML = '<img src="/nothing.png" onerror="window.handlerRan = true">';
        document.body.append(holder);
        }"""
    )
    page.wait_for_timeout(500)
    assert page.evaluate("() => [window.injectedRan, window.handlerRan]") == [None, None]
    injected = [text for text in refused if "inline" in text]
    assert len(injected) >= 2, refused  # both refused by the policy, and said so
    # The page itself needs nothing the policy refuses: the lobby, and a room as its host.
    refused.clear()
    ask = urllib.request.Request(
        server_url + "/api/rooms",
        data=json.dumps({"game": "shirokuro_jong", "seats": ["host", "cpu"]}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(ask, timeout=10) as answer:
        room = json.loads(answer.read())
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))",
        [f"zashiki.seats.{room['code']}", [{"seat": room["seat"], "token": room["token"]}]],
    )
    page.goto(f"{server_url}/?room={room['code']}")
    page.wait_for_selector("#room-code, [data-room], main", timeout=10_000)
    page.wait_for_timeout(1000)
    page.goto(server_url + "/rules/usunoro.en.html")
    page.wait_for_timeout(300)
    assert refused == []


def test_a_visitor_to_a_room_every_player_left_is_told_it_is_closed(
    new_page, server_url: str
) -> None:
    def post(path: str, body: dict) -> dict:  # type: ignore[type-arg]
        ask = urllib.request.Request(
            server_url + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(ask, timeout=10) as answer:
            return json.loads(answer.read())

    room = post("/api/rooms", {"game": "usunoro", "seats": ["host", "cpu", "cpu", "cpu"]})
    post(f"/api/rooms/{room['code']}/start", {"token": room["token"]})
    assert post(f"/api/rooms/{room['code']}/leave", {"token": room["token"]})["status"] == "closed"
    for locale, words in (("en-US", "closed"), ("ja-JP", "閉じられました")):
        page = new_page(locale=locale)
        page.goto(f"{server_url}/?room={room['code']}")
        page.evaluate(f"() => localStorage.setItem('zashiki.lang', '{locale[:2]}')")
        page.reload()
        assert words in page.locator("#room-full").inner_text()
