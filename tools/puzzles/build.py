"""Mine the shipped puzzles (src/noughts/study/data/puzzles.jsonl) by a fixed recipe:
each source is a range of seeded self-play games of a level that searches by depth or
count, never by seconds, proved within a budget of nodes, so the same puzzles come out
on any machine, however busy. New puzzles are added to the shipped file's (a position
already there is skipped); then at most `ONE_MOVE_SHARE` of each game's puzzles may be
wins in one (`within_quota`: the later ones in file order go), and every puzzle's
themes are derived again.

    .venv/bin/python tools/puzzles/build.py mine [--source N ...] [--jobs J]
    .venv/bin/python tools/puzzles/build.py assemble [--out PATH]
    .venv/bin/python tools/puzzles/build.py context [--level L ...] [--out PATH]
    .venv/bin/python tools/puzzles/build.py shorten [--out PATH]

``mine`` writes each source's puzzles to the work folder (``puzzles/`` in the cache
folder) as it finishes, and skips a source already there: a stopped run goes on.
``assemble`` writes the shipped file from it. ``context`` gives the puzzles mined before
the miner kept it the position before theirs and the move played there (which the puzzle
page shows first), by playing their source games again, where the level's self-play is
reproducible. ``shorten`` makes the m,n,k race puzzles' lines the quickest win where
a threat search's first line was longer (`quickest_line`), keeping their ids; the
miner now does that itself. Then ``noughts puzzles verify`` proves the
file again and ``noughts puzzles keys`` works out the answer keys of the new puzzles.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from noughts.ai.base import Limits, split_spec
from noughts.ai.exact import cache_dir
from noughts.ai.levels import level_spec
from noughts.games.mnk.rules import MnkState
from noughts.registry import parse_spec
from noughts.study.puzzles import SHIPPED, Puzzle, mine, quickest_line, read_puzzles, refresh, self_play, themes

#: The largest share of one game's puzzles that may be wins in one move: the easiest
#: kind, which self-play of a race game yields most of.
ONE_MOVE_SHARE = 0.15


@dataclass(frozen=True)
class Source:
    """Self-play games `seed` to `seed + games - 1` of `level` in `spec`, every position
    from ply `from_ply` proved within `nodes` nodes; at most `per_game` puzzles a game,
    of `min_plies` to `max_plies` plies."""

    spec: str
    level: str
    seed: int
    games: int
    nodes: int = 1_000_000
    from_ply: int = 0
    per_game: int = 1
    min_plies: int = 1
    max_plies: int | None = None

    @property
    def name(self) -> str:
        return f"{self.spec}-{self.level}-{self.seed}-{self.games}-{self.nodes}-{self.from_ply}-{self.min_plies}"


def _chunks(spec: str, level: str, seed: int, games: int, chunk: int = 50, **options: Any) -> list[Source]:
    """`games` games from `seed` as sources of `chunk` games each: a stopped run loses
    at most one chunk's work, and parallel jobs share them."""
    return [
        Source(spec, level, first, min(chunk, seed + games - first), **options)
        for first in range(seed, seed + games, chunk)
    ]


#: The recipe, in the order its puzzles are added. Seeds start past the games the
#: shipped file's puzzles came from (their sources name them), so the new ones differ.
RECIPE = [
    *_chunks("classic:forget=true", "medium", 0, 400, 100, min_plies=3),
    *_chunks("mnk:m=4:n=4:k=3", "medium", 0, 200, min_plies=3),
    *_chunks("mnk:m=5:n=5:k=4", "medium", 0, 400, 100, nodes=200_000, min_plies=3),
    *_chunks("mnk:m=15:n=15:k=5", "medium", 10_000, 400, nodes=200_000, from_ply=10, min_plies=3),
    *_chunks("qubic", "medium", 10_000, 300, nodes=200_000, min_plies=3),
    # The first puzzle of a gomoku game of three plies or more is rarely of three: these
    # games give the wins in two.
    *_chunks("mnk:m=15:n=15:k=5", "medium", 20_000, 100, nodes=200_000, from_ply=10, min_plies=3, max_plies=3),
    *_chunks("ultimate", "hard", 10_000, 200, 25, nodes=2_000_000, from_ply=45, min_plies=3),
    *_chunks("nine-board", "hard", 10_000, 200, 25, nodes=2_000_000, from_ply=20, min_plies=3),
    # The cheap ones, in seconds a chunk: the solved tables' games, past the seeds above.
    *_chunks("classic:forget=true", "medium", 400, 600, 100, min_plies=3),
    *_chunks("mnk:m=4:n=4:k=3", "medium", 200, 600, 100, min_plies=3),
    *_chunks("mnk:m=5:n=5:k=4", "medium", 400, 400, 100, nodes=200_000, min_plies=3),
    *_chunks("mnk:m=4:n=4:k=3", "medium", 800, 400, 100, min_plies=3),
    *_chunks("mnk:m=5:n=5:k=4", "medium", 800, 400, 100, nodes=200_000, min_plies=3),
]


def work_dir() -> Path:
    return cache_dir() / "puzzles"


def deterministic(spec: str, level: str) -> bool:
    """Whether `level`'s self-play in `spec` plays the same games on any machine: its
    search counts depth, nodes or iterations and has no cap in seconds."""
    _, options = split_spec(level_spec(parse_spec(spec), level))
    return "time" not in options and bool(options.keys() & {"depth", "nodes", "iterations"})


def mine_source(source: Source) -> list[dict[str, Any]]:
    """The puzzles of one source, in the order found."""
    game = parse_spec(source.spec)
    found = mine(
        game, 1 << 30, source.seed, Limits(nodes=source.nodes), source.level, from_ply=source.from_ply,
        per_game=source.per_game, games=source.games, max_plies=source.max_plies, min_plies=source.min_plies,
    )  # fmt: skip
    return [puzzle.to_json() for puzzle in found]


def within_quota(puzzles: list[Puzzle], share: float = ONE_MOVE_SHARE) -> list[Puzzle]:
    """`puzzles` with, in each game, as many wins in one kept (the first in order) as
    keep them at most `share` of the game's puzzles; the others as they are, in order."""
    longer: dict[str, int] = {}
    for puzzle in puzzles:
        if puzzle.plies > 1:
            longer[puzzle.spec] = longer.get(puzzle.spec, 0) + 1
    # k wins in one among n longer puzzles: k <= share * (n + k).
    allowed = {spec: int(share * n / (1 - share) + 1e-9) for spec, n in longer.items()}
    kept = []
    for puzzle in puzzles:
        if puzzle.plies == 1:
            if allowed.get(puzzle.spec, 0) <= 0:
                continue
            allowed[puzzle.spec] -= 1
        kept.append(puzzle)
    return kept


def _mine(args: argparse.Namespace) -> int:
    chosen = [RECIPE[n] for n in args.source] if args.source else RECIPE
    for source in chosen:
        if not deterministic(source.spec, source.level):
            raise SystemExit(f"{source.spec}: level {source.level} searches by seconds: not reproducible")
    work = work_dir()
    work.mkdir(parents=True, exist_ok=True)
    todo = [s for s in chosen if not (work / f"{s.name}.jsonl").exists()]
    with ProcessPoolExecutor(args.jobs) as pool:
        for source, found in zip(todo, pool.map(mine_source, todo), strict=True):
            path = work / f"{source.name}.jsonl"
            path.write_text("".join(json.dumps(p) + "\n" for p in found), encoding="utf-8")
            print(f"{source.name}: {len(found)} puzzles ({time.strftime('%H:%M:%S')})", flush=True)
    return 0


def _assemble(args: argparse.Namespace) -> int:
    puzzles = read_puzzles(args.out)
    there = {(p.spec, p.position) for p in puzzles}
    missing = []
    for source in RECIPE:
        path = work_dir() / f"{source.name}.jsonl"
        if not path.exists():
            missing.append(source.name)
            continue
        for puzzle in read_puzzles(path):
            if (puzzle.spec, puzzle.position) not in there:
                there.add((puzzle.spec, puzzle.position))
                puzzles.append(puzzle)
    # Themes derived anew: a source mined before a change to `themes` gets today's.
    kept = [
        replace(p, themes=themes(parse_spec(p.spec).parse_position(p.position), p.solution, p.bound))
        for p in within_quota(puzzles)
    ]
    args.out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in kept), encoding="utf-8")
    print(f"wrote {args.out}: {len(kept)} puzzles ({len(puzzles) - len(kept)} wins in one over the quota left out)")
    if missing:
        print(f"not mined yet (build.py mine): {', '.join(missing)}", file=sys.stderr)
    return 0


#: A mined puzzle's source: "self-play medium, game 1061".
SOURCE = re.compile(r"self-play (\w+), game (\d+)")


def _context(args: argparse.Namespace) -> int:
    puzzles = read_puzzles(args.out)
    games: dict[tuple[str, str, int], dict[str, int]] = {}  # a source game -> its puzzles' positions
    for i, puzzle in enumerate(puzzles):
        found = SOURCE.fullmatch(puzzle.source)
        if puzzle.before is not None or not found or (args.level and found[1] not in args.level):
            continue
        if deterministic(puzzle.spec, found[1]):
            games.setdefault((puzzle.spec, found[1], int(found[2])), {})[puzzle.position] = i
    given = 0
    for (spec, level, number), positions in games.items():
        for _, state, before in self_play(parse_spec(spec), level, number):
            i = positions.pop(state.to_text(), None)
            if i is not None and before is not None:
                puzzles[i] = replace(puzzles[i], before=before[0], last_move=before[1])
                given += 1
            if not positions:
                break
    args.out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in puzzles), encoding="utf-8")
    print(f"wrote {args.out}: {given} puzzles given their last move, of {len(puzzles)}")
    return 0


def _shorten(args: argparse.Namespace) -> int:
    puzzles = read_puzzles(args.out)
    shortened = []
    for i, puzzle in enumerate(puzzles):
        state = parse_spec(puzzle.spec).parse_position(puzzle.position)
        if not puzzle.bound or not isinstance(state, MnkState):
            continue
        line = quickest_line(state, puzzle.solution)
        if len(line) < len(puzzle.solution):
            puzzles[i] = refresh(replace(puzzle, solution=line, plies=len(line)))
            shortened.append(f"{puzzle.id} {puzzle.plies}->{len(line)}")
    args.out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in puzzles), encoding="utf-8")
    print(f"wrote {args.out}: {len(shortened)} lines made the quickest win: {', '.join(shortened) or 'none'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_subparsers(dest="command", required=True)
    run = what.add_parser("mine", help="mine the recipe's sources into the work folder")
    run.add_argument("--source", type=int, action="append", help="only this source (its index in RECIPE)")
    run.add_argument("--jobs", type=int, default=1)
    run.set_defaults(run=_mine)
    assemble = what.add_parser("assemble", help="add the mined puzzles to the shipped file, within the quota")
    assemble.add_argument("--out", type=Path, default=SHIPPED)
    assemble.set_defaults(run=_assemble)
    context = what.add_parser("context", help="give shipped puzzles the move before them, from their source games")
    context.add_argument("--level", action="append", help="only puzzles of this level's self-play")
    context.add_argument("--out", type=Path, default=SHIPPED)
    context.set_defaults(run=_context)
    shorten = what.add_parser("shorten", help="make the m,n,k race puzzles' lines the quickest win")
    shorten.add_argument("--out", type=Path, default=SHIPPED)
    shorten.set_defaults(run=_shorten)
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
