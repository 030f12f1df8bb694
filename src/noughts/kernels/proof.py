"""Qubic proof-number search: is there a forced win for the player to move, also where
the attacker must make quiet moves between its threats?

Proof-number search (Allis 1994) grows a tree towards the node that is cheapest to
settle: every node counts how many leaves must still be proven for it to be a win
(proof number) or disproven (disproof number); from the root it always descends to the
child with the smallest number that matters (at the attacker's nodes the proof number,
at the defender's the disproof number) and expands it. A defender's node after a
threat has one child (the block), so sequences of threats are the cheapest lines and
are followed first; the threat-space search (`noughts.kernels.threats`) settles each new
attacker's node in one call where a win by threats alone exists. That is how Qubic was
solved, with an opening book on top (the search alone does not prove the empty board).

With `null_depth` > 0 (the stored Qubic proof's leaves, `noughts.ai.qubic_proof`) the
defender's nodes use the null move (Allis 1994): were the defender to pass, the
attacker's threat sequence (looked for `null_depth` threats deep when the node is
made, `LEAF_THREATS` when it is expanded) beats every reply after which it, played
again, still wins (`threats.replays`), so only the others are searched; the node's
first proof number counts them. The players keep 0: on the three positions of
tests/kernels/test_proof.py the null move proves one no faster, one 2.7 times slower
and one not at all (a chain of forced replies 36 plies deep), though on positions six
marks into the stored proof's lines it proves many more (`NULL_SETTLE_DEPTH`).

The tree lives in preallocated arrays; a child's index is always larger than its
parent's, so the distance to the win is computed in one backward pass.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.kernels.cube import CELLS, popcount
from noughts.kernels.evaluate import threats
from noughts.kernels.jit import kernel, kernel_uncounted, now
from noughts.kernels.layout import Int
from noughts.kernels.threats import NODES as THREAT_NODES
from noughts.kernels.threats import PLIES as THREAT_PLIES
from noughts.kernels.threats import forced_in, stack_size, unanswered

__all__ = ["EXPANSIONS", "PLIES", "SEARCHED", "TREE", "Memo", "ProofTree", "prove"]

INF: Int = np.int64(1) << np.int64(40)
# Slots of the `stats` array.
TREE, EXPANSIONS, PLIES, SEARCHED = range(4)
#: How many threats deep, and with how many nodes, each new attacker's node is tried
#: by the threat-space search.
LEAF_THREATS = 8
LEAF_NODES = 400
CLOCK_EVERY = 16
#: How many threats deep a new defender's node looks for the attacker's null-move
#: sequence (at its expansion: `LEAF_THREATS`). Measured on 398 positions six marks in
#: (tools/qubic_proof/bench_build.py --leaves, 500 then 3,000 expansions): unproven 56 with
#: none (the sequence looked for only at expansion), 64 at depth 2, 32 at 3 (48 s), 36
#: at 4 (101 s), 39 at 5 (152 s).
NULL_SETTLE_DEPTH = 3
#: A tree's own memo: 2**16 slots, 3 MB.
MEMO_BITS = 16
#: Memo tags: a new attacker's node; a new defender's node (plus the null-move depth);
#: the null move at a defender's expansion.
ATTACKER_NODE, DEFENDER_NODE, EXPANDED = 1, 2, 64
_MIX_A = np.uint64(0x9E3779B97F4A7C15)
_MIX_D = np.uint64(0xC2B2AE3D27D4EB4F)


@kernel_uncounted
def _open(
    attacker: int,
    defender: int,
    leaf: npt.NDArray[np.float64],
    line: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    depth: int,
) -> tuple[bool, Int]:
    """The defender to move, the attacker without a threat: whether the attacker, were
    the defender to pass, wins by threats (the null move), and the defender's replies
    after which that sequence, played again, does not win (`threats.unanswered`): the
    only ones worth searching, since every other loses to it (Allis 1994)."""
    if forced_in(attacker, defender, depth, leaf, 0.0, LEAF_NODES, line, stack) < 0:
        return False, 0
    return True, unanswered(attacker, defender, line)


@kernel_uncounted
def _settle(
    attacker: int,
    defender: int,
    attacker_to_move: bool,
    leaf: npt.NDArray[np.float64],
    line: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    null_depth: int,
) -> tuple[Int, Int, Int]:
    """A new node's (proof number, disproof number, plies to the win when proven). The
    plies count from this node. A defender's node gets one for each reply left to
    search (`_open`): proven when none is."""
    if attacker_to_move:
        if threats(attacker, defender):
            return 0, INF, 1
        against = threats(defender, attacker)
        if popcount(against) >= 2 or (attacker | defender) == -1:
            return INF, 0, 0
        if against == 0 and forced_in(attacker, defender, LEAF_THREATS, leaf, 0.0, LEAF_NODES, line, stack) >= 0:
            return 0, INF, int(leaf[THREAT_PLIES])
        return 1, 1, 0
    if threats(defender, attacker) or (attacker | defender) == -1:
        return INF, 0, 0
    made = threats(attacker, defender)
    if popcount(made) >= 2:
        return 0, INF, 2
    if made:
        return 1, 1, 0
    if null_depth <= 0:
        return CELLS - popcount(attacker | defender), 1, 0
    found, left = _open(attacker, defender, leaf, line, stack, null_depth)
    if found and not left:
        moves = 0
        while moves < line.shape[0] and line[moves] >= 0:
            moves += 1
        return 0, INF, 2 * moves + 2  # the reply, the sequence, the block, the line
    if found:
        return popcount(int(left)), 1, 0
    return CELLS - popcount(attacker | defender), 1, 0


@kernel_uncounted
def _slot(attacker: int, defender: int, tag: int, keys: npt.NDArray[np.int64]) -> Int:
    """The memo's slot of a position and tag (the memo has a power of two of them)."""
    h = (np.uint64(attacker) * _MIX_A) ^ (np.uint64(defender) * _MIX_D) ^ np.uint64(tag)
    h ^= h >> np.uint64(31)
    h *= _MIX_A
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(keys.shape[0] - 1))


@kernel_uncounted
def _known(slot: Int, attacker: int, defender: int, tag: int, keys: npt.NDArray[np.int64]) -> bool:
    return bool(keys[slot, 2] == tag and keys[slot, 0] == attacker and keys[slot, 1] == defender)


@kernel_uncounted
def _keep(
    slot: Int,
    attacker: int,
    defender: int,
    tag: int,
    a: Int,
    b: Int,
    c: Int,
    keys: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
) -> None:
    keys[slot, 0], keys[slot, 1], keys[slot, 2] = attacker, defender, tag
    values[slot, 0], values[slot, 1], values[slot, 2] = a, b, c


@kernel_uncounted
def _settle_known(
    attacker: int,
    defender: int,
    attacker_to_move: bool,
    leaf: npt.NDArray[np.float64],
    line: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    null_depth: int,
    keys: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
) -> tuple[Int, Int, Int]:
    """`_settle`, through the memo."""
    tag = ATTACKER_NODE if attacker_to_move else DEFENDER_NODE + null_depth
    slot = _slot(attacker, defender, tag, keys)
    if _known(slot, attacker, defender, tag, keys):
        return values[slot, 0], values[slot, 1], values[slot, 2]
    pn, dn, plies = _settle(attacker, defender, attacker_to_move, leaf, line, stack, null_depth)
    _keep(slot, attacker, defender, tag, pn, dn, plies, keys, values)
    return pn, dn, plies


@kernel_uncounted
def _open_known(
    attacker: int,
    defender: int,
    leaf: npt.NDArray[np.float64],
    line: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
) -> tuple[bool, Int]:
    """`_open` at a defender's expansion (`LEAF_THREATS` deep), through the memo."""
    slot = _slot(attacker, defender, EXPANDED, keys)
    if _known(slot, attacker, defender, EXPANDED, keys):
        return values[slot, 0] != 0, values[slot, 1]
    found, left = _open(attacker, defender, leaf, line, stack, LEAF_THREATS)
    _keep(slot, attacker, defender, EXPANDED, np.int64(found), left, np.int64(0), keys, values)
    return found, left


class Memo:
    """What the searches settled at new nodes, by position (a table of `2**bits` slots,
    the last result per slot, 48 bytes each): `_settle` and `_open` are functions of
    the position alone (no clock, the same node limits), so a position met again (a
    transposition in the tree, or in another search on the same memo: the proof's
    sibling leaves share most of their positions) costs a lookup instead of a threat
    search, and every search goes exactly as it would without the memo."""

    def __init__(self, bits: int) -> None:
        self.keys = np.zeros((1 << bits, 3), dtype=np.int64)  # attacker's, defender's marks, tag (0: empty)
        self.values = np.zeros((1 << bits, 3), dtype=np.int64)


class ProofTree:
    """The arrays of a proof-number search's tree, allocated once and kept by a player
    (tens of megabytes): per node its marks (attacker's, defender's), proof and
    disproof numbers, plies to the win, parent, first child, number of children, the
    move that led to it and its depth (even: the attacker is to move); and its `Memo`
    (its own, or one shared with other trees)."""

    def __init__(self, capacity: int, memo: Memo | None = None) -> None:
        self.marks = np.zeros((capacity, 2), dtype=np.int64)
        self.numbers = np.zeros((capacity, 3), dtype=np.int64)  # pn, dn, plies
        self.links = np.zeros((capacity, 5), dtype=np.int64)  # parent, first, count, move, depth
        self.stats = np.zeros(4, dtype=np.float64)
        self.memo = memo if memo is not None else Memo(MEMO_BITS)

    def prove(self, attacker: int, defender: int, deadline: float, max_expansions: int, null_depth: int = 0) -> int:
        """`prove` on this tree; `stats` holds its figures afterwards."""
        self.stats[:] = 0
        return prove(
            attacker,
            defender,
            self.marks,
            self.numbers,
            self.links,
            deadline,
            max_expansions,
            self.stats,
            self.memo.keys,
            self.memo.values,
            null_depth,
        )


# Columns of `ProofTree.links`.
PARENT, FIRST, COUNT, MOVE, DEPTH = range(5)


@kernel
def prove(
    attacker: int,
    defender: int,
    marks: npt.NDArray[np.int64],
    numbers: npt.NDArray[np.int64],
    links: npt.NDArray[np.int64],
    deadline: float,
    max_expansions: int,
    stats: npt.NDArray[np.float64],
    memo_keys: npt.NDArray[np.int64],
    memo_values: npt.NDArray[np.int64],
    null_depth: int = 0,
) -> int:
    """A move with which `attacker`, to move, wins by force, or -1 if none was proven
    before the tree was full, `max_expansions` expansions or the `deadline` (0: none).
    The tree is left in the arrays (`ProofTree`); `stats`: tree size, expansions,
    plies to the win (the longest line of the proof: the win comes no later), nodes
    of the threat searches."""
    capacity = marks.shape[0]
    att, dfn = marks[:, 0], marks[:, 1]
    pn, dn, plies = numbers[:, 0], numbers[:, 1], numbers[:, 2]
    parent, first, count, move, depth = links[:, 0], links[:, 1], links[:, 2], links[:, 3], links[:, 4]
    leaf = np.zeros(3, dtype=np.float64)
    # The threat searches' line and stack, made once for the whole search.
    deepest = max(LEAF_THREATS, null_depth)
    line = np.empty(deepest + 1, dtype=np.int64)
    stack = np.empty(stack_size(deepest), dtype=np.int64)
    parent[0], first[0], count[0], move[0], depth[0] = -1, -1, 0, -1, 0
    att[0], dfn[0] = attacker, defender
    pn[0], dn[0], plies[0] = _settle_known(
        attacker, defender, True, leaf, line, stack, null_depth, memo_keys, memo_values
    )
    stats[SEARCHED] += leaf[THREAT_NODES]
    leaf[:] = 0
    size = 1
    expansions = 0
    while pn[0] != 0 and dn[0] != 0 and expansions < max_expansions:
        if deadline > 0 and expansions % CLOCK_EVERY == 0 and now() >= deadline:
            break
        # Down to the most proving node.
        node = 0
        while first[node] >= 0:
            best, pick = INF + 1, -1
            for child in range(first[node], first[node] + count[node]):
                number = pn[child] if depth[node] % 2 == 0 else dn[child]
                if number < best:
                    best, pick = number, child
            node = pick
        # Expand it: the block of a single threat against the mover, else every cell
        # (the defender's: those the null-move sequence does not beat, `_open`).
        mover_is_attacker = depth[node] % 2 == 0
        mine = att[node] if mover_is_attacker else dfn[node]
        theirs = dfn[node] if mover_is_attacker else att[node]
        against = threats(theirs, mine)
        cells = against if against else ~(mine | theirs)
        if null_depth > 0 and not against and not mover_is_attacker:
            found, left = _open_known(att[node], dfn[node], leaf, line, stack, memo_keys, memo_values)
            stats[SEARCHED] += leaf[THREAT_NODES]
            leaf[:] = 0
            if found:
                cells = left
        n = popcount(cells)
        if size + n > capacity:
            break
        expansions += 1
        first[node], count[node] = size, n
        for cell in range(CELLS):
            if not (cells >> cell) & 1:
                continue
            bit = np.int64(1) << np.int64(cell)
            a = att[node] | bit if mover_is_attacker else att[node]
            d = dfn[node] if mover_is_attacker else dfn[node] | bit
            att[size], dfn[size], parent[size], move[size], depth[size] = a, d, node, cell, depth[node] + 1
            first[size], count[size] = -1, 0
            pn[size], dn[size], plies[size] = _settle_known(
                a, d, not mover_is_attacker, leaf, line, stack, null_depth, memo_keys, memo_values
            )
            stats[SEARCHED] += leaf[THREAT_NODES]
            leaf[:] = 0
            size += 1
        # Back up to the root.
        while node >= 0:
            lo_pn: Int = INF
            lo_dn: Int = INF
            sum_pn: Int = 0
            sum_dn: Int = 0
            for child in range(first[node], first[node] + count[node]):
                lo_pn, lo_dn = min(lo_pn, pn[child]), min(lo_dn, dn[child])
                sum_pn, sum_dn = min(sum_pn + pn[child], INF), min(sum_dn + dn[child], INF)
            if depth[node] % 2 == 0:
                pn[node], dn[node] = lo_pn, sum_dn
            else:
                pn[node], dn[node] = sum_pn, lo_dn
            node = parent[node]
    stats[TREE], stats[EXPANSIONS] = size, expansions
    if pn[0] != 0:
        return -1
    # Plies to the win, children before parents: the attacker's quickest proven child,
    # the defender's slowest reply.
    for node in range(size - 1, -1, -1):
        if first[node] < 0 or pn[node] != 0:
            continue
        attacker_moves = depth[node] % 2 == 0
        best = INF if attacker_moves else np.int64(0)
        for child in range(first[node], first[node] + count[node]):
            if attacker_moves and pn[child] == 0:
                best = min(best, plies[child] + 1)
            elif not attacker_moves:
                best = max(best, plies[child] + 1)
        plies[node] = best
    stats[PLIES] = plies[0]
    if first[0] < 0:
        return -1  # proven at once: a win by threats, which `forced_win` finds with its move
    for child in range(first[0], first[0] + count[0]):
        if pn[child] == 0 and plies[child] + 1 == plies[0]:
            return int(move[child])
    return -1
