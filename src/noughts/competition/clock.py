"""Game clocks: each player's time, counted down while it is their turn, plus an
increment after each of their moves. A clock starts once each player has moved (as
on lichess: until then the game may be aborted), and a player whose time runs out
loses. Times are milliseconds since 1970, so every server process agrees on them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["MAX_INCREMENT", "MAX_MINUTES", "MIN_MINUTES", "Clocks", "is_running", "move_budget", "now_ms", "read"]

#: Limits on a room's clock: minutes per player and increment in seconds. The least
#: clock is 0.6 s (a bullet game's clocks are minutes; a tiny one, 1e-320 minutes,
#: made a game of 0 ms clocks).
MIN_MINUTES = 0.01
MAX_MINUTES = 180
MAX_INCREMENT = 180


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Clocks:
    """The two players' remaining times at one moment, and whose clock is running."""

    x_ms: int
    o_ms: int
    running: str | None

    def left(self, side: str) -> int:
        return self.x_ms if side == "x" else self.o_ms


def is_running(has_clock: bool, playing: bool, ply: int) -> bool:
    """A clock runs while the game goes on, from the third ply (both have moved)."""
    return has_clock and playing and ply >= 2


def read(x_ms: int, o_ms: int, turn: str, running: bool, started_at: int | None, now: int) -> Clocks:
    """The clocks at `now`: the running one has lost the time since `started_at`."""
    if not running or started_at is None:
        return Clocks(x_ms, o_ms, None)
    spent = max(0, now - started_at)
    if turn == "x":
        return Clocks(x_ms - spent, o_ms, "x")
    return Clocks(x_ms, o_ms - spent, "o")


def move_budget(left_ms: int, increment_ms: int) -> float:
    """Seconds a computer player takes for a move with `left_ms` on its clock: a 25th of
    what is left plus most of the increment, so that it never flags (the house bots and
    `noughts bot`'s programs alike)."""
    return max(0.05, left_ms / 1000 / 25 + 0.6 * increment_ms / 1000)
