"""Positions and analyses as the page draws them: the API's answers, built from the core.

The page knows no rules: it gets the board in a shape per family, every legal move with
the cells it touches (so a click or a drop maps to a move text), the last move and the
winner's line, all computed here from the states the core replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from noughts.ai.base import Analysis, Value, win_chance
from noughts.ai.levels import Level
from noughts.core import Player, State
from noughts.games.gobblet import GobbletState, Place, Shift
from noughts.registry import name as game_name
from noughts.server.models import (
    AnalysisView,
    Board,
    Figure,
    Forget,
    GameView,
    GobbletBoard,
    GridBoard,
    Mark,
    MoveAnalysis,
    MoveRef,
    QubicBoard,
    TextBoard,
    UltimateBoard,
    ValueView,
)
from noughts.server.replay import Replayed
from noughts.study.verdicts import verdict
from noughts.variant import Trait


def game_view(replayed: Replayed) -> GameView:
    """The position after the moves of `replayed`, with what the page needs around it."""
    state = replayed.state
    game = replayed.game
    last = replayed.move_values[-1] if replayed.move_values else None
    line, boards = _winning_line(state)
    return GameView(
        spec=game.spec,
        key=game.key,
        title=game_name(game),
        start=replayed.start.to_text(),
        position=state.to_text(),
        moves=replayed.moves,
        ply=len(replayed.move_values),
        turn=_mark(state.turn),
        status=state.status,  # type: ignore[arg-type]  # the core's four status words
        result=state.outcome.describe() if state.outcome else None,
        legal=[move_ref(state, m) for m in state.legal_moves()],
        last_move=move_ref(replayed.states[-2], last) if last is not None else None,
        winning_line=line,
        winning_boards=boards,
        board=_board(state),
        forget=_forget(state),
    )


def position_view(state: State[Any], before: State[Any] | None, last: Any) -> dict[str, Any]:
    """The fields of `game_view` for `state`, reached by the move `last` from `before`,
    that a move changes (all but the game, the start, the moves and the ply), JSON-ready:
    online play sends them with each move instead of the whole view."""
    line, boards = _winning_line(state)
    forget = _forget(state)
    return {
        "position": state.to_text(),
        "turn": _mark(state.turn),
        "status": state.status,
        "result": state.outcome.describe() if state.outcome else None,
        "legal": [move_ref(state, m).model_dump() for m in state.legal_moves()],
        "last_move": move_ref(before, last).model_dump() if before is not None and last is not None else None,
        "winning_line": line,
        "winning_boards": boards,
        "board": _board(state).model_dump(),
        "forget": forget.model_dump() if forget else None,
    }


def _mark(player: Player) -> Mark:
    return "x" if player is Player.X else "o"


def _owner(player: Player | None) -> Mark | None:
    return None if player is None else _mark(player)


def move_ref(state: State[Any], move: Any) -> MoveRef:
    """`move` (a move value of `state`'s game) with the cells it touches."""
    text = state.game.move_text(move)
    if isinstance(move, Place):
        return MoveRef(text=text, cell=move.cell, size=move.size)
    if isinstance(move, Shift):
        top = state.top(move.src) if isinstance(state, GobbletState) else None
        size = top[1] if top is not None else None
        return MoveRef(text=text, cell=move.dst, source=move.src, size=size)
    landing = getattr(state, "landing", None)  # a game with gravity: where the mark drops
    if landing is not None:
        return MoveRef(text=text, cell=landing(move))
    if _board_kind(state) == "text" or not isinstance(move, int):
        return MoveRef(text=text, cell=None)
    return MoveRef(text=text, cell=move)


def _cells(state: Any, count: int) -> list[Mark | None]:
    return [_owner(state.cell(i)) for i in range(count)]


def _grid(state: Any) -> Board:
    g = state.game
    gravity = Trait.GRAVITY in g.variant.traits
    return GridBoard(columns=g.m, rows=g.n, k=g.k, cells=_cells(state, g.m * g.n), gravity=gravity)


def _ultimate(state: Any) -> Board:
    results: list[Any] = []
    for b in range(9):
        outcome = state.board_outcome(b)
        results.append(None if outcome is None else _owner(outcome.winner) or "draw")
    return UltimateBoard(
        rule=state.game.rule, cells=_cells(state, 81), boards=results, playable=state.playable_boards()
    )


def _qubic(state: Any) -> Board:
    return QubicBoard(n=state.game.n, d=state.game.d, cells=_cells(state, state.game.cells))


def _gobblet(state: Any) -> Board:
    stacks = [[Figure(player=_mark(p), size=s) for p, s in state.stack(c)] for c in range(9)]
    hands: dict[Mark, list[int]] = {
        "x": [state.hand(Player.X)[s] for s in (1, 2, 3)],
        "o": [state.hand(Player.O)[s] for s in (1, 2, 3)],
    }
    return GobbletBoard(shifts=state.game.moves, stacks=stacks, hands=hands)


def _text(state: State[Any]) -> Board:
    return TextBoard(diagram=state.diagram())


#: What draws each kind of board a game names (`Variant.board`); a kind not here is
#: drawn as text, so that a game the server has never seen still plays on every page.
BOARD_VIEWS: dict[str, Callable[[Any], Board]] = {
    "grid": _grid,
    "ultimate": _ultimate,
    "qubic": _qubic,
    "gobblet": _gobblet,
}


def _board_kind(state: State[Any]) -> str:
    kind = state.game.variant.board
    return kind if kind in BOARD_VIEWS else "text"


def _board(state: State[Any]) -> Board:
    build = BOARD_VIEWS.get(state.game.variant.board)
    return _text(state) if build is None else build(state)


def _winning_line(state: State[Any]) -> tuple[list[int], list[int]]:
    """The winner's line as cells of the board (and, in ultimate, as boards)."""
    if _board_kind(state) == "text":
        return [], []
    line = state.winning_line()
    winning_boards = getattr(state, "winning_boards", None)
    boards = winning_boards() if winning_boards is not None else None
    return list(line or ()), list(boards or ())


def _forget(state: State[Any]) -> Forget | None:
    """Each player's marks oldest first; the oldest goes when a player who already has
    `keep` marks (in that local board, in ultimate) places another."""
    ages = getattr(state, "ages", None)
    if ages is None or not getattr(state.game, "forget", False):
        return None
    kind = state.game.variant.board
    # One board's ages per player (mnk) or nine (ultimate, per local board).
    per_board: tuple[tuple[tuple[int, ...], ...], ...] = (
        tuple((order,) for order in ages) if kind == "grid" else ages if kind == "ultimate" else ()
    )
    if not per_board:
        return None
    keep: int = getattr(state.game, "keep")  # noqa: B009 - a Forget-mode game's, whatever its class
    result: dict[Mark, list[int]] = {}
    vanishing: dict[Mark, list[int]] = {}
    marks: tuple[Mark, Mark] = ("x", "o")
    for mark, boards in zip(marks, per_board, strict=True):
        result[mark] = [m for order in boards for m in order]
        vanishing[mark] = [order[0] for order in boards if len(order) >= keep]
    return Forget(keep=keep, ages=result, vanishing=vanishing)


# -- analysis ---------------------------------------------------------------------


def value_view(value: Value, scale: float | None = None) -> ValueView:
    chance = win_chance(value, scale)
    return ValueView(
        kind=value.kind.value,
        text=value.text,
        plies=value.plies,
        exact=value.exact,
        bound=value.bound,
        chance=None if chance is None else round(chance, 4),
    )


def bar_for_x(value: Value, turn: Player, scale: float | None = None) -> float:
    """x's chance (`win_chance`) as a number in [-1, 1]: proven results at the ends, a
    draw and an even estimate in the middle, not evaluated in the middle too."""
    chance = win_chance(value, scale)
    mover = 0.0 if chance is None else 2.0 * chance - 1.0
    return round(mover if turn is Player.X else -mover, 4) + 0.0  # + 0.0: never -0.0


def analysis_view(analysis: Analysis, level: Level, turn: Player) -> AnalysisView:
    return AnalysisView(
        level=level,
        player=analysis.player,
        best=analysis.moves[0].text,
        value=value_view(analysis.value, analysis.scale),
        verdict=verdict(analysis.value, turn, analysis.scale),
        bar=bar_for_x(analysis.value, turn, analysis.scale),
        moves=[
            MoveAnalysis(
                text=i.text,
                value=value_view(i.value, analysis.scale),
                visits=i.visits,
                note=i.note,
                traps=i.traps,
                line=list(i.line),
            )
            for i in analysis.moves
        ],
        pv=analysis.pv,
        depth=analysis.depth,
        nodes=analysis.nodes,
        time=round(analysis.time, 4),
    )
