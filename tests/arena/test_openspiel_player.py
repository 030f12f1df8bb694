"""OpenSpiel's MCTS bot as a player: moves translated both ways, free ultimate moves
(two OpenSpiel actions) included, whole games that replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.ai import Limits, parse_player
from noughts.core import InvalidOptionError
from noughts.match import play_game

pytest.importorskip("pyspiel", reason="open-spiel is a test dependency: pip install -e '.[dev]'")

from noughts.arena.openspiel import openspiel_player


@pytest.mark.parametrize("spec", ["classic", "mnk:m=4:n=3:k=3", "ultimate"])
def test_whole_games_both_colours(spec: str) -> None:
    game = parse_spec(spec)
    for seed in range(2):
        bot = openspiel_player("mcts:simulations=30", seed, None)
        other = parse_player(f"random:seed={seed}")
        for x, o in ((bot, other), (other, bot)):
            record = play_game(game, x, o, Limits(), [])
            assert record.replay()[-1].is_over


def test_a_free_ultimate_move_is_two_openspiel_actions() -> None:
    state = parse_spec("ultimate").initial()
    bot = openspiel_player("mcts:simulations=50", 1, None)
    move = bot.choose(state)
    assert move in state.legal_moves()
    # The bot's own game went through "Choose local board" and then the cell.
    assert len(bot.spiel.history()) == 2


def test_it_finds_the_win_in_one() -> None:
    state = parse_spec("classic").parse_position("xx./oo./... x")
    assert openspiel_player("mcts:simulations=200", 0, None).choose(state) == 2


def test_games_openspiel_does_not_have_are_refused() -> None:
    bot = openspiel_player("mcts:simulations=10", 0, None)
    with pytest.raises(InvalidOptionError, match="no game with the rules of classic:forget"):
        bot.choose(parse_spec("classic:forget").initial())
    with pytest.raises(InvalidOptionError, match="unknown OpenSpiel bot 'alphazero'"):
        openspiel_player("alphazero", 0, None)


@pytest.mark.integration
def test_in_the_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["classic", "max", "--openspiel", "mcts:time=0.05", "--games", "4", "--jobs", "2", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "arena", *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    (pairing,) = json.loads((out / "results.json").read_text())["pairings"]
    assert pairing["second"] == "openspiel-mcts:time=0.05"
    assert pairing["losses"] == 0  # perfect play never loses
    assert pairing["wins"] + pairing["draws"] == 4
