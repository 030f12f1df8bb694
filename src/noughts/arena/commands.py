"""``noughts arena`` and ``noughts tune``: the command-line side of the arena."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from noughts.core import InvalidOptionError, NoughtsError

__all__ = ["add_commands"]


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arena`` and ``tune`` to the ``noughts`` command."""
    arena = sub.add_parser(
        "arena",
        help="a round-robin between players: results, Elo ratings, records and a chart",
        description=(
            "Every pair of players plays --games games, colours alternating, openings varied by seeded "
            "random first plies, in parallel. Players are levels (easy, medium, hard, max) or player specs "
            "(mcts:time=0.2, alphabeta:depth=6:eval=seed-lines). Ctrl-C stops and keeps the finished games."
        ),
    )
    arena.add_argument("game", help="a game spec, e.g. classic, ultimate, mnk:m=4:n=4:k=4")
    arena.add_argument("players", nargs="*", metavar="PLAYER", help="a level or a player spec")
    arena.add_argument("--games", type=_positive_int, default=10, help="games per pairing (default 10)")
    arena.add_argument(
        "--time", type=float, help="seconds per move for every player (default: each player's own budget)"
    )
    arena.add_argument("--seed", type=int, default=0, help="seed of the openings and the players (default 0)")
    arena.add_argument("--opening-plies", type=int, default=1, help="random plies before the players start (1)")
    arena.add_argument("--out", type=Path, help="where results.json, games/ and the chart go")
    arena.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a program speaking the engine protocol as a player, e.g. 'mine=noughts engine'",
    )
    arena.add_argument(
        "--ugi",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a program speaking UGI (UCI for other games) as a player; ultimate only, squares a1-i9",
    )
    arena.add_argument(
        "--openspiel",
        action="append",
        default=[],
        metavar="BOT",
        help=(
            "an OpenSpiel bot as a player (needs open-spiel): random, mcts[:time=S][:c=C][:rollouts=N]"
            "[:simulations=N], cfr[:iterations=N], policy:MODULE:FUNCTION[:KEY=VALUE...] or "
            "bot:MODULE:FUNCTION[:KEY=VALUE...]"
        ),
    )
    arena.add_argument(
        "--weights",
        action="append",
        default=[],
        metavar="NAME=FILE",
        help="evaluation weights from noughts tune as evaluator NAME (then: alphabeta:eval=NAME)",
    )
    arena.add_argument("--jobs", type=_positive_int, default=_cores(), help="games in parallel (default: the cores)")
    arena.set_defaults(run=_arena)

    tune = sub.add_parser(
        "tune",
        help="tune an evaluation function's weights by self-play (CMA-ES), resumable",
        description=(
            "Each generation, CMA-ES proposes weights; each candidate plays --games games with alpha-beta at "
            "each --depth against the weights the evaluator uses now (shipped, else hand-set; NAME@hand: the "
            "hand-set ones), its fitness the mean score over the depths. The state file is saved after every "
            "generation (run the same command again to resume); the weights at CMA-ES's mean go to "
            "STATE.weights.json, and the command prints how to check them in the arena and how to ship them."
        ),
    )
    tune.add_argument("game", help="a game spec")
    tune.add_argument("--eval", required=True, dest="eval_name", help="the evaluator, e.g. tops or tops@hand")
    tune.add_argument("--generations", type=_positive_int, default=10, help="generations in all (default 10)")
    tune.add_argument("--games", type=_positive_int, default=8, help="games per candidate (default 8)")
    tune.add_argument(
        "--depth",
        type=_depths,
        default=(2,),
        help="alpha-beta depth of the games, or several: 1,2,3 (default 2; a resumed run keeps its own)",
    )
    tune.add_argument(
        "--opening-plies",
        type=int,
        default=2,
        help="random plies before each game (default 2; more where the first player wins by force)",
    )
    tune.add_argument("--state", type=Path, help="the state file (default: tune-GAME-EVAL.state)")
    tune.add_argument("--seed", type=int, default=0)
    tune.add_argument("--jobs", type=_positive_int, default=_cores(), help="games in parallel (default: the cores)")
    tune.set_defaults(run=_tune)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _depths(text: str) -> tuple[int, ...]:
    return tuple(_positive_int(part) for part in text.split(","))


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _entrants(args: argparse.Namespace) -> list[Any]:
    from noughts.arena import ugi
    from noughts.arena.entrants import Entrant, check_entrant, parse_engine_option
    from noughts.registry import parse_spec

    game = parse_spec(args.game)
    entrants = [Entrant(spec, "ai", spec) for spec in args.players]
    entrants += [parse_engine_option(text) for text in args.engine]
    entrants += [parse_engine_option(text, "ugi") for text in args.ugi]
    if args.ugi and game.spec not in ugi.GAMES:
        raise InvalidOptionError(f"--ugi: a UGI program plays {', '.join(ugi.GAMES)} here, not {args.game}")
    if args.openspiel:
        from noughts.arena import openspiel

        if not openspiel.available():
            raise InvalidOptionError("--openspiel needs OpenSpiel: pip install open-spiel")
        openspiel.spiel_game(game)
        for spec in args.openspiel:
            openspiel.openspiel_player(spec, 0, args.time)
            entrants.append(Entrant(f"openspiel-{spec}", "openspiel", spec))
    names = [e.name for e in entrants]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise InvalidOptionError(f"each player once, please: {', '.join(duplicates)} comes twice")
    if len(entrants) < 2:
        raise InvalidOptionError("the arena needs at least two players")
    if args.time is not None and not args.time > 0:
        raise InvalidOptionError("--time must be a positive number of seconds")
    for entrant in entrants:
        check_entrant(entrant)
    return entrants


def _arena(args: argparse.Namespace) -> int:
    from rich.console import Console

    from noughts.arena import report, tournament

    entrants = _entrants(args)
    variants = tuple(_variants(args))
    plan = tournament.schedule(args.game, entrants, args.games, args.seed, args.time, args.opening_plies, variants)
    out: Path = args.out or Path(f"arena-{plan.game.replace(':', '_')}-{time.strftime('%Y%m%d-%H%M%S')}")
    settings = {
        "games_per_pairing": args.games,
        "time": args.time,
        "seed": args.seed,
        "opening_plies": args.opening_plies,
        "jobs": args.jobs,
    }
    errors = Console(stderr=True)
    failure: NoughtsError | None = None
    # `kill PID` (a script stopping a long run) keeps the finished games, as Ctrl-C does.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        if errors.is_terminal:
            _run_with_bar(plan, args.jobs, errors)
        else:
            # A log (or a test) gets one line per game instead of a redrawn bar.
            done = 0

            def log(result: tournament.GameResult) -> None:
                nonlocal done
                done += 1
                print(f"game {done}/{len(plan.tasks)}: {result.x} - {result.o}: {result.result}", file=sys.stderr)

            tournament.run(plan, args.jobs, log)
    except NoughtsError as e:
        failure = e
    if plan.interrupted:
        errors.print(f"interrupted: keeping the {len(plan.results)} finished games")
    summary = report.summarize(plan)
    report.print_summary(plan, summary, Console())
    written = report.write_files(plan, summary, settings, out)
    charts = f"  chart: {', '.join(str(p) for p in written[1:])}" if written[1:] else ""
    print(f"results: {written[0]}  records: {out / 'games'}{charts}")
    if failure is not None:
        raise failure
    return 130 if plan.interrupted else 0


def _run_with_bar(plan: Any, jobs: int, console: Any) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from noughts.arena import tournament

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, TextColumn("{task.fields[last]}"), console=console) as progress:
        task = progress.add_task(plan.game, total=len(plan.tasks), last="")

        def advance(result: tournament.GameResult) -> None:
            progress.update(task, advance=1, last=f"{result.x} - {result.o}: {result.result}")

        tournament.run(plan, jobs, advance)


@contextlib.contextmanager
def _games_counter() -> Iterator[Callable[[Any], None]]:
    """What `tune` calls after each game: on a terminal a line that counts the games
    (the generation lines print above it); in a log nothing, the generation lines
    being the progress there."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda result: None
        return
    columns = (SpinnerColumn(), TextColumn("{task.completed} games"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("tune", total=None)
        yield lambda result: progress.advance(task)


def _variants(args: argparse.Namespace) -> list[Any]:
    from noughts.arena.tune import load_weights
    from noughts.registry import parse_spec

    variants = [load_weights(text) for text in args.weights]
    game = parse_spec(args.game)
    for variant in variants:
        variant.register(game)  # here first: a weight the evaluator lacks stops the run now
    return variants


def _tune(args: argparse.Namespace) -> int:
    from noughts.ai.evaluation import shipped_weights_path
    from noughts.arena.tune import tune, weights_path
    from noughts.registry import parse_spec

    game = parse_spec(args.game)
    name = args.eval_name.strip().lower()
    state = args.state or Path(f"tune-{game.spec.replace(':', '_')}-{name.replace('@', '_')}.state")
    # `kill PID` (a script stopping a long run) keeps the saved generations, as Ctrl-C does.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        with _games_counter() as on_game:
            result = tune(
                game.spec,
                args.eval_name,
                args.generations,
                state,
                args.games,
                args.depth,
                args.seed,
                args.jobs,
                args.opening_plies,
                on_game=on_game,
            )
    except KeyboardInterrupt:
        print(f"interrupted: {state} keeps the finished generations; run the same command to resume", file=sys.stderr)
        return 130
    if result.latest is not None:
        weights = weights_path(state)
        scores = ", ".join(f"depth {d} {s:.3f}" for d, s in result.latest["depths"].items())
        print(
            f"tuned: {json.dumps(result.latest['weights'])} scoring {result.latest['score']:.3f} "
            f"({scores}) against the {result.against} weights (generation {result.latest['generation']})"
        )
        print(f"weights: {weights}")
        print("check them in the arena before trusting them, at each depth (and at every level using the evaluator):")
        for depth in result.depths:
            print(
                f"  noughts arena {game.spec} alphabeta:depth={depth}:eval={result.base_spec} "
                f"alphabeta:depth={depth}:eval=tuned --weights tuned={weights} --games 40 --seed 1 "
                f"--opening-plies {result.opening_plies}"
            )
        shipped = shipped_weights_path(game, result.eval)
        if shipped is None:
            print(f"{result.eval} does not ship other weights: use them with --weights")
        else:
            print(f"if they win clearly, ship them (then {result.eval} uses them; {result.eval}@hand the hand-set):")
            print(f"  cp {weights} {shipped}")
    return 0
