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

Several text records in one text (a file of games, as a PGN file holds many) follow one
another, one blank line between them, as `GameRecord.write_all` writes them: a record
starts at its first header line, and the next one at the first header line after a line
of moves or after a blank line below the headers (inside a ``{comment}`` nothing starts).
`GameRecord.read_all` reads them back one at a time.

A record is at most `MAX_RECORD_SIZE` characters: anything longer is refused unread
(`GameRecord.read` stops reading a file past it). Reading one costs memory linear in
its size, and text moves are played as they are read, so that junk fails at its first
bad move without the rest being looked at. A number in a JSON record has at most
`noughts.core.MAX_DIGITS` digits, refused before it is read. A file is UTF-8, with or
without a byte-order mark, or UTF-16 with one (as Windows editors save it); a record's
texts are characters, so a JSON escape of half a UTF-16 pair alone is refused, and a
name or a date is one line of text, without control characters.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from noughts.core import MAX_DIGITS, Game, NoughtsError, State, shown
from noughts.registry import option_text, parse_spec, spec_options

__all__ = ["MAX_RECORD_SIZE", "RESULTS", "TERMINATIONS", "GameRecord", "RecordError"]

#: The longest record read, in characters (a file's size in bytes is checked before it
#: is read). An online game ends after 2,000 plies, under 15,000 characters of moves
#: in any game's notation (a move is at most 3 characters): this leaves room for
#: longer games played elsewhere, comments and headers, and is what the API takes.
MAX_RECORD_SIZE = 100_000

#: A record's results: the game goes on, a side won, or it is drawn.
RESULTS = ("ongoing", "x-wins", "o-wins", "draw")
#: How a game ended: on the board, or by a decision of the players or the clock; or, as
#: in PGN, that it has not ended yet (a game saved or shown while it goes on).
TERMINATIONS = ("normal", "resignation", "time", "agreement", "abandoned", "unterminated")
#: A header's name and the quote that opens its value. The value is checked and
#: unescaped by `_header_value`, not by a regex repeating a group over it: the regex
#: engine kept a backtracking mark per repetition, 70 to 200 bytes of memory per byte.
_HEADER = re.compile(r'\[(\w+)\s+"')
#: In a header's value: an escape, a backslash ending it, or an unescaped quote.
_SPECIAL = re.compile(r'\\.?|"', re.DOTALL)
#: Every line break `str.splitlines` knows; lines are found one at a time, not split
#: into a list up front.
_LINE = re.compile(r"[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
#: A comment (to the end of the text when it is not closed, read once) or a token.
_TOKEN = re.compile(r"\{[^}]*\}?|[^\s{]+")
_MOVE_NUMBER = re.compile(r"\d+\.+")
_JSON_START = re.compile(r"\s*\{")
#: What a name or a date may not hold: control characters (an escape sequence that
#: recolours or moves a terminal's cursor when the record is shown, a tab, a newline)
#: and the line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NON_SPACE = re.compile(r"\S")


class RecordError(NoughtsError, ValueError):
    """A record that cannot be read or does not replay."""


@dataclass(frozen=True)
class GameRecord:
    """One game: its rules and options, the players, the result and the moves as text,
    from the initial position or a given one. Written and read as PGN-like text
    (`to_text`, `from_text`) or JSON (`to_json`, `from_json`).

    A record holds only a game that replays: it is checked when it is made (every move
    played, the headers and the result against the board; `RecordError` otherwise), its
    fields cannot be set afterwards (a frozen dataclass: `dataclasses.replace` makes a
    checked copy), and its move list, which stays a list, is checked again when it is
    written, so that a move appended in place cannot reach a file unchecked.

    >>> from noughts import parse_spec
    >>> record = GameRecord(parse_spec("classic"), ["5", "1", "9"], x="alice", o="bob")
    >>> GameRecord.from_text(record.to_text()) == record
    True
    >>> record.replay()[-1].to_text()
    'o../.x./..x o'
    >>> GameRecord(parse_spec("classic"), ["5", "5"])
    Traceback (most recent call last):
    noughts.records.RecordError: move 2 (5): cell 5 is taken
    """

    # Unhashable, as before it was frozen: the move list is a list.
    __hash__ = None  # type: ignore[assignment]

    game: Game[Any, Any]
    """The rules and options the game was played under."""
    moves: list[str] = field(default_factory=list)
    """The moves as texts in the game's notation, in order."""
    x: str = "?"
    """Who played X (a name; ``?`` when unknown)."""
    o: str = "?"
    """Who played O."""
    date: str = ""
    """When the game was played, ``YYYY-MM-DD``; empty when unknown."""
    result: str = "ongoing"
    """``ongoing``, ``x-wins``, ``o-wins`` or ``draw`` (`RESULTS`)."""
    termination: str = "normal"
    """How the game ended: ``normal`` (on the board), ``resignation``, ``time``, ``agreement``, ``abandoned``, or
    ``unterminated`` while it goes on (`TERMINATIONS`)."""
    start: str | None = None
    """Position text to start from; None for the game's initial position."""

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            raise RecordError(f"a record's game is a Game (parse_spec(...)), not {shown(self.game)}")
        if isinstance(self.moves, str) or not all(isinstance(move, str) for move in self.moves):
            raise RecordError(f"a record's moves are a list of move texts, not {shown(self.moves)}")
        for label, value in (("X's name", self.x), ("O's name", self.o), ("the date", self.date)):
            if not isinstance(value, str):
                raise RecordError(f"{label} is text, not {shown(value)}")
        # A copy: the caller's list, changed later, is not this record's.
        object.__setattr__(self, "moves", list(self.moves))
        # A game still going on has not ended normally: "normal" is only the default.
        if self.result == "ongoing" and self.termination == "normal":
            object.__setattr__(self, "termination", "unterminated")
        self.replay()

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
        state = self._start_state()
        states = [state]
        for ply, text in enumerate(self.moves, 1):
            state = _play(state, ply, text)
            states.append(state)
        self._check_end(state)
        return states

    def _start_state(self) -> State[Any]:
        for label, value in (("X's name", self.x), ("O's name", self.o), ("the date", self.date)):
            if found := _CONTROL.search(value):
                raise RecordError(
                    f"{label} holds a control character (U+{ord(found.group()):04X}): it is one line of text"
                )
        if self.result not in RESULTS:
            raise RecordError(f"result {shown(self.result)} is not one of {', '.join(RESULTS)}")
        if self.termination not in TERMINATIONS:
            raise RecordError(f"termination {shown(self.termination)} is not one of {', '.join(TERMINATIONS)}")
        return _initial(self.game, self.start)

    def _check_end(self, state: State[Any]) -> None:
        """The result and termination agree with the final `state`."""
        if state.is_over and self.result != state.status:
            raise RecordError(f"the record says {self.result} but the moves end in {state.status}")
        if self.termination == "unterminated" and self.result != "ongoing":
            raise RecordError(f"the record says {self.result} but its termination says the game goes on")
        if not state.is_over and self.result != "ongoing" and self.termination == "normal":
            raise RecordError(
                f"the record says {self.result} but the game is not over on the board; "
                "give a termination (resignation, time, agreement, abandoned)"
            )

    # -- text -------------------------------------------------------------------

    def to_text(self) -> str:
        """The PGN-like text form: headers, then the numbered moves and the result (see the module's docstring);
        `from_text` reads it back. RecordError if the moves, changed in place, no longer replay."""
        self.replay()
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
        """The record in a text form, every move replayed: RecordError (naming the move) for one that does not
        read or replay, a result the board contradicts, or a text longer than `MAX_RECORD_SIZE`."""
        _check_size(text)
        _check_characters(text)
        text = text.removeprefix(_BOM)
        headers: dict[str, str] = {}
        # Header lines are taken one at a time while the next word opens with "[";
        # the body is then read from where it starts, not copied out.
        first = _NON_SPACE.search(text)
        while first is not None and first.group() == "[":
            line_match = _LINE.match(text, first.start())
            assert line_match is not None  # "[" is not a line break
            line = line_match.group().rstrip()
            match = _HEADER.match(line)
            value = None
            if match and line.endswith('"]') and match.end() <= len(line) - 2:
                value = _header_value(line[match.end() : -2])
            if match is None or value is None:
                number = len(_LINE_BREAK.findall(text, 0, first.start())) + 1
                head = line if len(line) <= 60 else line[:60] + "..."
                raise RecordError(f'line {number}: a header looks like [Name "value"], got {head!r}')
            headers[match.group(1).lower()] = value
            first = _NON_SPACE.search(text, line_match.end())
        body_start = len(text) if first is None else first.start()
        if "game" not in headers:
            raise RecordError('the record has no [Game "..."] header')
        try:
            game = parse_spec(headers["game"] + " " + headers.get("options", ""))
        except NoughtsError as e:
            raise RecordError(str(e)) from None
        result, start = headers.get("result", "ongoing"), headers.get("position")
        termination = headers.get("termination", "normal")
        if termination not in TERMINATIONS:  # said before the moves, as a replay would
            raise RecordError(f"termination {shown(termination)} is not one of {', '.join(TERMINATIONS)}")
        # Each move is played when the next token shows it is not the last one (the
        # result): a bad move fails before the text after it is read.
        state = _initial(game, start)
        moves: list[str] = []
        last: str | None = None
        for token in _tokens(text, body_start):
            if last is not None:
                state = _play(state, len(moves) + 1, last)
                moves.append(last)
            last = token
        if last is not None and last in (*RESULTS, "*"):
            result = "ongoing" if last == "*" else last
            if "result" in headers and headers["result"] != result:
                raise RecordError(f"the Result header says {headers['result']} but the moves end with {result}")
        elif last is not None:
            state = _play(state, len(moves) + 1, last)
            moves.append(last)
        # The moves were played as they were read; the record checks the headers again.
        return cls(
            game,
            moves,
            x=headers.get("x", "?"),
            o=headers.get("o", "?"),
            date=headers.get("date", ""),
            result=result,
            termination=termination,
            start=start,
        )

    # -- JSON -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON form as a dict: ``game`` (the key), ``options``, ``players`` ``{x, o}``, ``date``,
        ``result``, ``termination``, ``start`` and ``moves``; `from_json` reads it back. RecordError as `to_text`."""
        self.replay()
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
        """`to_json` as JSON text, indented by `indent` (None: one line)."""
        return json.dumps(self.to_json(), indent=indent) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> GameRecord:
        """The record in a JSON form (a dict, or its text), every move replayed; RecordError as `from_text`."""
        if isinstance(data, str):
            _check_size(data)
            try:
                data = json.loads(data.removeprefix(_BOM), parse_int=_json_int)
            except json.JSONDecodeError as e:
                raise RecordError(f"not JSON: {e}") from None
            except RecursionError:  # "[[[[...]]]]" nested a few thousand deep
                raise RecordError("not JSON a record can hold: it nests too deeply") from None
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise RecordError('a JSON record is an object with at least "game"')
        _check_characters(data)
        options = data.get("options") or {}
        moves = data.get("moves") or []
        players = data.get("players") or {}
        if not isinstance(options, dict) or not isinstance(moves, list) or not isinstance(players, dict):
            raise RecordError('"options" and "players" are objects, "moves" a list of move texts')
        if not all(isinstance(m, str) for m in moves):
            raise RecordError('"moves" holds move texts (strings)')
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise RecordError('"start" is a position text (a string) or null')
        if not all(isinstance(v, str | int | float) for v in options.values()):  # bool is an int
            raise RecordError('"options" gives each option a string, a number, true or false')
        spec = " ".join([data["game"], *(f"{k}={option_text(v)}" for k, v in options.items())])
        return cls._build(
            spec,
            moves,
            x=_json_text(players, "x", "?", "players.x"),
            o=_json_text(players, "o", "?", "players.o"),
            date=_json_text(data, "date", "", "date"),
            result=_json_text(data, "result", "ongoing", "result"),
            termination=_json_text(data, "termination", "normal", "termination"),
            start=start,
        )

    @classmethod
    def _build(cls, spec: str, moves: list[str], **fields_: Any) -> GameRecord:
        try:
            game = parse_spec(spec)
        except NoughtsError as e:
            raise RecordError(str(e)) from None
        return cls(game, list(moves), **fields_)

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Either form, told apart by the first character (after a byte-order mark, which
        a text copied from a file may keep)."""
        text = text.removeprefix(_BOM)
        return cls.from_json(text) if _JSON_START.match(text) else cls.from_text(text)

    @classmethod
    def read(cls, source: str | os.PathLike[str] | TextIO) -> GameRecord:
        """The record (either form) in the file `source` (its path, a str or a Path) or
        read from the stream `source`. A file larger than `MAX_RECORD_SIZE` is refused
        before it is read, and no more than that is read from anything (a stream, a file
        that grows, a device).

        A file, and a stream with bytes beneath it (``sys.stdin``), is read as UTF-8,
        with or without a byte-order mark, or as UTF-16 with one; RecordError in one line
        for anything else (Latin-1, UTF-16 without its mark)."""
        if isinstance(source, str | os.PathLike):
            source = Path(source)
        if isinstance(source, Path):
            size = source.stat().st_size
            if size > _MAX_BYTES:
                raise RecordError(
                    f"{source}: the record is too long: {size:,} bytes, at most {MAX_RECORD_SIZE:,} characters"
                )
            with source.open("rb") as stream:
                text = _decode(stream.read(_MAX_BYTES + 1), f"{source}: ")
        elif hasattr(source, "buffer"):
            text = _decode(source.buffer.read(_MAX_BYTES + 1), "")
        else:
            text = source.read(MAX_RECORD_SIZE + 1)
        if len(text) > MAX_RECORD_SIZE:
            raise RecordError(f"the record is too long: more than {MAX_RECORD_SIZE:,} characters")
        return cls.parse(text)

    # -- several games ----------------------------------------------------------

    @classmethod
    def read_all(cls, source: str | os.PathLike[str] | TextIO) -> Iterator[GameRecord]:
        """Every text record in the file `source` (its path, a str or a Path) or the
        stream `source`, in order, each replayed as `from_text` does, as python-chess's
        ``read_game`` loop reads a PGN file. Records follow one another, one blank line
        between them (`write_all`; the module's docstring says where one starts).

        The records are read one at a time, each at most `MAX_RECORD_SIZE` characters:
        a file may hold any number of games. A record that does not read raises
        RecordError naming the game's number and the line it starts on (a header's
        error, the header's line in the file), when the loop reaches it: the games
        before it have been yielded, none after it is. A file is read in the encodings
        `read` takes.

        >>> import io
        >>> from noughts import parse_spec
        >>> games = [GameRecord(parse_spec("classic"), ["5", "1"]), GameRecord(parse_spec("connect4"), ["4"])]
        >>> text = io.StringIO()
        >>> GameRecord.write_all(games, text)
        >>> list(GameRecord.read_all(io.StringIO(text.getvalue()))) == games
        True
        >>> bad = text.getvalue().replace('"connect4"', '"connect5"')
        >>> list(GameRecord.read_all(io.StringIO(bad)))
        Traceback (most recent call last):
        ...
        noughts.records.RecordError: game 2 (line 9): unknown game 'connect5' (did you mean 'connect4'?); ...
        """
        if isinstance(source, str | os.PathLike):
            path = Path(source)
            with path.open("rb") as raw:
                yield from cls._read_all(_text_stream(raw, f"{path}: "), f"{path}: ")
        elif hasattr(source, "buffer"):
            yield from cls._read_all(_text_stream(source.buffer, ""), "")
        else:
            yield from cls._read_all(source, "")

    @classmethod
    def _read_all(cls, stream: TextIO, where: str) -> Iterator[GameRecord]:
        for number, (line, text) in enumerate(_record_texts(stream, where), 1):
            try:
                record = cls.from_text(text)
            except RecordError as e:
                message = str(e)
                found = re.match(r"line (\d+): ", message)
                if found:  # a header's line, counted in the file rather than the record
                    at = line + int(found.group(1)) - 1
                    message = f"line {at}: {message[found.end() :]}"
                raise RecordError(f"{where}game {number} (line {line}): {message}") from None
            yield record

    @staticmethod
    def write_all(records: Iterable[GameRecord], target: str | os.PathLike[str] | TextIO) -> None:
        """Write `records` as text (`to_text`), one blank line between them, to the file
        `target` (its path; UTF-8, replaced if it exists) or the stream `target`;
        `read_all` reads them back. Every record is written out before anything reaches
        `target`: one that no longer replays (`to_text`'s RecordError) leaves it untouched."""
        texts = "\n".join(record.to_text() for record in records)
        if isinstance(target, str | os.PathLike):
            with Path(target).open("w", encoding="utf-8", newline="\n") as stream:
                stream.write(texts)
        else:
            target.write(texts)


#: A record file's bytes are at most this: `MAX_RECORD_SIZE` characters of the widest
#: encoding read (UTF-16 with its mark: up to 4 bytes a character, as in UTF-8).
_MAX_BYTES = 4 * MAX_RECORD_SIZE + len(codecs.BOM_UTF16)
_BOM = "\ufeff"


def _decode(data: bytes, where: str) -> str:
    """A record file's bytes as text: UTF-16 when they open with its byte-order mark,
    else UTF-8 (a mark dropped); RecordError saying how to save it otherwise."""
    how = "save it as UTF-8, or UTF-16 with a byte-order mark"
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: its mark begins UTF-32's
        raise RecordError(f"{where}the record is UTF-32 text: {how}")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding, codec, body = "UTF-16", "utf-16", data  # the codec reads the mark and drops it
    else:
        encoding, codec, body = "UTF-8", "utf-8", data.removeprefix(codecs.BOM_UTF8)
        if b"\0" in body:  # no text record holds a NUL; UTF-16 without its mark is full of them
            raise RecordError(f"{where}the record holds NUL bytes (UTF-16 without a byte-order mark?): {how}")
    try:
        return body.decode(codec)
    except UnicodeDecodeError as e:
        at = e.start + len(data) - len(body)
        found = f"byte {at + 1:,} is 0x{data[at]:02x}"
        raise RecordError(f"{where}the record is not {encoding} text ({found}): {how}") from None


def _text_stream(raw: Any, where: str) -> TextIO:
    """The bytes of `raw` (a binary stream) as text in the encodings a record file may
    have (`_decode`), read as they are needed; an error in them is a RecordError."""
    start = raw.read(4)
    if start.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) or (
        b"\0" in start and not start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    ):
        _decode(start, where)  # raises, saying how to save the file
    encoding = "utf-16" if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8-sig"
    joined = io.BufferedReader(_Prefixed(start, raw))
    return io.TextIOWrapper(joined, encoding=encoding, newline=None)


class _Prefixed(io.RawIOBase):
    """`prefix` (bytes already read from `raw`), then the rest of `raw`."""

    def __init__(self, prefix: bytes, raw: Any) -> None:
        self._prefix, self._raw = prefix, raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._prefix:
            size = min(len(buffer), len(self._prefix))
            buffer[:size], self._prefix = self._prefix[:size], self._prefix[size:]
            return size
        data = self._raw.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _record_texts(stream: TextIO, where: str) -> Iterator[tuple[int, str]]:
    """The text records of `stream` one at a time, as (the line each starts on, its
    text); RecordError for a record longer than `MAX_RECORD_SIZE` or text that does not
    decode, naming the game. A record starts at a header line after a line of moves or
    after a blank line below its headers; inside an open ``{comment}`` nothing starts."""
    lines: list[str] = []
    size = 0
    start = 1
    headers = gap = body = in_comment = False
    number = 1
    at = 0
    while True:
        try:
            line = stream.readline(MAX_RECORD_SIZE + 1)
        except UnicodeDecodeError as e:
            raise RecordError(
                f"{where}game {number} (line {start}): the file is not {e.encoding.upper()} text near line {at + 1}"
            ) from None
        if not line:
            break
        at += 1
        stripped = line.strip()
        if in_comment:
            kind = "moves"
        elif not stripped:
            kind = "blank"
        elif stripped.startswith("["):
            kind = "header"
        else:
            kind = "moves"
        if kind == "header" and (body or gap):
            yield start, "".join(lines)
            lines, size, number = [], 0, number + 1
            headers = gap = body = False
        if not lines and kind == "blank":
            continue  # blank lines between records belong to neither
        if not lines:
            start = at
        if "\0" in line:
            raise RecordError(f"{where}game {number} (line {start}): line {at} holds a NUL character")
        lines.append(line)
        size += len(line)
        if size > MAX_RECORD_SIZE:
            raise RecordError(
                f"{where}game {number} (line {start}): the record is too long: more than {MAX_RECORD_SIZE:,} characters"
            )
        if kind == "header":
            headers = True
        elif kind == "blank":
            gap = gap or headers
        else:
            body = True
            opened, closed = line.rfind("{"), line.rfind("}")
            in_comment = opened > closed or (in_comment and closed < 0)
    if lines:
        yield start, "".join(lines)


def _json_text(data: dict[str, Any], key: str, default: str, where: str) -> str:
    """`data[key]`, a string; `default` when it is absent or null; else RecordError
    naming the field (`where`: "players.x")."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise RecordError(f'"{where}" is a string or null, not {shown(value)}')
    return value


def _json_int(text: str) -> int:
    """A JSON record's whole number, refused before it is read when it is too long."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number in the record has {len(text.lstrip('-')):,} digits, at most {MAX_DIGITS}")
    return int(text)


def _check_size(text: str) -> None:
    if len(text) > MAX_RECORD_SIZE:
        raise RecordError(f"the record is too long: {len(text):,} characters, at most {MAX_RECORD_SIZE:,}")


#: Half of a UTF-16 pair alone: no character. No UTF-8 or UTF-16 file holds one, but a
#: JSON escape writes it ("\ud800" in the file), and it cannot be printed or sent as
#: UTF-8: a 500 on `POST /api/record`, a traceback in `noughts record`.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_characters(data: object) -> None:
    """RecordError if a text in `data` (a str, or JSON's values: objects' keys and
    values, lists' items) holds a lone surrogate; looked for without recursion, as deep
    as the parser went."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if found := _SURROGATE.search(item):
                code = f"\\u{ord(found.group()):04x}"
                raise RecordError(f"the record holds {code}, half of a UTF-16 pair alone: not a character")
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item


def _initial(game: Game[Any, Any], start: str | None) -> State[Any]:
    try:
        state: State[Any] = game.initial() if start is None else game.parse_position(start)
    except NoughtsError as e:
        raise RecordError(f"start position: {e}") from None
    return state


def _play(state: State[Any], ply: int, text: str) -> State[Any]:
    try:
        return state.play_text(text)
    except NoughtsError as e:
        raise RecordError(f"move {ply} ({text if len(text) <= 40 else text[:40] + '...'}): {e}") from None


def _tokens(text: str, start: int) -> Iterator[str]:
    """The move text's tokens from `start` on, one at a time: comments and move numbers
    left out."""
    for match in _TOKEN.finditer(text, start):
        if text[match.start()] == "{":  # a comment, not copied out
            if match.end() - match.start() == 1 or text[match.end() - 1] != "}":
                raise RecordError("a comment opened with { is not closed with }")
            continue
        token = match.group()
        if not _MOVE_NUMBER.fullmatch(token):
            yield token


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _header_value(raw: str) -> str | None:
    """The value `raw` (between a header's quotes) unescaped, or None when a quote in it
    is not escaped or it ends in a lone backslash. Built a piece at a time in UTF-8 so
    that it costs about its own size (a list of pieces cost up to 18 times it)."""
    out = bytearray()
    start = 0
    for match in _SPECIAL.finditer(raw):
        if match.end() - match.start() != 2:
            return None
        out += raw[start : match.start()].encode("utf-8", "surrogatepass")
        out += raw[match.end() - 1].encode("utf-8", "surrogatepass")
        start = match.end()
    if start == 0:
        return raw
    out += raw[start:].encode("utf-8", "surrogatepass")
    return out.decode("utf-8", "surrogatepass")


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
