"""Quick pairing under load: many players pressing "play now" against one `noughts serve`
process (SQLite), or two processes sharing PostgreSQL and Redis, reporting how long a
player waits to be paired (p50/p99) and how long a move takes to be acknowledged in the
games that follow, and checking that nobody is paired twice or lost.

Each player is a guest who arrives at a random moment within --arrivals seconds, joins
the pool for one of the --specs (ultimate 3+2 by default; casual, as guests play), and
then asks every --poll seconds, as the lobby page does, until paired. Then it opens its
game's socket and plays --moves random legal moves, each after a think time (uniform
between 0.5 and 1.5 times --think), and resigns when its turn comes again: a short game,
as people play (x resigns; o sees the game end). With two servers the players are spread
over both (each request to its own), as a load balancer would. Measured in this process
(one clock): the wait, from the player's POST to the answer that names their game; a
move's ack, from sending it to the mover's acknowledgement (validated and committed).
The last lines check the pairings: every player in exactly one game, every game with
two different players who both learnt it, and played to its resignation.

    .venv/bin/python bench/pairing_load.py [--players 500] [--arrivals 10] [--poll 1.0]
        [--moves 4] [--think 0.4] [--specs ultimate,classic]
        [--database postgresql://... --redis redis://... --servers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx2

from online_load import COOKIE, p50_p99, server_options, servers
from tournament_load import Stats, play_game


@dataclass
class Result(Stats):
    """The tournament bench's figures (`paired`: the wait; `ack`; `errors`), and the game
    each player learnt it was paired into."""

    game_of: dict[str, str] = field(default_factory=dict)


async def player(
    base: str,
    spec: str,
    arrive: float,
    args: argparse.Namespace,
    rng: random.Random,
    result: Result,
    gate: asyncio.Semaphore,
) -> None:
    async with httpx2.AsyncClient(base_url=base, timeout=60) as http:
        async with gate:
            answer = await http.post("/api/online/guest")
        if answer.status_code != 201:
            result.error(f"guest {answer.status_code}")
            return
        name, token = answer.json()["user"]["name"], answer.cookies[COOKIE]
        await asyncio.sleep(arrive)
        started = time.perf_counter()
        seek = await http.post("/api/online/pairing", json={"spec": spec, "minutes": 3, "increment": 2})
        while seek.status_code in (200, 201) and seek.json()["state"] == "waiting":
            await asyncio.sleep(args.poll)
            seek = await http.get("/api/online/pairing")
        if seek.status_code not in (200, 201):
            result.error(f"pairing {seek.status_code}")
            return
        result.paired.append(time.perf_counter() - started)
        game_id = result.game_of[name] = seek.json()["game_id"]
    try:
        await play_game(base, token, game_id, args.think, rng, result, args.moves)
    except Exception as e:
        result.error(f"play: {type(e).__name__}")


async def run(args: argparse.Namespace, bases: list[str]) -> Result:
    result = Result()
    rng = random.Random(1)
    specs = args.specs.split(",")
    gate = asyncio.Semaphore(32)
    players = []
    for i in range(args.players):
        base, spec, arrive = bases[i % len(bases)], specs[i % len(specs)], rng.uniform(0, args.arrivals)
        players.append(player(base, spec, arrive, args, random.Random(rng.random()), result, gate))
    await asyncio.gather(*players)
    return result


def check(result: Result, bases: list[str], moves: int) -> list[str]:
    """What is wrong with the pairings and the games (nothing: an empty list)."""
    problems = []
    per_game = Counter(result.game_of.values())
    problems += [f"game {g} has {n} players who learnt it" for g, n in per_game.items() if n != 2]
    with httpx2.Client(base_url=bases[0], timeout=30) as http:
        for game_id in per_game:  # the games' own record of their players and their end
            game = http.get(f"/api/online/games/{game_id}").json()
            players = {game["x"]["name"], game["o"]["name"]}
            learnt = {p for p, g in result.game_of.items() if g == game_id}
            if players != learnt:
                problems.append(f"game {game_id} is {sorted(players)}, learnt by {sorted(learnt)}")
            if (game["termination"], game["ply"]) != ("resignation", 2 * moves):
                problems.append(f"game {game_id} ended by {game['termination']} after {game['ply']} moves")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--arrivals", type=float, default=10.0, help="players arrive within this many seconds")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between a waiting player's requests")
    parser.add_argument("--specs", default="ultimate")
    parser.add_argument("--moves", type=int, default=4, help="moves each player makes before x resigns")
    parser.add_argument("--think", type=float, default=0.4, help="average seconds a player takes per move")
    server_options(parser)
    args = parser.parse_args()
    if args.players % (2 * len(args.specs.split(","))):
        raise SystemExit("--players must pair up: a multiple of twice the number of specs")
    said: list[str] = []
    with servers(args, "pairing", said) as (database, bases):
        started = time.perf_counter()
        result = asyncio.run(run(args, bases))
        elapsed = time.perf_counter() - started
        problems = check(result, bases, args.moves)
    waited = result.paired
    print(f"{args.players} players, {args.servers} server(s), {database.split(':')[0]}, arriving within "
          f"{args.arrivals:g} s, polling every {args.poll:g} s, then {args.moves} moves each "
          f"(think {args.think:g} s): {len(waited)} paired, all done in {elapsed:.1f} s")  # fmt: skip
    if waited:
        print(f"waited for a game: {p50_p99(waited)}, mean {1000 * statistics.mean(waited):.0f} ms, "
              f"max {1000 * max(waited):.0f} ms")  # fmt: skip
    print(f"move ack: {p50_p99(result.ack)} ({len(result.ack)} moves)")
    print(f"errors: {result.errors or 'none'}")
    fine = "every player in exactly one game, both players told, every game played to its resignation"
    print(f"pairings: {problems[:5] if problems else fine}")
    if said:
        print(f"the server said ({len(said)} lines, the last ones):", *said[-5:], sep="\n  ")


if __name__ == "__main__":
    main()
