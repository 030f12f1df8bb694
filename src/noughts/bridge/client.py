"""The bridge of ``noughts bot``: a program that speaks the engine protocol, online as a
bot account, as lichess-bot connects UCI engines to lichess.

The owner makes the account on their profile page (or ``POST /api/online/me/bots``) and
gives its token here. The bridge then asks the server now and then for the bot's inbox
(``GET /api/online/bot/inbox``): each challenge is accepted (``POST
/api/online/games/{id}/join``) when it fits the owner's rules (`Rules`: games, rated or
casual, with or without a clock, how many games at once) and declined otherwise; each
game in play gets a thread that holds the game's socket and, on the bot's turn, asks
the program for its move (``genmove``, through `noughts.arena.external.EnginePlayer`,
one program process per game) within a share of the bot's clock, or the owner's time
per move when that is shorter, with the owner's genmove options (``level=max``).

The program is checked before the bot goes online: started, and asked for a move in
the first position of each game the bot accepts, with those options. A program that
cannot start or play is a clear message and a non-zero exit, not a bot that accepts
challenges and resigns them. A program that fails later (dies, answers nonsense, takes
too long) resigns its game rather than let it hang. An opponent's silence is waited
out quietly: the server ends a game whose players are gone.
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
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from noughts.ai.base import Limits
from noughts.arena.external import STARTUP_TIME, EnginePlayer
from noughts.competition.clock import move_budget
from noughts.core import NoughtsError, State
from noughts.match import ForfeitError
from noughts.registry import parse_spec

__all__ = ["Bridge", "Rules", "ending", "move_seconds"]

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


def ending(game: dict[str, Any]) -> str:
    """How a finished game (the server's view of it) ended, in words."""
    if game["state"] == "aborted":
        return "aborted before each side had moved"
    if game["state"] == "cancelled":
        return "cancelled before it started"
    how = f" by {game['termination']}" if game.get("termination") not in (None, "normal") else ""
    return f"over: {game.get('result')}{how}"


def move_seconds(game: dict[str, Any], side: str) -> float | None:
    """The bot's time for a move: a 25th of its clock plus most of the increment (the
    house bots' rule); None without a clock (the program's own budget)."""
    clock = game.get("clock")
    if not clock:
        return None
    return move_budget(clock.get(f"{side}_ms") or 0, clock.get("increment_ms") or 0)


class Bridge:
    """The bot account of `token` on `server`, played by `command` with the genmove
    `options` (``level=max``), at most `move_time` seconds a move when given."""

    def __init__(
        self,
        server: str,
        token: str,
        command: str,
        rules: Rules,
        say: Callable[[str], None] = print,
        options: tuple[str, ...] = (),
        move_time: float | None = None,
    ) -> None:
        self.server, self.token, self.command, self.rules, self.say = server.rstrip("/"), token, command, rules, say
        self.options, self.move_time = options, move_time
        # Idle connections dropped before the server's keep-alive (uvicorn's: 5 s) closes
        # them, so that a move is never sent on a connection the server is closing.
        self.http = httpx2.Client(
            base_url=self.server, cookies={COOKIE: token}, timeout=10, limits=httpx2.Limits(keepalive_expiry=2.0)
        )
        self.games: dict[str, threading.Thread] = {}
        self.name = ""
        self.stop = threading.Event()

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

    def check_program(self) -> None:
        """Starts the program and has it play the first move of each game the bot
        accepts (classic when it accepts all), with the owner's options and time.
        SystemExit saying what failed when it cannot start or play."""
        games = []
        for spec in sorted(self.rules.games) or ["classic"]:
            try:
                games.append(parse_spec(spec))
            except NoughtsError as e:
                raise SystemExit(f"noughts bot: --games {spec}: {e}") from None
        for game in games:
            # A process per game, as in play: its first move is the one that loads.
            engine = self._program()
            try:
                state = game.initial()
                started = time.perf_counter()
                move = engine.choose(state, Limits(time=self.move_time))
                took = time.perf_counter() - started
                self.say(f"checked the program: it plays {state.move_text(move)} to start {game.spec} ({took:.2f} s)")
            except (ForfeitError, NoughtsError) as e:
                raise SystemExit(f"noughts bot: the program does not play, so the bot stays offline: {e}") from None
            finally:
                engine.stop()

    def run(self, stop: threading.Event, poll: float = 1.0) -> None:
        """Checks the program, then answers challenges and plays games until `stop` is set."""
        self.stop = stop
        self.log_in()
        self.check_program()
        asked = f" (genmove {' '.join(self.options)})" if self.options else ""
        most = f", at most {self.move_time:g} s a move" if self.move_time is not None else ""
        self.say(f"{self.name} is online at {self.server}, playing with: {self.command}{asked}{most}")
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
        engine = self._program()
        try:
            with connect(url, additional_headers={"Cookie": f"{COOKIE}={self.token}"}, open_timeout=10) as ws:
                self._play_on(game_id, ws, engine)
        except ConnectionClosed as e:
            # The next look at the inbox opens the socket again if the game goes on.
            self.say(f"game {game_id}: the server closed the socket ({e.rcvd.code if e.rcvd else 'no code'})")
        except (OSError, httpx2.HTTPError) as e:
            self.say(f"game {game_id}: cannot reach the server ({e})")
        except Exception as e:  # a bridge thread never takes the others down with it
            self.say(f"game {game_id}: {type(e).__name__}: {e}")
        finally:
            engine.stop()

    def _play_on(self, game_id: str, ws: Any, engine: EnginePlayer) -> None:
        side = None
        game: dict[str, Any] = {}
        asked = -1  # the ply whose move was sent last
        while not self.stop.is_set():
            try:
                # An opponent may think (or be away) for long: waited out, a second at a
                # time to notice `stop`. A dead connection is the socket's keep-alive
                # pings' to find, and the server ends games whose players are gone.
                message = json.loads(ws.recv(timeout=1))
            except TimeoutError:
                continue
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
                self.say(f"game {game_id} is {ending(game)}")
                return
            ply = len(game["moves"])
            if (ply % 2 == 0) == (side == "x") and asked != ply:
                asked = ply
                move = self._genmove(game, side, engine)
                if move is None:
                    ws.send(json.dumps({"type": "resign", "id": secrets.token_hex(4)}))
                else:
                    ws.send(json.dumps({"type": "move", "move": move, "ply": ply, "id": secrets.token_hex(4)}))

    def _program(self) -> EnginePlayer:
        # A process per game, whose first move may take the program's start-up too.
        return EnginePlayer(self.name or "the program", self.command, self.options, warm_up=STARTUP_TIME)

    def _genmove(self, game: dict[str, Any], side: str, engine: EnginePlayer) -> str | None:
        """The program's move, or None when it failed (the game is then resigned)."""
        try:
            state: State[Any] = parse_spec(game["spec"]).initial()
            for text in game["moves"]:
                state = state.play_text(text)
            seconds = move_seconds(game, side)
            if self.move_time is not None:
                seconds = self.move_time if seconds is None else min(seconds, self.move_time)
            started = time.perf_counter()
            move = engine.choose(state, Limits(time=seconds))
            self.say(f"game {game['id']}: {state.move_text(move)} ({time.perf_counter() - started:.2f} s)")
            return state.move_text(move)
        except (ForfeitError, NoughtsError) as e:
            self.say(f"game {game['id']}: the program failed, resigning: {e}")
            return None
