"""``noughts serve``: the web app under uvicorn (``noughts worker``, which thinks for
servers, is the thinking service's: `noughts.thinking.commands`)."""

from __future__ import annotations

import argparse
import gc
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from noughts.thinking.commands import prepare_kernels

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

    from noughts.server.settings import Settings


def add_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    puzzles: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    """Adds ``serve`` to the ``noughts`` command, and
    ``calibration`` to its ``puzzles`` subcommands (`puzzles`, the terminal's)."""
    serve = sub.add_parser("serve", help="play in the browser: start the web app (http://127.0.0.1:8000)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default: %(default)s)")
    _database_argument(serve)
    serve.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("NOUGHTS_REDIS_URL"),
        help="share online games between server processes through Redis (e.g. redis://127.0.0.1:6379/0)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        default=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        help="comma-separated addresses (or *) of the reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed: the player's address then is the one the proxy names "
        "(default: $FORWARDED_ALLOW_IPS, else %(default)s, a proxy on this machine); anyone else's are ignored",
    )
    serve.add_argument(
        "--workers", type=int, default=None, help="processes for the computer's thinking (default: cores, at most 4)"
    )
    serve.add_argument(
        "--workers-on",
        metavar="URL",
        default=os.environ.get("NOUGHTS_WORKERS_ON"),
        help="leave the computer's thinking to 'noughts worker' processes on this Redis (e.g. redis://10.0.0.5:6379/0; "
        "default: $NOUGHTS_WORKERS_ON, else worker processes of this server's own, --workers)",
    )
    serve.add_argument(
        "--max-think",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the longest the computer thinks for one request that names a time (an analysis, a hint, a review's "
        "position), whatever it asks (default: as asked; the analysis board deepens to 5 s a position)",
    )
    serve.set_defaults(run=_serve)
    # Beside `noughts puzzles make|verify|...` (the terminal's), though it reads the
    # online store, which only the server's commands may.
    calibration = puzzles.add_parser(
        "calibration",
        help="how well the puzzle ratings predict the attempts stored online: per band of rating",
        description="Per band of puzzle rating: the attempts, the success their Glicko-2 expected scores "
        "predicted (solver against puzzle, both rated as before the attempt) and the success observed.",
    )
    _database_argument(calibration)
    calibration.add_argument("--game", help="only this game's puzzles (its spec)")
    calibration.add_argument("--band", type=int, default=200, help="the width of a band of rating (default 200)")
    calibration.set_defaults(run=_calibration)


def _database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        metavar="URL",
        default=os.environ.get("NOUGHTS_DATABASE_URL"),
        help="where online play keeps accounts and games (e.g. sqlite:///noughts.db or postgresql://...); "
        "default: $NOUGHTS_DATABASE_URL, else ~/.local/share/noughts/noughts.db",
    )


def _calibration(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from noughts.server.online.config import default_database_url
    from noughts.server.online.puzzle_calibration import calibration, log_loss
    from noughts.server.online.storage.db import DatabaseError
    from noughts.server.online.storage.puzzles import PuzzleBook
    from noughts.server.online.storage.store import Store

    if args.band < 1:
        raise SystemExit("noughts puzzles calibration: --band is a number of rating points, at least 1")
    url = args.database or default_database_url()
    # A report only reads: a SQLite file that is not there is not made.
    if url.startswith("sqlite") and not Path(make_url(url).database or "").is_file():
        raise SystemExit(f"noughts puzzles calibration: no database at {url}")
    try:
        store = Store(url)
    except DatabaseError as e:
        raise SystemExit(f"noughts puzzles calibration: {e}") from None
    try:
        attempts = PuzzleBook(store).rated_attempts(args.game)
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]
        raise SystemExit(f"noughts puzzles calibration: cannot read the attempts at {url}: {reason}") from None
    finally:
        store.close()
    if not attempts:
        print("no attempts stored yet" + (f" at {args.game} puzzles" if args.game else ""))
        return 0
    print("| puzzle rating | attempts | predicted | observed |")
    print("|---|---|---|---|")
    for band in calibration(attempts, args.band):
        print(f"| {band.low}-{band.low + band.width} | {band.attempts} | {band.predicted:.0%} | {band.observed:.0%} |")
    predicted = sum(a.predicted for a in attempts) / len(attempts)
    observed = sum(a.solved for a in attempts) / len(attempts)
    print(f"| all | {len(attempts)} | {predicted:.0%} | {observed:.0%} |")
    print(f"log loss {log_loss(attempts):.3f} (a coin: 0.693)")
    return 0


def _serve(args: argparse.Namespace) -> int:

    from noughts.server import Settings, create_app

    if args.workers is not None and args.workers < 1:
        raise SystemExit("noughts serve: --workers must be at least 1")
    if args.max_think is not None and not args.max_think > 0:
        raise SystemExit("noughts serve: --max-think must be more than 0 seconds")
    for url in filter(None, (args.redis, args.workers_on)):
        from noughts.thinking.broker import RedisUnreachableError, check_redis

        # Checked before listening: a server that cannot fan out would take players'
        # moves and never show them to opponents on the other processes, one that cannot
        # reach its workers would never think.
        try:
            check_redis(url)
        except RedisUnreachableError as e:
            print(f"noughts serve: not starting: {e}", file=sys.stderr)
            return 2
    # Bound here, before uvicorn starts, so that the address printed is one that
    # listens (port 0 picks a free port) and a taken port is a clear error.
    try:
        sock = _listen(args.host, args.port)
    except (OSError, OverflowError) as e:
        print(f"noughts serve: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    prepare_kernels("serve")
    settings = Settings(
        database=args.database,
        ai_workers=args.workers,
        redis=args.redis,
        warm_kernels=True,
        max_think=args.max_think,
        workers_on=args.workers_on,
        announce=lambda what: print(f"noughts: {what}...", flush=True),
    )
    app = create_app(settings)
    _tune_gc()
    address = f"noughts: playing at http://{shown}:{port}  (API docs: /docs; Ctrl-C stops)"
    from noughts.server.connections import connection_cap, raise_open_files

    connections = connection_cap(raise_open_files())
    config = uvicorn_config(app, settings, args.forwarded_allow_ips, connections)
    try:
        ready_server(config, address).run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn has shut down cleanly and raises the signal again: Ctrl-C is how a
        # server is stopped, not a failure (make run says nothing more).
        print("noughts: stopped", flush=True)
    return 0


def ready_server(config: uvicorn.Config, address: str) -> uvicorn.Server:
    """uvicorn's server for `config`, which prints `address` once ready."""
    import uvicorn

    class ReadyServer(uvicorn.Server):
        """uvicorn's server, which prints the address once the app has started (its
        thinking workers warmed up: `ThinkingPool.start`): a request sent before then
        waits in the socket's backlog, and the first move is not charged a cold worker."""

        def __init__(self, config: uvicorn.Config, address: str) -> None:
            super().__init__(config)
            self.address = address

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.should_exit:
                print(self.address, flush=True)

    return ReadyServer(config, address)


#: Seconds an idle HTTP connection is kept open for the client's next request. uvicorn's
#: own 5 s is shorter than clients and proxies keep theirs (nginx's upstream connections
#: and cloud load balancers 60 s, browsers minutes), and a request sent on a connection
#: just as the server closes it is lost unanswered ("Server disconnected without sending
#: a response"). A client that keeps connections for less is not safe either on a busy
#: machine, where it may read an answer seconds after it was sent and count its idle time
#: from then: the tests' clients keep them 2 s and a join still failed so in CI, and the
#: tournament bench's overloaded clients lost GETs so.
KEEP_ALIVE_SECONDS = 75


def uvicorn_config(
    app: FastAPI, settings: Settings, forwarded_allow_ips: str, connections: int | None = None
) -> uvicorn.Config:
    """How `noughts serve` runs `app` under uvicorn, taking at most `connections` at
    once (None: as many as come)."""
    import uvicorn

    from noughts.server.connections import HeadersDeadline

    # Frames are refused by the protocol from 16 times the app's own limit: uvicorn would
    # otherwise read up to 16 MiB before the app could look at a frame's size.
    max_frame = 16 * settings.online.max_frame
    # No permessage-deflate: online frames are small, and compressing them took a
    # tenth of the server's CPU (bench/online_load.py).
    # The client's address (what log-ins are braked by) is the proxy's word only when
    # the proxy is one of `forwarded_allow_ips`: said here, not left to uvicorn's default.
    return uvicorn.Config(
        app,
        log_level="warning",
        ws_per_message_deflate=False,
        ws_max_size=max_frame,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        # Headers within a deadline, and a cap on connections (503 beyond it): one
        # client's idle or trickling connections cannot take every file the process may
        # open (noughts.server.connections).
        http=HeadersDeadline,
        limit_concurrency=connections,
    )


def _tune_gc() -> None:
    """Every open websocket holds a few hundred objects (the app's stack of coroutines),
    and the collector's full passes scan them all: with 2,000 sockets a pass took a
    third of a second, stalling every game (bench/online_load.py). What start-up made
    is frozen out of those passes, and a full pass waits for a thousand younger ones
    instead of ten (reference cycles that live that long before dying are rare). The
    youngest generation is larger too: what a socket allocates to wait for a player's
    next move lives for seconds, and was scanned again and again before it died."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, gc.get_threshold()[1], 1000)


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
