"""The site in the players' languages, in a real browser: a browser that asks for
Chinese gets it (axe-core finding nothing, <html lang> included), the menu's choice is
remembered, and the pseudo-language's longer, accented texts scroll no page sideways on
a phone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from web.browsing import PHONE, Tab, axe_violations

pytestmark = pytest.mark.integration


@contextmanager
def opened(
    browser: Any, base: str, locale: str | None = None, chosen: str | None = None, viewport: Any = PHONE
) -> Iterator[Tab]:
    """A fresh tab whose browser speaks `locale`, with `chosen` already picked in the menu."""
    context = browser.new_context(viewport=viewport, locale=locale)
    if chosen:
        context.add_init_script(f"localStorage.setItem('noughts.prefs', JSON.stringify({{lang: {chosen!r}}}))")
    page = context.new_page()
    tab = Tab(page, base)
    page.on("console", lambda message: message.type == "error" and tab.errors.append(message.text))
    page.on("pageerror", lambda error: tab.errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()


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


def test_longer_texts_scroll_no_page_sideways_on_a_phone(browser: Any, server_url: str) -> None:
    """The pseudo-language (en-XA: every text a third longer and accented, as German's
    and French's run) on the main pages at phone size."""
    with opened(browser, server_url, chosen="en-XA") as tab:
        wide = {}
        for route in PAGES:
            tab.open(route)
            tab.page.locator("#view > *").first.wait_for()
            tab.page.wait_for_load_state("networkidle")
            assert tab.page.evaluate("document.documentElement.lang") == "en-XA"
            over = tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if over > 0:
                wide[route] = over
        assert tab.page.locator("#nav-online").inner_text() != "Play online"
        assert wide == {}
        tab.assert_clean()
