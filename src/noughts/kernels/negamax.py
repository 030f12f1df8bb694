"""Alpha-beta in a kernel: negamax with a transposition table, killer moves and the
history heuristic, over the kernels' positions (the readable twin is
`noughts.ai.search.AlphaBetaPlayer`; the conventions are the same).

Python drives iterative deepening and calls `search_root` once per depth; the kernel
looks at the clock every `CLOCK_EVERY` nodes and abandons a depth that runs out of time
(depth 1 always finishes). Scores: a win after p plies from the root is ``WIN - p``.
A root move is *proven* when no horizon (static evaluation, or a table entry that came
from one) was met below it: its score is then exact.

In Qubic every position is first checked for threats (a line of three with the fourth
cell empty): the player to move completes one and wins, or faces two and loses, or
faces one and must block it. A forced block is the node's only move and costs no depth
(at the horizon too), so the search follows sequences of threats to their end: that is
how Qubic's wins are won, and it keeps the tree's width for the free moves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.kernels.cube import popcount
from noughts.kernels.evaluate import WIN, evaluate, position_key, threats
from noughts.kernels.games import legal, play
from noughts.kernels.jit import kernel, kernel_uncounted, now
from noughts.kernels.layout import DRAW, MAX_MOVES, QUBIC, RESULT, SIZE, TURN, Int

__all__ = ["ABORTED", "ARMED", "LIMIT", "MATE", "MAX_PLY", "NODES", "Tables", "principal_line", "search_root"]

#: Scores beyond +-MATE are wins and losses.
MATE = WIN - 1000
MAX_PLY = 96
CLOCK_EVERY = 4096
#: The depth a table entry gets when no horizon was met below it: good for any depth.
PROVEN = 10_000
EXACT, LOWER, UPPER = 0, 1, 2
# Slots of the `stats` array.
NODES, CUTS, ABORTED, ARMED, LIMIT = range(5)
_TABLE_BITS = 19


class Tables:
    """The search's memory, kept by a player between decisions: the transposition table
    (keys, depth, bound, score, move), two killer moves per ply and the history
    counts, plus the scratch stacks of positions and moves."""

    def __init__(self, bits: int = _TABLE_BITS) -> None:
        size = 1 << bits
        self.keys = np.zeros(size, dtype=np.int64)
        self.entries = np.zeros((size, 4), dtype=np.int64)  # depth, bound, score, move
        self.killers = np.full((MAX_PLY, 2), -1, dtype=np.int64)
        self.history = np.zeros(MAX_MOVES, dtype=np.int64)
        self.stack = np.zeros((MAX_PLY + 1, SIZE), dtype=np.int64)
        # Per ply its moves, then their ordering keys (`_order`).
        self.moves = np.zeros((MAX_PLY + 1, 2 * MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((MAX_PLY + 1, FRAME_COLUMNS), dtype=np.int64)
        self.stats = np.zeros(5, dtype=np.float64)

    def start(self) -> None:
        """A new decision: clear the table and killers, keep a quarter of the history
        (it described an earlier position, but is still a hint)."""
        self.keys[:] = 0
        self.entries[:, 0] = -1
        self.killers[:] = -1
        self.history >>= 2
        self.stats[:] = 0


@kernel_uncounted
def _to_table(score: Int, ply: Int) -> Int:
    """Win and loss scores count plies from the root; the table keeps them counted from
    the stored position, so that they stay right wherever it recurs."""
    if score >= MATE:
        return score + ply
    if score <= -MATE:
        return score - ply
    return score


@kernel_uncounted
def _from_table(score: Int, ply: Int) -> Int:
    if score >= MATE:
        return score - ply
    if score <= -MATE:
        return score + ply
    return score


@kernel_uncounted
def _qubic_threats(st: npt.NDArray[np.int64], ply: Int) -> tuple[bool, Int, Int]:
    """Qubic: (True, score, -1) when the threats settle the position (the player to
    move has one and wins, or faces two and loses), else (False, 0, the cell it must
    block or -1)."""
    side = st[TURN]
    mine, theirs = st[side], st[1 - side]
    if threats(mine, theirs):
        return True, WIN - ply - 1, -1
    against = threats(theirs, mine)
    if against == 0:
        return False, 0, -1
    if against & (against - 1):
        return True, ply + 2 - WIN, -1
    return False, 0, popcount(against - 1)  # the bits below the one set bit


@kernel_uncounted
def _order(
    moves: npt.NDArray[np.int64], n: int, first: int, killers: npt.NDArray[np.int64], history: npt.NDArray[np.int64]
) -> None:
    """Best candidates first: the table's move, the killers, then by history. The keys
    go in the row after its moves (`Tables.moves`): no array made per node."""
    keys = MAX_MOVES
    for i in range(n):
        m = moves[i]
        if m == first:
            moves[keys + i] = 1 << 60
        elif m == killers[0]:
            moves[keys + i] = 1 << 59
        elif m == killers[1]:
            moves[keys + i] = 1 << 58
        else:
            moves[keys + i] = history[m]
    for i in range(1, n):
        key, move = moves[keys + i], moves[i]
        j = i - 1
        while j >= 0 and moves[keys + j] < key:
            moves[keys + j + 1], moves[j + 1] = moves[keys + j], moves[j]
            j -= 1
        moves[keys + j + 1], moves[j + 1] = key, move


# Columns of `frames`: one row per ply of the path being searched.
F_DEPTH, F_ALPHA, F_BETA, F_ALPHA_IN, F_BEST, F_BEST_MOVE, F_INDEX, F_COUNT, F_CUTS, F_KEY = range(10)
FRAME_COLUMNS = 10


@kernel_uncounted
def _enter(
    game: int,
    ply: Int,
    frames: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    entries: npt.NDArray[np.int64],
    killers: npt.NDArray[np.int64],
    history: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    stats: npt.NDArray[np.float64],
    deadline: float,
    local_lines: npt.NDArray[np.int64],
) -> tuple[bool, Int]:
    """Arrive at the node of `ply`: (True, its score) when it is settled at once (a
    finished game, the horizon, a table hit, time out), else (False, 0) with its moves
    ordered in `moves[ply]` and its frame set up for the first one."""
    stats[NODES] += 1
    if (
        stats[ARMED] > 0
        and stats[NODES] % CLOCK_EVERY == 0
        and ((deadline > 0 and now() >= deadline) or stats[NODES] >= stats[LIMIT])
    ):
        stats[ABORTED] = 1
    if stats[ABORTED] > 0:
        return True, 0
    st = stack[ply]
    result = st[RESULT]
    if result != 0:
        if result == DRAW:
            return True, 0
        return True, (WIN - ply if result == st[TURN] + 1 else ply - WIN)
    depth = frames[ply, F_DEPTH]
    forced: Int = -1
    if game == QUBIC:
        settled, score, forced = _qubic_threats(st, ply)
        if settled:
            return True, score
    if ply >= MAX_PLY or (depth <= 0 and forced < 0):
        stats[CUTS] += 1
        return True, evaluate(game, st, local_lines)
    key = position_key(game, st)
    if forced >= 0:
        moves[ply, 0] = forced
        _open(ply, frames, moves, stats, key, 1)
        return False, 0
    slot = key & (keys.shape[0] - 1)
    table_move = -1
    if keys[slot] == key:
        table_move = entries[slot, 3]
        if entries[slot, 0] >= depth:
            score = _from_table(entries[slot, 2], ply)
            bound = entries[slot, 1]
            alpha, beta = frames[ply, F_ALPHA], frames[ply, F_BETA]
            if bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha):
                if entries[slot, 0] < PROVEN:
                    stats[CUTS] += 1
                return True, score
    n = legal(game, st, moves[ply])
    if n > 1:
        _order(moves[ply], n, table_move, killers[ply], history)
    _open(ply, frames, moves, stats, key, n)
    return False, 0


@kernel_uncounted
def _open(
    ply: Int,
    frames: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    stats: npt.NDArray[np.float64],
    key: np.int64,
    n: Int,
) -> None:
    """Set up the frame of `ply` for its `n` moves, the first one next."""
    frames[ply, F_ALPHA_IN] = frames[ply, F_ALPHA]
    frames[ply, F_BEST] = -2 * WIN
    frames[ply, F_BEST_MOVE] = moves[ply, 0]
    frames[ply, F_INDEX] = 0
    frames[ply, F_COUNT] = n
    frames[ply, F_CUTS] = stats[CUTS]
    frames[ply, F_KEY] = key


@kernel_uncounted
def _descend(
    game: int, ply: Int, frames: npt.NDArray[np.int64], stack: npt.NDArray[np.int64], moves: npt.NDArray[np.int64]
) -> None:
    """Set up the child of `ply` for its current move, with the negated window."""
    # Cell by cell: a slice copied onto its own array goes through a temporary numba
    # makes (the two might overlap).
    for i in range(stack.shape[1]):
        stack[ply + 1, i] = stack[ply, i]
    play(game, stack[ply + 1], moves[ply, frames[ply, F_INDEX]])
    # A node's only move (a forced block in qubic, or the one legal move) costs no depth.
    frames[ply + 1, F_DEPTH] = frames[ply, F_DEPTH] - (1 if frames[ply, F_COUNT] > 1 else 0)
    frames[ply + 1, F_ALPHA] = -frames[ply, F_BETA]
    frames[ply + 1, F_BETA] = -frames[ply, F_ALPHA]


@kernel_uncounted
def _store(
    ply: Int,
    frames: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    entries: npt.NDArray[np.int64],
    stats: npt.NDArray[np.float64],
) -> None:
    key = frames[ply, F_KEY]
    slot = key & (keys.shape[0] - 1)
    best = frames[ply, F_BEST]
    stored_depth = PROVEN if stats[CUTS] == frames[ply, F_CUTS] else frames[ply, F_DEPTH]
    if keys[slot] != key and entries[slot, 0] > stored_depth:
        return  # depth-preferred: the deeper entry (nearer the root) stays
    keys[slot] = key
    entries[slot, 0] = stored_depth
    if best <= frames[ply, F_ALPHA_IN]:
        entries[slot, 1] = UPPER
    elif best >= frames[ply, F_BETA]:
        entries[slot, 1] = LOWER
    else:
        entries[slot, 1] = EXACT
    entries[slot, 2] = _to_table(best, ply)
    entries[slot, 3] = frames[ply, F_BEST_MOVE]


@kernel_uncounted
def _negamax(
    game: int,
    base: Int,
    frames: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    entries: npt.NDArray[np.int64],
    killers: npt.NDArray[np.int64],
    history: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    stats: npt.NDArray[np.float64],
    deadline: float,
    local_lines: npt.NDArray[np.int64],
) -> Int:
    """The negamax score of `stack[base]` for its player to move, with the depth and
    window of `frames[base]`. Depth first with an explicit stack of frames: numba's
    on-disk cache breaks recursive functions (numba issue 6061)."""
    ply = base
    entering = True
    value: Int = 0
    while True:
        if entering:
            settled, value = _enter(
                game, ply, frames, keys, entries, killers, history, stack, moves, stats, deadline, local_lines
            )
            if not settled:
                _descend(game, ply, frames, stack, moves)
                ply += 1
                continue
        # `value` is the score of the node at `ply`: hand it to the parent.
        if ply == base:
            return value
        ply -= 1
        entering = False
        if stats[ABORTED] > 0:
            value = 0
            continue
        score = -value
        move = moves[ply, frames[ply, F_INDEX]]
        cutoff = False
        if score > frames[ply, F_BEST]:
            frames[ply, F_BEST] = score
            frames[ply, F_BEST_MOVE] = move
            if score > frames[ply, F_ALPHA]:
                frames[ply, F_ALPHA] = score
                if score >= frames[ply, F_BETA]:
                    cutoff = True
                    if move != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = move
                    history[move] += frames[ply, F_DEPTH] * frames[ply, F_DEPTH]
        frames[ply, F_INDEX] += 1
        if cutoff or frames[ply, F_INDEX] == frames[ply, F_COUNT]:
            _store(ply, frames, keys, entries, stats)
            value = frames[ply, F_BEST]
            continue
        _descend(game, ply, frames, stack, moves)
        ply += 1
        entering = True


@kernel_uncounted
def search_root(
    game: int,
    root: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    depth: int,
    exact: bool,
    keys: npt.NDArray[np.int64],
    entries: npt.NDArray[np.int64],
    killers: npt.NDArray[np.int64],
    history: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    frames: npt.NDArray[np.int64],
    stats: npt.NDArray[np.float64],
    deadline: float,
    local_lines: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
    proven: npt.NDArray[np.bool_],
) -> bool:
    """Search every root move of `order` to `depth`; False if the time ran out first.

    With `exact` each move gets a full window, so every score is its exact
    depth-limited value; otherwise moves that cannot beat the best so far are only
    shown to be worse (cheaper: the best move and its score are the same)."""
    alpha: Int = -2 * WIN
    for i in range(order.shape[0]):
        cuts = stats[CUTS]
        for j in range(root.shape[0]):
            stack[1, j] = root[j]
        play(game, stack[1], order[i])
        frames[1, F_DEPTH] = depth - 1
        frames[1, F_ALPHA] = -2 * WIN
        frames[1, F_BETA] = 2 * WIN if exact else -alpha
        score = -_negamax(
            game, np.int64(1), frames, keys, entries, killers, history, stack, moves, stats, deadline, local_lines
        )
        if stats[ABORTED] > 0:
            return False
        scores[i] = score
        proven[i] = stats[CUTS] == cuts
        if score > alpha:
            alpha = score
    return True


@kernel
def principal_line(
    game: int,
    root: npt.NDArray[np.int64],
    best: int,
    keys: npt.NDArray[np.int64],
    entries: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> int:
    """The best move, then the table's move in each following position; its length."""
    st = root.copy()
    out[0] = best
    play(game, st, best)
    length = 1
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    while length < out.shape[0] and st[RESULT] == 0:
        key = position_key(game, st)
        slot = key & (keys.shape[0] - 1)
        if keys[slot] != key:
            break
        move = entries[slot, 3]
        n = legal(game, st, buffer)
        ok = False
        for i in range(n):
            if buffer[i] == move:
                ok = True
        if not ok:
            break
        out[length] = move
        length += 1
        play(game, st, move)
    return length
