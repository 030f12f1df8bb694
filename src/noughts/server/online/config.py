"""Online play's settings: where it stores things and the limits it enforces.

The defaults suit a server on the internet; tests shorten the periods. The periods a
server process needs to be told from outside (tests of real processes, operators) can
also be set in the environment: $NOUGHTS_DISCONNECT_GRACE and $NOUGHTS_PRESENCE_TTL, in
seconds, and the brakes on making accounts, as counts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from noughts.core import NoughtsError


class ConfigError(NoughtsError):
    """A setting from the environment that cannot be used, with the reason."""


def _seconds(variable: str, default: float) -> float:
    text = os.environ.get(variable)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e9:
        raise ConfigError(f"${variable} is a number of seconds above 0, not {text!r}")
    return value


def _count(variable: str, default: int) -> int:
    text = os.environ.get(variable)
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(f"${variable} is a whole number above 0, not {text!r}")
    return int(text)


def data_dir() -> Path:
    """Where the default database lives: $NOUGHTS_DATA_DIR, else the user's data
    directory ($XDG_DATA_HOME/noughts, ~/.local/share/noughts)."""
    explicit = os.environ.get("NOUGHTS_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "noughts"


def default_database_url() -> str:
    """$NOUGHTS_DATABASE_URL, else an SQLite file in `data_dir()` (nothing to install)."""
    return os.environ.get("NOUGHTS_DATABASE_URL") or f"sqlite:///{data_dir() / 'noughts.db'}"


@dataclass(frozen=True)
class OnlineConfig:
    """Limits and periods of online play."""

    #: A player whose sockets have all been closed this long can be claimed against.
    disconnect_grace: float = field(default_factory=lambda: _seconds("NOUGHTS_DISCONNECT_GRACE", 30.0))
    #: A game that starts (a room joined, a rematch accepted) gives its players this long
    #: to open its page; then those with no socket on it are away since the start.
    arrival_wait: float = 5.0
    #: A game in play whose player has been away this long is ended by the server as a
    #: claim would end it, whoever is left (nobody, or a program that never claims; an
    #: untimed game would otherwise stay "being played" forever, holding an engine
    #: bot's game slots and its tournament's round). $NOUGHTS_ABANDON_AFTER, in seconds.
    abandon_after: float = field(default_factory=lambda: _seconds("NOUGHTS_ABANDON_AFTER", 60.0))
    #: A game whose player to move has not made their first move this long after their
    #: turn began is aborted (the clock starts only at the third ply).
    #: $NOUGHTS_FIRST_MOVE_WAIT, in seconds.
    first_move_wait: float = field(default_factory=lambda: _seconds("NOUGHTS_FIRST_MOVE_WAIT", 60.0))
    #: How often each process looks for tournaments to start, pair or end (a game's end
    #: advances its tournament at once; this catches the clock and a restart).
    tournament_sweep: float = field(default_factory=lambda: _seconds("NOUGHTS_TOURNAMENT_SWEEP", 2.0))
    #: Tournaments a player may have created and not finished (upcoming or running).
    tournaments_per_player: int = 5
    #: A challenge to a player not answered within this many seconds expires (lichess's
    #: live challenges last about as long as a player waits at the board).
    challenge_expiry: float = 600.0
    #: Challenges a player may have waiting for an answer at once.
    challenges_per_player: int = 10
    #: With Redis: a server process that has not said it is alive for this long is dead,
    #: and the players it served are away (it says so three times per period).
    presence_ttl: float = field(default_factory=lambda: _seconds("NOUGHTS_PRESENCE_TTL", 15.0))
    #: Largest websocket text frame accepted; a bigger one closes the socket (1009).
    max_frame: int = 4096
    #: Messages per second a socket may send on average, and the burst it may save up.
    rate: float = 20.0
    burst: float = 40.0
    #: Messages refused for the rate beyond which the socket is closed as abusive (1008).
    flood_close_after: int = 20
    #: Sockets one visitor may hold open on a process at once: an account (its tabs,
    #: its games, the lobby), and an address for those without one (a household or a
    #: school shares it). Beyond, a socket is refused (1008): one visitor's hundred
    #: spectator sockets slowed everybody's moves.
    sockets_per_account: int = 16
    sockets_per_address: int = 48
    #: Frames that make the server read the whole game again (resync): per socket, a
    #: few at once and then one every `resync_every` seconds; beyond, `rate-limited`.
    resync_burst: float = 3.0
    resync_every: float = 2.0
    #: Chat lines a player may send in `chat_window` seconds, across sockets and
    #: processes (counted in the database), and a line's length in characters.
    chat_burst: int = 5
    chat_window: float = 10.0
    chat_length: int = 140
    #: Failed log-ins for one name from one address before each further attempt has to
    #: wait; the wait doubles with each failure, up to `login_max_delay` seconds. The
    #: count starts again `login_forget_after` seconds after the last attempt.
    login_free_failures: int = 3
    #: ... for one name from anywhere (guesses spread over many addresses): more, so
    #: that strangers mistyping a name do not brake its owner at once.
    login_free_per_name: int = 10
    #: ... from one address whatever the names: many more, since a household, a school
    #: or a company shares one address, and one person's typos must not lock the others
    #: out of their accounts.
    login_free_per_address: int = 100
    login_max_delay: float = 60.0
    login_forget_after: float = 3600.0
    #: A browser (device cookie) or address an account logged in from is known this
    #: long after the last log-in from it: a log-in from there is braked only by its
    #: own failures (`login_free_failures`), never by strangers' on the name or the
    #: address (who could otherwise lock the owner out).
    known_login_days: int = 365
    #: Accounts and guests one address may make before each further one has to wait (as
    #: failed log-ins do): a flood of them filled the database and, for accounts, took
    #: 64 MiB of memory per Argon2 hash. $NOUGHTS_SIGNUPS_PER_ADDRESS and
    #: $NOUGHTS_GUESTS_PER_ADDRESS change them (bench/online_load.py makes thousands).
    signups_per_address: int = field(default_factory=lambda: _count("NOUGHTS_SIGNUPS_PER_ADDRESS", 10))
    guests_per_address: int = field(default_factory=lambda: _count("NOUGHTS_GUESTS_PER_ADDRESS", 30))
    #: Argon2 hashes computed at once (sign-ups and log-ins); the others queue, so that
    #: 40 sign-ups at once do not take 40 x 64 MiB.
    hashing_at_once: int = 2
    #: How long a log-in lasts.
    session_days: int = 30
    #: Argon2id cost (argon2-cffi's RFC 9106 "low memory" profile by default).
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    #: Prefix of the Redis channels, so that several deployments can share one Redis
    #: (pub/sub channels are the same in every Redis database number).
    redis_prefix: str = field(default_factory=lambda: os.environ.get("NOUGHTS_REDIS_PREFIX", "noughts:"))
