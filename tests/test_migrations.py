"""The migrations build exactly the schema db/models.py describes, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlmodel import SQLModel, select

import db.models  # noqa: F401  (registers every table)
from db.models import SHARED_GUILD, Chamber, Incident, IncidentKind
from db.session import Database, alembic_config

HEAD = "0009"
MODEL_TABLES = set(SQLModel.metadata.tables)


@pytest.fixture
def empty_database(database_url: str) -> Iterator[Database]:
    """A database no migration has touched yet."""
    db = Database(database_url)
    yield db
    db.dispose()


def table_names(database: Database) -> set[str]:
    with database.engine.connect() as connection:
        return set(inspect(connection).get_table_names())


def schema_diff(database: Database) -> list[Any]:
    """What ``alembic revision --autogenerate`` would write, compared the way env.py compares."""
    with database.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        return compare_metadata(context, SQLModel.metadata)


def downgrade_to_base(database: Database) -> None:
    with database.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")


def test_models_define_the_expected_tables() -> None:
    assert set(SQLModel.metadata.tables) == {
        "chamber",
        "party",
        "person",
        "source",
        "incident",
        "incidentsource",
        "participant",
        "motion",
        "position",
        "quote",
        "ruling",
        "datasetversion",
        "guildconfig",
        "auditentry",
        "suggestion",
        "channelconfig",
        "collection",
        "collectionitem",
        "quiz",
        "quizquestion",
        "quizanswer",
        "quizscore",
        "customquestion",
        "term",
        "entrychange",
    }


def test_empty_database_has_no_revision(empty_database: Database) -> None:
    assert empty_database.current_revision() is None


def test_upgrade_creates_every_model_table(empty_database: Database) -> None:
    empty_database.upgrade()

    assert table_names(empty_database) == MODEL_TABLES | {"alembic_version"}
    assert empty_database.current_revision() == HEAD


def test_migrated_schema_matches_the_models(database: Database) -> None:
    assert schema_diff(database) == []


def test_schema_comparison_notices_drift(database: Database) -> None:
    """Guards the test above against comparing nothing."""
    with database.engine.begin() as connection:
        connection.execute(text("DROP INDEX ix_chamber_guild_id"))

    diff = schema_diff(database)

    assert [(entry[0], entry[1].name) for entry in diff] == [("add_index", "ix_chamber_guild_id")]


def test_downgrade_to_base_removes_every_model_table(database: Database) -> None:
    downgrade_to_base(database)

    assert table_names(database) == {"alembic_version"}
    assert database.current_revision() is None


def test_vocabularies_are_stored_as_their_values_in_plain_text(database: Database) -> None:
    with database.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO chamber (guild_id, slug, name, legislature, country)"
                " VALUES (0, 'c', 'Chamber', 'Legislature', 'Canada')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO incident (guild_id, slug, title, date, chamber_id, kind, summary, aliases)"
                " VALUES (0, 'i', 'Title', '2020-06-17', 1, 'refusal_to_withdraw', 'Summary', '[]')"
            )
        )
    with database.session() as session:
        incident = session.exec(select(Incident)).one()
    assert incident.kind is IncidentKind.REFUSAL_TO_WITHDRAW


def test_upgrade_after_downgrade_rebuilds_the_schema(database: Database) -> None:
    downgrade_to_base(database)

    database.upgrade()

    assert table_names(database) == MODEL_TABLES | {"alembic_version"}
    assert schema_diff(database) == []


def test_upgrade_twice_keeps_schema_and_rows(database: Database) -> None:
    with database.session() as session:
        session.add(Chamber(slug="commons", name="House of Commons", legislature="45th", country="Canada"))
        session.commit()

    database.upgrade()

    assert database.current_revision() == HEAD
    with database.session() as session:
        chamber = session.get(Chamber, 1)
    assert chamber is not None
    assert (chamber.slug, chamber.guild_id) == ("commons", SHARED_GUILD)


def test_rows_from_before_curation_start_at_revision_one_and_not_removed(empty_database: Database) -> None:
    empty_database.upgrade("0001")
    with empty_database.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO chamber (guild_id, slug, name, legislature, country)"
                " VALUES (0, 'c', 'Chamber', 'Legislature', 'Canada')"
            )
        )

    empty_database.upgrade()

    with empty_database.session() as session:
        chamber = session.exec(select(Chamber)).one()
    assert (chamber.revision, chamber.removed_at) == (1, None)
