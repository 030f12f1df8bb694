"""The compiled players: ``kmcts`` and ``kalphabeta``, the readable `mcts` and
`alphabeta` players re-done on the bitboard kernels of `noughts.kernels`, for ultimate,
nine-board (both without forget mode) and qubic (4x4x4).

Same API, same conventions, same kinds of values: they differ from their readable
twins in speed (MCTS: hundreds of thousands of iterations per second; alpha-beta:
millions of nodes) and in a few details named on each class. Other games are rejected
with InvalidOptionError naming the ones they play.

>>> from noughts import parse_position
>>> state = parse_position("qubic", "xxx./oo../..../....|..../..../..../o...|..../..../..../....|..../..../..../.... x")
>>> analysis = KernelAlphaBetaPlayer(depth=2, seed=1).analyze(state)
>>> analysis.moves[0].text, analysis.value.text
('114', 'win in 1')

numba is imported on first use, not when this module is (it registers the players, and
every ``noughts`` command imports it).

Getting the kernels ready is set-up, never play: numba compiles a kernel the first time
it is called with new argument types (a minute or more for all of them) and keeps
the machine code in its cache on disk, from which later processes load it (about a
second). Either way the cost used to fall on a player's first search: a 2-second move
took 15, and the search inside it had almost no time left. So both players `prepare`
before they start their clock, ``noughts serve`` and the terminal prepare before the
first move (saying so when it means compiling), and the set-up (``noughts prepare``,
which ``make`` runs) fills the cache once for the machine.

Where nothing has filled the cache (a library user's fresh install), a player's first
decision would wait for the whole compilation. Instead it warns (`CompileWarning`,
naming ``noughts prepare``), starts compiling in a background thread and, when the
decision has a time limit, keeps to it with its readable twin (``mcts`` or
``alphabeta``, named in the `Analysis`) until the kernels are ready. A decision limited
by iterations, nodes or depth only waits for the compilation: its result does not
depend on the machine's speed.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import random
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from noughts.ai.base import (
    MIN_TIME,
    AIPlayer,
    Analysis,
    Kind,
    Limits,
    MoveInfo,
    Value,
    flag_option,
    register_player,
    require_moves,
    with_lines,
)
from noughts.core import Game, InvalidOptionError, Player, State, shown
from noughts.kernels import require_kernels

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from noughts.kernels.negamax import Tables
    from noughts.kernels.proof import ProofTree

__all__ = [
    "COMPILES",
    "COMPILE_ESTIMATE",
    "COMPILE_SECONDS",
    "DEFAULT_C",
    "DEFAULT_TIME",
    "CompileWarning",
    "Compiling",
    "KernelAlphaBetaPlayer",
    "KernelMCTSPlayer",
    "drop_stale_cache",
    "is_cached",
    "is_ready",
    "prepare",
]

#: Seconds spent on a decision when no time, iteration, node or depth budget is given.
DEFAULT_TIME = 1.0
#: kmcts's UCT exploration constant for results in [-1, 1]: about a third of UCB1's
#: (2 sqrt 2 on that range), exploring less, as playouts are noisy. In ultimate against
#: OpenSpiel's MCTSBot (12,000 iterations a move to its 4,000, 80 games each) 0.7 and
#: 1.4 did no better (``c=`` changes it).
DEFAULT_C = 1.0
#: The most tree nodes kmcts keeps (22 bytes each): past it the tree stops growing.
MAX_NODES = 6_000_000
#: Iterations per second assumed when sizing the tree for a time budget; nodes per
#: iteration (a node's children come as one block).
_RATE_GUESS = 600_000
#: kalphabeta in qubic without a time limit: the most nodes one threat search may take.
THREAT_NODES = 1_000_000
_NODES_PER_ITERATION = 3
#: Seconds kmcts keeps for the work after its tree search (the report and its lines)
#: until it has measured that work: the search stops this much before the move's time
#: is up.
WRAP_UP_GUESS = 0.005
#: How much of the largest recent wrap-up is still kept at the next decision.
WRAP_UP_DECAY = 0.8
_NO_LIMITS = Limits()


def _number(name: str, value: object, integer: bool, minimum: float) -> Any:
    kinds = (int,) if integer else (int, float)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kinds) or not value >= minimum:
        what = "a whole number" if integer else "a number"
        raise InvalidOptionError(f"{name} must be {what} of at least {minimum:g}, not {shown(value)}")
    return value


class KernelMCTSPlayer(AIPlayer):
    """UCT with MCTS-Solver, tree reuse and playouts, in a compiled kernel.

    Options as `noughts.ai.mcts.MCTSPlayer`: `time`, `iterations`, `c` (default
    `DEFAULT_C`), `seed`, `reuse`, `solver`; the evaluator is always a playout. One of
    its own: `guided` (default on): in ultimate and nine-board a playout takes a move
    that wins the game and avoids moves that let the opponent win it next
    (`noughts.kernels.boards.guided_playout`); off, or in qubic, playouts are uniformly
    random as the readable player's. `contempt` (0 to 1, default 0): what a draw costs
    the player searching, as a fraction of a loss (see `noughts.kernels.tree`); the
    estimates it reports include it. ``Limits.nodes`` counts iterations;
    ``Limits.depth`` does not apply.

    `minimax` (ultimate only; 0 to 1, default 0, off): the share of implicit minimax on
    the learned evaluation in the choice of a child (`noughts.kernels.tree`,
    `noughts.kernels.learned`); children are also tried best first by that evaluation.

    `endgame` (ultimate and nine-board; default 0, off): in a position with at most
    that many empty cells, the exact alpha-beta of ``kalphabeta`` searches first, to the
    end of the game, for up to `ENDGAME_SHARE` of the time (or `ENDGAME_NODES` nodes
    without a time); when it proves the position (a win, or every move's exact value),
    its answer is the decision, with exact values; otherwise the tree search goes on
    with the time left. `bench/ultimate_endgame.py` measures where the proof fits.
    `endgame` is the threshold for `ENDGAME_REFERENCE` seconds a move (max's budget);
    with less time it is lowered by `ENDGAME_CELLS_PER_HALVING` for each halving, since
    a failed proof costs the tree search its share and proofs take about twice as long
    for each two cells more.

    Unlike the readable player, a node's children are created together (as one block,
    in a seeded random order) the second time the node is reached, so the root's moves
    not yet tried show as unknown with 0 visits.
    """

    uses_kernels = True

    name = "kmcts"

    #: Share of the time the endgame's exact search may use before the tree search.
    ENDGAME_SHARE = 0.5
    #: Its nodes without a time limit (a second or so of the kernel).
    ENDGAME_NODES = 2_000_000
    #: The move's time `endgame` is set for, and how many empty cells fewer it means for
    #: each halving of the time: the proofs' median time doubles about every two cells
    #: (bench/ultimate_endgame.py: 0.05 s at 32-35 empty cells, 0.24 s at 36-39).
    ENDGAME_REFERENCE = 2.0
    ENDGAME_CELLS_PER_HALVING = 2.0

    def __init__(
        self,
        time: float | None = None,
        iterations: int | None = None,
        c: float = DEFAULT_C,
        seed: int | None = None,
        reuse: bool = True,
        solver: bool = True,
        guided: bool = True,
        contempt: float = 0.0,
        endgame: int = 0,
        minimax: float = 0.0,
    ) -> None:
        require_kernels(self.name)
        self.time = _number("time", time, False, 1e-9)
        self.iterations = _number("iterations", iterations, True, 1)
        self.c = float(_number("c", c, False, 0))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidOptionError(f"seed must be a whole number, not {shown(seed)}")
        self.seed = seed
        self.reuse = flag_option("reuse", reuse)
        self.solver = flag_option("solver", solver)
        self.guided = flag_option("guided", guided)
        self.contempt = float(_number("contempt", contempt, False, 0))
        if self.contempt > 1:
            raise InvalidOptionError(f"contempt is a fraction of a loss, from 0 to 1, not {shown(contempt)}")
        self.endgame = int(_number("endgame", endgame, True, 0))
        self.minimax = float(_number("minimax", minimax, False, 0))
        if self.minimax > 1:
            raise InvalidOptionError(f"minimax is a share of the choice, from 0 to 1, not {shown(minimax)}")
        self._rng = random.Random(seed)
        self._tree: tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int16], int] | None = None
        self._solver: KernelAlphaBetaPlayer | None = None
        self._wrap_up = WRAP_UP_GUESS

    def reset(self) -> None:
        self._tree = None
        self._solver = None

    def analyze(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        return self._think(state, limits, exact=True)

    def decide(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        return self._think(state, limits, exact=False)

    def _think(self, state: State[Any], limits: Limits, exact: bool) -> Analysis:
        seconds = limits.time if limits.time is not None else self.time
        timed = seconds is not None or (limits.nodes is None and self.iterations is None)
        if not _kernels_ready(self.name, timed):
            from noughts.ai.mcts import MCTSPlayer

            twin = MCTSPlayer(seed=self.seed, reuse=False, solver=self.solver)
            budget = Limits(
                time=seconds if seconds is not None else DEFAULT_TIME, nodes=limits.nodes or self.iterations
            )
            return twin.analyze(state, budget) if exact else twin.decide(state, budget)
        started = time.perf_counter()
        solved = self._endgame(state, seconds, exact)
        if solved is not None:
            return solved
        return self._search(state, limits, started)

    def endgame_cells(self, seconds: float | None) -> int:
        """The most empty cells at which the endgame search is tried, given a move's time.

        >>> player = KernelMCTSPlayer(endgame=39)
        >>> player.endgame_cells(2.0), player.endgame_cells(1.0), player.endgame_cells(0.1), player.endgame_cells(None)
        (39, 37, 30, 39)
        """
        if seconds is None or seconds >= self.ENDGAME_REFERENCE:
            return self.endgame
        halvings = math.log2(self.ENDGAME_REFERENCE / seconds)
        return max(0, self.endgame - round(self.ENDGAME_CELLS_PER_HALVING * halvings))

    def _endgame(self, state: State[Any], seconds: float | None, exact: bool) -> Analysis | None:
        """The exact search's decision where `endgame` applies and it proves the
        position within its share; None otherwise (`exact`: every move valued)."""
        if not self.endgame or state.game.key not in ("ultimate", "nine-board") or state.is_over:
            return None
        if empty_cells(state) > self.endgame_cells(seconds):
            return None
        if self._solver is None:
            self._solver = KernelAlphaBetaPlayer(seed=self.seed)
        share = (
            Limits(time=max(seconds * self.ENDGAME_SHARE, MIN_TIME))
            if seconds is not None
            else Limits(nodes=self.ENDGAME_NODES)
        )
        found = self._solver.search(state, share, exact)
        best = found.moves[0].value
        if best.kind is Kind.WIN or all(info.value.exact for info in found.moves):
            if not exact:
                found.moves = found.moves[:1]  # the others may be bounds, as in kalphabeta's decide
            found.player = f"{self.name}+endgame"
            return found
        return None

    def _search(self, state: State[Any], limits: Limits, started: float) -> Analysis:
        """The tree search's decision, its clock started at `started` (the decision's
        start): it stops early enough that the decision, report included, ends within
        the time."""
        import numpy as np

        from noughts.kernels import tree
        from noughts.kernels.games import encode, game_code
        from noughts.kernels.rng import new_rng

        moves = require_moves(state)
        code = game_code(state.game)
        seconds = limits.time if limits.time is not None else self.time
        budget = limits.nodes if limits.nodes is not None else self.iterations
        if seconds is None and budget is None:
            seconds = DEFAULT_TIME
        expected = min(budget or 1 << 40, int((seconds or 1e9) * _RATE_GUESS))
        root_state = encode(state)
        links, info, used = self._reused(code, root_state, expected)
        rng = new_rng(self._rng.getrandbits(63))
        counter = np.array([used], dtype=np.int64)
        deadline = started + seconds - self._wrap_up if seconds is not None else 0.0
        done = tree.search(
            code,
            root_state,
            links,
            info,
            counter,
            budget or 1 << 62,
            deadline,
            self.c,
            self.solver,
            rng,
            self.guided,
            round(self.contempt * tree.UNIT),
            *self._minimax(code),
        )
        searched = time.perf_counter()
        self._tree = (code, root_state, links, info, int(counter[0])) if self.reuse else None
        analysis = self._report(state, moves, links, info, int(done), searched - started)
        # The next search leaves room for the largest recent wrap-up: one slow report (a
        # long line to walk, a garbage collection) is not forgotten at once.
        ended = time.perf_counter()
        self._wrap_up = max(ended - searched, self._wrap_up * WRAP_UP_DECAY)
        analysis.time = ended - started
        return analysis

    def _minimax(self, code: int) -> tuple[float, npt.NDArray[np.float64]]:
        """The search's implicit minimax share, and the weights of its evaluation
        (none where it is off: the learned evaluation is ultimate's)."""
        import numpy as np

        from noughts.kernels import learned
        from noughts.kernels.layout import ULTIMATE

        if self.minimax > 0 and code == ULTIMATE:
            return self.minimax, learned.weights()
        return 0.0, np.zeros(1)

    def _reused(
        self, code: int, root_state: npt.NDArray[np.int64], expected: int
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int16], int]:
        """Fresh arrays for this decision, holding the kept subtree of `root_state` when
        there is one, and room for `expected` more iterations."""
        from noughts.kernels import tree

        kept = self._tree
        node = -1
        if kept is not None and kept[0] == code:
            _, old_state, old_links, old_info, old_used = kept
            node = tree.find(code, old_links, old_info, old_state, root_state)
        capacity = min(MAX_NODES, expected * _NODES_PER_ITERATION + (old_used if node >= 0 else 0) + 128)
        links, info = tree.new_tree(capacity)
        if node < 0:
            return links, info, 1
        return links, info, int(tree.compact(old_links, old_info, node, links, info))

    def _report(
        self,
        state: State[Any],
        moves: list[Any],
        links: npt.NDArray[np.int32],
        info: npt.NDArray[np.int16],
        iterations: int,
        seconds: float,
    ) -> Analysis:
        from noughts.kernels import tree

        children = _children(links, info, 0)
        by_move = {int(info[child, tree.MOVE]): child for child in children}
        ranked = []
        for move in moves:
            child = by_move.get(move)
            if child is None or links[child, tree.VISITS] == 0:
                ranked.append(((1, 0.0, 0.0), MoveInfo(move, state.move_text(move), Value(Kind.UNKNOWN), 0)))
            else:
                value = _node_value(links, info, child)
                visits = int(links[child, tree.VISITS])
                ranked.append((_rank(links, info, child), MoveInfo(move, state.move_text(move), value, visits)))
        ranked.sort(key=lambda item: item[0], reverse=True)
        infos = [item for _, item in ranked]

        def line_of(first: Any) -> list[str]:
            line = [state.move_text(first)]
            node, position = by_move.get(first, -1), state.play(first)
            while node >= 0:
                tried = [c for c in _children(links, info, node) if links[c, tree.VISITS] > 0]
                if not tried:
                    break
                node = max(tried, key=lambda c: _rank(links, info, c))
                move = int(info[node, tree.MOVE])
                line.append(position.move_text(move))
                position = position.play(move)
            return line

        infos = with_lines(infos, line_of)
        return Analysis(self.name, infos, list(infos[0].line), None, iterations, seconds)


def _children(links: npt.NDArray[np.int32], info: npt.NDArray[np.int16], node: int) -> range:
    from noughts.kernels import tree

    first = int(links[node, tree.FIRST])
    return range(first, first + int(info[node, tree.TRIED])) if first >= 0 else range(0)


def _node_value(links: npt.NDArray[np.int32], info: npt.NDArray[np.int16], child: int) -> Value:
    """The value of a child's move for the player who makes it."""
    from noughts.kernels import tree

    proof, plies = int(info[child, tree.PROOF]), int(info[child, tree.PLIES])
    # The solver proves a node by the children tried so far: its plies are a bound
    # (exact at one ply, `Value.win`), and so is the move's, one ply longer.
    if proof == tree.LOSS:
        return Value.loss(plies, bound=True).negated()
    if proof == tree.WIN:
        return Value.win(plies, bound=True).negated()
    if proof == tree.PROVEN_DRAW:
        return Value.draw()
    return Value.estimate(float(links[child, tree.TOTAL]) / (float(links[child, tree.VISITS]) * tree.UNIT))


def _rank(links: npt.NDArray[np.int32], info: npt.NDArray[np.int16], child: int) -> tuple[int, float, float]:
    """As `noughts.ai.mcts.Node.rank`: proven wins (quickest first), then by visits,
    proven losses last (slowest first)."""
    from noughts.kernels import tree

    proof, plies = int(info[child, tree.PROOF]), float(info[child, tree.PLIES])
    if proof == tree.LOSS:
        return (2, -plies, 0.0)
    if proof == tree.WIN:
        return (0, plies, 0.0)
    visits = float(links[child, tree.VISITS])
    return (1, visits, float(links[child, tree.TOTAL]) / (visits * tree.UNIT) if visits else 0.0)


class KernelAlphaBetaPlayer(AIPlayer):
    """Negamax with alpha-beta, a transposition table, killers and history, iterative
    deepening, in a compiled kernel; evaluations as the readable ``seed-lines`` (ultimate,
    nine-board) and ``open-lines`` (qubic) of `noughts.ai.evaluation`.

    Options: ``depth``, ``time``, ``nodes`` (default limits; a call's `Limits` win),
    ``seed`` (tie-breaks between equal moves), ``threats`` (qubic: look for a forced
    win by continuous threats before searching, and reject moves after which the
    opponent has one), ``proof`` (qubic, with ``threats``: where the threat search
    finds no win, a proof-number search over it looks for one that needs quiet moves
    too, `noughts.kernels.proof`; its value is a win in at most the plies given).
    `analyze` values every move exactly at the finished depth; `choose` (and `decide`)
    only proves the others worse (cheaper, same best move and depth).
    """

    uses_kernels = True

    name = "kalphabeta"

    #: Share of the time the threat searches of qubic may use: ours, before the search.
    THREAT_SHARE = 0.3
    #: Share kept after the search for checking that the chosen move leaves the
    #: opponent no forced win (without it the search used every second and the check
    #: never ran under a time limit).
    REFUTE_SHARE = 0.2
    #: Share of the time the proof-number search may use (``proof``), after the threat
    #: search found nothing.
    PROOF_SHARE = 0.25
    #: Tree nodes the proof-number search may grow; without a time limit, expansions.
    PROOF_CAPACITY = 400_000
    PROOF_EXPANSIONS = 2_000
    #: How many threats deep the threat search goes.
    THREAT_DEPTH = 16

    def __init__(
        self,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        seed: int | None = None,
        threats: bool = True,
        proof: bool = False,
    ) -> None:
        require_kernels(self.name)
        self.defaults = Limits(
            time=_number("time", time, False, 1e-9),
            nodes=_number("nodes", nodes, True, 1),
            depth=_number("depth", depth, True, 1),
        )
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidOptionError(f"seed must be a whole number, not {shown(seed)}")
        self.seed = seed
        self.threats = flag_option("threats", threats)
        self.proof = flag_option("proof", proof)
        if self.proof and not self.threats:
            raise InvalidOptionError("kalphabeta: option proof needs threats=true")
        self._rng = random.Random(seed)
        self._tables: Tables | None = None
        self._proof_tree: ProofTree | None = None

    def reset(self) -> None:
        self._tables = None

    def analyze(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        return self._run(state, limits, exact=True)

    def decide(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        # As alphabeta's: only the best move is valued exactly, the others are bounds.
        analysis = self._run(state, limits, exact=False)
        analysis.moves = analysis.moves[:1]
        return analysis

    def search(self, state: State[Any], limits: Limits, exact: bool) -> Analysis:
        """`analyze` (`exact`) or the search behind `decide`, every move listed: with
        `exact` false the moves after the best are bounds, exact (``Value.exact``) only
        where their search reached the end of every line."""
        return self._run(state, limits, exact)

    def _run(self, state: State[Any], limits: Limits, exact: bool) -> Analysis:
        import numpy as np

        from noughts.kernels import negamax
        from noughts.kernels.evaluate import LOCAL_LINES
        from noughts.kernels.games import encode, game_code
        from noughts.kernels.layout import QUBIC

        limits = limits.over(self.defaults, DEFAULT_TIME)
        if not _kernels_ready(self.name, limits.time is not None):
            from noughts.ai.search import AlphaBetaPlayer

            twin = AlphaBetaPlayer(eval="open-lines" if state.game.key == "qubic" else "seed-lines", seed=self.seed)
            return twin.analyze(state, limits) if exact else twin.decide(state, limits)
        started = time.perf_counter()
        moves = require_moves(state)
        code = game_code(state.game)
        if self._tables is None:
            self._tables = negamax.Tables()
        tables = self._tables
        tables.start()
        tables.stats[negamax.LIMIT] = limits.nodes if limits.nodes is not None else math.inf
        root = encode(state)
        end = started + limits.time if limits.time is not None else 0.0
        guard = _QubicGuard(self) if code == QUBIC and self.threats else None
        search_end = end - limits.time * self.REFUTE_SHARE if guard and limits.time is not None else end
        forced = guard.before(state, root, moves, limits, started) if guard else _NOTHING_FORCED
        threat_move, threat_plies, threat_nodes, lost_by_proof = forced
        order = list(moves)
        if self.seed is not None:
            self._rng.shuffle(order)
        if threat_move >= 0:
            order.remove(threat_move)
            order.insert(0, threat_move)
        scores: dict[Any, int] = {}
        proven: dict[Any, bool] = {}
        completed = 0
        settled = threat_move >= 0 or lost_by_proof is not None
        max_depth = min(limits.depth or negamax.MAX_PLY, negamax.MAX_PLY, 1 if settled else negamax.MAX_PLY)
        result_scores = np.zeros(len(order), dtype=np.int64)
        result_proven = np.zeros(len(order), dtype=np.bool_)
        for depth in range(1, max_depth + 1):
            # Depth 1 always runs to the end: there must be a move to answer with.
            tables.stats[negamax.ARMED] = 1 if depth > 1 else 0
            if depth > 1 and (
                (search_end and time.perf_counter() >= search_end)
                or tables.stats[negamax.NODES] >= tables.stats[negamax.LIMIT]
            ):
                break
            finished = negamax.search_root(
                code,
                root,
                np.array(order, dtype=np.int64),
                depth,
                exact,
                tables.keys,
                tables.entries,
                tables.killers,
                tables.history,
                tables.stack,
                tables.moves,
                tables.frames,
                tables.stats,
                search_end,
                LOCAL_LINES,
                result_scores,
                result_proven,
            )
            if not finished:
                break
            scores = {m: int(s) for m, s in zip(order, result_scores, strict=True)}
            proven = {m: bool(p) for m, p in zip(order, result_proven, strict=True)}
            completed = depth
            # Stable: among equal scores the earlier move in this depth's order stays first.
            order.sort(key=scores.__getitem__, reverse=True)
            if all(proven.values()) or (not exact and scores[order[0]] >= negamax.MATE):
                break
        values = {m: _value(scores[m], proven[m]) for m in order}
        if threat_move >= 0:
            values[threat_move] = Value.win(threat_plies, bound=True)  # threats, proof: a bound
        elif lost_by_proof is not None:
            values = lost_by_proof
        elif guard:
            guard.refute(state, order, values, end)
        order.sort(key=lambda m: values[m].sort_key(), reverse=True)
        infos = [MoveInfo(m, state.move_text(m), values[m]) for m in order]
        infos = with_lines(infos, lambda m: _principal_line(state, code, root, m, completed, tables))
        pv = list(infos[0].line)
        nodes = int(tables.stats[negamax.NODES]) + threat_nodes
        return Analysis(self.name, infos, pv, completed, nodes, time.perf_counter() - started, _scale(state.game))


#: What a guard found before the search: a forced move (-1: none) and its plies, the
#: nodes that took, and, where the shipped proof answers every reply, their values.
_Forced = tuple[int, int, int, "dict[Any, Value] | None"]
_NOTHING_FORCED: _Forced = (-1, 0, 0, None)


class _QubicGuard:
    """Qubic's knowledge around `KernelAlphaBetaPlayer`'s search: before it, a forced win
    by threats, the shipped proof's move (x) or its answers to every reply (o), and with
    ``proof`` a proof-number search; after it, the chosen moves checked against the
    opponent's forced wins."""

    def __init__(self, player: KernelAlphaBetaPlayer) -> None:
        self.player = player

    def before(
        self, state: State[Any], root: npt.NDArray[np.int64], moves: Sequence[Any], limits: Limits, started: float
    ) -> _Forced:
        player = self.player
        share = 0.0 if limits.time is None else started + limits.time * player.THREAT_SHARE
        threat_move, threat_plies, threat_nodes = _forced_win(root, share, limits.nodes or THREAT_NODES)
        if threat_move < 0:
            # The shipped proof's move wins too, but not by the shortest way: a win
            # the threat search sees (a line to complete now, a win in 3) comes first.
            threat_move, threat_plies = _proof_move(state)
        # o to move where the shipped proof answers every reply: each loses, proven, in
        # at most the cells left (an estimate here would contradict the proof).
        lost_by_proof = _proof_losses(state, moves) if threat_move < 0 else None
        if threat_move < 0 and lost_by_proof is None and player.proof:
            proof_end = 0.0 if limits.time is None else time.perf_counter() + limits.time * player.PROOF_SHARE
            if player._proof_tree is None:
                from noughts.kernels.proof import ProofTree

                player._proof_tree = ProofTree(player.PROOF_CAPACITY)
            threat_move, threat_plies, nodes = _proven_win(player._proof_tree, root, proof_end)
            threat_nodes += nodes
        return threat_move, threat_plies, threat_nodes, lost_by_proof

    def refute(self, state: State[Any], order: list[Any], values: dict[Any, Value], end: float) -> None:
        """Qubic: walk down the best moves and mark those after which the opponent has a
        forced win by threats as losses, until a move survives (or time runs out)."""
        from noughts.kernels.games import encode

        for move in order:
            if values[move].kind in (Kind.WIN, Kind.LOSS):
                if values[move].kind is Kind.WIN:
                    return
                continue
            if end and time.perf_counter() >= end:
                return
            child = state.play(move)
            if child.is_over:
                return
            deadline = 0.0 if not end else time.perf_counter() + (end - time.perf_counter()) / 2
            reply, plies, _ = _forced_win(encode(child), deadline, None if end else THREAT_NODES)
            if reply < 0:
                return
            values[move] = Value.win(plies, bound=True).negated()  # the threat search's plies: a bound


def qubic_threat_win(state: State[Any], nodes: int = THREAT_NODES) -> tuple[int, int] | None:
    """The qubic (4x4x4) threat-sequence win of the player to move, as (move, plies),
    or None when the threat search finds none within `nodes`."""
    from noughts.kernels.games import encode

    prepare()
    move, plies, _ = _forced_win(encode(state), 0.0, nodes)
    return None if move < 0 else (move, plies)


def _proof_move(state: State[Any]) -> tuple[int, int]:
    """x's move from the shipped proof of qubic's first-player win
    (`noughts.ai.qubic_proof`), where it covers the position: (move, plies at most: the
    empty cells), else (-1, 0)."""
    from noughts.ai import qubic_proof

    strategy = qubic_proof.shipped()
    x, o = getattr(state, "x", 0), getattr(state, "o", 0)
    if strategy is None or state.turn is not Player.X:
        return -1, 0
    move = strategy.move(x, o)
    return (-1, 0) if move is None else (move, 64 - (x | o).bit_count())


def _proof_losses(state: State[Any], moves: Sequence[Any]) -> dict[Any, Value] | None:
    """o to move in qubic where the shipped proof of x's win answers every reply: each
    reply's value, a loss in at most the cells left (a reply the proof does not store
    loses sooner to x's threats: in at most their plies), else None."""
    import numpy as np

    from noughts.ai import qubic_proof
    from noughts.kernels import threats
    from noughts.kernels.cube import signed

    strategy = qubic_proof.shipped()
    if strategy is None or state.turn is not Player.O or not moves:
        return None
    x, o = getattr(state, "x", 0), getattr(state, "o", 0)
    left = 64 - (x | o).bit_count()
    values: dict[Any, Value] = {}
    stats = np.zeros(3, dtype=np.float64)
    for m in moves:
        if qubic_proof.key_of(x, o | 1 << m)[0] in strategy.entries:
            values[m] = Value.loss(left, bound=True)
            continue
        win = threats.forced_win(signed(x), signed(o | 1 << m), KernelAlphaBetaPlayer.THREAT_DEPTH, stats, 0.0, 1e5)
        if win < 0:
            return None
        values[m] = Value.loss(1 + int(stats[threats.PLIES]), bound=True)
    return values


def _forced_win(root: npt.NDArray[np.int64], deadline: float, nodes: int | None) -> tuple[int, int, int]:
    """A qubic threat-sequence win for the player to move in `root`: (move, plies,
    nodes searched), move -1 when none was found."""
    import numpy as np

    from noughts.kernels import threats
    from noughts.kernels.layout import TURN

    side = int(root[TURN])
    stats = np.zeros(3, dtype=np.float64)
    limit = math.inf if nodes is None else float(nodes)
    move = threats.forced_win(
        int(root[side]), int(root[1 - side]), KernelAlphaBetaPlayer.THREAT_DEPTH, stats, deadline, limit
    )
    return int(move), int(stats[threats.PLIES]), int(stats[threats.NODES])


def _proven_win(tree: ProofTree, root: npt.NDArray[np.int64], deadline: float) -> tuple[int, int, int]:
    """A qubic win for the player to move proven by proof-number search: (move, plies
    at most, tree nodes), move -1 when none was proven."""
    from noughts.kernels import proof
    from noughts.kernels.layout import TURN

    side = int(root[TURN])
    expansions = 1 << 40 if deadline else KernelAlphaBetaPlayer.PROOF_EXPANSIONS
    move = tree.prove(int(root[side]), int(root[1 - side]), deadline, expansions)
    return int(move), int(tree.stats[proof.PLIES]), int(tree.stats[proof.TREE])


def _principal_line(state: State[Any], code: int, root: Any, best: Any, depth: int, tables: Tables) -> list[str]:
    import numpy as np

    from noughts.kernels import negamax

    out = np.zeros(max(depth, 1), dtype=np.int64)
    length = negamax.principal_line(code, root, best, tables.keys, tables.entries, out)
    texts = []
    for move in out[:length]:
        texts.append(state.move_text(int(move)))
        state = state.play(int(move))
    return texts


def empty_cells(state: State[Any]) -> int:
    """The empty cells of an ultimate or nine-board position (of all 81)."""
    board = cast(Any, state)  # an UltimateState: its marks as bits
    return 81 - int(board.x).bit_count() - int(board.o).bit_count()


def _scale(game: Game[Any, Any]) -> float:
    """The kernels score as the readable evaluations they port (the class docstring):
    the same scale."""
    from noughts.ai.evaluation import evaluator_scale

    return evaluator_scale(game, "open-lines" if game.key == "qubic" else "seed-lines")


def _value(score: int, proven: bool) -> Value:
    from noughts.kernels.evaluate import WIN
    from noughts.kernels.negamax import MATE

    if score >= MATE:
        return Value.win(WIN - score)
    if score <= -MATE:
        return Value.loss(WIN + score)
    if proven and score == 0:
        return Value.draw()
    return Value.estimate(float(score))


#: Roughly how long compiling every kernel takes on a two-core machine, for messages.
#: The compilation's seconds on an idle two-core machine from an empty cache, and the
#: functions numba compiles meanwhile (the kernels and the library code they call),
#: measured 2026-12-02 (`NUMBA_CACHE_DIR=$(mktemp -d) noughts prepare`): the estimate of
#: the time left counts the functions done. A busy machine takes several times as long.
COMPILE_SECONDS = 28.0
COMPILES = 171
COMPILE_ESTIMATE = "about half a minute on an idle machine, minutes on a busy one"

#: The games whose code paths the warm-up runs: each compiles its own variants of the
#: shared kernels (ultimate's tie-break rule is a game number of its own).
_WARM_UP_SPECS = ("ultimate", "ultimate:tiebreak=boards", "nine-board", "qubic")


@dataclass(frozen=True)
class Compiling:
    """How far a compilation is: numba has just compiled `what` (a kernel, or library
    code a kernel calls), the `count`th function of the about `COMPILES`, `elapsed`
    seconds in."""

    what: str
    """The kernel (or library code) just compiled."""
    count: int
    """How many functions are compiled so far."""
    elapsed: float
    """Seconds since the compilation started."""

    @property
    def done(self) -> float:
        """The share of the work done (short of 1 until it is)."""
        return min(self.count / COMPILES, 0.99)

    def seconds_left(self, now: float | None = None) -> float:
        """About how many seconds are left at `now` (seconds since the start; when
        this function was compiled if None), at the pace of the functions done."""
        now = self.elapsed if now is None else now
        total = self.elapsed / self.done if self.count else COMPILE_SECONDS
        return max(0.0, total - now)


class _Heard:
    """Tells `progress` of each function numba compiles (numba's event API)."""

    def __init__(self, progress: Callable[[Compiling], None]) -> None:
        from numba.core import event

        class Listener(event.Listener):
            def on_start(self, _: Any) -> None:
                pass

            def on_end(self, happened: Any) -> None:
                outer.count += 1
                function = happened.data["dispatcher"].py_func
                module = function.__module__.rsplit(".", 1)[-1]
                progress(Compiling(f"{module}.{function.__name__}", outer.count, time.perf_counter() - outer.started))

        outer = self
        self.count, self.started = 0, time.perf_counter()
        self.installed = event.install_listener("numba:compile", Listener())


_prepare_lock = threading.RLock()
_ready = False
_preparing = threading.local()
#: The background compilation's thread, and the lock over starting it and warning (not
#: _prepare_lock, which that thread holds for the whole compilation).
_background: threading.Thread | None = None
_background_lock = threading.Lock()
_warned = False


class CompileWarning(UserWarning):
    """A player found the fast engine not compiled on this machine: it is compiling in
    the background (`COMPILE_ESTIMATE`, once per machine). ``noughts prepare`` does it
    ahead, as the set-up (``make``) does."""


def _kernels_ready(player: str, timed: bool) -> bool:
    """Whether `player` may search with the kernels now: they are loaded, or get loaded
    from the cache (about a second, before the clock starts). On an empty cache it warns
    once and starts compiling in the background; a `timed` decision then does not wait
    (False: play with the readable twin), the others wait for it."""
    global _background, _warned
    if _ready or getattr(_preparing, "active", False):
        return True  # ready, or the warm-up's own players
    if is_cached():
        prepare()
        return True
    with _background_lock:
        if not _warned:
            _warned = True
            meanwhile = "playing with its readable twin meanwhile" if timed else "waiting for it (no time limit)"
            warnings.warn(
                f"{player}: the fast engine is not compiled on this machine yet: compiling it in the background "
                f"({COMPILE_ESTIMATE}, once per machine), {meanwhile}. "
                "Run `noughts prepare` after installing to compile it ahead.",
                CompileWarning,
                stacklevel=4,
            )
        if _background is None or not _background.is_alive():
            if _background is not None:
                timed = False  # it failed: preparing here raises its error
            else:
                _background = threading.Thread(target=prepare, name="noughts-prepare", daemon=True)
                _background.start()
    if not timed:
        prepare()
        return True
    return False


def is_ready() -> bool:
    """Whether this process has every kernel compiled or loaded already."""
    return _ready


def prepare(progress: Callable[[Compiling], None] | None = None) -> float:
    """Compile (or load from numba's cache) every kernel in this process, once; the
    seconds it took (0 when they were ready). Safe from any thread: others wait for the
    one preparing. `progress` hears each step as it starts while it compiles (not when
    the cache only has to be loaded)."""
    global _ready
    require_kernels("the fast engine")
    if _ready or getattr(_preparing, "active", False):
        # Ready, or called by the warm-up's own players.
        return 0.0
    with _prepare_lock:
        if _ready:
            return 0.0
        # One process compiles at a time: another that finds the cache empty meanwhile
        # waits for it, then loads what it wrote (servers, workers or test processes
        # started at once on a fresh machine).
        with contextlib.nullcontext() if is_cached() else _one_process_at_a_time():
            cached = is_cached()
            if not cached:
                with contextlib.suppress(OSError, AttributeError):
                    drop_stale_cache(_cache_marker().parent)
            _preparing.active = True
            try:
                seconds = _warm_up(None if cached else progress)
            finally:
                _preparing.active = False
            if not cached:
                with contextlib.suppress(OSError, AttributeError):
                    _cache_marker().touch()
        _ready = True
        return seconds


@contextlib.contextmanager
def _one_process_at_a_time() -> Iterator[None]:
    """Holds a lock file beside numba's cache (where the system has `fcntl`; elsewhere,
    and where the folder cannot be written, nothing)."""
    try:
        import fcntl

        path = _cache_marker().with_suffix(".lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a")
    except (ImportError, OSError, AttributeError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def is_cached() -> bool:
    """Whether numba's cache on disk holds these kernels compiled by this numba and
    Python, so that preparing them is a load rather than a compilation. Known by a
    marker `prepare` leaves in the cache folder after compiling, named by a digest of
    the kernels' sources (editing a kernel makes it stale)."""
    try:
        return _cache_marker().exists()
    except (OSError, AttributeError):
        return False


def drop_stale_cache(folder: Path) -> int:
    """Delete the kernels' compiled code in numba's cache `folder` (and the markers of
    earlier sources); the number of files deleted. numba checks a cached kernel against
    its own source file only, not against the kernels it calls and inlines: after an
    update that changed `noughts.kernels.threats` alone, `noughts.kernels.proof.prove`
    would be loaded with the old threat search inside it. So when the kernels' sources
    are not the ones the cache was filled from (no marker of theirs), `prepare` starts
    from an empty cache."""
    dropped = 0
    for pattern in ("*.nbi", "*.nbc", "noughts-kernels-*.ready"):
        for path in folder.glob(pattern):
            with contextlib.suppress(FileNotFoundError):  # another process dropped it first
                path.unlink()
                dropped += 1
    return dropped


def _warm_up(progress: Callable[[Compiling], None] | None) -> float:
    """Runs both players on a small position of every game, with the argument types
    play uses, so that every kernel is compiled or loaded; the seconds it took.
    `progress` hears of each function compiled."""
    started = time.perf_counter()
    with _Heard(progress).installed if progress is not None else contextlib.nullcontext():
        _run_every_kernel()
    return time.perf_counter() - started


def _run_every_kernel() -> None:
    from noughts.kernels.games import perft
    from noughts.registry import parse_spec

    for spec in _WARM_UP_SPECS:
        state = parse_spec(spec).initial()
        perft(state, 2)
        players: list[tuple[AIPlayer, State[Any]]] = [
            (KernelMCTSPlayer(seed=0), state),
            (KernelAlphaBetaPlayer(seed=0), state),
        ]
        if spec == "qubic":
            # The proof search starts once there are marks to prove from: three plies in
            # (on the empty board its kernels were left to someone's first move).
            opened = state.play_text("111").play_text("222").play_text("112")
            players.append((KernelAlphaBetaPlayer(seed=0, proof=True), opened))
        for player, start in players:
            # choose, then analyze two plies on: kmcts reuses its tree, and both kinds
            # of search (the best move only, every move valued) get compiled.
            best = player.choose(start, Limits(nodes=256, depth=2))
            after = start.play(best)
            player.analyze(after.play(after.legal_moves()[0]), Limits(nodes=256, depth=2))
    # Qubic's proof asks which of o's replies are open through a kernel no player
    # calls: as `max` plays from the proof, and for the proof's builders.
    from noughts.ai.qubic_proof import Budget, open_replies

    open_replies(1 << 21, 1 << 42, Budget(threat_nodes=256))
    # The kernels' clock reads Python's through numba's object mode, whose bridge is
    # built in each process on its first use and never cached: 0.15 s that would fall
    # inside the first timed decision (a 0.1 s move searched 128 iterations).
    from noughts.kernels.jit import now

    now()
    # The learned evaluation's weights, read and expanded once a process (20 ms, which
    # would otherwise fall inside the first decision that uses them).
    from noughts.kernels import learned

    learned.weights()
    # Not gobblet's solver: its kernels serve only `noughts solve gobblet`, which
    # compiles them as it starts a build of minutes.


def _cache_marker() -> Path:
    import numba

    import noughts.kernels
    from noughts.kernels import games

    # The folder numba chose for the kernels' cache: beside the sources when they are
    # writable, else the user's cache, or NUMBA_CACHE_DIR. (`_cache` is numba's own
    # attribute: without it every start counts as a first one, which costs a message.)
    folder = Path(cast(Any, games.perft_kernel)._cache.cache_path)
    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for source in sorted(Path(noughts.kernels.__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return folder / f"noughts-kernels-{digest.hexdigest()[:16]}.ready"


register_player("kmcts", KernelMCTSPlayer)
register_player("kalphabeta", KernelAlphaBetaPlayer)
