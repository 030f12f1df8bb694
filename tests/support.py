"""Shared test data and helpers: the game variants every generic test runs over, the
users' cache, a successful call of the web API, and a module loaded from its file."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from noughts import State, parse_spec

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

#: Every registered game, plus the option variants that change the rules' shape.
SPECS = [
    "classic",
    "classic:forget=true",
    "mnk:m=4:n=4:k=4",
    "mnk:m=5:n=3:k=3",
    "mnk:m=15:n=15:k=5",
    "mnk:m=4:n=4:k=3:forget=true:keep=4",
    "nine-board",
    "nine-board:forget=true",
    "ultimate",
    "ultimate:forget=true",
    "ultimate:tiebreak=boards",
    "qubic",
    "qubic:n=3",
    "qubic:n=3:d=4",
    "matryoshka",
    "gobblet",
    "connect4",
    "connect4:m=5:n=4:k=3",
]

#: SPECS and the other options that change an encoding's planes or actions (noughts.rl,
#: noughts.spiel): Forget mode's keep, qubic's dimension, gobblet's figure set.
ENCODED_SPECS = [
    *SPECS,
    "classic:forget=true:keep=4",
    "ultimate:forget=true:keep=4",
    "qubic:d=2",
    "matryoshka:sizes=2:copies=1",
    "gobblet:sizes=2",
    "gobblet:copies=1",
]


def sampled(values: list[Any], every: int, also: tuple[Any, ...] = ()) -> list[Any]:
    """`values` as test parameters: every `every`-th one (the first included) and those
    in `also` run in `make test`, the others only in `make test-slow` (marked slow); a
    tuple is one test's arguments. For the checks that repeat one claim over every game, where a spread of games keeps
    the quick round honest and the whole list is the exhaustive one."""
    return [
        pytest.param(
            *(value if isinstance(value, tuple) else (value,)),
            marks=() if i % every == 0 or value in also else pytest.mark.slow,
        )
        for i, value in enumerate(values)
    ]


def crossed(rows: list[Any], columns: list[Any], keep: int) -> list[Any]:
    """Every (row, column) pair as test parameters, `keep` columns of each row in `make
    test`, a different run of columns for each row so that every column is met, and the
    rest of the table in `make test-slow` (marked slow)."""
    return [
        pytest.param(row, column, marks=() if (i + j) % len(columns) < keep else pytest.mark.slow)
        for i, row in enumerate(rows)
        for j, column in enumerate(columns)
    ]


def playout(spec: str, seed: int, max_plies: int = 400) -> list[tuple[State[Any], Any]]:
    """(state, move played from it) pairs of one seeded random game, then (final, None)."""
    rng = random.Random(seed)
    state = parse_spec(spec).initial()
    steps: list[tuple[State[Any], Any]] = []
    while not state.is_over and len(steps) < max_plies:
        move = rng.choice(state.legal_moves())
        steps.append((state, move))
        state = state.play(move)
    steps.append((state, None))
    return steps


def use_the_users_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Points the cache folder back at the user's (where ``noughts solve gobblet`` built
    its table; tests/conftest.py kept it), for checks that only read what is there."""
    user_cache = os.environ.get("NOUGHTS_TEST_USER_CACHE_DIR")
    if user_cache:
        monkeypatch.setenv("NOUGHTS_CACHE_DIR", user_cache)
    else:
        monkeypatch.delenv("NOUGHTS_CACHE_DIR")


def the_users_gobblet_table(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The published gobblet's solved table, from the user's cache folder where
    ``noughts solve gobblet`` built it. Building takes minutes, so a plain ``pytest -m
    slow`` skips the checks that need it, saying so; ``make test-slow`` (and so CI)
    builds it first and sets ``NOUGHTS_TESTS_NEED_GOBBLET_TABLE``, and there a missing
    table fails rather than skips."""
    from noughts.ai import gobblet_table
    from noughts.games.gobblet import Gobblet

    use_the_users_cache(monkeypatch)
    table = gobblet_table.load(Gobblet())
    if table is None:
        message = f"gobblet's table is not built: {gobblet_table.BUILD_NOTE}"
        if os.environ.get("NOUGHTS_TESTS_NEED_GOBBLET_TABLE"):
            pytest.fail(f"{message}; make test-slow builds it before the tests, yet it is not in the cache folder")
        pytest.skip(message)
    return table


def without_the_gobblet_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As on a new machine: no gobblet table in the cache folder, none in memory (a slow
    check in the same process may have loaded the user's)."""
    from noughts.ai import gobblet_table

    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(gobblet_table, "_TABLES", {})


def post(client: TestClient, path: str, body: Any) -> Any:
    """The JSON answer of a POST that must succeed (200), else the failure says why."""
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def load_file(name: str, path: Path) -> ModuleType:
    """The module in the file `path`, registered as `name`: tests/ is no package and
    pytest's --import-mode=importlib puts no folder on sys.path, and tools' files share
    names (each has a build.py). Registered in sys.modules, where dataclasses look their
    module up while being defined."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
