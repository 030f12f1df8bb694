"""OpenSpiel's bots as players: moves translated both ways, free ultimate moves (two
OpenSpiel actions) included, whole games that replay, for each kind of bot (random,
MCTS, CFR's policy, a policy or a bot from a factory of one's own), and clear errors for
a bad spec."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.ai import Limits, parse_player
from noughts.core import InvalidOptionError
from noughts.match import play_game
from noughts.registry import GAMES

pytest.importorskip("pyspiel", reason="open-spiel comes with noughts[openspiel] (make's set-up installs it)")

from noughts.arena.openspiel import openspiel_player
from openspiel_bots import FirstLegal

from support import crossed

#: One of each kind of bot, as the arena's --openspiel takes them (factories: tests/openspiel_bots.py).
KINDS = [
    "random",
    "mcts:simulations=20",
    "policy:openspiel_bots:uniform",
    "bot:openspiel_bots:first_legal",
    "bot:openspiel_bots:first_legal:offset=2",
    pytest.param("cfr:iterations=2", marks=pytest.mark.slow),  # solves classic first: seconds
]


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


def test_games_openspiel_lacks_are_played_on_ours() -> None:
    # Forget mode is not OpenSpiel's tic_tac_toe: the bot plays noughts.spiel's game.
    bot = openspiel_player("mcts:simulations=10", 0, None)
    state = parse_spec("classic:forget").initial()
    assert bot.choose(state) in state.legal_moves()
    assert bot.spiel.get_game().get_type().short_name == "noughts_classic"
    assert bot.spiel.get_game().get_parameters()["forget"] is True


#: The games OpenSpiel does not have, and Forget mode: one of each on noughts.spiel's games.
OURS = [key for key in GAMES if key not in ("classic", "mnk", "ultimate")] + ["mnk:m=4:n=4:k=3:forget"]


KINDS = ["random", "mcts:simulations=10", "policy:openspiel_bots:uniform", "bot:openspiel_bots:first_legal"]


# make test: each game with one kind of bot, each kind in turn; every pair in make test-slow.
@pytest.mark.parametrize(("spec", "kind"), crossed(OURS, KINDS, keep=1))
def test_each_kind_plays_whole_games_of_every_game(kind: str, spec: str) -> None:
    game = parse_spec(spec)
    bot = openspiel_player(kind, 1, None)
    other = parse_player("random:seed=1")
    for x, o in ((bot, other), (other, bot)):
        record = play_game(game, x, o, Limits(), [])
        states = record.replay()  # every move played again through the rules: each was legal
        assert states[-1].is_over


@pytest.mark.parametrize(
    ("spec", "position", "win"),
    [
        # x's larges on 1 and 5: only a medium over o's small on 9 wins (a large moved
        # there would leave its line).
        ("gobblet", "L,.,./s,L,./.,.,s x", "M9"),
        # Forget mode: x's 9 vanishes as x places 3, which completes 1-2-3.
        ("classic:forget", "xx./.oo/o.x x x=9,1,2 o=5,7,6", "3"),
    ],
)
def test_mcts_wins_from_a_position_given_mid_game(spec: str, position: str, win: str) -> None:
    # Too far from the start for the tracker's search: our registered game stands at it.
    state = parse_spec(spec).parse_position(position)
    bot = openspiel_player("mcts:simulations=300", 0, None)
    move = bot.choose(state)
    assert state.move_text(move) == win
    assert bot.spiel.state_now == state.play(move)


@pytest.mark.parametrize("spec", KINDS)
def test_each_kind_plays_legal_whole_games_on_classic(spec: str) -> None:
    game = parse_spec("classic")
    for seed in range(2):
        bot = openspiel_player(spec, seed, None)
        other = parse_player(f"random:seed={seed}")
        for x, o in ((bot, other), (other, bot)):
            record = play_game(game, x, o, Limits(), [])
            # replay() plays every move again through the rules: each was legal.
            states = record.replay()
            assert states[-1].is_over
            assert len(states) == len(record.moves) + 1 >= 6


@pytest.mark.parametrize("spec", KINDS)
def test_each_kind_plays_the_last_free_cell(spec: str) -> None:
    # The first cell as the only move (OpenSpiel's PolicyBot took a lone action 0 for none).
    state = parse_spec("classic").parse_position(".xo/oxx/xoo x")
    assert openspiel_player(spec, 0, None).choose(state) == 0


def test_a_factorys_bot_is_told_the_opponents_moves() -> None:
    player = openspiel_player("bot:openspiel_bots:first_legal", 0, None)
    state = parse_spec("classic").initial().play_text("5")
    assert player.choose(state) == 0  # the lowest free cell
    state = state.play(0).play_text("9")
    assert player.choose(state) == 1
    (bot,) = player.bots.values()
    assert isinstance(bot, FirstLegal)
    assert bot.told == [4, 8]  # o's own moves are its steps; x's 5 and 9 were told


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown OpenSpiel bot 'alphazero'; the bots are: random"),
        ("mcts:depth=3", "OpenSpiel mcts takes mcts.*; not 'depth=3'"),
        ("random:seed", "OpenSpiel random takes random.*; not 'seed'"),
        ("policy:openspiel_bots", "OpenSpiel policy takes policy:MODULE:FUNCTION"),
        ("bot:openspiel_bots:offset=1", "OpenSpiel bot takes bot:MODULE:FUNCTION"),
        ("bot:no_such_module:f", "cannot import module 'no_such_module'"),
        ("policy:openspiel_bots:nothing", "module 'openspiel_bots' has no function 'nothing'"),
    ],
)
def test_a_bad_spec_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        openspiel_player(spec, 0, None)


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("bot:openspiel_bots:not_a_bot", "classic", "the factory returned int, not a pyspiel.Bot"),
        ("policy:openspiel_bots:first_legal", "classic", r"its factory failed: first_legal\(\) missing"),
        ("cfr", "mnk:m=4:n=4:k=4", "solves the whole game first: classic only"),
    ],
)
def test_a_factory_that_fails_says_so_at_the_first_move(spec: str, game: str, message: str) -> None:
    player = openspiel_player(spec, 0, None)
    with pytest.raises(InvalidOptionError, match=message):
        player.choose(parse_spec(game).initial())


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`noughts arena ARGS` in a process of its own, with the tests' folder importable
    (the factories' module, openspiel_bots, lives there)."""
    tests = str(Path(__file__).parents[1])
    return subprocess.run(
        [sys.executable, "-m", "noughts.cli", "arena", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))},
    )


@pytest.mark.integration
def test_in_the_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["classic", "max", "--openspiel", "mcts:time=0.05", "--games", "4", "--jobs", "2", "--out", str(out)]
    done = arena(*args)
    assert done.returncode == 0, done.stderr
    (pairing,) = json.loads((out / "results.json").read_text())["pairings"]
    assert pairing["second"] == "openspiel-mcts:time=0.05"
    assert pairing["losses"] == 0  # perfect play never loses
    assert pairing["wins"] + pairing["draws"] == 4


@pytest.mark.integration
@pytest.mark.slow  # arena runs of other kinds of bot; make test keeps test_in_the_arena_command
def test_any_kind_of_bot_in_the_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    bots = ["random", "policy:openspiel_bots:uniform", "bot:openspiel_bots:first_legal"]
    args = ["classic", "max", *(a for bot in bots for a in ("--openspiel", bot)), "--games", "2", "--jobs", "1"]
    done = arena(*args, "--out", str(out))
    assert done.returncode == 0, done.stderr
    pairings = json.loads((out / "results.json").read_text())["pairings"]
    assert len(pairings) == 6  # four players, each pair once
    for pairing in pairings:
        assert pairing["wins"] + pairing["draws"] + pairing["losses"] == 2
    against_max = [p for p in pairings if p["first"] == "max"]
    assert len(against_max) == 3 and all(p["losses"] == 0 for p in against_max)


@pytest.mark.integration
def test_the_arena_refuses_a_bad_bot_before_any_game() -> None:
    done = arena("classic", "max", "--openspiel", "bot:nowhere:f", timeout=60)
    assert done.returncode != 0
    assert "cannot import module 'nowhere'" in done.stderr


@pytest.mark.integration
@pytest.mark.slow  # as above
def test_bots_on_a_game_openspiel_lacks_in_the_arena_command(tmp_path: Path) -> None:
    # Matryoshka is noughts.spiel's game only: MCTS by time (its rate measured on the
    # Python bot) and a factory's bot, with Noughts' random player.
    out = tmp_path / "run"
    bots = ["mcts:time=0.05", "bot:openspiel_bots:first_legal"]
    args = ["matryoshka", "random", *(a for bot in bots for a in ("--openspiel", bot)), "--games", "2", "--jobs", "1"]
    done = arena(*args, "--out", str(out))
    assert done.returncode == 0, done.stderr
    pairings = json.loads((out / "results.json").read_text())["pairings"]
    assert {(p["first"], p["second"]) for p in pairings} == {
        ("random", "openspiel-mcts:time=0.05"),
        ("random", "openspiel-bot:openspiel_bots:first_legal"),
        ("openspiel-mcts:time=0.05", "openspiel-bot:openspiel_bots:first_legal"),
    }
    assert all(p["wins"] + p["draws"] + p["losses"] == 2 for p in pairings)
