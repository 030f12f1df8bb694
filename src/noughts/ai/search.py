"""Game-tree search: alpha-beta (``alphabeta``) and plain minimax (``minimax``).

Both are negamax searches over the State protocol with a static evaluator at the
horizon (`noughts.ai.evaluation`, chosen with the ``eval`` option), iterative deepening,
and the same limits: ``depth`` (plies), ``nodes`` and ``time`` (seconds), given as
options or per call as `Limits` (the call's limits win). With no limit at all a search
stops after `DEFAULT_TIME` seconds, so a caller never hangs.

* Depth 1 is always finished, however short the budget; a search stopped by the time
  or node limit answers with the last depth it finished, never with a partial one.
* Finished games score ``WIN - ply`` for the winner, so quick wins and slow losses are
  preferred. A move whose score is such a win or loss is reported as ``Value.win`` /
  ``Value.loss`` with the plies to the end; a draw is reported as ``Value.draw`` only
  when nothing below that move was cut off by the depth horizon. Everything else is
  ``Value.estimate(score)`` on the evaluator's scale.
* The search stops early once every root move is proven (searching deeper could not
  change anything), and `AlphaBetaPlayer.choose` also once its best move is a proven win.

``alphabeta`` adds a transposition table, move ordering (the table's move, then two
killer moves per ply, then the history heuristic) and alpha-beta pruning, and on m,n,k
boards the ``threats`` and ``threes`` options: a threat-space search
(`noughts.games.mnk.threats`) for forced wins by fours (and threes), far beyond the search
horizon, for either side, and ``near=N``: below the root, only the cells within N
(rows, columns or diagonally) of a mark are searched, as gomoku programs do. On 15x15
that is about 30 moves instead of 200, so the search goes deeper. `choose` searches only
those at the root too; `analyze` values every move. In every game, ``guard=true`` marks
a move after which the opponent wins at once as lost and plays the next best instead,
for a search too shallow to see that reply. On m,n,k boards without Forget mode,
``blocks=true`` checks every position for fours (k-1 marks and an empty cell): the
player to move who has one wins, one who faces two loses, one who faces one must block
it, and that block is searched alone and costs no depth, at the horizon too. Sequences
of fours are then followed to their end inside the search. ``minimax`` is the seed reports' algorithm,
searching every node: it is kept to compare against.

The transposition table is keyed by position (states compare by position), while in
Forget mode and gobblet the outcome also depends on the path: a third repetition is a
draw. Finished states are never stored, but a stored value may have been computed
below a path that made some repetition draw possible, and is then reused on another
path. This is the usual graph-history compromise of game engines; it only matters in
the rare lines where a repetition is the best either side can do.

>>> from noughts import parse_position
>>> from noughts.ai import make_player
>>> state = parse_position("classic", "xx./oo./... x")
>>> analysis = make_player("alphabeta", depth=3).analyze(state)
>>> analysis.moves[0].text, analysis.value.text
('3', 'win in 1')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from noughts.ai.base import (
    AIPlayer,
    Analysis,
    Deadline,
    Kind,
    Limits,
    MoveInfo,
    Value,
    flag_option,
    register_player,
    require_moves,
    with_lines,
)
from noughts.ai.evaluation import Evaluator, evaluator, evaluator_scale
from noughts.core import InvalidOptionError, State, shown
from noughts.games.knowledge import ThreatWin, knowledge

__all__ = ["DEFAULT_TIME", "WIN", "AlphaBetaPlayer", "MinimaxPlayer"]

#: The score of a won game at the root; a win after p plies scores WIN - p.
WIN = 1e9
#: Scores beyond +-MATE are wins and losses; evaluators stay far below it.
MATE = WIN - 100_000
#: Seconds a search takes when it is given no limit of any kind.
DEFAULT_TIME = 1.0
#: Iterative deepening stops here even without a depth limit.
MAX_DEPTH = 200
DEFAULT_TT_SIZE = 200_000
#: The share of the time each threat search may use: ours, then the opponent's.
THREAT_SHARE = 0.15
#: When the opponent has a forced win by fours, the share of the remaining time left
#: after the search for checking which moves stop it.
REFUTE_SHARE = 0.3
#: The node cap of each threat search of a player without a time limit.
THREAT_NODES = 20_000
#: How many nodes go by between two looks at the clock.
CHECK_EVERY = 32


_INF = float("inf")
_NO_LIMITS = Limits()
#: The depth recorded for a table entry computed without any horizon cut: it is a
#: game-theoretic result, good for any depth.
_PROVEN = 1 << 30
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _AbortError(Exception):
    """The time or node budget ran out in the middle of a depth."""


class _Negamax(AIPlayer):
    """The shared part: options, limits, iterative deepening at the root, and turning
    scores into `Value`s. Subclasses provide `_search`."""

    def __init__(
        self,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        eval: str | None = None,
        seed: int | None = None,
    ) -> None:
        for option, value in (("depth", depth), ("nodes", nodes), ("seed", seed)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise InvalidOptionError(f"{self.name}: option {option} takes a whole number, not {shown(value)}")
        if time is not None and (not isinstance(time, int | float) or isinstance(time, bool)):
            raise InvalidOptionError(f"{self.name}: option time takes a number of seconds, not {shown(time)}")
        if eval is not None and not isinstance(eval, str):
            raise InvalidOptionError(f"{self.name}: option eval takes an evaluator name, not {shown(eval)}")
        self.defaults = Limits(time=time, nodes=nodes, depth=depth)
        self.eval_name = eval
        self.seed = seed
        self.rng = random.Random(seed)
        self.nodes = 0
        self._cuts = 0
        self._evaluate: Evaluator = _no_evaluator
        self._deadline = Deadline(None)
        self._node_limit: int | None = None
        self._armed = False
        self._next_check = CHECK_EVERY

    # -- the player API -----------------------------------------------------------

    def analyze(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        """Every legal move with its value at the deepest finished depth, best first.

        Each root move is searched with a full window, so every reported value is the
        exact depth-limited negamax value of that move, not just a bound (this costs
        more nodes than a search for the best move alone, see `choose`). Ties between
        equal values are broken by a shuffle seeded with ``seed`` (without a seed, by
        the legal move order), on m,n,k boards after the distance from the centre."""
        return self._run(state, limits, exact_root=True)

    # -- iterative deepening ------------------------------------------------------

    def _run(self, state: State[Any], limits: Limits, exact_root: bool) -> Analysis:
        started = time.perf_counter()
        moves = require_moves(state)
        limits = limits.over(self.defaults, DEFAULT_TIME)
        self._evaluate = evaluator(state.game, self.eval_name)
        self._deadline = Deadline(limits.time)
        self._node_limit = limits.nodes
        self.nodes = 0
        self._armed = False
        self._next_check = CHECK_EVERY
        self._start(state)
        order = self._root_moves(state, moves, exact_root)
        if self.seed is not None:
            self.rng.shuffle(order)
        tie_order = knowledge(state.game).tie_order(state.game)
        if tie_order is not None:
            # Equal values go to the move the game prefers (the sorts are stable): on an
            # empty 15x15 board, the cell nearer the centre, though every cell four from
            # the edge lies on as many lines.
            order.sort(key=tie_order)
        scores: dict[Any, float] = {}
        proven: dict[Any, bool] = {}
        completed = 0
        for depth in range(1, min(limits.depth or MAX_DEPTH, MAX_DEPTH) + 1):
            # Depth 1 always runs to the end: there must be a move to answer with.
            self._armed = depth > 1
            if self._armed and self._out_of_budget():
                break
            try:
                found = self._root(state, order, depth, exact_root)
            except _AbortError:
                break
            scores, proven, completed = found[0], found[1], depth
            # Stable: among equal scores the earlier move in this depth's order stays
            # first. Without full windows that is also the one whose score is exact.
            order.sort(key=scores.__getitem__, reverse=True)
            # A proven win cannot be bettered: `choose` is done. `analyze` goes on, as the
            # other moves' values still improve with depth.
            if all(proven.values()) or (not exact_root and scores[order[0]] >= MATE):
                break
        infos = [MoveInfo(m, state.move_text(m), _value(scores[m], proven[m])) for m in order]
        infos = with_lines(infos, lambda m: [state.move_text(x) for x in self._principal_line(state, m, completed)])
        pv = list(infos[0].line)
        seconds = time.perf_counter() - started
        scale = evaluator_scale(state.game, self.eval_name)
        return Analysis(self.name, infos, pv, completed, self.nodes, seconds, scale)

    def _root(
        self, state: State[Any], order: list[Any], depth: int, exact_root: bool
    ) -> tuple[dict[Any, float], dict[Any, bool]]:
        scores: dict[Any, float] = {}
        proven: dict[Any, bool] = {}
        alpha = -_INF
        for move in order:
            cuts = self._cuts
            child = state.play(move)
            if exact_root:
                score = -self._search(child, depth - 1, -_INF, _INF, 1)
            else:
                score = -self._search(child, depth - 1, -_INF, -alpha, 1)
                alpha = max(alpha, score)
            scores[move] = score
            proven[move] = self._cuts == cuts
        return scores, proven

    def _out_of_budget(self) -> bool:
        return self._deadline.expired() or (self._node_limit is not None and self.nodes >= self._node_limit)

    def _tick(self) -> None:
        """Called every CHECK_EVERY nodes: stop the depth when the budget is spent."""
        self._next_check = self.nodes + CHECK_EVERY
        if self._armed and self._out_of_budget():
            raise _AbortError

    def _terminal(self, state: State[Any], ply: int) -> float:
        """The score of a finished game (or of a position without moves: a draw)."""
        outcome = state.outcome
        winner = None if outcome is None else outcome.winner
        if winner is None:
            return 0.0
        return WIN - ply if winner is state.turn else ply - WIN

    # -- hooks --------------------------------------------------------------------

    def _root_moves(self, state: State[Any], moves: list[Any], exact_root: bool) -> list[Any]:
        """The root moves to search (a new list): all of them."""
        return list(moves)

    def _start(self, state: State[Any]) -> None:
        """Prepare the per-call tables before the first depth."""

    def _search(self, state: State[Any], depth: int, alpha: float, beta: float, ply: int) -> float:
        """The negamax score of `state` for its player to move, searched `depth` plies
        deep; `ply` counts from the root. Every horizon leaf adds one to ``_cuts``."""
        raise NotImplementedError

    def _principal_line(self, state: State[Any], best: Any, depth: int) -> list[Any]:
        return [best]


def _no_evaluator(state: State[Any]) -> float:
    raise RuntimeError("no search is running")


def _value(score: float, proven: bool) -> Value:
    if score >= MATE:
        return Value.win(round(WIN - score))
    if score <= -MATE:
        return Value.loss(round(WIN + score))
    if proven and score == 0:
        return Value.draw()
    return Value.estimate(score)


class AlphaBetaPlayer(_Negamax):
    """Negamax with alpha-beta pruning, a transposition table and move ordering.

    Options: ``depth``, ``time``, ``nodes`` (default limits), ``eval`` (an evaluator
    name of `noughts.ai.evaluation`, else the game's default), ``seed`` (tie-breaks
    between equal moves), ``tt_size`` (entries kept in the transposition table; 0 turns
    it off; when full it is cleared), ``threats`` (m,n,k boards without Forget mode,
    off by default: before searching, look for a forced win by continuous fours and
    play it; when the opponent has one, mark the moves after which it still has one as
    losses, best first until a move stops it), ``threes`` (with ``threats``: wins by
    fours and threes too, `noughts.games.mnk.threats.vct`; slower), ``near``, ``guard`` and
    ``blocks`` (see the module's docstring).

    The table and the killers live for one decision: a stored state keeps its game
    history alive (Forget mode, gobblet), so a table kept for a whole game would grow
    with it, and each analysis stays independent of what the player searched before.
    The history heuristic carries over, decayed, as a hint for move ordering; `reset`
    clears it.
    """

    name = "alphabeta"

    def __init__(
        self,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        eval: str | None = None,
        seed: int | None = None,
        tt_size: int = DEFAULT_TT_SIZE,
        threats: bool = False,
        threes: bool = False,
        near: int | None = None,
        guard: bool = False,
        blocks: bool = False,
    ) -> None:
        super().__init__(depth, time, nodes, eval, seed)
        self.guard = flag_option("guard", guard)
        self.blocks = flag_option("blocks", blocks)
        self._fours: Callable[[State[Any]], tuple[int, int]] | None = None
        if near is not None and (not isinstance(near, int) or isinstance(near, bool) or near < 1):
            raise InvalidOptionError(f"{self.name}: option near takes a whole number >= 1, not {shown(near)}")
        self.near = near
        if not isinstance(tt_size, int) or isinstance(tt_size, bool) or tt_size < 0:
            raise InvalidOptionError(f"{self.name}: option tt_size takes a whole number >= 0, not {shown(tt_size)}")
        self.tt_size = tt_size
        self.threats = flag_option("threats", threats)
        self.threes = flag_option("threes", threes)
        if self.threes and not self.threats:
            raise InvalidOptionError(f"{self.name}: option threes needs threats=true")
        #: state -> (depth, bound, score relative to the state, best move, proven)
        self._table: dict[State[Any], tuple[int, int, float, Any, bool]] = {}
        self._killers: list[list[Any]] = []
        self._history: dict[Any, int] = {}

    def decide(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        """The best move, found with ordinary alpha-beta at the root: moves that cannot
        beat the best one so far are only proven worse, not valued exactly, which makes
        this cheaper than `analyze` at the same depth (same best value, same depth).
        Only the best move is listed: the others' scores are bounds."""
        analysis = self._run(state, limits, exact_root=False)
        analysis.moves = analysis.moves[:1]
        return analysis

    def reset(self) -> None:
        self._history.clear()

    def _run(self, state: State[Any], limits: Limits, exact_root: bool) -> Analysis:
        analysis = self._searched(state, limits, exact_root)
        if self.guard:
            _guard(state, analysis)
        return analysis

    # -- threat-space search ------------------------------------------------------

    def _searched(self, state: State[Any], limits: Limits, exact_root: bool) -> Analysis:
        known = knowledge(state.game)
        if not (self.threats and known.threats(state.game)):
            return super()._run(state, limits, exact_root)
        started = time.perf_counter()
        require_moves(state)
        limits = limits.over(self.defaults, DEFAULT_TIME)
        end = None if limits.time is None else started + limits.time
        # Without a clock the threat searches are capped by nodes, so that a depth-only
        # player stays deterministic.
        cap = THREAT_NODES if end is None else None

        def share(fraction: float) -> float | None:
            return None if end is None or limits.time is None else time.perf_counter() + limits.time * fraction

        def left(fraction: float = 1.0) -> Limits:
            if end is None:
                return limits
            return replace(limits, time=max((end - time.perf_counter()) * fraction, 0.01))

        ours = known.threat_win(state, state.turn, self.threes, cap, share(THREAT_SHARE))
        if ours is not None:
            # A proven win: `choose` needs no search (depth 1 values the other moves);
            # `analyze` still searches, for the other moves' values.
            analysis = super()._run(state, left() if exact_root else replace(left(), depth=1), exact_root)
            move = ours.move
            value = Value.win(ours.plies, bound=True)  # the threat search's plies: a bound
            # The search may have found a shorter win with the same move.
            moves = [
                replace(i, value=max(i.value, value, key=Value.sort_key)) if i.move == move else i
                for i in analysis.moves
            ]
            analysis.moves = sorted(moves, key=lambda i: i.value.sort_key(), reverse=True)
            if analysis.best == move:
                line = getattr(ours, "line", (move,))
                analysis.pv = [state.move_text(m) for m in line]
                analysis.moves[0] = replace(analysis.moves[0], line=tuple(analysis.pv))
            return self._timed(analysis, started, ours.nodes)
        against = known.threat_win(state, state.turn.other, self.threes, cap, share(THREAT_SHARE))
        if against is None:
            return self._timed(super()._run(state, left(), exact_root), started, 0)
        analysis = super()._run(state, left(1 - REFUTE_SHARE), exact_root)
        nodes = self._refute(state, analysis, against, end, cap)
        return self._timed(analysis, started, nodes)

    def _refute(
        self, state: State[Any], analysis: Analysis, against: ThreatWin, end: float | None, cap: int | None
    ) -> int:
        """Walk down the moves, best first, marking each after which the opponent still
        wins by threats as a loss, until one stops it (or time runs out); the opponent's
        win by fours after a pass, `against`, is replayed first on each. The nodes used."""
        known = knowledge(state.game)
        infos = analysis.moves
        nodes = against.nodes
        for at, info in enumerate(infos):
            if info.value.kind is Kind.WIN or (end is not None and time.perf_counter() >= end):
                break
            if info.value.kind is Kind.LOSS:
                continue
            child = state.play(info.move)
            if child.is_over:
                break
            win = known.replay(child, child.turn, against)
            if win is None:
                deadline = None if end is None else time.perf_counter() + (end - time.perf_counter()) / 2
                win = known.threat_win(child, child.turn, self.threes, cap, deadline)
            if win is None:
                break
            nodes += win.nodes
            infos[at] = replace(info, value=Value.win(win.plies, bound=True).negated())
        _best_first(analysis)
        return nodes

    @staticmethod
    def _timed(analysis: Analysis, started: float, threat_nodes: int) -> Analysis:
        analysis.nodes += threat_nodes
        analysis.time = time.perf_counter() - started
        return analysis

    def _root_moves(self, state: State[Any], moves: list[Any], exact_root: bool) -> list[Any]:
        # `choose` only wants the best move: the far cells go, as below the root.
        # `analyze` values every move.
        return list(moves) if exact_root else list(self._near(state, moves))

    def _near(self, state: State[Any], moves: list[Any]) -> list[Any]:
        """The moves within `near` of a mark (all of them without the option, or where
        none is). Leaving moves out is a cut like the horizon's: what is found below
        is no longer proven."""
        if self.near is None:
            return moves
        kept = knowledge(state.game).near(state, moves, self.near)
        if len(kept) == len(moves):
            return moves
        self._cuts += 1
        return kept

    def _start(self, state: State[Any]) -> None:
        game = state.game
        self._fours = knowledge(game).immediate(game) if self.blocks else None
        # Old history counts describe an earlier position: keep them as a hint only.
        self._history = {move: count >> 2 for move, count in self._history.items() if count >> 2}
        self._killers = []
        self._table.clear()

    def _search(self, state: State[Any], depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        if state.outcome is not None:
            return self._terminal(state, ply)
        forced = None
        if self._fours is not None:
            mine, theirs = self._fours(state)
            if mine:
                return WIN - ply - 1
            if theirs:
                if theirs & (theirs - 1):
                    return ply + 2 - WIN
                forced = theirs.bit_length() - 1
        if depth <= 0 and forced is None:
            self._cuts += 1
            return self._evaluate(state)
        if forced is not None:
            return self._block(state, forced, depth, alpha, beta, ply)
        table = self._table
        use_table = self.tt_size > 0
        table_move = None
        if use_table:
            entry = table.get(state)
            if entry is not None:
                stored_depth, bound, stored, table_move, proven = entry
                if stored_depth >= depth:
                    score = _from_table(stored, ply)
                    if bound == _EXACT or (bound == _LOWER and score >= beta) or (bound == _UPPER and score <= alpha):
                        if not proven:
                            self._cuts += 1
                        return score
        moves = state.legal_moves()
        if not moves:
            return self._terminal(state, ply)
        moves = self._near(state, moves)
        killers = self._killers_at(ply)
        if len(moves) > 1:
            self._order(moves, table_move, killers)
        alpha_in = alpha
        cuts = self._cuts
        best = -_INF
        best_move = moves[0]
        for move in moves:
            score = -self._search(state.play(move), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if move != killers[0]:
                            killers[1] = killers[0]
                            killers[0] = move
                        self._history[move] = self._history.get(move, 0) + depth * depth
                        break
        if use_table:
            bound = _UPPER if best <= alpha_in else _LOWER if best >= beta else _EXACT
            proven = self._cuts == cuts
            if len(table) >= self.tt_size:
                table.clear()
            table[state] = (_PROVEN if proven else depth, bound, _to_table(best, ply), best_move, proven)
        return best

    def _block(self, state: Any, cell: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """A node whose only move that does not lose at once blocks the opponent's
        four: searched alone and without spending depth, at the horizon too, so that
        sequences of fours are followed to their end."""
        return -self._search(state.play(cell), depth, -beta, -alpha, ply + 1)

    def _killers_at(self, ply: int) -> list[Any]:
        killers = self._killers
        while len(killers) <= ply:
            killers.append([None, None])
        return killers[ply]

    def _order(self, moves: list[Any], table_move: Any, killers: list[Any]) -> None:
        """Best candidates first: the table's move, the killers, then by history."""
        history = self._history
        if history:
            moves.sort(key=lambda m: history.get(m, 0), reverse=True)
        for first in (killers[1], killers[0], table_move):
            if first is not None and first != moves[0] and first in moves:
                moves.remove(first)
                moves.insert(0, first)

    def _principal_line(self, state: State[Any], best: Any, depth: int) -> list[Any]:
        """The best move, then the table's best move in each following position."""
        line = [best]
        state = state.play(best)
        seen = {state}
        while len(line) < depth and not state.is_over:
            entry = self._table.get(state)
            if entry is None or entry[3] not in state.legal_moves():
                break
            line.append(entry[3])
            state = state.play(entry[3])
            if state in seen:
                break
            seen.add(state)
        return line


def _guard(state: State[Any], analysis: Analysis) -> None:
    """Walk the moves best first, marking each after which the opponent wins at once as
    a loss, until one is safe: a search too shallow to see the reply still blocks."""
    infos = analysis.moves
    for at, info in enumerate(infos):
        if info.value.kind is Kind.WIN:
            break
        if info.value.kind is Kind.LOSS:
            continue
        child = state.play(info.move)
        if child.is_over or not _wins_at_once(child):
            break
        infos[at] = replace(info, value=Value.loss(2))
    _best_first(analysis)


def _best_first(analysis: Analysis) -> None:
    """Sort the moves again after some were marked lost; a principal line that no
    longer starts with the best move is cut to that move."""
    infos = analysis.moves
    infos.sort(key=lambda i: i.value.sort_key(), reverse=True)
    if analysis.pv and analysis.pv[0] != infos[0].text:
        analysis.pv = list(infos[0].line) or [infos[0].text]


def _wins_at_once(state: State[Any]) -> bool:
    """Whether the player to move has a winning move."""
    for move in state.legal_moves():
        outcome = state.play(move).outcome
        if outcome is not None and outcome.winner is state.turn:
            return True
    return False


def _to_table(score: float, ply: int) -> float:
    """Win and loss scores count plies from the root; the table keeps them counted
    from the stored state, so that they stay right wherever the state recurs."""
    if score >= MATE:
        return score + ply
    if score <= -MATE:
        return score - ply
    return score


def _from_table(score: float, ply: int) -> float:
    if score >= MATE:
        return score - ply
    if score <= -MATE:
        return score + ply
    return score


class MinimaxPlayer(_Negamax):
    """Plain depth-limited negamax, every node searched: the seed reports' algorithm,
    kept as the yardstick for `AlphaBetaPlayer` (same values at equal depth, many more
    nodes). Options: ``depth``, ``time``, ``nodes``, ``eval``, ``seed``. Its principal
    line is the best move only (it keeps no table)."""

    name = "minimax"

    def _search(self, state: State[Any], depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        if state.outcome is not None:
            return self._terminal(state, ply)
        if depth <= 0:
            self._cuts += 1
            return self._evaluate(state)
        moves = state.legal_moves()
        if not moves:
            return self._terminal(state, ply)
        best = -_INF
        for move in moves:
            score = -self._search(state.play(move), depth - 1, -_INF, _INF, ply + 1)
            if score > best:
                best = score
        return best


register_player("alphabeta", AlphaBetaPlayer)
register_player("minimax", MinimaxPlayer)
