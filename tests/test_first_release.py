"""A database of the first release (``tests/fixtures/first_release.sql``) upgrades to head losing nothing.

The fixture's rows are loaded into a database at revision 0001, the first release's schema, on SQLite
and on PostgreSQL. Upgraded to head, every row keeps every value it had; opened as ``parlbot run``
opens it (which also loads the newer shipped dataset into the shared scope, the first release's being
older), the guild's rows are all still there as they were, and the guild's members are answered from
them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlmodel import SQLModel, select

from bot.client.bot import ParlBot
from bot.library import Library
from bot.loopback.payloads import DEFAULT_GUILD_ID
from bot.loopback.session import OfflineSession
from bot.settings import Settings
from db.dataset.seed import shipped_version
from db.models import (
    Chamber,
    DatasetVersion,
    Incident,
    IncidentSource,
    Motion,
    Participant,
    Party,
    Person,
    Position,
    Quote,
    Ruling,
    Source,
)
from db.session import Database
from tests.discord_harness import first_message

FIXTURE = Path(__file__).parent / "fixtures" / "first_release.sql"
FIRST_RELEASE = "0001"
GUILD_INCIDENTS = "SELECT id FROM incident WHERE guild_id <> 0"
# Which rows of each table of the first release are a guild's: its own, or its own incidents' parts.
GUILD_ROWS = {
    "chamber": "guild_id <> 0",
    "party": "guild_id <> 0",
    "person": "guild_id <> 0",
    "source": "guild_id <> 0",
    "incident": "guild_id <> 0",
    "incidentsource": f"incident_id IN ({GUILD_INCIDENTS})",
    "participant": f"incident_id IN ({GUILD_INCIDENTS})",
    "motion": f"incident_id IN ({GUILD_INCIDENTS})",
    "position": f"motion_id IN (SELECT id FROM motion WHERE incident_id IN ({GUILD_INCIDENTS}))",
    "quote": f"incident_id IN ({GUILD_INCIDENTS})",
    "ruling": f"incident_id IN ({GUILD_INCIDENTS})",
    "datasetversion": "guild_id <> 0",
}
ENTRIES: tuple[type[Chamber | Party | Person | Source | Incident], ...] = (
    Chamber,
    Party,
    Person,
    Source,
    Incident,
)
MODELS: tuple[type[SQLModel], ...] = (
    *ENTRIES,
    IncidentSource,
    Participant,
    Motion,
    Position,
    Quote,
    Ruling,
    DatasetVersion,
)
Rows = dict[str, list[tuple[Any, ...]]]


@pytest.fixture
def first_release(database_url: str) -> Iterator[Database]:
    """A database at the first release's schema holding the fixture's rows."""
    database = Database(database_url)
    database.upgrade(FIRST_RELEASE)
    load_script(database, FIXTURE.read_text(encoding="utf-8"))
    yield database
    database.dispose()


def load_script(database: Database, script: str) -> None:
    """Run ``script`` (several statements); on PostgreSQL, then move the id sequences
    past the explicit ids it inserted."""
    connection = database.engine.raw_connection()
    try:
        if database.is_sqlite:
            connection.driver_connection.executescript(script)  # type: ignore[union-attr]
        else:
            cursor = connection.cursor()
            cursor.execute(script)
            cursor.execute(
                "SELECT table_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND column_name = 'id'"
            )
            for (table,) in cursor.fetchall():
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
                )
            connection.commit()
    finally:
        connection.close()


def tables(database: Database) -> dict[str, list[str]]:
    """The database's tables and their columns (read at the first release: that release's)."""
    with database.engine.connect() as connection:
        inspector = inspect(connection)
        return {
            table: [column["name"] for column in inspector.get_columns(table)]
            for table in inspector.get_table_names()
            if table != "alembic_version"
        }


def rows(database: Database, columns: dict[str, list[str]], where: dict[str, str] | None = None) -> Rows:
    """Each table's rows (``where`` its condition), as those columns, in the order of their values."""
    found: Rows = {}
    with database.engine.connect() as connection:
        for table, names in columns.items():
            condition = f" WHERE {where[table]}" if where else ""
            selected = connection.execute(text(f"SELECT {', '.join(names)} FROM {table}{condition}"))
            found[table] = sorted((tuple(row) for row in selected), key=repr)
    return found


def test_the_fixture_has_rows_in_every_table_of_the_first_release(first_release: Database) -> None:
    columns = tables(first_release)

    stored = rows(first_release, columns)
    guilds = rows(first_release, columns, GUILD_ROWS)

    assert set(columns) == set(GUILD_ROWS)  # which rows are the guild's is said for every table
    assert [table for table, found in guilds.items() if not found] == []  # the guild has some in each
    assert [table for table in stored if len(stored[table]) == len(guilds[table])] == []  # so does 0


def test_every_row_reads_through_the_current_models_with_the_new_columns_at_their_defaults(
    first_release: Database,
) -> None:
    counts = {table: len(found) for table, found in rows(first_release, tables(first_release)).items()}

    first_release.upgrade()

    with first_release.session() as session:
        read = {model.__tablename__: session.exec(select(model)).all() for model in MODELS}
        entries = [entry for model in ENTRIES for entry in session.exec(select(model))]
        quotes = session.exec(select(Quote)).all()
    assert {table: len(found) for table, found in read.items()} == counts
    assert {(entry.revision, entry.removed_at) for entry in entries} == {(1, None)}
    assert {(quote.speaker_inferred, quote.original_text, quote.note) for quote in quotes} == {
        (False, None, None)
    }


def test_upgrading_to_head_keeps_every_row_with_its_values(first_release: Database) -> None:
    columns = tables(first_release)
    before = rows(first_release, columns)

    first_release.upgrade()

    assert first_release.current_revision() != FIRST_RELEASE
    assert rows(first_release, columns) == before


def test_opening_it_loads_the_new_shipped_dataset_and_leaves_the_guild_rows_as_they_were(
    first_release: Database,
) -> None:
    columns = tables(first_release)
    before = rows(first_release, columns, GUILD_ROWS)

    seeded = first_release.ensure_ready()

    assert seeded
    assert rows(first_release, columns, GUILD_ROWS) == before
    with first_release.engine.connect() as connection:
        versions = dict(connection.execute(text("SELECT guild_id, version FROM datasetversion")).all())
    assert versions == {0: shipped_version(), DEFAULT_GUILD_ID: "civics-unit-1"}


@pytest.mark.parametrize(
    ("incident", "title"),
    [
        ("westview-lee-2024", "Jordan Lee named by the Speaker of the Westview Model Parliament"),
        ("singh-2020", "Singh ordered out of the Commons (our class notes)"),
    ],
    ids=["its own incident", "its copy of a shared one"],
)
async def test_the_guild_is_answered_from_its_own_rows_after_the_upgrade(
    first_release: Database, incident: str, title: str
) -> None:
    url = first_release.url.render_as_string(hide_password=False)
    library = Library.open(url)
    try:
        bot = ParlBot(settings=Settings(database_url=url), library=library)
        async with OfflineSession(bot, guild_id=DEFAULT_GUILD_ID) as session:
            answer = first_message(await session.invoke(f"/incident {incident}"))
    finally:
        library.close()

    assert answer["embeds"][0]["title"] == title
