"""lag compensation: each player's quota of network delay given back, and its estimate

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

_COLUMNS = ("x_lag_quota_ms", "o_lag_quota_ms", "x_lag_ms", "o_lag_ms")


def upgrade() -> None:
    # NULL: the quota a game starts with (the games in play when this runs get it).
    with op.batch_alter_table("games") as batch:
        for name in _COLUMNS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name in _COLUMNS:
            batch.drop_column(name)
