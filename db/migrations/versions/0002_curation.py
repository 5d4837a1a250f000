"""Curation (docs/CURATION.md): soft removal and revisions on entries; guild config, audit, suggestions.

Written by hand and checked against autogenerate on SQLite and PostgreSQL. ``removed_at`` and
``revision`` go on the five top-level tables; existing rows start at revision 1 (the server default)
and not removed. SQLite alters the tables in batch mode (``env.py`` renders batch).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-09 10:12:31
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENTRY_TABLES = ("chamber", "party", "person", "source", "incident")


def _vocabulary(name: str, *values: str) -> sa.Enum:
    """A vocabulary frozen at this revision, stored as its values (see 0001)."""
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=False, length=32)


ENTITY_KIND = _vocabulary("entitykind", "incident", "person", "party", "source", "chamber")
AUDIT_ACTION = _vocabulary("auditaction", "add", "edit", "remove", "restore", "undo", "import", "approve")
SUGGESTION_STATUS = _vocabulary("suggestionstatus", "pending", "approved", "rejected", "stale")


def upgrade() -> None:
    for table in ENTRY_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))
            batch.add_column(sa.Column("revision", sa.Integer(), server_default="1", nullable=False))
    op.create_table(
        "guildconfig",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("moderator_role_id", sa.BigInteger(), nullable=True),
        sa.Column("updated_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )
    op.create_table(
        "suggestion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", ENTITY_KIND, nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("action", AUDIT_ACTION, nullable=False),
        sa.Column("summary", sa.String(length=300), nullable=False),
        sa.Column("base", sa.JSON(), nullable=True),
        sa.Column("proposal", sa.JSON(), nullable=True),
        sa.Column("status", SUGGESTION_STATUS, nullable=False),
        sa.Column("reviewer_id", sa.BigInteger(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.String(length=300), nullable=True),
        sa.Column("notified_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_suggestion_guild_id"), "suggestion", ["guild_id"], unique=False)
    op.create_table(
        "auditentry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", AUDIT_ACTION, nullable=False),
        sa.Column("kind", ENTITY_KIND, nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("summary", sa.String(length=300), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("undoes_id", sa.Integer(), nullable=True),
        sa.Column("undone_by_id", sa.Integer(), nullable=True),
        sa.Column("suggestion_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["suggestion_id"], ["suggestion.id"]),
        sa.ForeignKeyConstraint(["undoes_id"], ["auditentry.id"]),
        sa.ForeignKeyConstraint(["undone_by_id"], ["auditentry.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_auditentry_guild_id"), "auditentry", ["guild_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_auditentry_guild_id"), table_name="auditentry")
    op.drop_table("auditentry")
    op.drop_index(op.f("ix_suggestion_guild_id"), table_name="suggestion")
    op.drop_table("suggestion")
    op.drop_table("guildconfig")
    for table in reversed(ENTRY_TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("revision")
            batch.drop_column("removed_at")
