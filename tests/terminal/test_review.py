"""``noughts replay`` and ``noughts analyze`` as a person runs them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pexpect
import pytest

from noughts import parse_spec
from noughts.records import GameRecord
from terminal.driving import NOUGHTS, terminal_env

MOVES = ["1", "4", "2", "5", "3"]


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    states = [parse_spec("classic").initial()]
    for move in MOVES:
        states.append(states[-1].play_text(move))
    record = GameRecord.from_states(states, [states[0].game.parse_move(m) for m in MOVES], x="ann", o="bob")
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), encoding="utf-8")
    return path


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [NOUGHTS, *args], cwd=cwd, env=terminal_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True
    )


def test_replay_steps_through_a_game(spawn, record_file: Path) -> None:
    child = spawn("replay", str(record_file))
    child.expect_exact("classic · X: ann · O: bob · result: x-wins")
    child.expect_exact("start")
    child.expect_exact("replay> ")
    child.sendline("")
    child.expect_exact("move 1 of 5")
    child.expect_exact("last move: X 1")
    child.sendline("n")
    child.expect_exact("move 2 of 5")
    child.expect_exact("last move: O 4")
    child.sendline("p")
    child.expect_exact("move 1 of 5")
    child.sendline("p")
    child.expect_exact("start")
    child.sendline("p")
    child.expect_exact("this is the start (n: next, q: quit)")
    child.sendline("9")
    child.expect_exact("'9': Enter or n: next, p: previous, a number: that move, q: quit (moves 0-5)")
    child.sendline("5")
    child.expect_exact("move 5 of 5")
    child.expect_exact("game over: x wins")
    child.sendline("")
    child.expect_exact("that was the last move (p: back, q: quit)")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_replay_without_a_terminal_prints_every_position(record_file: Path) -> None:
    done = run("replay", str(record_file), cwd=record_file.parent)
    assert done.returncode == 0, done.stderr
    titles = [line for line in done.stdout.splitlines() if line == "start" or line.startswith("move ")]
    assert titles == ["start", *(f"move {i} of 5" for i in range(1, 6))]
    assert done.stdout.rstrip().endswith("game over: x wins")


def test_replay_refuses_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Game "classic"]\n\n1. 5 5 ongoing\n', encoding="utf-8")
    done = run("replay", str(path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == "noughts: move 2 (5): cell 5 is taken"
    missing = run("replay", str(tmp_path / "none.txt"), cwd=tmp_path)
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr


def test_analyze_prints_every_move_with_its_value(tmp_path: Path) -> None:
    done = run("analyze", "classic", "xx./oo./... x", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "best:   3 (win in 1)" in out
    assert "player: level max (perfect)" in out
    # A solved game: the table's values, said to be exact.
    rows = out.split("every move, best first (all exact, with best play):\n")[1].strip().splitlines()
    assert rows[0].split() == ["3", "win", "in", "1"]
    assert sorted(row.split()[0] for row in rows) == ["3", "6", "7", "8", "9"]  # the empty cells


@pytest.mark.parametrize("spec", ["mnk:m=2:n=4:k=2:forget", "mnk:m=4:n=3:k=3"])
def test_analyze_is_exact_from_the_first_call_on_an_empty_cache(spec: str, tmp_path: Path) -> None:
    env = {**terminal_env(), "NOUGHTS_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [NOUGHTS, "analyze", spec, "--time", "0.1"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "building the exact table" in done.stdout and "player: level max (perfect)\n" in done.stdout
    assert "every move, best first (all exact, with best play):" in done.stdout
    assert list((tmp_path / "cache").iterdir())  # built once, for the next call too


def test_analyze_says_when_estimates_stand_in_for_the_exact_player(tmp_path: Path) -> None:
    """gobblet past its opening book, before `noughts solve gobblet`: max's search answers,
    and the header says so."""
    env = {**terminal_env(), "NOUGHTS_CACHE_DIR": str(tmp_path / "cache")}
    args = [NOUGHTS, "analyze", "gobblet", "--moves", "L5", "l1", "M2", "--time", "0.3"]
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "player: level max (perfect), answered by alphabeta" in done.stdout


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_analyze_with_moves_and_a_time_budget(tmp_path: Path) -> None:
    done = run("analyze", "ultimate", "--moves", "55", "--level", "hard", "--time", "0.3", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    legend = "every move, best first (estimates: above 0 is good for the player to move):\n"
    rows = done.stdout.split(legend)[1].strip().splitlines()
    assert sorted(row.split()[0] for row in rows) == ["51", "52", "53", "54", "56", "57", "58", "59"]
    assert all("visits=" in row for row in rows)  # hard is MCTS in ultimate


def test_analyze_refuses_bad_positions(tmp_path: Path) -> None:
    done = run("analyze", "classic", "xxx/oo./... o", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("noughts: the game is over")
    done = run("analyze", "classic", "xx/oo./... x", cwd=tmp_path)
    assert done.returncode == 2
    assert "the board needs 3 rows of 3 cells" in done.stderr
