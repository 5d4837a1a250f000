"""Classrooms (docs/CLASSROOM.md): a teacher role, private replies and a language per guild, private
replies per channel, and teachers' collections of incidents.

``guildconfig`` gains ``teacher_role_id`` (None: the moderators teach), ``ephemeral`` (existing guilds
start public) and ``language``; ``channelconfig`` holds a channel's own ``ephemeral``; ``collection``
and ``collectionitem`` hold the named sets, an item naming its incident by slug (read in the guild's
view). Written by hand and checked against autogenerate on SQLite and PostgreSQL; SQLite alters in
batch mode.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 17:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guildconfig") as batch:
        batch.add_column(sa.Column("teacher_role_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("ephemeral", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))
    op.create_table(
        "channelconfig",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("ephemeral", sa.Boolean(), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "channel_id"),
    )
    op.create_table(
        "collection",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("key", sa.String(length=60), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "key"),
    )
    op.create_index(op.f("ix_collection_guild_id"), "collection", ["guild_id"], unique=False)
    op.create_table(
        "collectionitem",
        sa.Column("collection_id", sa.Integer(), nullable=False),
        sa.Column("incident_slug", sa.String(length=64), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["collection_id"], ["collection.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("collection_id", "incident_slug"),
    )


def downgrade() -> None:
    op.drop_table("collectionitem")
    op.drop_index(op.f("ix_collection_guild_id"), table_name="collection")
    op.drop_table("collection")
    op.drop_table("channelconfig")
    with op.batch_alter_table("guildconfig") as batch:
        batch.drop_column("language")
        batch.drop_column("ephemeral")
        batch.drop_column("teacher_role_id")
