"""An arena tournament under load: many signed-up players in one arena against one
`noughts serve` process (SQLite), or two sharing PostgreSQL and Redis, each playing
every game it is given until the arena ends.

Each player does what the tournament page does: while waiting it keeps the tournament's
socket open, asks for the whole tournament again on news (at most every 2 s), asks the
small question (`GET .../me`) every --poll seconds all the same, and goes to its game
the moment the news names it; then it plays random legal moves after a think time
(uniform between 0.5 and 1.5 times --think) and comes back to the page. Measured in
this process (one clock): `paired`, from the end of a player's game (or its joining) to
learning its next game; `ack`, from sending a move to the mover's acknowledgement. The
last lines check the arena: every game of it finished, nobody in two games at once, and
the standings' games add up to twice the games played.

    .venv/bin/python bench/tournament_load.py [--players 500] [--minutes 2] [--spec classic]
        [--think 0.5] [--poll 30] [--database postgresql://... --redis redis://... --servers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx2
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from noughts import parse_spec
from online_load import COOKIE, p50_p99, server_options, servers

PASSWORD = "correct horse battery"


@dataclass
class Stats:
    paired: list[float] = field(default_factory=list)
    ack: list[float] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def sign_up(base: str, name: str, gate: asyncio.Semaphore) -> str:
    async with gate, httpx2.AsyncClient(base_url=base, timeout=120) as http:
        answer = await http.post("/api/online/signup", json={"name": name, "password": PASSWORD})
        answer.raise_for_status()
        return str(answer.cookies[COOKIE])


async def play_game(
    base: str, token: str, game_id: str, think: float, rng: random.Random, stats: Stats, moves: int | None = None
) -> None:
    """Plays game `game_id` on its socket with random legal moves, each after a think
    time (uniform between 0.5 and 1.5 times `think`), until the game ends, or until the
    player has made `moves` moves: then it resigns when its turn comes again. Each
    move's acknowledgement latency goes to `stats.ack`."""
    url = base.replace("http", "ws", 1) + f"/api/online/games/{game_id}/ws"
    cookie = {"Cookie": f"{COOKIE}={token}"}
    async with connect(url, additional_headers=cookie, open_timeout=60, ping_interval=None) as ws:
        side, game = None, None
        sent_at, made = 0.0, 0
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] == "hello":
                side = message["you"]
            elif message["type"] == "ack" and message["kind"] == "move":
                stats.ack.append(time.perf_counter() - sent_at)
            elif message["type"] == "error":
                stats.error(message["error"])
            if message.get("game") is not None:
                game = message["game"]
            elif message["type"] == "event" and message.get("kind") == "move" and game is not None:
                # A move the opening state held already is skipped; a gap asks for the state.
                if message["ply"] == len(game["moves"]) + 1:
                    game = {**game, "moves": [*game["moves"], message["move"]], "ply": message["ply"]}
                elif message["ply"] > len(game["moves"]) + 1:
                    await ws.send(json.dumps({"type": "resync"}))
                    continue
            if game is None or side is None:
                continue
            if game["state"] != "playing":
                return
            if (len(game["moves"]) % 2 == 0) == (side == "x") and game.get("_asked") != len(game["moves"]):
                game["_asked"] = len(game["moves"])
                if made == moves:
                    await ws.send(json.dumps({"type": "resign"}))
                    continue
                state: Any = parse_spec(game["spec"]).initial()
                for text in game["moves"]:
                    state = state.play_text(text)
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                move = state.move_text(rng.choice(state.legal_moves()))
                sent_at, made = time.perf_counter(), made + 1
                await ws.send(json.dumps({"type": "move", "move": move, "ply": len(game["moves"]), "id": "m"}))


async def look(http: httpx2.AsyncClient, path: str, stats: Stats) -> httpx2.Response:
    """A GET, asked again (three times at most) when the connection failed: a server that
    closed the idle connection as it was reused, or dropped it under load. Each failure
    is counted in the errors, as a page would see it."""
    for attempt in range(3):
        try:
            return await http.get(path)
        except httpx2.TransportError as e:
            stats.error(f"GET {type(e).__name__}")
            if attempt == 2:
                raise
            await asyncio.sleep(1)
    raise AssertionError("unreachable")


async def player(
    base: str, token: str, name: str, arena: str, args: argparse.Namespace, rng: random.Random, stats: Stats
) -> None:
    """One player, as the tournament page behaves (tournaments.js): its socket open while
    waiting, the standings asked for again on news (1-2 s after it, at most every 2 s),
    the small question every 30 s all the same, and off to the game the moment the news
    names the player. Back on the page after each game."""
    url = base.replace("http", "ws", 1) + f"/api/online/tournaments/{arena}/ws"
    async with httpx2.AsyncClient(base_url=base, cookies={COOKIE: token}, timeout=120) as http:
        answer = await http.post(f"/api/online/tournaments/{arena}/join")
        if answer.status_code != 200:
            stats.error(f"join {answer.status_code}")
            return
        last = None
        free_since = time.perf_counter()
        while True:
            # No keepalive pings from this side, as from a browser: under this load a
            # pong can come late, and the page would not drop its socket for that.
            async with connect(
                url, additional_headers={"Cookie": f"{COOKIE}={token}"}, open_timeout=60, ping_interval=None
            ) as news:
                # The page's load, after its socket opened: nothing falls between the two.
                view = (await look(http, f"/api/online/tournaments/{arena}", stats)).json()
                loaded = time.perf_counter()
                game_id = view["my_game"] if view["my_game"] != last else None
                reload_at, poll_at, dropped = None, loaded + args.poll, False
                while game_id is None and view["state"] != "finished":
                    wake = min(poll_at, reload_at or poll_at)
                    try:
                        message = json.loads(await asyncio.wait_for(news.recv(), max(0, wake - time.perf_counter())))
                    except ConnectionClosed:
                        stats.error("news socket closed")  # the page reconnects: so does this
                        dropped = True
                        break
                    except TimeoutError:
                        if reload_at is not None and time.perf_counter() >= reload_at:
                            view = (await look(http, f"/api/online/tournaments/{arena}", stats)).json()
                            loaded, reload_at = time.perf_counter(), None
                        else:
                            view = (await look(http, f"/api/online/tournaments/{arena}/me", stats)).json()
                            poll_at = time.perf_counter() + args.poll
                        game_id = view["my_game"] if view["my_game"] != last else None
                        continue
                    if message.get("type") != "tournament":
                        continue
                    game_id = message["paired"].get(name)
                    if game_id is None and reload_at is None:
                        reload_at = max(time.perf_counter() + 1.0, loaded + 2.0) + rng.uniform(0, 1.0)
            if dropped:
                continue
            if game_id is None:
                return  # finished
            stats.paired.append(time.perf_counter() - free_since)
            stats.games.add(game_id)
            try:
                await play_game(base, token, game_id, args.think, rng, stats)
            except Exception as e:
                stats.error(type(e).__name__)
            last, free_since = game_id, time.perf_counter()


async def run(args: argparse.Namespace, bases: list[str]) -> tuple[Stats, dict[str, Any], float]:
    stats = Stats()
    gate = asyncio.Semaphore(8)
    suffix = random.Random().randrange(16**4)
    names = [f"t{suffix:04x}p{i}" for i in range(args.players)]
    started = time.perf_counter()
    tokens = await asyncio.gather(*(sign_up(bases[i % len(bases)], n, gate) for i, n in enumerate(names)))
    print(f"signed up {args.players} players in {time.perf_counter() - started:.1f} s", flush=True)
    async with httpx2.AsyncClient(base_url=bases[0], cookies={COOKIE: tokens[0]}, timeout=120) as http:
        made = await http.post(
            "/api/online/tournaments",
            json={"kind": "arena", "name": "load", "spec": args.spec, "duration": args.minutes, "starts_in": 0},
        )
        made.raise_for_status()
        arena = made.json()["id"]
    rng = random.Random(1)
    began = time.perf_counter()
    await asyncio.gather(
        *(
            player(bases[i % len(bases)], token, names[i], arena, args, random.Random(rng.random()), stats)
            for i, token in enumerate(tokens)
        )
    )
    elapsed = time.perf_counter() - began
    async with httpx2.AsyncClient(base_url=bases[0], timeout=120) as http:
        final = (await look(http, f"/api/online/tournaments/{arena}?games=100000", stats)).json()
    return stats, final, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--minutes", type=int, default=2, help="the arena's length")
    parser.add_argument("--spec", default="classic")
    parser.add_argument("--think", type=float, default=0.5, help="average seconds a player takes per move")
    parser.add_argument(
        "--poll", type=float, default=30.0, help="seconds between a waiting player's looks with the socket open"
    )
    server_options(parser)
    args = parser.parse_args()
    said: list[str] = []
    with servers(args, "arena", said) as (database, bases):
        try:
            stats, final, elapsed = asyncio.run(run(args, bases))
        except BaseException:
            print("the server said (the last lines):", *said[-10:], sep="\n  ")
            raise
    games_counted = sum(s["games"] for s in final["standings"])
    pairings = final["games"]
    unfinished = [p for p in pairings if p.get("state") == "playing"]
    print(f"{args.players} players, {args.servers} server(s), {database.split(':')[0]}, a {args.minutes}-minute "
          f"{args.spec} arena: {len(stats.games)} games in {elapsed:.0f} s; final state {final['state']}")  # fmt: skip
    for name, values in (("paired", stats.paired), ("ack", stats.ack)):
        if values:
            print(f"{name}: {p50_p99(values)} ({len(values)})")
    print(f"errors: {stats.errors or 'none'}")
    print(f"check: standings count {games_counted} player-games for {len(pairings)} pairings "
          f"({'adds up' if games_counted == 2 * len(pairings) else 'DOES NOT ADD UP'}); "
          f"{len(unfinished)} unfinished")  # fmt: skip
    if said:
        print(f"the server said ({len(said)} lines, the last ones):", *said[-5:], sep="\n  ")


if __name__ == "__main__":
    main()
