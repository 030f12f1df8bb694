"""Accounts: the rules for names and passwords, Argon2id hashing, session tokens, and
the brake on repeated failed log-ins.

Every mistake has its own message, because a player can act on each: the name is
taken, the name has a character names may not have, the password is too short, the
name or password is wrong (one message for both, so that log-in does not tell which
names exist), too many failed log-ins (saying how long to wait).
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from noughts.server.online.config import OnlineConfig
from noughts.server.online.realtime import Outage, redis_client
from noughts.server.online.texts import text_fault
from noughts.thinking.broker import REDIS_DOWN

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 200
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
#: The log-in brake's keys: the name tried (from anywhere), that name from one address,
#: and the address (whatever the names); and a browser the account logged in from
#: before (its device cookie, or its session), whose attempts are braked on their own.
NAME_KEY, PAIR_KEY, ADDRESS_KEY, DEVICE_KEY = "name:", "pair:", "address:", "device:"
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
    """Refused by a brake (429): `what` there were too many of, and how long to wait."""

    def __init__(self, wait: float, what: str = "failed log-ins") -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(
            "too-many-attempts",
            f"too many {what}: try again in {seconds} second{'s' if seconds != 1 else ''}",
            None,
            429,
        )
        self.wait = seconds


def check_name(name: str) -> str:
    """The name as it will be shown, or AccountError saying what is wrong with it."""
    if len(name) < NAME_MIN or len(name) > NAME_MAX:
        raise AccountError("name-length", f"a name has {NAME_MIN} to {NAME_MAX} characters", "name")
    fault = text_fault(name)  # what chat refuses, in the same words; the pattern refuses more
    if fault is not None:
        raise AccountError("name-malformed", f"a name {fault}", "name")
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


def new_device() -> str:
    """A browser's device token (OWASP's device cookie): once an account has logged in
    with it, a log-in carrying it is not braked with strangers' failures."""
    return secrets.token_urlsafe(32)


def device_hash(token: str) -> str:
    """What the database keeps of a device token."""
    return token_hash("device:" + token)


def address_hash(address: str) -> str:
    """What the database keeps of an address an account logged in from."""
    return token_hash("address:" + address)


class LoginThrottle:
    """Slows repeated failed log-ins, per key (the name tried, the name from the address
    it came from, the address): after `free` failures of a key, each attempt must wait
    2**(failures - free) seconds (at most `max_delay`) after the previous one. Keys
    starting with one of `free_for`'s prefixes have that many free failures instead.
    A key's failures are forgotten `forget_after` seconds after its last attempt, and a
    success clears the name's.

    An attempt counts as a failure from the moment it is let through, before the
    password is checked, and a success takes it back: so a burst of guesses sent at
    once cannot all pass on the same count.
    """

    def __init__(
        self, free: int = 3, max_delay: float = 60.0, forget_after: float = 3600.0, free_for: Mapping[str, int] = {}
    ) -> None:
        self.free = free
        self.max_delay = max_delay
        self.forget_after = forget_after
        self.free_for = dict(free_for)

    def free_of(self, key: str) -> int:
        """How many failures of `key` are free."""
        return next((n for prefix, n in self.free_for.items() if key.startswith(prefix)), self.free)

    async def attempt(self, keys: list[str]) -> None:
        """TooManyAttemptsError when any of `keys` must still wait; otherwise counts a
        failure of each key until `succeeded`."""
        raise NotImplementedError

    async def succeeded(self, keys: list[str], cleared: int = 1) -> None:
        """The attempt with `keys` logged in: the failures of the first `cleared` keys
        (the name's) are forgotten, and the others get this attempt back."""
        raise NotImplementedError

    async def close(self) -> None:
        """Lets go of what it holds (a connection)."""

    def delay(self, count: int, since_last: float, free: int | None = None) -> float:
        """How long a key with `count` failures, the last `since_last` seconds ago,
        must still wait (when `free` of them are free; default: `self.free`)."""
        free = self.free if free is None else free
        if count == 0 or count < free:
            return 0.0
        # The exponent is bounded: 2.0 ** 1100 would not be a float.
        return max(0.0, min(self.max_delay, 2.0 ** min(count - free, 64)) - since_last)


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0


class MemoryThrottle(LoginThrottle):
    """Kept in this process's memory: the brake of a server that runs alone."""

    def __init__(
        self, free: int = 3, max_delay: float = 60.0, forget_after: float = 3600.0, free_for: Mapping[str, int] = {}
    ) -> None:
        super().__init__(free, max_delay, forget_after, free_for)
        self._failures: dict[str, _Failures] = {}

    async def attempt(self, keys: list[str]) -> None:
        self.attempt_at(keys, time.monotonic())

    async def succeeded(self, keys: list[str], cleared: int = 1) -> None:
        for key in keys[:cleared]:
            self._failures.pop(key, None)
        for key in keys[cleared:]:
            entry = self._failures.get(key)
            if entry is not None and entry.count > 0:
                entry.count -= 1

    def attempt_at(self, keys: list[str], now: float) -> None:
        """`attempt` at the time `now` (seconds, monotonic)."""
        wait = 0.0
        for key in keys:
            entry = self._failures.get(key)
            if entry is not None and now - entry.last <= self.forget_after:
                wait = max(wait, self.delay(entry.count, now - entry.last, self.free_of(key)))
        if wait > 0:
            raise TooManyAttemptsError(wait)
        if len(self._failures) > 100_000:
            for key in [k for k, e in self._failures.items() if now - e.last > self.forget_after]:
                del self._failures[key]
        for key in keys:
            entry = self._failures.setdefault(key, _Failures())
            if now - entry.last > self.forget_after:
                entry.count = 0
            entry.count += 1
            entry.last = now


# Redis's clock, so that processes whose clocks differ still agree. KEYS: the keys'
# counters; ARGV: max_delay and forget_after (milliseconds), then each key's free
# failures. Returns the wait in milliseconds (0: let through, and counted).
_ATTEMPT = """
redis.replicate_commands()
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max_delay, forget = tonumber(ARGV[1]), tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  local free = tonumber(ARGV[2 + i])
  local entry = redis.call('HMGET', key, 'count', 'last')
  local count = tonumber(entry[1]) or 0
  if count > 0 and count >= free then
    local delay = math.min(max_delay, 1000 * 2 ^ math.min(count - free, 64)) - (now - tonumber(entry[2]))
    if delay > wait then wait = delay end
  end
end
if wait > 0 then return math.ceil(wait) end
for _, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'count', 1)
  redis.call('HSET', key, 'last', now)
  redis.call('PEXPIRE', key, forget)
end
return 0
"""
# The first ARGV[1] KEYS (the name's counters) are cleared; the others get one attempt back.
_SUCCEEDED = """
local cleared = tonumber(ARGV[1])
for i = 1, cleared do redis.call('DEL', KEYS[i]) end
for i = cleared + 1, #KEYS do
  if redis.call('HGET', KEYS[i], 'count') then redis.call('HINCRBY', KEYS[i], 'count', -1) end
end
return 0
"""


class RedisThrottle(LoginThrottle):
    """Kept in Redis at `url` (under `prefix`), shared by every server process behind one
    address: an attacker gains nothing by spreading guesses over them. Each key is a
    hash (count, last) that expires `forget_after` seconds after its last attempt, read
    and changed by one script, atomically. While Redis is away, each process brakes on
    its own (a `MemoryThrottle`) rather than refusing every log-in."""

    def __init__(
        self,
        url: str,
        prefix: str,
        free: int = 3,
        max_delay: float = 60.0,
        forget_after: float = 3600.0,
        free_for: Mapping[str, int] = {},
        kind: str = "login",
    ) -> None:
        super().__init__(free, max_delay, forget_after, free_for)
        self.prefix = f"{prefix}{kind}:"
        self._redis = redis_client(url)
        self._attempt = self._redis.register_script(_ATTEMPT)
        self._succeeded = self._redis.register_script(_SUCCEEDED)
        self._local = MemoryThrottle(free, max_delay, forget_after, free_for)
        self._outage = Outage(url, "failed log-ins are braked by each server process alone")

    async def attempt(self, keys: list[str]) -> None:
        args = [round(self.max_delay * 1000), round(self.forget_after * 1000), *map(self.free_of, keys)]
        try:
            wait = int(await self._attempt(keys=[self.prefix + k for k in keys], args=args))
        except REDIS_DOWN as e:
            self._outage.failed(e)
            await self._local.attempt(keys)
            return
        self._outage.recovered("failed log-ins are braked across server processes again")
        if wait > 0:
            raise TooManyAttemptsError(wait / 1000)

    async def succeeded(self, keys: list[str], cleared: int = 1) -> None:
        try:
            await self._succeeded(keys=[self.prefix + k for k in keys], args=[cleared])
        except REDIS_DOWN as e:
            self._outage.failed(e)
            await self._local.succeeded(keys, cleared)

    async def close(self) -> None:
        await self._redis.aclose()


def make_throttle(redis_url: str | None, config: OnlineConfig) -> LoginThrottle:
    """The brake for a server alone (no Redis) or for one of several sharing Redis."""
    limits = (config.login_free_failures, config.login_max_delay, config.login_forget_after)
    free_for = {NAME_KEY: config.login_free_per_name, ADDRESS_KEY: config.login_free_per_address}
    if redis_url:
        return RedisThrottle(redis_url, config.redis_prefix, *limits, free_for=free_for)
    return MemoryThrottle(*limits, free_for=free_for)


def make_quota(redis_url: str | None, config: OnlineConfig, kind: str, free: int) -> LoginThrottle:
    """A brake on what each address makes (accounts, guests), counted like failed
    log-ins: `free` of them, then each must wait 1, 2, 4... seconds after the previous
    one (at most `login_max_delay`), forgotten an hour after the last."""
    limits = (free, config.login_max_delay, config.login_forget_after)
    if redis_url:
        return RedisThrottle(redis_url, config.redis_prefix, *limits, kind=kind)
    return MemoryThrottle(*limits)


def login_keys(name: str, address: str) -> list[str]:
    """The brake's keys of a log-in, the name's first (a success clears those two)."""
    return [NAME_KEY + name_key(name), PAIR_KEY + name_key(name) + "@" + address, ADDRESS_KEY + address]
