"""One player's requests sent at once, against `noughts serve`: what a hostile (or
impatient) player gets by sending the same check-then-write request many times
together. Each of --players signed-up players sends, all of them at the same moment:

- `--seeks` "play now" in all (split evenly among the players; each request one of
  three games), then asks its pairing once;
- 10 bot-account creations (a player may have 5);
- 10 tournament creations (a player may have 5 not finished).

It reports the answers' statuses (a 5xx is a failure) and checks, in the database:
exactly one seek a player; every game quick pairing started seated on both its
players' seeks and no player in two of them; at most 5 bot accounts and 5 tournaments
a player.

    .venv/bin/python bench/online_races.py [--players 30] [--seeks 1200]
        [--database postgresql://... [--redis redis://... --servers 2]]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections import Counter
from typing import Any, cast

import httpx2
from sqlalchemy import Table, create_engine, func, select

from noughts.server.online.config import OnlineConfig
from noughts.server.online.service.accounts import MAX_ENGINE_BOTS
from noughts.server.online.storage.db import normalise_url
from noughts.server.online.storage.tables import Game, Seek, Tournament, User
from online_load import COOKIE, server_options, servers

SPECS = ("ultimate", "classic", "qubic")
MOST_TOURNAMENTS = OnlineConfig().tournaments_per_player  # what `noughts serve` runs with
_users, _seeks = cast(Table, User.__table__), cast(Table, Seek.__table__)
_games, _tournaments = cast(Table, Game.__table__), cast(Table, Tournament.__table__)


async def sign_up(base: str) -> httpx2.AsyncClient:
    """A player's own client (its cookie its own: clients never share a jar)."""
    client = httpx2.AsyncClient(base_url=base, timeout=120, limits=httpx2.Limits(max_connections=None))
    answer = await client.post("/api/online/signup", json={"name": f"r{secrets.token_hex(6)}", "password": "x" * 12})
    answer.raise_for_status()
    client.cookies.set(COOKIE, answer.cookies[COOKIE])
    return client


def bot_name() -> str:
    return f"b{secrets.token_hex(6)}"


async def together(requests: list[Any]) -> Counter[int]:
    """Awaits `requests` (coroutines giving responses) all at once; their statuses."""
    answers = await asyncio.gather(*requests, return_exceptions=True)
    return Counter(a.status_code if isinstance(a, httpx2.Response) else 0 for a in answers)


def shown(phase: str, statuses: Counter[int]) -> bool:
    """Prints a phase's statuses (0: no answer); whether none was a 5xx or missing."""
    print(f"{phase}: " + ", ".join(f"{n} x {s or 'no answer'}" for s, n in sorted(statuses.items())), flush=True)
    return all(0 < s < 500 for s in statuses)


async def run(args: argparse.Namespace, database: str, bases: list[str]) -> bool:
    players = [await sign_up(bases[i % len(bases)]) for i in range(args.players)]
    names = []
    for client in players:
        names.append((await client.get("/api/online/me")).json()["user"]["name"])
    each = max(1, args.seeks // args.players)
    ok = shown(
        f"{each * args.players} seeks, {each} a player at once",
        await together(
            [
                c.post("/api/online/pairing", json={"spec": SPECS[i % len(SPECS)], "minutes": 3, "increment": 2})
                for c in players
                for i in range(each)
            ]
        ),
    )
    ok &= shown("then each asks its pairing", await together([c.get("/api/online/pairing") for c in players]))
    ok &= shown(
        "10 bot accounts a player at once",
        await together(
            [
                c.post("/api/online/me/bots", json={"name": f"b{secrets.token_hex(6)}"})
                for c in players
                for _ in range(10)
            ]
        ),
    )
    body = {"kind": "arena", "spec": "classic", "duration": 10, "starts_in": 60}
    ok &= shown(
        "10 tournaments a player at once",
        await together(
            [c.post("/api/online/tournaments", json={**body, "name": f"t{i}"}) for c in players for i in range(10)]
        ),
    )
    for client in players:
        await client.aclose()
    engine = create_engine(normalise_url(database))
    with engine.connect() as c:
        ids = [r.id for r in c.execute(select(_users.c.id).where(_users.c.name.in_(names)))]
        seeks = Counter(r.user_id for r in c.execute(select(_seeks.c.user_id).where(_seeks.c.user_id.in_(ids))))
        paired = {
            r.user_id: r.game_id
            for r in c.execute(select(_seeks.c.user_id, _seeks.c.game_id).where(_seeks.c.user_id.in_(ids)))
        }
        started = c.execute(
            select(_games.c.id, _games.c.x_id, _games.c.o_id).where(
                _games.c.x_id.in_(ids), _games.c.o_id.in_(ids), _games.c.state == "playing"
            )
        ).all()
        bots: dict[int, int] = dict(
            c.execute(
                select(_users.c.owner_id, func.count()).where(_users.c.owner_id.in_(ids)).group_by(_users.c.owner_id)
            ).all()
        )
        made: dict[int, int] = dict(
            c.execute(
                select(_tournaments.c.creator_id, func.count())
                .where(_tournaments.c.creator_id.in_(ids))
                .group_by(_tournaments.c.creator_id)
            ).all()
        )
    engine.dispose()
    seated = Counter(p for g in started for p in (g.x_id, g.o_id))
    hidden = [g.id for g in started if paired.get(g.x_id) != g.id or paired.get(g.o_id) != g.id]
    checks = [
        (f"one seek a player ({len(ids)} players)", sorted(set(seeks.values())) == [1] and len(seeks) == len(ids)),
        (f"{len(started)} games paired, each on both players' seeks", not hidden),
        ("no player in two paired games", all(n == 1 for n in seated.values())),
        (f"bot accounts a player: {sorted(set(bots.values()))}", max(bots.values(), default=0) <= MAX_ENGINE_BOTS),
        (
            f"tournaments a player: {sorted(set(made.values()))}",
            max(made.values(), default=0) <= MOST_TOURNAMENTS,
        ),
    ]
    for what, holds in checks:
        print(f"{'ok' if holds else 'BROKEN'}: {what}", flush=True)
        ok &= holds
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--seeks", type=int, default=1200)
    server_options(parser)
    args = parser.parse_args()
    said: list[str] = []
    with servers(args, "races", said) as (database, bases):
        ok = asyncio.run(run(args, database, bases))
    if not ok:
        print("".join(said[-40:]), file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
