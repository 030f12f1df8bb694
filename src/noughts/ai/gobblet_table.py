"""Gobblet Gobblers solved: the exact value of every position, by retrograde analysis in
the compiled kernels of `noughts.kernels.gobblet`, built once into the cache folder.

The build (``noughts solve gobblet``) first gives every class of positions (up to the
board's 8 symmetries and the colour swap) its number of distinct children, or its value
when it is finished; then it walks back from the finished positions in order of
distance: a loss in d plies makes each parent a win in d + 1, and a parent whose children
are all wins is a loss in one more than its slowest. What is never decided is a draw:
with repetitions drawn, neither side can force anything else, and a winner following the
table strictly shortens the distance, so it never lets a win slip into a repetition.

The table holds one value code per class (`noughts.ai.solve`'s codes: 0 a draw, d + 1 a
win in d plies, -(d + 1) a loss, for the side to move), stored uncompressed as a numpy
file that the players map into memory: opening it costs nothing, and the processes of a
server share one copy through the page cache. The build checkpoints to the cache folder
every five minutes (`_CHECKPOINT_EVERY`) and resumes from there when interrupted; every pass runs on a
thread per core (`threads`), with the same result as on one; afterwards a second pass
counts the positions reachable from the start (the report of ``noughts solve``).

Smaller figure sets (``gobblet:copies=1``, ``gobblet:sizes=2``) go through the same code
and build in a second: the tests check them against a plain search over the rules.

Building a table runs in the kernels and reading one maps it with numpy: both need
``noughts[kernels]`` (numba, which brings numpy), and say so (`MissingExtraError`). The
classes of positions (`Classes`, the keys of the shipped books) and whether a table is
built need neither, so that a bare installation plays gobblet from the shipped books.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from noughts.ai.base import Value
from noughts.core import MissingExtraError, Player
from noughts.games.geometry import board_symmetries
from noughts.games.gobblet import Gobblet, GobbletState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from noughts.kernels.layout import Int

__all__ = [
    "BUILD_NOTE",
    "Classes",
    "GobbletTable",
    "Progress",
    "build_report",
    "counts",
    "is_built",
    "kept",
    "load",
    "progress_line",
    "small",
    "solve",
    "stderr_progress",
    "threads",
    "time_left",
]

#: Part of the files' names: bump it when the index or the codes change.
FORMAT_VERSION = 1
#: Slots of the index below which a build takes seconds, so a player may build it on
#: first use like the other games' tables (the published game has 390 million).
SMALL_SLOTS = 5_000_000
#: How the published game's table gets built, for messages.
BUILD_NOTE = "noughts solve gobblet builds it once (9 minutes on two cores, then 5 to count it; 2.4 GB of memory)"
_CHUNK = 1 << 20
_CHECKPOINT_EVERY = 300.0  # seconds
T = TypeVar("T")

#: Called with the phase ("classes", "depth 7", "reachable"), the fraction of the whole
#: build done so far and the seconds spent.
Progress = Callable[[str, float, float], None]


def time_left(fraction: float, seconds: float) -> float | None:
    """The seconds still to go at the pace so far: `seconds` did `fraction` of the work
    (a resumed build counts the time and the work before it alike); None before 1%, too
    early to tell, and once the work is done."""
    if not 0.01 <= fraction < 1:
        return None
    return seconds * (1 - fraction) / fraction


def progress_line(phase: str, fraction: float, seconds: float) -> str:
    """The progress bar's text: the share done, the time spent and, from the pace, the time left."""
    filled = int(30 * fraction)
    line = f"solving gobblet [{'#' * filled}{'.' * (30 - filled)}] {fraction:6.1%} {phase}, {seconds / 60:.1f} min"
    left = time_left(fraction, seconds)
    return line if left is None else f"{line}, about {left / 60:.1f} min left"


def stderr_progress(phase: str, fraction: float, seconds: float) -> None:
    """A progress bar on stderr, redrawn in place (a line a minute when not a terminal)."""
    now = time.monotonic()
    tty = sys.stderr.isatty()
    if not tty and now - _last_line[0] < 60 and fraction < 1:
        return
    _last_line[0] = now
    # Padded: a shorter line (the time left gone) must cover the longer one before it.
    line = progress_line(phase, fraction, seconds).ljust(_last_width[0])
    _last_width[0] = len(line)
    print(("\r" + line) if tty else line, end="" if tty else "\n", file=sys.stderr, flush=True)


_last_width = [0]


_last_line = [0.0]


def _kernels(what: str) -> Any:
    """The kernels' module of gobblet (`noughts.kernels.gobblet`), or MissingExtraError
    naming the extra that brings numba and numpy."""
    try:
        from noughts.kernels import gobblet
    except ModuleNotFoundError as e:
        raise MissingExtraError(what, e, "kernels") from e
    return gobblet


def _numpy(what: str) -> Any:
    """numpy, or MissingExtraError naming the extra that brings it with the kernels."""
    try:
        import numpy
    except ModuleNotFoundError as e:
        raise MissingExtraError(what, e, "kernels") from e
    return numpy


@functools.cache
def _layout(game: Gobblet) -> Any:
    """The kernels' index of `game`'s figure set (`noughts.kernels.gobblet.Layout`)."""
    return _kernels("building gobblet's solved table").layout(game.sizes, game.copies)


@dataclass(frozen=True)
class _Index:
    """The index of a figure set in plain Python, the same as the kernels' `Layout`
    (tests/ai/test_gobblet_table.py compares them): what looking a class up takes."""

    #: (mover << 9 | opponent) -> component.
    comp_of: dict[int, int]
    #: Per symmetry (the identity first) and component: its image.
    sym: list[list[int]]
    #: Per large component: its rank among the orbit minima, -1 if it is none.
    rank: list[int]

    @property
    def components(self) -> int:
        return len(self.comp_of)

    @property
    def slots(self) -> int:
        k = self.components
        return sum(r >= 0 for r in self.rank) * k * k


@functools.cache
def _index(sizes: int, copies: int) -> _Index:
    # As noughts.kernels.gobblet.layout builds it: component 0 is the empty board.
    masks = [m for m in range(512) if m.bit_count() <= copies]
    pairs = [(m, o) for m in masks for o in masks if not m & o]
    pairs.sort(key=lambda p: (p[0].bit_count() + p[1].bit_count(), p))
    comp_of = {m << 9 | o: i for i, (m, o) in enumerate(pairs)}

    def image(mask: int, cell_map: list[int]) -> int:
        return sum(1 << cell_map[c] for c in range(9) if mask >> c & 1)

    sym = [[comp_of[image(m, cm) << 9 | image(o, cm)] for m, o in pairs] for cm in board_symmetries(3, 3)]
    rank = [-1] * len(pairs)
    if sizes == 3:
        minima = [i for i in range(len(pairs)) if min(row[i] for row in sym) == i]
        for r, i in enumerate(minima):
            rank[i] = r
    else:
        rank[0] = 0  # the large size is not in play: its component is always empty
    return _Index(comp_of, sym, rank)


def _file(game: Gobblet, what: str) -> Path:
    """The cache file `what` of `game`'s table (``values.npy``, ``counts.json``...)."""
    from noughts.ai.exact import cache_dir

    name = "".join(ch if ch.isalnum() or ch in "-=" else "_" for ch in game.spec)
    return cache_dir() / f"{name}.v{FORMAT_VERSION}.{what}"


def _values_path(game: Gobblet) -> Path:
    return _file(game, "values.npy")


def _counts_path(game: Gobblet) -> Path:
    return _file(game, "counts.json")


def _partial(game: Gobblet, what: str) -> Path:
    return _file(game, f"partial.{what}")


def small(game: Gobblet) -> bool:
    """Whether `game`'s table builds in seconds (the smaller figure sets)."""
    return _index(game.sizes, game.copies).slots <= SMALL_SLOTS


@dataclass
class Classes:
    """The classes of positions of one gobblet figure set, up to the board's symmetries
    and the colour swap: the slots of the table, the keys of the shipped books. Needs no
    table, nor numpy: the index is computed from the figure set alone."""

    game: Gobblet

    def __post_init__(self) -> None:
        index = _index(self.game.sizes, self.game.copies)
        self._comp_of, self._sym, self._rank, self._k = index.comp_of, index.sym, index.rank, index.components

    def index(self, state: GobbletState) -> int:
        """The slot of `state`'s class."""
        board, k = state.board, self._k
        mover = 0 if state.turn is Player.X else 1
        comps = []
        for size in range(3):
            masks = [0, 0]
            for cell in range(9):
                v = board >> (6 * cell + size) & 9  # the x bit and, 3 higher, the o bit
                if v & 1:
                    masks[0] |= 1 << cell
                if v & 8:
                    masks[1] |= 1 << cell
            comps.append(self._comp_of[masks[mover] << 9 | masks[1 - mover]])
        kk = k * k
        best = min(sym[comps[2]] * kk + sym[comps[1]] * k + sym[comps[0]] for sym in self._sym)
        return int(self._rank[best // kk] * kk + best % kk)


@dataclass
class GobbletTable(Classes):
    """The solved values of one gobblet figure set, looked up by position."""

    values: npt.NDArray[np.integer[Any]]

    @property
    def classes(self) -> int:
        """Classes of positions (up to symmetry and colour) among the reachable ones,
        when counted (`counts`), else the table's slots."""
        known = _read_counts(self.game)
        return int(known["classes"]) if known else len(self.values)

    @property
    def positions(self) -> int:
        """Reachable positions, the start and the finished ones included (0 until counted)."""
        known = _read_counts(self.game)
        return int(known["positions"]) if known else 0

    @property
    def start_value(self) -> Value:
        return self.value(self.game.initial())

    def code(self, state: GobbletState) -> int:
        """The value code of `state` for the player to move (finished or not: a finished
        position's code says who has the line; repetitions are the state's business)."""
        return int(self.values[self.index(state)])

    def value(self, state: Any) -> Value:
        """The exact value of `state` for the player to move."""
        from noughts.ai.exact import code_value, outcome_value

        if state.is_over:
            return outcome_value(state)
        return code_value(self.code(state))


_TABLES: dict[Gobblet, GobbletTable] = {}
_LOCK = threading.Lock()


def is_built(game: Gobblet) -> bool:
    """Whether `game`'s table is in memory or in the cache folder."""
    return game in _TABLES or _values_path(game).exists()


def load(game: Gobblet) -> GobbletTable | None:
    """The table if it is built, else None (nothing is built here). MissingExtraError
    where one is built but numpy, which reads it, is not installed."""
    with _LOCK:
        table = _TABLES.get(game)
        if table is None and _values_path(game).exists():
            np = _numpy("gobblet's solved table")
            try:
                values = np.load(_values_path(game), mmap_mode="r")
            except (OSError, ValueError):
                return None
            if len(values) != _index(game.sizes, game.copies).slots:
                return None
            table = _TABLES[game] = GobbletTable(game, values)
        return table


def solve(game: Gobblet, progress: Progress | None = None) -> GobbletTable:
    """The table of `game`: from memory, the cache folder, or built now (resuming a
    build that was interrupted). The build needs ``noughts[kernels]``: without it,
    MissingExtraError."""
    table = load(game)
    if table is None:
        with _BUILD_LOCK:
            table = load(game)
            if table is None:
                _kernels("building gobblet's solved table")
                _build(game, progress)
                table = load(game)
                if table is None:
                    raise OSError(f"could not write the gobblet table to {_values_path(game).parent}")
    return table


_BUILD_LOCK = threading.Lock()


def counts(game: Gobblet, progress: Progress | None = None) -> dict[str, Any]:
    """The reachable positions of the solved `game` (see `_count`), counted once and kept
    beside the table."""
    known = _read_counts(game)
    if known is None:
        table = solve(game, progress)
        import numpy as np  # solve has made sure the kernels, and numpy, are here

        known = _count(game, np.asarray(table.values), progress)
        with contextlib.suppress(OSError):
            _write_json(_counts_path(game), known)
    return known


def _read_counts(game: Gobblet) -> dict[str, Any] | None:
    try:
        data: dict[str, Any] = json.loads(_counts_path(game).read_text())
    except (OSError, ValueError):
        return None
    return data


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def _save_array(path: Path, array: npt.NDArray[Any]) -> None:
    import numpy as np

    # Written aside and renamed, so that a reader never sees half a file.
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
    np.save(tmp, array)
    os.replace(tmp, path)


def _peak_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1 << 20) if sys.platform == "darwin" else rss / 1024


# -- the build ----------------------------------------------------------------------


def threads() -> int:
    """Threads for the build: one per core this process may use (the kernels release
    the GIL, so they run side by side)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_local = threading.local()


def _buffer() -> npt.NDArray[np.int64]:
    """This thread's room for collected entries (8 MB, kept for the build's length)."""
    import numpy as np

    buf: npt.NDArray[np.int64] | None = getattr(_local, "buf", None)
    if buf is None:
        buf = _local.buf = np.empty(1 << 20, dtype=np.int64)
    return buf


def _pieces(lo: int, hi: int, step: int) -> list[tuple[int, int]]:
    return [(a, min(a + step, hi)) for a in range(lo, hi, step)]


def _in_threads(
    task: Callable[[int, int], T],
    pieces: list[tuple[int, int]],
    done: Callable[[tuple[int, int], T], None],
) -> None:
    """`task` over each piece on `threads()` threads, `done` called in this thread with
    each piece's result in the pieces' order. An exception (from a task, or from `done`:
    a progress bar's Ctrl-C) cancels the pieces not started and waits for the running
    ones, so that nothing writes to the arrays after this returns."""
    workers = threads()
    if workers == 1 or len(pieces) == 1:
        for piece in pieces:
            done(piece, task(*piece))
        return
    pool = ThreadPoolExecutor(workers, thread_name_prefix="gobblet")
    try:
        ahead = 2 * workers  # in flight, so that a slow piece does not idle the others
        pending = deque((piece, pool.submit(task, *piece)) for piece in pieces[:ahead])
        later = iter(pieces[ahead:])
        while pending:
            piece, future = pending.popleft()
            result = future.result()
            following = next(later, None)
            if following is not None:
                pending.append((following, pool.submit(task, *following)))
            done(piece, result)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _build(game: Gobblet, progress: Progress | None) -> None:
    import numpy as np

    from noughts.kernels import gobblet as kernels

    lay = _layout(game)
    tables = lay.arrays()
    slots = lay.slots
    started = time.perf_counter()
    state_path = _partial(game, "json")
    values: npt.NDArray[np.int16]
    counts_: npt.NDArray[np.uint8]
    resumed = _resume(game, slots)
    if resumed is None:
        values = np.zeros(slots, dtype=np.int16)
        counts_ = np.zeros(slots, dtype=np.uint8)
        phase = {"init_done": 0, "depth": 0, "seconds": 0.0}
    else:
        values, counts_, phase = resumed
    spent_before = float(phase["seconds"])
    last_save = time.perf_counter()

    def elapsed() -> float:
        return spent_before + time.perf_counter() - started

    def checkpoint(force: bool = False) -> None:
        nonlocal last_save
        if small(game) or (not force and time.perf_counter() - last_save < _CHECKPOINT_EVERY):
            return
        phase["seconds"] = elapsed()
        with contextlib.suppress(OSError):
            _save_array(_partial(game, "values.npy"), values)
            _save_array(_partial(game, "counts.npy"), counts_)
            _write_json(state_path, {**phase, "slots": slots})
        last_save = time.perf_counter()

    # The first pass is about half the work, the levels the other half. Pieces of the
    # first pass write only their own slots; a checkpoint taken meanwhile may hold some
    # of a later piece, which the resumed pass writes again the same.
    def classes_done(piece: tuple[int, int], _: None) -> None:
        phase["init_done"] = piece[1]
        if progress:
            progress("classes", 0.5 * piece[1] / slots, elapsed())
        checkpoint()

    _in_threads(
        lambda lo, hi: kernels.init_pass(lo, hi, values, counts_, tables),
        _pieces(int(phase["init_done"]), slots, _CHUNK),
        classes_done,
    )
    depth = int(phase["depth"])
    decided = int(np.count_nonzero(values))
    total = int(np.count_nonzero(counts_ != kernels.UNUSED))
    applying = threading.Lock()

    def level(lo: Int, hi: Int) -> tuple[int, int]:
        buf = _buffer()
        seen = decided = 0
        while lo < hi:
            lo, s, n = kernels.level_collect(lo, hi, depth, values, counts_, tables, buf)
            seen += s
            with applying:
                decided += kernels.level_apply(buf, n, depth, values, counts_)
        return seen, decided

    seen = 0

    def level_done(piece: tuple[int, int], result: tuple[int, int]) -> None:
        nonlocal seen, decided
        seen += result[0]
        decided += result[1]
        if progress:
            progress(f"depth {depth}", 0.5 + 0.5 * decided / max(total, 1), elapsed())

    while True:
        seen = 0
        _in_threads(level, _pieces(0, slots, _CHUNK * 8), level_done)
        depth += 1
        phase["depth"] = depth
        checkpoint()
        if seen == 0:
            break
    peak = max(np.abs(values).max(initial=0), 1)
    stored = values.astype(np.int8) if peak <= 127 else values
    _save_array(_values_path(game), stored)
    _write_json(
        _file(game, "build.json"),
        {"seconds": round(elapsed(), 1), "peak_memory_mb": round(_peak_mb()), "slots": slots, "levels": depth},
    )
    for what in ("values.npy", "counts.npy", "json"):
        with contextlib.suppress(OSError):
            _partial(game, what).unlink(missing_ok=True)


def _resume(game: Gobblet, slots: int) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint8], dict[str, Any]] | None:
    """The checkpoint of an interrupted build, if there is a sound one."""
    import numpy as np

    try:
        phase: dict[str, Any] = json.loads(_partial(game, "json").read_text())
        if phase.get("slots") != slots:
            return None
        values = np.load(_partial(game, "values.npy"))
        counts_ = np.load(_partial(game, "counts.npy"))
    except (OSError, ValueError):
        return None
    if values.shape != (slots,) or counts_.shape != (slots,) or values.dtype != np.int16 or counts_.dtype != np.uint8:
        return None
    return values, counts_, phase


def kept(game: Gobblet) -> str:
    """What an interrupted build leaves for the next (its checkpoint, if one was written),
    in one sentence naming the command that resumes it."""
    command = "noughts solve " + ("gobblet" if game == Gobblet() else game.spec)
    try:
        phase: dict[str, Any] = json.loads(_partial(game, "json").read_text())
    except (OSError, ValueError):
        return (
            f"no checkpoint was written yet (the first after {_CHECKPOINT_EVERY / 60:.0f} min): `{command}` starts over"
        )
    slots = max(int(phase.get("slots", 1)), 1)
    if int(phase.get("depth", 0)):
        where = f"its levels up to depth {phase['depth']}"
    else:
        where = f"{int(phase.get('init_done', 0)) / slots:.0%} of its first pass"
    return (
        f"kept the build's checkpoint ({where}, {float(phase.get('seconds', 0)) / 60:.1f} min of work) in"
        f" {_partial(game, 'json').parent}: `{command}` again resumes from it"
    )


def build_report(game: Gobblet) -> dict[str, Any] | None:
    """The build's time, peak memory and levels, as recorded when it finished."""
    try:
        data: dict[str, Any] = json.loads(_file(game, "build.json").read_text())
    except (OSError, ValueError):
        return None
    return data


# -- counting the reachable positions ---------------------------------------------------


def _count(game: Gobblet, values: npt.NDArray[Any], progress: Progress | None) -> dict[str, Any]:
    """Breadth first from the start over the classes, each with the colours to move it
    was reached with: the positions reachable from the start, raw (each class stands for
    its orbit under the symmetries, per colour), up to the board's symmetries (per
    colour) and up to symmetry and colour (classes); the finished ones among them; and
    the classes won, drawn and lost for the side to move."""
    import numpy as np

    from noughts.kernels import gobblet as kernels

    lay = _layout(game)
    tables = lay.arrays()
    slots = lay.slots
    started = time.perf_counter()
    reach = np.zeros(slots, dtype=np.uint8)
    start = GobbletTable(game, values).index(game.initial())
    reach[start] = kernels.REACHED | kernels.FRONTIER  # x to move
    plies = 0
    applying = threading.Lock()

    def expand(lo: Int, hi: Int) -> None:
        buf = _buffer()
        while lo < hi:
            lo, _, n = kernels.reach_collect(lo, hi, reach, tables, buf)
            with applying:
                kernels.reach_apply(buf, n, reach)

    while True:
        _in_threads(expand, _pieces(0, slots, _CHUNK * 8), lambda piece, result: None)
        plies += 1
        if progress:
            progress(f"reachable, ply {plies}", 1.0, time.perf_counter() - started)
        if kernels.reach_advance(reach) == 0:
            break
    totals = kernels.count_reached(reach, np.asarray(values, dtype=np.int16), tables)
    names = [
        "classes",
        "symmetric_positions",
        "positions",
        "terminal_classes",
        "terminal_symmetric_positions",
        "terminal_positions",
        "classes_won",
        "classes_drawn",
        "classes_lost",
    ]
    result: dict[str, Any] = {name: int(n) for name, n in zip(names, totals, strict=True)}
    result["plies"] = plies
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result
