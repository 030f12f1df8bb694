"""Friendly ways to write a move at the prompt, on top of each game's own notation (which
already takes ``b2`` in classic, ``5 3`` in ultimate, ``1-1-1`` in qubic, ``5L`` in
gobblet).

>>> from noughts import parse_spec
>>> state = parse_spec("ultimate").initial().play_text("53")
>>> state.game.move_text(read_move(state, "1"))
'31'
>>> gobblet = parse_spec("gobblet").initial()
>>> gobblet.game.move_text(read_move(gobblet, "large 5"))
'L5'
"""

from __future__ import annotations

import re
from typing import Any

from noughts.core import InvalidMoveError, State
from noughts.games.gobblet import GobbletState
from noughts.games.ultimate import UltimateState

__all__ = ["read_move"]

_SIZE_WORDS = {"small": "s", "medium": "m", "large": "l", "big": "l"}
_SPACED_PLACE = re.compile(r"^([sml])\s+([1-9])$|^([1-9])\s+([sml])$")
_TO = re.compile(r"^([1-9])\s+to\s+([1-9])$")


def read_move(state: State[Any], text: str) -> Any:
    """The move `text` stands for in `state`. Raises InvalidMoveError (with the game's
    own message) when it is not a move at all; whether the move is legal here is left to
    ``state.play``."""
    game = state.game
    try:
        return game.parse_move(text)
    except InvalidMoveError:
        alias = _alias(state, text.strip().lower())
        if alias is None:
            raise
        return game.parse_move(alias)


def _alias(state: State[Any], text: str) -> str | None:
    if isinstance(state, UltimateState) and len(text) == 1 and text in "123456789" and state.forced >= 0:
        # Sent to a board, the player only chooses the cell.
        return f"{state.forced + 1}{text}"
    if isinstance(state, GobbletState):
        for word, letter in _SIZE_WORDS.items():
            text = re.sub(rf"\b{word}\b", letter, text)
        place = _SPACED_PLACE.match(text)
        if place:
            return "".join(part for part in place.groups() if part)
        shift = _TO.match(text)
        if shift:
            return f"{shift[1]}-{shift[2]}"
    return None
