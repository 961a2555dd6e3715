"""Layout and accessibility checks the phone sweep shares: page scroll either way, what
must be on screen and uncovered, touch-target sizes, and axe-core's serious and critical
findings.

Each check runs as one `page.evaluate`, so it sees one moment of a table that CPUs
keep moving.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

SIZES = [(360, 740), (390, 844), (740, 360), (1366, 800)]
PHONE_SIDE = 480  # a window whose shorter side is at most this is a phone (upright or on its side)
TOUCH = 44  # px: WCAG 2.5.5 target size, for everything a player taps on a phone
MINIMUM = 24  # px: WCAG 2.5.8, for everything everywhere

# Rounding of rem sizes (2.75rem is exactly 44 px) leaves at most half a pixel.
SLACK = 0.5

LAYOUT = (Path(__file__).parent / "layout.js").read_text()


def layout_problems(
    page: Page, must_see: tuple[str, ...] = ("#status-line", "#my-hand"), *, table: bool = False
) -> list[str]:
    """What is wrong with the page's layout at its current size: sideways scroll (and with
    `table`, any page scroll: a table is one screen), a must-see part (every match of each
    selector) missing, not wholly on screen or covered at its middle, an enabled move of a
    table off screen or covered, a control below the touch size (phones, table controls)
    or below 24 px (anywhere)."""
    size = page.viewport_size or {"width": 0, "height": 0}
    phone = min(size["width"], size["height"]) <= PHONE_SIDE
    report = page.evaluate(LAYOUT, [TOUCH, MINIMUM, SLACK, list(must_see), phone])
    problems = []
    if report["scrollWidth"] > report["innerWidth"]:
        problems.append(f"scrollWidth {report['scrollWidth']} > innerWidth {report['innerWidth']}")
    if table and report["scrollHeight"] > report["innerHeight"]:
        problems.append(
            f"the page scrolls: scrollHeight {report['scrollHeight']} > innerHeight "
            f"{report['innerHeight']}"
        )
    problems += [f"missing {sel}" for sel in report["missing"]]
    problems += [f"off screen: {what}" for what in report["offscreen"]]
    problems += [f"below {MINIMUM} px: {what}" for what in report["tiny"]]
    problems += [f"below {TOUCH} px: {what}" for what in report["small"]]
    return problems


def axe_problems(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (axe-core
    comes inside the axe-playwright-python package: nothing is downloaded)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:4])}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
