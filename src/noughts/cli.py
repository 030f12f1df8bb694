"""The ``noughts`` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from noughts import __version__
from noughts.core import Game, NoughtsError, State, closest
from noughts.games.gobblet import Gobblet
from noughts.records import GameRecord
from noughts.registry import GAMES, parse_spec, spec_help
from noughts.variant import Trait

if TYPE_CHECKING:
    from noughts.ai.compiled import Compiling

#: The optional packages, by the extra that installs them (pyproject.toml): a command
#: that needs one that is missing says which extra to install.
_EXTRAS = {
    **dict.fromkeys(["numba", "llvmlite"], "kernels"),
    **dict.fromkeys(["numpy", "matplotlib", "cma"], "arena"),
    **dict.fromkeys(
        [
            *("fastapi", "fastapi_offline", "starlette", "pydantic", "uvicorn", "sqlalchemy", "alembic", "psycopg"),
            *("redis", "httpx2", "websockets"),
        ],
        "server",
    ),
    "argon2": "server",
    "dramatiq": "scale",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        _overview(parser)
        return 0
    try:
        result: int = args.run(args)
        sys.stdout.flush()  # here, where a reader that left is caught, not at exit
        return result
    except NoughtsError as e:
        print(f"noughts: {e}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        extra = _EXTRAS.get((e.name or "").partition(".")[0])
        if extra is None:
            raise
        print(f"noughts {args.command}: this needs {e.name}: pip install 'noughts[{extra}]'", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader left (`noughts ... | head`): nothing to say. As Python's docs advise,
        # stdout goes to devnull so that the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as e:  # a record file that is missing or unreadable
        print(f"noughts: {e.strerror or e}: {e.filename}" if e.filename else f"noughts: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its subcommands' too), whose refusal of a choice names the
    nearest one, as the library's refusals do: argparse itself does only from Python
    3.14 (``suggest_on_error``)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            listed = ", ".join(map(repr, action.choices))
            near = closest(str(value), [str(choice) for choice in action.choices])
            raise argparse.ArgumentError(action, f"invalid choice: {value!r}{near} (choose from {listed})")


def _parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = _Parser(
        prog="noughts", description="The tic-tac-toe family: play, analyse, compare."
    )
    parser.add_argument("--version", action="version", version=f"noughts {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    games = sub.add_parser("games", help="list the games and their options")
    games.set_defaults(run=_games)

    perft = sub.add_parser("perft", help="count move paths of exactly DEPTH plies")
    perft.add_argument("game", help=spec_help())
    perft.add_argument("depth", type=int)
    perft.add_argument("--position", help="start from this position text instead of the initial position")
    perft.add_argument("--moves", nargs="+", default=[], metavar="M", help="moves to play first")
    perft.add_argument("--divide", action="store_true", help="also print the count below each first move")
    perft.add_argument(
        "--engine",
        choices=("auto", "kernels", "readable"),
        default="auto",
        help="count with the compiled kernels (ultimate, nine-board, qubic 4x4x4) or the readable rules; "
        "auto: the kernels where the game has them (default)",
    )
    perft.set_defaults(run=_perft)

    prepare = sub.add_parser("prepare", help="compile the fast engine now (the set-up does it; once per machine)")
    prepare.add_argument(
        "--quiet", action="store_true", help="say nothing, and load nothing, when it is compiled already"
    )
    prepare.set_defaults(run=_prepare)

    engine = sub.add_parser("engine", help="speak the engine protocol on stdin/stdout (docs/engine.md)")
    engine.set_defaults(run=_engine)

    show = sub.add_parser("show", help="draw a position")
    show.add_argument("game", help=spec_help())
    show.add_argument("--position", help="a position text")
    show.add_argument("--moves", nargs="+", default=[], metavar="M", help="moves to play first")
    show.set_defaults(run=_show)

    record = sub.add_parser("record", help="check a game record and print it (text or JSON)")
    record.add_argument("file", type=Path, help="a record file, text or JSON ('-' for stdin)")
    record.add_argument("--json", action="store_true", help="print the JSON form")
    record.set_defaults(run=_record)

    solve = sub.add_parser("solve", help="build (or load) the exact table of a solved game and report it")
    solve.add_argument(
        "game",
        help="classic, classic:forget, mnk up to 4x4, matryoshka (by search), or gobblet (once: 14 min on 2 cores)",
    )
    solve.add_argument(
        "--book",
        action="store_true",
        help="gobblet: also write the opening book shipped with Noughts from the table (for its developers)",
    )
    solve.set_defaults(run=_solve)

    _add_adapter_commands(sub)
    return parser


def _add_adapter_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Each adapter adds its own subcommands from its own module (one line each), so
    that this module stays the index of the command and nothing more."""
    from noughts.terminal.commands import add_commands as add_terminal

    puzzles = add_terminal(sub)
    from noughts.server.commands import add_commands as add_web

    add_web(sub, puzzles)
    from noughts.thinking.commands import add_commands as add_worker

    add_worker(sub)
    from noughts.bridge.commands import add_commands as add_bot

    add_bot(sub)
    from noughts.arena.commands import add_commands as add_arena

    add_arena(sub)


def _overview(parser: argparse.ArgumentParser) -> None:
    parser.print_help()
    print("\ngames:")
    for key, entry in GAMES.items():
        print(f"  {key:<11} {entry.summary}")
    print("\ntry: noughts perft ultimate 4   |   noughts engine   |   noughts show classic --moves 5 1")


def _games(args: argparse.Namespace) -> int:
    for key, entry in GAMES.items():
        defaults = entry.defaults()
        options = " ".join(f"{k}={v}".lower() if isinstance(v, bool) else f"{k}={v}" for k, v in defaults.items())
        print(f"{key:<11} {entry.summary}" + (f"  [options: {options}]" if options else ""))
    return 0


def _start(args: argparse.Namespace) -> State[Any]:
    game = parse_spec(args.game)
    state: State[Any] = game.parse_position(args.position) if args.position else game.initial()
    for move in args.moves:
        state = state.play_text(move)
    return state


def _perft(args: argparse.Namespace) -> int:
    from noughts import perft as readable
    from noughts.ai.capabilities import capabilities
    from noughts.kernels import SUPPORTED

    state = _start(args)
    if args.depth < 0:
        raise SystemExit("noughts perft: DEPTH must be 0 or more")
    compiled = capabilities(state.game).compiled
    use_kernels = args.engine == "kernels" or (args.engine == "auto" and compiled)
    if use_kernels and not compiled:
        raise SystemExit(f"noughts perft: the kernels count {SUPPORTED}, not {state.game.spec}")
    if use_kernels:
        from noughts.kernels.games import perft
    else:
        perft = readable.perft
    if args.divide and args.depth > 0:
        rows = readable.divide(state, args.depth, perft)
        for move, count in rows:
            print(f"{move} {count}")
        print(sum(count for _, count in rows))
    else:
        print(perft(state, args.depth))
    return 0


def _prepare(args: argparse.Namespace) -> int:
    from noughts.ai.compiled import COMPILE_ESTIMATE, is_cached, prepare

    cached = is_cached()
    if cached and args.quiet:
        return 0
    if not cached:
        print(f"preparing the fast engine, once for this machine: {COMPILE_ESTIMATE}", flush=True)
    if sys.stdout.isatty() and not cached:
        from noughts.terminal.preparing import compile_with_a_bar

        seconds = compile_with_a_bar(prepare)
    else:
        seconds = prepare(_progress_line)
    print(f"the fast engine is ready ({seconds:.1f} s)", flush=True)
    return 0


def _progress_line(step: Compiling) -> None:
    """A line now and then, where no terminal shows a bar (a log, make's output in CI)."""
    if step.count % 20 == 1:
        left = f"about {step.seconds_left():.0f} s left" if step.count > 1 else "timing it"
        print(f"  compiling the fast engine: {step.done:3.0%}, {step.elapsed:.0f} s so far, {left}", flush=True)


def _engine(args: argparse.Namespace) -> int:
    from noughts.engine import serve

    return serve()


def _show(args: argparse.Namespace) -> int:
    state = _start(args)
    print(state.diagram())
    print(f"position: {state.to_text()}")
    print(f"status:   {state.status}" + ("" if state.is_over else f", {state.turn.value} to move"))
    return 0


def _solve(args: argparse.Namespace) -> int:
    import time

    from noughts.ai.capabilities import capabilities
    from noughts.ai.solve import cache_dir, solve

    game = parse_spec(args.game)
    if Trait.SHIFTS in game.traits:  # gobblet's figure sets: their table's own builder
        return _solve_gobblet(cast(Gobblet, game), args.book)
    if args.book:
        raise SystemExit("noughts solve: --book is for gobblet, whose table is too big to ship")
    if capabilities(game).exact_search:
        return _solve_by_search(game)
    started = time.perf_counter()
    table = solve(game)
    print(f"game:        {game.spec}")
    stored = f" ({table.classes:,} stored up to symmetry)" if table.classes < table.positions else ""
    print(f"positions:   {table.positions:,} reachable{stored}")
    print(f"start value: {table.start_value.text} (for x, who moves first)")
    print(f"time:        {time.perf_counter() - started:.2f} s (cached in {cache_dir()})")
    return 0


def _solve_by_search(game: Game[Any, Any]) -> int:
    """A game solved by search, not a table (matryoshka): the start's value and best
    first moves, as the perfect player finds them from the shipped book."""
    import time

    from noughts.ai.base import Limits
    from noughts.ai.solve import PerfectPlayer

    started = time.perf_counter()
    analysis = PerfectPlayer().analyze(game.initial(), Limits())
    best = [info.text for info in analysis.moves if info.value == analysis.moves[0].value]
    print(f"game:        {game.spec}")
    print("table:       none: the perfect player reads the shipped opening book and searches past it")
    print(f"start value: {analysis.moves[0].value.text} (for x, who moves first)")
    print(f"best first:  {' '.join(best)} ({len(best)} of {len(analysis.moves)} moves)")
    print(f"line:        {' '.join(analysis.pv)}")
    print(f"time:        {time.perf_counter() - started:.2f} s")
    return 0


def _solve_gobblet(game: Gobblet, book: bool = False) -> int:
    """Builds (or loads) gobblet's table with a progress bar, counts its reachable
    positions and reports them with the start's value and best first moves; with `book`,
    writes the shipped opening book from it (`noughts.ai.gobblet_book`)."""
    import time

    from noughts.ai import gobblet_table
    from noughts.ai.base import Limits
    from noughts.ai.solve import PerfectPlayer, cache_dir

    started = time.perf_counter()
    try:
        table = gobblet_table.solve(game, gobblet_table.stderr_progress)
    except KeyboardInterrupt:
        # One line on a line of its own (the bar stays as it was), saying what is kept.
        end_bar = "\n" if sys.stderr.isatty() else ""
        print(f"{end_bar}noughts solve: stopped; {gobblet_table.kept(game)}", file=sys.stderr)
        return 130
    counts = gobblet_table.counts(game, gobblet_table.stderr_progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    build = gobblet_table.build_report(game) or {}
    analysis = PerfectPlayer().analyze(game.initial(), Limits())
    best = [info.text for info in analysis.moves if info.value == analysis.moves[0].value]
    print(f"game:        {game.spec}")
    print(
        f"positions:   {counts['positions']:,} reachable, {counts['symmetric_positions']:,} up to the board's"
        f" symmetries, {counts['classes']:,} up to symmetry and colour"
    )
    print(
        f"finished:    {counts['terminal_positions']:,} of them ({counts['terminal_symmetric_positions']:,}"
        f" up to symmetry, {counts['terminal_classes']:,} up to symmetry and colour)"
    )
    print(
        f"classes:     {counts['classes_won']:,} won, {counts['classes_drawn']:,} drawn, {counts['classes_lost']:,}"
        " lost for the side to move"
    )
    print(f"start value: {table.start_value.text} (for x, who moves first)")
    print(f"best first:  {' '.join(best)} ({len(best)} of {len(analysis.moves)} moves)")
    print(f"line:        {' '.join(analysis.pv)}")
    if build:
        print(
            f"build:       {build['seconds'] / 60:.1f} min, peak memory {build['peak_memory_mb']:,} MB,"
            f" {build['levels']} levels; counting {counts['seconds'] / 60:.1f} min"
        )
    print(f"time:        {time.perf_counter() - started:.2f} s (cached in {cache_dir()})")
    if book:
        from noughts.ai import gobblet_book

        if game != Gobblet():
            raise SystemExit("noughts solve: the opening book is standard gobblet's")
        written = gobblet_book.write(PerfectPlayer(), game)
        print(f"book:        {written:,} positions of the first {gobblet_book.PLIES} plies, in {gobblet_book.BOOK}")
    return 0


def _record(args: argparse.Namespace) -> int:
    record = GameRecord.read(sys.stdin if str(args.file) == "-" else args.file)
    sys.stdout.write(record.to_json_text() if args.json else record.to_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
