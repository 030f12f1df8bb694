"""`noughts serve` as a separate process, as users run it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def serving(
    database: str, redis: str | None = None, prefix: str | None = None
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Starts `noughts serve --port 0` and yields the process and its address."""
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "1", "--database", database]
    if redis:
        command += ["--redis", redis]
    env = {**os.environ, "NOUGHTS_DATA_DIR": str(Path(database.rpartition("///")[2]).parent)}
    if prefix:
        env["NOUGHTS_REDIS_PREFIX"] = prefix
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://[\d.]+:\d+", line)
        if match is None:
            raise RuntimeError(f"noughts serve did not start: {line}{process.stdout.read()}")
        yield process, match.group(0)
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)
