"""Draws the web app's PNG icons from its SVG ones (src/noughts/web/icons/): a phone's
home screen and the install prompt ask for PNGs of given sizes, and the SVGs are the
source. Chromium (Debian's, through Playwright, as the browser tests run it) draws each
at its size; `--check` draws them again and fails when a shipped PNG differs.

    .venv/bin/python tools/app_icons/build.py [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parents[2] / "src" / "noughts" / "web" / "icons"
#: Each PNG shipped: its name, the SVG it is drawn from, and its width and height in pixels.
CHROMIUM = "/usr/bin/chromium"
PNGS = (("icon-192.png", "icon.svg", 192), ("icon-512.png", "icon.svg", 512), ("maskable-512.png", "maskable.svg", 512))


def draw() -> dict[str, bytes]:
    """Each PNG, drawn by Chromium from its SVG on a transparent page."""
    from playwright.sync_api import sync_playwright

    drawn: dict[str, bytes] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            for name, source, size in PNGS:
                page = browser.new_page(viewport={"width": size, "height": size})
                svg = (ICONS / source).read_text()
                page.set_content(
                    f"<style>html,body{{margin:0;background:transparent}}svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
                )
                drawn[name] = page.screenshot(omit_background=True)
                page.close()
        finally:
            browser.close()
    return drawn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail when a shipped PNG is not what its SVG draws")
    args = parser.parse_args(argv)
    drawn = draw()
    if args.check:
        shipped = {name: (ICONS / name).read_bytes() if (ICONS / name).is_file() else None for name in drawn}
        stale = [name for name, data in drawn.items() if shipped[name] != data]
        for name in stale:
            print(f"{name} is not what its SVG draws: run tools/app_icons/build.py", file=sys.stderr)
        return 1 if stale else 0
    for name, data in drawn.items():
        (ICONS / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
