"""Layout and accessibility checks the phone sweep shares: sideways scroll, what must be
on screen, touch-target sizes, and axe-core's serious and critical findings.

Each check runs as one `page.evaluate`, so it sees one moment of a table that CPUs
keep moving.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

SIZES = [(360, 740), (390, 844), (1366, 800)]
PHONE_WIDTH = 480  # at or below this width a size is a phone (the CSS's own breakpoint)
TOUCH = 44  # px: WCAG 2.5.5 target size, for everything a player taps on a phone
MINIMUM = 24  # px: WCAG 2.5.8, for everything everywhere

# Rounding of rem sizes (2.75rem is exactly 44 px) leaves at most half a pixel.
SLACK = 0.5

LAYOUT = (Path(__file__).parent / "layout.js").read_text()


def layout_problems(
    page: Page, must_see: tuple[str, ...] = ("#status-line", "#my-hand"), *, board: bool = False
) -> list[str]:
    """What is wrong with the page's layout at its current size: sideways scroll, a
    must-see part or an enabled move off screen, a control below the touch size (phone
    widths, table controls) or below 24 px (anywhere); with `board`, a card or anything
    tappable on a table's board that the dock lies over (their boxes meet)."""
    report = page.evaluate(LAYOUT, [TOUCH, MINIMUM, SLACK, list(must_see), board])
    phone = report["innerWidth"] <= PHONE_WIDTH
    problems = []
    if report["scrollWidth"] > report["innerWidth"]:
        problems.append(f"scrollWidth {report['scrollWidth']} > innerWidth {report['innerWidth']}")
    problems += [f"missing {sel}" for sel in report["missing"]]
    problems += [f"off screen: {what}" for what in report["offscreen"]]
    problems += [f"under the dock: {what}" for what in report["underDock"]]
    problems += [f"below {MINIMUM} px: {what}" for what in report["tiny"]]
    if phone:
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
