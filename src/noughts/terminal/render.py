"""Boards for people, as rich `Text`: colour where the terminal has it, and every mark
of meaning also in the characters themselves, so that a board reads the same with
NO_COLOR or in a log file.

* the last move is in parentheses: ``(X)``;
* Forget mode: a mark that vanishes at its owner's next move (next move in that local
  board, in ultimate) is written in lower case: ``x``;
* ultimate and nine-board: the boards the player to move may play in are in
  ``[brackets]``; a decided ultimate board is drawn as one big mark;
* the winner's line in ``[brackets]`` (underlined in colour), and named under the
  board; in ultimate, the line of won boards;
* qubic: the layers side by side;
* gobblet and matryoshka: the top figure of each cell (``XL`` is x's large), the
  figures it covers below it, and each player's figures in hand.

>>> from noughts import parse_spec
>>> state = parse_spec("classic").initial().play_text("5")
>>> print(render(state, last=4).plain)
  1 │ 2 │ 3
 ───┼───┼───
  4 │(X)│ 6
 ───┼───┼───
  7 │ 8 │ 9
last move: X 5
O to move
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.text import Text

from noughts.core import Player, State
from noughts.games.connect4.rules import ConnectFourState
from noughts.games.gobblet import GobbletState, Place, Shift
from noughts.games.mnk.rules import MnkState
from noughts.games.qubic import QubicState
from noughts.games.ultimate import BOARD_NAMES, ULTIMATE, UltimateState
from noughts.i18n import gettext

__all__ = ["PLAYER_STYLES", "player_text", "render"]

PLAYER_STYLES = {Player.X: "bold bright_cyan", Player.O: "bold bright_magenta"}
_LAST = "reverse"
_VANISH = "dim"
_EMPTY = "bright_black"
_GRID = "bright_black"
_OPEN = "bold green"
_OPEN_EMPTY = "green"
_WIN = "underline"
_SIZE_LETTERS = "SML"

#: A decided ultimate board, 9 characters wide: the winner's big mark, or "drawn".
_BIG: dict[Player | None, tuple[str, str, str]] = {
    Player.X: ("  \\   /  ", "    X    ", "  /   \\  "),
    Player.O: ("  .---.  ", "  | O |  ", "  '---'  "),
    None: ("         ", "  drawn  ", "         "),
}


def _t(text: str, style: str = "") -> Text:
    """`text` with `style` on its characters only: a Text built with a base style would
    pass that style on to everything appended to it."""
    out = Text()
    out.append(text, style)
    return out


def player_text(player: Player) -> Text:
    """The side's letter in its colour: ``X`` or ``O``."""
    return _t(player.value.upper(), PLAYER_STYLES[player])


def sentence(template: str, **parts: Text | str) -> Text:
    """A translated sentence whose {placeholders} are filled with styled pieces (a mark
    in its colour), wherever the language puts them."""
    line = Text()
    for i, piece in enumerate(re.split(r"\{(\w+)\}", template)):
        part = parts[piece] if i % 2 else piece
        line += part if isinstance(part, Text) else Text(part)
    return line


def render(state: State[Any], last: Any = None, width: int = 80, result: bool = True) -> Text:
    """The board of `state` and the lines under it (last move, whose turn or the result,
    hands, Forget mode). `last` is the move that led to `state`, if any; `width` is the
    space available (qubic puts fewer layers side by side in less); without `result` a
    finished game's result is left to the caller, who announces it in its own words."""
    to_move = gettext("{side} to move")
    draw = _BOARDS.get(type(state))
    # A game added to the registry without a renderer of its own yet: its diagram.
    lines = [Text(line) for line in state.diagram().splitlines()] if draw is None else draw(state, last, width)
    if isinstance(state, UltimateState):
        to_move = _ultimate_where(state)
    if last is not None:
        said = gettext("last move: {side} {move}")
        lines.append(sentence(said, side=player_text(state.turn.other), move=state.move_text(last)))
    line = _winning_text(state)
    if line is not None:
        lines.append(line)
    if state.outcome is not None:
        if result:
            lines.append(_t(gettext("game over: {outcome}", outcome=state.outcome.describe()), "bold"))
    else:
        lines.append(sentence(to_move, side=player_text(state.turn)))
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def _winning_text(state: State[Any]) -> Text | None:
    """The winner's line in words under the board, where it is also [bracketed]."""
    if isinstance(state, UltimateState) and state.winning_boards():
        boards = " ".join(str(b + 1) for b in state.winning_boards() or ())
        return Text(f"winning line of boards: {boards}")
    line = state.winning_line()
    name = _CELL_NAMES.get(type(state))
    if not line or name is None:
        return None
    return Text(f"winning line [bracketed]: {' '.join(name(state, m) for m in line)}")


def _cell(
    player: Player | None,
    empty: str,
    *,
    last: bool = False,
    vanish: bool = False,
    win: bool = False,
    empty_style: str = _EMPTY,
) -> Text:
    """A 3-character cell: `` X ``, ``(X)`` for the last move, ``[X]`` on the winning
    line (the last move there too), `` x `` for a mark about to vanish; an empty cell shows `empty` (1 character)."""
    if player is None:
        return _t(f" {empty} ", empty_style)
    # The winning line is bracketed whole, its last mark too (bold says which it was).
    left, right = ("[", "]") if win else ("(", ")") if last else (" ", " ")
    letter = player.value if vanish else player.value.upper()
    style = PLAYER_STYLES[player] + (f" {_LAST}" if last else "") + (f" {_VANISH}" if vanish else "")
    style += f" {_WIN}" if win else ""
    return _t(f"{left}{letter}{right}", style)


# -- classic and mnk -------------------------------------------------------------------


def _mnk(state: MnkState, last: Any) -> list[Text]:
    game = state.game
    vanishing = set()
    if state.ages is not None and state.outcome is None:
        vanishing = {order[0] for order in state.ages if len(order) == game.keep}
    numbered = game.cells <= 9  # the move is the cell's digit, so empty cells show it
    winning = set(state.winning_line() or ())
    lines = []
    if not numbered:
        lines.append(_t("    " + "".join(f" {chr(ord('a') + c)} " for c in range(game.m)), _GRID))
    for r in range(game.n):
        cells = []
        for c in range(game.m):
            i = r * game.m + c
            empty = str(i + 1) if numbered else "·"
            cells.append(_cell(state.cell(i), empty, last=i == last, vanish=i in vanishing, win=i in winning))
        if numbered:
            lines.append(Text(" ") + _t("│", _GRID).join(cells))
            if r < game.n - 1:
                lines.append(_t(" " + "┼".join(["───"] * game.m), _GRID))
        else:
            lines.append(_t(f"{r + 1:>3} ", _GRID) + Text("").join(cells))
    if state.ages is not None:
        lines.append(_forget_line(state.ages, game.keep, game.move_text, "", bool(vanishing)))
    return lines


def _forget_line(ages: tuple[tuple[int, ...], ...], keep: int, move_text: Any, where: str, any_vanishing: bool) -> Text:
    line = Text(f"forget mode: each player keeps {keep} marks{where}")
    if not any_vanishing:
        return line
    line += Text("; next to vanish (lower case): ")
    parts = []
    for player, order in zip(Player, ages, strict=True):
        if len(order) == keep:
            parts.append(_t(player.value, PLAYER_STYLES[player]) + Text(f" on {move_text(order[0])}"))
    return line + Text(", ").join(parts)


# -- ultimate and nine-board -----------------------------------------------------------


def _ultimate(state: UltimateState, last: Any) -> list[Text]:
    game = state.game
    playable = set(state.playable_boards())
    winning = set(state.winning_line() or ())
    won_boards = set(state.winning_boards() or ())
    vanishing: set[int] = set()
    if state.ages is not None and state.outcome is None:
        for per_board in state.ages:
            vanishing |= {order[0] for order in per_board if len(order) == game.keep}
    lines = []
    for band in range(3):
        corners = ("┌", "┬", "┐") if band == 0 else ("├", "┼", "┤")
        border = _t(corners[0], _GRID)
        for b in range(band * 3, band * 3 + 3):
            label = _t(f" {b + 1} ", _OPEN if b in playable else _GRID)
            border += _t("────", _GRID) + label + _t("────" + corners[1 if b % 3 < 2 else 2], _GRID)
        lines.append(border)
        for r in range(3):
            line = _t("│", _GRID)
            for b in range(band * 3, band * 3 + 3):
                decided = state.board_outcome(b) if game.rule == ULTIMATE else None
                if decided is not None:
                    winner = decided.winner
                    body = _t(_BIG[winner][r], PLAYER_STYLES[winner] if winner else _EMPTY)
                    if winner is not None and b in won_boards:  # the winning line: [brackets], underlined
                        big = _t(_BIG[winner][r][1:-1], f"{PLAYER_STYLES[winner]} {_WIN}")
                        body = _t("[", _WIN) + big + _t("]", _WIN)
                else:
                    cells = [b * 9 + r * 3 + c for c in range(3)]
                    empty_style = _OPEN_EMPTY if b in playable else _EMPTY
                    body = Text("").join(
                        _cell(
                            state.cell(m),
                            "·",
                            last=m == last,
                            vanish=m in vanishing,
                            win=m in winning,
                            empty_style=empty_style,
                        )
                        for m in cells
                    )
                bracket = ("[", "]") if b in playable else (" ", " ")
                line += _t(bracket[0], _OPEN) + body + _t(bracket[1], _OPEN) + _t("│", _GRID)
            lines.append(line)
    lines.append(_t("└" + "┴".join(["─" * 11] * 3) + "┘", _GRID))
    if state.ages is not None:
        lines.append(_ultimate_forget_line(state, bool(vanishing)))
    return lines


def _ultimate_where(state: UltimateState) -> str:
    """Whose move and where, with {side} for the mover."""
    if state.forced >= 0:
        # gettext fills {n} and {name}; {side} is left for `sentence`, as written.
        return gettext(
            "{side} to move in board {n} ({name})", side="{side}", n=state.forced + 1, name=BOARD_NAMES[state.forced]
        )
    return gettext("{side} to move in any [bracketed] board")


def _ultimate_forget_line(state: UltimateState, any_vanishing: bool) -> Text:
    line = Text(f"forget mode: each player keeps {state.game.keep} marks per board")
    if any_vanishing:
        line += Text("; a lower-case mark vanishes at its owner's next move in its board")
    return line


# -- qubic -----------------------------------------------------------------------------

_GAP = "  "


def _qubic(state: QubicState, last: Any, width: int) -> list[Text]:
    game = state.game
    n, d = game.n, game.d
    winning = set(state.winning_line() or ())
    plane = n * n
    planes = game.cells // plane
    if d == 2:
        labels = [""]
    elif d == 3:
        labels = [f"layer {p + 1}" for p in range(planes)]
    else:
        labels = [f"block {p // n + 1} layer {p % n + 1}" for p in range(planes)]
    column = max(3 * n, *map(len, labels))
    per_band = max(1, (width - 3 + len(_GAP)) // (column + len(_GAP)))
    lines: list[Text] = []
    for start in range(0, planes, per_band):
        group = range(start, min(start + per_band, planes))
        if lines:
            lines.append(Text(""))
        if d > 2:
            lines.append(Text("   " + _GAP.join(labels[p].ljust(column) for p in group).rstrip()))
        numbers = "".join(f" {c + 1} " for c in range(n)).ljust(column)
        lines.append(_t(("   " + _GAP.join(numbers for _ in group)).rstrip(), _GRID))
        for r in range(n):
            line = _t(f"{r + 1:>2} ", _GRID)
            for i, p in enumerate(group):
                if i:
                    line += Text(_GAP)
                cells = [p * plane + r * n + c for c in range(n)]
                row = Text("").join(_cell(state.cell(m), "·", last=m == last, win=m in winning) for m in cells)
                line += row + Text(" " * (column - 3 * n))
            line.rstrip()
            lines.append(line)
    return lines


# -- gobblet and matryoshka ------------------------------------------------------------

_FIGURE_CELL = 10


def _figure(player: Player, size: int) -> str:
    return f"{player.value.upper()}{_SIZE_LETTERS[size - 1]}"


def _gobblet(state: GobbletState, last: Any) -> list[Text]:
    target = last.cell if isinstance(last, Place) else last.dst if isinstance(last, Shift) else None
    winning = set(state.winning_line() or ())
    lines = []
    for r in range(3):
        tops, below = [], []
        for cell in range(3 * r, 3 * r + 3):
            stack = state.stack(cell)
            if not stack:
                tops.append(_t(str(cell + 1).center(_FIGURE_CELL), _EMPTY))
                below.append(Text(" " * _FIGURE_CELL))
                continue
            player, size = stack[-1]
            label = _figure(player, size)
            style = PLAYER_STYLES[player]
            # As `_cell`: the winning line is bracketed whole, its last figure too (bold says which).
            if cell == target:
                style += f" {_LAST}"
            if cell in winning:
                label, style = f"[{label}]", f"{style} {_WIN}"
            elif cell == target:
                label = f"({label})"
            text = _t(label, style)
            text.align("center", _FIGURE_CELL)
            tops.append(text)
            covered = _t("on ", _EMPTY) + Text(" ").join(
                _t(_figure(p, s), f"{PLAYER_STYLES[p]} {_VANISH}") for p, s in reversed(stack[:-1])
            )
            if len(stack) == 1:
                covered = Text("")
            covered.align("center", _FIGURE_CELL)
            below.append(covered)
        lines.append(_t("│", _GRID).join(tops))
        lines.append(_t("│", _GRID).join(below))
        if r < 2:
            lines.append(_t("┼".join(["─" * _FIGURE_CELL] * 3), _GRID))
    for player in Player:
        hand = state.hand(player)
        figures = " ".join(_SIZE_LETTERS[size - 1] for size in (3, 2, 1) for _ in range(hand[size]))
        lines.append(player_text(player) + Text(f" in hand: {figures or '-'}"))
    return lines


# -- Connect Four ------------------------------------------------------------------------


def _gravity(state: ConnectFourState, last: Any) -> list[Text]:
    game = state.game
    winning = set(state.winning_line() or ())
    landed = state.top(last) if last is not None else None
    lines = [_t(" " + "".join(f"{c + 1:^3}" for c in range(game.m)), _GRID)]
    for r in range(game.n):
        cells = [
            _cell(state.cell(i), "·", last=i == landed, win=i in winning) for i in range(r * game.m, (r + 1) * game.m)
        ]
        lines.append(_t("│", _GRID) + Text("").join(cells) + _t("│", _GRID))
    lines.append(_t("└" + "───" * game.m + "┘", _GRID))
    return lines


def _column_and_row(state: Any, cell: int) -> str:
    """A Connect Four cell by its column and its row counted from the bottom (d1)."""
    m, n = state.game.m, state.game.n
    return f"{cell % m + 1}/{n - cell // m}"


#: The renderer of each kind of position: (state, the move that led to it, width) -> lines.
_BOARDS: dict[type, Callable[[Any, Any, int], list[Text]]] = {
    MnkState: lambda state, last, width: _mnk(state, last),
    UltimateState: lambda state, last, width: _ultimate(state, last),
    QubicState: _qubic,
    GobbletState: lambda state, last, width: _gobblet(state, last),
    ConnectFourState: lambda state, last, width: _gravity(state, last),
}

#: How the line under a won board names its cells.
_CELL_NAMES: dict[type, Callable[[Any, int], str]] = {
    MnkState: lambda state, cell: state.move_text(cell),
    QubicState: lambda state, cell: state.move_text(cell),
    UltimateState: lambda state, cell: state.move_text(cell),
    GobbletState: lambda state, cell: str(cell + 1),
    ConnectFourState: _column_and_row,
}
