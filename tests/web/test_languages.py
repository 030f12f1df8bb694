"""The site in the players' languages, in a real browser: a browser that asks for
Chinese gets it (axe-core finding nothing, <html lang> included), the menu's choice is
remembered, and the pseudo-language's longer, accented texts scroll no page sideways on
a phone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from web.browsing import DESKTOP, PHONE, Tab, axe_violations
from web.conftest import _tab

pytestmark = pytest.mark.integration


@contextmanager
def opened(
    browser: Any, base: str, locale: str | None = None, chosen: str | None = None, viewport: Any = PHONE
) -> Iterator[Tab]:
    """A fresh tab whose browser speaks `locale`, with `chosen` already picked in the menu."""
    yield from _tab(browser, base, viewport, locale=locale, prefs={"lang": chosen} if chosen else None)


def test_a_browser_asking_for_chinese_gets_the_site_in_chinese(browser: Any, server_url: str) -> None:
    with opened(browser, server_url, locale="zh-CN") as tab:
        tab.open("#/play?spec=classic&mode=computer&level=easy&side=x")
        page = tab.page
        page.locator("#status").filter(has_text="轮到你走").wait_for()
        assert page.evaluate("document.documentElement.lang") == "zh"
        assert page.locator("#nav-online").inner_text() == "在线对弈"
        assert page.title() == "Tic-tac-toe · Noughts"
        assert page.locator("#undo").get_attribute("title") == "悔棋（u）"
        assert axe_violations(page) == []
        tab.assert_clean()


def test_the_language_chosen_in_the_menu_is_remembered(browser: Any, server_url: str) -> None:
    with opened(browser, server_url, locale="en-GB") as tab:
        tab.open("#/")
        page = tab.page
        page.locator("#lobby-title").filter(has_text="Play now").wait_for()
        page.click("#menu-toggle")  # on a phone the menu holds the switches
        with page.expect_navigation():
            page.select_option("#lang-select", "zh")
        page.locator("#lobby-title").filter(has_text="现在就下").wait_for()
        page.reload()
        page.locator("#lobby-title").filter(has_text="现在就下").wait_for()
        assert page.evaluate("document.documentElement.lang") == "zh"
        assert page.locator("#lang-select").input_value() == "zh"
        tab.assert_clean()


PAGES = ["#/", "#/play?spec=ultimate&mode=local", "#/lobby", "#/rules", "#/leaderboard", "#/login"]
# What overflows where a text is too long for its box: the page sideways, the header
# (its links under the account), a panel or its row of buttons.
OVERFLOWS = """() => [document.documentElement, ...document.querySelectorAll('.topbar, .site-menu, .panel, .actions')]
  .filter((el) => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.className || el.tagName}: ${el.scrollWidth - el.clientWidth}px`)"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_longer_texts_overflow_nothing(browser: Any, server_url: str, viewport: dict[str, int]) -> None:
    """The pseudo-language (en-XA: every text a third longer and accented, as German's
    and French's run) on the main pages, at phone and desktop sizes."""
    with opened(browser, server_url, chosen="en-XA", viewport=viewport) as tab:
        wide = {}
        for route in PAGES:
            tab.open(route)
            tab.page.locator("#view > *").first.wait_for()
            tab.page.wait_for_load_state("networkidle")
            assert tab.page.evaluate("document.documentElement.lang") == "en-XA"
            over = tab.page.evaluate(OVERFLOWS)
            if over:
                wide[route] = over
        assert tab.page.locator("#nav-online").inner_text() != "Play online"
        assert wide == {}
        tab.assert_clean()
