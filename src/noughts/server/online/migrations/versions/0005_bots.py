"""the computer online: bot accounts, and quick pairing's fill-in by a bot

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("bot", sa.String(length=16), nullable=True))
    op.add_column("seeks", sa.Column("bot_after_ms", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("seeks", "bot_after_ms")
    op.drop_column("users", "bot")
