"""The game and analysis pages stay still while they load on a slow phone (issue 57): the
board comes a moment after the page (its position is asked of the server), and the panel
under it was drawn first, then pushed down ~390 px (Lighthouse's CLS 0.53-0.58 on a busy
machine). The layout shift is summed from the browser's own 'layout-shift' entries, as
Lighthouse sums them, with the CPU throttled through the DevTools protocol."""

from __future__ import annotations

from typing import Any

import pytest

from web.browsing import PHONE

pytestmark = pytest.mark.integration

#: How much slower than this machine the phone runs: enough to show the jump the page had.
THROTTLE = 20

#: Sums the shifts no input caused (Lighthouse's cumulative layout shift, in one window).
OBSERVE = """
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
}).observe({ type: "layout-shift", buffered: true });
"""


@pytest.mark.parametrize("route", ["#/play?spec=classic&mode=local", "#/analysis?spec=classic"])
def test_the_page_does_not_jump_when_its_board_arrives(browser: Any, server_url: str, route: str) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(OBSERVE)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        page.goto(f"{server_url}/{route}", timeout=60_000)
        page.wait_for_selector(".board-box .cell", timeout=60_000)
        # What comes after the board (the engine's first verdict, the panel's lists).
        page.wait_for_timeout(1500)
        cls = page.evaluate("window.__cls")
        assert cls < 0.1, f"cumulative layout shift {cls:.3f} on {route}"
    finally:
        context.close()
