"""Online play's fixtures: an app on a fresh SQLite file or on this machine's
PostgreSQL (a database of its own per test run), Redis with a key prefix of its own,
and clients that sign up with unique names."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from noughts.server import Settings
from noughts.server.online.storage.db import make_engine, migrate
from server.online.people import FAST, Person
from server.online.servers import in_thread

POSTGRES_ADMIN = os.environ.get("NOUGHTS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@contextmanager
def new_postgres_database(prefix: str) -> Iterator[str]:
    """The URL of a new database on the local PostgreSQL, dropped afterwards; the test
    is skipped, saying why, where none is reachable."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    try:
        admin = psycopg.connect(POSTGRES_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_ADMIN}: {e}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield POSTGRES_ADMIN.rsplit("/", 1)[0] + "/" + name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A database of this test run's own on the local PostgreSQL, dropped at the end."""
    with new_postgres_database("noughts_test") as url:
        yield url


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`make test` runs each behaviour on SQLite (the default) and on PostgreSQL only
    where the database's own concurrency is what is tested (tests marked
    `both_databases`); `make test-slow` runs every other test's PostgreSQL variant."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or callspec.params.get("database_url") != "postgresql":
            continue
        if item.get_closest_marker("both_databases") is None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database at the newest migration, made once per test process: each test's
    own database starts as a copy of it, where migrating anew cost a second or two of
    every test (tests/server/online/test_migrations.py migrates empty files)."""
    path = tmp_path_factory.mktemp("migrated") / "online.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # the last connection gone: the WAL is folded into the file
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def sqlite_url(migrated_sqlite: Path, tmp_path: Path) -> str:
    """A database of the test's own: a copy of the migrated one."""
    target = tmp_path / "online.db"
    shutil.copyfile(migrated_sqlite, target)
    return f"sqlite:///{target}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test that takes it runs on SQLite and on PostgreSQL (see above for when)."""
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return url


@pytest.fixture
def app_settings(database_url: str) -> Settings:
    return Settings(database=database_url, ai_workers=1, online=FAST)


@pytest.fixture
def server(app_settings: Settings) -> Iterator[str]:
    """The app under uvicorn on a free port, in a thread: real sockets. Its address."""
    with in_thread(app_settings) as address:
        yield address


@pytest.fixture
def people(server: str) -> Iterator[Callable[[], Person]]:
    """Makes people who use the server, each with their own cookies; closes them after."""
    made: list[Person] = []

    def make() -> Person:
        person = Person(server)
        made.append(person)
        return person

    yield make
    for person in made:
        person.close()
