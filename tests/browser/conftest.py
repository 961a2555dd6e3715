"""Browser fixtures: a real `zashiki serve` process on a free port (against the suite's
real Redis) and real headless Chromium driven by Playwright.

Chromium is Debian's (`/usr/bin/chromium`, or CHROMIUM_PATH); Playwright's own browser
download is not used. Screenshots go to `artifacts/screenshots/` for people to look at.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import free_port, stop_process, wait_for_port

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """Debian's Chromium, or the one CHROMIUM_PATH names."""
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")


@pytest.fixture(scope="session")
def server_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server process for the browser tests, stopped at the end."""
    port = free_port()
    log = (tmp_path_factory.mktemp("browser-server") / "server.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--redis-url",
            redis_url,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, proc, timeout=20)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium per test module.

    Not per session: while Playwright's sync API is open it holds a running event loop
    in the main thread, and every asyncio test collected after it would fail.
    """
    path = chromium_path()
    if path is None:
        pytest.fail(
            "Chromium is missing: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):  # type: ignore[no-untyped-def]
    """Factory for pages in fresh contexts (each context is a separate player)."""
    contexts = []

    def make(width: int = 1280, height: int = 860, locale: str = "en-US"):  # type: ignore[no-untyped-def]
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    """Save a screenshot artifact and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
