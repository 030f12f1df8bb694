"""The app served by a real uvicorn (`noughts serve --port 0`) and Debian's Chromium
driven by Playwright. Without /usr/bin/chromium the browser tests skip, saying how to
install it (`make test` installs it on a fresh Debian machine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from server.online.servers import address_line
from web.browsing import DESKTOP, Tab


def serve(env: dict[str, str] | None = None) -> Iterator[str]:
    """A real server on a free port, in its own process, as `noughts serve` runs it, with
    `env` added to its environment; its address while the generator runs."""
    process = subprocess.Popen(
        # The analysis board deepens to 5 s a position while it is open, for as long as a
        # test looks at it: 0.3 s shows the same page, for a sixth of the suite's CPU. One
        # thinking process: each warms the compiled engine up at start (each test process
        # has a server of its own).
        [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "1", "--max-think", "0.3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    assert process.stdout is not None
    line = address_line(process)
    if "http://" not in line:
        process.kill()
        pytest.fail(f"noughts serve did not start: {line}{process.stdout.read()}")
    try:
        yield "http://" + line.split("http://", 1)[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    yield from serve()


def _tab(
    browser: Any,
    base: str,
    viewport: dict[str, int],
    theme: str = "light",
    locale: str | None = None,
    prefs: dict[str, Any] | None = None,
) -> Iterator[Tab]:
    """A page in a fresh context, seeing `base`, its console errors and page errors kept;
    a browser speaking `locale`, with the site's preferences `prefs` already chosen."""
    # No service worker: each context would fetch the app's shell again to keep it
    # (test_offline.py lets it, to play offline).
    context = browser.new_context(viewport=viewport, color_scheme=theme, locale=locale, service_workers="block")
    context.set_default_timeout(20_000)
    if prefs:
        context.add_init_script(f"localStorage.setItem('noughts.prefs', {json.dumps(json.dumps(prefs))})")
    page = context.new_page()
    tab = Tab(page, base)
    page.on("console", lambda message: message.type == "error" and tab.errors.append(message.text))
    page.on("pageerror", lambda error: tab.errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture
def tab(browser: Any, server_url: str) -> Iterator[Tab]:
    yield from _tab(browser, server_url, DESKTOP)


@pytest.fixture
def make_tab(browser: Any, server_url: str) -> Iterator[Any]:
    """Open tabs of other sizes and themes: ``make_tab(PHONE, "dark")``."""
    opened: list[Iterator[Tab]] = []

    def make(viewport: dict[str, int], theme: str = "light") -> Tab:
        gen = _tab(browser, server_url, viewport, theme)
        opened.append(gen)
        return next(gen)

    yield make
    for gen in opened:
        gen.close()
