"""Browser fixtures: a real `zashiki serve` process on a free port (against the suite's
real Redis) and real headless Chromium driven by Playwright.

Chromium is Debian's (`/usr/bin/chromium`, or the one CHROMIUM_PATH names); Playwright's
own browser download is not used. Without Chromium or Playwright every browser module is
skipped with one line saying how to get them (failed instead with ZASHIKI_REQUIRE_BROWSER=1).
Screenshots go to `artifacts/screenshots/` for people to look at.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import free_port, stop_process, wait_for_port
from tests.optional import UnavailableModule

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
    """Debian's Chromium, or the one CHROMIUM_PATH names; None if it is not there."""
    given = os.environ.get("CHROMIUM_PATH")
    path = given if given else shutil.which("chromium")
    return path if path and os.access(path, os.X_OK) else None


@functools.cache
def browser_missing() -> str | None:
    """Why the browser tests cannot run here (one line with how to fix it), or None."""
    if importlib.util.find_spec("playwright") is None:
        return "browser tests need Playwright: python3 -m pip install -e '.[test]'"
    if chromium_path() is None:
        return (
            "browser tests need Chromium: apt-get install chromium fonts-ipafont-gothic "
            "(bash .ci/run does), or set CHROMIUM_PATH"
        )
    return None


class BrowserModuleSkipped(UnavailableModule):
    """A browser test module on a machine without Chromium or Playwright."""

    require_variable = "ZASHIKI_REQUIRE_BROWSER"


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> object:
    """Every browser module is skipped at once, one line saying how many tests it holds,
    when the browser cannot run here."""
    reason = browser_missing()
    if reason is None:
        return None
    module = BrowserModuleSkipped.from_parent(parent, path=module_path)
    module.reason = reason
    return module


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector):  # type: ignore[no-untyped-def]
    """Without a browser, only the skipping modules: --doctest-modules would otherwise
    import every browser module (and Playwright with it)."""
    collectors = yield
    if browser_missing() is None:
        return collectors
    return [c for c in collectors if isinstance(c, BrowserModuleSkipped)]


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
            # Reviews at the server's priority: ten steps lower, a loaded CI machine's
            # other processes (browsers, the suite) starved them for minutes.
            "--review-nice",
            "0",
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


@pytest.fixture(scope="package")
def playwright() -> Iterator[object]:
    """Playwright's sync API, started once for the browser tests.

    Package-scoped, not session-scoped: while it is open it holds a running event loop in
    the main thread, and every asyncio test collected after the browser package would
    fail. Every browser test module runs within the package, so one start serves them
    all (a start and a Chromium launch per module cost about 1.5 s each).
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="package")
def browser(playwright) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """One headless Chromium for the browser tests; each player is a fresh context."""
    path = chromium_path()
    assert path is not None, "collection skips the browser modules without Chromium"
    browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
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
