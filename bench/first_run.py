"""A new user's first minutes, timed: from `make run` on a fresh clone (an empty numba
cache, no .venv) to the address, then to each game's first `max` move in the browser's
API, and the same moves again on the warm server for comparison.

    .venv/bin/python bench/first_run.py [--repo .] [--keep]

It clones the committed HEAD of `--repo` into a temporary folder, runs ``make run
SERVE_ARGS='--port 0'`` there with an empty ``NUMBA_CACHE_DIR`` and data folder, and
asks ``POST /api/computer`` for `max`'s first move in every game (from the empty board,
or after one move when the computer is O) as soon as the address is printed. The pip
downloads come from pip's cache when it has them, as on a machine that installed
Python packages before.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

#: One game of each kind, as the home page offers them, with the moves before the
#: computer's first one.
GAMES = [
    ("classic", []),
    ("mnk:m=15:n=15:k=5", ["h8"]),
    ("nine-board", []),
    ("ultimate", ["55"]),
    ("qubic", []),
    ("matryoshka", []),
    ("gobblet", []),
]


def ask(address: str, spec: str, moves: list[str]) -> tuple[float, str]:
    """Seconds until `max`'s move came back, and the move (or the error)."""
    body = json.dumps({"spec": spec, "moves": moves, "level": "max"}).encode()
    request = urllib.request.Request(f"{address}/api/computer", body, {"Content-Type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            move = json.loads(response.read())["move"]
    except urllib.error.HTTPError as e:
        move = f"error {e.code}: {e.read().decode()[:80]}"
    return time.perf_counter() - started, move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=".", help="the repository to clone (its HEAD)")
    parser.add_argument("--keep", action="store_true", help="keep the clone (printed) instead of deleting it")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="noughts-first-run-"))
    clone = work / "noughts"
    subprocess.run(["git", "clone", "-q", str(Path(args.repo).resolve()), str(clone)], check=True)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(work / "numba-cache"),
        "NOUGHTS_DATA_DIR": str(work / "data"),
        "NOUGHTS_CACHE_DIR": str(work / "cache"),
        "PYTHONUNBUFFERED": "1",
    }
    started = time.perf_counter()
    server = subprocess.Popen(
        ["make", "run", "SERVE_ARGS=--port 0"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert server.stdout is not None
    marks: dict[str, float] = {}
    address = ""
    try:
        for line in server.stdout:
            now = time.perf_counter() - started
            packages = "set-up: venv and packages"
            if "noughts prepare" in line and packages not in marks:  # make echoes the command
                marks[packages] = now
            if "http://" in line:
                marks["set-up: compiling the fast engine"] = now - marks.get(packages, 0.0)
                marks["make run to the address"] = now
                address = "http://" + line.split("http://", 1)[1].split()[0]
                break
        if not address:
            raise SystemExit("make run did not print an address")
        print(f"fresh clone of {args.repo} in {clone}, empty numba cache")
        for what, seconds in marks.items():
            print(f"  {what:<40} {seconds:7.1f} s")
        print(f"\n  {'first max move':<22} {'cold server':>12} {'warm server':>12}   move")
        for spec, moves in GAMES:
            cold, move = ask(address, spec, moves)
            warm, _ = ask(address, spec, moves)
            print(f"  {spec:<22} {cold:10.1f} s {warm:10.1f} s   {move}")
        print(f"\n  make run to the last first move: {time.perf_counter() - started:.1f} s")
    finally:
        os.killpg(server.pid, 15)
        server.wait(30)
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
