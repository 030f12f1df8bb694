"""Matryoshka solved: a shipped book of the opening's exact values, and an exact search
past it.

Matryoshka (placement only, at most 12 plies) has too many positions for a table built
on first use (over 25 million within the first 7 plies), and a plain search of the
start takes seconds, so exactness on a new installation comes from two parts:

* the book (``books/matryoshka.npz``): the exact value code (`noughts.ai.exact`'s codes,
  for the side to move) of every reachable unfinished position of the first `BOOK_PLIES`
  plies, one entry per class up to the board's 8 symmetries, keyed from the mover's side
  (`position_key`). ``tools/matryoshka_book`` builds it; `check_book` proves it again.
* `ExactSearch`: alpha-beta with distance-to-end scores and a table of proven bounds,
  for the positions past the book, where a few plies remain.

A position of the book is a look-up; one just past it needs the search of its children,
which is what bounds the time of a full analysis (the figures: docs/strength.md).
The smaller figure sets (``matryoshka:copies=1``) have no book: the search alone solves
them at once.
"""

from __future__ import annotations

import array
import bisect
import functools
import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from noughts.ai.base import Deadline, Kind, Value
from noughts.ai.exact import code_value, outcome_value, read_npz, value_code
from noughts.core import Player
from noughts.games.geometry import board_symmetries
from noughts.games.gobblet import Gobblet, GobbletState

__all__ = [
    "BOOK",
    "BOOK_PLIES",
    "Book",
    "BookCheck",
    "ExactSearch",
    "OutOfTimeError",
    "best_code",
    "book",
    "check_book",
    "classes",
    "position_key",
    "state_key",
]

#: The shipped book.
BOOK = Path(__file__).resolve().parent / "books" / "matryoshka.npz"
#: The book holds every unfinished position of at most this many plies.
BOOK_PLIES = 5

_CELLS = 9
_LINES = (7, 56, 448, 73, 146, 292, 273, 84)
# Per 6-bit cell value (bit 3 * side + size - 1): the top figure's size (0: empty), side.
_TOP_SIZE = tuple(((v | v >> 3) & 7).bit_length() for v in range(64))
_TOP_SIDE = tuple(-1 if not _TOP_SIZE[v] else 1 - (v >> (_TOP_SIZE[v] - 1) & 1) for v in range(64))
# All nine cells' bits of one (side, size): how many such figures are on the board.
_ON_BOARD = {
    (side, size): sum(1 << (6 * c + 3 * side + size - 1) for c in range(9)) for side in (0, 1) for size in (1, 2, 3)
}
_W = 100  # a win in d plies scores _W - d, a loss -(_W - d)


def _cell_maps() -> list[list[int]]:
    """The 8 symmetries of the 3x3 board as cell maps (the identity first)."""
    return board_symmetries(3, 3)


# Per symmetry, every 9-bit mask's image.
_IMAGES = [[sum(1 << m[c] for c in range(_CELLS) if mask >> c & 1) for mask in range(512)] for m in _cell_maps()]
# Per 6-bit cell value: the bit of the key's 54 that each of its figures sets, for a cell
# in column 0 and the mover x (index 0) or o (index 1); a cell shifts them by its number.
_FIGURE_BITS = [
    [sum(1 << (18 * (bit % 3) + 9 * ((bit // 3) ^ mover)) for bit in range(6) if v >> bit & 1) for v in range(64)]
    for mover in (0, 1)
]


def position_key(board: int, mover: int) -> int:
    """The key of a position's class: per size (small in the low bits) the mover's cells
    and, 9 bits higher, the opponent's, as 18 bits; the least over the 8 symmetries.
    `board` is `GobbletState.board`, `mover` 0 for x, 1 for o."""
    bits = _FIGURE_BITS[mover]
    raw = 0
    for cell in range(_CELLS):
        raw |= bits[board >> 6 * cell & 63] << cell
    masks = [raw >> 9 * i & 511 for i in range(6)]
    best = -1
    for image in _IMAGES:
        key = 0
        for i in range(5, -1, -1):
            key = key << 9 | image[masks[i]]
        if best < 0 or key < best:
            best = key
    return best


# -- the exact search ----------------------------------------------------------------


class OutOfTimeError(Exception):
    """The search's deadline passed before it proved the value."""


def _score_value(score: int) -> Value:
    return Value.win(_W - score) if score > 0 else Value.loss(_W + score) if score < 0 else Value.draw()


def _value_score(value: Value) -> int:
    plies = value.plies or 0
    return _W - plies if value.kind is Kind.WIN else -(_W - plies) if value.kind is Kind.LOSS else 0


def _child_bound(bound: int) -> int:
    """The child's score that gives the parent `bound` (the inverse of `_parent_score`)."""
    return -bound - 1 if bound > 0 else 1 - bound if bound < 0 else 0


def _parent_score(score: int) -> int:
    return -score + 1 if score > 0 else -score - 1 if score < 0 else 0


class ExactSearch:
    """Alpha-beta over matryoshka boards (the `GobbletState.board` encoding: 6 bits per
    cell, bit ``6 * cell + 3 * side + size - 1``) with exact distance scores and a table
    of proven bounds kept between calls (cleared past `MAX_BOUNDS` entries, about a
    hundred bytes each, so that a long-lived player stays within tens of megabytes).

    Positions of the published figure set within the book are looked up there."""

    MAX_BOUNDS = 500_000

    def __init__(self, use_book: bool = True) -> None:
        self.bounds: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        self.deadline = Deadline(None)
        self.use_book = use_book
        self._sizes: tuple[int, ...] = (3, 2, 1)
        self._copies = 2

    def value(self, state: GobbletState, deadline: Deadline | None = None) -> Value:
        """The exact value of `state` for the player to move; OutOfTimeError when
        `deadline` passes first (the bounds proven so far are kept)."""
        if state.is_over:
            return outcome_value(state)
        game = state.game
        mover = 0 if state.turn is Player.X else 1
        if self.use_book and game == _PUBLISHED and state.board.bit_count() <= BOOK_PLIES:
            code = book().code(state.board, mover)
            if code is not None:
                return code_value(code)
        self.deadline = deadline or Deadline(None)
        if (self._sizes, self._copies) != (tuple(range(game.sizes, 0, -1)), game.copies):
            self._sizes, self._copies = tuple(range(game.sizes, 0, -1)), game.copies
            self.bounds.clear()  # keys do not say which figure set they belong to
        if len(self.bounds) > self.MAX_BOUNDS:
            self.bounds.clear()
        return _score_value(self._search(state.board, mover, -_W - 1, _W + 1))

    def line(self, state: GobbletState, deadline: Deadline | None = None) -> list[str]:
        """Best play from `state` to the end (the quickest win, the slowest loss): at
        each ply the first legal move that keeps the position's value, the move an
        analysis lists first. Each move is found by testing the children, in order,
        against the one score that keeps the value (a null window each), which costs
        far less than valuing every child exactly."""
        texts: list[str] = []
        while not state.is_over:
            target = self.value(state, deadline)
            for move in state.legal_moves():
                child = state.play(move)
                if self._keeps(child, target):
                    texts.append(state.move_text(move))
                    state = child
                    break
            else:  # pragma: no cover - a position's value is one of its moves'
                raise AssertionError(f"no move of {state.to_text()} keeps its value {target}")
        return texts

    def _keeps(self, child: GobbletState, target: Value) -> bool:
        """Whether moving into `child` keeps the mover's `target`."""
        if child.is_over or (self.use_book and child.game == _PUBLISHED and child.board.bit_count() <= BOOK_PLIES):
            return self.value(child, self.deadline).negated() == target
        needed = _child_bound(_value_score(target))
        mover = 0 if child.turn is Player.X else 1
        return self._search(child.board, mover, needed - 1, needed + 1) == needed

    def _search(self, board: int, side: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023 and self.deadline.expired():
            raise OutOfTimeError
        key = board << 1 | side
        low, high = self.bounds.get(key, (-_W, _W))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        first_alpha, first_beta = alpha, beta
        cells = _CELL_PAIRS
        masks = (
            cells[board & 4095]
            | cells[board >> 12 & 4095] << 2
            | cells[board >> 24 & 4095] << 4
            | cells[board >> 36 & 4095] << 6
            | _LAST_CELL[board >> 48 & 63]
        )
        wins = _WIN_CELLS[masks >> 9 * side & 511]
        children = []
        for size in self._sizes:
            if (board & _ON_BOARD[side, size]).bit_count() < self._copies:
                free = masks >> 9 * (size + 1) & 511  # cells whose top is smaller
                if free & wins:
                    self.bounds[key] = (_W - 1, _W - 1)
                    return _W - 1
                shift = 3 * side + size - 1
                while free:
                    cell = (free & -free).bit_length() - 1
                    free &= free - 1
                    children.append(board | 1 << (6 * cell + shift))
        if not children:
            return 0  # no figure in hand fits anywhere: stalemate, a draw
        best = -_W - 1
        for child in children:
            score = _parent_score(self._search(child, side ^ 1, _child_bound(beta), _child_bound(alpha)))
            if score > best:
                best = score
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        if best <= first_alpha:
            self.bounds[key] = (low, best)
        elif best >= first_beta:
            self.bounds[key] = (best, high)
        else:
            self.bounds[key] = (best, best)
        return best


def _cell_masks(v: int, cell: int) -> int:
    """A cell's part of the search's masks: x's top (bit `cell`), o's top (9 higher),
    then, 9 apart, whether a small, a medium and a large figure may cover it."""
    size = _TOP_SIZE[v]
    bits = 0
    if size:
        bits |= 1 << (cell + 9 * _TOP_SIDE[v])
    for s in (1, 2, 3):
        if size < s:
            bits |= 1 << (cell + 9 * (s + 1))
    return bits


# The masks of two cells at once (12 bits of the board) and of the last cell alone: five
# look-ups a node instead of a loop over the nine cells.
_CELL_PAIRS = [_cell_masks(u & 63, 0) | _cell_masks(u >> 6, 1) for u in range(4096)]
_LAST_CELL = [_cell_masks(v, 8) for v in range(64)]
# Per mask of a player's tops: the cells where one more figure makes a line.
_WIN_CELLS = [sum(1 << c for c in range(9) if any((m | 1 << c) & line == line for line in _LINES)) for m in range(512)]


_PUBLISHED = Gobblet(moves=False)


# -- the book ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Book:
    """The exact value codes of the opening's classes: `keys` (`position_key`, sorted)
    and their `codes`, looked up by bisection (reading the file is then a
    decompression, with no table to build). Plain arrays, not numpy's: the core runs
    without numpy (the tool that builds the book has it)."""

    plies: int
    keys: array.array[int]
    codes: array.array[int]

    @classmethod
    def from_codes(cls, plies: int, codes: Mapping[int, int]) -> Book:
        keys = sorted(codes)
        return cls(plies, array.array("Q", keys), array.array("b", (codes[k] for k in keys)))

    def as_dict(self) -> dict[int, int]:
        return dict(zip(self.keys, self.codes, strict=True))

    def __len__(self) -> int:
        return len(self.keys)

    def code_of(self, key: int) -> int | None:
        """The value code of the class `key` for its mover, None if it is not in the book."""
        i = bisect.bisect_left(self.keys, key)
        return self.codes[i] if i < len(self.keys) and self.keys[i] == key else None

    def code(self, board: int, mover: int) -> int | None:
        """The value code of the position for its mover, None if it is not in the book."""
        return self.code_of(position_key(board, mover))

    @classmethod
    def read(cls, path: Path = BOOK) -> Book:
        plies, gaps, codes = read_npz(path, ("plies", "gaps", "codes"))
        return cls(plies[0], array.array("Q", itertools.accumulate(gaps)), codes)

    def write(self, path: Path) -> None:
        """Keys as the gaps between them: they compress to a fraction of the keys (numpy's
        .npz, which `read` reads without numpy)."""
        import numpy as np

        keys = np.array(self.keys, dtype=np.uint64)
        gaps = np.diff(keys, prepend=np.uint64(0))
        with path.open("wb") as out:
            np.savez_compressed(out, plies=np.int64(self.plies), gaps=gaps, codes=np.array(self.codes, dtype=np.int8))


@functools.cache
def book() -> Book:
    """The shipped book, read once per process (a few hundredths of a second)."""
    return Book.read()


# -- the positions of the opening, and the book's checker ------------------------------


def classes(plies: int) -> Iterator[dict[int, GobbletState]]:
    """Per ply from 0 to `plies`: every reachable unfinished position of the published
    game, one per class (`position_key`), as {key: position}."""
    layer = {position_key(0, 0): _PUBLISHED.initial()}
    for ply in range(plies + 1):
        yield layer
        if ply == plies:
            return
        following: dict[int, GobbletState] = {}
        for state in layer.values():
            for move in state.legal_moves():
                child = state.play(move)
                if not child.is_over:
                    following.setdefault(state_key(child), child)
        layer = following


def _mover(state: GobbletState) -> int:
    return 0 if state.turn is Player.X else 1


def state_key(state: GobbletState) -> int:
    """`position_key` of a state."""
    return position_key(state.board, _mover(state))


def _negate(code: int) -> int:
    """The code of a move into a position of value `code` (seen by its mover)."""
    return -code - 1 if code > 0 else -code + 1 if code < 0 else 0


def _rank(code: int) -> int:
    """Larger is better for the mover: quick wins, draws, slow losses."""
    return (1 << 20) - code if code > 0 else 0 if code == 0 else -(1 << 20) - code


def best_code(state: GobbletState, child_code: Callable[[GobbletState], int]) -> int:
    """The code of `state` from its children's: `child_code(child)` for an unfinished
    child; a finished one reads its outcome."""
    best: int | None = None
    for move in state.legal_moves():
        child = state.play(move)
        code = value_code(outcome_value(child)) if child.is_over else child_code(child)
        mine = _negate(code)
        if best is None or _rank(mine) > _rank(best):
            best = mine
    assert best is not None, "an unfinished position has a move"
    return best


@dataclass(frozen=True)
class BookCheck:
    """What `check_book` found: the positions checked per ply, how many of them were
    searched, and every disagreement."""

    checked: tuple[int, ...]
    searched: int
    wrong: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.wrong


def check_book(candidate: Book | None = None, sample: int | None = None, seed: int = 0) -> BookCheck:
    """Prove `candidate` (default: the shipped book) again from the rules: each entry of
    a ply before the last is the best of its children (read from the book, or the
    outcome of a finished one), and each of the last ply equals an exact search with the
    book off. Without `sample`, every reachable unfinished class of the book's plies is
    checked and the book must hold exactly those (minutes); with it, `sample` classes of
    each ply met in seeded random games (seconds)."""
    found = candidate or book()
    layers = list(classes(found.plies)) if sample is None else _sampled_classes(found.plies, sample, seed)
    search = ExactSearch(use_book=False)
    wrong: list[str] = []
    searched = 0

    def child_code(child: GobbletState) -> int:
        code = found.code_of(state_key(child))
        if code is None:
            raise KeyError(child)
        return code

    for ply, layer in enumerate(layers):
        for key, state in sorted(layer.items()):
            stored = found.code_of(key)
            if stored is None:
                wrong.append(f"{state.to_text()}: missing")
                continue
            if ply < found.plies:
                try:
                    expected = best_code(state, child_code)
                except KeyError:
                    wrong.append(f"{state.to_text()}: a child is missing")
                    continue
            else:
                searched += 1
                expected = value_code(search.value(state))
            if expected != stored:
                wrong.append(f"{state.to_text()}: {stored} in the book, {expected} proven")
    if sample is None and len(found) != sum(len(layer) for layer in layers):
        wrong.append(f"{len(found) - sum(len(layer) for layer in layers)} entries of no reachable position")
    return BookCheck(tuple(len(layer) for layer in layers), searched, tuple(wrong))


def _sampled_classes(plies: int, sample: int, seed: int) -> list[dict[int, GobbletState]]:
    """Up to `sample` classes per ply from 0 to `plies`, met in seeded random games."""
    rng = random.Random(seed)
    layers: list[dict[int, GobbletState]] = [{} for _ in range(plies + 1)]
    for _ in range(50 * sample):
        state = _PUBLISHED.initial()
        for ply in range(plies + 1):
            if state.is_over:
                break
            if len(layers[ply]) < sample:
                layers[ply].setdefault(state_key(state), state)
            state = state.play(rng.choice(state.legal_moves()))
        if all(len(layer) >= sample or ply == 0 for ply, layer in enumerate(layers)):
            break
    return layers
