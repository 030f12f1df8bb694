"""Alembic's environment: the connection comes from `noughts.server.online.storage.db.migrate`."""

from __future__ import annotations

from alembic import context

from noughts.server.online.storage.tables import Base


def _run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file for each migration; anything else that imports it (pytest
# collecting doctests) finds no migration under way and nothing to do.
if hasattr(context, "config"):
    _run()
