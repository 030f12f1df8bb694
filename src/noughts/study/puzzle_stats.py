"""How a set of puzzles is spread: per game, how many, the share of wins in one, how
many of 3, 5 and 7 plies or more, and how often each theme comes up. The rules the
shipped set keeps (tools/puzzles: at most 15% wins in one, every game with puzzles of
3, 5 and 7+ plies) are read off this table, and `noughts puzzles stats` prints it.

>>> from noughts.study.puzzles import Puzzle
>>> spread = spread_by_game([
...     Puzzle("classic", "xx./oo./... x", ["3"], 1, ["win in 1"]),
...     Puzzle("classic", "x../.o./... x", ["9", "5", "3"], 3, ["win in 2", "fork"]),
... ])
>>> spread[0].count, spread[0].one_move_share, spread[0].plies
(2, 0.5, {1: 1, 3: 1, 5: 0, 7: 0})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from noughts.study.puzzles import Puzzle

__all__ = ["LENGTHS", "GameSpread", "spread_by_game"]

#: The lengths counted, in plies: the last counts that many or more.
LENGTHS = (1, 3, 5, 7)


@dataclass
class GameSpread:
    """One game's puzzles: `plies` counts them by length (`LENGTHS`, the last "or
    more"), `themes` by theme, the "win in N" ones left out (`plies` says it)."""

    spec: str
    count: int = 0
    plies: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LENGTHS, 0))
    themes: Counter[str] = field(default_factory=Counter)

    @property
    def one_move_share(self) -> float:
        return self.plies[1] / self.count if self.count else 0.0


def spread_by_game(puzzles: Iterable[Puzzle]) -> list[GameSpread]:
    """Each game's spread, the games with the most puzzles first."""
    games: dict[str, GameSpread] = {}
    for puzzle in puzzles:
        spread = games.setdefault(puzzle.spec, GameSpread(puzzle.spec))
        spread.count += 1
        spread.plies[max(n for n in LENGTHS if n <= puzzle.plies)] += 1
        spread.themes.update(t for t in puzzle.themes if not t.startswith("win in "))
    return sorted(games.values(), key=lambda s: (-s.count, s.spec))
