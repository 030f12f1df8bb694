"""Post-game review: every move of a game valued by a computer player, classed by how
much of the mover's chance it gave away, with the better move and its line.

The reviewer analyses each position of the game once (`AIPlayer.analyze`: the value of
every legal move). The graph over the game is those positions' values; a move's value
before is its position's value, its value after the next position's, seen by the mover.
Where the reviewer proved the played move's value exactly from the position before
(a win in 5) but the next position's own search only estimates it, the proof is kept:
what was proven once stays proven, so a won game never looks lost in between.

Every value is put on the one scale of `noughts.ai.base.win_chance` (the expected
result for the mover, a draw counting half); a move's class is read from the chance it
lost, with two rules of exact values above the thresholds: a proven win given up is a
blunder, and so is a move into a proven loss from a position that was not lost.

A proven fall is a blunder whatever the estimates between: where a side's value was
proven a win (or a draw) and is proven worse later in the game (a draw or a loss, the
game's end included), one of its moves between gave the result away though the reviewer
could not tell which. The first of them is blamed (`MoveReview.fell_to`): it left the
proof, a blunder from the proven value to the one the side fell to, which its accuracy
counts, so that a game that went from a win to a loss never shows 100%.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from noughts.ai.base import AIPlayer, Analysis, Kind, Limits, MoveInfo, Value, win_chance
from noughts.core import InvalidOptionError, Player, State
from noughts.records import GameRecord

__all__ = [
    "THRESHOLDS",
    "Judgement",
    "MoveReview",
    "Review",
    "judge_move",
    "move_accuracy",
    "review_from_analyses",
    "review_game",
    "review_record",
]


class Judgement(enum.Enum):
    """A move's class, from the chance it gave away (`THRESHOLDS`)."""

    BEST = "best"  # the reviewer's best move, or one it values the same
    GOOD = "good"  # gave away less than an inaccuracy
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: The least chance lost (0 to 1) for each class: lichess's thresholds (0.1, 0.2 and
#: 0.3 of winning chances in [-1, 1]) on our 0-to-1 scale.
THRESHOLDS: tuple[tuple[Judgement, float], ...] = (
    (Judgement.BLUNDER, 0.15),
    (Judgement.MISTAKE, 0.10),
    (Judgement.INACCURACY, 0.05),
)


@dataclass(frozen=True)
class MoveReview:
    """One move of the game. Values are the mover's, chances from 0 to 1."""

    ply: int
    """The move's number in plies, 1 for the first move of the record."""
    side: Player
    """Who made the move."""
    move: str
    """The move's text."""
    best: str
    """The reviewer's best move in the position before."""
    line: list[str]
    """The reviewer's best line from the position before (starting with `best`)."""
    value_before: Value
    """The position's value before the move, for the mover (its best move's)."""
    value_after: Value
    """The value of the move played, for the mover."""
    chance_before: float
    """`value_before` as the mover's win chance, 0 to 1."""
    chance_after: float
    """`value_after` as the mover's win chance, 0 to 1."""
    judgement: Judgement
    """The move's class: best, good, inaccuracy, mistake or blunder, by the chance it gave
    away."""
    fell_to: Value | None = None
    """Where the move is blamed for a proven fall (the module's docstring): the mover's
    proven value later in the game, worse than its proven `value_before`; else None."""
    fell_at: int | None = None
    """The ply of the position where `fell_to` was proven (the number of plies played)."""

    @property
    def loss(self) -> float:
        """The chance the move gave away (0 when it kept everything); for a proven fall,
        down to `fell_to`'s."""
        return max(0.0, self.chance_before - self.result_chance)

    @property
    def result_chance(self) -> float:
        """The mover's chance after the move as the review counts it: `fell_to`'s for a
        proven fall, else `chance_after`."""
        return self.chance_after if self.fell_to is None else _proven_chance(self.fell_to)

    def to_json(self) -> dict[str, Any]:
        """The move as JSON: ply, side, move, class, best, line, the values before and after
        (each with its chance) and the chance lost."""
        return {
            "ply": self.ply,
            "side": self.side.value,
            "move": self.move,
            "class": self.judgement.value,
            "best": self.best,
            "line": self.line,
            "value_before": _value_json(self.value_before, self.chance_before),
            "value_after": _value_json(self.value_after, self.chance_after),
            "fell_to": None if self.fell_to is None else _value_json(self.fell_to, _proven_chance(self.fell_to)),
            "fell_at": self.fell_at,
            "loss": round(self.loss, 4),
        }


@dataclass(frozen=True)
class Review:
    """A reviewed game: the moves, and each position's value for x (the graph)."""

    spec: str
    """The game's spec."""
    reviewer: str
    """The player that valued the moves (its spec or level)."""
    start: str | None
    """The position text the game started from; None for the initial position."""
    moves: list[MoveReview]
    """Every move of the game, reviewed, in order."""
    values: list[Value]
    """Each position's value for x: the start, then after every move."""
    chances: list[float]
    """`values` as x's win chances, 0 to 1: the review's graph."""

    def accuracy(self, side: Player) -> float | None:
        """`side`'s accuracy in percent: the mean of its moves' `move_accuracy`
        (lichess's formula); None when it made no move."""
        scores = [move_accuracy(m.chance_before, m.result_chance) for m in self.moves if m.side is side]
        return sum(scores) / len(scores) if scores else None

    def count(self, side: Player, judgement: Judgement) -> int:
        """How many of `side`'s moves were judged `judgement`."""
        return sum(1 for m in self.moves if m.side is side and m.judgement is judgement)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON: the game, the reviewed moves, the graph (x's chances), each
        side's accuracy and count of each class."""
        accuracy = {p.value: self.accuracy(p) for p in Player}
        return {
            "spec": self.spec,
            "start": self.start,
            "reviewer": self.reviewer,
            "moves": [m.to_json() for m in self.moves],
            "graph": [round(c, 4) for c in self.chances],
            "accuracy": {k: None if v is None else round(v, 1) for k, v in accuracy.items()},
            "classes": {p.value: {j.value: self.count(p, j) for j in Judgement} for p in Player},
        }


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy in percent from the mover's chance before and after it, with
    lichess's curve (fitted to its players' games): 100 for no loss, about 50 for a
    loss of 16 points of chance, near 0 for a lost win."""
    lost = max(0.0, before - after) * 100.0
    # Rounded: the fitted constants give 99.9999 for no loss.
    return round(max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669)), 2)


def review_record(
    record: GameRecord,
    reviewer: AIPlayer,
    limits: Limits = Limits(),
    name: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of `record` by `reviewer` within `limits` a position (see the
    module's docstring); `progress(done, total)` after each position."""
    states = record.replay()
    return review_game(states, record.moves, reviewer, limits, name, progress)


def review_game(
    states: list[State[Any]],
    moves: list[str],
    reviewer: AIPlayer,
    limits: Limits = Limits(),
    name: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of the game that went through `states` by `moves` (texts, one fewer
    than the states)."""
    if len(states) != len(moves) + 1:
        raise ValueError("a game of N moves has N + 1 states")
    reviewer.reset()
    analyses: list[Analysis | None] = []
    total = sum(1 for s in states if not s.is_over)
    for state in states:
        if state.is_over:
            analyses.append(None)
            continue
        analyses.append(reviewer.analyze(state, limits))
        if progress is not None:
            progress(len([a for a in analyses if a is not None]), total)
    return review_from_analyses(states, moves, analyses, name or reviewer.name)


def review_from_analyses(
    states: list[State[Any]], moves: list[str], analyses: list[Analysis | None], reviewer: str
) -> Review:
    """The review from each position's analysis (every move valued, `AIPlayer.analyze`;
    None for a finished position), made elsewhere: the server asks its worker pool one
    position at a time, so that a long review never holds a worker from other games."""
    if not len(states) == len(analyses) == len(moves) + 1:
        raise ValueError("a game of N moves has N + 1 states and as many analyses")
    values = _position_values(states, moves, analyses)
    chances = [_chance(v, a) for v, a in zip(values, analyses, strict=True)]
    reviews = []
    for ply, (state, move) in enumerate(zip(states, moves, strict=False), start=1):
        analysis = analyses[ply - 1]
        assert analysis is not None  # a state with a move after it is not over
        after = values[ply].negated(1)
        before_chance, after_chance = chances[ply - 1], 1.0 - chances[ply]
        reviews.append(
            MoveReview(
                ply=ply,
                side=state.turn,
                move=move,
                best=analysis.moves[0].text,
                line=list(analysis.pv),
                value_before=values[ply - 1],
                value_after=after,
                chance_before=before_chance,
                chance_after=after_chance,
                judgement=_judge(
                    analysis, _played(analysis, state, move), values[ply - 1], after, before_chance - after_chance
                ),
            )
        )
    reviews = _proven_falls(states, values, reviews)
    for_x = [v if s.turn is Player.X else v.negated(0) for v, s in zip(values, states, strict=True)]
    chances_x = [c if s.turn is Player.X else 1.0 - c for c, s in zip(chances, states, strict=True)]
    start = states[0]
    initial = start.game.initial()
    return Review(
        spec=start.game.spec,
        reviewer=reviewer + _estimates_note(analyses),
        start=None if start == initial else start.to_text(),
        moves=reviews,
        values=for_x,
        chances=chances_x,
    )


#: How good a proven result is, to tell a fall: a win, a draw, a loss.
_RANK = {Kind.WIN: 2, Kind.DRAW: 1, Kind.LOSS: 0}


def judge_move(analysis: Analysis, state: State[Any], move: str) -> Judgement:
    """The class the review gives `move` in `state`, from the analysis of `state` (every
    legal move valued, `AIPlayer.analyze`): how "Learn from your mistakes" judges a move
    tried in place of a mistake, by the review's own rules and thresholds. A move the
    analysis did not value (an illegal one) is an `InvalidOptionError`."""
    played = _played(analysis, state, move)
    if played is None:
        raise InvalidOptionError(f"the analysis values no move {move!r} in this position")
    before, after = analysis.value, played.value
    lost = _chance(before, analysis) - _chance(after, analysis)
    return _judge(analysis, played, before, after, lost)


def _proven_falls(states: list[State[Any]], values: list[Value], reviews: list[MoveReview]) -> list[MoveReview]:
    """`reviews` with each proven fall blamed on its side's first move after the proof
    (the module's docstring). A side's proven values over the game are each position's
    (its own where it is to move, its opponent's negated elsewhere); the opponent's moves
    cannot make a proven win worse, the side's own can."""
    reviews = list(reviews)
    for side in Player:
        proven: tuple[int, Value] | None = None  # the last proven value of `side`, and where
        for index, (state, value) in enumerate(zip(states, values, strict=True)):
            mine = value if state.turn is side else value.negated(0)
            if not mine.exact:
                continue
            if proven is not None and _RANK[mine.kind] < _RANK[proven[1].kind]:
                start, held = proven
                first = next((i for i in range(start, index) if states[i].turn is side), None)
                if first is None:  # no move of its own between: proofs that disagree, nothing to blame
                    proven = (index, mine)
                    continue
                if held.kind is not Kind.WIN or first == start:
                    before = held
                else:  # held where the opponent was to move: after its reply, a win in fewer plies
                    before = Value.win((held.plies or 1) - 1, bound=True)
                reviews[first] = replace(
                    reviews[first],
                    value_before=before,
                    chance_before=_proven_chance(before),
                    judgement=Judgement.BLUNDER,
                    fell_to=mine,
                    fell_at=index,
                )
            proven = (index, mine)
    return reviews


def _proven_chance(value: Value) -> float:
    chance = win_chance(value)
    assert chance is not None, value
    return chance


def _estimates_note(analyses: list[Analysis | None]) -> str:
    """Where some positions' values are estimates, how many and by which player: a
    header naming an exact reviewer (``max (perfect)``) must not hide the search that
    stood in for it."""
    valued = [a for a in analyses if a is not None]
    estimated = [a for a in valued if not all(info.value.exact for info in a.moves)]
    if not estimated:
        return ""
    players = ", ".join(dict.fromkeys(a.player for a in estimated))
    return f" · estimates in {len(estimated)} of {len(valued)} positions (by {players})"


def _position_values(states: list[State[Any]], moves: list[str], analyses: list[Analysis | None]) -> list[Value]:
    """Each position's value for its player to move (see the module's docstring)."""
    values: list[Value] = []
    for i, (state, analysis) in enumerate(zip(states, analyses, strict=True)):
        if analysis is None:
            outcome = state.outcome
            values.append(Value.draw() if outcome is None or outcome.winner is None else Value.loss(0))
            continue
        value = analysis.value
        parent = analyses[i - 1] if i else None
        if parent is not None and not value.exact:
            played = _played(parent, states[i - 1], moves[i - 1])
            if played is not None and played.value.exact:
                value = played.value.negated(-1)
        values.append(value)
    return values


def _played(analysis: Analysis, state: State[Any], move: str) -> MoveInfo | None:
    """The analysis' entry for the played move (compared as moves, not texts, so that
    any accepted spelling of a move is found)."""
    played = state.game.parse_move(move)
    return next((info for info in analysis.moves if info.move == played), None)


def _chance(value: Value, analysis: Analysis | None) -> float:
    chance = win_chance(value, analysis.scale if analysis is not None else None)
    if chance is None:
        raise InvalidOptionError("the reviewer does not value moves (the random player): choose a level or a search")
    return chance


def _judge(analysis: Analysis, played: MoveInfo | None, before: Value, after: Value, lost: float) -> Judgement:
    best = analysis.moves[0]
    if played is not None and (played is best or played.value.sort_key() == best.value.sort_key()):
        return Judgement.BEST
    if before.kind is Kind.WIN and after.kind is not Kind.WIN:
        return Judgement.BLUNDER  # a proven win given up
    if before.kind is not Kind.LOSS and after.kind is Kind.LOSS:
        return Judgement.BLUNDER  # a proven loss walked into
    for judgement, least in THRESHOLDS:
        if lost >= least:
            return judgement
    return Judgement.GOOD


def _value_json(value: Value, chance: float) -> dict[str, Any]:
    return {
        "kind": value.kind.value,
        "plies": value.plies,
        "bound": value.bound,
        "score": round(value.score, 4) + 0.0,  # + 0.0: never -0.0
        "text": value.text,
        "chance": round(chance, 4),
    }
