"""Building Qubic's proof (`noughts.ai.qubic_proof` checks and plays it): a proof-number search over the
positions up to symmetry whose leaves are settled by the compiled searches (PN², as
Allis 1994 solved Qubic, with the threat-space search inside the inner search).

The outer search keeps one node per position up to the cube's 192 symmetries (x's
positions: x to move, an OR node; o's: an AND node), so transpositions and symmetric
replies share their work; the positions form a DAG (a mark is added each ply). Each
round walks from the root to the most proving node, refreshing every node it passes
from its children (a node reached by several parents is brought up to date when it is
next walked through, not at once), expands it, and refreshes the path back up. A new
x position is first given to the threat search and then to the inner proof-number
search with a fixed budget (`Budget`): proven there, it becomes a leaf of the stored
strategy, which the checker proves again with the same budget; otherwise the inner
search's proof and disproof numbers seed its own.

The null move (Allis 1994; `qubic_proof.open_replies`) keeps o's nodes narrow: when
x, were o to pass, would win by a threat sequence, only the replies after which that
sequence, played again, does not win are searched (typically a dozen of 50-60); the
checker replays it for the others. x's moves are therefore all looked at (each o
position after them gets its null-move search) and ordered by how few replies they
leave, then by the lines evaluation.

Two economies keep the build narrower than the game: the inner search runs only on
positions with at least `pn_from` marks (earlier it proves nothing within its budget;
the threat search still runs everywhere), and at x's positions only the first `width`
moves by the lines evaluation (up to symmetry) are tried. Neither weakens the proof:
o's replies are all searched, and x needs only one winning move.

The state is written to a checkpoint every few minutes (pickle, written beside and
then renamed), and a build started again with the same checkpoint goes on from it;
``--report`` says how far a checkpoint got (x's positions near the start whose win is
proven, each extracted and checked):

    .venv/bin/python tools/qubic_proof/qubic_build.py CHECKPOINT [--minutes M] [--out FILE] [--report]

When the root is proven, the strategy is extracted (at x's positions a proven move,
the one whose proof is smallest; at o's every reply) and checked before it is written.
"""

from __future__ import annotations

import argparse
import copy
import operator
import os
import pickle
import sys
import threading
import time
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from noughts.ai.qubic_proof import (
    MASK64,
    THREATS,
    Budget,
    Strategy,
    check,
    key_of,
    open_replies,
    subtree,
)
from noughts.kernels.cube import holds_line, signed
from noughts.kernels.evaluate import qubic_lines, threats

__all__ = ["FORCED_COST", "Builder", "Node", "lines_score"]

INF = 1 << 40
_PN, _DN = operator.attrgetter("pn"), operator.attrgetter("dn")
#: An o position's first proof number: about what each reply costs, and what one
#: place further down the order of x's moves adds.
REPLY = 50
STEP = 20
#: `Builder.forced_cost` where it is on: a threat costs as a reply more would.
FORCED_COST = REPLY
#: Leaf kinds of a node, besides the stored codes THREATS and PN.
OPEN = 0
LOST = 1  # o wins: a disproof
SHALLOW = 2  # open after the inner search's first level; the later ones not tried yet
LEMMA = 3  # proven by an earlier build (`Builder.lemmas`), its proof kept there


@dataclass(slots=True)
class Node:
    pn: int
    dn: int
    kind: int = OPEN  # OPEN, SHALLOW, LOST, or the leaf code (negative) a search proved it with
    children: list[tuple[int, int]] | None = None  # keys, once expanded
    moves: list[int] = field(default_factory=list)  # the move to each child (x's nodes)
    size: int = 1  # nodes in the proof below, once proven (to pick small proofs)
    replies: int = 0  # o's nodes: the cells of the replies to search (`open_replies`)
    more: bool = False  # x's nodes: moves beyond the `width` tried are left


def lines_score(x: int, o: int) -> int:
    """The lines evaluation for x (`noughts.kernels.evaluate.qubic_lines`): open lines
    count 1, 10, 100 for one, two, three marks."""
    return int(qubic_lines(signed(x), signed(o)))


def _threats(owner: int, other: int) -> int:
    """`qubic_proof.threat_cells`, by the compiled kernel: a build asks it half a million times a
    minute, and the loop over the 76 lines in Python took a tenth of its time."""
    return int(threats(signed(owner), signed(other))) & MASK64


class Builder:
    """The outer proof-number search from `root` (x's and o's marks, x to move)."""

    def __init__(
        self,
        root: tuple[int, int] = (0, 0),
        budget: Budget | None = None,
        pn_from: int = 0,
        width: int = 0,
        by_replies: bool = True,
        known: MutableMapping[tuple[int, int], tuple[int, int, int]] | None = None,
        lazy: bool = False,
        lemmas: Strategy | None = None,
        mixed: bool = False,
    ) -> None:
        self.budget = budget or Budget()
        #: How many of x's moves (the first by the lines evaluation) are tried in each
        #: position; 0: all. The proof then may not be found where only others win,
        #: but it stays a proof: every reply of o is still searched.
        self.width = width
        #: The inner proof-number search runs on x's positions with at least this many
        #: marks: before, it proves nothing within its budget (measured: none of ten
        #: positions of four marks at 1,000 expansions, six of ten of six marks).
        self.pn_from = pn_from
        #: x's moves ordered by the replies they leave o (then the lines evaluation),
        #: or by the lines evaluation alone.
        self.by_replies = by_replies
        #: With `by_replies`: half of the `width` moves tried are the first by the
        #: replies they leave, the other half the first by the lines evaluation
        #: (alternating), so that quiet moves are among those tried from the start.
        self.mixed = mixed
        #: Added to the proof number of an o position that has one reply to search
        #: (x made a threat): a chain of threats then costs as it deepens, where its
        #: proof number was that of its last position, however deep (the outer
        #: search went down forced lines of 40 marks and more).
        self.forced_cost = FORCED_COST if mixed else 0
        #: A new x position gets the inner search's first level only; the later ones
        #: (six times its expansions) run when the outer search picks the position to
        #: expand. Most new positions are never picked (x needs one move, and an o
        #: position is dropped once one reply fails), and on a position no level proves
        #: the later levels are two thirds of the search's time.
        self.lazy = lazy
        self.deepened = 0
        #: An o position's expansion stops at the first reply that refutes x's move
        #: (`_expand_o`); False: every reply searched, in cell order (the bench's
        #: reference).
        self.cutoff = True
        self.root, _ = key_of(*root)
        self.nodes: dict[tuple[int, int], Node] = {}
        #: The inner search's results at x's positions, by key: (pn, dn, kind) of the
        #: new node. They depend only on the position and the budget, so a caller may
        #: hand in those of earlier builds (`qubic_frontier` keeps them across sessions)
        #: and a position searched before costs nothing: 99% of a build's time is these
        #: searches. Not part of a checkpoint (see `__getstate__`).
        self.known: MutableMapping[tuple[int, int], tuple[int, int, int]] = {} if known is None else known
        #: x's positions proven by earlier builds, with their proofs (`proven_inside`):
        #: each is proven at once here, and its proof is spliced into this one's
        #: strategy. Where a build of a hard position was lost with its machine (work/
        #: is not committed), the next one, even with every inner search remembered,
        #: goes another way and proves much of it again. Not part of a checkpoint.
        self.lemmas = lemmas
        self.seconds = 0.0  # build time so far, over every run
        self.expansions = 0
        self.leaf_searches = 0
        self.null_searches = 0
        self.nodes[self.root] = self._new_x(*self.root)

    # Evaluation of new nodes.
    def _new_x(self, x: int, o: int) -> Node:
        """x to move: settled by the searches where they can."""
        from noughts.ai.qubic_proof import leaf_proven

        settled = _by_marks(x, o)
        if settled is not None:
            return settled
        lemmas = getattr(self, "lemmas", None)
        if lemmas is not None and (x, o) in lemmas.entries:
            return Node(0, INF, LEMMA)
        if x.bit_count() + o.bit_count() < getattr(self, "pn_from", 0):
            # Too early for the inner search to prove anything: the threat search only.
            found = leaf_proven(x, o, self.budget, levels=0)
            return Node(0, INF, found) if found is not None else Node(REPLY, 1)
        known = self.known
        if (x, o) in known:
            node = Node(*known[(x, o)])
            if node.kind == SHALLOW and not self.lazy:
                self._deepen((x, o), node)
            return node
        self.leaf_searches += 1
        node = self._inner(x, o, 0, 1 if self.lazy else len(self.budget.expansions))
        known[(x, o)] = (node.pn, node.dn, node.kind)
        return node

    def _inner(self, x: int, o: int, first: int, levels: int) -> Node:
        """The node of x's position (x, o) after the inner search's levels `first` to
        `levels` - 1 (with `first` 0, the threat search before them)."""
        from noughts.ai.qubic_proof import _proof_tree, leaf_proven

        found = leaf_proven(x, o, self.budget, levels, first)
        if found is not None:
            return Node(0, INF, found)
        tree = _proof_tree(self.budget.expansions[levels - 1])
        pn, dn = int(tree.numbers[0, 0]), int(tree.numbers[0, 1])
        if dn == 0:
            # The search goes the same way with more expansions: the later levels,
            # were they run, would end in the same disproof.
            return Node(INF, 0, LOST)
        kind = SHALLOW if levels < len(self.budget.expansions) else OPEN
        return Node(max(1, min(pn, INF)), max(1, min(dn, INF)), kind)

    def _deepen(self, key: tuple[int, int], node: Node) -> None:
        """A `SHALLOW` node gets the inner search's later levels, in place."""
        self.deepened += 1
        deeper = self._inner(*key, 1, len(self.budget.expansions))
        node.pn, node.dn, node.kind = deeper.pn, deeper.dn, deeper.kind
        self.known[key] = (node.pn, node.dn, node.kind)

    def _new_o(self, x: int, o: int) -> Node:
        """o to move (x just moved, and did not complete a line). Its proof number is
        set near what its expansion will make it (every reply to search, at about
        `REPLY` each) so that x's moves are compared fairly. The replies to search are
        the block of x's threat, or those the null-move sequence does not beat
        (`open_replies`): none left, and the node is proven."""
        if _threats(o, x):
            return Node(INF, 0, LOST)
        made = _threats(x, o)
        if made & (made - 1):
            return Node(0, INF, THREATS)  # two threats: every reply loses at once
        if made:
            return Node(REPLY, 1, replies=made)
        self.null_searches += 1
        replies = open_replies(x, o, self.budget)
        if not replies:
            return Node(0, INF, THREATS, replies=0)  # every reply loses to the sequence
        return Node(REPLY * replies.bit_count(), 1, replies=replies)

    # The search.
    def _refresh(self, key: tuple[int, int], node: Node) -> None:
        if node.children is None or node.kind != OPEN:
            return
        nodes = self.nodes
        kids = [nodes[k] for k in node.children]
        x_moves = key[0].bit_count() == key[1].bit_count()
        # map over attrgetter: this runs a million times a minute, and generators
        # cost twice as much.
        if x_moves:
            node.pn = min(map(_PN, kids))
            node.dn = min(INF, sum(map(_DN, kids)))
            if node.dn == 0 and getattr(node, "more", False):
                # Every move tried fails, but only `width` were: the next ones are
                # tried (without this a disproof would be claimed that is none).
                self._expand(key, node)
                self._refresh(key, node)
                return
        else:
            node.pn = min(INF, sum(map(_PN, kids)))
            node.dn = min(map(_DN, kids))
            forced_cost = getattr(self, "forced_cost", 0)
            if forced_cost and 0 < node.pn < INF and node.replies and not node.replies & (node.replies - 1):
                node.pn = min(INF, node.pn + forced_cost)
        if node.pn == 0:
            node.size = 1 + (min(k.size for k in kids if k.pn == 0) if x_moves else sum(k.size for k in kids))

    def _expand(self, key: tuple[int, int], node: Node) -> None:
        if node.kind == SHALLOW:
            # Picked: its later levels first, its moves next time. Expanding it at once
            # instead (all, or those of proof number above 8) was no faster: 1.09 and
            # 1.05 times on tools/qubic_proof/bench_build.py's four harder positions, two of
            # four slower each time (the bench's --deepen, at 808e3da).
            self._deepen(key, node)
            return
        x, o = key
        x_moves = x.bit_count() == o.bit_count()
        children: list[tuple[int, int]] = []
        moves: list[int] = []
        if not x_moves:
            self._expand_o(key, node)
            return
        forced = _threats(o, x)
        cells = forced if forced else ~(x | o) & MASK64
        # Every move up to symmetry is looked at (o's position after it evaluated,
        # with its null-move search), and the fewest replies to search come first,
        # then the lines evaluation: x needs one good move, not all, so only the
        # first `width` are kept.
        found: dict[tuple[int, int], tuple[int, int, Node]] = {}
        for cell in range(64):
            if not cells >> cell & 1:
                continue
            child, _ = key_of(x | 1 << cell, o)
            if child in found:
                continue
            known = self.nodes.get(child)
            if known is None:
                won = holds_line(signed(child[0]))
                known = Node(0, INF, THREATS) if won else self._new_o(*child)
            found[child] = (cell, -lines_score(x | 1 << cell, o), known)
        if getattr(self, "by_replies", True):
            order = sorted(found, key=lambda k: (found[k][2].pn, found[k][1]))
            if getattr(self, "mixed", False):
                by_lines = sorted(found, key=lambda k: found[k][1])
                order = list(dict.fromkeys(k for pair in zip(order, by_lines, strict=True) for k in pair))
        else:
            order = sorted(found, key=lambda k: found[k][1])
        width = getattr(self, "width", 0) or 64
        if node.children is not None:  # widened: every move tried so far failed
            children, moves = node.children, node.moves
            order = [k for k in order if k not in children]
        tried = len(children)
        for rank, child in enumerate(order[:width], start=tried):
            cell, _, kid = found[child]
            if child not in self.nodes:
                if kid.kind == OPEN and kid.dn != 0:
                    kid.pn += STEP * rank  # the likelier first
                self.nodes[child] = kid
            children.append(child)
            moves.append(cell)
        node.children, node.moves = children, moves
        node.more = len(order) > width
        self.expansions += 1

    def _expand_o(self, key: tuple[int, int], node: Node) -> None:
        """o's node: x's positions after the replies to search, up to symmetry, stopping
        at the first that refutes x's move (o needs only one; measured on a frontier
        position, 55% of an o node's children came after its first refutation). Those
        that cost no search come first (in the tree already, remembered, or settled by
        the marks), then the replies that make a threat of o's, the likelier refutations."""
        x, o = key
        replies: dict[tuple[int, int], int] = {}
        for cell in range(64):
            if node.replies >> cell & 1:
                replies.setdefault(key_of(x, o | 1 << cell)[0], cell)
        if self.cutoff:
            order = sorted(replies, key=lambda child: (not self._free(child), -_threats(*child[::-1]).bit_count()))
        else:
            order = list(replies)
        node.children, node.moves = [], []
        for child in order:
            if child not in self.nodes:
                self.nodes[child] = self._new_x(*child)
            node.children.append(child)
            node.moves.append(replies[child])
            if self.nodes[child].dn == 0 and self.cutoff:
                break
        self.expansions += 1

    def _free(self, key: tuple[int, int]) -> bool:
        """Whether x's position `key` gets its node without an inner search."""
        return key in self.nodes or key in self.known or _by_marks(*key) is not None

    def step(self) -> None:
        """One round: down to the most proving node, expand it, refresh the way back."""
        path = [self.root]
        node = self.nodes[self.root]
        while node.children is not None:
            self._refresh(path[-1], node)
            if node.pn == 0 or node.dn == 0 or node.kind != OPEN:
                break
            x_moves = path[-1][0].bit_count() == path[-1][1].bit_count()
            pick = min(node.children, key=lambda k: self.nodes[k].pn if x_moves else self.nodes[k].dn)
            path.append(pick)
            node = self.nodes[pick]
        else:
            self._expand(path[-1], node)
        for key in reversed(path):
            self._refresh(key, self.nodes[key])

    def solved(self) -> bool:
        root = self.nodes[self.root]
        return root.pn == 0 or root.dn == 0

    def run(
        self,
        seconds: float,
        checkpoint: Path | None = None,
        every: float = 300.0,
        report: float | None = 60.0,
        stop: threading.Event | None = None,
    ) -> None:
        """Search for `seconds` (or until solved, or `stop` is set: after the step under
        way), saving to `checkpoint` every `every` seconds and at the end, and printing a
        line of figures every `report` seconds and at the end (None: never; the caller
        says what it needs)."""
        started = last_save = last_report = time.perf_counter()
        while not self.solved() and time.perf_counter() - started < seconds and not (stop and stop.is_set()):
            before = time.perf_counter()
            self.step()
            now = time.perf_counter()
            self.seconds += now - before
            if report is not None and now - last_report >= report:
                last_report = now
                print(self.summary(), flush=True)
            if checkpoint is not None and now - last_save >= every:
                last_save = now
                self.save(checkpoint)
        if checkpoint is not None:
            self.save(checkpoint)
        if report is not None:
            print(self.summary(), flush=True)

    def summary(self) -> str:
        root = self.nodes[self.root]
        first = ", ".join(
            f"{cell}: {self.nodes[k].pn}/{self.nodes[k].dn}"
            for cell, k in list(zip(root.moves, root.children or [], strict=False))[:4]
        )
        plies: dict[int, list[int]] = {}
        for (x, o), node in self.nodes.items():
            counts = plies.setdefault(x.bit_count() + o.bit_count(), [0, 0, 0])
            counts[0] += 1
            counts[1] += node.pn == 0
            counts[2] += node.dn == 0
        # o's positions kept (x's moves tried), without a threat of x: replies left to
        # search by the null move, of all.
        quiet = [(k, n) for k, n in self.nodes.items() if k[0].bit_count() > k[1].bit_count() and n.replies]
        left = sum(n.replies.bit_count() for k, n in quiet if not _threats(*k))
        replies = sum(64 - k[0].bit_count() - k[1].bit_count() for k, n in quiet if not _threats(*k))
        by_ply = " ".join(f"{p}:{c[0]}/{c[1]}/{c[2]}" for p, c in sorted(plies.items()))
        return (
            f"{self.seconds:,.0f} s: root pn {root.pn} dn {root.dn}; {len(self.nodes):,} nodes, "
            f"{self.expansions:,} expansions, {self.leaf_searches:,} leaf searches ({self.deepened:,} deepened), "
            f"{self.null_searches:,} null-move searches; o's replies to search {left:,} of {replies:,}; "
            f"x's first moves {first}; "
            f"by ply (nodes/proven/disproven) {by_ply}"
        )

    def __getstate__(self) -> dict[str, object]:
        return {name: value for name, value in self.__dict__.items() if name not in ("known", "lemmas")}

    def __setstate__(self, state: dict[str, object]) -> None:
        # Older checkpoints: eager, every reply searched before the cutoff came.
        self.__dict__.update({"lazy": False, "deepened": 0, "cutoff": True, "mixed": False, "forced_cost": 0} | state)
        # The caller hands in what it keeps (`qubic_frontier.work`).
        self.known, self.lemmas = {}, None

    def save(self, path: Path) -> None:
        partial = path.with_name(path.name + ".part")
        with partial.open("wb") as out:
            pickle.dump(self, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)

    @staticmethod
    def load(path: Path) -> Builder:
        with path.open("rb") as f:
            builder = _Unpickler(f).load()
        assert isinstance(builder, Builder)
        return builder

    def subtree(self, root: tuple[int, int]) -> Builder:
        """A build from `root` (a position of this one) that goes on where this one
        left it: the positions reachable from there, shared with this build (use one
        of the two afterwards), its counters from zero."""
        sub = copy.copy(self)
        sub.root, sub.nodes = root, {}
        stack = [root]
        while stack:
            key = stack.pop()
            if key in sub.nodes:
                continue
            node = sub.nodes[key] = self.nodes[key]
            stack.extend(node.children or ())
        sub.seconds, sub.expansions, sub.leaf_searches, sub.null_searches, sub.deepened = 0.0, 0, 0, 0, 0
        return sub

    def strategy(self, root: tuple[int, int] | None = None, roots: list[tuple[int, int]] | None = None) -> Strategy:
        """The proven strategy from `root` (a key: the build's root by default), or from
        each of `roots`: at x's nodes the proven child with the smallest proof, at o's
        every child, at `LEMMA` nodes the proof kept in `lemmas`."""
        starts = roots if roots is not None else [self.root if root is None else root]
        if any(self.nodes[start].pn != 0 for start in starts):
            raise ValueError("the root is not proven")
        entries: dict[tuple[int, int], int] = {}
        kept: list[tuple[int, int]] = []
        stack = list(starts)
        while stack:
            key = stack.pop()
            if key in entries:
                continue
            node = self.nodes[key]
            if node.kind == LEMMA:
                kept.append(key)
                entries[key] = -128  # a placeholder, replaced below
                continue
            if node.kind <= THREATS:
                entries[key] = node.kind
                continue
            assert node.children is not None
            best = min(
                (i for i, k in enumerate(node.children) if self.nodes[k].pn == 0),
                key=lambda i: self.nodes[node.children[i]].size,  # type: ignore[index]
            )
            entries[key] = node.moves[best]
            reply = self.nodes[node.children[best]]
            if reply.kind == THREATS or reply.children is None:
                continue  # x completed a line, or made two threats: every reply loses
            stack.extend(reply.children)
        if kept:
            assert self.lemmas is not None
            for key in kept:
                del entries[key]
            # Either entry of a position both hold will do: each source holds its whole
            # subtree (as in `qubic_frontier.Store.assemble`).
            for key, code in subtree(self.lemmas, kept).entries.items():
                entries.setdefault(key, code)
        return Strategy(entries, self.budget)

    def proven_inside(self) -> Strategy:
        """The proofs of every x position this build expanded and proved (its root's
        too, if proven), in one strategy: what `lemmas` hands a later build."""
        inner = [
            key
            for key, node in self.nodes.items()
            if node.pn == 0 and node.kind == OPEN and node.children and key[0].bit_count() == key[1].bit_count()
        ]
        return self.strategy(roots=inner) if inner else Strategy({}, self.budget)

    def disproven_inside(self) -> list[tuple[int, int]]:
        """x's positions this build expanded and showed x cannot win (the inner
        search's disproofs are remembered already): exact, so a later build may take
        them as settled."""
        return [
            key
            for key, node in self.nodes.items()
            if node.dn == 0 and node.kind == OPEN and node.children and key[0].bit_count() == key[1].bit_count()
        ]


#: Where checkpoints may say this module's classes live: a run of this file as a script
#: (``__main__``), or the package the builder was in before it became a tool.
_OLD_NAMES = ("__main__", "noughts.ai.qubic_build")


class _Unpickler(pickle.Unpickler):
    """Reads checkpoints whose classes were pickled under another name of this module
    (`_OLD_NAMES`) as this module's."""

    def find_class(self, module: str, name: str) -> object:
        return super().find_class(__name__ if module in _OLD_NAMES else module, name)


def _by_marks(x: int, o: int) -> Node | None:
    """x to move: the node when the marks alone settle it (x completes a line; o has
    two lines to complete and x none), else None."""
    sx, so = signed(x), signed(o)
    if threats(sx, so):
        return Node(0, INF, THREATS)
    against = threats(so, sx)
    if against & (against - 1):
        return Node(INF, 0, LOST)
    return None


def partial(builder: Builder, plies: int = 4) -> None:
    """Say how far an unfinished build got: x's positions within `plies` of the start
    whose win is proven (each such proof extracted and checked), and how many there are."""
    for (x, o), node in sorted(builder.nodes.items(), key=lambda item: sum(m.bit_count() for m in item[0])):
        ply = x.bit_count() + o.bit_count()
        if ply > plies or node.pn != 0 or ply % 2:
            continue
        strategy = builder.strategy((x, o))
        started = time.perf_counter()
        report = check(strategy, (x, o))
        print(
            f"proven and checked at ply {ply}: x {sorted(_cells(x))} o {sorted(_cells(o))}: "
            f"{len(strategy.entries):,} entries, {report}, checked in {time.perf_counter() - started:.1f} s",
            flush=True,
        )


def _cells(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkpoint", type=Path, help="the build's state: read when it exists, written as it goes")
    parser.add_argument("--minutes", type=float, default=60.0, help="how long to search in this run")
    parser.add_argument("--out", type=Path, help="where to write the strategy once proven and checked")
    parser.add_argument(
        "--expansions", type=int, nargs="+", default=Budget.expansions, help="the inner search's budget, by level"
    )
    parser.add_argument("--pn-from", type=int, default=6, help="the inner search's fewest marks on the board")
    parser.add_argument("--width", type=int, default=8, help="x's moves tried per position (0: all)")
    parser.add_argument("--by-lines", action="store_true", help="order x's moves by the lines evaluation alone")
    parser.add_argument("--report", action="store_true", help="only say how far the checkpoint's build got")
    args = parser.parse_args(argv)
    from noughts.ai.compiled import prepare

    prepare()
    if args.checkpoint.exists():
        builder = Builder.load(args.checkpoint)
        print(f"resuming: {builder.summary()}", flush=True)
        if args.report:
            partial(builder)
            return 0
    else:
        budget = Budget(expansions=tuple(args.expansions))
        builder = Builder(budget=budget, pn_from=args.pn_from, width=args.width, by_replies=not args.by_lines)
    builder.run(args.minutes * 60, args.checkpoint)
    if builder.nodes[builder.root].pn != 0:
        print("not proven yet", flush=True)
        partial(builder)
        return 1
    strategy = builder.strategy()
    started = time.perf_counter()
    report = check(strategy, (builder.root[0], builder.root[1]))
    print(f"checked in {time.perf_counter() - started:.0f} s: {report}", flush=True)
    if args.out is not None:
        strategy.save(args.out)
        print(f"{len(strategy.entries):,} entries written to {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    # Through the module's own name (this folder is on sys.path when run as a script), so
    # that checkpoints pickle its classes under it.
    from qubic_build import main as _main

    sys.exit(_main())
