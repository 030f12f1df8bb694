"""Positions drawn as SVG, as python-chess's ``chess.svg`` draws a board: one function,
`board`, for every game, returning the SVG document as a string. A state's
``_repr_svg_`` calls it, so a notebook (Jupyter) shows a position as its board.

The drawing follows the web app's boards and colours (its light theme): X's red
strokes and O's blue rings on a grid, ultimate's nine boards in their dark frame with
the boards to play in outlined and the decided ones under their big mark, Qubic's
layers side by side, gobblet's figures in three sizes between the two hands. The
winning line is drawn in the win colour, the last move's cells in the last move's. A
game the drawing knows nothing of (a board kind of a game from outside Noughts) is
drawn as its plain-text `State.diagram`.

Plain string building, no dependency: every text is escaped, and the document is valid
XML with a ``<title>`` (the game, whose turn or the result) and a ``<desc>`` (the
position text) for screen readers.

>>> from noughts import parse_spec
>>> state = parse_spec("classic").initial().play_text("5")
>>> drawing = board(state, size=120, lastmove=4)
>>> drawing.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), "<title>Tic-tac-toe: o to move</title>" in drawing
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, cast
from xml.sax.saxutils import escape, quoteattr

from noughts import core
from noughts.core import InvalidOptionError, Player, State, shown
from noughts.games.connect4.rules import ConnectFourState
from noughts.games.gobblet import COPIES, GobbletState, Place, Shift
from noughts.games.mnk.rules import MnkState
from noughts.games.qubic import QubicState
from noughts.games.ultimate import ULTIMATE, UltimateState
from noughts.variant import Trait

__all__ = ["COLORS", "board"]

COLORS: Mapping[str, str] = {
    "x": "#c23a30",  # --x
    "o": "#2466b8",  # --o
    "grid": "#c9c3b6",  # --grid: the lines between cells
    "cell": "#ffffff",  # --surface
    "frame": "#3b3f46",  # --frame: ultimate's frame around the nine boards
    "lastmove": "#e9eff9",  # the cell of the last move: --accent at 10% over --surface
    "win": "#f5dfaf",  # a cell of the winning line: --win at 35% over --surface
    "win outline": "#e3a41a",  # --win: around ultimate's winning boards
    "playable": "#2762c8",  # --accent: around the boards the player to move may play in
    "playable cell": "#eef2fb",  # an empty cell there: --accent at 8% over --surface
    "text": "#5f636a",  # --muted: coordinates, labels
    "hand": "#d9d4c9",  # --line: the border of a gobblet hand
}
"""The colours by what they paint, as the web app's light theme has them
(``src/noughts/web/css/app.css``); `board` takes a mapping that changes any of them."""

_CELL = 100  # a cell's side, in the drawing's units
#: What a board kind's drawer gives: the SVG elements, the width and the height.
_Drawing = tuple[list[str], float, float]
_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"


def board(
    state: State[Any],
    *,
    size: int | None = None,
    lastmove: Hashable | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
) -> str:
    """`state` drawn as an SVG document (a string), for any game.

    `size` is the drawing's width in pixels (its height follows the board's shape;
    None: the drawing's own units, 100 a cell; InvalidOptionError unless it is more
    than 0). `lastmove`, a move of the game (as `State.legal_moves` gives them) or its
    text (InvalidMoveError if it is none), marks the cells it played: the cell of a
    mark, Connect Four's top mark of the column, a gobblet figure's cell and the one it
    left. `coordinates` writes the column letters and row numbers where the
    notation uses them (mnk boards of more than nine cells, Connect Four's columns,
    Qubic's layers). `colors` overrides some of `COLORS`.

    >>> from noughts import parse_spec
    >>> import xml.etree.ElementTree as ET
    >>> state = parse_spec("gobblet").initial().play_text("L5")
    >>> ET.fromstring(board(state)).find("{http://www.w3.org/2000/svg}title").text
    'Gobblet Gobblers: o to move'
    """
    if size is not None and (not isinstance(size, int | float) or isinstance(size, bool) or size <= 0):
        raise InvalidOptionError(f"size is a width in pixels, more than 0, not {shown(size)}")
    if isinstance(lastmove, str):
        lastmove = state.game.parse_move(lastmove)
    palette = {**COLORS, **(colors or {})}
    drawer = _DRAWERS.get(state.game.variant.board, _text)
    body, width, height = drawer(state, lastmove, coordinates, palette)
    scale = (size / width) if size else 1.0
    title = f"{state.game.variant.name}: {_status(state)}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" role="img" viewBox="0 0 {_n(width)} {_n(height)}"'
        f' width="{_n(width * scale)}" height="{_n(height * scale)}">'
        f"<title>{escape(title)}</title><desc>{escape(state.game.spec)} {escape(state.to_text())}</desc>"
        f"{''.join(body)}</svg>"
    )


def _status(state: State[Any]) -> str:
    return f"{state.turn} to move" if state.outcome is None else state.outcome.describe()


def _n(value: float) -> str:
    """A number as SVG writes it: no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _rect(x: float, y: float, w: float, h: float, fill: str, rx: float = 0, extra: str = "") -> str:
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(rx)}" fill={quoteattr(fill)}{extra}/>'
    )


def _label(x: float, y: float, text: str, palette: Mapping[str, str], font: float = 18, anchor: str = "middle") -> str:
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-family="{_FONT}" font-size="{_n(font)}" fill={quoteattr(palette["text"])}'
        f' text-anchor="{anchor}" dominant-baseline="central">{escape(text)}</text>'
    )


def _mark(player: Player, cx: float, cy: float, side: float, palette: Mapping[str, str], width: float = 11) -> str:
    """An X (two strokes) or an O (a ring) as the site's `markSvg` draws it in a box of
    `side` centred on (cx, cy); `width` is the stroke in a box of 100."""
    unit = side / 100
    stroke = f'stroke={quoteattr(palette[player.value])} stroke-width="{_n(width * unit)}" stroke-linecap="round"'
    if player is Player.X:
        a, b = 28 * unit, 28 * unit  # 22..78 of the box, from its centre
        return (
            f'<g class="mark-x" fill="none" {stroke}>'
            f'<line x1="{_n(cx - a)}" y1="{_n(cy - b)}" x2="{_n(cx + a)}" y2="{_n(cy + b)}"/>'
            f'<line x1="{_n(cx + a)}" y1="{_n(cy - b)}" x2="{_n(cx - a)}" y2="{_n(cy + b)}"/></g>'
        )
    return f'<circle class="mark-o" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(29 * unit)}" fill="none" {stroke}/>'


def _cells(
    x0: float,
    y0: float,
    columns: int,
    rows: int,
    gap: float,
    content: Callable[[int], tuple[str, str]],
    palette: Mapping[str, str],
    radius: float = 6,
    cell: float = _CELL,
) -> list[str]:
    """A grid of cells from (x0, y0), `gap` apart on the grid's colour: `content(i)`
    gives cell i's fill and what is drawn on it (centred, in a box of `cell`)."""
    pad = gap
    width, height = columns * cell + (columns + 1) * gap, rows * cell + (rows + 1) * gap
    out = [_rect(x0, y0, width, height, palette["grid"], radius + pad)]
    for i in range(columns * rows):
        r, c = divmod(i, columns)
        x, y = x0 + pad + c * (cell + gap), y0 + pad + r * (cell + gap)
        fill, drawn = content(i)
        out.append(_rect(x, y, cell, cell, fill, radius))
        if drawn:
            out.append(drawn.format(cx=_n(x + cell / 2), cy=_n(y + cell / 2)))
    return out


def _grid_size(columns: int, rows: int, gap: float, cell: float = _CELL) -> tuple[float, float]:
    return columns * cell + (columns + 1) * gap, rows * cell + (rows + 1) * gap


def _placeholder(drawn: str) -> str:
    """`drawn` (centred on the origin) in a group that `_cells` moves to its cell's
    centre, filling in {cx} and {cy}."""
    return '<g transform="translate({cx} {cy})">' + drawn.replace("{", "{{").replace("}", "}}") + "</g>"


# -- grid: classic, mnk, connect4 ---------------------------------------------------


def _grid(state: State[Any], lastmove: Hashable | None, coordinates: bool, palette: Mapping[str, str]) -> _Drawing:
    if not isinstance(state, MnkState | ConnectFourState):  # a game from elsewhere on a "grid"
        return _text(state, lastmove, coordinates, palette)
    game = state.game
    m, n = game.m, game.n
    # A gravity game's moves are columns: it is labelled by column alone, and its last
    # move is the column's top mark.
    columns = Trait.GRAVITY in game.traits
    gap = 4 if max(m, n) <= 9 else 2
    win = set(state.winning_line() or ())
    last: set[int] = set()
    if isinstance(lastmove, int) and not isinstance(lastmove, bool):
        if columns:
            if 0 <= lastmove < m and (top := cast(ConnectFourState, state).top(lastmove)) is not None:
                last = {top}
        else:
            last = {lastmove}
    width = 14 if max(m, n) > 9 else 11

    def content(i: int) -> tuple[str, str]:
        fill = palette["win"] if i in win else palette["lastmove"] if i in last else palette["cell"]
        player = state.cell(i)
        drawn = "" if player is None else _placeholder(_mark(player, 0, 0, _CELL * 0.78, palette, width))
        return fill, drawn

    letters = coordinates and (columns or game.cells > 9)
    margin = 44 if letters else 0
    out: list[str] = []
    if letters:
        for c in range(m):
            text = str(c + 1) if columns else chr(ord("a") + c)
            out.append(_label(margin + gap + c * (_CELL + gap) + _CELL / 2, margin / 2, text, palette, 30))
        if not columns:
            for r in range(n):
                out.append(_label(margin / 2, margin + gap + r * (_CELL + gap) + _CELL / 2, str(r + 1), palette, 30))
    left = margin if letters and not columns else 0
    out += _cells(left, margin, m, n, gap, content, palette)
    width_, height = _grid_size(m, n, gap)
    return out, left + width_, margin + height


# -- ultimate, nine-board -----------------------------------------------------------


def _ultimate(state: State[Any], lastmove: Hashable | None, coordinates: bool, palette: Mapping[str, str]) -> _Drawing:
    if not isinstance(state, UltimateState):
        return _text(state, lastmove, coordinates, palette)
    ultimate = state.game.rule == ULTIMATE
    frame_gap, gap = 8, 2
    local_w, _ = _grid_size(3, 3, gap)
    total = 3 * local_w + 4 * frame_gap
    playable = set(state.playable_boards())
    win_cells = set(state.winning_line() or ())
    win_boards = set(state.winning_boards() or ())
    out = [_rect(0, 0, total, total, palette["frame"], 12)]
    for b in range(9):
        br, bc = divmod(b, 3)
        x0, y0 = frame_gap + bc * (local_w + frame_gap), frame_gap + br * (local_w + frame_gap)
        decided = state.board_outcome(b) if ultimate else None

        def content(i: int, b: int = b, decided: Any = decided) -> tuple[str, str]:
            move = b * 9 + i
            player = state.cell(move)
            if move in win_cells:
                fill = palette["win"]
            elif move == lastmove:
                fill = palette["lastmove"]
            elif b in playable and player is None:
                fill = palette["playable cell"]
            else:
                fill = palette["cell"]
            drawn = "" if player is None else _placeholder(_mark(player, 0, 0, _CELL * 0.78, palette))
            if decided is not None and move != lastmove:
                drawn = f'<g opacity="0.55">{drawn}</g>' if drawn else ""
            return fill, drawn

        out += _cells(x0, y0, 3, 3, gap, content, palette, radius=3)
        outline = palette["win outline"] if b in win_boards else palette["playable"] if b in playable else None
        if outline is not None:
            out.append(
                f'<rect x="{_n(x0 - 2.5)}" y="{_n(y0 - 2.5)}" width="{_n(local_w + 5)}" height="{_n(local_w + 5)}"'
                f' rx="9" fill="none" stroke={quoteattr(outline)} stroke-width="5"/>'
            )
        if decided is not None:
            cx, cy = x0 + local_w / 2, y0 + local_w / 2
            out.append(_rect(x0, y0, local_w, local_w, palette["cell"], 8, ' fill-opacity="0.4"'))
            if decided.winner is None:
                out.append(_label(cx, cy, "DRAW", palette, 44))
            else:
                out.append(_mark(decided.winner, cx, cy, local_w * 0.92, palette, 10))
    return out, total, total


# -- qubic: the layers side by side -------------------------------------------------


def _qubic(state: State[Any], lastmove: Hashable | None, coordinates: bool, palette: Mapping[str, str]) -> _Drawing:
    if not isinstance(state, QubicState):
        return _text(state, lastmove, coordinates, palette)
    n, d = state.game.n, state.game.d
    gap = 3
    layer_w, layer_h = _grid_size(n, n, gap)
    # 2-D: one board; 3-D: its n layers in a row; 4-D: its n blocks, one row each.
    layers_across = 1 if d == 2 else n
    bands = 1 if d <= 3 else n
    space = 24
    label = 40 if coordinates and d > 2 else 0
    win = set(state.winning_line() or ())
    width = layers_across * layer_w + (layers_across - 1) * space
    height = bands * (label + layer_h) + (bands - 1) * space
    out: list[str] = []
    for band in range(bands):
        for layer in range(layers_across):
            x0 = layer * (layer_w + space)
            y0 = band * (label + layer_h + space)
            first = (band * layers_across + layer) * n * n
            if label:
                name = f"layer {layer + 1}" if d == 3 else f"block {band + 1}, layer {layer + 1}"
                out.append(_label(x0 + layer_w / 2, y0 + label / 2, name, palette, 26))

            def content(i: int, first: int = first) -> tuple[str, str]:
                cell = first + i
                fill = palette["win"] if cell in win else palette["lastmove"] if cell == lastmove else palette["cell"]
                player = state.cell(cell)
                drawn = "" if player is None else _placeholder(_mark(player, 0, 0, _CELL * 0.8, palette))
                return fill, drawn

            out += _cells(x0, y0 + label, n, n, gap, content, palette, radius=3)
    return out, width, height


# -- gobblet, matryoshka: figures of three sizes between the hands ------------------

_FIGURE = {1: 0.34, 2: 0.55, 3: 0.78}  # a figure's width in its cell (`.figure.size-N`)
_HAND_FIGURE = 64  # a large figure's width in a hand (`.hand-slot .figure.size-3`)


def _figure(player: Player, size: int, cx: float, cy: float, width: float, palette: Mapping[str, str]) -> str:
    """A figure as the site draws one: a round body of its player's colour with a
    darker base, two eyes."""
    r = width / 2
    eye = max(1.5, r * 0.13)
    return (
        f'<g class="figure figure-{player.value}-{size}">'
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill={quoteattr(palette[player.value])}/>'
        f'<path d="M{_n(cx - r * 0.87)} {_n(cy + r * 0.5)}'  # the darker base: the circle's lowest third
        f'A{_n(r)} {_n(r)} 0 0 0 {_n(cx + r * 0.87)} {_n(cy + r * 0.5)}Z"'
        ' fill="#000" fill-opacity="0.18"/>'
        f'<circle cx="{_n(cx - r * 0.4)}" cy="{_n(cy - r * 0.15)}" r="{_n(eye)}" fill="#fff"/>'
        f'<circle cx="{_n(cx + r * 0.4)}" cy="{_n(cy - r * 0.15)}" r="{_n(eye)}" fill="#fff"/></g>'
    )


def _gobblet(state: State[Any], lastmove: Hashable | None, coordinates: bool, palette: Mapping[str, str]) -> _Drawing:
    if not isinstance(state, GobbletState):
        return _text(state, lastmove, coordinates, palette)
    gap = 6
    grid_w, grid_h = _grid_size(3, 3, gap)
    hand_w, space = 110, 16
    win = set(state.winning_line() or ())
    last: set[int] = set()
    if isinstance(lastmove, Place):
        last = {lastmove.cell}
    elif isinstance(lastmove, Shift):
        last = {lastmove.src, lastmove.dst}

    def content(i: int) -> tuple[str, str]:
        fill = palette["win"] if i in win else palette["lastmove"] if i in last else palette["cell"]
        stack = state.stack(i)
        if not stack:
            return fill, ""
        player, size = stack[-1]
        drawn = _figure(player, size, 0, 0, _CELL * _FIGURE[size], palette)
        for k, (below, below_size) in enumerate(stack[:-1]):  # covered figures: small chips in a corner
            chip = 5 + 2 * below_size
            drawn += (
                f'<circle cx="{_n(-_CELL * 0.38 + k * 16)}" cy="{_n(_CELL * 0.38)}" r="{_n(chip)}"'
                f' fill={quoteattr(palette[below.value])} stroke={quoteattr(palette["cell"])} stroke-width="1.5"/>'
            )
        return fill, _placeholder(drawn)

    # A hand holds at most `COPIES` figures of each size, drawn large to small.
    hand_h = 34 + sum(COPIES * (_HAND_FIGURE * _FIGURE[size] / _FIGURE[3] + 6) for size in _FIGURE) + 8
    height = max(grid_h, hand_h)
    out: list[str] = []
    for side, player in enumerate((Player.X, Player.O)):
        x0 = 0 if side == 0 else hand_w + grid_w + 2 * space
        border = palette["playable"] if state.outcome is None and state.turn is player else palette["hand"]
        out.append(_rect(x0, 0, hand_w, height, palette["cell"], 12, f' stroke={quoteattr(border)} stroke-width="2"'))
        out.append(_label(x0 + hand_w / 2, 16, f"{player.value.upper()} in hand", palette, 14))
        y = 34.0
        counts = state.hand(player)
        for size in (3, 2, 1):
            for _ in range(counts[size]):
                width = _HAND_FIGURE * _FIGURE[size] / _FIGURE[3]
                out.append(_figure(player, size, x0 + hand_w / 2, y + width / 2, width, palette))
                y += width + 6
    out += _cells(hand_w + space, (height - grid_h) / 2, 3, 3, gap, content, palette, radius=8)
    return out, 2 * hand_w + grid_w + 2 * space, height


# -- anything else: the text diagram ------------------------------------------------


def _text(state: State[Any], lastmove: Hashable | None, coordinates: bool, palette: Mapping[str, str]) -> _Drawing:
    lines = state.diagram().split("\n")
    line_h, char_w = 24, 12
    width = 16 + char_w * max((len(line) for line in lines), default=1)
    height = 16 + line_h * len(lines)
    out = [_rect(0, 0, width, height, palette["cell"], 8, f" stroke={quoteattr(palette['grid'])}")]
    for i, line in enumerate(lines):
        out.append(
            f'<text x="8" y="{8 + line_h * (i + 0.75)}" font-family="ui-monospace, monospace" font-size="20"'
            f' xml:space="preserve" fill="#1f2328">{escape(line)}</text>'
        )
    return out, width, height


_DRAWERS: dict[str, Callable[[State[Any], Hashable | None, bool, Mapping[str, str]], _Drawing]] = {
    "grid": _grid,
    "ultimate": _ultimate,
    "qubic": _qubic,
    "gobblet": _gobblet,
}

core._DRAWINGS["svg"] = board
