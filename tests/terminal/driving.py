"""Where the real program is and the fixed environment it runs in under test."""

from __future__ import annotations

import os
import sys
from pathlib import Path

NOUGHTS = str(Path(sys.executable).with_name("noughts"))
COLUMNS, LINES = 100, 50


def terminal_env() -> dict[str, str]:
    """A fixed environment: no colour, a known size, the test run's sources and its
    caches: solved tables, and numba's where it is not beside the sources (compiled by
    the set-up)."""
    numba = {"NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"]} if "NUMBA_CACHE_DIR" in os.environ else {}
    # The sources the test run imports (a work tree's, run with another checkout's venv).
    sources = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}
    return {
        **numba,
        **sources,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "COLUMNS": str(COLUMNS),
        "LINES": str(LINES),
        "LANG": "C.UTF-8",
        "NOUGHTS_CACHE_DIR": os.environ["NOUGHTS_CACHE_DIR"],
    }
