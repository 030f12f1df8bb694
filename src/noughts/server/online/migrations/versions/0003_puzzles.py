"""puzzles, puzzle ratings and attempts, the daily puzzle; the shipped puzzles loaded

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(length=12), nullable=False),
        sa.Column("spec", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("themes", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("origin_game", sa.String(length=16), nullable=True),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("deviation", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_puzzles_spec_rating", "puzzles", ["spec", "rating"])
    op.create_index("ix_puzzles_origin_game", "puzzles", ["origin_game"])
    op.create_table(
        "puzzle_players",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("deviation", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(length=12), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=False),
        sa.Column("rating_after", sa.Double(), nullable=False),
        sa.Column("puzzle_rating_before", sa.Double(), nullable=False),
        sa.Column("puzzle_rating_after", sa.Double(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "puzzle_id"),
    )
    op.create_index("ix_puzzle_attempts_user_created", "puzzle_attempts", ["user_id", "created_at"])
    op.create_table(
        "puzzle_daily",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("puzzle_id", sa.String(length=12), nullable=False),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("day"),
    )
    # The puzzles that come with Noughts; the server adds those of newer releases at start-up.
    from noughts.server.online.storage.puzzles import add_puzzles
    from noughts.study.puzzles import shipped

    add_puzzles(op.get_bind(), shipped(), int(time.time() * 1000))


def downgrade() -> None:
    op.drop_table("puzzle_daily")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_table("puzzles")
