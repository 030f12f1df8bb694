"""Game records: reading, writing, and refusing what does not replay."""

from __future__ import annotations

import codecs
import dataclasses
import io
import re
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.cli import main
from noughts.records import MAX_RECORD_SIZE, GameRecord, RecordError

SAMPLE = """[Game "classic"]
[X "ann"]
[O "bob"]
[Date "2026-11-22"]
[Result "x-wins"]

1. 1 4 2. 2 {a blunder} 5 3. 3 x-wins
"""


def test_read_a_record() -> None:
    record = GameRecord.from_text(SAMPLE)
    assert record.moves == ["1", "4", "2", "5", "3"]
    assert (record.x, record.o, record.date, record.result) == ("ann", "bob", "2026-11-22", "x-wins")
    assert record.replay()[-1].status == "x-wins"


def test_write_then_read() -> None:
    record = GameRecord.from_text(SAMPLE)
    text = record.to_text()
    assert '[Game "classic"]' in text
    assert "1. 1 4 2. 2 5 3. 3 x-wins" in text
    assert GameRecord.from_text(text) == record
    assert GameRecord.parse(record.to_json_text()) == record


def test_read_takes_a_path_as_text_or_as_a_path(tmp_path: Path) -> None:
    (tmp_path / "game.txt").write_text(SAMPLE, encoding="utf-8")
    by_text, by_path = GameRecord.read(str(tmp_path / "game.txt")), GameRecord.read(tmp_path / "game.txt")
    assert by_text == by_path == GameRecord.from_text(SAMPLE)
    with pytest.raises(FileNotFoundError):
        GameRecord.read(str(tmp_path / "missing.txt"))


def test_options_and_start_position_are_kept() -> None:
    game = parse_spec("mnk:m=4:n=4:k=3:forget=true:keep=4")
    start = game.initial().play_text("a1").play_text("b2")
    record = GameRecord(game, ["c3"], start=start.to_text())
    text = record.to_text()
    assert '[Options "m=4 n=4 k=3 forget=true keep=4"]' in text
    assert GameRecord.from_text(text) == record
    assert record.to_json()["options"] == {"m": 4, "n": 4, "k": 3, "forget": True, "keep": 4}
    assert GameRecord.from_json(record.to_json()) == record


def test_a_game_in_progress_is_unterminated_not_normal() -> None:
    # PGN's word for a game that has not ended: saved mid-game, it must not claim an end.
    record = GameRecord(parse_spec("classic"), ["5", "1"])
    assert (record.result, record.termination) == ("ongoing", "unterminated")
    text = record.to_text()
    assert '[Result "ongoing"]' in text and '[Termination "unterminated"]' in text
    assert GameRecord.from_text(text) == record
    assert GameRecord.from_json(record.to_json()).termination == "unterminated"
    finished = text.replace('"ongoing"', '"x-wins"').replace(" ongoing", " x-wins")
    with pytest.raises(RecordError, match="says x-wins but its termination says the game goes on"):
        GameRecord.parse(finished)


def test_resignation_needs_no_finished_board() -> None:
    record = GameRecord(parse_spec("classic"), ["5"], result="x-wins", termination="resignation")
    assert GameRecord.from_text(record.to_text()) == record


@pytest.mark.parametrize(
    ("made", "message"),
    [
        (lambda: GameRecord(parse_spec("classic"), ["5", "5"]), r"move 2 \(5\): cell 5 is taken"),
        (lambda: GameRecord(parse_spec("classic"), ["5"], result="o-wins"), "says o-wins but the game is not over"),
        (lambda: GameRecord(parse_spec("classic"), ["5"], x="a\x1b[31m"), "X's name holds a control character"),
        (lambda: GameRecord(parse_spec("classic"), "51"), "moves are a list of move texts"),  # type: ignore[arg-type]
        (lambda: GameRecord(parse_spec("classic"), [5]), "moves are a list of move texts"),  # type: ignore[list-item]
        (lambda: GameRecord("classic", ["5"]), r"game is a Game \(parse_spec"),  # type: ignore[arg-type]
        (lambda: GameRecord(parse_spec("classic"), ["5"], date=None), "the date is text"),  # type: ignore[arg-type]
    ],
)
def test_a_record_that_does_not_replay_cannot_be_made(made: Callable[[], GameRecord], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        made()


def test_a_record_cannot_be_changed_into_one_that_does_not_replay() -> None:
    record = GameRecord(parse_spec("classic"), ["5", "1"])
    with pytest.raises(AttributeError):
        record.result = "x-wins"  # type: ignore[misc]
    with pytest.raises(RecordError, match="says x-wins but its termination says the game goes on"):
        dataclasses.replace(record, result="x-wins")
    given = ["5", "1"]
    copied = GameRecord(parse_spec("classic"), given)
    given.append("1")  # the caller's list is not the record's
    assert copied.to_text() == record.to_text()
    # The move list stays a list (records compare with lists of texts), so an append in
    # place is possible: writing checks it again, in either form.
    record.moves.append("5")
    with pytest.raises(RecordError, match=r"move 3 \(5\): cell 5 is taken"):
        record.to_text()
    with pytest.raises(RecordError, match=r"move 3 \(5\): cell 5 is taken"):
        record.to_json()
    target = io.StringIO()
    with pytest.raises(RecordError, match=r"move 3 \(5\)"):
        GameRecord.write_all([copied, record], target)
    assert target.getvalue() == ""  # not the first record alone


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SAMPLE.replace("1. 1 4 2. 2", "1. 1 1 2. 2"), r"move 2 \(1\): cell 1 is taken"),
        (SAMPLE.replace("x-wins\n", "o-wins\n"), "the Result header says x-wins but the moves end with o-wins"),
        (SAMPLE.replace("3. 3 x-wins", "3. 9 x-wins"), "not over on the board"),
        (SAMPLE.replace('[Game "classic"]', '[Game "chess"]'), "unknown game 'chess'"),
        (SAMPLE.replace('[Game "classic"]\n', ""), "no \\[Game"),
        (SAMPLE.replace('[X "ann"]', "[X ann]"), "a header looks like"),
        (SAMPLE.replace("\n", "\r").replace('[O "bob"]', "[O bob]"), "line 3: a header looks like"),
        (SAMPLE.replace("\n", "\r\n").replace('[O "bob"]', "[O bob]"), "line 3: a header looks like"),
        (SAMPLE.replace('[X "ann"]', '[X "a"nn"]'), "a header looks like"),
        (SAMPLE.replace('[X "ann"]', '[X "ann\\"]'), "a header looks like"),
        (
            SAMPLE.replace("[Date", '[Termination "won"]\n[Date').replace("1. 1 4", "1. 1 1"),
            "termination 'won'",
        ),
        (SAMPLE.replace("{a blunder}", "{a blunder"), "a comment opened with { is not closed"),
        (SAMPLE.replace("3. 3 x-wins", "3. 3 4 x-wins"), "move 6 \\(4\\): the game is over"),
        (
            SAMPLE.replace("3. 3 x-wins", "3. 3 draw").replace('"x-wins"', '"draw"'),
            "says draw but the moves end in x-wins",
        ),
        ('{"game": "classic", "moves": [5]}', "move texts"),
        ('{"game": ', "not JSON"),
        ('{"moves": []}', 'at least "game"'),
    ],
)
def test_bad_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.parse(text)


def _peak_memory(read: Callable[[], object]) -> int:
    """The most memory (bytes) Python allocated while `read` ran."""
    tracemalloc.start()
    try:
        read()
    except RecordError:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def _fill(head: str, filler: str, tail: str) -> str:
    """`head`, `filler` repeated, `tail`: a record just under the size limit."""
    count = (MAX_RECORD_SIZE - len(head) - len(tail)) // len(filler)
    text = head + filler * count + tail
    assert MAX_RECORD_SIZE - len(filler) < len(text) <= MAX_RECORD_SIZE
    return text


def test_a_record_over_the_size_limit_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    over = _fill('[Game "classic"]\n[X "', "a", '"]\n\n1. 5 *\n') + "\n"
    with pytest.raises(RecordError, match=f"too long: {MAX_RECORD_SIZE + 1:,} characters, at most"):
        GameRecord.parse(over)
    with pytest.raises(RecordError, match="too long"):
        GameRecord.from_json('{"game": "classic", "moves": []}' + " " * MAX_RECORD_SIZE)
    # A file is refused by its size, unread: this one (sparse) would not fit in memory.
    huge = tmp_path / "huge.rec"
    with huge.open("wb") as f:
        f.truncate(64 * 2**30)
    with pytest.raises(RecordError, match=f"huge.rec: the record is too long: {64 * 2**30:,} bytes"):
        GameRecord.read(huge)
    # A stream is read no further than the limit.
    stream = io.StringIO(over + "5 " * MAX_RECORD_SIZE)
    with pytest.raises(RecordError, match="too long: more than"):
        GameRecord.read(stream)
    assert stream.tell() == MAX_RECORD_SIZE + 1
    for command in (["record", str(huge)], ["review", str(huge)], ["replay", str(huge)]):
        assert main(command) == 2
        assert "the record is too long" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        _fill('[Game "classic"]\n[X "', "a", '"]\n\n1. 5 1 2. 9 *\n'),  # a huge header
        _fill('[Game "classic"]\n[X "', 'a\\"', '"]\n\n1. 5 *\n'),  # escapes in it
        _fill('[Game "ultimate"]\n\n1. 55 {', "a long comment ", "} 51 *\n"),
        _fill('[Game "gobblet"]\n', "\n", "1. L5 *\n"),  # blank lines
        _fill('[Game "qubic"]\n\n1. ', " ", "111 *\n"),  # blanks between moves
        _fill('{"game": "classic", "players": {"x": "', "b", '"}, "moves": ["5"]}'),
    ],
    ids=["header", "escapes", "comment", "lines", "blanks", "json"],
)
def test_reading_a_record_costs_memory_linear_in_its_size(text: str) -> None:
    record = GameRecord.parse(text)
    assert record.moves and len(record.moves) <= 3
    # A generous bound: the text a few times over (headers are copied out of it, then
    # unescaped). A header once cost 200 bytes of memory per byte of text.
    assert _peak_memory(lambda: GameRecord.parse(text)) < 4 * len(text)


def test_a_json_records_moves_cost_memory_linear_in_their_size() -> None:
    # JSON's moves are a list of strings, as the json module builds it, before the first
    # is played: about 12 bytes a byte of text.
    text = _fill('{"game": "classic", "moves": [', '"11", ', '"5"]}')
    with pytest.raises(RecordError, match="move 1 \\(11\\)"):
        GameRecord.parse(text)
    assert _peak_memory(lambda: GameRecord.parse(text)) < 16 * len(text)


@pytest.mark.parametrize(
    ("opening", "junk", "says"),
    [
        ('[Game "classic"]\n\n1. 5 1 2. ', "zz ", "move 3 \\(zz\\): 'zz' is not a move"),
        ('[Game "ultimate"]\n\n1. 55 51 2. 15 ', "15 ", "move 4 \\(15\\)"),
        ('[Game "gobblet"]\n\n1. ', "{", "a comment opened with { is not closed"),
        ('[Game "qubic"]\n\n1. 111 222 2. ', "111 ", "move 3 \\(111\\)"),
    ],
    ids=["classic", "ultimate", "gobblet", "qubic"],
)
def test_junk_move_text_fails_at_its_first_bad_move(opening: str, junk: str, says: str) -> None:
    text = _fill(opening, junk, "*\n")
    with pytest.raises(RecordError, match=says):
        GameRecord.parse(text)
    # The rest of the text is not read: far less memory than the text itself (a list
    # of its tokens took 25 times its size).
    assert _peak_memory(lambda: GameRecord.parse(text)) < len(text) // 4


BIG = "1" * 5000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"game": "classic", "moves": [], "x": ' + BIG + "}", "a number in the record has 5,000 digits, at most 30"),
        ('{"game": "mnk", "options": {"m": -' + BIG + "}}", "a number in the record has 5,000 digits"),
        ('{"game": "mnk", "options": {"m": "' + BIG + '"}}', "option m takes a whole number of at most 30 digits"),
        ('[Game "mnk"]\n[Options "m=' + BIG + '"]\n\n*', "option m takes a whole number of at most 30 digits"),
        ('{"game": "classic", "start": 5}', '"start" is a position text'),
        ('{"game": "classic", "start": [".../.../... x"]}', '"start" is a position text'),
        ('{"game": "classic", "x": ' + "[" * 90_000, "nests too deeply"),
    ],
)  # fmt: skip
def test_a_number_too_long_or_a_start_not_text_is_refused(text: str, message: str) -> None:
    """5,000 digits were int()'s ValueError (Python reads at most 4,300): a 500 on
    `POST /api/record`, a traceback in `noughts record`; a number as the start, an
    AttributeError."""
    with pytest.raises(RecordError, match=message):
        GameRecord.parse(text)


ENCODED = '[Game "classic"]\n[X "René"]\n[O "Zoë"]\n\n1. 5 1 *\n'


@pytest.mark.parametrize(
    "data",
    [
        ENCODED.encode("utf-8"),
        codecs.BOM_UTF8 + ENCODED.encode("utf-8"),
        ENCODED.encode("utf-16"),  # with its byte-order mark, as Windows editors save
        codecs.BOM_UTF16_BE + ENCODED.encode("utf-16-be"),
        codecs.BOM_UTF16_LE + ENCODED.replace("\n", "\r\n").encode("utf-16-le"),
        codecs.BOM_UTF8 + GameRecord.parse(ENCODED).to_json_text().encode("utf-8"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16", "utf-16-be", "utf-16-le-crlf", "json-utf-8-bom"],
)
def test_a_record_file_is_read_in_utf_8_or_utf_16(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    """A UTF-8 byte-order mark read as "no header"; UTF-16 was a traceback."""
    path = tmp_path / "game.txt"
    path.write_bytes(data)
    record = GameRecord.read(path)
    assert (record.x, record.o, record.moves) == ("René", "Zoë", ["5", "1"])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="ascii"))
    assert GameRecord.read(sys.stdin) == record  # its bytes, not the locale's reading of them
    assert main(["record", str(path)]) == 0
    assert '[X "René"]' in capsys.readouterr().out
    assert GameRecord.parse("\ufeff" + ENCODED) == GameRecord.parse("\ufeff" + record.to_json_text()) == record


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (ENCODED.encode("latin-1"), "the record is not UTF-8 text (byte 25 is 0xe9)"),
        (codecs.BOM_UTF8 + ENCODED.encode("latin-1"), "the record is not UTF-8 text (byte 28 is 0xe9)"),
        (ENCODED.encode("utf-16-le"), "the record holds NUL bytes (UTF-16 without a byte-order mark?)"),
        (ENCODED.encode("utf-16") + b"x", "the record is not UTF-16 text"),
        (ENCODED.encode("utf-32"), "the record is UTF-32 text"),
    ],
    ids=["latin-1", "latin-1-bom", "utf-16-no-bom", "utf-16-odd", "utf-32"],
)
def test_a_record_file_in_another_encoding_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, says: str
) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(data)
    with pytest.raises(RecordError, match=re.escape(f"{path}: {says}")):
        GameRecord.read(path)
    for command in (["record", str(path)], ["replay", str(path)], ["review", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "json_text",
    [
        r'{"game": "classic", "players": {"x": "\ud800"}, "moves": ["5"]}',
        r'{"game": "classic", "players": {"x": "ann", "o": "Zo\udc00"}}',
        r'{"game": "classic", "date": "2026-\ud83d"}',
        r'{"game": "classic", "moves": ["5", "\ud800"]}',
        r'{"game": "classic", "start": "\udfff"}',
        r'{"game": "mnk", "options": {"m\ud800": 4}}',
        r'{"game": "classic", "notes": [[{"deep": "\ud800"}]]}',
    ],
    ids=["x", "o", "date", "move", "start", "option", "elsewhere"],
)
def test_a_json_escape_of_half_a_pair_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_text: str
) -> None:
    """A JSON escape of a lone surrogate ("\\ud800") is no character, and no file holds
    one otherwise: a player's name with one printed a traceback in `noughts record`,
    `replay` and `review`, and was a 500 on `POST /api/record`."""
    with pytest.raises(RecordError, match=r"the record holds \\ud[89a-f][0-9a-f]{2}, half of a UTF-16 pair alone"):
        GameRecord.parse(json_text)
    path = tmp_path / "game.json"
    path.write_text(json_text, encoding="utf-8")
    for command in ("record", "replay", "review"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert "half of a UTF-16 pair alone: not a character" in err and err.count("\n") == 1, err


def test_a_json_escape_of_a_whole_pair_is_its_character() -> None:
    record = GameRecord.parse(r'{"game": "classic", "players": {"x": "\ud83d\ude00"}}')
    assert record.x == "\U0001f600"
    with pytest.raises(RecordError, match=r"the record holds \\ud800"):
        GameRecord.from_text('[Game "classic"]\n[X "\ud800"]\n\n*')  # from a str, not a file


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[Game "classic"]\n[X "\x1b[2J\x1b[31mann"]\n\n1. 5 *', "X's name holds a control character (U+001B)"),
        ('[Game "classic"]\n[O "bob\tsmith"]\n\n*', "O's name holds a control character (U+0009)"),
        ('[Game "classic"]\n[Date "2026\x0711"]\n\n*', "the date holds a control character (U+0007)"),
        (r'{"game": "classic", "players": {"o": "two\nlines"}}', "O's name holds a control character (U+000A)"),
        (r'{"game": "classic", "players": {"x": "a\u2028b"}}', "X's name holds a control character (U+2028)"),
        (r'{"game": "classic", "players": {"x": "\u009b31m"}}', "X's name holds a control character (U+009B)"),
    ],
    ids=["escape", "tab", "bell", "json-newline", "json-line-separator", "json-c1"],
)
def test_a_name_or_a_date_holding_a_control_character_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    """A record's names went to the terminal as they were: `noughts review` wrote an
    escape sequence in a name (clearing the screen, recolouring it) to the terminal."""
    with pytest.raises(RecordError, match=re.escape(says)):
        GameRecord.parse(text)
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    for command in ("record", "replay", "review"):
        assert main([command, str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"noughts: {says}: it is one line of text\n" and "\x1b" not in captured.out


def test_names_are_shown_as_they_are_written_not_as_markup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rich read "[red]ann[/]" as markup: the review showed "ann", in red."""
    path = tmp_path / "game.txt"
    path.write_text('[Game "classic"]\n[X "[red]ann[/]"]\n[O "[bold]bob"]\n[Date "[u]d"]\n\n1. 5 1 *\n', "utf-8")
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    assert "x ([red]ann[/]): accuracy" in out and "o ([bold]bob): accuracy" in out
    assert main(["replay", str(path)]) == 0
    assert "X: [red]ann[/] · O: [bold]bob · [u]d" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"game": "classic", "players": {"x": 5}}', '"players.x" is a string or null, not 5'),
        ('{"game": "classic", "players": {"o": ["b", "o", "b"]}}', '"players.o" is a string or null'),
        ('{"game": "classic", "date": 20261122}', '"date" is a string or null, not 20261122'),
        ('{"game": "classic", "result": false}', '"result" is a string or null, not False'),
        ('{"game": "mnk", "options": {"m": {"a": 1}}}', '"options" gives each option a string, a number'),
    ],
)
def test_a_json_field_of_the_wrong_kind_is_refused_saying_which(text: str, says: str) -> None:
    """Names, the date and the result were str() of anything: a list of letters was a
    name, and an object given as an option read "'1}' is not an option"."""
    with pytest.raises(RecordError, match=re.escape(says)):
        GameRecord.parse(text)


def test_a_null_json_field_is_as_if_it_were_absent() -> None:
    """`"x": null` was the player "None"."""
    nulls = '{"game": "classic", "players": {"x": null, "o": null}, "date": null, "result": null, "termination": null}'
    assert GameRecord.parse(nulls) == GameRecord.parse('{"game": "classic"}') == GameRecord(parse_spec("classic"))


@pytest.mark.parametrize("command", ["record", "review"])
def test_the_commands_refuse_a_number_too_long_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"game": "classic", "moves": ["5"], "date": ' + BIG + "}", encoding="utf-8")
    assert main([command, str(path)]) == 2
    assert capsys.readouterr().err == "noughts: a number in the record has 5,000 digits, at most 30\n"
