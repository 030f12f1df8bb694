"""Programs speaking UGI as arena players, against a small UGI program written without
Noughts (ugi_engine.py): its own reading of the squares and the rules checks ours."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.ai import Limits, parse_player
from noughts.arena.ugi import UgiPlayer, fen, square_move, square_text
from noughts.core import InvalidOptionError
from noughts.match import ForfeitError, play_game
from noughts.records import GameRecord

TINY = f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).with_name('ugi_engine.py')))}"
ULTIMATE = parse_spec("ultimate")


def test_every_square_names_one_move() -> None:
    squares = {square_text(move) for move in range(81)}
    assert squares == {f"{file}{rank}" for file in "abcdefghi" for rank in range(1, 10)}
    assert all(square_move(square_text(move)) == move for move in range(81))
    # Reading order from the top-left: board 1 cell 1 is a9, board 9 cell 9 is i1.
    assert (square_text(ULTIMATE.parse_move("11")), square_text(ULTIMATE.parse_move("99"))) == ("a9", "i1")
    with pytest.raises(ValueError, match="not a square"):
        square_move("j1")


# Two openings in make test, four in make test-slow.
@pytest.mark.parametrize(
    "seed", [0, 1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
)
def test_a_ugi_program_plays_whole_games_from_varied_openings(seed: int) -> None:
    """The program checks every move it is told against its own rules (it exits on an
    illegal one) and its answers are played on our board: a whole game without a
    forfeit, as either colour, from random opening plies, means the two agree."""
    rng = random.Random(seed)
    program = UgiPlayer("tiny", TINY)
    try:
        for first in (True, False):
            other = parse_player(f"random:seed={seed}")
            x, o = (program, other) if first else (other, program)
            opening: list[int] = []
            state = ULTIMATE.initial()
            for _ in range(rng.randrange(4)):
                move = rng.choice(state.legal_moves())
                opening.append(move)
                state = state.play(move)
            forfeits: list[ForfeitError] = []
            record = play_game(ULTIMATE, x, o, Limits(time=0.2), opening, ("x", "o"), forfeits)
            assert forfeits == []
            assert record.replay()[-1].is_over
            GameRecord.parse(record.to_text()).replay()
    finally:
        program.stop()


def test_a_position_reached_elsewhere_goes_as_a_fen() -> None:
    rng = random.Random(3)
    state = ULTIMATE.initial()
    for _ in range(12):
        state = state.play(rng.choice(state.legal_moves()))
    program = UgiPlayer("tiny", TINY)
    try:
        for _ in range(3):  # the program's moves, each from a position it was told as a FEN
            move = program.choose(state, Limits(time=0.2))
            assert move in state.legal_moves()
            assert not program.moves_known
            state = state.play(move).play(rng.choice(state.play(move).legal_moves()))
            program.reset()
    finally:
        program.stop()
    assert fen(ULTIMATE.initial()) == "9/9/9/9/9/9/9/9/9 X 0 0"


@pytest.mark.parametrize(
    ("mode", "termination", "reason"),
    [("garbage", "abandoned", "answered 'bestmove z0'"), ("silent", "time", "did not answer 'go movetime 300'")],
)
def test_a_misbehaving_ugi_program_loses_with_a_reason(mode: str, termination: str, reason: str) -> None:
    program = UgiPlayer(mode, f"{TINY} {mode}")
    forfeits: list[ForfeitError] = []
    record = play_game(ULTIMATE, parse_player("random"), program, Limits(time=0.3), [40], ("random", mode), forfeits)
    assert (record.result, record.termination) == ("x-wins", termination)
    (forfeit,) = forfeits
    assert reason in str(forfeit)
    assert program.process is None


def test_ugi_is_ultimate_only() -> None:
    with pytest.raises(InvalidOptionError, match="ultimate only"):
        UgiPlayer("tiny", TINY).analyze(parse_spec("nine-board").initial())
    done = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "arena", "classic", "easy", "--ugi", f"tiny={TINY}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "a UGI program plays ultimate here, not classic" in done.stderr


@pytest.mark.slow  # the arena command starts worker processes: make test-slow
def test_a_ugi_program_in_the_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["ultimate", "easy", "--ugi", f"tiny={TINY}", "--games", "4", "--time", "0.1", "--jobs", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "arena", *args, "--opening-plies", "2", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "forfeit" not in done.stdout
    assert len(list((out / "games").iterdir())) == 4
