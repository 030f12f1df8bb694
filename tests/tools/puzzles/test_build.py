"""The puzzle mining tool (tools/puzzles/build.py): its quota on wins in one, its
refusal of a level that plays by seconds, its recipe's sources mine the same
puzzles twice, and the last moves it gives puzzles mined without them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from noughts import parse_spec
from noughts.study.puzzles import Puzzle, mine, read_puzzles

from support import load_file

TOOL = Path(__file__).resolve().parents[3] / "tools" / "puzzles" / "build.py"


def _tool() -> ModuleType:
    return load_file("puzzles_build", TOOL)


def _puzzle(spec: str, n: int, plies: int) -> Puzzle:
    return Puzzle(spec, f"position {n}", ["a"] * plies, plies)


def test_the_quota_keeps_the_first_wins_in_one_up_to_the_share() -> None:
    build = _tool()
    # qubic: 17 longer puzzles allow 3 wins in one (3 of 20 is 15%); classic: 2 longer allow none.
    puzzles = [_puzzle("qubic", n, 1) for n in range(5)] + [_puzzle("qubic", n, 3) for n in range(5, 22)]
    puzzles += [_puzzle("classic", 30, 1), _puzzle("classic", 31, 3), _puzzle("classic", 32, 5)]
    kept = build.within_quota(puzzles)
    assert [p.position for p in kept if p.plies == 1] == ["position 0", "position 1", "position 2"]
    assert [p for p in kept if p.plies > 1] == [p for p in puzzles if p.plies > 1]
    assert build.within_quota(kept) == kept  # applied again, nothing more goes


def test_a_level_that_plays_by_seconds_is_refused() -> None:
    build = _tool()
    assert build.deterministic("qubic", "medium")
    assert not build.deterministic("mnk:m=15:n=15:k=5", "hard")  # depth=3, capped at a second
    assert all(build.deterministic(s.spec, s.level) for s in build.RECIPE)


def test_a_source_mines_the_same_puzzles_again() -> None:
    build = _tool()
    source = build.Source("mnk:m=5:n=5:k=4", "medium", 0, 3, nodes=200_000, min_plies=3)
    first = build.mine_source(source)
    assert first and all(p["plies"] >= 3 for p in first)
    assert build.mine_source(source) == first


def test_context_gives_puzzles_the_move_that_led_to_them(tmp_path: Path) -> None:
    """A puzzle mined before the miner kept its last move gets it by its source game
    played again; one whose source is not reproducible self-play is left as it was."""
    mined = list(mine(parse_spec("classic:forget"), 2, seed=2))
    bare = [replace(p, before=None, last_move=None) for p in mined]
    other = replace(bare[0], position="..x/.o./... x", source="a record")
    out = tmp_path / "puzzles.jsonl"
    out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in [*bare, other]), encoding="utf-8")
    assert _tool().main(["context", "--out", str(out)]) == 0
    assert read_puzzles(out) == [*mined, other]
