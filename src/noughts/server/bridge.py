"""``noughts bot``: a program that speaks the engine protocol, online as a bot account,
as lichess-bot connects UCI engines to lichess.

The owner makes the account on their profile page (or ``POST /api/online/me/bots``) and
gives its token here. The bridge then asks the server now and then for the bot's inbox
(``GET /api/online/bot/inbox``): each challenge is accepted (``POST
/api/online/games/{id}/join``) when it fits the owner's rules (`Rules`: games, rated or
casual, with or without a clock, how many games at once) and declined otherwise; each
game in play gets a thread that holds the game's socket and, on the bot's turn, asks
the program for its move (``genmove``, through `noughts.arena.external.EnginePlayer`,
one program process per game) within a share of the bot's clock. A program that fails
(dies, answers nonsense, takes too long) resigns its game rather than let it hang.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx2
from websockets.sync.client import connect

from noughts.ai.base import Limits
from noughts.arena.external import EnginePlayer
from noughts.core import NoughtsError, State
from noughts.match import ForfeitError
from noughts.registry import parse_spec
from noughts.server.online.clock import move_budget

__all__ = ["Bridge", "Rules", "move_seconds"]

#: The session cookie the server reads (`noughts.server.online.sessions.COOKIE`).
COOKIE = "noughts_session"


@dataclass(frozen=True)
class Rules:
    """Which challenges the bot accepts."""

    #: Game keys or specs ("ultimate", "mnk:m=15:n=15:k=5"); empty: every game.
    games: frozenset[str] = frozenset()
    #: True: rated only; False: casual only; None: both.
    rated: bool | None = None
    #: "any", "timed" (a clock) or "untimed".
    clock: str = "any"
    #: Games at once; a challenge beyond them is declined.
    max_games: int = 2

    def refuses(self, challenge: dict[str, Any], playing: int) -> str | None:
        """Why `challenge` (a room's summary) is declined, or None to accept it."""
        spec = challenge["spec"]
        if self.games and spec not in self.games and spec.split(":")[0] not in self.games:
            return f"it plays {', '.join(sorted(self.games))} only"
        if self.rated is not None and challenge["rated"] != self.rated:
            return "it plays rated games only" if self.rated else "it plays casual games only"
        timed = challenge.get("clock") is not None
        if (self.clock == "timed" and not timed) or (self.clock == "untimed" and timed):
            return f"it plays {self.clock} games only"
        if playing >= self.max_games:
            return f"it plays {self.max_games} games at once"
        return None


def move_seconds(game: dict[str, Any], side: str) -> float | None:
    """The bot's time for a move: a 25th of its clock plus most of the increment (the
    house bots' rule); None without a clock (the program's own budget)."""
    clock = game.get("clock")
    if not clock:
        return None
    return move_budget(clock.get(f"{side}_ms") or 0, clock.get("increment_ms") or 0)


class Bridge:
    """The bot account of `token` on `server`, played by `command`."""

    def __init__(self, server: str, token: str, command: str, rules: Rules, say: Callable[[str], None] = print) -> None:
        self.server, self.token, self.command, self.rules, self.say = server.rstrip("/"), token, command, rules, say
        # Idle connections dropped before the server's keep-alive (uvicorn's: 5 s) closes
        # them, so that a move is never sent on a connection the server is closing.
        self.http = httpx2.Client(
            base_url=self.server, cookies={COOKIE: token}, timeout=10, limits=httpx2.Limits(keepalive_expiry=2.0)
        )
        self.games: dict[str, threading.Thread] = {}
        self.finished: list[str] = []
        self.name = ""

    def log_in(self) -> str:
        """The bot's name; SystemExit when the token is no bot's."""
        me = self.http.get("/api/online/me").json().get("user")
        if me is None:
            raise SystemExit("noughts bot: the server does not know this token (make a new one on your profile page)")
        profile = self.http.get(f"/api/online/users/{me['name']}").json()
        if profile.get("bot") != "engine":
            raise SystemExit(f"noughts bot: {me['name']} is not a bot account: make one on your profile page")
        self.name = str(me["name"])
        return self.name

    def run(self, stop: threading.Event, poll: float = 1.0) -> None:
        """Answers challenges and plays games until `stop` is set."""
        self.log_in()
        self.say(f"{self.name} is online at {self.server}, playing with: {self.command}")
        while not stop.is_set():
            try:
                self.step()
            except httpx2.HTTPError as e:
                self.say(f"the server did not answer ({e}); trying again")
            stop.wait(poll)
        for thread in self.games.values():
            thread.join(5)

    def step(self) -> None:
        """One look at the inbox: challenges answered, new games started."""
        inbox = self.http.get("/api/online/bot/inbox").json()
        self.games = {g: t for g, t in self.games.items() if t.is_alive()}
        for game_id in inbox["playing"]:
            self._play_soon(game_id)
        for challenge in inbox["challenges"]:
            reason = self.rules.refuses(challenge, len(self.games))
            if reason is None:
                answer = self.http.post(f"/api/online/games/{challenge['id']}/join")
                if answer.status_code == 200:
                    self.say(f"accepted {challenge['creator']}'s {challenge['title']} ({challenge['id']})")
                    self._play_soon(challenge["id"])
            else:
                self.http.post(f"/api/online/bot/challenges/{challenge['id']}/decline")
                self.say(f"declined {challenge['creator']}'s {challenge['title']}: {reason}")

    def _play_soon(self, game_id: str) -> None:
        if game_id not in self.games:
            thread = threading.Thread(target=self.play, args=(game_id,), name=f"bot-{game_id}", daemon=True)
            self.games[game_id] = thread
            thread.start()

    def play(self, game_id: str) -> None:
        """Plays the game `game_id` to its end on its socket."""
        url = self.server.replace("http", "ws", 1) + f"/api/online/games/{game_id}/ws"
        engine = EnginePlayer(self.name, self.command)
        try:
            with connect(url, additional_headers={"Cookie": f"{COOKIE}={self.token}"}, open_timeout=10) as ws:
                side = None
                game: dict[str, Any] = {}
                asked = -1  # the ply whose move was sent last
                while True:
                    message = json.loads(ws.recv(timeout=60))
                    if message["type"] == "hello":
                        side = message["you"]
                    elif message.get("game") is not None:
                        game = message["game"]
                    elif message["type"] == "event" and message.get("kind") == "move" and game:
                        if message["ply"] == len(game["moves"]) + 1:
                            game = {**game, "moves": [*game["moves"], message["move"]], "ply": message["ply"]}
                            game.update({k: v for k, v in message.get("patch", {}).items() if k != "view"})
                        else:  # missed something: the whole state again
                            ws.send(json.dumps({"type": "resync"}))
                    elif message["type"] == "error":
                        self.say(f"game {game_id}: the server refused: {message['message']}")
                        asked = -1
                    if not game or side is None:
                        continue
                    if game["state"] != "playing":
                        self.say(f"game {game_id} is over: {game.get('result')} ({game.get('termination')})")
                        return
                    ply = len(game["moves"])
                    if (ply % 2 == 0) == (side == "x") and asked != ply:
                        asked = ply
                        move = self._genmove(game, side, engine)
                        if move is None:
                            ws.send(json.dumps({"type": "resign", "id": secrets.token_hex(4)}))
                        else:
                            ws.send(json.dumps({"type": "move", "move": move, "ply": ply, "id": secrets.token_hex(4)}))
        except Exception as e:  # a bridge thread never takes the others down with it
            self.say(f"game {game_id}: {type(e).__name__}: {e}")
        finally:
            engine.stop()

    def _genmove(self, game: dict[str, Any], side: str, engine: EnginePlayer) -> str | None:
        """The program's move, or None when it failed (the game is then resigned)."""
        try:
            state: State[Any] = parse_spec(game["spec"]).initial()
            for text in game["moves"]:
                state = state.play_text(text)
            seconds = move_seconds(game, side)
            started = time.perf_counter()
            move = engine.choose(state, Limits(time=seconds))
            self.say(f"game {game['id']}: {state.move_text(move)} ({time.perf_counter() - started:.2f} s)")
            return state.move_text(move)
        except (ForfeitError, NoughtsError) as e:
            self.say(f"game {game['id']}: the program failed, resigning: {e}")
            return None
