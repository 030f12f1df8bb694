"""`noughts arena` as a user runs it: a real process, real worker processes, real files."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from noughts.records import GameRecord

NOUGHTS = [sys.executable, "-m", "noughts.cli"]


def _arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*NOUGHTS, "arena", *args], capture_output=True, text=True, timeout=timeout)


def _records(out: Path) -> list[GameRecord]:
    return [GameRecord.parse(p.read_text(encoding="utf-8")) for p in sorted((out / "games").glob("*.txt"))]


def test_a_small_round_robin_writes_results_records_and_chart(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = _arena(
        "classic", "random", "alphabeta:depth=2", "--games", "6", "--jobs", "2", "--seed", "3", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    assert "random vs alphabeta:depth=2" in done.stdout
    results = json.loads((out / "results.json").read_text())
    assert results["finished"] == results["scheduled"] == 6
    assert not results["interrupted"]
    (pairing,) = results["pairings"]
    assert (pairing["first"], pairing["second"]) == ("random", "alphabeta:depth=2")
    # Every game is a record that replays; the table counts exactly what they say.
    records = _records(out)
    assert len(records) == 6
    wins = {"random": 0, "alphabeta:depth=2": 0}
    for record in records:
        record.replay()
        if record.result != "draw":
            wins[record.x if record.result == "x-wins" else record.o] += 1
    assert (pairing["wins"], pairing["losses"]) == (wins["random"], wins["alphabeta:depth=2"])
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == 6
    # Colours alternate: each player is X in half the games.
    assert sorted(r.x for r in records).count("random") == 3
    ratings = {r["player"]: r for r in results["ratings"]}
    assert ratings["alphabeta:depth=2"]["elo"] > ratings["random"]["elo"]
    assert ratings["random"]["low"] < ratings["random"]["elo"] < ratings["random"]["high"]
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (out / "ratings.svg").read_text()


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_the_same_seed_plays_the_same_games(tmp_path: Path) -> None:
    for name in ("a", "b"):
        done = _arena("classic", "random", "easy", "--games", "4", "--jobs", "2", "--out", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
    assert [r.moves for r in _records(tmp_path / "a")] == [r.moves for r in _records(tmp_path / "b")]


def test_bad_players_are_refused_before_any_game(tmp_path: Path) -> None:
    for args, message in [
        (["classic", "random"], "at least two players"),
        (["classic", "random", "nonsense"], "unknown player 'nonsense'"),
        (["classic", "random", "random"], "comes twice"),
        (["classic", "random", "alphabeta:depth"], "not a player option"),
        (["classic", "random", "--engine", "nameonly"], "NAME=COMMAND"),
    ]:
        done = _arena(*args, "--out", str(tmp_path / "never"))
        assert done.returncode == 2, args
        assert message in done.stderr
    assert not (tmp_path / "never").exists()


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_ctrl_c_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["classic", "alphabeta:time=0.2", "mcts:time=0.2", "--games", "40", "--jobs", "2", "--out", str(out)]
    process = subprocess.Popen([*NOUGHTS, "arena", *args], stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stderr is not None
    seen = 0
    for line in process.stderr:
        seen += line.startswith("game ")
        if seen == 2:
            break
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted: keeping the" in stderr
    results = json.loads((out / "results.json").read_text())
    assert results["interrupted"]
    assert 2 <= results["finished"] < results["scheduled"] == 40
    assert len(_records(out)) == results["finished"]
    assert sum(p["wins"] + p["draws"] + p["losses"] for p in results["pairings"]) == results["finished"]
    assert "(interrupted)" in stdout
