"""Ultimate's learned evaluation: its features as its docstring states them (a second
implementation in plain Python, from the position's text), the same value for the eight
images of a position, and the shipped weights."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from noughts import State, parse_position
from noughts.games.geometry import board_symmetries
from noughts.kernels import learned
from noughts.kernels.games import encode

from support import playout

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
PLACE = [0, 1, 0, 1, 2, 1, 0, 1, 0]  # corner, edge, centre


def positions(count: int) -> list[State[Any]]:
    """Unfinished positions of seeded random games, from the start to the end."""
    found: list[State[Any]] = []
    seed = 0
    while len(found) < count:
        found += [state for state, move in playout("ultimate", seed) if move is not None][::5]
        seed += 1
    return found[:count]


def shared_weights(seed: int) -> np.ndarray[Any, Any]:
    _, n = learned.feature_classes()
    return np.random.default_rng(seed).normal(0, 0.5, n)


def boards(state: State[Any]) -> tuple[list[list[str]], str, int | None]:
    """The marks of each board (row by row), the mover, the board it must play in."""
    text = state.to_text()
    grid, mover, forced = text.split(" ")
    return [list(rows) for rows in grid.split("/")], mover, None if forced == "-" else int(forced) - 1


def has_line(cells: list[str], mark: str) -> bool:
    return any(all(cells[c] == mark for c in line) for line in LINES)


def can_win(cells: list[str], mark: str) -> bool:
    return any(cells[c] == "." and has_line([*cells[:c], mark, *cells[c + 1 :]], mark) for c in range(9))


def expected_value(state: State[Any], shared: np.ndarray[Any, Any]) -> float:
    """The value, computed from the docstring's description: a feature's weight is
    found by building the expanded index of each feature (the module's layout) and
    mapping it through the classes, the one thing taken from the module."""
    classes, _ = learned.feature_classes()
    grid, mover, forced = boards(state)
    other = "o" if mover == "x" else "x"
    status = []
    for cells in grid:
        if has_line(cells, mover):
            status.append(0)
        elif has_line(cells, other):
            status.append(1)
        elif "." not in cells:
            status.append(2)
        else:
            status.append(3 + can_win(cells, mover) + 2 * can_win(cells, other))
    indices = []
    for b, cells in enumerate(grid):
        if status[b] < 3:
            indices.append(learned._CLOSED + PLACE[b] * 3 + status[b])
        else:
            pattern = sum(3**i * {".": 0, mover: 1, other: 2}[c] for i, c in enumerate(cells))
            indices.append(b * 3**9 + pattern)
    for number, line in enumerate(LINES):
        kind = [0, 1, 0, 0, 1, 0, 2, 2][number]
        indices.append(
            learned._LINE + kind * learned._MULTISETS + learned._MULTISET[tuple(sorted(status[b] for b in line))]
        )
    if forced is None:
        indices.append(learned._FREE)
    else:
        won = [status[b] == 0 for b in range(9)]
        wins_game = any(forced in line and all(won[b] or b == forced for b in line) for line in LINES)
        indices.append(learned._SENT + PLACE[forced] * 14 + status[forced] * 2 + wins_game)
    indices.append(learned._MOVER + (0 if mover == "x" else 1))
    z = sum(shared[classes[i]] for i in indices)
    return 2 / (1 + math.exp(-z)) - 1


def value(state: State[Any], weights: np.ndarray[Any, Any]) -> float:
    return float(learned.value(encode(state), weights, np.empty(learned.SCRATCH, dtype=np.int64)))


def test_the_value_is_the_logistic_of_the_features_the_docstring_describes() -> None:
    shared = shared_weights(1)
    weights = learned.expand(shared)
    for state in positions(150):
        assert value(state, weights) == pytest.approx(expected_value(state, shared), abs=1e-12), state.to_text()


def image(state: State[Any], symmetry: list[int]) -> State[Any]:
    """The position with boards and cells both moved by `symmetry` (cell -> image)."""
    grid, mover, forced = boards(state)
    moved = [["."] * 9 for _ in range(9)]
    for b in range(9):
        for c in range(9):
            moved[symmetry[b]][symmetry[c]] = grid[b][c]
    where = "-" if forced is None else str(symmetry[forced] + 1)
    return parse_position("ultimate", "/".join("".join(cells) for cells in moved) + f" {mover} {where}")


def test_every_image_of_a_position_has_its_value() -> None:
    weights = learned.expand(shared_weights(2))
    for state in positions(60):
        values = {round(value(image(state, symmetry), weights), 12) for symmetry in board_symmetries(3, 3)}
        assert len(values) == 1, (state.to_text(), values)


def test_features_one_symmetry_apart_share_a_class_and_no_others() -> None:
    classes, n = learned.feature_classes()
    assert classes.shape == (learned.FEATURES,) and set(np.unique(classes)) == set(range(n))
    # The empty corner, edge and centre boards: three classes, one per place.
    empty = {int(classes[b * 3**9]) for b in range(9)}
    assert len(empty) == 3
    # A lone mark in a corner cell of a corner board: the board's own corner (cell 0 of
    # board 0, cell 2 of board 2...) is one class; the far corner another.
    own = {int(classes[b * 3**9 + 3**b]) for b in (0, 2, 6, 8)}
    far = {int(classes[b * 3**9 + 3 ** (8 - b)]) for b in (0, 2, 6, 8)}
    assert len(own) == 1 and len(far) == 1 and own != far


def test_the_shipped_weights_favour_the_side_about_to_win() -> None:
    weights = learned.weights()
    assert weights.shape == (learned.FEATURES,) and np.isfinite(weights).all()
    # x has won the top-left and top boards and, sent to the top-right one, wins it and
    # the game at once.
    x_to_win = parse_position(
        "ultimate", "xxx....../xxx....../xx......./oo......./oo......./oo......./o.o....../........./......... x 3"
    )
    assert value(x_to_win, weights) > 0.5


def test_expand_refuses_weights_of_another_length() -> None:
    with pytest.raises(ValueError, match="weights up to symmetry are"):
        learned.expand(np.zeros(3))


def test_the_tree_keeps_the_minimax_of_the_static_values() -> None:
    """After a search with implicit minimax, every node with children holds minus the
    best of its children's values (a proven child's proof, else its own), and every
    node without children the static value of its position for the player who moved
    into it; each block of children is sorted best first by static value."""
    from noughts.kernels import tree
    from noughts.kernels.games import play
    from noughts.kernels.layout import ULTIMATE
    from noughts.kernels.rng import new_rng

    weights = learned.weights()
    scratch = np.empty(learned.SCRATCH, dtype=np.int64)
    for state in positions(4):  # plies 0, 5, 10, 15 of a random game: far from a proof
        root = encode(state)
        links, info = tree.new_tree(20_000)
        used = np.array([1], dtype=np.int64)
        tree.search(ULTIMATE, root, links, info, used, 3000, 0.0, 1.0, True, new_rng(7), True, 0, 0.3, weights)
        checked = 0
        stack = [(0, root)]
        while stack:
            node, st = stack.pop()
            first = links[node, tree.FIRST]
            if first < 0:
                if node and st[23] == 0:
                    expected = -learned.value(st, weights, scratch)
                    assert links[node, tree.MINIMAX] == round(expected * tree.MM_UNIT)
                continue
            values = []
            static = []
            ends = False
            for child in range(first, first + info[node, tree.LEGAL]):
                after = st.copy()
                play(ULTIMATE, after, np.int64(info[child, tree.MOVE]))
                proof = info[child, tree.PROOF]
                own = links[child, tree.MINIMAX]
                proven = {tree.WIN: -1, tree.LOSS: 1}.get(proof, 0) * tree.MM_UNIT
                values.append(own if proof == tree.UNPROVEN else proven)
                if after[23] == 0:
                    static.append(round(-learned.value(after, weights, scratch) * tree.MM_UNIT))
                ends = ends or after[23] != 0
                stack.append((child, after))
            assert links[node, tree.MINIMAX] == -max(values)
            if not ends:
                assert static == sorted(static, reverse=True)
            checked += 1
        assert checked > 50
