"""Qubic's first-player win as a stored strategy, its checker, and the move it gives.

A strategy is a table over x's positions (x to move), each up to the cube's 192
symmetries (`noughts.kernels.symmetry`: the key is the canonical image, and the moves
are in that image's frame). An entry holds either

* a cell, 0-63: x's move there, after which every reply of o leads to an entry again,
  or to a position where x completes a line at once; or
* a leaf code: the position is a win the compiled searches prove on their own, with
  the budget the file records: `THREATS` by the threat-space search
  (`noughts.kernels.threats`, x also wins when it already has three in a line), or
  `pn_code(k)` (`PN` for k = 0) by the proof-number search over it
  (`noughts.kernels.proof`) with the k-th of the budget's numbers of expansions.

`check` walks the whole table from a root: at x's entries the move must be legal and
may not let o win; then every reply of o (all 64 - n cells, grouped up to symmetry)
must lead to a position where x completes a line at once or to an entry, and every
leaf is proven again. Nothing the builder (tools/qubic_proof/qubic_build.py) believed is taken
on trust, so a table that passes is a proof that x wins from the root, whatever o does
(given the searches it names, which are themselves checked against the rules in
tests/kernels/test_proof.py).

The file is a compressed numpy archive: `xs`, `os` (the keys' marks, uint64), `codes`
(int8), and `budget` (the threat search's node limit and depth, then the numbers of
expansions of the proof-number search's levels).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "PN",
    "SHIPPED",
    "THREATS",
    "Budget",
    "CheckReport",
    "ProofError",
    "Strategy",
    "check",
    "completes",
    "key_of",
    "leaf_move",
    "leaf_proven",
    "lines",
    "open_replies",
    "pn_code",
    "shipped",
    "subtree",
    "threat_cells",
]

#: Where a checked strategy from the empty board is shipped (absent until one is built).
SHIPPED = Path(__file__).resolve().parent / "books" / "qubic_proof.npz"
#: Leaf codes: by the threat search; by the proof-number search's first level (the
#: k-th level's code is PN - k, `pn_code`).
THREATS = -1
PN = -2

MASK64 = (1 << 64) - 1


class ProofError(Exception):
    """A stored strategy does not prove the win: what is wrong, and where."""


@dataclass(frozen=True)
class Budget:
    """How hard a leaf is searched: the threat search's nodes and depth (in threats),
    and the proof-number search's expansions at each level, tried in turn (a small
    search proves most leaves that can be; a larger one is worth its cost on the rest:
    on x's positions of six marks where 500 expansions failed, 2,000 proved 5 of 30 at
    0.4 s each, 8,000 one more at 1.4 s). Builder and checker must use the same."""

    threat_nodes: int = 20_000
    threat_depth: int = 16
    expansions: tuple[int, ...] = (500, 3_000)


def pn_code(level: int) -> int:
    """The leaf code of a proof by the proof-number search's `level` (0 first)."""
    return PN - level


@dataclass
class Strategy:
    """x's moves (or leaf codes) by canonical position: key (x, o) as unsigned ints."""

    entries: dict[tuple[int, int], int]
    budget: Budget = field(default_factory=Budget)
    #: `_move_past_leaf`'s answers by canonical key (a player is asked the same position
    #: again: the analysis board, a hint, then the move).
    _past: dict[tuple[int, int], int | None] = field(default_factory=dict, init=False, compare=False, repr=False)

    def save(self, path: Path) -> None:
        keys = sorted(self.entries)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                xs=np.array([k[0] for k in keys], dtype=np.uint64),
                os=np.array([k[1] for k in keys], dtype=np.uint64),
                codes=np.array([self.entries[k] for k in keys], dtype=np.int8),
                budget=np.array(
                    [self.budget.threat_nodes, self.budget.threat_depth, *self.budget.expansions], dtype=np.int64
                ),
            )

    @classmethod
    def load(cls, path: Path) -> Strategy:
        with np.load(path) as data:
            nodes, depth, *expansions = (int(v) for v in data["budget"])
            entries = {(int(x), int(o)): int(c) for x, o, c in zip(data["xs"], data["os"], data["codes"], strict=True)}
        return cls(entries, Budget(nodes, depth, tuple(expansions)))

    def move(self, x: int, o: int) -> int | None:
        """x's winning move in the position (x, o) (unsigned masks, x to move): the
        stored move, mapped back from the canonical frame; at a leaf, and past one (o's
        replies there are not stored), the move of the search that proves the win
        (`leaf_move`), searched in the canonical frame too and mapped back. None where
        neither knows one.

        The searches depend on the frame (their move orders follow the cells' numbers):
        a leaf is proven by the checker in its canonical frame, and searched in another
        it fails about one time in five. Searched there, it finds the checker's proof in
        every one of the 192 orientations.

        Past a leaf proven by the proof-number search, each of x's positions is searched
        again with the same budget: it lies inside the leaf's proof, a smaller problem,
        but nothing guarantees that the search finds it again. Where it does not, the
        leaf's own proof answers (`_move_past_leaf`), else the search in the position's
        own frame; where none does, this says None and the player searches on its own."""
        from noughts.kernels import symmetry

        key, s = key_of(x, o)
        stored = self.entries.get(key)
        move = stored if stored is not None and stored >= 0 else _canonical_leaf_move(*key, self.budget)
        if move is None and stored is None:
            if key not in self._past:
                self._past[key] = self._move_past_leaf(key, x, o, s)
            move = self._past[key]
        return None if move is None else int(symmetry.IMAGE[symmetry.INVERSE[s], move])

    def _move_past_leaf(self, key: tuple[int, int], x: int, o: int, s: int) -> int | None:
        """x's move, in the canonical frame `key` (symmetry `s` takes (x, o) there), from
        the proof of a proof-number leaf the position lies past: the leaf is found by
        taking back up to `LEAF_BACK` moves of each side, its search run again in its
        canonical frame (the checker's search, so the same tree), and the position
        followed down that tree to x's proven move. Where a leaf is found but the
        position is not in its tree, the search in the position's own frame (a proof
        found in any frame is one, and this one sometimes succeeds where the others
        fail). None where neither answers, or no leaf is found."""
        from itertools import combinations
        from math import comb

        from noughts.kernels import symmetry

        cx, co = key
        mine = [c for c in range(64) if cx >> c & 1]
        theirs = [c for c in range(64) if co >> c & 1]
        leaves = False
        for back in range(1, LEAF_BACK + 1):
            if back > len(theirs) or comb(len(mine), back) * comb(len(theirs), back) > LEAF_BACK_POSITIONS:
                break
            earlier = [
                (cx & ~sum(1 << c for c in xs), co & ~sum(1 << c for c in os))
                for xs in combinations(mine, back)
                for os in combinations(theirs, back)
            ]
            found = np.zeros((len(earlier), 3), dtype=np.int64)
            symmetry.canonical_all(
                np.array([_signed(a) for a, _ in earlier], dtype=np.int64),
                np.array([_signed(b) for _, b in earlier], dtype=np.int64),
                symmetry.BYTES,
                found,
            )
            for lx, lo, t in found:
                leaf = (int(lx) & MASK64, int(lo) & MASK64)
                code = self.entries.get(leaf)
                if code is None or code > PN:
                    continue
                leaves = True
                move = _move_in_leaf_tree(leaf, int(t), cx, co, self.budget)
                if move is not None:
                    return move
        if not leaves:
            return None
        move = leaf_move(x, o, self.budget)
        return None if move is None else int(symmetry.IMAGE[s, move])


#: How many moves of each side `Strategy.move` takes back to find the leaf a position
#: lies past, and how many earlier positions it looks up at most (each in about 10 us,
#: the lists built in Python about as long again).
LEAF_BACK = 4
LEAF_BACK_POSITIONS = 20_000


def _move_in_leaf_tree(leaf: tuple[int, int], s: int, x: int, o: int, budget: Budget) -> int | None:
    """x's move in (x, o) from the proof tree of the proof-number leaf `leaf` (a canonical
    key; symmetry `s` takes (x, o) to its frame), or None where the position is not in
    that tree: x's proven child, or at a node the tree settled by threats, the threat
    search's move with the tree's own limits."""
    from noughts.kernels import proof, symmetry, threats

    cx, co = leaf
    for expansions in budget.expansions:  # as `leaf_move`: the first level that proves
        tree = _proof_tree(expansions, shared_memo=False)
        if tree.prove(_signed(cx), _signed(co), 0.0, expansions, proof.NULL_SETTLE_DEPTH) >= 0:
            break
    else:
        return None
    tx = int(symmetry.transform(_signed(x), s, symmetry.BYTES)) & MASK64
    to = int(symmetry.transform(_signed(o), s, symmetry.BYTES)) & MASK64
    if tx & cx != cx or to & co != co:
        return None
    links, numbers = tree.links, tree.numbers
    node = _find(links, numbers, 0, tx & ~cx, to & ~co)
    if node < 0:
        return None
    first, count = int(links[node, proof.FIRST]), int(links[node, proof.COUNT])
    if first >= 0:
        proven = [c for c in range(first, first + count) if numbers[c, 0] == 0]
        if not proven:
            return None
        move = int(links[min(proven, key=lambda c: int(numbers[c, 2])), proof.MOVE])
    else:
        stats = np.zeros(3, dtype=np.float64)
        move = threats.forced_win(_signed(tx), _signed(to), proof.LEAF_THREATS, stats, 0.0, float(proof.LEAF_NODES))
        if move < 0:
            return None
    return int(symmetry.IMAGE[symmetry.INVERSE[s], move])


def _find(links: Any, numbers: Any, node: int, xs: int, os: int) -> int:
    """The node of the proven tree below `node` reached by playing the cells `xs` (the
    attacker's) and `os` (the defender's), proven itself; -1 when there is none."""
    from noughts.kernels.proof import COUNT, DEPTH, FIRST, MOVE

    if not xs and not os:
        return node if numbers[node, 0] == 0 and int(links[node, DEPTH]) % 2 == 0 else -1
    cells = xs if int(links[node, DEPTH]) % 2 == 0 else os
    first = int(links[node, FIRST])
    for child in range(first, first + int(links[node, COUNT])) if first >= 0 else ():
        move = int(links[child, MOVE])
        if numbers[child, 0] != 0 or not cells >> move & 1:
            continue
        bit = 1 << move
        found = _find(links, numbers, child, xs & ~bit, os & ~bit)
        if found >= 0:
            return found
    return -1


@functools.lru_cache(maxsize=256)
def _canonical_leaf_move(x: int, o: int, budget: Budget) -> int | None:
    """`leaf_move` on a canonical key, remembered: a player is asked the same position
    again (the analysis board, a hint, then the move), and its searches take up to a
    second."""
    return leaf_move(x, o, budget)


def _signed(mask: int) -> int:
    return mask - (1 << 64) if mask >> 63 else mask


def key_of(x: int, o: int) -> tuple[tuple[int, int], int]:
    """The canonical key of the position (x, o) (unsigned masks) and the symmetry that
    takes the position to it."""
    from noughts.kernels import symmetry

    cx, co, s = symmetry.canonical(_signed(x), _signed(o), symmetry.BYTES)
    return (int(cx) & MASK64, int(co) & MASK64), int(s)


@functools.lru_cache(maxsize=8)
def _proof_tree(expansions: int, shared_memo: bool = True) -> Any:
    """A tree for `expansions`, with the memo every leaf search of a build or a check
    shares (`_memo`), or (in play) with a small one of its own."""
    from noughts.kernels.proof import ProofTree

    # An expansion adds at most 64 nodes.
    return ProofTree(64 * (expansions + 1), _memo() if shared_memo else None)


@functools.cache
def _memo() -> Any:
    """One memo for every leaf search of this process (2**22 slots, 200 MB): a build's
    leaves are close to each other, and so are the positions their searches meet."""
    from noughts.kernels.proof import Memo

    return Memo(22)


def leaf_proven(x: int, o: int, budget: Budget, levels: int | None = None, first: int = 0) -> int | None:
    """How x, to move, is proven to win from (x, o) within `budget`: `THREATS` (also a
    line x completes at once), `pn_code(k)` for the first level k of the proof-number
    search that proves it (only the first `levels` are tried; None: all), or None when
    no search proves it. With `first` > 0 the threat search and the levels before
    `first` are taken as tried already (they failed): only the later levels run."""
    from noughts.kernels import threats
    from noughts.kernels.evaluate import threats as completing
    from noughts.kernels.proof import NULL_SETTLE_DEPTH

    sx, so = _signed(x), _signed(o)
    if first == 0:
        if completing(sx, so):
            return THREATS
        stats = np.zeros(3, dtype=np.float64)
        if threats.forced_win(sx, so, budget.threat_depth, stats, 0.0, float(budget.threat_nodes)) >= 0:
            return THREATS
    for level, expansions in enumerate(budget.expansions[:levels]):
        if level < first:
            continue
        tree = _proof_tree(expansions)
        tree.prove(sx, so, 0.0, expansions, NULL_SETTLE_DEPTH)
        if tree.numbers[0, 0] == 0:
            return pn_code(level)
    return None


def open_replies(x: int, o: int, budget: Budget) -> int:
    """o to move in (x, o) (a canonical key; x just moved and has no three to
    complete): the cells of o's replies that must be answered in the strategy. The
    others lose by the null-move argument (Allis 1994): were o to pass, x would win by
    the threat sequence the threat search finds (with the budget's limits), and after
    each of them that sequence, played again, still wins (`threats.replays` checks
    every step, so an o reply that blocks a line of it, takes one of its cells or
    makes o a threat of its own stays open). With no such sequence every empty cell.

    Builder and checker call this on the same canonical position, so they agree on
    the open replies whatever frame the checker walks in."""
    from noughts.kernels import threats

    sx, so = _signed(x), _signed(o)
    empty = ~(x | o) & MASK64
    line = np.full(budget.threat_depth + 1, -1, dtype=np.int64)
    stats = np.zeros(3, dtype=np.float64)
    if threats.forced_line(sx, so, budget.threat_depth, stats, 0.0, float(budget.threat_nodes), line) < 0:
        return empty
    return int(threats.unanswered(sx, so, line)) & MASK64


def leaf_move(x: int, o: int, budget: Budget) -> int | None:
    """The move with which the searches of `leaf_proven` win from (x, o), or None."""
    from noughts.kernels import threats
    from noughts.kernels.evaluate import threats as completing
    from noughts.kernels.proof import NULL_SETTLE_DEPTH

    sx, so = _signed(x), _signed(o)
    now = int(completing(sx, so)) & MASK64
    if now:
        return (now & -now).bit_length() - 1
    stats = np.zeros(3, dtype=np.float64)
    move = threats.forced_win(sx, so, budget.threat_depth, stats, 0.0, float(budget.threat_nodes))
    if move >= 0:
        return int(move)
    for expansions in budget.expansions:
        tree = _proof_tree(expansions, shared_memo=False)  # a player's: not the builder's 200 MB
        move = tree.prove(sx, so, 0.0, expansions, NULL_SETTLE_DEPTH)
        if move >= 0:
            return int(move)
    return None


@dataclass(frozen=True)
class CheckReport:
    """What a passed check walked: x's positions with a stored move, leaves proven
    again (by kind), o's replies answered by x completing a line, o's replies shown
    lost by replaying the null-move threat sequence (`open_replies`), and the deepest
    ply."""

    moves: int
    leaves: dict[int, int]
    immediate: int
    deepest: int
    replayed: int = 0


@functools.cache
def lines() -> tuple[int, ...]:
    """The cube's 76 lines as bit masks."""
    from noughts.games.geometry import line_masks

    return tuple(line_masks((4, 4, 4), 4))


def threat_cells(owner: int, other: int) -> int:
    """The empty cells that would complete a line of `owner`."""
    found = 0
    for line in lines():
        if not line & other and (owner & line).bit_count() == 3:
            found |= line & ~owner
    return found


def completes(owner: int) -> bool:
    """Whether `owner`'s marks hold a whole line."""
    return any(owner & line == line for line in lines())


def check(
    strategy: Strategy,
    root: tuple[int, int] = (0, 0),
    progress: Callable[[int], None] | None = None,
) -> CheckReport:
    """Walk the strategy from `root` (x's and o's marks, x to move) and raise ProofError
    at the first thing that does not hold; what was walked. Each position up to symmetry
    is checked once (transpositions share their subtree). `progress` hears the number of
    positions checked, every thousand."""
    return _walk(strategy, [root], progress)[0]


def subtree(strategy: Strategy, roots: Iterable[tuple[int, int]]) -> Strategy:
    """The part of `strategy` that a walk from `roots` reaches (`check`'s walk, which
    raises ProofError where a reply is not answered or a move is not legal, but the
    leaves are not proven again: the caller's check does that)."""
    seen = _walk(strategy, roots, reprove=False)[1]
    return Strategy({key: strategy.entries[key] for key in seen}, strategy.budget)


def _walk(
    strategy: Strategy,
    roots: Iterable[tuple[int, int]],
    progress: Callable[[int], None] | None = None,
    reprove: bool = True,
) -> tuple[CheckReport, set[tuple[int, int]]]:
    """`check` from each of `roots` (one walk: positions shared are walked once), and the
    positions walked; with `reprove` False the leaves are taken as they are stored."""
    from noughts.kernels import symmetry

    full = MASK64
    seen: set[tuple[int, int]] = set()
    leaves: dict[int, int] = {THREATS: 0} | {pn_code(k): 0 for k in range(len(strategy.budget.expansions))}
    moves = immediate = deepest = replayed = 0
    stack = [key_of(*root)[0] for root in roots]
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        if progress is not None and len(seen) % 1000 == 0:
            progress(len(seen))
        x, o = key
        ply = x.bit_count() + o.bit_count()
        deepest = max(deepest, ply)
        code = strategy.entries.get(key)
        if code is None:
            raise ProofError(f"x's position {_text(x, o)} is not in the strategy")
        if code < 0:
            if code not in leaves:
                raise ProofError(f"unknown leaf code {code} at {_text(x, o)}")
            # Searched no further than the stored code says: a leaf stored as proven by
            # threats must be proven by them, one of level k by the levels up to k.
            if reprove and leaf_proven(x, o, strategy.budget, levels=PN - code + 1) is None:
                raise ProofError(f"the leaf {_text(x, o)} is not proven again ({code})")
            leaves[code] += 1
            continue
        if code >= 64 or (x | o) >> code & 1:
            raise ProofError(f"x's move {code} at {_text(x, o)} is not legal")
        moves += 1
        x2 = x | 1 << code
        if completes(x2):
            continue
        if threat_cells(o, x2):
            raise ProofError(f"after x's move {code} at {_text(x, o)}, o completes a line")
        mine = threat_cells(x2, o)
        # o's replies in the frame of the canonical o position, where the null-move
        # sequence is looked for (as the builder did): those outside `left` lose to it.
        (cx, co), s = key_of(x2, o)
        left = full if mine else open_replies(cx, co, strategy.budget)
        for reply in range(64):
            bit = 1 << reply
            if (x2 | o) & bit:
                continue
            if mine & ~bit & full:
                immediate += 1  # x completes a line next
                continue
            if not left >> int(symmetry.IMAGE[s, reply]) & 1:
                replayed += 1
                continue
            child, _ = key_of(x2, o | bit)
            if child not in strategy.entries:
                raise ProofError(f"o's reply {reply} after x's {code} at {_text(x, o)} is not answered")
            stack.append(child)
    return CheckReport(moves, leaves, immediate, deepest, replayed), seen


def _text(x: int, o: int) -> str:
    return "".join("x" if x >> c & 1 else "o" if o >> c & 1 else "." for c in range(64))


@functools.cache
def shipped() -> Strategy | None:
    """The shipped strategy from the empty board, when there is one."""
    return Strategy.load(SHIPPED) if SHIPPED.exists() else None
