"""Opening the database: the engine for a URL, and the schema brought up to date by
Alembic's migrations (run at start-up, for SQLite and PostgreSQL alike)."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url

from noughts.core import NoughtsError

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
#: The PostgreSQL advisory lock migrations hold (a number of this program's own).
MIGRATION_LOCK = 0x6E6F756768  # "nough"


#: What the driver raises when the database cannot be reached or drops the connection
#: (psycopg's OperationalError, wrapped by SQLAlchemy; SQLite's "unable to open", "disk
#: I/O error"): the request is answered 503 and may be sent again.
DATABASE_AWAY_ERRORS: tuple[type[Exception], ...] = (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)
DATABASE_AWAY = "the games' database cannot be reached just now: nothing was changed; try again in a moment"
_away_since: list[float] = []


def database_away(error: BaseException) -> None:
    """Logs that the database is away: one warning a minute while it lasts, not one
    per request."""
    now = time.monotonic()
    if not _away_since or now - _away_since[-1] > 60:
        log.warning("the database cannot be reached: %s", str(error).splitlines()[0] if str(error) else error)
        _away_since[:] = [now]


def log_failure(logger: logging.Logger, message: str, *args: object) -> None:
    """In an `except` block of background work (a sweep, a heartbeat): the database
    being away is `database_away`'s one line a minute, anything else a traceback."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_AWAY_ERRORS):
        database_away(error)
    else:
        logger.exception(message, *args)


class DatabaseError(NoughtsError):
    """A database URL that cannot be used, with the reason (the command prints it)."""


def normalise_url(url: str) -> str:
    """postgresql:// (and postgres://) mean the psycopg 3 driver, the one installed."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for `url`: sqlite:///path or postgresql://user@host/db."""
    url = normalise_url(url)
    try:
        parsed = make_url(url)
    except Exception as e:
        raise DatabaseError(f"{url!r} is not a database URL: {e}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        # isolation_level=None: the driver leaves transactions alone and `_begin` opens
        # them IMMEDIATE, so that a writer takes the lock before it reads the row it
        # will change (several processes on one file then queue instead of failing).
        engine = create_engine(
            parsed, connect_args={"check_same_thread": False, "timeout": 30, "isolation_level": None}
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _begin_immediate)
        return engine
    if backend == "postgresql":
        return create_engine(parsed, pool_size=8, max_overflow=4, pool_pre_ping=True)
    raise DatabaseError(f"unsupported database {backend!r}: use sqlite:///PATH or postgresql://...")


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    # WAL: readers never wait for the writer. synchronous=NORMAL keeps every committed
    # transaction through a crash of the server process (kill -9), though not through a
    # power cut; foreign keys are off in SQLite unless asked for.
    cursor = connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=30000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _begin_immediate(connection: Any) -> None:
    # On the driver itself: SQLAlchemy's `execute` costs more than the statement, and
    # every change of a game opens a transaction.
    connection.connection.driver_connection.execute("BEGIN IMMEDIATE")


def migrate(engine: Engine, revision: str = "head") -> None:
    """Brings the schema of `engine`'s database to `revision` (Alembic `upgrade`)."""
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Servers started at once on a new database take turns: the first migrates,
            # the others then find nothing to do (without it one died on alembic_version's
            # unique key). The lock is the transaction's, released as it commits. SQLite's
            # transactions are IMMEDIATE (`_begin_immediate`): they take turns already.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
