"""correspondence games: days for each move

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("days_per_move", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "days_per_move")
