"""``noughts puzzles make``, ``verify``, ``keys`` and ``stats``: mining proved puzzles
into a file (one JSON object a line, appended, so a stopped run goes on where it
stopped), proving a file's puzzles again, their answer keys, and how they are spread."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from noughts.ai.base import AIPlayer, Limits
from noughts.core import NoughtsError
from noughts.records import GameRecord
from noughts.registry import parse_spec
from noughts.study.puzzles import mine, mine_states, prover, read_puzzles, refresh, verify

__all__ = ["add_puzzle_commands"]

#: Games of self-play one task of a parallel run plays: small, so that the bar moves
#: and a stopped run loses little; the tasks take the games in turn.
_GAMES_A_TASK = 2
#: A self-play puzzle's source names its level and game (`mine`).
_SOURCE = re.compile(r"^self-play (\S+), game (\d+)$")


def add_puzzle_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """Adds ``puzzle`` and ``puzzles``; the subcommands of ``puzzles``, for the other
    adapters' own (the server's ``calibration``)."""
    solve = sub.add_parser(
        "puzzle",
        help="solve puzzles: find the one move that wins by force",
        description="Puzzles from the shipped file (or --file), easiest first: type the winning move; the "
        "defender answers; a wrong move gets its refutation. h: hint, s: solution, n: next, q: quit.",
    )
    solve.add_argument("--game", help="only this game's puzzles (a spec: ultimate, qubic, mnk:m=15:n=15:k=5...)")
    solve.add_argument("--theme", help="only puzzles of this theme ('double threat', 'win in 2'...)")
    solve.add_argument("--id", dest="puzzle_id", help="this puzzle alone")
    solve.add_argument("--file", type=Path, help="a file of puzzles made by 'noughts puzzles make'")
    solve.add_argument("--seed", type=int, help="the order within each difficulty band")
    solve.set_defaults(run=_solve)
    puzzles = sub.add_parser("puzzles", help="mine proved puzzles from self-play, or prove a file of them again")
    # The metavar names the terminal's own; the server adds `calibration` (listed below it).
    what = puzzles.add_subparsers(dest="puzzles_command", metavar="make|verify|keys|stats|...", required=True)
    make = what.add_parser(
        "make",
        help="find positions where exactly one move wins by force, proved, in self-play",
        description="Self-play of a level from seeded random openings; every position whose every move an "
        "exact prover values, with exactly one winning move, becomes a puzzle. Appends to --out; positions "
        "already there are skipped, so a stopped run goes on.",
    )
    make.add_argument(
        "game", help="classic, classic:forget, mnk, matryoshka, gobblet (once solved), ultimate, nine-board, qubic"
    )
    make.add_argument("--count", type=int, default=20, help="puzzles to add (default 20)")
    make.add_argument("--out", type=Path, default=Path("puzzles.jsonl"), help="the file (default puzzles.jsonl)")
    make.add_argument(
        "--seed",
        type=int,
        help="the first self-play game's number (default: the one after the last game of this level the "
        "file's puzzles came from, so that a stopped run goes on; 0 for a new file)",
    )
    make.add_argument("--time", type=float, default=0.5, help="seconds the prover may take per position")
    make.add_argument(
        "--nodes",
        type=int,
        help="a budget of nodes for the prover per position, instead of --time: a seed then mines the same "
        "puzzles on any machine, however busy",
    )
    make.add_argument("--level", default="medium", help="the level that plays the self-play games")
    make.add_argument("--jobs", type=int, default=1, help="processes mining at once")
    make.add_argument("--max-plies", type=int, help="only puzzles won within this many plies")
    make.add_argument(
        "--min-plies", type=int, default=1, help="only puzzles won in this many plies or more (3: no wins in one)"
    )
    make.add_argument(
        "--per-game",
        type=int,
        help="at most this many puzzles from one game (once a forced win is on the board, the game's later "
        "positions are often the same puzzle a move shorter)",
    )
    make.add_argument(
        "--from-ply",
        type=int,
        default=0,
        help="examine self-play positions from this ply on (earlier ones are rarely provable: ultimate's "
        "puzzles start near ply 45)",
    )
    make.add_argument(
        "--from",
        dest="records",
        type=Path,
        nargs="+",
        metavar="RECORD",
        help="look in these game records (text or JSON, one game a file) instead of self-play; "
        "records of other games are skipped",
    )
    make.set_defaults(run=_make)
    check = what.add_parser("verify", help="prove every puzzle of a file again; exit 1 if one fails")
    check.add_argument("file", type=Path)
    check.add_argument(
        "--refresh",
        action="store_true",
        help="when every puzzle holds, write the file again with themes and difficulties derived anew",
    )
    check.add_argument(
        "--drop-unproved",
        action="store_true",
        help="write the file again without the puzzles that do not hold (with --refresh: the rest refreshed)",
    )
    check.set_defaults(run=_verify)
    keys = what.add_parser(
        "keys",
        help="work out the answer keys of a file's puzzles (gobblet, qubic): judged without a search",
        description="Judges, with the exact prover, every move a solver can make on the way to each "
        "puzzle's win, and writes it all down in one file (noughts.study.answer_keys): the shipped puzzles "
        "of gobblet (whose prover is a table each user builds: noughts solve gobblet), qubic and the m,n,k "
        "boards from 5x5 (whose searches take seconds) are judged from these keys. A game whose prover is "
        "not here keeps the keys the file has.",
    )
    keys.add_argument("file", type=Path, nargs="?", help="the puzzles (default: the shipped ones)")
    keys.add_argument(
        "--game",
        action="append",
        help="work out only this game's keys, keeping the others' (repeatable; default: gobblet, qubic and the "
        "m,n,k boards from 5x5)",
    )
    keys.add_argument("--out", type=Path, help="the keys' file (default: the shipped one)")
    keys.set_defaults(run=_keys)
    stats = what.add_parser(
        "stats",
        help="how a file's puzzles are spread: per game, the count, wins in one, lengths and themes",
        description="A table (Markdown) of each game's puzzles: how many, the share of wins in one, how many "
        "of 1, 3, 5 and 7 plies or more, and how many of each theme.",
    )
    stats.add_argument("file", type=Path, nargs="?", help="the puzzles (default: the shipped ones)")
    stats.set_defaults(run=_stats)
    return what


def _mine_job(
    job: tuple[str, int, int, Limits, str, list[str], int, int | None, int | None, int],
) -> list[dict[str, Any]]:
    """One task of a parallel run: the puzzles of `_GAMES_A_TASK` games from `first`."""
    spec, count, first, limits, level, known, from_ply, per_game, max_plies, min_plies = job
    found = mine(
        parse_spec(spec), count, first, limits, level, known=set(known), from_ply=from_ply,
        per_game=per_game, games=_GAMES_A_TASK, max_plies=max_plies, min_plies=min_plies,
    )  # fmt: skip
    return [puzzle.to_json() for puzzle in found]


def _resume_at(puzzles: list[Any], spec: str, level: str) -> int:
    """The game after the last one of `level`'s self-play that `puzzles` of `spec`
    came from (0 when none did): where a stopped run goes on."""
    games = [
        int(m.group(2)) for p in puzzles if p.spec == spec and (m := _SOURCE.match(p.source)) and m.group(1) == level
    ]
    return max(games) + 1 if games else 0


def _make(args: argparse.Namespace) -> int:
    if (
        args.count < 1
        or args.jobs < 1
        or not args.time > 0
        or (args.nodes is not None and args.nodes < 1)
        or args.from_ply < 0
        or (args.per_game is not None and args.per_game < 1)
        or (args.max_plies is not None and args.max_plies < 1)
        or args.min_plies < 1
    ):
        raise SystemExit(
            "noughts puzzles make: --count, --jobs, --nodes, --per-game, --max-plies and --min-plies take whole "
            "numbers from 1, "
            "--from-ply from 0, --time seconds above 0"
        )
    game = parse_spec(args.game)
    there = read_puzzles(args.out)
    known = [p.position for p in there if p.spec == game.spec]
    if args.records:
        return _make_from_records(args, game, set(known))
    seed = _resume_at(there, game.spec, args.level) if args.seed is None else args.seed
    errors = Console(stderr=True)
    if seed and args.seed is None:
        errors.print(f"going on from self-play game {seed} (the file's last one of {args.level} was {seed - 1})")
    progress = Progress(
        TextColumn(f"mining {game.spec}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=errors,
        disable=not errors.is_terminal,
    )
    added = 0
    with progress, args.out.open("a", encoding="utf-8") as out:
        task = progress.add_task("mine", total=args.count)
        if args.jobs == 1:
            found = mine(
                game, args.count, seed, _limits(args), args.level, known=set(known), from_ply=args.from_ply,
                per_game=args.per_game, max_plies=args.max_plies, min_plies=args.min_plies,
            )  # fmt: skip
            for puzzle in found:
                out.write(json.dumps(puzzle.to_json()) + "\n")
                out.flush()
                added += 1
                progress.update(task, completed=added)
        else:
            added = _make_in_parallel(args, game.spec, seed, known, out, lambda n: progress.update(task, completed=n))
    print(f"{added} puzzles added to {args.out} ({len(known) + added} of {game.spec} there)")
    return 0


def _limits(args: argparse.Namespace) -> Limits:
    """The prover's budget per position: --nodes when given, else --time."""
    return Limits(nodes=args.nodes) if args.nodes is not None else Limits(time=args.time)


def _make_in_parallel(args: argparse.Namespace, spec: str, seed: int, known: list[str], out: Any, moved: Any) -> int:
    """`--jobs` processes take the games in tasks of `_GAMES_A_TASK`, in turn from
    `seed`; each task's puzzles are written as it ends (so the bar moves and a stopped
    run keeps them), until `--count` are written. How many were."""
    written = set(known)  # two tasks may meet the same position: it is kept once
    added = 0
    next_game = seed
    with ProcessPoolExecutor(args.jobs) as pool:
        running: set[Future[list[dict[str, Any]]]] = set()

        def submit() -> None:
            nonlocal next_game
            job = (
                spec, args.count, next_game, _limits(args), args.level, sorted(written), args.from_ply, args.per_game,
                args.max_plies, args.min_plies,
            )  # fmt: skip
            running.add(pool.submit(_mine_job, job))
            next_game += _GAMES_A_TASK

        for _ in range(args.jobs):
            submit()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                running.discard(future)
                for data in future.result():
                    if data["position"] in written or added >= args.count:
                        continue
                    written.add(data["position"])
                    out.write(json.dumps(data) + "\n")
                    added += 1
                out.flush()
                moved(added)
                if added < args.count:
                    submit()
            if added >= args.count:
                for future in running:
                    future.cancel()
                break
    return added


def _solve(args: argparse.Namespace) -> int:
    from noughts.study.puzzles import SHIPPED
    from noughts.terminal.solving import Solving, choose_puzzles

    try:
        found = choose_puzzles(args.file or SHIPPED, args.game, args.theme, args.seed)
    except NoughtsError as e:
        raise SystemExit(f"noughts puzzle: {e}") from None
    if args.puzzle_id:
        found = [p for p in found if p.id == args.puzzle_id]
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (history and cursor keys at the prompt)
    return Solving(Console(highlight=False), input).run(found)


def _make_from_records(args: argparse.Namespace, game: Any, known: set[str]) -> int:
    """`noughts puzzles make GAME --from RECORD...`: the puzzles in recorded games."""
    player = prover(game)
    added = skipped = 0
    with args.out.open("a", encoding="utf-8") as out:
        for path in args.records:
            try:
                record = GameRecord.read(path)
            except (OSError, NoughtsError) as e:
                raise SystemExit(f"noughts puzzles make: {path}: {e}") from None
            if record.game.spec != game.spec:
                skipped += 1
                continue
            for puzzle in mine_states(record.replay(), player, _limits(args), f"record {path.name}", known):
                out.write(json.dumps(puzzle.to_json()) + "\n")
                out.flush()
                added += 1
                if added >= args.count:
                    break
            if added >= args.count:
                break
    note = f"; {skipped} records of other games skipped" if skipped else ""
    print(f"{added} puzzles added to {args.out} from {len(args.records)} records{note}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Each puzzle proved by a new prover within `VERIFY_LIMITS` (nodes, not seconds):
    the same answer on any machine, however busy. A game whose prover is not here
    (gobblet before its table is built) is checked against its answer keys
    (`verify_by_key`), or skipped, with the reason, where it has none. A failure does
    not stop the run: the summary counts each game's puzzles checked, passed, failed
    and skipped, and the exit status is 1 only when one failed."""
    from noughts.study.answer_keys import answer_keys, verify_by_key

    puzzles = read_puzzles(args.file)
    keys = answer_keys()
    tally: dict[str, dict[str, int]] = {}
    why_skipped: dict[str, str] = {}
    by_key: set[str] = set()
    kept = []
    for number, puzzle in enumerate(puzzles, start=1):
        counts = tally.setdefault(puzzle.spec, {"checked": 0, "passed": 0, "failed": 0, "skipped": 0})
        refreshed = puzzle
        try:
            player: AIPlayer | None = prover(parse_spec(puzzle.spec))
        except NoughtsError as e:
            player = None
            unproved = str(e)
        try:
            if player is not None:
                problem = verify(puzzle, player)
                if problem is None and args.refresh:
                    refreshed = refresh(puzzle, prover(parse_spec(puzzle.spec)))
            elif puzzle.id in keys:
                by_key.add(puzzle.spec)
                problem = verify_by_key(puzzle, keys[puzzle.id])
            else:
                counts["skipped"] += 1
                why_skipped[puzzle.spec] = f"no prover here and no answer key ({unproved})"
                kept.append(puzzle)
                continue
        except NoughtsError as e:
            problem = f"{type(e).__name__}: {e}"
        counts["checked"] += 1
        if problem is not None:
            counts["failed"] += 1
            print(f"puzzle {number} {puzzle.id} ({puzzle.spec}, {puzzle.position}): {problem}", file=sys.stderr)
        else:
            counts["passed"] += 1
            kept.append(refreshed)
    failed = sum(c["failed"] for c in tally.values())
    for spec, c in tally.items():
        how = " (from its answer keys: the prover is not here)" if spec in by_key else ""
        skipped = f", {c['skipped']} skipped: {why_skipped[spec]}" if c["skipped"] else ""
        print(f"{spec}: {c['checked']} checked{how}, {c['passed']} passed, {c['failed']} failed{skipped}")
    checked = sum(c["checked"] for c in tally.values())
    print(f"{checked - failed} of {len(puzzles)} puzzles proved or checked, {failed} failed")
    if (args.refresh and not failed) or args.drop_unproved:
        args.file.write_text("".join(json.dumps(p.to_json()) + "\n" for p in kept), encoding="utf-8")
        print(f"{len(kept)} puzzles written again to {args.file}")
    return 1 if failed and not args.drop_unproved else 0


def _keys(args: argparse.Namespace) -> int:
    """The answer keys of a file's puzzles, the games given or every one that gets keys
    (`keyed_game`), in one file: a game whose prover this machine lacks (gobblet before
    its table is built) keeps the keys the file has for its puzzles."""
    from noughts.study.answer_keys import KEYS, answer_keys, keyed_game, write_keys
    from noughts.study.puzzles import SHIPPED

    puzzles = read_puzzles(args.file or SHIPPED)
    try:
        games = {spec: parse_spec(spec) for spec in {p.spec for p in puzzles} | set(args.game or [])}
    except NoughtsError as e:
        raise SystemExit(f"noughts puzzles keys: {e}") from None
    keyed_specs = {spec for spec, game in games.items() if keyed_game(game)}
    if args.game and not set(args.game) <= keyed_specs:
        raise SystemExit(
            f"noughts puzzles keys: answer keys are for gobblet, qubic and m,n,k from 5x5, not {args.game}"
        )
    wanted = set(args.game or keyed_specs)
    provers: dict[str, AIPlayer] = {}
    for spec in sorted(wanted):
        try:
            provers[spec] = prover(games[spec])
        except NoughtsError as e:
            print(f"{spec}: the keys there are kept ({e})", file=sys.stderr)
    out = args.out or KEYS
    kept = answer_keys(out)
    keyed = [p for p in puzzles if p.spec in keyed_specs]
    missing = [p.id for p in keyed if p.spec in wanted and p.spec not in provers and p.id not in kept]
    if missing:
        raise SystemExit(f"noughts puzzles keys: no prover here for the puzzles {', '.join(missing)}, and no keys kept")
    errors = Console(stderr=True)
    with Progress(
        TextColumn("answer keys"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=errors,
        disable=not errors.is_terminal,
    ) as progress:  # fmt: skip
        task = progress.add_task("keys", total=len(keyed))
        written = write_keys(progress.track(keyed, task_id=task), lambda p: provers.get(p.spec), out, kept)
    made = sum(1 for p in keyed if p.spec in provers)
    games_made = ", ".join(sorted(provers))
    print(f"{written} answer keys written to {out}: {made} worked out ({games_made}), {written - made} kept")
    return 0


def _stats(args: argparse.Namespace) -> int:
    from noughts.study.puzzle_stats import spread_by_game
    from noughts.study.puzzles import SHIPPED

    puzzles = read_puzzles(args.file or SHIPPED)
    if not puzzles:
        raise SystemExit(f"noughts puzzles stats: no puzzles in {args.file or SHIPPED}")
    print("| game | puzzles | wins in one | 3 plies | 5 plies | 7+ plies | themes |")
    print("|---|---|---|---|---|---|---|")
    for s in spread_by_game(puzzles):
        themes = ", ".join(f"{theme} {n}" for theme, n in sorted(s.themes.items(), key=lambda t: (-t[1], t[0])))
        print(
            f"| `{s.spec}` | {s.count} | {s.plies[1]} ({s.one_move_share:.0%}) | {s.plies[3]} | {s.plies[5]} "
            f"| {s.plies[7]} | {themes} |"
        )
    print(f"| all | {len(puzzles)} | {sum(p.plies == 1 for p in puzzles)} | | | | |")
    return 0
