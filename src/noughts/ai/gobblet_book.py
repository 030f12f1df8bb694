"""Gobblet's opening book: the solved table's analysis of every position of the first
`PLIES` plies, shipped with Noughts (about a hundred kilobytes), so that a new
installation knows gobblet's start is x's win in 13 plies, and the exact value of every
opening move, before ``noughts solve gobblet`` has built the table (minutes, 443 MB).

Where the table is missing, the perfect player plays x's moves from it, and past it the
shipped winning strategy (`noughts.ai.gobblet_strategy`, which starts from this book's
moves); o plays by search until the table is built. It shows a value of the book only
where those moves play it to the end (`gobblet_strategy.kept`): the book knows every
opening, the strategy follows only its own first move. The book holds, for each position
(its text), the analysis as the table gives it: every legal move, best first, with its
value in the tables' code (`noughts.ai.exact.code_value`) and, for the best few, the
line that follows. ``noughts solve gobblet --book`` writes it again from the table.
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any

from noughts.ai.base import AIPlayer, Analysis, Limits, MoveInfo
from noughts.ai.exact import code_value, value_code
from noughts.core import State
from noughts.games.gobblet import Gobblet

__all__ = ["BOOK", "PLIES", "analysis", "positions", "write"]

#: The shipped book.
BOOK = Path(__file__).resolve().parent / "books" / "gobblet.json.gz"
#: How deep it goes: every position after at most this many plies from the start.
PLIES = 2


def positions(game: Gobblet, plies: int = PLIES) -> list[State[Any]]:
    """Every position reachable from the start in at most `plies` plies, each once."""
    found: dict[str, State[Any]] = {}
    layer: list[State[Any]] = [game.initial()]
    for depth in range(plies + 1):
        following: list[State[Any]] = []
        for state in layer:
            text = state.to_text()
            if text in found or state.is_over:
                continue
            found[text] = state
            if depth < plies:
                following.extend(state.play(move) for move in state.legal_moves())
        layer = following
    return list(found.values())


def write(player: AIPlayer, game: Gobblet | None = None, path: Path = BOOK, plies: int = PLIES) -> int:
    """Writes the book from the exact `player` (the perfect player, with the table
    built); how many positions it holds."""
    book: dict[str, list[list[Any]]] = {}
    for state in positions(game or Gobblet(), plies):
        found = player.analyze(state, Limits())
        book[state.to_text()] = [
            [info.text, value_code(info.value), *([list(info.line)] if info.line else [])] for info in found.moves
        ]
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same book makes the same bytes, so writing it again shows no change in git.
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(json.dumps(book, separators=(",", ":"), sort_keys=True).encode("utf-8"))
    _read.cache_clear()
    return len(book)


@functools.cache
def _read(path: Path) -> dict[str, list[list[Any]]]:
    if not path.exists():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as data:
        book: dict[str, list[list[Any]]] = json.load(data)
        return book


def analysis(state: State[Any], name: str = "perfect", path: Path = BOOK) -> Analysis | None:
    """The book's analysis of `state` (standard gobblet), None where it has none."""
    if not isinstance(state.game, Gobblet) or state.game != Gobblet():
        return None
    entry = _read(path).get(state.to_text())
    if entry is None:
        return None
    game = state.game
    infos = [
        MoveInfo(game.parse_move(text), text, code_value(code), line=tuple(rest[0]) if rest else ())
        for text, code, *rest in entry
    ]
    return Analysis(name, infos, list(infos[0].line) or [infos[0].text])
