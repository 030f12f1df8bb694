"""accounts, sessions, games, moves and ratings

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("name_key", sa.String(length=32), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("spec", sa.String(length=200), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("creator_side", sa.String(length=8), nullable=False),
        sa.Column("x_id", sa.Integer(), nullable=True),
        sa.Column("o_id", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("result", sa.String(length=12), nullable=False),
        sa.Column("termination", sa.String(length=16), nullable=True),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("clock_initial_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_increment_ms", sa.BigInteger(), nullable=True),
        sa.Column("x_ms", sa.BigInteger(), nullable=True),
        sa.Column("o_ms", sa.BigInteger(), nullable=True),
        sa.Column("turn_started_at", sa.BigInteger(), nullable=True),
        sa.Column("draw_offer", sa.String(length=1), nullable=True),
        sa.Column("takeback_offer", sa.String(length=1), nullable=True),
        sa.Column("rematch_offer", sa.String(length=1), nullable=True),
        sa.Column("rematch_id", sa.String(length=16), nullable=True),
        sa.Column("x_left_at", sa.BigInteger(), nullable=True),
        sa.Column("o_left_at", sa.BigInteger(), nullable=True),
        sa.Column("x_rating_before", sa.Integer(), nullable=True),
        sa.Column("x_rating_after", sa.Integer(), nullable=True),
        sa.Column("o_rating_before", sa.Integer(), nullable=True),
        sa.Column("o_rating_after", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("started_at", sa.BigInteger(), nullable=True),
        sa.Column("ended_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["creator_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["o_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["x_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_o_id"), ["o_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_state"), ["state"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_x_id"), ["x_id"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("spec", sa.String(length=200), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("deviation", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "spec"),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ratings_spec"), ["spec"], unique=False)

    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_user_id"), ["user_id"], unique=False)

    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(length=16), nullable=False),
        sa.Column("played_at", sa.BigInteger(), nullable=False),
        sa.Column("clock_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "ply"),
    )


def downgrade() -> None:
    op.drop_table("moves")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_user_id"))

    op.drop_table("sessions")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ratings_spec"))

    op.drop_table("ratings")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_x_id"))
        batch_op.drop_index(batch_op.f("ix_games_state"))
        batch_op.drop_index(batch_op.f("ix_games_o_id"))

    op.drop_table("games")
    op.drop_table("users")
