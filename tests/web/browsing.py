"""What the browser tests share: the tab they drive and the sizes they look at."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright, or a skip saying how to install it."""
    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed: run `apt-get install -y chromium` as root (make test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


@dataclass
class Tab:
    """A page in a fresh browser context, with every console error and page error seen."""

    page: Any
    base: str
    errors: list[str] = field(default_factory=list)

    def open(self, route: str) -> None:
        self.page.goto(f"{self.base}/{route}")

    def assert_clean(self, refused: int = 0) -> None:
        """No errors, except the `refused` requests the test made on purpose: Chromium
        logs every 4xx answer to fetch as a console error."""
        refusals = [e for e in self.errors if "status of 400 (Bad Request)" in e]
        assert len(refusals) == refused and len(self.errors) == refused, self.errors


def wait_for_ply(tab: Tab, ply: int) -> None:
    """Until the page shows `ply` moves played and nobody is thinking. Checked every
    50 ms, not at every animation frame (Playwright's default): the computer's moves
    take seconds, and a page redrawn 60 times a second for them costs the suite CPU."""
    tab.page.wait_for_function(
        "ply => document.querySelectorAll('#move-list [data-ply]').length === ply + 1"
        " && !document.querySelector('#status.thinking')",
        arg=ply,
        polling=50,
    )


def plies(tab: Tab) -> int:
    """The moves played so far, as the move list shows them."""
    return int(tab.page.locator("#move-list [data-ply]").count()) - 1


AXE = Path(__file__).with_name("vendor") / "axe.min.js"


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations in `page` (see `axe_violations`)."""
    return axe_violations(page, ("serious", "critical"))


def axe_violations(page: Any, impacts: tuple[str, ...] = ("minor", "moderate", "serious", "critical")) -> list[str]:
    """axe-core (vendored in tests/web/vendor) run in `page`: its violations of these
    impacts, each as ``rule: the first elements``. Skipped where axe-core is not there:
    the sdist leaves the vendored copy out."""
    if not AXE.is_file():
        pytest.skip("axe-core is vendored in the repository only (tests/web/vendor), not in the sdist")
    # Colours are measured at rest: a banner popping in, or a toast fading out on its
    # timer while axe runs, reads as low contrast half-way. The page's own reduced-motion
    # rule stops every transition for the check; what was running ends first.
    page.emulate_media(reduced_motion="reduce")
    try:
        page.evaluate(
            "() => Promise.all(document.getAnimations()"
            ".filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)"
            ".map(a => a.finished.catch(() => null)))"
        )
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        found: list[str] = page.evaluate(
            "async impacts => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter(v => impacts.includes(v.impact))"
            ".map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', ')}`)",
            list(impacts),
        )
    finally:
        page.emulate_media(reduced_motion="null")
    return found
