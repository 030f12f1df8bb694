"""Every claim of `noughts.ai.capabilities` holds, for every registered game and a spread
of m,n,k boards and Forget options: a table claimed answers every move exactly, a prover
claimed proves, the compiled players take what is claimed compiled and refuse the rest,
and the levels, the solver, the puzzles and the catalogue say the same."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

from noughts.ai import solve as solve_module
from noughts.ai.base import Kind, Limits, parse_player
from noughts.ai.capabilities import capabilities
from noughts.ai.levels import level_player, level_spec
from noughts.ai.solve import PerfectPlayer, solve
from noughts.core import Game, InvalidOptionError, State
from noughts.registry import game_keys, parse_spec
from noughts.study.puzzles import prover, shipped

#: Each registered game at its defaults, then variants that move the boundaries: m,n,k
#: boards around 16 cells and every shape (rectangles, one row), Forget mode around 9
#: cells and its keep, the other games' options.
VARIANTS = [
    *game_keys(),
    "classic:forget",
    "mnk:m=3:n=3:k=2",
    "mnk:m=4:n=3:k=3",
    "mnk:m=3:n=4:k=4",
    "mnk:m=5:n=2:k=3",
    "mnk:m=1:n=6:k=3",
    "mnk:m=2:n=4:k=2",
    "mnk:m=4:n=4:k=3",
    "mnk:m=4:n=4:k=4",
    "mnk:m=3:n=5:k=3",
    "mnk:m=2:n=8:k=3",
    "mnk:m=1:n=12:k=4",
    "mnk:m=16:n=1:k=4",
    "mnk:m=5:n=5:k=3",
    "mnk:m=5:n=5:k=4",
    "mnk:m=7:n=7:k=4",
    "mnk:m=15:n=15:k=5",
    "mnk:m=3:n=3:k=3:forget:keep=4",
    "mnk:m=3:n=3:k=3:forget:keep=9",
    "mnk:m=2:n=4:k=2:forget",
    "mnk:m=4:n=3:k=3:forget",
    "mnk:m=5:n=5:k=4:forget:keep=4",
    "nine-board:forget",
    "ultimate:forget",
    "ultimate:tiebreak=boards",
    "qubic:n=3",
    "qubic:n=4:d=2",
    "gobblet:copies=1",
    "gobblet:sizes=2",
]

#: Tables that build in more than a few seconds: their claims are checked in make test-slow.
SLOW_TABLES = {
    "mnk:m=4:n=4:k=3",
    "mnk:m=4:n=4:k=4",
    "mnk:m=3:n=5:k=3",
    "mnk:m=2:n=8:k=3",
    "mnk:m=3:n=3:k=3:forget:keep=4",
    "mnk:m=3:n=3:k=3:forget:keep=9",
    # Forget mode's table (7-9 s from nothing): make test meets it in tests/ai/test_solve.py.
    "classic:forget",
}


def _fast(specs: list[str]) -> list[Any]:
    return [pytest.param(s, marks=pytest.mark.slow) if s in SLOW_TABLES else s for s in specs]


@pytest.fixture(autouse=True)
def _fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solve_module, "_TABLES", {})


def _positions(game: Game[Any, Any], seed: int, count: int = 4) -> list[State[Any]]:
    """Unfinished positions from a seeded random game: the start and some later ones."""
    rng = random.Random(seed)
    state: State[Any] = game.initial()
    found = [state]
    for _ in range(40):
        child = state.play(rng.choice(state.legal_moves()))
        if child.is_over:
            break
        state = child
        found.append(state)
    step = max(1, len(found) // count)
    return found[::step][:count]


@pytest.mark.parametrize("spec", VARIANTS)
def test_the_readers_agree(spec: str) -> None:
    """The solver, the levels and the puzzles say what the capabilities say, without
    building anything."""
    game = parse_spec(spec)
    found = capabilities(game)
    if found.table is None and not found.exact_search and not found.solver:
        with pytest.raises(InvalidOptionError, match=r"no exact table|no table"):
            solve(game)
        with pytest.raises(InvalidOptionError):
            PerfectPlayer().analyze(game.initial(), Limits(time=0.05))
    if found.exact_at_once:
        assert level_spec(game, "max") == "perfect"
    if level_spec(game, "max") == "perfect":
        assert found.perfect
    if found.prover is None:
        with pytest.raises(InvalidOptionError, match="no exact prover"):
            prover(game)
    elif found.table != "command":  # gobblet's own table waits for `noughts solve`
        assert prover(game).name == found.prover
    if found.proof:  # max as x plays a proven win from the start, with or without a table
        assert level_player(game, "max").analyze(game.initial(), Limits(time=1)).value.kind is Kind.WIN


@pytest.mark.parametrize("spec", VARIANTS)
def test_compiled_claims_hold(spec: str) -> None:
    game = parse_spec(spec)
    player = parse_player("kalphabeta:depth=1")
    if capabilities(game).compiled:
        assert player.analyze(game.initial()).moves
    else:
        with pytest.raises(InvalidOptionError):
            player.analyze(game.initial())


def _exact_claimed(spec: str) -> bool:
    found = capabilities(parse_spec(spec))
    return found.table == "first use" or found.exact_search


@pytest.mark.parametrize("spec", _fast([s for s in VARIANTS if _exact_claimed(s) and s != "matryoshka"]))
def test_a_claimed_table_answers_every_move_exactly(spec: str) -> None:
    """On a fresh cache, with a clock: the table is built first, and every legal move of
    varied positions gets an exact value, from `perfect`, from `max` and from the prover."""
    game = parse_spec(spec)
    table = solve(game)
    assert table.start_value.exact
    players = [PerfectPlayer(), parse_player("max"), prover(game)]
    for seed in (1, 2):
        for state in _positions(game, seed):
            for player in players:
                analysis = player.analyze(state, Limits(time=0.5))
                assert all(info.value.exact for info in analysis.moves), (spec, state.to_text(), player.name)
                best = analysis.moves[0]
                assert best.value == table.value(state.play(best.move)).negated() or state.play(best.move).is_over


def test_matryoshka_claims_an_exact_search() -> None:
    """Matryoshka has no table but the perfect player's search: late positions, which
    it proves quickly, are valued exactly by the prover."""
    game = parse_spec("matryoshka")
    found = capabilities(game)
    assert found.exact_search and found.table is None
    state = game.initial()
    for move in ["L5", "l1", "L9", "l3", "M2", "m8"]:
        state = state.play_text(move)
    analysis = prover(game).analyze(state)
    assert all(info.value.exact for info in analysis.moves)


@pytest.mark.parametrize(
    ("spec", "moves", "wins"),
    [
        # x to move completes an open line: the forcing search must find it.
        ("mnk:m=7:n=7:k=4", ["d4", "a1", "d3", "a2", "d2", "b7"], {"d1", "d5"}),
        ("mnk:m=5:n=5:k=4", ["b2", "a5", "c3", "e1", "d4", "a4"], {"a1", "e5"}),
        ("mnk:m=5:n=5:k=3", ["b2", "e5", "c3", "e4"], {"a1", "d4"}),
        ("mnk:m=15:n=15:k=5", ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "o15"], {"h7", "h12"}),
    ],
)
def test_a_claimed_threat_prover_proves_a_win(spec: str, moves: list[str], wins: set[str]) -> None:
    game = parse_spec(spec)
    assert capabilities(game).prover == "threats"
    state = game.initial()
    for move in moves:
        state = state.play_text(move)
    best = prover(game).analyze(state).moves[0]
    assert best.value.kind is Kind.WIN and best.value.exact and best.text in wins


@pytest.mark.parametrize("spec", ["ultimate", "nine-board"])
def test_a_claimed_compiled_prover_proves_late_positions(spec: str) -> None:
    """The compiled alpha-beta proves every move of late positions: those of shipped
    puzzles of the game, taken from different games."""
    game = parse_spec(spec)
    assert capabilities(game).prover == "kalphabeta"
    puzzles = [p for p in shipped() if p.spec == spec][::50][:3]
    assert len(puzzles) == 3
    for puzzle in puzzles:
        state = game.parse_position(puzzle.position)
        analysis = prover(game).analyze(state, Limits(time=5))
        assert all(info.value.exact for info in analysis.moves), puzzle.id
        assert analysis.moves[0].text == puzzle.solution[0]


def test_the_catalogue_says_the_same() -> None:
    from noughts.server.routes.catalogue import catalogue

    for info in catalogue().games:
        found = capabilities(parse_spec(info.key))
        assert (info.abilities.table, info.abilities.exact_search, info.abilities.compiled) == (
            found.table,
            found.exact_search,
            found.compiled,
        )
        assert info.abilities.puzzles == (found.prover is not None)
        assert info.abilities.text == found.claims()


def test_the_docs_table_is_the_one_in_the_code() -> None:
    """docs/strength.md's "What each game can do" shows `capabilities` and max's player,
    row for row: neither may drift from the other."""
    docs = (Path(__file__).parents[2] / "docs" / "strength.md").read_text(encoding="utf-8")
    section = docs.split("## What each game can do", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert len(rows) >= len(game_keys())
    for row in rows:
        spec, claims, plays = (cell.strip() for cell in row.strip("|").split(" | "))
        game = parse_spec(spec.strip("`"))
        assert (claims, plays.strip("`")) == (capabilities(game).claims(), level_spec(game, "max")), spec
    shown = {parse_spec(row.split("`")[1]).key for row in rows}
    assert shown == set(game_keys())


#: The facts `capabilities` is made of, and the modules besides it that may ask them
#: directly: the code each fact belongs to (the kernels check their own games, gobblet's
#: table builder its own size, the threat searches their own boards). Anyone else asks
#: `capabilities`, so that no second answer can drift from it.
PRIMITIVES = {
    "supports": {"kernels/__init__.py", "kernels/games.py"},
    "small": {"ai/gobblet_table.py"},
    "applies": {"games/mnk/threats.py", "games/mnk/knowledge.py", "ai/connect4_exact.py"},
}


def test_only_capabilities_asks_what_a_game_can_do() -> None:
    package = Path(__file__).parents[2] / "src" / "noughts"
    askers = set()
    for path in package.rglob("*.py"):
        name = path.relative_to(package).as_posix()
        text = path.read_text(encoding="utf-8")
        for fact, owners in PRIMITIVES.items():
            if name != "ai/capabilities.py" and name not in owners and re.search(rf"\b{fact}\(", text):
                askers.add(f"{name}: {fact}")
    assert not askers


def test_capabilities_the_level_kinds_and_the_kernels_games_import_no_game() -> None:
    """They ask what a game is (`Game.traits`, its board's kind), never its class, so a
    game's module is not theirs to import: a game from elsewhere of a kind they serve is
    served alike."""
    games = {type(parse_spec(key)).__module__ for key in game_keys()}
    assert "noughts.games.mnk.rules" in games
    package = Path(__file__).parents[2] / "src" / "noughts"
    for name in ("ai/capabilities.py", "ai/levels.py", "kernels/__init__.py"):
        tree = ast.parse((package / name).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not imported & games, name
