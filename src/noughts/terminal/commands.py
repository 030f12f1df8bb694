"""The terminal subcommands of ``noughts``: ``play``, ``replay``, ``analyze`` and ``review``."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import typing
from pathlib import Path
from typing import Any

from rich.console import Console

from noughts import i18n
from noughts.ai.levels import DEFAULT_LEVEL, LEVELS
from noughts.core import NoughtsError, Player
from noughts.i18n import LANGUAGES
from noughts.records import GameRecord
from noughts.registry import GAMES, parse_spec, spec_help

__all__ = ["add_commands"]


def _game_options() -> dict[str, type]:
    """Every option some game takes, with its type, for ``--forget``, ``--keep 4``..."""
    options: dict[str, type] = {}
    for entry in GAMES.values():
        hints = typing.get_type_hints(entry.cls)
        for name in entry.option_names():
            options.setdefault(name, hints[name])
    return options


def add_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """Add ``play``, ``replay``, ``analyze``, ``review`` and the puzzles' commands to the
    ``noughts`` command; the subcommands of ``puzzles``, for the other adapters' own."""
    play = sub.add_parser(
        "play",
        help="play a game in the terminal (without GAME: a menu)",
        description="Play against the computer or a friend. Game options go in the spec "
        "(classic:forget), as words (classic forget keep=4) or as flags (classic --forget --keep 4).",
    )
    play.add_argument("game", nargs="?", help=spec_help())
    play.add_argument("options", nargs="*", help="game options: forget, keep=4, m=5 ...")
    flags = play.add_argument_group("game options as flags", "the options of `noughts games`, e.g. --forget --keep 4")
    for name, kind in _game_options().items():
        if kind is bool:
            flags.add_argument(
                f"--{name}", dest=f"opt_{name}", action="store_const", const="true", help=argparse.SUPPRESS
            )
        else:
            flags.add_argument(f"--{name}", dest=f"opt_{name}", metavar=name.upper(), help=argparse.SUPPRESS)
    play.add_argument("--as", dest="side", choices=["x", "o"], default="x", help="your side (x moves first)")
    play.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL, help="the computer's strength")
    play.add_argument("--vs", choices=["computer", "human"], default="computer", help="the opponent")
    play.add_argument("--explain", action="store_true", help="show the value the computer saw in every move")
    play.add_argument("--record", type=Path, metavar="FILE", help="write the game record here (.json: JSON)")
    play.add_argument("--seed", type=int, help="make the computer's choices reproducible")
    play.add_argument("--time", type=float, metavar="S", help="seconds the computer may think per move")
    play.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        help="the language of the game's texts (default: LC_ALL, LC_MESSAGES or LANG; else English)",
    )
    play.set_defaults(run=_play)

    replay = sub.add_parser("replay", help="step through a saved game record")
    replay.add_argument("file", type=Path, help="a record file, text or JSON")
    replay.set_defaults(run=_replay)

    analyze = sub.add_parser("analyze", help="the computer's analysis of a position: every move's value")
    analyze.add_argument("game", help=spec_help())
    analyze.add_argument("position", nargs="*", help="a position text (default: the start), e.g. 'x.o/.x./..o x'")
    analyze.add_argument("--moves", nargs="+", default=[], metavar="M", help="moves to play first")
    analyze.add_argument("--level", choices=LEVELS, default="max")
    analyze.add_argument("--time", type=float, metavar="S", help="seconds to think")
    analyze.add_argument("--seed", type=int)
    analyze.set_defaults(run=_analyze)

    review = sub.add_parser(
        "review",
        help="review a game: every move valued and classed, the better moves, accuracy",
        description="Every move of a game record valued by the computer: best, good, inaccuracy, mistake or "
        "blunder by the chance it gave away, with the better move and its line, and each player's accuracy.",
    )
    review.add_argument("file", type=Path, help="a record file, text or JSON ('-' for stdin)")
    review.add_argument("--level", choices=LEVELS, default="max", help="the reviewer's level (default: max)")
    review.add_argument("--player", metavar="SPEC", help="review with this player instead, e.g. alphabeta:depth=6")
    review.add_argument(
        "--time", type=float, metavar="S", default=1.0, help="seconds of thought per position (default: 1)"
    )
    review.add_argument("--json", action="store_true", help="print the review as JSON, one object per move")
    review.add_argument("--plot", type=Path, metavar="FILE.png", help="also draw the evaluation graph into FILE")
    review.set_defaults(run=_review)

    from noughts.terminal.puzzles import add_puzzle_commands

    return add_puzzle_commands(sub)


def _console() -> Console:
    """The console to draw on. With NO_COLOR set, no styles at all: the boards carry their
    meaning in characters, and bold or reverse alone would only clutter logs and pipes."""
    return Console(color_system=None if os.environ.get("NO_COLOR") else "auto")


def _enable_line_editing() -> None:
    # Importing readline gives input() history and cursor keys where it exists.
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def _spec(args: argparse.Namespace) -> str:
    parts = [args.game, *args.options]
    for name in _game_options():
        value = getattr(args, f"opt_{name}")
        if value is not None:
            parts.append(f"{name}={value}")
    return ":".join(parts)


def _play(args: argparse.Namespace) -> int:
    from noughts.terminal.menu import choose
    from noughts.terminal.session import INTERRUPTED, PlayConfig, Session

    i18n.use(args.lang or i18n.language_of_environment())
    console = _console()
    if sys.stdin.isatty():
        _enable_line_editing()
    if args.game is None:
        try:
            choice = choose(console, input)
        except EOFError:
            console.print()
            return 0
        except KeyboardInterrupt:
            console.print()
            return INTERRUPTED
        spec, two_humans, side, level = choice.spec, choice.two_humans, choice.side, choice.level
    else:
        spec, two_humans, side, level = _spec(args), args.vs == "human", Player.from_text(args.side), args.level
    if args.time is not None and not args.time > 0:
        raise SystemExit("noughts play: --time takes a positive number of seconds")
    config = PlayConfig(
        game=parse_spec(spec),
        two_humans=two_humans,
        side=side,
        level=level,
        explain=args.explain,
        record=args.record,
        seed=args.seed,
        think_time=args.time,
    )
    return Session(config, console).run()


def _replay(args: argparse.Namespace) -> int:
    from noughts.terminal.review import replay

    try:
        record = GameRecord.read(args.file)
    except OSError as e:
        print(f"noughts replay: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return 2
    interactive = sys.stdin.isatty()
    if interactive:
        _enable_line_editing()
    return replay(_console(), record, input if interactive else None)


def _analyze(args: argparse.Namespace) -> int:
    from noughts.terminal.review import show_analysis

    game = parse_spec(args.game)
    position = " ".join(args.position)
    state: Any = game.parse_position(position) if position and position != "start" else game.initial()
    for move in args.moves:
        state = state.play_text(move)
    if state.is_over:
        raise NoughtsError(f"the game is over ({state.outcome.describe()}): there is nothing to analyse")
    if args.time is not None and not args.time > 0:
        raise SystemExit("noughts analyze: --time takes a positive number of seconds")
    show_analysis(_console(), state, args.level, args.time, args.seed)
    return 0


def _review(args: argparse.Namespace) -> int:
    from noughts.ai.base import Limits, parse_player
    from noughts.ai.levels import level_player, level_spec
    from noughts.study.review import review_record
    from noughts.terminal.reviewing import plot_review, print_review, progress_bar, write_json
    from noughts.terminal.thinking import table_note

    if not args.time > 0:
        raise SystemExit("noughts review: --time takes a positive number of seconds")
    record = GameRecord.read(sys.stdin if str(args.file) == "-" else args.file)
    if args.player:
        reviewer, name = parse_player(args.player), args.player
    else:
        reviewer = level_player(record.game, args.level, mistakes=False)
        name = f"{args.level} ({level_spec(record.game, args.level)})"
    errors = Console(stderr=True)
    note = None if args.player else table_note(record.game, args.level)
    if note:
        errors.print(note, highlight=False)
    progress, advance = progress_bar(errors)
    with progress if errors.is_terminal else contextlib.nullcontext():
        review = review_record(record, reviewer, Limits(time=args.time), name, advance)
    if args.json:
        write_json(review, sys.stdout)
    else:
        print_review(_console(), review, record.x, record.o)
    if args.plot:
        plot_review(review, args.plot)
        print(f"graph: {args.plot}", file=sys.stderr)
    return 0
