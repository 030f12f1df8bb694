"""GameRecord.read_all and write_all: several text records in one file or stream,
read back as they were written, and bad input refused naming the game and its line."""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts import GameRecord, RecordError, parse_spec
from noughts.records import MAX_RECORD_SIZE

from support import SPECS, playout


def records() -> list[GameRecord]:
    made = []
    for i, spec in enumerate(SPECS):
        steps = playout(spec, seed=i, max_plies=30)
        states = [state for state, _ in steps]
        moves = [move for _, move in steps[:-1]]
        made.append(GameRecord.from_states(states, moves, x=f'ann "{i}"', o="bob\\"))
    start = parse_spec("classic").parse_position("x../.o./... x")
    made.append(GameRecord(start.game, ["9"], start=start.to_text(), result="x-wins", termination="resignation"))
    made.append(GameRecord(parse_spec("gobblet"), []))
    return made


def test_what_write_all_writes_read_all_reads_back(tmp_path: Path) -> None:
    games = records()
    stream = io.StringIO()
    GameRecord.write_all(games, stream)
    assert list(GameRecord.read_all(io.StringIO(stream.getvalue()))) == games
    path = tmp_path / "games.txt"
    GameRecord.write_all(games, path)
    assert list(GameRecord.read_all(path)) == games
    assert list(GameRecord.read_all(str(path))) == games
    assert path.read_text(encoding="utf-8") == stream.getvalue()


def test_one_blank_line_separates_records_and_more_or_windows_line_ends_do_too() -> None:
    games = records()[:3]
    text = "\n\n\n".join(g.to_text() for g in games)
    assert list(GameRecord.read_all(io.StringIO("\n\n" + text.replace("\n", "\r\n")))) == games


def test_records_without_moves_are_told_apart_by_the_blank_line_below_their_headers() -> None:
    text = '[Game "classic"]\n\n[Game "qubic"]\n[X "ann"]\n\n[Game "connect4"]\n'
    read = list(GameRecord.read_all(io.StringIO(text)))
    assert [r.game.key for r in read] == ["classic", "qubic", "connect4"]
    assert read[1].x == "ann"


def test_a_comment_over_several_lines_stays_in_its_record() -> None:
    text = (
        '[Game "classic"]\n\n1. 5 {a comment\n[Game "qubic"] is no header here\n} 1 ongoing\n\n'
        '[Game "connect4"]\n\n4 ongoing\n'
    )
    read = list(GameRecord.read_all(io.StringIO(text)))
    assert [(r.game.key, r.moves) for r in read] == [("classic", ["5", "1"]), ("connect4", ["4"])]


def test_an_empty_text_holds_no_games() -> None:
    assert list(GameRecord.read_all(io.StringIO(""))) == []
    assert list(GameRecord.read_all(io.StringIO("\n  \n"))) == []


def test_a_bad_game_is_refused_naming_it_after_the_good_ones_before_it() -> None:
    games = records()[:3]
    text = "\n".join(g.to_text() for g in games)
    lines = text.split("\n")
    second = next(i for i, line in enumerate(lines) if line.startswith("[Game") and i > 0) + 1
    bad = text.replace(games[1].to_text(), games[1].to_text().replace("2. ", "2. 99 ", 1))
    read = GameRecord.read_all(io.StringIO(bad))
    assert next(read) == games[0]
    with pytest.raises(RecordError, match=rf"^game 2 \(line {second}\): move \d+ \(99\)"):
        next(read)


def test_a_bad_header_names_its_line_in_the_file() -> None:
    text = records()[0].to_text() + '\n[Game "classic"]\n[X ann]\n\n5 ongoing\n'
    header_line = text.split("\n").index("[X ann]") + 1
    with pytest.raises(RecordError, match=rf"^game 2 \(line \d+\): line {header_line}: a header looks like"):
        list(GameRecord.read_all(io.StringIO(text)))


def test_text_before_the_first_header_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^game 1 \(line 2\): the record has no \[Game"):
        list(GameRecord.read_all(io.StringIO("\nhello\n" + records()[0].to_text())))


def test_a_record_too_long_is_refused_but_a_long_file_is_read() -> None:
    game = GameRecord(parse_spec("classic"), ["5"])
    many = "\n".join([game.to_text()] * (MAX_RECORD_SIZE // 40))
    assert len(many) > MAX_RECORD_SIZE
    assert sum(1 for _ in GameRecord.read_all(io.StringIO(many))) == MAX_RECORD_SIZE // 40
    long = game.to_text() + "\n" + '[Game "classic"]\n\n' + "{" + "x" * MAX_RECORD_SIZE + "} ongoing\n"
    with pytest.raises(RecordError, match=r"^game 2 \(line 9\): the record is too long"):
        list(GameRecord.read_all(io.StringIO(long)))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
def test_a_file_is_read_in_utf_8_or_utf_16(tmp_path: Path, encoding: str) -> None:
    games = records()[:2]
    path = tmp_path / "games.txt"
    path.write_text("\n".join(g.to_text() for g in games), encoding=encoding)
    assert list(GameRecord.read_all(path)) == games
    with path.open(encoding="latin-1") as stream:  # read from its bytes, as sys.stdin is
        assert list(GameRecord.read_all(stream)) == games


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ('[X "caf\xe9"]\n'.encode("latin-1"), "not UTF-8 text"),
        ('[Game "classic"]\n'.encode("utf-16-le"), "NUL bytes"),
        (codecs.BOM_UTF32_LE + b"[\0\0\0", "UTF-32"),
    ],
)
def test_a_file_in_another_encoding_is_refused_in_one_line(tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "games.txt"
    path.write_bytes(data)
    with pytest.raises(RecordError, match=says):
        list(GameRecord.read_all(path))


names = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=12)


@settings(max_examples=30, deadline=None)
@given(
    games=st.lists(
        st.tuples(st.sampled_from(SPECS), st.integers(0, 2**16), st.integers(0, 12), names, names), max_size=6
    ),
    blank_lines=st.integers(1, 3),
)
def test_any_games_written_are_read_back(games: list[tuple[str, int, int, str, str]], blank_lines: int) -> None:
    written = []
    for spec, seed, plies, x, o in games:
        steps = playout(spec, seed, max_plies=plies)
        states, moves = [state for state, _ in steps], [move for _, move in steps[:-1]]
        written.append(GameRecord.from_states(states, moves, x=x, o=o))
    text = ("\n" * blank_lines).join(record.to_text() for record in written)
    assert list(GameRecord.read_all(io.StringIO(text))) == written
