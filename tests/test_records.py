"""Game records: reading, writing, and refusing what does not replay."""

from __future__ import annotations

import pytest

from noughts import parse_spec
from noughts.records import GameRecord, RecordError

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
    ("text", "message"),
    [
        (SAMPLE.replace("1. 1 4 2. 2", "1. 1 1 2. 2"), r"move 2 \(1\): cell 1 is taken"),
        (SAMPLE.replace("x-wins\n", "o-wins\n"), "the Result header says x-wins but the moves end with o-wins"),
        (SAMPLE.replace("3. 3 x-wins", "3. 9 x-wins"), "not over on the board"),
        (SAMPLE.replace('[Game "classic"]', '[Game "chess"]'), "unknown game 'chess'"),
        (SAMPLE.replace('[Game "classic"]\n', ""), "no \\[Game"),
        (SAMPLE.replace('[X "ann"]', "[X ann]"), "a header looks like"),
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
