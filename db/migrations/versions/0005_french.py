"""French beside English: an incident's ``title_fr`` and ``summary_fr``, a ruling's ``summary_fr``.

Our own words in French (docs/DATASET.md); NULL where only the English exists, so every row written
before stays valid. Written by hand and checked against autogenerate on SQLite and PostgreSQL; SQLite
alters in batch mode.

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-03 17:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("incident") as batch:
        batch.add_column(sa.Column("title_fr", sa.String(length=256), nullable=True))
        batch.add_column(sa.Column("summary_fr", sa.String(length=4000), nullable=True))
    with op.batch_alter_table("ruling") as batch:
        batch.add_column(sa.Column("summary_fr", sa.String(length=4000), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ruling") as batch:
        batch.drop_column("summary_fr")
    with op.batch_alter_table("incident") as batch:
        batch.drop_column("summary_fr")
        batch.drop_column("title_fr")
