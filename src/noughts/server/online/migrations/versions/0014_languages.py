"""users.language: the language a player chose in the page's menu (null: none chosen)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch: SQLite alters a table by copying it; PostgreSQL adds the column in place.
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")
