"""The installable app in real Chromium (a persistent profile: Chromium finds nothing
installable in an incognito one), against a real server that may push to loopback:

- the manifest and service worker pass CDP `Page.getInstallabilityErrors` (empty), in
  English and, after the language switch, with the Japanese manifest;
- offline (`context.set_offline`) the lobby and "Your rooms" open from the service
  worker's store, "Your rooms" as last seen, and a room says play needs the server;
- a push, end to end: the player turns notifications on for their seat in "Your rooms"
  (one tap), the host starts, the server pushes to the stand-in push service
  (tests/net/push_service.py), which decrypts it; that payload is delivered to the
  service worker with CDP `ServiceWorker.deliverPushMessage`; the notification it shows
  is read with `registration.getNotifications()`, and its click path (`onNoticeClick`,
  which the worker's notificationclick listener calls: CDP cannot click a notification)
  takes the open window to the room, at the player's seat. (Headless Chromium sometimes
  drops the notification a push event showed; the push is then delivered again.)

Headless Chromium has no push service to subscribe with, so the page's
`PushManager.subscribe` hands back the stand-in's endpoint and this test's keys; all
else is the browser's and the server's own.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from server.store.redis_store import RedisStore
from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path
from tests.conftest import free_port, stop_process, wait_for_port
from tests.net.push_service import PushService, Subscriber


@pytest.fixture(scope="module")
def app_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server process that may push to http://127.0.0.1 (the stand-in)."""
    port = free_port()
    log = (tmp_path_factory.mktemp("app-server") / "server.log").open("wb")
    args = [sys.executable, "-m", "server", "serve", "--port", str(port)]
    args += ["--redis-url", redis_url, "--push", "loopback"]
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, proc, timeout=20)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc)
        log.close()


@pytest.fixture
def profile(playwright, tmp_path: Path) -> Iterator[BrowserContext]:  # type: ignore[no-untyped-def]
    """A fresh persistent Chromium profile (one per test), from the browser tests' one
    Playwright (a second sync Playwright in the same thread would be refused)."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium_path(),
        headless=True,
        args=CHROMIUM_FLAGS,
        viewport={"width": 390, "height": 844},
        locale="en-US",
    )
    context.set_default_timeout(10_000)
    try:
        yield context
    finally:
        context.close()


def post(url: str, body: dict[str, Any]) -> Any:
    ask = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(ask, timeout=10) as answer:
        return json.loads(answer.read())


def hold(page: Page, code: str, seat: int, token: str) -> None:
    """Put a seat's token in the page's storage, as taking the seat there would."""
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))",
        [f"zashiki.seats.{code}", [{"seat": seat, "token": token, "at": 1}]],
    )


def worker_ready(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def test_installable_in_both_languages_and_the_shell_opens_offline(
    profile: BrowserContext, app_url: str
) -> None:
    room = post(f"{app_url}/api/rooms", {"game": "kokuto_rum", "seats": ["host", "cpu"]})
    page = profile.pages[0] if profile.pages else profile.new_page()
    page.goto(app_url + "/")
    hold(page, room["code"], 0, room["token"])
    page.goto(app_url + "/?rooms=1")
    worker_ready(page)
    expect(page.locator(f'#your-rooms li[data-room="{room["code"]}"]')).to_be_visible()
    cdp = profile.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
    page.click("#lang-toggle")
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.ja.webmanifest") and not manifest["errors"]
    assert json.loads(manifest["data"])["short_name"] == "座敷"
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

    page.reload()  # now under the worker's control
    profile.set_offline(True)
    page.reload()
    expect(page.locator("#offline-note")).to_contain_text("サーバーに接続できません")
    expect(page.locator("#your-rooms")).to_contain_text("オフライン")
    expect(page.locator(f'#your-rooms li[data-room="{room["code"]}"]')).to_be_visible()
    expect(page.locator("#host-title")).to_be_visible()
    page.click("#lang-toggle")
    expect(page.locator("#offline-note")).to_contain_text("playing needs the server")
    page.click(f'[data-key="resume-{room["code"]}"]')
    expect(page.locator("main")).to_contain_text("Cannot reach the server")
    profile.set_offline(False)
    page.reload()
    expect(page.locator("#offline-note")).to_be_hidden()


FAKE_PUSH = """([endpoint, keys]) => {
  const subscription = {
    endpoint, options: { applicationServerKey: null },
    toJSON: () => ({ endpoint, keys }),
    unsubscribe: async () => true,
  };
  let held = null;
  PushManager.prototype.subscribe = async () => (held = subscription);
  PushManager.prototype.getSubscription = async () => held;
}"""


def test_a_push_shows_a_notification_that_opens_the_room_at_the_seat(
    profile: BrowserContext, app_url: str, redis_url: str
) -> None:
    host = post(
        f"{app_url}/api/rooms", {"game": "usunoro", "seats": ["host", "open", "cpu", "cpu"]}
    )
    code = host["code"]
    guest = post(f"{app_url}/api/rooms/{code}/seats", {"seat": 1, "name": "Aki"})
    with PushService() as service:
        device = Subscriber(service.endpoint("chromium"))
        sub = device.subscription()
        profile.grant_permissions(["notifications"], origin=app_url)
        profile.add_init_script(f"({FAKE_PUSH})({json.dumps([sub['endpoint'], sub['keys']])})")
        page = profile.pages[0] if profile.pages else profile.new_page()
        page.goto(app_url + "/")
        hold(page, code, 1, guest["token"])
        page.goto(app_url + "/?rooms=1")
        worker_ready(page)
        toggle = page.locator(f'[data-key="push-{code}-1"]')
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        kept = read_subscriptions(redis_url, code)
        assert [(e["seat"], e["endpoint"], e["lang"]) for e in kept] == [(1, sub["endpoint"], "en")]

        post(f"{app_url}/api/rooms/{code}/start", {"token": host["token"]})
        key = json.loads(urllib.request.urlopen(f"{app_url}/api/push/key").read())["key"]
        payload = device.read(service.next(), key, service.origin)
    assert payload["room"] == code and payload["seat"] == 1 and payload["kind"] == "move"

    cdp = profile.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    for _ in range(100):  # the registrations arrive as events
        if registrations:
            break
        page.wait_for_timeout(100)
    [registration] = [r for r in registrations if not r["isDeleted"]]
    [worker] = profile.service_workers
    shown = (
        "self.registration.getNotifications()"
        ".then((all) => all.map((n) => [n.title, n.body, n.tag]))"
    )
    notices: list[list[str]] = []
    # Headless Chromium now and then drops the notification a push event showed (one
    # shown straight after by the same worker stays): the push goes again, three times
    # at most, as a push service would resend it.
    for _ in range(3):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": app_url,
                "registrationId": registration["registrationId"],
                "data": json.dumps(payload),
            },
        )
        for _ in range(50):  # the push event runs in the worker meanwhile
            notices = worker.evaluate(shown)
            if notices:
                break
            page.wait_for_timeout(100)
        if notices:
            break
    assert notices == [
        ["Your move — Usunoro", f"Room {code}: Aki, it is your move.", f"zashiki-{code}-1"]
    ]
    assert page.url.endswith("/?rooms=1")
    worker.evaluate("self.registration.getNotifications().then(([n]) => onNoticeClick(n))")
    page.wait_for_url(f"{app_url}/?room={code}")
    expect(page.locator('#my-hand[data-hand="1"]')).to_be_visible()  # the guest's own seat
    assert worker.evaluate("self.registration.getNotifications().then((all) => all.length)") == 0


def read_subscriptions(redis_url: str, code: str) -> list[dict[str, Any]]:
    """The room's push subscriptions as the server keeps them (in a thread of its own:
    Playwright's sync API holds this one's event loop)."""

    async def read() -> list[dict[str, Any]]:
        store = RedisStore(redis_url)
        try:
            return list((await store.push_subscriptions(code)).values())
        finally:
            await store.aclose()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, read()).result(timeout=30)
