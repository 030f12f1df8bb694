"""Runs pytest beside a fixed CPU load: two busy processes a core, as on a laptop that
is doing other work. `make test-slow` runs a sample of the server and browser tests
this way; they must pass as they do on an idle machine (no verdict may hang on the
machine's speed).

    python tests/under_load.py [pytest arguments]

The exit code is pytest's."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time

#: Busy processes per core.
HOGS_PER_CORE = 2


def _spin() -> None:
    while True:
        pass


def main(arguments: list[str]) -> int:
    cores = os.cpu_count() or 1
    hogs = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(HOGS_PER_CORE * cores)]
    for hog in hogs:
        hog.start()
    print(f"under load: {len(hogs)} busy processes on {cores} cores", flush=True)
    started = time.monotonic()
    try:
        return subprocess.call([sys.executable, "-m", "pytest", *arguments])
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.join(5)
        print(f"under load: done in {time.monotonic() - started:.0f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
