"""``noughts bot``: a program online as a bot account (`noughts.bridge.client`)."""

from __future__ import annotations

import argparse
import os


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``bot`` to the ``noughts`` command."""
    bot = sub.add_parser(
        "bot",
        help="connect a program that speaks the engine protocol to a bot account on a server",
        description="Plays the bot account of TOKEN on SERVER with COMMAND (any program that speaks the engine "
        "protocol, as 'noughts engine' does): accepts the challenges that fit the rules below, declines the others, "
        "plays every game of the bot. The program is first asked for a move in each game it accepts: one that cannot "
        "start or play keeps the bot offline. Make the account and its token on your profile page. Runs until Ctrl-C.",
    )
    bot.add_argument("--server", required=True, help="the server's address, e.g. http://127.0.0.1:8000")
    bot.add_argument(
        "--token",
        default=os.environ.get("NOUGHTS_BOT_TOKEN"),
        help="the bot's token (default: $NOUGHTS_BOT_TOKEN, which other users of the machine cannot read in ps)",
    )
    bot.add_argument("--games", default="", help="the games it accepts, comma separated (keys or specs; default: all)")
    rated = bot.add_mutually_exclusive_group()
    rated.add_argument("--rated-only", dest="rated", action="store_const", const=True, help="decline casual games")
    rated.add_argument("--casual-only", dest="rated", action="store_const", const=False, help="decline rated games")
    bot.add_argument(
        "--clock", choices=("any", "timed", "untimed"), default="any", help="games with or without a clock"
    )
    bot.add_argument("--max-games", type=int, default=2, help="games at once (default 2)")
    bot.add_argument("--poll", type=float, default=1.0, help="seconds between looks at the inbox (default 1)")
    bot.add_argument(
        "--level",
        help="the level the program plays, sent with every genmove as level=LEVEL ('noughts engine' knows easy, "
        "medium, hard and max, and plays random moves without one)",
    )
    bot.add_argument(
        "--time",
        type=float,
        metavar="SECONDS",
        help="the most a move may take, sent with every genmove as time=SECONDS (a timed game's clock may "
        "allow less; without it, an untimed game's moves take the program's own time)",
    )
    bot.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="another option sent with every genmove (again for more)",
    )
    bot.add_argument("engine", nargs=argparse.REMAINDER, help="-- and the program's command line")
    bot.set_defaults(run=_bot)


def _bot(args: argparse.Namespace) -> int:
    import shlex
    import threading

    from noughts.bridge.client import Bridge, Rules

    command = args.engine[1:] if args.engine[:1] == ["--"] else args.engine
    if not command:
        raise SystemExit("noughts bot: give the program after --, e.g. noughts bot --server URL -- noughts engine")
    if not args.token:
        raise SystemExit("noughts bot: give the bot's token (--token or NOUGHTS_BOT_TOKEN): see your profile page")
    if args.max_games < 1 or not args.poll > 0:
        raise SystemExit("noughts bot: --max-games is at least 1 and --poll above 0")
    if args.time is not None and not 0 < args.time <= 3600:
        raise SystemExit("noughts bot: --time is a number of seconds above 0, at most 3600")
    options = [*([f"level={args.level}"] if args.level else []), *args.option]
    for option in options:
        name, eq, value = option.partition("=")
        if not (name and eq and value) or any(c.isspace() for c in option) or name == "time":
            raise SystemExit(f"noughts bot: {option!r} is not a genmove option: write NAME=VALUE (and --time SECONDS)")
    games = frozenset(g.strip() for g in args.games.split(",") if g.strip())
    rules = Rules(games, args.rated, args.clock, args.max_games)
    stop = threading.Event()
    bridge = Bridge(
        args.server,
        args.token,
        shlex.join(command),
        rules,
        lambda line: print(line, flush=True),
        tuple(options),
        args.time,
    )
    try:
        bridge.run(stop, args.poll)
    except KeyboardInterrupt:
        stop.set()
        print("stopped: games in play are left to their clocks")
    return 0
