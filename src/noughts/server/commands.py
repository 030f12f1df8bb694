"""``noughts serve``: the web app under uvicorn."""

from __future__ import annotations

import argparse
import os
import socket
import sys


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``serve`` to the ``noughts`` command."""
    serve = sub.add_parser("serve", help="play in the browser: start the web app (http://127.0.0.1:8000)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default: %(default)s)")
    serve.add_argument(
        "--database",
        metavar="URL",
        default=os.environ.get("NOUGHTS_DATABASE_URL"),
        help="where online play keeps accounts and games (e.g. sqlite:///noughts.db or postgresql://...); "
        "default: $NOUGHTS_DATABASE_URL, else ~/.local/share/noughts/noughts.db",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("NOUGHTS_REDIS_URL"),
        help="share online games between server processes through Redis (e.g. redis://127.0.0.1:6379/0)",
    )
    serve.add_argument(
        "--workers", type=int, default=None, help="processes for the computer's thinking (default: cores, at most 4)"
    )
    serve.set_defaults(run=_serve)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from noughts.server import Settings, create_app

    if args.workers is not None and args.workers < 1:
        raise SystemExit("noughts serve: --workers must be at least 1")
    # Bound here, before uvicorn starts, so that the address printed is one that
    # listens (port 0 picks a free port) and a taken port is a clear error.
    try:
        sock = _listen(args.host, args.port)
    except (OSError, OverflowError) as e:
        print(f"noughts serve: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    settings = Settings(database=args.database, ai_workers=args.workers, redis=args.redis, warm_kernels=True)
    app = create_app(settings)
    print(f"noughts: playing at http://{shown}:{port}  (API docs: /docs; Ctrl-C stops)", flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    return 0


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
