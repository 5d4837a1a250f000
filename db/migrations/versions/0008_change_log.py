"""The change log: ``entrychange``, one row per write to a curated entry, its ``id`` the change counter.

Every process serving one PostgreSQL database reads the rows past the last it saw to update its
search index (``bot.change_feed``). Written by hand and checked against autogenerate on SQLite and
PostgreSQL.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 16:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENTITY_KIND = sa.Enum(
    "incident",
    "person",
    "party",
    "source",
    "chamber",
    "question",
    "term",
    name="entitykind",
    native_enum=False,
    create_constraint=False,
    length=32,
)


def upgrade() -> None:
    op.create_table(
        "entrychange",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", ENTITY_KIND, nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_entrychange_at"), "entrychange", ["at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_entrychange_at"), table_name="entrychange")
    op.drop_table("entrychange")
