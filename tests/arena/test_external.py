"""Programs speaking the engine protocol as arena players: our own `noughts engine` as a
real subprocess, and programs that crash, answer garbage or never answer."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.ai import Limits, parse_player
from noughts.arena.external import EnginePlayer
from noughts.match import ForfeitError, play_game
from noughts.records import GameRecord

OUR_ENGINE = f"{shlex.quote(sys.executable)} -m noughts.cli engine"

#: A program that speaks the protocol until genmove, then misbehaves as told.
FAKE = textwrap.dedent(
    """
    import sys, time
    for line in sys.stdin:
        if line.startswith("genmove"):
            {misbehave}
        sys.stdout.write("= \\n\\n")
        sys.stdout.flush()
    """
)
MISBEHAVIOURS = {
    "crash": 'sys.stderr.write("segfault in my head\\n"); sys.stderr.flush(); sys.exit(3)',
    "garbage": 'sys.stdout.write("= banana\\n\\n"); sys.stdout.flush(); continue',
    "illegal": 'sys.stdout.write("= 5\\n\\n"); sys.stdout.flush(); continue',
    "refuse": 'sys.stdout.write("? no idea\\n\\n"); sys.stdout.flush(); continue',
    "silent": "time.sleep(60)",
}


def _fake(tmp_path: Path, kind: str) -> str:
    script = tmp_path / f"{kind}.py"
    script.write_text(FAKE.format(misbehave=MISBEHAVIOURS[kind]))
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.mark.parametrize("spec", ["classic", "ultimate", "gobblet"])
def test_our_engine_as_a_subprocess_plays_whole_games(spec: str) -> None:
    game = parse_spec(spec)
    engine = EnginePlayer("ours", OUR_ENGINE)
    try:
        for first in (True, False):
            other = parse_player("random:seed=5")
            x, o = (engine, other) if first else (other, engine)
            opening = [game.initial().legal_moves()[0]]
            record = play_game(game, x, o, Limits(time=0.5), opening)
            states = record.replay()
            assert states[-1].is_over or record.termination == "agreement"
            # The engine followed the game: its own move list is the record's, but for
            # the last move when the opponent ended the game.
            followed = engine.ask("moves", 10).split()
            assert followed == record.moves[: len(followed)]
            assert len(record.moves) - len(followed) <= 1
    finally:
        engine.stop()


@pytest.mark.parametrize(
    ("kind", "termination", "reason"),
    [
        ("crash", "abandoned", "exited during 'genmove time=0.3' (stderr: segfault in my head)"),
        ("garbage", "abandoned", "answered genmove with 'banana'"),
        ("illegal", "abandoned", "answered genmove with '5'"),
        ("refuse", "abandoned", "refused 'genmove time=0.3': no idea"),
        ("silent", "time", "did not answer 'genmove time=0.3' within 2.3 s"),
    ],
)
def test_a_misbehaving_program_loses_with_a_reason(tmp_path: Path, kind: str, termination: str, reason: str) -> None:
    game = parse_spec("classic")
    bad = EnginePlayer(kind, _fake(tmp_path, kind))
    forfeits: list[ForfeitError] = []
    # The opening makes 5 illegal for the "illegal" program.
    record = play_game(game, parse_player("random"), bad, Limits(time=0.3), [4], ("random", kind), forfeits)
    assert (record.result, record.termination) == ("x-wins", termination)
    (forfeit,) = forfeits
    assert reason in str(forfeit)
    assert str(forfeit).startswith(kind)
    assert bad.process is None  # stopped; the next game starts it afresh
    GameRecord.parse(record.to_text()).replay()


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_engines_in_the_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["classic", "alphabeta:depth=2", "--engine", f"ours={OUR_ENGINE}", "--engine"]
    args += [f"crasher={_fake(tmp_path, 'crash')}", "--games", "4", "--jobs", "2", "--time", "0.3", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "arena", *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    pairings = {(p["first"], p["second"]): p for p in results["pairings"]}
    # The crashing program loses every game it plays, each with the reason.
    assert pairings[("ours", "crasher")]["wins"] == 4
    assert pairings[("alphabeta:depth=2", "crasher")]["wins"] == 4
    assert len(results["forfeits"]) == 8
    assert all("crasher exited during" in f["reason"] for f in results["forfeits"])
    assert "forfeit" in done.stdout
    # Our engine (a random mover by default) played real games to the end.
    ours = pairings[("alphabeta:depth=2", "ours")]
    assert ours["wins"] + ours["draws"] + ours["losses"] == 4
    assert results["players"]["ours"] == f"--engine ours={OUR_ENGINE}"
