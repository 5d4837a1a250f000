"""Quizzes (bot.quiz): a quiz per channel, its questions, the members' answers and the guild's scores.

``quiz.live_channel_id`` holds the channel while the quiz is open and NULL once it ends; its unique
constraint keeps a channel to one open quiz. ``quizanswer`` is unique per question and member (an
answer is changed in place). ``customquestion`` holds teachers' own questions, curated entries
(``EntityKind.QUESTION``) scoped by guild like the others. Written from autogenerate's output and
checked against it on SQLite and PostgreSQL.

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-03 17:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "quiz",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("live_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            sa.Enum("open", "ended", name="quizstatus", native_enum=False, length=32),
            nullable=False,
        ),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("current", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("live_channel_id"),
    )
    op.create_index(op.f("ix_quiz_guild_id"), "quiz", ["guild_id"], unique=False)
    op.create_table(
        "quizscore",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("answered", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    op.create_table(
        "quizquestion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("quiz_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("prompt", sa.String(length=4000), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("answer", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=4000), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["quiz_id"], ["quiz.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("quiz_id", "number"),
    )
    op.create_index(op.f("ix_quizquestion_quiz_id"), "quizquestion", ["quiz_id"], unique=False)
    op.create_table(
        "quizanswer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("choice", sa.Integer(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["quizquestion.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id", "user_id"),
    )
    op.create_index(op.f("ix_quizanswer_question_id"), "quizanswer", ["question_id"], unique=False)
    op.create_table(
        "customquestion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("slug", sa.String(length=64), nullable=False),
        sa.Column("prompt", sa.String(length=1000), nullable=False),
        sa.Column("answer", sa.String(length=80), nullable=False),
        sa.Column("wrong", sa.JSON(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revision", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(["source_id"], ["source.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "slug"),
    )
    op.create_index(op.f("ix_customquestion_guild_id"), "customquestion", ["guild_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_customquestion_guild_id"), table_name="customquestion")
    op.drop_table("customquestion")
    op.drop_index(op.f("ix_quizanswer_question_id"), table_name="quizanswer")
    op.drop_table("quizanswer")
    op.drop_index(op.f("ix_quizquestion_quiz_id"), table_name="quizquestion")
    op.drop_table("quizquestion")
    op.drop_table("quizscore")
    op.drop_index(op.f("ix_quiz_guild_id"), table_name="quiz")
    op.drop_table("quiz")
