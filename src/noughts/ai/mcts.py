"""Monte-Carlo tree search: UCT with MCTS-Solver, tree reuse and pluggable evaluators.

Each iteration walks down the tree by UCT, adds one new node, asks an evaluator for the
result of that position (a random playout to the end, by default) and backs it up the
path. With the solver on, positions whose result is certain are proven and their
proofs propagate upward (Winands, Björnsson and Saito, "Monte-Carlo Tree Search
Solver", 2008): a move into a position proven lost for the player to move there is a
proven win here; when every move leads to a proven win for the opponent, this position
is a proven loss; when every move is decided and the best is a draw, a proven draw.

The tree is kept between decisions: on the next call the new position is looked up
among the old root, its children and its grandchildren (by state equality), so the
statistics gathered on the opponent's reply carry over.

>>> from noughts import parse_spec
>>> player = MCTSPlayer(iterations=300, seed=1)
>>> state = parse_spec("classic").parse_position("xx./oo./... x")
>>> analysis = player.analyze(state)
>>> analysis.moves[0].text, analysis.value.text
('3', 'win in 1')

Nodes are plain slots objects holding their state: readable, and the place where a
compiled kernel can later take over the hot path (selection and playouts).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from noughts.ai import evaluation
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
from noughts.core import InvalidOptionError, State, closest, shown

__all__ = [
    "DEFAULT_TIME",
    "PLAYOUT_CAP",
    "Evaluator",
    "MCTSPlayer",
    "Node",
    "evaluator_names",
    "from_score",
    "random_playout",
    "register_evaluator",
]

#: Seconds spent on a decision when neither a time nor an iteration budget is given.
DEFAULT_TIME = 1.0
#: Plies after which a playout stops and counts as a draw: games with repetition draws
#: (forget mode, gobblet) can wander for a long time before the third repetition.
PLAYOUT_CAP = 400

#: ``(state, rng) -> result`` in [-1, 1] for the player to move in `state`
#: (+1 a sure win, -1 a sure loss). Called on positions that are not over.
Evaluator = Callable[[State[Any], random.Random], float]

_NO_LIMITS = Limits()

# Proofs, from the point of view of the player to move in the node.
WIN = 1
DRAW = 0
LOSS = -1


def random_playout(state: State[Any], rng: random.Random) -> float:
    """Play uniformly random moves to the end: +1 / 0 / -1 for the player to move in
    `state`; a game still going after `PLAYOUT_CAP` plies counts as a draw."""
    me = state.turn
    for _ in range(PLAYOUT_CAP):
        outcome = state.outcome
        if outcome is not None:
            winner = outcome.winner
            return 0.0 if winner is None else (1.0 if winner is me else -1.0)
        moves = state.legal_moves()
        # random() is one C call; randrange costs several Python ones per ply.
        state = state.play(moves[int(rng.random() * len(moves))])
    return 0.0


def from_score(score: Callable[[State[Any]], float], scale: float) -> Evaluator:
    """An evaluator from a static evaluation function (any scale, positive = good for
    the player to move): ``tanh(score / scale)``, so a score of `scale` reads as about
    a 76% expected result. No randomness is used."""
    if not scale > 0:
        raise InvalidOptionError("scale must be positive")

    def evaluate(state: State[Any], rng: random.Random) -> float:
        return math.tanh(score(state) / scale)

    return evaluate


_EVALUATORS: dict[str, Evaluator] = {"random": random_playout}


def register_evaluator(name: str, evaluator: Evaluator) -> None:
    """Make an evaluator available to ``mcts:evaluator=NAME``. The static evaluations
    of `noughts.ai.evaluation` are available by their names without this."""
    _EVALUATORS[name.strip().lower()] = evaluator


def evaluator_names() -> list[str]:
    return [*_EVALUATORS, *(name for name in evaluation.all_evaluator_names() if name not in _EVALUATORS)]


def _static_evaluator(name: str) -> Evaluator:
    """A static evaluation by name, for whatever game the state is of: its score
    squashed by ``tanh(score / scale)`` with that game's evaluator's scale."""

    def squashed(state: State[Any], rng: random.Random) -> float:
        game = state.game
        return math.tanh(evaluation.evaluator(game, name)(state) / evaluation.evaluator_scale(game, name))

    return squashed


def _find_evaluator(name: str) -> Evaluator:
    key = name.strip().lower()
    if key in _EVALUATORS:
        return _EVALUATORS[key]
    if key in evaluation.all_evaluator_names():
        return _static_evaluator(key)
    raise InvalidOptionError(
        f"unknown evaluator {shown(name)}{closest(name, evaluator_names())};"
        f" the evaluators are: {', '.join(evaluator_names())}"
    )


class Node:
    """One position in the tree, reached by `move` from its parent.

    `total` sums the results backed up through this node as seen by the player who
    made `move` (the parent's player to move), so a parent compares its children's
    ``total / visits`` directly. `proof` is WIN, DRAW or LOSS for the player to move
    here once the result is certain (always so for a finished game), with `plies` to
    the end of the game for a win or a loss.
    """

    __slots__ = ("children", "move", "plies", "proof", "state", "total", "untried", "visits")

    def __init__(self, state: State[Any], move: Any, rng: random.Random) -> None:
        self.state = state
        self.move = move
        self.children: list[Node] = []
        self.visits = 0
        self.total = 0.0
        self.plies = 0
        self.proof: int | None = None
        outcome = state.outcome
        if outcome is None:
            # Popped from the end, so the expansion order is a seeded random one, except
            # that moves winning at once go last, i.e. first: the solver then proves a
            # node won on its first expansion and its parent's move lost ("decisive
            # moves", Teytaud & Teytaud 2010). Without it, boards with hundreds of moves
            # (gomoku) leave a one-move threat unanswered at any sensible budget.
            self.untried: list[Any] = state.legal_moves()
            rng.shuffle(self.untried)
            turn = state.turn
            decisive = [m for m in self.untried if (o := state.play(m).outcome) is not None and o.winner is turn]
            if decisive:
                self.untried = [m for m in self.untried if m not in decisive] + decisive
        else:
            self.untried = []
            winner = outcome.winner
            # In gobblet the player to move can be the winner (the mover uncovered a line).
            self.proof = DRAW if winner is None else (WIN if winner is state.turn else LOSS)

    def mean(self) -> float:
        """The mean result for the player who made `move`."""
        return self.total / self.visits if self.visits else 0.0

    def value(self) -> Value:
        """The value of `move` for the player who made it."""
        # The solver proves a node by the children tried so far: its plies are a bound
        # (exact at one ply, `Value.win`), and so is the move's, one ply longer.
        if self.proof == LOSS:
            return Value.loss(self.plies, bound=True).negated()
        if self.proof == WIN:
            return Value.win(self.plies, bound=True).negated()
        if self.proof == DRAW:
            return Value.draw()
        if self.visits == 0:
            return Value(Kind.UNKNOWN)
        return Value.estimate(self.mean())

    def rank(self) -> tuple[int, float, float]:
        """Larger is a better move for the parent's player to move: a proven win, the
        quickest first; then by visits (draws and unproven moves alike, as UCT spent
        its effort on what it found best); a proven loss last, the slowest first."""
        if self.proof == LOSS:
            return (2, -self.plies, 0.0)
        if self.proof == WIN:
            return (0, self.plies, 0.0)
        return (1, self.visits, self.mean())


class MCTSPlayer(AIPlayer):
    """UCT with MCTS-Solver, tree reuse and a pluggable leaf evaluator; any game.

    Options (also from text: ``mcts:time=2:c=1.0:seed=7``):

    * `time` seconds and/or `iterations` per decision; a call's ``Limits.time`` and
      ``Limits.nodes`` take their place when given. Whichever runs out first stops the
      search; with neither, `DEFAULT_TIME` seconds. ``Limits.depth`` does not apply.
    * `c`: the UCT exploration constant, for results in [-1, 1].
    * `seed`: the random generator's seed (expansion order, playouts).
    * `reuse`: keep the tree between decisions (`reset` drops it).
    * `solver`: prove wins, losses and draws and play by the proofs.
    * `evaluator`: the name of a registered evaluator (``random``: random playouts), or
      an `Evaluator` callable when built from Python.
    """

    name = "mcts"

    def __init__(
        self,
        time: float | None = None,
        iterations: int | None = None,
        c: float = math.sqrt(2),
        seed: int | None = None,
        reuse: bool = True,
        solver: bool = True,
        evaluator: str | Evaluator = "random",
    ) -> None:
        if time is not None and (isinstance(time, bool) or not isinstance(time, int | float) or not time > 0):
            raise InvalidOptionError(f"time must be a positive number of seconds, not {shown(time)}")
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise InvalidOptionError(f"iterations must be a whole number of at least 1, not {shown(iterations)}")
        if isinstance(c, bool) or not isinstance(c, int | float) or not c >= 0:
            raise InvalidOptionError(f"c must be a number of at least 0, not {shown(c)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidOptionError(f"seed must be a whole number, not {shown(seed)}")
        self.time = None if time is None else float(time)
        self.iterations = iterations
        self.c = float(c)
        self.reuse = flag_option("reuse", reuse)
        self.solver = flag_option("solver", solver)
        self.evaluate = _find_evaluator(evaluator) if isinstance(evaluator, str) else evaluator
        self.rng = random.Random(seed)
        self._root: Node | None = None

    def reset(self) -> None:
        self._root = None

    def analyze(self, state: State[Any], limits: Limits = _NO_LIMITS) -> Analysis:
        started = time.perf_counter()
        moves = require_moves(state)
        seconds = limits.time if limits.time is not None else self.time
        budget = limits.nodes if limits.nodes is not None else self.iterations
        if seconds is None and budget is None:
            seconds = DEFAULT_TIME
        deadline = Deadline(seconds)
        root = self._reused_root(state) or Node(state, None, self.rng)
        done = 0
        while root.proof is None and (budget is None or done < budget) and not deadline.expired():
            self._iterate(root)
            done += 1
        self._root = root if self.reuse else None
        return self._report(root, moves, done, time.perf_counter() - started)

    # -- the search ---------------------------------------------------------------

    def _reused_root(self, state: State[Any]) -> Node | None:
        """The node of the kept tree for `state`: the old root itself (analysed again),
        a child (our own move was played) or a grandchild (then the opponent's)."""
        old = self._root
        if old is None:
            return None
        for node in _near(old):
            if node.state == state and node.state.outcome is None:
                # Equal positions may differ in repetition history; the real one counts.
                node.state = state
                return node
        return None

    def _iterate(self, root: Node) -> None:
        rng = self.rng
        node = root
        path = [root]
        while True:
            if node.proof is not None:
                result = float(node.proof)
                break
            if node.untried:
                move = node.untried.pop()
                child = Node(node.state.play(move), move, rng)
                node.children.append(child)
                path.append(child)
                result = float(child.proof) if child.proof is not None else self.evaluate(child.state, rng)
                break
            node = self._select(node)
            path.append(node)
        leaf_proven = path[-1].proof is not None
        # `result` is for the player to move at the leaf; each node stores it for the
        # player who moved into it, one sign flip per ply on the way up.
        for visited in reversed(path):
            result = -result
            visited.visits += 1
            visited.total += result
        if self.solver and leaf_proven:
            for visited in reversed(path[:-1]):
                if not _prove(visited):
                    break

    def _select(self, node: Node) -> Node:
        c = self.c
        log_visits = math.log(node.visits)
        best = node.children[0]
        best_score = -math.inf
        for child in node.children:
            proof = child.proof
            if proof is None:
                mean = child.total / child.visits
            elif proof == WIN and self.solver:
                continue  # a proven loss for us: never worth another look
            else:
                mean = float(-proof)
            score = mean + c * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    # -- the report ---------------------------------------------------------------

    def _best_child(self, node: Node) -> Node:
        if self.solver:
            return max(node.children, key=Node.rank)
        return max(node.children, key=lambda child: (child.visits, child.mean()))

    def _report(self, root: Node, moves: list[Any], iterations: int, seconds: float) -> Analysis:
        state = root.state
        by_move = {child.move: child for child in root.children}
        infos = []
        for move in moves:
            child = by_move.get(move)
            if child is None:
                infos.append((1, 0.0, 0.0, MoveInfo(move, state.move_text(move), Value(Kind.UNKNOWN), 0)))
            else:
                rank = child.rank() if self.solver else (1, child.visits, child.mean())
                infos.append((*rank, MoveInfo(move, state.move_text(move), child.value(), child.visits)))
        infos.sort(key=lambda item: item[:3], reverse=True)

        def line_of(first: Any) -> list[str]:
            line = [state.move_text(first)]
            node = by_move.get(first)
            while node is not None and node.children:
                child = self._best_child(node)
                line.append(node.state.move_text(child.move))
                node = child
            return line

        ranked = with_lines([info for *_, info in infos], line_of)
        return Analysis(self.name, ranked, list(ranked[0].line), None, iterations, seconds)


def _near(root: Node) -> Iterator[Node]:
    yield root
    yield from root.children
    for child in root.children:
        yield from child.children


def _prove(node: Node) -> bool:
    """Try to prove `node` from its children's proofs; True if it is proven now."""
    quickest_win: int | None = None
    decided = not node.untried
    draw = False
    slowest_loss = 0
    for child in node.children:
        proof = child.proof
        if proof == LOSS:
            if quickest_win is None or child.plies < quickest_win:
                quickest_win = child.plies
        elif proof is None:
            decided = False
        elif proof == DRAW:
            draw = True
        else:
            slowest_loss = max(slowest_loss, child.plies)
    if quickest_win is not None:
        node.proof, node.plies = WIN, quickest_win + 1
        return True
    if not decided:
        return False
    if draw:
        node.proof = DRAW
    else:
        node.proof, node.plies = LOSS, slowest_loss + 1
    return True


register_player("mcts", MCTSPlayer)
