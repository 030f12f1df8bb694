"""MCTS in a kernel: UCT with MCTS-Solver over a tree kept in preallocated arrays.

The same algorithm as `noughts.ai.mcts` (read that module first), laid out for speed:

* a node is a row of `links` (int32: `VISITS`, `TOTAL`, `FIRST`, `MINIMAX`) and of `info` (int16:
  `MOVE`, `TRIED`, `LEGAL`, `PROOF`, `PLIES`). Results count in `UNIT`s (a win +UNIT,
  a loss -UNIT), so the sum of a node's results is an integer and a draw can be worth
  a fraction of a win.
* contempt: a draw counts as a small loss for the player the search is for (the
  player to move at the root) and as a small win for the opponent, so that against a
  weaker opponent the search prefers lines that keep winning chances to quiet draws.
  0 (the default) is plain UCT.
* the children of a node are one contiguous block starting at `FIRST`, allocated (in a
  seeded random order) the second time the node is reached; the first `TRIED` of them
  have been visited. Selection then scans a contiguous range, which keeps the tree walk
  in cache.
* nodes do not hold positions: an iteration replays the moves from the root position
  into one scratch array, which is cheaper than storing 24 slots per node.
* a full tree simply stops growing: iterations go on, with playouts from its leaves.
* implicit minimax (Lanctot, Winands, Pepels, Sturtevant 2014), in ultimate: with a
  `minimax` share above 0, a node's children get their static values from the learned
  evaluation (`learned`) when they are created, tried best first; each node keeps in
  `MINIMAX` the minimax of those values over the tree below it, and selection scores a
  child by `(1 - minimax) * mean + minimax * MINIMAX` (plus the exploration term).
* playouts are random, or guided (`games.guided_playout`: a move that wins the game is
  taken, moves that let the opponent win it next are avoided).
* proofs (`PROOF`) are WIN / DRAW / LOSS for the player to move at the node, with
  `PLIES` to the end for a win or a loss; they propagate upward as in the readable
  solver.

Tree reuse: `find` locates the new position among the old root's children and
grandchildren, and `compact` copies that subtree into fresh arrays.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from noughts.kernels.games import count, guided_playout, legal, play, playout, winning_move
from noughts.kernels.jit import kernel, now
from noughts.kernels.layout import DRAW, MAX_MOVES, RESULT, SIZE, TURN, Int
from noughts.kernels.learned import SCRATCH
from noughts.kernels.learned import value as learned_value
from noughts.kernels.rng import below

__all__ = [
    "FIRST",
    "LEGAL",
    "LOSS",
    "MINIMAX",
    "MM_UNIT",
    "MOVE",
    "PLIES",
    "PROOF",
    "PROVEN_DRAW",
    "TOTAL",
    "TRIED",
    "UNIT",
    "UNPROVEN",
    "VISITS",
    "WIN",
    "compact",
    "find",
    "new_tree",
    "search",
]

# Columns of `links` (int32) and of `info` (int16).
VISITS, TOTAL, FIRST, MINIMAX = range(4)
#: A value of 1 in `MINIMAX` (values run from -1 to 1, for the player who moved into the node).
MM_UNIT = 1 << 20
MOVE, TRIED, LEGAL, PROOF, PLIES = range(5)
# PROOF values.
UNPROVEN, WIN, PROVEN_DRAW, LOSS = 0, 1, 2, 3
#: How many iterations go by between two looks at the clock.
CLOCK_EVERY = 128
#: The deepest path an iteration can take (no game here lasts longer).
MAX_PATH = 96
#: A win's result in `TOTAL`; a draw's is 0, or minus the contempt for the root's player.
UNIT = 16

Links = npt.NDArray[np.int32]
Info = npt.NDArray[np.int16]


def new_tree(capacity: int) -> tuple[Links, Info]:
    """Empty arrays for `capacity` nodes (at least 1), node 0 the root of an unexplored
    position; the number of nodes in use is kept by the caller (1 here)."""
    links = np.zeros((max(capacity, 1), 4), dtype=np.int32)
    info = np.zeros((max(capacity, 1), 5), dtype=np.int16)
    links[0, FIRST] = -1
    info[0, MOVE] = info[0, LEGAL] = -1
    return links, info


@kernel
def _proof_value(proof: int) -> int:
    if proof == WIN:
        return 1
    if proof == LOSS:
        return -1
    return 0


@kernel
def _end_proof(st: npt.NDArray[np.int64]) -> int:
    """The proof of a finished position for its player to move."""
    result = st[RESULT]
    if result == DRAW:
        return PROVEN_DRAW
    return WIN if result == st[TURN] + 1 else LOSS


@kernel
def _result_for(result: int, side: int) -> int:
    if result == DRAW:
        return 0
    return 1 if result == side + 1 else -1


@kernel
def _units(value: int, draw: int) -> int:
    """A result (+1, 0, -1 for the player to move) in units, a draw worth `draw`."""
    return value * UNIT if value != 0 else draw


@kernel
def _draw_for(depth: int, contempt: int) -> int:
    """A draw's result for the player to move `depth` plies below the root."""
    return -contempt if depth % 2 == 0 else contempt


@kernel
def _playout(game: int, ws: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64], guided: bool) -> int:
    return guided_playout(game, ws, rng) if guided else playout(game, ws, rng)


@kernel
def _prove(links: Links, info: Info, node: int) -> bool:
    """Prove `node` from its children's proofs if they allow it; True if proven now."""
    quickest_win = -1
    decided = info[node, TRIED] == info[node, LEGAL]
    draw = False
    slowest_loss = 0
    first = links[node, FIRST]
    for child in range(first, first + info[node, TRIED]):
        proof = info[child, PROOF]
        plies = info[child, PLIES]
        if proof == LOSS:
            if quickest_win < 0 or plies < quickest_win:
                quickest_win = plies
        elif proof == UNPROVEN:
            decided = False
        elif proof == PROVEN_DRAW:
            draw = True
        elif plies > slowest_loss:
            slowest_loss = plies
    if quickest_win >= 0:
        info[node, PROOF] = WIN
        info[node, PLIES] = quickest_win + 1
        return True
    if not decided:
        return False
    if draw:
        info[node, PROOF] = PROVEN_DRAW
    else:
        info[node, PROOF] = LOSS
        info[node, PLIES] = slowest_loss + 1
    return True


@kernel
def _back_up(links: Links, info: Info, node: Int) -> bool:
    """Set the node's minimax: minus the best of its children's for the player
    choosing. True if its parent may have to change too: the value changed, or the
    node is proven (its parent reads the proof, which may be new)."""
    first = links[node, FIRST]
    if first < 0:
        return True
    best = -MM_UNIT - 1
    for child in range(first, first + info[node, LEGAL]):
        proof = info[child, PROOF]
        v = links[child, MINIMAX] if proof == UNPROVEN else -_proof_value(proof) * MM_UNIT
        if v > best:
            best = v
    changed = links[node, MINIMAX] != -best
    links[node, MINIMAX] = -best
    return bool(changed or info[node, PROOF] != UNPROVEN)


@kernel
def _select(links: Links, info: Info, node: Int, c: float, solver: bool, draw: float, minimax: float) -> Int:
    """The child with the best UCT score among the tried ones (all are tried here); a
    proven draw is worth `draw` to the player choosing. With `minimax`, an unproven
    child's mean is blended with its minimax value, in that share."""
    scale = c * math.sqrt(math.log(links[node, VISITS]))
    first = links[node, FIRST]
    best = first
    best_score = -math.inf
    for child in range(first, first + info[node, TRIED]):
        proof = info[child, PROOF]
        visits = links[child, VISITS]
        if proof == UNPROVEN:
            mean = links[child, TOTAL] / (visits * UNIT)
            if minimax > 0:
                mean = (1 - minimax) * mean + minimax * links[child, MINIMAX] / MM_UNIT
        elif proof == WIN and solver:
            continue  # a proven loss for the player choosing: never worth another look
        elif proof == PROVEN_DRAW:
            mean = draw
        else:
            mean = -_proof_value(proof)
        score = mean + scale / math.sqrt(visits)
        if score > best_score:
            best, best_score = child, score
    return best  # type: ignore[no-any-return]  # a row index of `links`


@kernel
def _expand(
    game: int,
    links: Links,
    info: Info,
    used: npt.NDArray[np.int64],
    node: Int,
    ws: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    rng: npt.NDArray[np.uint64],
    minimax: float,
    weights: npt.NDArray[np.float64],
    child_state: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
    scratch: npt.NDArray[np.int64],
) -> None:
    """Give `node` (position `ws`) its block of children, in a random order; with
    `minimax`, each child also gets its static value (`MINIMAX`), and the block is
    sorted best first, so that the first tried is the evaluation's choice."""
    n = legal(game, ws, moves)
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    first = used[0]
    used[0] += n
    if minimax > 0:
        # Each child's static value for the player choosing, best first (insertion sort,
        # stable: ties keep the random order).
        for i in range(n):
            child_state[:] = ws
            play(game, child_state, np.int64(moves[i]))
            if child_state[RESULT] != 0:
                v = -float(_proof_value(_end_proof(child_state)))
            else:
                v = -learned_value(child_state, weights, scratch)
            scores[i] = round(v * MM_UNIT)
        for i in range(1, n):
            m, sc = moves[i], scores[i]
            k = i - 1
            while k >= 0 and scores[k] < sc:
                moves[k + 1], scores[k + 1] = moves[k], scores[k]
                k -= 1
            moves[k + 1], scores[k + 1] = m, sc
    for i in range(n):
        child = first + i
        links[child, VISITS] = 0
        links[child, TOTAL] = 0
        links[child, FIRST] = -1
        links[child, MINIMAX] = scores[i] if minimax > 0 else 0
        info[child, MOVE] = moves[i]
        info[child, TRIED] = 0
        info[child, LEGAL] = -1
        info[child, PROOF] = UNPROVEN
        info[child, PLIES] = 0
    links[node, FIRST] = first
    info[node, LEGAL] = n


@kernel
def search(
    game: int,
    root_state: npt.NDArray[np.int64],
    links: Links,
    info: Info,
    used: npt.NDArray[np.int64],
    iterations: int,
    deadline: float,
    c: float,
    solver: bool,
    rng: npt.NDArray[np.uint64],
    guided: bool,
    contempt: int,
    minimax: float,
    weights: npt.NDArray[np.float64],
) -> int:
    """Run up to `iterations` iterations from node 0 (position `root_state`), until
    `deadline` (a perf_counter time; <= 0: none) or until the root is proven; the number
    done. `used[0]` is the number of nodes in use. `contempt`: what a draw costs the
    root's player, in units (0 to UNIT)."""
    capacity = links.shape[0]
    ws = np.empty(SIZE, dtype=np.int64)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    path = np.empty(MAX_PATH, dtype=np.int64)
    child_state = np.empty(SIZE, dtype=np.int64)
    scores = np.empty(MAX_MOVES, dtype=np.int64)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    done = 0
    if links[0, FIRST] < 0:
        # A root without children (a kept node proven at its first visit, or whose block
        # did not fit) is searched again: its children are the answer.
        info[0, PROOF] = UNPROVEN
    while done < iterations and info[0, PROOF] == UNPROVEN:
        if deadline > 0 and done % CLOCK_EVERY == 0 and done > 0 and now() >= deadline:
            break
        ws[:] = root_state
        node: Int = np.int64(0)  # not a literal 0: numba would compile the callees twice
        path[0] = 0
        length = 1
        while True:
            proof = info[node, PROOF]
            if proof != UNPROVEN:
                result = _units(_proof_value(proof), _draw_for(length - 1, contempt))
                break
            if links[node, FIRST] < 0:
                # A new leaf gets one playout, its children come on the next visit; a
                # full tree stops growing: playouts from its leaves.
                if (node != 0 and links[node, VISITS] == 0) or used[0] + count(game, ws) > capacity:
                    if solver and node != 0 and winning_move(game, ws) >= 0:
                        # Proven at once, without waiting for the winning child's turn
                        # among the others (the root keeps its children: they are the answer).
                        info[node, PROOF] = WIN
                        info[node, PLIES] = 1
                        result = UNIT
                    else:
                        side = ws[TURN]  # before the playout moves on from this position
                        played = _result_for(_playout(game, ws, rng, guided), side)
                        result = _units(played, _draw_for(length - 1, contempt))
                    break
                _expand(game, links, info, used, node, ws, moves, rng, minimax, weights, child_state, scores, scratch)
            tried = info[node, TRIED]
            if tried < info[node, LEGAL]:
                info[node, TRIED] = tried + 1
                node = links[node, FIRST] + tried
            else:
                chooser_draw = _draw_for(length - 1, contempt) / UNIT
                node = _select(links, info, node, c, solver, chooser_draw, minimax)
            play(game, ws, np.int64(info[node, MOVE]))
            path[length] = node
            length += 1
            if ws[RESULT] != 0:
                info[node, PROOF] = _end_proof(ws)
                result = _units(_proof_value(info[node, PROOF]), _draw_for(length - 1, contempt))
                break
        # `result` is for the player to move at the leaf; each node keeps it for the
        # player who moved into it: one sign flip per ply on the way up.
        for i in range(length - 1, -1, -1):
            result = -result
            visited = path[i]
            links[visited, VISITS] += 1
            links[visited, TOTAL] += result
        if solver and info[path[length - 1], PROOF] != UNPROVEN:
            for i in range(length - 2, -1, -1):
                if not _prove(links, info, path[i]):
                    break
        if minimax > 0:
            # Only the path's nodes can change; above the first that did not, none did.
            for i in range(length - 2, -1, -1):
                if not _back_up(links, info, path[i]):
                    break
        done += 1
    return done


@kernel
def find(
    game: int,
    links: Links,
    info: Info,
    root_state: npt.NDArray[np.int64],
    target: npt.NDArray[np.int64],
) -> int:
    """The node of position `target`: the root (0), a child or a grandchild; else -1."""
    if np.array_equal(root_state, target):
        return 0
    ws = np.empty(SIZE, dtype=np.int64)
    below_root = np.empty(SIZE, dtype=np.int64)
    first = links[0, FIRST]
    for child in range(first, first + info[0, TRIED]):
        below_root[:] = root_state
        play(game, below_root, np.int64(info[child, MOVE]))
        if np.array_equal(below_root, target):
            return child
        start = links[child, FIRST]
        for grandchild in range(start, start + info[child, TRIED]):
            ws[:] = below_root
            play(game, ws, np.int64(info[grandchild, MOVE]))
            if np.array_equal(ws, target):
                return grandchild
    return -1


@kernel
def compact(links: Links, info: Info, root: int, into_links: Links, into_info: Info) -> int:
    """Copy the subtree under `root` into `into_*` (root at 0), breadth first, block by
    block as far as they fit; the number of nodes copied."""
    capacity = into_links.shape[0]
    source = np.empty(capacity, dtype=np.int64)
    into_links[0] = links[root]
    into_info[0] = info[root]
    source[0] = root
    used = 1
    i = 0
    while i < used:
        old = source[i]
        n = info[old, LEGAL] if links[old, FIRST] >= 0 else 0
        if n > 0 and used + n <= capacity:
            first = links[old, FIRST]
            into_links[i, FIRST] = used
            for k in range(n):
                into_links[used + k] = links[first + k]
                into_info[used + k] = info[first + k]
                source[used + k] = first + k
            used += n
        else:
            # No block, or no room for it: the node's children are untried again (a
            # proof stays: it is a fact about the position, whatever the tree holds).
            into_links[i, FIRST] = -1
            into_info[i, TRIED] = 0
        i += 1
    return used
