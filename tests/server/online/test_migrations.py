"""The migrations build exactly the schema of the table models, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from noughts.server.online.storage.db import MIGRATIONS, make_engine, migrate
from noughts.server.online.storage.tables import Base


def _head() -> str | None:
    """The newest migration: the one a migrated database must be at."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """An empty file (the suite's other tests start from a migrated copy)."""
    return f"sqlite:///{tmp_path / 'online.db'}"


def test_the_newest_migration_is_the_accounts_language() -> None:
    assert _head() == "0014"


@pytest.mark.both_databases
def test_migrations_match_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)  # a second start finds nothing to do
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []
        assert MigrationContext.configure(connection).get_current_revision() == _head()
    assert {"users", "sessions", "games", "moves", "ratings", "reviews", "puzzles", "puzzle_attempts"} <= set(
        inspect(engine).get_table_names()
    )
    engine.dispose()


def test_moves_are_keyed_by_game_and_ply(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    assert inspect(engine).get_pk_constraint("moves")["constrained_columns"] == ["game_id", "ply"]
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database nothing has migrated yet: a new SQLite file, or a new database on the
    local PostgreSQL (dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'new.db'}"
        return
    from server.online.conftest import new_postgres_database

    with new_postgres_database("noughts_new") as url:
        yield url


def test_servers_started_at_once_on_a_new_database_all_come_up(new_database: str) -> None:
    """Four servers' start-ups migrate one new database at the same moment (each its own
    engine, as processes have): all finish, at the newest migration."""
    engines = [make_engine(new_database) for _ in range(4)]
    start = threading.Barrier(len(engines))
    failures: list[BaseException] = []

    def start_up(engine: Engine) -> None:
        start.wait()
        try:
            migrate(engine)
        except Exception as e:  # what a server's start-up would die of
            failures.append(e)

    threads = [threading.Thread(target=start_up, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert failures == []
        with engines[0].connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == _head()
    finally:
        for engine in engines:
            engine.dispose()
