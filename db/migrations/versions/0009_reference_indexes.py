"""Indexes on the columns that refer to people, parties, chambers and sources, and on a member's
changes in a guild.

A single write looks up what refers to the entry it changes: the incidents that name a renamed
person (to re-index them), the rows that still point at an entry being removed. Without these
indexes each lookup scanned every quote, ruling, motion and position of the database (tens of
milliseconds per write at 100k incidents). A bare ``/undo`` looks for the member's latest change,
which read the guild's whole change log (an import writes one record per entry). Written by hand and
checked against autogenerate on SQLite and PostgreSQL.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 08:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXED = (
    ("person", "party_id"),
    ("incident", "chamber_id"),
    ("incidentsource", "source_id"),
    ("participant", "party_id"),
    ("motion", "moved_by_id"),
    ("motion", "source_id"),
    ("position", "person_id"),
    ("position", "party_id"),
    ("position", "source_id"),
    ("quote", "person_id"),
    ("quote", "source_id"),
    ("ruling", "ruled_by_id"),
    ("ruling", "subject_id"),
    ("ruling", "source_id"),
    ("customquestion", "source_id"),
    ("term", "source_id"),
)


def upgrade() -> None:
    for table, column in INDEXED:
        op.create_index(op.f(f"ix_{table}_{column}"), table, [column], unique=False)
    op.create_index("ix_auditentry_guild_actor", "auditentry", ["guild_id", "actor_id", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_auditentry_guild_actor", table_name="auditentry")
    for table, column in reversed(INDEXED):
        op.drop_index(op.f(f"ix_{table}_{column}"), table_name=table)
