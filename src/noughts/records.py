"""Game records: a game, its options (the rule variant), the players, the result and the
move list — as PGN-like text or as JSON. Importing replays and validates every move.

Text form::

    [Game "ultimate"]
    [Options "forget=true"]
    [X "alice"]
    [O "bob"]
    [Date "2026-11-22"]
    [Result "x-wins"]
    [Termination "normal"]

    1. 55 51 2. 15 53 ... x-wins

``Options`` is omitted when the game has its defaults; ``Position`` (a position text)
is present when the game did not start from the initial position. Move numbers and
``{comments}`` are ignored on import; the last token is the result.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from noughts.core import Game, NoughtsError, State
from noughts.registry import option_text, parse_spec, spec_options

__all__ = ["RESULTS", "TERMINATIONS", "GameRecord", "RecordError"]

RESULTS = ("ongoing", "x-wins", "o-wins", "draw")
#: How a game ended: on the board, or by a decision of the players or the clock; or, as
#: in PGN, that it has not ended yet (a game saved or shown while it goes on).
TERMINATIONS = ("normal", "resignation", "time", "agreement", "abandoned", "unterminated")
_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')


class RecordError(NoughtsError, ValueError):
    """A record that cannot be read or does not replay."""


@dataclass
class GameRecord:
    game: Game[Any, Any]
    moves: list[str] = field(default_factory=list)
    x: str = "?"
    o: str = "?"
    date: str = ""
    result: str = "ongoing"
    termination: str = "normal"
    #: Position text to start from; None for the game's initial position.
    start: str | None = None

    def __post_init__(self) -> None:
        # A game still going on has not ended normally: "normal" is only the default.
        if self.result == "ongoing" and self.termination == "normal":
            self.termination = "unterminated"

    # -- building ---------------------------------------------------------------

    @classmethod
    def from_states(cls, states: list[State[Any]], moves: list[Any], **headers: Any) -> GameRecord:
        """A record for a game played from states[0] with `moves`; the result is the
        final state's unless given."""
        first = states[0]
        game = first.game
        start = None if first == game.initial() else first.to_text()
        headers.setdefault("result", states[-1].status)
        return cls(game, [game.move_text(m) for m in moves], start=start, **headers)

    def replay(self) -> list[State[Any]]:
        """Every state from the start to the end, each move validated.

        Raises RecordError naming the move that fails, or when the result contradicts
        the board."""
        if self.result not in RESULTS:
            raise RecordError(f"result {self.result!r} is not one of {', '.join(RESULTS)}")
        if self.termination not in TERMINATIONS:
            raise RecordError(f"termination {self.termination!r} is not one of {', '.join(TERMINATIONS)}")
        try:
            state = self.game.initial() if self.start is None else self.game.parse_position(self.start)
        except NoughtsError as e:
            raise RecordError(f"start position: {e}") from None
        states = [state]
        for ply, text in enumerate(self.moves, 1):
            try:
                state = state.play_text(text)
            except NoughtsError as e:
                raise RecordError(f"move {ply} ({text}): {e}") from None
            states.append(state)
        if state.is_over and self.result != state.status:
            raise RecordError(f"the record says {self.result} but the moves end in {state.status}")
        if self.termination == "unterminated" and self.result != "ongoing":
            raise RecordError(f"the record says {self.result} but its termination says the game goes on")
        if not state.is_over and self.result != "ongoing" and self.termination == "normal":
            raise RecordError(
                f"the record says {self.result} but the game is not over on the board; "
                "give a termination (resignation, time, agreement, abandoned)"
            )
        return states

    # -- text -------------------------------------------------------------------

    def to_text(self) -> str:
        game = self.game
        spec = game.spec
        key, _, options = spec.partition(":")
        headers = [("Game", key)]
        if options:
            headers.append(("Options", options.replace(":", " ")))
        headers += [("X", self.x), ("O", self.o)]
        if self.date:
            headers.append(("Date", self.date))
        headers += [("Result", self.result), ("Termination", self.termination)]
        if self.start is not None:
            headers.append(("Position", self.start))
        lines = [f'[{name} "{_escape(value)}"]' for name, value in headers]
        tokens = []
        for i, move in enumerate(self.moves):
            if i % 2 == 0:
                tokens.append(f"{i // 2 + 1}.")
            tokens.append(move)
        tokens.append(self.result)
        return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        headers: dict[str, str] = {}
        body: list[str] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line.startswith("[") and not body:
                match = _HEADER.match(line)
                if not match:
                    raise RecordError(f'line {number}: a header looks like [Name "value"], got {line!r}')
                headers[match.group(1).lower()] = _unescape(match.group(2))
            elif line:
                body.append(line)
        if "game" not in headers:
            raise RecordError('the record has no [Game "..."] header')
        moves_text = re.sub(r"\{[^}]*\}", " ", " ".join(body))
        tokens = [t for t in moves_text.split() if not re.fullmatch(r"\d+\.+", t)]
        result = headers.get("result", "ongoing")
        if tokens and tokens[-1] in (*RESULTS, "*"):
            tail = tokens.pop()
            result = "ongoing" if tail == "*" else tail
            if "result" in headers and headers["result"] != result:
                raise RecordError(f"the Result header says {headers['result']} but the moves end with {result}")
        return cls._build(
            headers["game"] + " " + headers.get("options", ""),
            tokens,
            x=headers.get("x", "?"),
            o=headers.get("o", "?"),
            date=headers.get("date", ""),
            result=result,
            termination=headers.get("termination", "normal"),
            start=headers.get("position"),
        )

    # -- JSON -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.key,
            "options": spec_options(self.game),
            "players": {"x": self.x, "o": self.o},
            "date": self.date,
            "result": self.result,
            "termination": self.termination,
            "start": self.start,
            "moves": list(self.moves),
        }

    def to_json_text(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_json(), indent=indent) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> GameRecord:
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise RecordError(f"not JSON: {e}") from None
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise RecordError('a JSON record is an object with at least "game"')
        options = data.get("options") or {}
        moves = data.get("moves") or []
        players = data.get("players") or {}
        if not isinstance(options, dict) or not isinstance(moves, list) or not isinstance(players, dict):
            raise RecordError('"options" and "players" are objects, "moves" a list of move texts')
        if not all(isinstance(m, str) for m in moves):
            raise RecordError('"moves" holds move texts (strings)')
        spec = " ".join([data["game"], *(f"{k}={option_text(v)}" for k, v in options.items())])
        return cls._build(
            spec,
            moves,
            x=str(players.get("x", "?")),
            o=str(players.get("o", "?")),
            date=str(data.get("date") or ""),
            result=str(data.get("result", "ongoing")),
            termination=str(data.get("termination", "normal")),
            start=data.get("start"),
        )

    @classmethod
    def _build(cls, spec: str, moves: list[str], **fields_: Any) -> GameRecord:
        try:
            game = parse_spec(spec)
        except NoughtsError as e:
            raise RecordError(str(e)) from None
        record = cls(game, list(moves), **fields_)
        record.replay()
        return record

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Either form, told apart by the first character."""
        return cls.from_json(text) if text.lstrip().startswith("{") else cls.from_text(text)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)
