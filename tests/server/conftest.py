"""Fixtures of the server's tests, online play's and the thinking queue's alike."""

from __future__ import annotations

import os

import pytest

#: The machine's Redis, for the tests of what runs on it (several server processes, the
#: thinking queue); they skip, saying why, where none answers.
REDIS = os.environ.get("NOUGHTS_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as e:
        pytest.skip(f"Redis is not reachable at {REDIS}: {e}")
    return REDIS
