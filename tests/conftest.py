"""Database fixtures shared by the whole suite.

``database_url`` runs a test once per backend: always SQLite (a file in ``tmp_path``), and PostgreSQL
too when ``TEST_DATABASE_URL`` is set (``.ci/run`` sets it). Each PostgreSQL test gets a fresh,
uniquely named schema, selected through the connection's ``search_path`` and dropped afterwards, in a
database of the session's own (created on that server, dropped at the end), so tests never see each
other's tables, not even those of another xdist worker or of another run. Build on ``database``
(migrated, empty) or ``seeded_database`` (migrated, shipped dataset loaded). Async tests can use them
as they are: pytest-asyncio runs in ``asyncio_mode = "auto"`` (pyproject.toml).

Migrating and seeding are done once per session (per xdist worker), into templates, and every test
gets its own copy: on SQLite a copy of the template file, on PostgreSQL a replay, into the test's own
schema, of exactly the SQL the migrations and the seeding ran on the template (recorded as it ran).
``database_url`` itself stays empty, so tests of the migrations still start from nothing.
"""

from __future__ import annotations

import os
import pickle
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL

from bot.change_feed import record_seed
from bot.search.documents import load_documents
from bot.search.index import SearchIndex
from db.dataset.files import read_dataset
from db.dataset.schema import SHIPPED_DATASET
from db.dataset.writer import load_dataset
from db.session import Database, normalize_url

TEST_DATABASE_URL_ENV = "TEST_DATABASE_URL"

# The Discord-side fixtures (a logged-in ParlBot against the loopback Discord) and the command-line
# ones (``bot.cli.main`` in a clean working directory) live beside these.
pytest_plugins = ["tests.discord_harness", "tests.cli_harness"]

# Property-based tests: enough examples to find what a hand-picked case misses, few enough to keep the
# suite quick; no per-example deadline (a shared CI machine's pauses are not failures). A longer hunt:
# HYPOTHESIS_PROFILE=thorough.
settings.register_profile("parlbot", max_examples=60, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "parlbot"))


def with_search_path(url: URL, schema: str) -> URL:
    """``url`` with every connection's ``search_path`` set to ``schema`` (libpq ``options``)."""
    return url.update_query_dict({"options": f"-csearch_path={schema}"})


def schema_url(url: URL, schema: str) -> str:
    """``with_search_path`` as the string a ``Database`` takes."""
    return with_search_path(url, schema).render_as_string(hide_password=False)


def index_of(database: Database) -> bytes:
    """The index ``Library.open`` builds for ``database``, pickled: each ``pickle.loads`` is a new copy."""
    with database.session() as session:
        return pickle.dumps(SearchIndex(load_documents(session)))


# Templates: migrated and seeded once per session


@dataclass(frozen=True)
class SqliteTemplate:
    empty: Path  # migrated
    seeded: Path  # migrated and seeded
    index: bytes  # of ``seeded``, pickled


@pytest.fixture(scope="session", autouse=True)
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's cache folder (where ``parlbot`` saves search index snapshots by default) is the
    session's own (XDG, as on Linux), so no test reads or leaves a snapshot in the real one."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    directory = tmp_path_factory.mktemp("template")
    empty, seeded = directory / "empty.sqlite3", directory / "seeded.sqlite3"
    database = Database(f"sqlite:///{empty}")
    database.ensure_ready(seed=False)
    database.dispose()
    shutil.copyfile(empty, seeded)
    database = Database(f"sqlite:///{seeded}")
    database.ensure_ready(seed=True, loaded=record_seed)  # as `Library.open` seeds it
    index = index_of(database)
    database.dispose()
    return SqliteTemplate(empty, seeded, index)


# (DBAPI cursor method, statement, parameters); parameters None when the statement was sent without.
Call = tuple[str, str, Any]


@dataclass
class Recorder:
    """Records every statement an engine sends to the DBAPI, exactly as it sends it."""

    engine: Engine
    calls: list[Call] = field(default_factory=list)

    def __post_init__(self) -> None:
        event.listen(self.engine, "do_execute", self._execute)
        event.listen(self.engine, "do_execute_no_params", self._execute_no_params)
        event.listen(self.engine, "do_executemany", self._executemany)

    def _execute(self, _cursor: Any, statement: str, parameters: Any, _context: Any) -> None:
        self.calls.append(("execute", statement, parameters))

    def _execute_no_params(self, _cursor: Any, statement: str, _context: Any) -> None:
        self.calls.append(("execute", statement, None))

    def _executemany(self, _cursor: Any, statement: str, parameters: Any, _context: Any) -> None:
        self.calls.append(("executemany", statement, parameters))

    def take(self) -> list[Call]:
        calls, self.calls = self.calls, []
        return calls

    def stop(self) -> None:
        event.remove(self.engine, "do_execute", self._execute)
        event.remove(self.engine, "do_execute_no_params", self._execute_no_params)
        event.remove(self.engine, "do_executemany", self._executemany)


def replay(database: Database, calls: list[Call]) -> None:
    """Send ``calls`` to ``database`` in one transaction, as they were sent to the template."""
    connection = database.engine.raw_connection()
    try:
        cursor = connection.cursor()
        for method, statement, parameters in calls:
            if method == "executemany":
                cursor.executemany(statement, parameters)
            elif parameters is None:
                cursor.execute(statement)
            else:
                cursor.execute(statement, parameters)
        cursor.close()
        connection.commit()
    finally:
        connection.close()


@dataclass(frozen=True)
class PostgresqlTemplate:
    migrate: list[Call]  # what ``ensure_ready(seed=False)`` sent to an empty schema
    seed: list[Call]  # what ``ensure_ready(seed=True)`` sent after that
    index: bytes  # of the seeded template, pickled


@pytest.fixture(scope="session")
def postgresql_server() -> URL:
    configured = os.environ.get(TEST_DATABASE_URL_ENV)
    if not configured:
        pytest.skip(f"{TEST_DATABASE_URL_ENV} is not set")
    return normalize_url(configured)


@pytest.fixture(scope="session")
def postgresql_database(postgresql_server: URL) -> Iterator[URL]:
    """A database of this session's own (of this xdist worker's), beside ``TEST_DATABASE_URL``'s.

    Its schemas are this session's alone, so concurrent sessions never see each other's tables.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"{postgresql_server.database}_{worker}_{uuid.uuid4().hex[:8]}"
    server = create_engine(postgresql_server, isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield postgresql_server.set(database=name)
        with server.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        server.dispose()


@pytest.fixture(scope="session")
def postgresql_admin(postgresql_database: URL) -> Iterator[Engine]:
    """An autocommit engine on the session's database, for creating and dropping schemas."""
    admin = create_engine(postgresql_database, isolation_level="AUTOCOMMIT")
    yield admin
    admin.dispose()


def create_schema(admin: Engine) -> str:
    schema = f"test_{uuid.uuid4().hex[:16]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    return schema


def drop_schema(admin: Engine, schema: str) -> None:
    with admin.connect() as connection:
        # A test that leaves a transaction open would otherwise hang the suite here.
        connection.execute(text("SET lock_timeout = '10s'"))
        connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture(scope="session")
def postgresql_template(postgresql_database: URL, postgresql_admin: Engine) -> PostgresqlTemplate:
    """Migrate and seed a schema once, recording what was sent; the tests' schemas replay it.

    The template schema is dropped once recorded, before any test can look, so no test sees its tables.
    """
    schema = create_schema(postgresql_admin)
    try:
        database = Database(schema_url(postgresql_database, schema))
        recorder = Recorder(database.engine)
        database.ensure_ready(seed=False)
        migrate = recorder.take()
        database.ensure_ready(seed=True, loaded=record_seed)  # as `Library.open` seeds it
        seed = recorder.take()
        recorder.stop()
        index = index_of(database)
        database.dispose()
    finally:
        drop_schema(postgresql_admin, schema)
    for _method, statement, parameters in migrate + seed:
        # Replayed into another schema, a statement naming the template's would reach past it.
        assert schema not in f"{statement} {parameters!r}", statement
    return PostgresqlTemplate(migrate, seed, index)


# Per-test databases


@pytest.fixture
def postgresql_schema_url(postgresql_database: URL, postgresql_admin: Engine) -> Iterator[str]:
    """A URL whose connections live in a new, empty PostgreSQL schema; the schema is dropped after."""
    schema = create_schema(postgresql_admin)
    yield schema_url(postgresql_database, schema)
    drop_schema(postgresql_admin, schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL, once per backend (nothing migrated yet)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'parlbot.sqlite3'}"
    url: str = request.getfixturevalue("postgresql_schema_url")
    return url


def sqlite_path(database: Database) -> Path:
    assert database.url.database
    return Path(database.url.database)


@pytest.fixture
def database(request: pytest.FixtureRequest, database_url: str) -> Iterator[Database]:
    """A migrated, empty database (no shipped dataset): at ``database_url``, a copy of the template."""
    db = Database(database_url)
    if db.is_sqlite:
        template: SqliteTemplate = request.getfixturevalue("sqlite_template")
        shutil.copyfile(template.empty, sqlite_path(db))
    else:
        replay(db, request.getfixturevalue("postgresql_template").migrate)
    yield db
    db.dispose()


@pytest.fixture
def seeded_database(request: pytest.FixtureRequest, database: Database) -> Database:
    """``database`` with the shipped dataset loaded into the shared scope."""
    if database.is_sqlite:
        template: SqliteTemplate = request.getfixturevalue("sqlite_template")
        database.dispose()
        shutil.copyfile(template.seeded, sqlite_path(database))
    else:
        replay(database, request.getfixturevalue("postgresql_template").seed)
    return database


@pytest.fixture
def seeded_index(request: pytest.FixtureRequest, seeded_database: Database) -> SearchIndex:
    """A search index of ``seeded_database`` as seeded, the test's own: a copy of the template's."""
    name = "sqlite_template" if seeded_database.is_sqlite else "postgresql_template"
    template: SqliteTemplate | PostgresqlTemplate = request.getfixturevalue(name)
    index: SearchIndex = pickle.loads(template.index)
    return index


@pytest.fixture(scope="module")
def shipped_db() -> Iterator[Database]:
    """An in-memory SQLite database holding the shipped dataset, shared by one test module."""
    database = Database("sqlite://")
    database.ensure_ready(seed=False)
    with database.session() as session:
        load_dataset(session, read_dataset(SHIPPED_DATASET))
        session.commit()
    yield database
    database.dispose()
