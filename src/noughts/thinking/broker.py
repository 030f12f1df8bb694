"""The Redis that servers and `noughts worker`s share: whether it answers, and its
address fit to be shown (without its password). Below the server, which also fans its
events out through it (`noughts.server.online.realtime`)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import redis
import redis.retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from noughts.core import NoughtsError

#: Errors of a Redis that is away: refused, reset, timed out.
REDIS_DOWN = (RedisError, OSError)


class RedisUnreachableError(NoughtsError):
    """Redis cannot be used: the message names the URL (without its password) and why."""


def shown_url(url: str) -> str:
    """`url` without its password, fit for a log or an error message.

    >>> shown_url("redis://worker:secret@10.0.0.5:6379/0")
    'redis://worker:***@10.0.0.5:6379/0'
    """
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.rpartition("@")[2]
        user = parts.username or ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))
    except ValueError:
        return "(a malformed URL)"


def check_redis(url: str, timeout: float = 3.0) -> None:
    """RedisUnreachableError unless Redis answers at `url` (what `noughts serve` and
    `noughts worker` check before they start)."""
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout, retry=redis.retry.Retry(NoBackoff(), 0)
        )
    except ValueError as e:
        raise RedisUnreachableError(f"{shown_url(url)} is not a Redis URL: {e}") from None
    try:
        client.ping()
    except REDIS_DOWN as e:
        raise unreachable(url, e) from None
    finally:
        client.close()


def reason(error: BaseException) -> str:
    """What went wrong, on one line."""
    return " ".join(str(error).split()) or type(error).__name__


def unreachable(url: str, error: BaseException) -> RedisUnreachableError:
    """The error saying why Redis at `url` cannot be used."""
    return RedisUnreachableError(f"cannot reach Redis at {shown_url(url)}: {reason(error)}")
