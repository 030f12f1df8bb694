"""social: challenges between players, follows, blocks and notifications

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _pair(table: str, other: str) -> None:
    op.create_table(
        table,
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column(other, sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint([other], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", other),
    )
    op.create_index(f"ix_{table}_{other}", table, [other])


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("challenged_id", sa.Integer(), nullable=False),
        sa.Column("spec", sa.String(length=200), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("clock_initial_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_increment_ms", sa.BigInteger(), nullable=True),
        sa.Column("days_per_move", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["challenger_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["challenged_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_challenges_challenged_state", "challenges", ["challenged_id", "state"])
    op.create_index("ix_challenges_challenger_state", "challenges", ["challenger_id", "state"])
    _pair("follows", "followed_id")
    _pair("blocks", "blocked_id")
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("actor", sa.String(length=32), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("challenge_id", sa.String(length=16), nullable=True),
        sa.Column("tournament_id", sa.String(length=16), nullable=True),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notifications_user_id_id", "notifications", ["user_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_notifications_user_id_id", table_name="notifications")
    op.drop_table("notifications")
    for table, other in (("blocks", "blocked_id"), ("follows", "followed_id")):
        op.drop_index(f"ix_{table}_{other}", table_name=table)
        op.drop_table(table)
    op.drop_index("ix_challenges_challenger_state", table_name="challenges")
    op.drop_index("ix_challenges_challenged_state", table_name="challenges")
    op.drop_table("challenges")
