"""Exact play: solved tables for the small games, a shipped book and exhaustive search for matryoshka.

`solve(game)` returns a `Table` with the exact value of every reachable position, built on
first use and then cached on disk; `PerfectPlayer` (registered as ``perfect``) plays from
it: the fastest win, else a draw, else the slowest loss.

What is solved (`noughts.ai.capabilities` says it for every game: plain m,n,k boards up
to 16 cells, Forget boards up to 9). Positions counts every reachable position, the
start and finished ones included; the tables of the plain games are stored up to the
board's symmetries, `Table.classes` entries. The first builds in CPU seconds, from
``.venv/bin/python bench/table_builds.py`` (2026-11-28; docs/strength.md has the
wall-clock figures too): plain boards from 12 cells in the compiled kernel
(`noughts.kernels.mnk_table`), in brackets the readable builder's (``--readable``, a
machine without numba)::

    game                 positions   classes     start value   first build
    classic                  5,478       765     draw          0.02 s
    mnk:m=4:n=3:k=3        111,973    28,275     win in 7      0.3 s
    classic:forget         128,170   128,170     win in 13     1.3 s
    mnk:m=5:n=3:k=3      2,286,668   573,900     win in 7      0.6 s (6 s)
    mnk:m=4:n=4:k=3      6,036,001   756,387     win in 5      1.0 s (12 s)
    mnk:m=4:n=4:k=4      9,722,011  1,217,977    draw          2.1 s (26 s)
    mnk:m=8:n=2:k=3      7,994,131  1,999,232    draw          2.4 s (26 s)
    matryoshka          > 25 M (no table)        draw          shipped book + search
    gobblet             see noughts.ai.gobblet_table and docs/strength.md

A built table loads from the cache in milliseconds (classic) to about a second (4x4).
`solve` builds a missing table at once, and the perfect player waits for it whatever
its clock: every answer it gives is exact.

* Acyclic games (classic, mnk up to 16 cells, any k) are solved by memoised negamax over the
  positions up to the board's symmetries, visiting every move (no pruning: every
  reachable position gets its exact value and distance).
* Forget mode (boards up to 9 cells) repeats positions, so it is solved by retrograde
  analysis over the whole position graph: lost and won positions are propagated back
  from the finished ones in order of distance, and what is never proven won or lost is a
  draw (the standard treatment of repetition draws: neither side can force anything
  else). Following the table the winner strictly shortens the distance, so a won game is
  never drawn by repetition.
* matryoshka has more than 25 million reachable positions (25,194,376 within the first
  7 of its at most 12 plies, the layers still growing: 0.7 M, 4.7 M, 19.6 M at plies
  5-7), too many for a Python table in minutes, so the player reads the first 5 plies
  from a shipped book and searches past it exactly (`noughts.ai.matryoshka`): alpha-beta
  with distance-to-end scores and a table of proven bounds that lives as long as the
  player. Without the book the start's value takes seconds (docs/strength.md).
* gobblet is solved by retrograde analysis in compiled kernels, over its positions up
  to symmetry and colour (`noughts.ai.gobblet_table`): a table of hundreds of millions
  of entries, built once with ``noughts solve gobblet`` into the cache folder, and looked
  up here like the others. Its smaller figure sets (``gobblet:copies=1``) build in a
  second, on first use.

Values in a table are stored as one signed code per position, from the point of view of
the player to move: ``0`` a draw, ``d + 1`` a win in d plies, ``-(d + 1)`` a loss in d
plies (``-1``: the game is over and the player to move has lost).
"""

from __future__ import annotations

import array
import bisect
import contextlib
import os
import struct
import sys
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, cast

from noughts.ai import connect4_exact
from noughts.ai.base import (
    AIPlayer,
    Analysis,
    Deadline,
    Kind,
    Limits,
    MoveInfo,
    Value,
    register_player,
    require_moves,
    with_lines,
)
from noughts.ai.capabilities import MAX_FORGET_CELLS, MAX_TABLE_CELLS, capabilities
from noughts.ai.exact import cache_dir, code_value, outcome_value
from noughts.ai.matryoshka import ExactSearch, OutOfTimeError
from noughts.core import Game, InvalidOptionError, InvalidPositionError, Player, State
from noughts.games.geometry import board_symmetries
from noughts.games.gobblet import Gobblet, GobbletState
from noughts.games.mnk.rules import Mnk, MnkState
from noughts.variant import Trait, placed_on_grid

__all__ = ["FORMAT_VERSION", "PerfectPlayer", "Table", "cache_dir", "is_cached", "solve"]

#: Part of every cache file's name and header: bump it when the encoding changes.
FORMAT_VERSION = 1
_MAGIC = b"NOUGHTS-TABLE\n"
_HEADER = struct.Struct("<IQQI")  # version, positions, entries, crc32 of the payload
_SUPPORTED = (
    f"classic, mnk up to {MAX_TABLE_CELLS} cells (4x4, 3x5), forget mode up to {MAX_FORGET_CELLS} cells "
    "(classic:forget), matryoshka (by search), gobblet"
)


# -- value codes ------------------------------------------------------------------


def _negate(code: int) -> int:
    """The code of a move into a position of value `code` (seen by its mover)."""
    return -code - 1 if code > 0 else -code + 1 if code < 0 else 0


def _rank(code: int) -> int:
    """Larger is better for the mover: quick wins, draws, slow losses."""
    return (1 << 20) - code if code > 0 else 0 if code == 0 else -(1 << 20) - code


_value = code_value
_outcome_value = outcome_value


# -- the table --------------------------------------------------------------------


class Table:
    """The exact value of every reachable position of one game: for classic,
    ``solve(parse_spec("classic")).positions == 5478`` and its `start_value` is a draw."""

    def __init__(self, game: Game[Any, Any], keys: array.array[int], codes: array.array[int], positions: int) -> None:
        self.game = game
        self._keys = keys
        self._codes = codes
        self._encode = _encoder(game)
        #: Reachable positions, the start and the finished ones included.
        self.positions = positions

    @property
    def classes(self) -> int:
        """Entries stored: positions up to the board's symmetries (where used)."""
        return len(self._keys)

    @property
    def start_value(self) -> Value:
        """The value of the start position for the first player."""
        return self.value(self.game.initial())

    def value(self, state: State[Any]) -> Value:
        """The exact value of `state` for the player to move (repetition history aside:
        a finished game's own outcome counts)."""
        if state.is_over:
            return _outcome_value(state)
        return _value(self.code(state))

    def code(self, state: State[Any]) -> int:
        """The stored code of an unfinished `state` (see the module docstring)."""
        key = self._encode(state)
        i = bisect.bisect_left(self._keys, key)
        if i == len(self._keys) or self._keys[i] != key:
            raise InvalidPositionError(f"{state.to_text()!r} cannot be reached from the start of {self.game.spec}")
        return int(self._codes[i])


def _cache_path(game: Game[Any, Any]) -> Path:
    name = "".join(ch if ch.isalnum() or ch in "-=" else "_" for ch in game.spec)
    return cache_dir() / f"{name}.v{FORMAT_VERSION}.table"


def _save(path: Path, game: Game[Any, Any], table: Table) -> None:
    keys, codes = table._keys, table._codes
    if sys.byteorder != "little":
        keys, codes = array.array("Q", keys), array.array("h", codes)
        keys.byteswap()
        codes.byteswap()
    payload = zlib.compress(keys.tobytes() + codes.tobytes(), 6)
    spec = game.spec.encode()
    header = _HEADER.pack(FORMAT_VERSION, table.positions, len(keys), zlib.crc32(payload))
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed, so a reader never sees half a file.
    tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(_MAGIC + struct.pack("<H", len(spec)) + spec + header + payload)
    os.replace(tmp, path)


def _load(path: Path, game: Game[Any, Any]) -> Table | None:
    """The cached table, or None when the file is missing or anything in it is off."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    spec = game.spec.encode()
    head = len(_MAGIC) + 2 + len(spec)
    if data[: len(_MAGIC)] != _MAGIC or data[len(_MAGIC) : head] != struct.pack("<H", len(spec)) + spec:
        return None
    try:
        version, positions, entries, crc = _HEADER.unpack_from(data, head)
    except struct.error:
        return None
    payload = data[head + _HEADER.size :]
    if version != FORMAT_VERSION or zlib.crc32(payload) != crc:
        return None
    try:
        raw = zlib.decompress(payload)
    except zlib.error:
        return None
    if len(raw) != entries * 10:
        return None
    keys, codes = array.array("Q"), array.array("h")
    keys.frombytes(raw[: entries * 8])
    codes.frombytes(raw[entries * 8 :])
    if sys.byteorder != "little":
        keys.byteswap()
        codes.byteswap()
    if entries == 0 or any(keys[i] >= keys[i + 1] for i in range(entries - 1)):
        return None
    return Table(game, keys, codes, positions)


_TABLES: dict[Game[Any, Any], Table] = {}
_LOCK = threading.Lock()


class ExactTable(Protocol):
    """What every solved table answers: `Table`, and gobblet's `GobbletTable`."""

    @property
    def positions(self) -> int: ...

    @property
    def classes(self) -> int: ...

    @property
    def start_value(self) -> Value: ...

    def value(self, state: Any) -> Value: ...


def solve(game: Game[Any, Any]) -> ExactTable:
    """The solved table of `game`: from memory, else from the disk cache, else built
    (and cached). Raises InvalidOptionError for a game without a table.

    gobblet's table takes minutes to build, 9 on two cores (`noughts.ai.gobblet_table`):
    this builds it, silently; ``noughts solve gobblet`` shows the progress."""
    _check_table_game(game)
    if Trait.NESTING in game.traits:  # only gobblet's figure sets pass the check above
        from noughts.ai import gobblet_table

        return gobblet_table.solve(cast(Gobblet, game))
    with _LOCK:
        table = _TABLES.get(game)
        if table is None:
            path = _cache_path(game)
            table = _load(path, game)
            if table is None:
                table = _build(game)
                # A read-only cache costs a rebuild next time, nothing else.
                with contextlib.suppress(OSError):
                    _save(path, game, table)
            _TABLES[game] = table
        return table


def is_cached(game: Game[Any, Any]) -> bool:
    """Whether `solve(game)` answers without a build: the table is in memory or its
    cache file exists (a damaged file is found out, and rebuilt, on loading)."""
    return game in _TABLES or _cache_path(game).exists()


def _check_table_game(game: Game[Any, Any]) -> None:
    if capabilities(game).table is not None:
        return
    if Trait.NESTING in game.traits:
        raise InvalidOptionError(
            "matryoshka has over 25 million positions: no table; the perfect player reads its shipped opening book "
            "and searches past it"
        )
    raise InvalidOptionError(f"no exact table for {game.spec}: solved are {_SUPPORTED}")


#: Plain boards from this many cells are built in the compiled kernel where numba is
#: installed (4x4: 2 s of CPU instead of 26); smaller ones build in Python in less time
#: than the kernel's first compilation on a machine takes.
_COMPILED_FROM_CELLS = 12


def _build(game: Game[Any, Any]) -> Table:
    game = cast(Mnk, game)  # _check_table_game let only the m,n,k-game's kind through
    from noughts.kernels import available

    if not game.forget and game.cells >= _COMPILED_FROM_CELLS and available():
        return _build_compiled(game)
    if game.forget:
        codes_by_key = _build_forget(game)
        positions = len(codes_by_key)
    else:
        codes_by_key, positions = _build_mnk(game)
    keys = array.array("Q", sorted(codes_by_key))
    codes = array.array("h", (codes_by_key[k] for k in keys))
    return Table(game, keys, codes, positions)


def _build_compiled(game: Mnk) -> Table:
    from noughts.kernels import mnk_table

    canon = _Canon(game)
    found, values, positions = mnk_table.build(game.cells, game.full, list(game.through), canon.tables, canon.low)
    keys, codes = array.array("Q"), array.array("h")
    keys.frombytes(found.astype("=u8").tobytes())
    codes.frombytes(values.astype("=i2").tobytes())
    return Table(game, keys, codes, positions)


# -- mnk: memoised negamax up to symmetry -----------------------------------------


def _symmetries(m: int, n: int) -> list[tuple[int, ...]]:
    """Cell maps of the board's symmetries (8 on a square, 4 on a rectangle), each once."""
    return sorted({tuple(cell_map) for cell_map in board_symmetries(m, n)})


class _Canon:
    """Canonical keys of mnk positions: the least ``x << cells | o`` over the symmetries,
    each applied to a mask through a lookup table per half-board."""

    def __init__(self, game: Mnk) -> None:
        self.cells = game.cells
        self.low = (game.cells + 1) // 2
        lo_cells, hi_cells = range(self.low), range(self.low, game.cells)
        self.tables: list[tuple[list[int], list[int]]] = []
        for cell_map in _symmetries(game.m, game.n):
            lo = [sum(1 << cell_map[c] for c in lo_cells if v >> c & 1) for v in range(1 << self.low)]
            hi = [sum(1 << cell_map[c] for c in hi_cells if v >> (c - self.low) & 1) for v in range(1 << len(hi_cells))]
            self.tables.append((lo, hi))

    def images(self, x: int, o: int) -> Iterator[int]:
        cells, low, mask = self.cells, self.low, (1 << self.low) - 1
        for lo, hi in self.tables:
            yield (lo[x & mask] | hi[x >> low]) << cells | lo[o & mask] | hi[o >> low]

    def key(self, x: int, o: int) -> int:
        return min(self.images(x, o))


def _build_mnk(game: Mnk) -> tuple[dict[int, int], int]:
    canon = _Canon(game)
    through, full = game.through, game.full
    memo: dict[int, int] = {}

    def solve_from(x: int, o: int, x_to_move: bool) -> int:
        key = canon.key(x, o)
        known = memo.get(key)
        if known is not None:
            return known
        best = -(1 << 30)
        best_rank = -(1 << 30)
        mine = x if x_to_move else o
        empty = full & ~(x | o)
        while empty:
            bit = empty & -empty
            empty ^= bit
            cell = bit.bit_length() - 1
            marks = mine | bit
            nx, no = (marks, o) if x_to_move else (x, marks)
            if any(marks & line == line for line in through[cell]):
                memo[canon.key(nx, no)] = -1
                code = 2
            elif nx | no == full:
                memo[canon.key(nx, no)] = 0
                code = 0
            else:
                code = _negate(solve_from(nx, no, not x_to_move))
            rank = _rank(code)
            if rank > best_rank:
                best, best_rank = code, rank
        memo[key] = best
        return best

    solve_from(0, 0, True)
    positions = sum(len(set(canon.images(key >> game.cells, key & full))) for key in memo)
    return memo, positions


# -- forget mode: retrograde analysis ---------------------------------------------

_Ages = tuple[int, ...]


def _pack_forget(xs: _Ages, os_: _Ages, x_to_move: bool, keep: int) -> int:
    # Cells as 4-bit digits cell + 1, never 0, so each sequence's length is implied.
    px = sum((c + 1) << 4 * i for i, c in enumerate(xs))
    po = sum((c + 1) << 4 * i for i, c in enumerate(os_))
    return (px << 4 * keep | po) << 1 | x_to_move


def _build_forget(game: Mnk) -> dict[int, int]:
    keep, through, full = game.keep, game.through, game.full
    start = ((), (), True)
    index: dict[tuple[_Ages, _Ages, bool], int] = {start: 0}
    nodes: list[tuple[_Ages, _Ages, bool]] = [start]
    children: list[list[int]] = []
    codes: list[int | None] = []
    i = 0
    while i < len(nodes):
        xs, os_, x_to_move = nodes[i]
        i += 1
        kids: list[int] = []
        children.append(kids)
        codes.append(None)
        if _forget_over(nodes[i - 1], codes, i - 1, through, full):
            continue
        mine, theirs = (xs, os_) if x_to_move else (os_, xs)
        taken = sum(1 << c for c in xs + os_)
        for cell in range(game.cells):
            if taken >> cell & 1:
                continue
            after = (*(mine[1:] if len(mine) == keep else mine), cell)
            child = (after, theirs, False) if x_to_move else (theirs, after, True)
            j = index.get(child)
            if j is None:
                j = index[child] = len(nodes)
                nodes.append(child)
            kids.append(j)
    result = _retrograde(children, codes)
    return {_pack_forget(xs, os_, turn, keep): code for (xs, os_, turn), code in zip(nodes, result, strict=True)}


def _forget_over(
    node: tuple[_Ages, _Ages, bool], codes: list[int | None], i: int, through: tuple[tuple[int, ...], ...], full: int
) -> bool:
    """Mark node `i` as finished (its code set) when the last move made a line or filled
    the board; only the player who just moved can have a line."""
    xs, os_, x_to_move = node
    last = os_ if x_to_move else xs
    if last:
        marks = sum(1 << c for c in last)
        if any(marks & line == line for line in through[last[-1]]):
            codes[i] = -1
            return True
    if sum(1 << c for c in xs + os_) == full:
        codes[i] = 0
        return True
    return False


def _retrograde(children: list[list[int]], finished: list[int | None]) -> list[int]:
    """Codes for every node of a move graph whose finished nodes are known: wins and
    losses proven backwards in order of distance, everything else drawn."""
    parents: list[list[int]] = [[] for _ in children]
    for p, kids in enumerate(children):
        for kid in kids:
            parents[kid].append(p)
    codes = list(finished)
    unproven = [len(kids) for kids in children]
    queue = deque(i for i, c in enumerate(codes) if c)
    while queue:
        node = queue.popleft()
        code = codes[node]
        assert code is not None
        for p in parents[node]:
            if codes[p] is not None:
                continue
            if code < 0:
                codes[p] = _negate(code)
                queue.append(p)
            else:
                unproven[p] -= 1
                if unproven[p] == 0:
                    # Processed in order of distance, this child is the farthest win.
                    codes[p] = _negate(code)
                    queue.append(p)
    return [c or 0 for c in codes]


# -- position keys of states --------------------------------------------------------


def _encoder(game: Game[Any, Any]) -> Callable[[State[Any]], int]:
    if placed_on_grid(game) and Trait.FORGET not in game.traits:
        canon = _Canon(cast(Mnk, game))

        def mnk_key(state: State[Any]) -> int:
            marks = cast(MnkState, state)
            return canon.key(marks.x, marks.o)

        return mnk_key
    if placed_on_grid(game):
        keep = cast(Mnk, game).keep

        def forget_key(state: State[Any]) -> int:
            ages = cast(MnkState, state).ages
            assert ages is not None  # a Forget-mode game's states keep their marks' ages
            return _pack_forget(ages[0], ages[1], state.turn is Player.X, keep)

        return forget_key
    raise InvalidOptionError(f"no exact table for {game.spec}")


# -- the player ---------------------------------------------------------------------

_NO_LIMITS = Limits()
_PV_LIMIT = 24  # plies of a principal line; a drawn line in forget mode never ends


class PerfectPlayer(AIPlayer):
    """Exact play: the fastest win, else a draw, else the slowest loss, for classic, mnk
    up to 16 cells, forget mode up to 9 cells, gobblet (from `solve` tables) and matryoshka
    (`noughts.ai.matryoshka`: its book, then exhaustive search). Every legal move gets
    its exact value; the pv follows the optimal line.
    Ties between equal moves go to the first in legal order, so play is deterministic.

    A table not built yet is built first, whatever the time limit (classic: instantly;
    4x4: seconds, see the module docstring), so every answer is exact from the
    first call; when a matryoshka search runs out of time the player answers with the
    immediate wins first and the other moves unvalued (Kind.UNKNOWN), and so does
    gobblet with a clock before ``noughts solve gobblet`` has built its table, but for
    the values its shipped book and strategy play to the end (`gobblet_strategy.analysis`).
    """

    name = "perfect"

    def __init__(self) -> None:
        self._search = ExactSearch()

    def reset(self) -> None:
        """Keep the search's proven bounds: they stay true in every game."""

    def decide(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        if capabilities(state.game).solver:  # the solver's best column costs less than every column's value
            return connect4_exact.decide(state, self.name, limits)
        return self.analyze(state, limits)

    def analyze(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        started = time.perf_counter()
        moves = require_moves(state)
        game = state.game
        if capabilities(game).solver:
            return connect4_exact.analyze(state, self.name, limits)
        deadline = Deadline(limits.time)
        nodes_before = self._search.nodes
        evaluate: Callable[[State[Any]], Value]
        line_of: Callable[[State[Any], Any, Callable[[State[Any]], Value]], list[str]] = _principal_line
        traits = game.traits
        if Trait.NESTING in traits and Trait.SHIFTS not in traits:  # matryoshka
            search = self._search

            def evaluate(s: State[Any]) -> Value:
                return search.value(cast(GobbletState, s), deadline)

            def matryoshka_line(s: State[Any], move: Any, _: Callable[[State[Any]], Value]) -> list[str]:
                child = s.play(move)
                return [s.move_text(move), *search.line(cast(GobbletState, child), deadline)]

            line_of = matryoshka_line

        elif Trait.NESTING in traits:  # gobblet
            table = _gobblet_table(cast(Gobblet, game), limits)
            if table is None:
                # The values that the shipped opening book and x's strategy play to the end;
                # the others unvalued, though the book knows more: no claim the player cannot keep.
                from noughts.ai import gobblet_strategy

                return gobblet_strategy.analysis(state, self.name) or self._unvalued(state, moves, started)
            evaluate = table.value
        else:
            # Built now when it is not yet (a minute at most, then cached on disk): a
            # clock does not cut it short, for an answer from estimates while a build
            # runs would say less than the exact one moments later.
            evaluate = solve(game).value
        try:
            infos = _move_values(state, moves, evaluate)
            if Trait.SHIFTS in traits or Trait.NESTING not in traits:  # table lookups are cheap; a search is not
                infos = _prefer_traps(state, infos, evaluate)
            infos = with_lines(infos, lambda move: line_of(state, move, evaluate))
            pv = list(infos[0].line)
        except OutOfTimeError:
            return self._unvalued(state, moves, started)
        nodes = self._search.nodes - nodes_before
        return Analysis(self.name, infos, pv, None, nodes, time.perf_counter() - started)

    def _unvalued(self, state: State[Any], moves: list[Any], started: float) -> Analysis:
        wins = [m for m in moves if _winner(state.play(m)) is state.turn]
        ordered = wins + [m for m in moves if m not in wins]
        infos = [MoveInfo(m, state.move_text(m), Value.win(1) if m in wins else Value(Kind.UNKNOWN)) for m in ordered]
        return Analysis(self.name, infos, [infos[0].text], None, 0, time.perf_counter() - started)


def _gobblet_table(game: Gobblet, limits: Limits) -> ExactTable | None:
    """gobblet's table when it is built or quick to build (the smaller figure sets);
    else built now, with its progress on stderr, when the player has all the time it
    wants; else None: a player with a clock (a level, the server) never starts a build
    of minutes, it plays by search until ``noughts solve gobblet`` has run."""
    from noughts.ai import gobblet_table

    on_first_use = capabilities(game).table == "first use"
    table = gobblet_table.load(game)
    if table is None and (on_first_use or limits.time is None):
        progress = None if on_first_use else gobblet_table.stderr_progress
        table = gobblet_table.solve(game, progress)
    return table


def _winner(state: State[Any]) -> Player | None:
    return None if state.outcome is None else state.outcome.winner


def _move_values(state: State[Any], moves: list[Any], evaluate: Callable[[State[Any]], Value]) -> list[MoveInfo]:
    infos = []
    for move in moves:
        child = state.play(move)
        value = _outcome_value(child) if child.is_over else evaluate(child)
        infos.append(MoveInfo(move, state.move_text(move), value.negated()))
    # sorted is stable: equal moves stay in legal order.
    return sorted(infos, key=lambda info: info.value.sort_key(), reverse=True)


def _prefer_traps(state: State[Any], infos: list[MoveInfo], evaluate: Callable[[State[Any]], Value]) -> list[MoveInfo]:
    """Among the moves as good as the best, put first the one that leaves the opponent
    the most replies that lose: all hold the value against perfect play, but a human
    (or a weaker program) errs where errors are many. Each such move notes the count."""
    best = infos[0].value
    if best.kind is Kind.WIN:
        return infos  # the quickest win is already first; traps would only delay it
    tied = [info for info in infos if info.value == best]
    if len(tied) < 2:
        return infos

    def losing_replies(info: MoveInfo) -> int:
        child = state.play(info.move)
        count = 0
        for reply in child.legal_moves():
            after = child.play(reply)
            ours = _outcome_value(after) if after.is_over else evaluate(after)
            count += ours.sort_key() > best.sort_key()
        return count

    counted = [(losing_replies(info), info) for info in tied]
    counted.sort(key=lambda pair: pair[0], reverse=True)  # stable: legal order among equals
    noted = [replace(info, traps=n or None) for n, info in counted]
    return noted + infos[len(tied) :]


def _principal_line(state: State[Any], move: Any, evaluate: Callable[[State[Any]], Value]) -> list[str]:
    """`move`, then best play by both sides (the quickest win, the longest loss)."""
    pv = [state.move_text(move)]
    state = state.play(move)
    while not state.is_over and len(pv) < _PV_LIMIT:
        best = _move_values(state, state.legal_moves(), evaluate)[0]
        pv.append(best.text)
        state = state.play(best.move)
    return pv


register_player("perfect", PerfectPlayer)
