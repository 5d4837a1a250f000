"""The glossary: ``term`` rows, top-level entries curated like people and sources.

A term has a name and a definition in English (and optionally in French), aliases, the source that
states its meaning (``source_id``) and the slugs of the incidents it is linked with. Written by hand
and checked against autogenerate on SQLite and PostgreSQL.

Revision ID: 0007
Revises: 0004
Create Date: 2026-12-03 17:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "term",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("slug", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_fr", sa.String(length=200), nullable=True),
        sa.Column("definition", sa.String(length=4000), nullable=False),
        sa.Column("definition_fr", sa.String(length=4000), nullable=True),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("incidents", sa.JSON(), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revision", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(["source_id"], ["source.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "slug"),
    )
    op.create_index(op.f("ix_term_guild_id"), "term", ["guild_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_term_guild_id"), table_name="term")
    op.drop_table("term")
