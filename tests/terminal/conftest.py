"""Driving the real ``noughts`` program through a pseudo-terminal, as a person would."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest

from terminal.driving import COLUMNS, LINES, NOUGHTS, terminal_env

Spawn = Callable[..., pexpect.spawn]


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    """``spawn("play", "classic", ...)`` starts noughts in `tmp_path` on a pseudo-terminal;
    every child still running at the end of the test is closed."""
    children: list[pexpect.spawn] = []

    def start(*args: str, timeout: float = 60) -> pexpect.spawn:
        child = pexpect.spawn(
            NOUGHTS,
            list(args),
            cwd=str(tmp_path),
            env=terminal_env(),
            encoding="utf-8",
            timeout=timeout,
            dimensions=(LINES, COLUMNS),
        )
        children.append(child)
        return child

    yield start
    for child in children:
        child.close(force=True)
