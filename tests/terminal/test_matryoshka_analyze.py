"""``noughts analyze matryoshka`` on a new installation (empty cache folders): every
move of the opening with its exact value, as the issue's 2-second run did not."""

from __future__ import annotations

import subprocess
from pathlib import Path

from noughts import parse_spec
from terminal.driving import NOUGHTS, terminal_env

EXACT_LEGEND = "every move, best first (all exact, with best play):\n"


def test_analyze_gives_exact_values_with_empty_caches(tmp_path: Path) -> None:
    moves = ["S1", "L5", "M9"]
    env = {**terminal_env(), "NOUGHTS_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    args = [NOUGHTS, "analyze", "matryoshka", "--time", "2", "--moves", *moves]
    done = subprocess.run(args, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "player: level max (perfect)" in done.stdout
    rows = done.stdout.split(EXACT_LEGEND)[1].strip().splitlines()
    state = parse_spec("matryoshka").initial()
    for move in moves:
        state = state.play_text(move)
    assert sorted(row.split()[0] for row in rows) == sorted(state.legal_move_texts())
    assert all(row.split()[1] in ("win", "loss", "draw") for row in rows), rows
