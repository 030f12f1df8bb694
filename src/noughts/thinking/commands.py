"""``noughts worker``: a process that thinks for servers started with ``--workers-on``
(`noughts.thinking.worker`), and the kernels' preparation it shares with ``noughts serve``."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``worker`` to the ``noughts`` command."""
    worker = sub.add_parser(
        "worker",
        help="think for servers started with --workers-on: take their jobs from Redis",
        description="Takes the computer's jobs (moves, analyses, reviews, puzzle searches) of every server started "
        "with --workers-on URL: moves on threads of their own, the other lanes one job at a time, the most urgent "
        "first; on this machine or any other that reaches the Redis. Start as many as there are cores to spare. Runs "
        "until Ctrl-C or SIGTERM (after its current jobs); a worker killed mid-job has its job given to another.",
    )
    worker.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("NOUGHTS_WORKERS_ON"),
        help="the Redis the servers name with --workers-on (default: $NOUGHTS_WORKERS_ON); "
        "$NOUGHTS_REDIS_PREFIX (default noughts:) as theirs",
    )
    worker.add_argument(
        "--lanes",
        default="move,analysis,review,mining",
        help="the lanes it takes jobs from, comma separated (default: %(default)s); a worker that takes moves "
        "thinks about them beside its other job, never after it",
    )
    worker.add_argument(
        "--move-threads",
        type=_at_least_one,
        default=None,
        metavar="N",
        help="moves thought about at once (default: 4): a house bot's move is mostly waiting on Redis",
    )
    worker.set_defaults(run=_worker)


def _at_least_one(text: str) -> int:
    count = int(text)
    if count < 1:
        raise argparse.ArgumentTypeError(f"{count} is not 1 or more")
    return count


def _worker(args: argparse.Namespace) -> int:
    from noughts.thinking.broker import RedisUnreachableError, check_redis
    from noughts.thinking.worker import MOVE_THREADS, configure_logging, parse_lanes, run_worker

    if not args.redis:
        raise SystemExit("noughts worker: give the servers' Redis (--redis URL or NOUGHTS_WORKERS_ON)")
    try:
        lanes = parse_lanes(args.lanes)
    except ValueError as e:
        raise SystemExit(f"noughts worker: --lanes: {e}") from None
    try:
        check_redis(args.redis)
    except RedisUnreachableError as e:
        print(f"noughts worker: not starting: {e}", file=sys.stderr)
        return 2
    prepare_kernels("worker")
    configure_logging()
    prefix = os.environ.get("NOUGHTS_REDIS_PREFIX", "noughts:")
    threads = args.move_threads or MOVE_THREADS
    run_worker(args.redis, prefix, lanes, move_threads=threads)
    return 0


def prepare_kernels(command: str) -> None:
    """Compiles the computer's fast engine before `noughts <command>` starts thinking
    (serve: before the address is printed), when numba's cache does not hold it yet (a
    fresh install): otherwise every thinking worker would
    compile it at once, and the first players' moves would time out meanwhile. One
    process of its own does it (the server itself never loads numba); the workers then
    load the cache in a second or two. Says nothing when the cache is warm."""
    done = subprocess.run([sys.executable, "-m", "noughts.cli", "prepare", "--quiet"], check=False)
    if done.returncode != 0:
        # The readable players still play; the compiled ones will compile on first use.
        print(f"noughts {command}: could not prepare the fast engine; carrying on without it", file=sys.stderr)
