"""Answers that read like a reference work: provenance notes, originals of translated quotes, rulings'
subjects.

``source.publisher`` becomes optional (a stored excerpt may name none) and ``source.note`` holds
provenance for moderators; ``quote`` gains ``original_text``, ``original_language``, ``note`` and
``speaker_inferred`` (a speaker the source does not name beside the words);
``ruling`` gains ``subject_id`` (a person) and ``subject_label`` (on whom it was ruled). Written by hand
and checked against autogenerate on SQLite and PostgreSQL; SQLite alters in batch mode.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03 13:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SUBJECT_FK = "fk_ruling_subject_id_person"


def upgrade() -> None:
    with op.batch_alter_table("source") as batch:
        batch.alter_column("publisher", existing_type=sa.String(length=200), nullable=True)
        batch.add_column(sa.Column("note", sa.String(length=4000), nullable=True))
    with op.batch_alter_table("quote") as batch:
        batch.add_column(sa.Column("original_text", sa.String(length=4000), nullable=True))
        batch.add_column(sa.Column("original_language", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("note", sa.String(length=4000), nullable=True))
        batch.add_column(
            sa.Column("speaker_inferred", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("ruling") as batch:
        batch.add_column(sa.Column("subject_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("subject_label", sa.String(length=300), nullable=True))
        batch.create_foreign_key(SUBJECT_FK, "person", ["subject_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("ruling") as batch:
        batch.drop_constraint(SUBJECT_FK, type_="foreignkey")
        batch.drop_column("subject_label")
        batch.drop_column("subject_id")
    with op.batch_alter_table("quote") as batch:
        batch.drop_column("speaker_inferred")
        batch.drop_column("note")
        batch.drop_column("original_language")
        batch.drop_column("original_text")
    op.execute("UPDATE source SET publisher = '' WHERE publisher IS NULL")
    with op.batch_alter_table("source") as batch:
        batch.drop_column("note")
        batch.alter_column("publisher", existing_type=sa.String(length=200), nullable=False)
