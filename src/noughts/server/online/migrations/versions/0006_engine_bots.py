"""other engines online: bot accounts owned by a player, and challenges addressed to one

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch: SQLite cannot add a foreign key to a table in place.
    with op.batch_alter_table("users") as users:
        users.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        users.create_foreign_key("fk_users_owner_id_users", "users", ["owner_id"], ["id"])
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("invited_id", sa.Integer(), nullable=True))
        games.create_foreign_key("fk_games_invited_id_users", "users", ["invited_id"], ["id"])
        games.create_index("ix_games_invited_id", ["invited_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_invited_id")
        games.drop_constraint("fk_games_invited_id_users", type_="foreignkey")
        games.drop_column("invited_id")
    with op.batch_alter_table("users") as users:
        users.drop_constraint("fk_users_owner_id_users", type_="foreignkey")
        users.drop_column("owner_id")
