"""Game clocks: each player's time, counted down while it is their turn, plus an
increment after each of their moves. A clock starts once each player has moved (as
on lichess: until then the game may be aborted), and a player whose time runs out
loses. Times are milliseconds since 1970, so every server process agrees on them.

What is not the player's thinking is not charged to them: time the server itself stood
still (`Pauses`: a stalled process, measured by the process) is given back whole, and
the network's delay is given back up to a quota per player (`Lag`), as lichess does:
the quota grows by a fixed gain each move and pays for the delay measured from the
player's own timestamps (the time they say they spent against the time the server
counted), so a slow connection is compensated and a lying one gains a bounded amount.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

__all__ = [
    "MAX_INCREMENT",
    "MAX_MINUTES",
    "MIN_MINUTES",
    "Clocks",
    "Lag",
    "Pauses",
    "is_running",
    "lag_gain",
    "move_budget",
    "now_ms",
    "read",
]

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


def lag_gain(initial_ms: int, increment_ms: int) -> int:
    """Milliseconds of network delay a player's quota gains each move, by the game's
    expected length (its minutes plus 40 increments), as lichess's `LagTracker`: a
    second for games of three minutes or more, a fifth of one for the shortest.

    >>> lag_gain(300_000, 0), lag_gain(60_000, 0), lag_gain(10_000, 0)
    (1000, 400, 200)
    """
    seconds = (initial_ms + 40 * increment_ms) // 1000
    if seconds >= 180:
        return 1000
    if seconds <= 15:
        return 200
    return seconds * 5 + 100


@dataclass(frozen=True)
class Lag:
    """A player's lag compensation: `quota_ms`, the delay they may still be given back,
    and `estimate_ms`, the delay they were given back lately (a decaying mean), which is
    their grace when the server flags them: a move on its way is not beaten by the flag."""

    quota_ms: int
    estimate_ms: int = 0

    @classmethod
    def start(cls, gain_ms: int) -> Lag:
        """A player's compensation at the start of a game: three moves' gain."""
        return cls(3 * gain_ms)

    def compensate(self, delay_ms: int, gain_ms: int) -> tuple[int, Lag]:
        """The part of a move's measured network delay given back (never more than the
        quota), and the compensation for the next move: the quota less what was given,
        plus the gain, at most seven moves' gain.

        >>> given, after = Lag.start(1000).compensate(400, 1000)
        >>> given, after.quota_ms
        (400, 3600)
        >>> Lag(500).compensate(2000, 1000)[0]
        500
        """
        given = max(0, min(delay_ms, self.quota_ms))
        quota = min(self.quota_ms - given + gain_ms, 7 * gain_ms)
        return given, Lag(quota, round(0.8 * self.estimate_ms + 0.2 * given))

    @property
    def grace_ms(self) -> int:
        return min(self.estimate_ms, self.quota_ms)


class Pauses:
    """When this process stood still (its event loop stalled: a long collection, a
    blocking call, a machine starved of CPU), as spans of wall-clock milliseconds; the
    time a player's clock ran during them is not theirs. Spans older than `keep_ms` are
    dropped: no player thinks that long on a live clock.

    >>> pauses = Pauses()
    >>> pauses.record(1_000, 3_000)
    >>> pauses.within(2_000, 10_000), pauses.within(0, 1_500), pauses.within(4_000, 5_000)
    (1000, 500, 0)
    """

    def __init__(self, keep_ms: int = 3 * 3600 * 1000) -> None:
        self.keep_ms = keep_ms
        self._spans: deque[tuple[int, int]] = deque()

    def record(self, start: int, end: int) -> None:
        """Records a pause from `start` to `end`, recorded in the order they end (a
        span that overlaps earlier ones is merged with them, so no millisecond counts twice)."""
        if end <= start:
            return
        while self._spans and start <= self._spans[-1][1]:
            last_start, last_end = self._spans.pop()
            start, end = min(start, last_start), max(end, last_end)
        self._spans.append((start, end))
        while self._spans and self._spans[0][1] < end - self.keep_ms:
            self._spans.popleft()

    def within(self, start: int, end: int) -> int:
        """Milliseconds of pause between `start` and `end`."""
        return sum(max(0, min(end, b) - max(start, a)) for a, b in self._spans if b > start and a < end)
