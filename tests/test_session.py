"""``Database``: URLs it accepts, what SQLite connections enforce, sessions, and first-run seeding."""

from __future__ import annotations

import datetime as dt
import shutil
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

import db.session
from db.dataset.seed import shipped_version
from db.models import SHARED_GUILD, Chamber, DatasetVersion, Incident, Person
from db.session import Database
from tests.conftest import SqliteTemplate
from tests.test_migrations import HEAD


def add_chamber(database: Database, slug: str = "commons") -> None:
    with database.session() as session:
        session.add(Chamber(slug=slug, name="House of Commons", legislature="45th", country="Canada"))
        session.commit()


def chamber_slugs(database: Database) -> list[str]:
    with database.session() as session:
        return list(session.exec(select(Chamber.slug).order_by(Chamber.slug)))


@pytest.mark.parametrize(
    "url",
    [
        "postgres://bot:secret@db.example:5432/parlbot",
        "postgresql://bot:secret@db.example:5432/parlbot",
        "postgresql+psycopg://bot:secret@db.example:5432/parlbot",
    ],
)
def test_postgresql_urls_use_psycopg(url: str) -> None:
    database = Database(url)

    assert database.engine.dialect.driver == "psycopg"
    assert database.url.render_as_string(hide_password=False) == (
        "postgresql+psycopg://bot:secret@db.example:5432/parlbot"
    )
    database.dispose()


def test_postgres_scheme_connects(postgresql_schema_url: str) -> None:
    database = Database(postgresql_schema_url.replace("postgresql+psycopg://", "postgres://", 1))
    try:
        with database.engine.connect() as connection:
            assert connection.scalar(text("SELECT 1")) == 1
    finally:
        database.dispose()


def test_postgresql_tests_run_in_their_own_schema(postgresql_schema_url: str) -> None:
    database = Database(postgresql_schema_url)
    database.upgrade()
    try:
        with database.engine.connect() as connection:
            schema = connection.scalar(text("SELECT current_schema()"))
            chamber_schemas = connection.scalars(
                text("SELECT table_schema FROM information_schema.tables WHERE table_name = 'chamber'")
            ).all()
    finally:
        database.dispose()

    assert schema is not None
    assert schema.startswith("test_")
    assert chamber_schemas == [schema]


def test_foreign_keys_are_enforced(database: Database) -> None:
    with database.session() as session:
        session.add(Person(slug="nobody", name="Nobody", party_id=999))
        with pytest.raises(IntegrityError):
            session.commit()


def test_foreign_keys_stay_on_after_upgrading_in_memory_database() -> None:
    """Migrations switch SQLite foreign keys off; the one shared in-memory connection gets them back."""
    database = Database("sqlite://")
    database.upgrade()

    with database.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    database.dispose()


def test_sqlite_file_parent_directories_are_created(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "parlbot.sqlite3"
    database = Database(f"sqlite:///{path}")

    database.upgrade()

    assert path.is_file()
    database.dispose()


def test_in_memory_database_is_shared_across_sessions() -> None:
    database = Database("sqlite://")
    database.upgrade()

    add_chamber(database)

    assert chamber_slugs(database) == ["commons"]
    database.dispose()


def test_in_memory_database_is_shared_across_threads() -> None:
    """The Library runs database work in ``asyncio.to_thread``."""
    database = Database("sqlite://")
    database.upgrade()
    add_chamber(database)
    seen: list[list[str]] = []

    worker = threading.Thread(target=lambda: seen.append(chamber_slugs(database)))
    worker.start()
    worker.join()

    assert seen == [["commons"]]
    database.dispose()


def test_objects_stay_readable_after_commit_and_close(database: Database) -> None:
    with database.session() as session:
        chamber = Chamber(slug="senate", name="Senate", legislature="45th", country="Canada")
        session.add(chamber)
        session.commit()

    assert (chamber.id, chamber.slug, chamber.guild_id) == (1, "senate", SHARED_GUILD)


def test_uncommitted_work_is_rolled_back_when_the_session_ends(database: Database) -> None:
    with database.session() as session:
        session.add(Chamber(slug="senate", name="Senate", legislature="45th", country="Canada"))
        session.flush()

    assert chamber_slugs(database) == []


def test_ensure_ready_without_seed_leaves_the_database_empty(database_url: str) -> None:
    database = Database(database_url)

    assert database.ensure_ready(seed=False) is False

    assert database.current_revision() == HEAD
    with database.session() as session:
        assert session.exec(select(func.count()).select_from(Incident)).one() == 0
    database.dispose()


def test_ensure_ready_seeds_only_while_the_shipped_version_is_not_recorded(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Session] = []

    def fake_seed(session: Session, _loaded: object = None) -> None:
        calls.append(session)
        version = shipped_version()
        session.add(DatasetVersion(guild_id=SHARED_GUILD, version=version, loaded_at=dt.datetime.now(dt.UTC)))

    monkeypatch.setattr(db.session, "seed", fake_seed)
    database = Database(database_url)

    results = [database.ensure_ready(), database.ensure_ready()]

    assert results == [True, False]
    assert len(calls) == 1
    database.dispose()


def test_ensure_ready_loads_the_shipped_dataset_once(database_url: str) -> None:
    database = Database(database_url)

    first = database.ensure_ready()
    with database.session() as session:
        incidents = session.exec(select(func.count()).select_from(Incident)).one()
    second = database.ensure_ready()

    assert (first, second) == (True, False)
    assert incidents > 0
    with database.session() as session:
        assert session.exec(select(func.count()).select_from(Incident)).one() == incidents
        versions = session.exec(select(DatasetVersion)).all()
    assert [version.guild_id for version in versions] == [SHARED_GUILD]
    database.dispose()


def test_ensure_ready_brings_a_database_seeded_with_an_older_release_up_to_date(database_url: str) -> None:
    database = Database(database_url)
    database.ensure_ready()
    with database.session() as session:
        incident = session.exec(select(Incident).where(Incident.slug == "singh-2020")).one()
        shipped_title = incident.title
        incident.title = "An older release's title"
        recorded = session.get(DatasetVersion, SHARED_GUILD)
        assert recorded is not None
        recorded.version = "2020.01.1"
        session.commit()

    assert database.ensure_ready() is True

    with database.session() as session:
        incident = session.exec(select(Incident).where(Incident.slug == "singh-2020")).one()
        assert incident.title == shipped_title
        recorded = session.get(DatasetVersion, SHARED_GUILD)
        assert recorded is not None
        assert recorded.version == shipped_version()
    database.dispose()


@pytest.mark.parametrize("version", ["2099.1.1", "our-own-2020"])
def test_ensure_ready_leaves_a_later_or_an_operators_own_shared_dataset_alone(
    database_url: str, version: str
) -> None:
    database = Database(database_url)
    database.ensure_ready()
    with database.session() as session:
        recorded = session.get(DatasetVersion, SHARED_GUILD)
        assert recorded is not None
        recorded.version = version
        session.commit()

    assert database.ensure_ready() is False

    with database.session() as session:
        recorded = session.get(DatasetVersion, SHARED_GUILD)
        assert recorded is not None
        assert recorded.version == version
    database.dispose()


# -- SQLite files: WAL, a busy timeout, synchronous=NORMAL ------------------------------------------


@pytest.fixture
def sqlite_file(sqlite_template: SqliteTemplate, tmp_path: Path) -> Path:
    """A migrated, empty SQLite file of this test's own."""
    path = tmp_path / "parlbot.sqlite3"
    shutil.copyfile(sqlite_template.empty, path)
    return path


PRAGMAS = ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")


def pragma(database: Database, name: str) -> object:
    with database.engine.connect() as connection:
        return connection.exec_driver_sql(f"PRAGMA {name}").scalar()


def test_a_sqlite_file_is_written_ahead_with_normal_sync_a_busy_timeout_and_foreign_keys(
    tmp_path: Path,
) -> None:
    database = Database(f"sqlite:///{tmp_path / 'new.sqlite3'}")

    settings = {name: pragma(database, name) for name in PRAGMAS}

    assert settings == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "busy_timeout": int(db.session.SQLITE_BUSY_TIMEOUT * 1000),
        "foreign_keys": 1,
    }
    database.dispose()


def test_a_write_lands_while_another_connection_is_in_the_middle_of_a_read(sqlite_file: Path) -> None:
    reader, writer = Database(f"sqlite:///{sqlite_file}"), Database(f"sqlite:///{sqlite_file}")
    add_chamber(reader, "before")
    reading = reader.engine.raw_connection()
    try:
        reading.execute("BEGIN")  # a read transaction (a long export, a backup) holds its snapshot
        assert reading.execute("SELECT slug FROM chamber").fetchall() == [("before",)]

        add_chamber(writer, "during")  # rollback journal: "database is locked" after the timeout

        assert reading.execute("SELECT slug FROM chamber").fetchall() == [("before",)]
        reading.execute("COMMIT")
    finally:
        reading.close()
    assert chamber_slugs(reader) == ["before", "during"]
    reader.dispose()
    writer.dispose()


def test_a_write_waits_for_another_connections_write_then_lands(sqlite_file: Path) -> None:
    first, second = Database(f"sqlite:///{sqlite_file}"), Database(f"sqlite:///{sqlite_file}")
    started = threading.Event()
    failures: list[Exception] = []

    def write_second() -> None:
        started.set()
        try:
            add_chamber(second, "second")
        except Exception as error:  # reported by the assertion below
            failures.append(error)

    with first.session() as session:
        session.add(Chamber(slug="first", name="First", legislature="45th", country="Canada"))
        session.flush()  # the write lock is held until commit
        waiting = threading.Thread(target=write_second)
        waiting.start()
        started.wait()
        time.sleep(0.2)  # not a measurement: gives the second write time to reach the lock and wait
        session.commit()
    waiting.join()

    assert failures == []
    assert chamber_slugs(first) == ["first", "second"]
    first.dispose()
    second.dispose()
