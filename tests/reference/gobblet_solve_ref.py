"""A second method for gobblet's solved table, for checking the compiled solver on a
smaller figure set. It sees only the State protocol (legal_moves, play, outcome, turn)
and the board's 6 bits per cell, and shares no code with the kernels: it walks every
position reachable from the start breadth first, one position per class under the
board's 8 symmetries (its own cell maps), and counts the positions, the classes and the
finished ones; `check` then holds the table to the rules at every reached class.

That check is complete: a finished position's code must say who has the line, every
other's must be the best of its moves' codes (``noughts.ai.solve``'s codes: 0 a draw,
d + 1 a win in d plies, -(d + 1) a loss). By induction on the true distance, a table
that passes at every reachable position is right there: a true win or loss in d plies
has children decided in fewer, which are right, so it is too; and every win or loss the
table claims is realised by the table's own moves, so no draw is mislabelled either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from noughts.core import Player
from noughts.games.gobblet import Gobblet, GobbletState


def _cell_maps() -> list[list[int]]:
    maps = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                cell_map = []
                for cell in range(9):
                    row, col = divmod(cell, 3)
                    if transpose:
                        row, col = col, row
                    cell_map.append(3 * (2 - row if flip_rows else row) + (2 - col if flip_cols else col))
                maps.append(cell_map)
    return maps


_MAPS = _cell_maps()


def images(board: int) -> set[int]:
    """The board under the 8 symmetries (each cell's 6 bits moved to its image)."""
    cells = [board >> 6 * c & 63 for c in range(9)]
    return {sum(v << 6 * m[c] for c, v in enumerate(cells)) for m in _MAPS}


def colour_swapped(board: int) -> int:
    """The same figures with the colours exchanged (x's 3 bits and o's in each cell)."""
    out = 0
    for c in range(9):
        v = board >> 6 * c & 63
        out |= ((v & 7) << 3 | v >> 3) << 6 * c
    return out


@dataclass
class Reached:
    #: One state per reached class under the symmetries (and the player to move).
    states: list[GobbletState]
    #: Positions, classes under the symmetries (with the player to move), classes under
    #: symmetry and colour; the same for the finished ones.
    positions: int
    symmetric_positions: int
    classes: int
    terminal_positions: int
    terminal_symmetric_positions: int
    terminal_classes: int


def _fresh(state: GobbletState) -> GobbletState:
    # Without its history: repetition belongs to a game, not to a position.
    return GobbletState._make(state.game, state.board, state.turn, ())


def reach(game: Gobblet) -> Reached:
    """Every position reachable from the start, one per class under the symmetries."""
    start = _fresh(game.initial())
    seen = {(min(images(start.board)), start.turn)}
    states = [start]
    i = 0
    while i < len(states):
        state = states[i]
        i += 1
        if state.outcome is not None:
            continue
        for move in state.legal_moves():
            child = _fresh(state.play(move))
            key = (min(images(child.board)), child.turn)
            if key not in seen:
                seen.add(key)
                states.append(child)
    positions = terminal = terminal_positions = 0
    colourless: set[int] = set()
    terminal_colourless: set[int] = set()
    for state in states:
        orbit = len(images(state.board))
        positions += orbit
        mover_first = state.board if state.turn is Player.X else colour_swapped(state.board)
        key = min(images(mover_first))
        colourless.add(key)
        if state.outcome is not None:
            terminal += 1
            terminal_positions += orbit
            terminal_colourless.add(key)
    return Reached(
        states, positions, len(states), len(colourless), terminal_positions, terminal, len(terminal_colourless)
    )


def check(reached: Reached, code: Callable[[GobbletState], int]) -> list[str]:
    """The positions where `code` (the table) disagrees with the rules; none if right."""
    wrong = []
    for state in reached.states:
        if state.outcome is not None:
            expected = 1 if state.outcome.winner is state.turn else -1
        else:
            expected = max((_negate(code(_fresh(state.play(m)))) for m in state.legal_moves()), key=_rank)
        if code(state) != expected:
            wrong.append(state.to_text())
    return wrong


def _negate(code: int) -> int:
    return -code - 1 if code > 0 else -code + 1 if code < 0 else 0


def _rank(code: int) -> int:
    return (1 << 20) - code if code > 0 else 0 if code == 0 else -(1 << 20) - code
