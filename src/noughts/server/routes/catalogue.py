"""What there is to play, at /api/games: the games with their options and rules, and the
computer's levels (what the home page offers); and /api/health.

The rules are the rule book (docs/RULES.md) retold for players, a paragraph each; the
options and their defaults come from the registry, with the ranges the page allows.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter

from noughts import __version__
from noughts.ai.capabilities import capabilities
from noughts.ai.levels import DEFAULT_LEVEL, LEVELS
from noughts.registry import GAMES, parse_spec
from noughts.server.models import Catalogue, GameAbilities, GameInfo, LevelInfo, OptionInfo

_FORGET = (
    'Forget mode: each player keeps at most three marks{where} (the option "marks kept per player" sets how many). '
    "Placing one more first removes that player's oldest mark (shown fading on the board). "
    "The same position for the third time is a draw."
)

RULES: dict[str, list[str]] = {
    "classic": [
        "Players take turns putting their mark, X or O, in an empty cell. X moves first.",
        "Three marks in a row, a column or a diagonal win. A full board without a line is a draw.",
        _FORGET.format(where=""),
    ],
    "mnk": [
        "The m,n,k-game: a board of m columns and n rows; k marks in a straight line (row, column or diagonal) "
        "win. Tic-tac-toe is 3,3,3; 15,15,5 is gomoku.",
        "A full board without a line is a draw.",
        _FORGET.format(where=""),
    ],
    "nine-board": [
        "Nine small boards in a 3x3 grid. The first move may go anywhere.",
        "The cell you play in sends your opponent to the board in the same position: play the top-right cell "
        "of any board, and they must play in the top-right board (outlined). If that board is full, they may "
        "play in any board with an empty cell.",
        "The first player to make three in a row in ANY small board wins. All boards full: a draw.",
        _FORGET.format(where=" in each small board"),
    ],
    "ultimate": [
        "Nine small boards in a 3x3 grid. The first move may go anywhere.",
        "The cell you play in sends your opponent to the board in the same position (outlined). A small board "
        "is won by three in a row in it and then covered by the winner's big mark; a full board without a line "
        "is drawn. Nobody plays in a decided board: a player sent to one may play in any open board.",
        "Win three small boards in a row to win the game. When no move is left, it is a draw (with "
        "tiebreak=boards, the player with more won boards wins).",
        _FORGET.format(where=" in each small board"),
    ],
    "qubic": [
        "Tic-tac-toe in a 4x4x4 cube: four layers of 4x4 cells, shown side by side and as a cube you can turn.",
        "Four in any straight line win: along a row, a column or a pillar through the layers, or any diagonal, "
        "76 lines in all. A full cube without a line is a draw. The first player can force a win.",
    ],
    "matryoshka": [
        "Each player has six nesting figures: two small, two medium and two large.",
        "On your turn, place a figure from your hand on an empty cell or over any strictly smaller figure, "
        "yours or your opponent's. Only the figure on top counts.",
        "Three of your figures on top in a row, column or diagonal win. A player who cannot place anything "
        "ends the game in a draw.",
    ],
    "gobblet": [
        "Each player has six nesting figures: two small, two medium and two large.",
        "On your turn, either place a figure from your hand, or move one of your figures on top of the board, "
        "onto an empty cell or over a strictly smaller figure, yours or your opponent's. Only tops count.",
        "Three tops of your colour in a line win. Lifting a figure may uncover a line of your opponent's: if "
        "after your move only they have a line, they win; if you both do, you lose.",
        "The same position for the third time is a draw.",
    ],
}

NOTATION = {
    "classic": "cells 1-9 in reading order: 5 is the centre",
    "mnk": "column letter and row number: a1 is the top-left cell (numbers up to 9 on small boards)",
    "nine-board": "board then cell, each 1-9: 53 is the top-right cell of the centre board",
    "ultimate": "board then cell, each 1-9: 53 is the top-right cell of the centre board",
    "qubic": "layer, row, column, each 1-4: 111 is a corner",
    "matryoshka": "size and cell: L5 puts a large figure on the centre",
    "gobblet": "size and cell (L5) to place, from-to (3-5) to move a figure",
}

#: Per option: label, help, and the range the page offers (the core checks the rest,
#: e.g. k at most max(m, n)).
_OPTIONS: dict[str, tuple[str, str, int | None, int | None, list[str] | None]] = {
    "m": ("columns (m)", "board width", 3, 15, None),
    "n": ("rows (n)", "board height", 2, 15, None),
    "k": ("in a row (k)", "marks in a line to win", 3, 15, None),
    "forget": ("Forget mode", "only each player's newest marks stay; one more removes the oldest", None, None, None),
    "keep": ("marks kept per player", "how many marks each player keeps (per small board in ultimate)", 3, 9, None),
    "tiebreak": ("tie-break", "boards: when the boards run out, more won boards wins", None, None, ["none", "boards"]),
    "d": ("dimensions (d)", "2 is flat, 3 a cube", 2, 3, None),
}

#: Options of the rules that the page does not offer: gobblet's smaller figure sets exist
#: for the exact solver's checks, not for play.
_STUDY_OPTIONS = frozenset({"sizes", "copies"})

_QUBIC_SIDE = ("side (n)", "the cube's side: n in a line wins", 2, 5, None)

LEVEL_TEXT = {
    "easy": "looks one move ahead and now and then misses something on purpose",
    "medium": "looks two moves ahead",
    "hard": "searches deeper: half a second, or three moves ahead in gobblet and on big boards",
    "max": "perfect play where the game is solved, otherwise a three-second search",
}


def _abilities(key: str) -> GameAbilities:
    found = capabilities(parse_spec(key))
    return GameAbilities(
        table=found.table,
        exact_search=found.exact_search,
        book=found.book,
        proof=found.proof,
        compiled=found.compiled,
        puzzles=found.prover is not None,
        text=found.claims(),
    )


def catalogue() -> Catalogue:
    games = []
    for key, entry in GAMES.items():
        options = []
        for name, default in entry.defaults().items():
            if name in _STUDY_OPTIONS:
                continue
            label, help_, low, high, choices = _QUBIC_SIDE if (key, name) == ("qubic", "n") else _OPTIONS[name]
            kind: Literal["bool", "int", "choice"] = (
                "bool" if isinstance(default, bool) else "choice" if choices else "int"
            )
            options.append(
                OptionInfo(
                    name=name,
                    label=label,
                    type=kind,
                    default=default,
                    minimum=low,
                    maximum=high,
                    choices=choices,
                    help=help_,
                )
            )
        games.append(
            GameInfo(
                key=key,
                title=entry.name,
                summary=entry.summary,
                options=options,
                rules=RULES[key],
                notation=NOTATION[key],
                abilities=_abilities(key),
            )
        )
    levels = [LevelInfo.model_validate({"name": level, "description": LEVEL_TEXT[level]}) for level in LEVELS]
    return Catalogue(games=games, levels=levels, default_level=DEFAULT_LEVEL)


router = APIRouter(prefix="/api", tags=["catalogue"])


@router.get("/games", response_model=Catalogue)
def games() -> Catalogue:
    """Every game with its options (defaults and ranges), its rules and notation, and the
    computer levels."""
    return catalogue()


@router.get("/health")
def health() -> dict[str, str]:
    """Answers when the server is up."""
    return {"status": "ok", "version": __version__}
