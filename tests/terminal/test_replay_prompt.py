"""What `noughts replay` reads at its prompt, in process."""

from __future__ import annotations

import io

from rich.console import Console

from noughts import GameRecord, parse_spec
from noughts.terminal.review import replay


def test_a_ply_of_too_many_digits_is_refused_and_the_replay_goes_on() -> None:
    """`5000 digits` passed isdigit() and then int(), which raised past 4,300 digits; "²"
    passed isdigit() and int() refused it."""
    record = GameRecord(parse_spec("classic"), ["5", "1", "9"])
    entries = iter(["1" * 5000, "²", "2", "q"])
    out = io.StringIO()
    assert replay(Console(file=out, width=100), record, lambda prompt: next(entries)) == 0
    shown = out.getvalue()
    assert shown.count("(moves 0-3)") == 2 and "(5,000 characters)" in shown
    board = " (O)│ 2 │ 3\n ───┼───┼───\n  4 │ X │ 6\n ───┼───┼───\n  7 │ 8 │ 9\n"
    assert shown.endswith(f"move 2 of 3\n{board}last move: O 1\nX to move\n")
