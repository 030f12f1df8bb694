"""Lighthouse scores of the home page, game pages, a review, puzzles, the online lobby and
a profile, as a table for docs/web.md.

    .venv/bin/python bench/lighthouse.py [--url http://127.0.0.1:8000] [--preset desktop] [--only review]

Without --url it starts ``noughts serve --port 0`` and stops it at the end. Lighthouse
(pinned below) runs through ``npx`` with Debian's Chromium (CHROME_PATH=/usr/bin/chromium
unless CHROME_PATH is set); it needs Node.js 18.16 or newer and the npm registry the
first time. Not part of the test suite: the scores depend on the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

LIGHTHOUSE = "lighthouse@12.8.2"  # 13.x needs Node.js 22
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
PAGES = {
    "home": "/#/",
    "ultimate (local, 2 moves)": "/#/play?spec=ultimate&mode=local&moves=55,51",
    "gomoku 15x15 (local, 3 moves)": "/#/play?spec=mnk:m=15:n=15:k=5&mode=local&moves=h8,h9,i8",
    # Computed while Lighthouse loads it on a fresh server (its progress followed), kept after.
    "review (ultimate, 25 plies)": "/#/analysis?spec=ultimate&review=1&tree="
    + "56,63,37,71,12,29,92,26,61,15,51,11,17,78,82,22,21,19,98,81,94,42,24,41,75",
    "puzzles": "/#/puzzles",
    "lobby": "/#/lobby",
    # A house bot's profile: there on every server, with its games once it has played.
    "profile (noughts-easy)": "/#/u/noughts-easy",
}


def start_server() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "noughts.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "http://" in line:
            return process, "http://" + line.split("http://", 1)[1].split()[0]
    raise SystemExit("noughts serve did not start")


def scores(url: str, preset: str | None) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [
            "npx", "--yes", LIGHTHOUSE, url, "--quiet", "--output=json", f"--output-path={report}",
            f"--only-categories={','.join(CATEGORIES)}", "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ]  # fmt: skip
        if preset:
            command.append(f"--preset={preset}")
        env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
        subprocess.run(command, check=True, env=env)
        categories = json.loads(report.read_text())["categories"]
    return {name: round(100 * (categories[name]["score"] or 0)) for name in CATEGORIES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--preset", choices=["desktop"], help="desktop (default: Lighthouse's phone emulation)")
    parser.add_argument("--only", help="only the pages whose name holds this text")
    args = parser.parse_args()
    server = None
    base = args.url
    if base is None:
        server, base = start_server()
    try:
        print(f"| page ({args.preset or 'mobile'}) | " + " | ".join(CATEGORIES) + " |")
        print("|---" * (len(CATEGORIES) + 1) + "|")
        for name, route in PAGES.items():
            if args.only and args.only not in name:
                continue
            result = scores(base.rstrip("/") + route, args.preset)
            print(f"| {name} | " + " | ".join(str(result[c]) for c in CATEGORIES) + " |", flush=True)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
