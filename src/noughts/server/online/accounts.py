"""Accounts: the rules for names and passwords, Argon2id hashing, session tokens, and
the brake on repeated failed log-ins.

Every mistake has its own message, because a player can act on each: the name is
taken, the name has a character names may not have, the password is too short, the
name or password is wrong (one message for both, so that log-in does not tell which
names exist).
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
from dataclasses import dataclass, field

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 200
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
#: Guests are named guest-XXXXXX; nobody may sign up with such a name.
GUEST_PREFIX = "guest-"


class AccountError(Exception):
    """A sign-up or log-in refused: `error` is a stable word, `field` the form field at
    fault, and the message is for the player."""

    def __init__(self, error: str, message: str, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.error = error
        self.message = message
        self.field = field
        self.status = status


class TooManyAttemptsError(AccountError):
    def __init__(self, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(
            "too-many-attempts",
            f"too many failed log-ins: try again in {seconds} second{'s' if seconds != 1 else ''}",
            None,
            429,
        )
        self.wait = seconds


def check_name(name: str) -> str:
    """The name as it will be shown, or AccountError saying what is wrong with it."""
    if len(name) < NAME_MIN or len(name) > NAME_MAX:
        raise AccountError("name-length", f"a name has {NAME_MIN} to {NAME_MAX} characters", "name")
    if not _NAME.fullmatch(name):
        raise AccountError(
            "name-malformed",
            "a name has only letters (a-z), digits, '-' and '_', and starts with a letter or digit",
            "name",
        )
    if name.lower().startswith(GUEST_PREFIX):
        raise AccountError("name-reserved", "names starting with 'guest-' are for guests", "name")
    return name


def check_password(password: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise AccountError(
            "password-short", f"the password is too short: at least {PASSWORD_MIN} characters", "password"
        )
    if len(password) > PASSWORD_MAX:
        raise AccountError("password-long", f"the password is too long: at most {PASSWORD_MAX} characters", "password")
    return password


def name_key(name: str) -> str:
    """Names differing only in case are one name."""
    return name.lower()


def guest_name() -> str:
    return GUEST_PREFIX + secrets.token_hex(3)


class Passwords:
    """Argon2id hashes with the given cost."""

    def __init__(self, time_cost: int, memory_kib: int) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1, type=Type.ID)
        self._dummy: str | None = None

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        if stored is None and self._dummy is None:
            # Checking a name that does not exist costs as much as a wrong password, so
            # the time taken does not tell which names exist.
            self._dummy = self._hasher.hash(secrets.token_hex(8))
        try:
            return self._hasher.verify(stored or self._dummy or "", password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False


def new_token() -> tuple[str, str]:
    """A session token for the cookie and the hash stored in the database."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0


@dataclass
class LoginThrottle:
    """Slows repeated failed log-ins, per name and per address: after `free` failures,
    each attempt must wait 2**(failures - free) seconds (at most `max_delay`) after the
    previous failure. A success clears the name's count. Kept in memory: each server
    process brakes on its own."""

    free: int = 3
    max_delay: float = 60.0
    _failures: dict[str, _Failures] = field(default_factory=dict)

    def _delay(self, key: str, now: float) -> float:
        entry = self._failures.get(key)
        if entry is None or entry.count < self.free:
            return 0.0
        wait = min(self.max_delay, 2.0 ** (entry.count - self.free)) - (now - entry.last)
        return max(0.0, wait)

    def check(self, keys: list[str], now: float | None = None) -> None:
        """Raises TooManyAttemptsError when any of `keys` must still wait."""
        now = time.monotonic() if now is None else now
        wait = max((self._delay(k, now) for k in keys), default=0.0)
        if wait > 0:
            raise TooManyAttemptsError(wait)

    def failed(self, keys: list[str], now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if len(self._failures) > 100_000:
            self._forget_old(now)
        for key in keys:
            entry = self._failures.setdefault(key, _Failures())
            entry.count += 1
            entry.last = now

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)

    def _forget_old(self, now: float) -> None:
        for key in [k for k, e in self._failures.items() if now - e.last > self.max_delay]:
            del self._failures[key]
