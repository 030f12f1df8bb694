"""The compiled m,n,k table builder against the readable one: the same classes, codes
and position counts, entry for entry, on boards of every shape."""

from __future__ import annotations

import pytest

from noughts.ai import solve
from noughts.games.mnk.rules import Mnk
from noughts.kernels import mnk_table
from noughts.registry import parse_spec


def _compiled(game: Mnk) -> tuple[list[int], list[int], int]:
    canon = solve._Canon(game)
    keys, codes, positions = mnk_table.build(game.cells, game.full, list(game.through), canon.tables, canon.low)
    return [int(k) for k in keys], [int(c) for c in codes], positions


@pytest.mark.parametrize(
    "spec",
    [
        "classic",
        "mnk:m=3:n=3:k=2",
        "mnk:m=4:n=3:k=3",
        "mnk:m=3:n=4:k=4",
        "mnk:m=5:n=2:k=2",
        "mnk:m=1:n=9:k=3",
        "mnk:m=2:n=6:k=3",
        "mnk:m=4:n=3:k=1",
    ],
)
def test_the_kernel_builds_the_readable_table(spec: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, Mnk)
    memo, positions = solve._build_mnk(game)
    keys = sorted(memo)
    assert _compiled(game) == (keys, [memo[k] for k in keys], positions)


@pytest.mark.slow  # make test-slow: two 4x4 tables, seconds each
def test_the_compiled_4x4_tables_have_the_known_counts_and_values() -> None:
    """The 4x4 tables (the readable builder takes half a minute each, the kernel a
    second or two): their counts as the readable builder found them (bench/table_builds.py)."""
    for spec, classes, positions, start in [
        ("mnk:m=4:n=4:k=3", 756_387, 6_036_001, 5 + 1),
        ("mnk:m=4:n=4:k=4", 1_217_977, 9_722_011, 0),
    ]:
        game = parse_spec(spec)
        assert isinstance(game, Mnk)
        keys, codes, count = _compiled(game)
        assert (len(keys), count) == (classes, positions)
        assert codes[keys.index(0)] == start  # the empty board's key is 0: x wins in 5 on k=3, draws on k=4
