"""reviews of games sent by a page, kept by a hash of the game, the reviewer and its time

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kept_reviews",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("spec", sa.String(length=200), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("seconds", sa.Double(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("kept_reviews")
