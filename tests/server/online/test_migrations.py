"""The migrations build exactly the schema of the table models, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

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


def test_the_newest_migration_is_the_chat() -> None:
    assert _head() == "0011"


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
