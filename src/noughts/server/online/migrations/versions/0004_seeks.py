"""quick pairing: the players waiting for a game

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("spec", sa.String(length=200), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("clock_initial_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_increment_ms", sa.BigInteger(), nullable=True),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("joined_at", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_index("ix_seeks_pool", "seeks", ["spec", "rated", "clock_initial_ms", "clock_increment_ms"])


def downgrade() -> None:
    op.drop_table("seeks")
