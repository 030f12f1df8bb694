"""Quick pairing under load: many players pressing "play now" against one `noughts serve`
process (SQLite), or two processes sharing PostgreSQL and Redis, reporting how long a
player waits to be paired (p50/p99) and checking that nobody is paired twice or lost.

Each player is a guest who arrives at a random moment within --arrivals seconds, joins
the pool for one of the --specs (ultimate 3+2 by default; casual, as guests play), and
then asks every --poll seconds, as the lobby page does, until paired. With two servers
the players are spread over both (each request to its own), as a load balancer would.
Measured in this process (one clock): from the player's POST to the answer that names
their game. The last lines check the pairings: every player in exactly one game, every
game with two different players who both learnt it.

    .venv/bin/python bench/pairing_load.py [--players 500] [--arrivals 10] [--poll 1.0]
        [--specs ultimate,classic] [--database postgresql://... --redis redis://... --servers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx

from online_load import p50_p99, server_options, servers


@dataclass
class Result:
    waited: list[float] = field(default_factory=list)
    games: dict[str, str] = field(default_factory=dict)  # player -> game
    errors: Counter[str] = field(default_factory=Counter)


async def player(base: str, spec: str, arrive: float, poll: float, result: Result, gate: asyncio.Semaphore) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async with gate:
            answer = await http.post("/api/online/guest")
        if answer.status_code != 201:
            result.errors[f"guest {answer.status_code}"] += 1
            return
        name = answer.json()["user"]["name"]
        await asyncio.sleep(arrive)
        started = time.perf_counter()
        seek = await http.post("/api/online/pairing", json={"spec": spec, "minutes": 3, "increment": 2})
        while seek.status_code in (200, 201) and seek.json()["state"] == "waiting":
            await asyncio.sleep(poll)
            seek = await http.get("/api/online/pairing")
        if seek.status_code not in (200, 201):
            result.errors[f"pairing {seek.status_code}"] += 1
            return
        result.waited.append(time.perf_counter() - started)
        result.games[name] = seek.json()["game_id"]


async def run(args: argparse.Namespace, bases: list[str]) -> Result:
    result = Result()
    rng = random.Random(1)
    specs = args.specs.split(",")
    gate = asyncio.Semaphore(32)
    await asyncio.gather(
        *(
            player(bases[i % len(bases)], specs[i % len(specs)], rng.uniform(0, args.arrivals), args.poll, result, gate)
            for i in range(args.players)
        )
    )
    return result


def check(result: Result, bases: list[str]) -> list[str]:
    """What is wrong with the pairings (nothing: an empty list)."""
    problems = []
    per_game = Counter(result.games.values())
    problems += [f"game {g} has {n} players who learnt it" for g, n in per_game.items() if n != 2]
    with httpx.Client(base_url=bases[0], timeout=30) as http:
        for game_id in list(per_game)[:200]:  # the games' own record of their players
            game = http.get(f"/api/online/games/{game_id}").json()
            players = {game["x"]["name"], game["o"]["name"]}
            learnt = {p for p, g in result.games.items() if g == game_id}
            if players != learnt:
                problems.append(f"game {game_id} is {sorted(players)}, learnt by {sorted(learnt)}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--arrivals", type=float, default=10.0, help="players arrive within this many seconds")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between a waiting player's requests")
    parser.add_argument("--specs", default="ultimate")
    server_options(parser)
    args = parser.parse_args()
    if args.players % (2 * len(args.specs.split(","))):
        raise SystemExit("--players must pair up: a multiple of twice the number of specs")
    said: list[str] = []
    with servers(args, "pairing", said) as (database, bases):
        started = time.perf_counter()
        result = asyncio.run(run(args, bases))
        elapsed = time.perf_counter() - started
        problems = check(result, bases)
    waited = result.waited
    print(f"{args.players} players, {args.servers} server(s), {database.split(':')[0]}, arriving within "
          f"{args.arrivals:g} s, polling every {args.poll:g} s: {len(waited)} paired in {elapsed:.1f} s")  # fmt: skip
    if waited:
        print(f"waited for a game: {p50_p99(waited)}, mean {1000 * statistics.mean(waited):.0f} ms, "
              f"max {1000 * max(waited):.0f} ms")  # fmt: skip
    print(f"errors: {dict(result.errors) or 'none'}")
    print(f"pairings: {'every player in exactly one game, both players told' if not problems else problems[:5]}")


if __name__ == "__main__":
    main()
