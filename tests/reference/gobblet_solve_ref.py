"""A second, plain solver for gobblet's figure sets, for checking the compiled one: it
sees only the State protocol (legal_moves, play, outcome, turn), explores every position
reachable from the start, and solves the graph with a different algorithm from the
kernels' (which walk back through un-moves with child counters): forward induction by
rounds, where a position is won in d plies when a move reaches a position lost in d - 1,
and lost in d when every move reaches one won in at most d - 1; whatever no round
decides is a draw. No symmetry, no colour swap: each position is keyed by its board and
the player to move, as the rules see it.

Codes as in noughts.ai.solve: 0 a draw, d + 1 a win in d plies, -(d + 1) a loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from noughts.core import Player
from noughts.games.gobblet import Gobblet, GobbletState

Key = tuple[int, Player]


@dataclass
class Solved:
    codes: dict[Key, int]
    #: Positions (board, player to move) reachable from the start, finished ones included.
    positions: int
    terminal: int


def _fresh(state: GobbletState) -> GobbletState:
    # Without its history: the graph's positions are boards and turns, repetition is
    # what makes a draw in the solution, not a property of one node.
    return GobbletState._make(state.game, state.board, state.turn, ())


def solve_by_rules(game: Gobblet) -> Solved:
    start = _fresh(game.initial())
    index: dict[Key, int] = {(start.board, start.turn): 0}
    states = [start]
    children: list[list[int]] = []
    finished: list[int | None] = []
    i = 0
    while i < len(states):
        state = states[i]
        i += 1
        kids: list[int] = []
        children.append(kids)
        if state.outcome is not None:
            # Only lines end a gobblet game here (no history, no repetition).
            finished.append(1 if state.outcome.winner is state.turn else -1)
            continue
        finished.append(None)
        for move in state.legal_moves():
            child = _fresh(state.play(move))
            key = (child.board, child.turn)
            j = index.get(key)
            if j is None:
                j = index[key] = len(states)
                states.append(child)
            kids.append(j)
    codes: list[int | None] = list(finished)
    depth = 0
    while True:
        depth += 1
        changed = []
        for node, kids in enumerate(children):
            if codes[node] is not None:
                continue
            kid_codes = [codes[k] for k in kids]
            if any(c is not None and c < 0 and -c - 1 == depth - 1 for c in kid_codes):
                changed.append((node, depth + 1))
            elif all(c is not None and 0 < c <= depth for c in kid_codes):
                changed.append((node, -(depth + 1)))
        if not changed and all(c is None or abs(c) <= depth for c in codes):
            break
        for node, code in changed:
            codes[node] = code
    return Solved(
        {key: codes[j] or 0 for key, j in index.items()},
        len(states),
        sum(c is not None for c in finished),
    )
