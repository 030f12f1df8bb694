"""The decision-table player of the seed reports: unbeatable classic tic-tac-toe by rules.

Every line's state is the sum of its cells' weights, 3 for an x, 5 for an o, 0 for an
empty cell, so one number tells the line apart: 6 two x's (and an empty cell), 10 two
o's, 8 one of each (blocked for both), 9 three x's, 15 three o's. The player takes the
first rule that offers a cell:

1. win: complete a line of two of its own;
2. block: the empty cell of a line of two of the opponent's;
3. fork: a cell that makes two lines of two at once;
4. anti-fork: when the opponent could fork, make a two-in-a-line whose blocking cell is
   no fork for the opponent (the opponent must block there), preferring the cell where
   most of the opponent's open lines meet; with no such move, take a fork cell;
5. centre; 6. the corner opposite an opponent's corner; 7. an empty corner; 8. a side.

``analyze`` gives every legal move the estimate ``(9 - rule) / 8``, the rule being the
first of the list above that would pick the move: 1.0 for a win down to 0.125 for a
plain side; `explain` names the rule of every move.
"""

from __future__ import annotations

import random
import time
from typing import Any, cast

from noughts.ai.base import AIPlayer, Analysis, Limits, MoveInfo, Value, register_player, require_moves
from noughts.core import InvalidOptionError, Player, State
from noughts.games.mnk.rules import MnkState

__all__ = ["RULES", "RulesPlayer", "explain"]

#: The rules in order of priority (rule number = index + 1).
RULES = ("win", "block", "fork", "anti-fork", "centre", "opposite corner", "corner", "side")

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_WEIGHT = {Player.X: 3, Player.O: 5}
_NO_LIMITS = Limits()
_CENTRE = 4
_CORNERS = (0, 2, 6, 8)
_OPPOSITE = {0: 8, 2: 6, 6: 2, 8: 0}


def _board(state: State[Any]) -> list[int]:
    """The weight of every cell; raises InvalidOptionError unless `state` is classic."""
    game = state.game
    if game.spec != "classic":  # its table is of tic-tac-toe's nine cells alone
        raise InvalidOptionError(f"the rules player plays classic only (without forget mode), not {game.spec}")
    marks = cast(MnkState, state)
    return [3 if marks.x >> c & 1 else 5 if marks.o >> c & 1 else 0 for c in range(9)]


def _threats(board: list[int], weight: int) -> list[int]:
    """The empty cell of every line holding two marks of weight `weight` (its sum is
    2 * weight: 6 for x, 10 for o; no other mix of two marks and a blank makes it)."""
    return [c for line in _LINES if sum(board[i] for i in line) == 2 * weight for c in line if board[c] == 0]


def _forks(board: list[int], weight: int) -> list[int]:
    """Empty cells where a mark of `weight` makes two threats at once."""
    found = []
    for c in range(9):
        if board[c] == 0:
            board[c] = weight
            if len(set(_threats(board, weight))) >= 2:
                found.append(c)
            board[c] = 0
    return found


def _anti_forks(board: list[int], me: int, them: int) -> list[int]:
    """Cells answering the opponent's fork threat, best first."""
    forcing = []
    for c in range(9):
        if board[c] != 0:
            continue
        board[c] = me
        blocks = set(_threats(board, me))
        # One threat forces one reply; it must not hand the opponent a fork.
        safe = len(blocks) == 1 and all(not _makes_fork(board, b, them) for b in blocks)
        board[c] = 0
        if safe:
            forcing.append(c)
    if not forcing:
        return _forks(board, them)
    return sorted(forcing, key=lambda c: -_open_lines_through(board, c, them))


def _makes_fork(board: list[int], cell: int, weight: int) -> bool:
    board[cell] = weight
    fork = len(set(_threats(board, weight))) >= 2
    board[cell] = 0
    return fork


def _open_lines_through(board: list[int], cell: int, weight: int) -> int:
    """Lines through `cell` holding marks of `weight` only (the opponent's open lines)."""
    count = 0
    for line in _LINES:
        if cell in line:
            marks = {board[i] for i in line} - {0}
            count += marks == {weight}
    return count


def _rule_cells(board: list[int], me: int, them: int) -> list[list[int]]:
    """For every rule in `RULES`, the cells it offers, best first."""
    empty = [c for c in range(9) if board[c] == 0]
    opponent_forks = _forks(board, them)
    return [
        sorted(set(_threats(board, me))),
        sorted(set(_threats(board, them))),
        _forks(board, me),
        _anti_forks(board, me, them) if opponent_forks else [],
        [_CENTRE] if board[_CENTRE] == 0 else [],
        [_OPPOSITE[c] for c in _CORNERS if board[c] == them and board[_OPPOSITE[c]] == 0],
        [c for c in _CORNERS if board[c] == 0],
        [c for c in empty if c not in _CORNERS and c != _CENTRE],
    ]


def explain(state: State[Any]) -> list[tuple[str, str]]:
    """(move text, rule) for every legal move of a classic position, best first.

    >>> from noughts.registry import parse_position
    >>> explain(parse_position("classic", "xx./oo./... x"))[:2]
    [('3', 'win'), ('6', 'block')]
    """
    require_moves(state)
    ranked = _ranked(state, None)
    return [(state.move_text(move), RULES[rule]) for move, rule in ranked]


def _ranked(state: State[Any], rng: random.Random | None) -> list[tuple[int, int]]:
    board = _board(state)
    me, them = _WEIGHT[state.turn], _WEIGHT[state.turn.other]
    rule_of: dict[int, int] = {}
    order: list[int] = []
    for rule, cells in enumerate(_rule_cells(board, me, them)):
        if rng is not None and cells and rule != RULES.index("anti-fork"):
            cells = rng.sample(cells, len(cells))
        for c in cells:
            if c not in rule_of:
                rule_of[c] = rule
                order.append(c)
    return [(c, rule_of[c]) for c in order]


class RulesPlayer(AIPlayer):
    """The decision-table player (see the module docstring). Deterministic: without a
    seed, ties within a rule go to the lowest cell; with one, to a seeded choice."""

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = None if seed is None else random.Random(seed)

    def reset(self) -> None:
        self.rng = None if self.seed is None else random.Random(self.seed)

    def analyze(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        started = time.perf_counter()
        require_moves(state)
        ranked = _ranked(state, self.rng)
        infos = [
            MoveInfo(c, state.move_text(c), Value.estimate((8 - rule) / 8), note=RULES[rule]) for c, rule in ranked
        ]
        return Analysis(self.name, infos, [infos[0].text], 1, len(infos), time.perf_counter() - started)


register_player("rules", RulesPlayer)
